#!/usr/bin/env bash
# Certified tables: `ssac bounds --coq` certificates compiled against the built development.
#  1. every `$ ssac bounds` table of README.md and docs/*.md (not --data): its certificate
#     compiles, and every eta/beta ceiling the table prints is the ceiling of a certified lemma of
#     the same row;
#  2. a fixed grid of 214 parameter sets covering the extremes (gamma = 1 + 1e-6, q = 0.01,
#     k = 100, delta = 1e-12, m = 1000, n = 10^6): every certificate compiles;
#     every binomial-sum eta of every row is either certified or named in a comment with the
#     reason it is not, and the certified ones are counted;
#  3. negative control: the first lemma with its ceiling moved by +1 and by -1 must not compile,
#     nor the first eta_random_pinelis lemma (Theorem1Pinelis.v's eta) moved the same way, nor the
#     first binomial-sum lemma with its size moved by +1 and by -1.
# Usage: certificates-test.sh SSAC_BINARY REPO_ROOT VO_DIR
set -euo pipefail
ssac=$(realpath "$1") root=$2 vo=$(realpath "$3")
work=$(mktemp -d "${TMPDIR:-/tmp}/ssac-coq-cert.XXXXXX")
trap 'rm -rf "$work"' EXIT
# Compiles a certificate after checking that each lemma brackets its value as c - 1 < v <= c (a
# wider bracket would compile without certifying the ceiling), or states of a binomial sum
# tail(s) <= target < tail(s - 1) for the same sum (BinomialTail.v).
compile() {
  python3 - "$work/$1" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
lemmas = re.findall(r"^Lemma (\w+) : (-?\d+) < .* <= (\d+)\.$", text, re.M)
binomial = re.findall(r"^Lemma (\w+) : eta_binomial_tail (.*) (\d+) <= \(.*\) "
                      r"< eta_binomial_tail (.*) (\d+)\.$", text, re.M)
if len(lemmas) + len(binomial) != text.count("\nLemma "):
    sys.exit(f"{sys.argv[1]}: a lemma is not of the form c - 1 < value <= c or "
             "tail(s) <= target < tail(s - 1)")
for name, lo, c in lemmas:
    if int(lo) + 1 != int(c):
        sys.exit(f"{sys.argv[1]}: {name} brackets ({lo}, {c}], not (c - 1, c]")
for name, sum_s, s, sum_prev, prev in binomial:
    if sum_s != sum_prev or int(prev) + 1 != int(s):
        sys.exit(f"{sys.argv[1]}: {name} compares sizes {s} and {prev} of different sums")
PY
  (cd "$work" && coqc -R "$vo" SSAC "$1" >"$1.log" 2>&1) || { cat "$work/$1.log" >&2; return 1; }
}

# 1. The documented tables.
n_docs=0
while IFS= read -r cmd; do
  n_docs=$((n_docs + 1))
  f=doc$n_docs.v
  # The page's table in Markdown, whatever format it shows and without its pipe into cut or head:
  # the same rows and numbers, in the one form the check below reads.
  cmd=$(sed -E -e 's/ \|.*$//' -e 's/ --format [a-z]+//' <<<"$cmd")
  # shellcheck disable=SC2086  # the documented command line is split as the shell splits it
  $ssac ${cmd#ssac } --format markdown --coq "$work/$f" >"$work/doc$n_docs.out"
  compile "$f"
  python3 - "$work/doc$n_docs.out" "$work/$f" "$cmd" <<'PY'
import re, sys
out, cert, cmd = sys.argv[1:]
text = open(cert).read()
proved = dict(re.findall(r"^Lemma (row\d+_\w+) : -?\d+ < .* <= (\d+)\.$", text, re.M))
proved.update(re.findall(r"^Lemma (row\d+_\w+) : eta_binomial_tail .* (\d+) <= ", text, re.M))
columns = {"eta_perfect": "eta_perfect", "eta_random": "eta_random",
           "eta_pinelis": "eta_random_pinelis",
           "eta_binomial": "eta_random_binomial",
           "eta_binomial_pinelis": "eta_random_binomial_pinelis",
           "eta_mcdiarmid": "eta_mcdiarmid",
           "beta_random": "beta_random", "beta_union": "beta_union"}
rows = [l for l in open(out) if l.startswith("|")]
if not rows: sys.exit(f"{cmd}: no markdown table to check")
head = [c.strip() for c in rows[0].strip().strip("|").split("|")]
checked = by_definition = 0
for i, line in enumerate(rows[2:], start=1):
    cells = [c.strip() for c in line.strip().strip("|").split("|")]
    for col, lemma in columns.items():
        if col not in head: continue
        value = cells[head.index(col)]
        name = f"row{i}_{lemma}"
        if proved.get(name) != value:
            # At q = 1 the betas are 1 by definition (no logarithm to bound); the writer says so
            # in a comment instead of a lemma.
            if (lemma.startswith("beta_") and cells[head.index("q")] == "1" and value == "1"
                    and "q = 1, beta = 1 by definition" in text):
                by_definition += 1
                continue
            sys.exit(f"{cmd}: row {i} prints {col} = {value}, certified: {proved.get(name)}")
        checked += 1
print(f"  {cmd}: {checked} printed ceilings certified"
      + (f", {by_definition} betas at q = 1 (1 by definition)" if by_definition else ""))
PY
done < <(grep -h '^ *\$ ssac bounds ' "$root"/README.md "$root"/docs/*.md | grep -v -- '--data' |
         sed 's/^ *\$ //')
((n_docs > 0)) || { echo "no documented ssac bounds table found" >&2; exit 1; }

# 2. The grid (4 cross products, 144 + 36 + 2 + 32 = 214 parameter sets).
grids=(
  "--k 1,3,100 --m 1,1000 --n 2,1000000 --delta 1e-12,0.5 --gamma 1.000001,1.1,100 --q 0.5,1"
  "--k 2,5 --m 2 --n 1000 --delta 1e-12,0.05 --gamma 1.000001,1.1,3 --q 0.01,0.3,0.999999"
  "--k 100 --m 1 --n 10 --delta 0.05 --gamma 1.000001,2 --q 0.01"
  "--k 4 --m 3,50 --n 3,100 --delta 0.1,0.9 --gamma 1.01,1.3 --q 0.05,0.8"
)
lemmas=0
for i in "${!grids[@]}"; do
  # shellcheck disable=SC2086
  $ssac bounds ${grids[$i]} --coq "$work/grid$i.v" >/dev/null
  compile "grid$i.v"
  lemmas=$((lemmas + $(grep -c '^Lemma' "$work/grid$i.v")))
done
echo "  grid: $lemmas certified ceilings compiled"
# The binomial-sum eta of each grid row: a lemma, or a comment saying why there is none (no value
# printed above 10^40; the cap decides a size below the closed form's ceiling; the capped terms'
# bound is not small enough at s - 1). The certified count is pinned: a change in the writer that
# certifies fewer must say so here.
python3 - "$work"/grid{0,1,2,3}.v <<'PY'
import re, sys
certified = 0
for path in sys.argv[1:]:
    text = open(path).read()
    for row in re.findall(r"^\(\* row (\d+):", text, re.M):
        for name in (f"row{row}_eta_random_binomial", f"row{row}_eta_random_binomial_pinelis"):
            if re.search(rf"^Lemma {name} : ", text, re.M):
                certified += 1
            elif not re.search(rf"^\(\* {name}: .*(none printed|not certified: \S)", text, re.M):
                sys.exit(f"{path}: {name} is neither certified nor explained")
if certified != 352:
    sys.exit(f"grid: {certified} binomial-sum etas certified, expected 352")
print(f"  grid: {certified} binomial-sum etas certified, the others explained")
PY

# 3. Negative control: one ceiling moved by one, either way, must fail to compile; so must one
#    binomial-sum eta moved by one (both sizes of its lemma).
for kind in closed pinelis binomial; do
  for shift in 1 -1; do
    python3 - "$work/grid0.v" "$work/neg.v" "$shift" "$kind" <<'PY'
import re, sys
src, dst, shift, kind = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
text = open(src).read()
head = text[:text.index("\nLemma ")]
if kind in ("closed", "pinelis"):
    name = r"\w+_eta_random_pinelis" if kind == "pinelis" else r"\w+"
    m = re.search(rf"^Lemma ({name}) : (-?\d+) < (.*) <= (\d+)\.\nProof\. .*$", text, re.M)
    lemma = f"Lemma {m[1]} : {int(m[2]) + shift} < {m[3]} <= {int(m[4]) + shift}.\n"
else:
    m = re.search(r"^Lemma (\w+) : (eta_binomial_tail .*) (\d+) <= (.*) < (eta_binomial_tail .*) "
                  r"(\d+)\.\nProof\. .*$", text, re.M)
    lemma = (f"Lemma {m[1]} : {m[2]} {int(m[3]) + shift} <= {m[4]} < {m[5]} "
             f"{int(m[6]) + shift}.\n")
open(dst, "w").write(head + "\n" + lemma + m[0].split("\n")[1] + "\n")
PY
    if (cd "$work" && coqc -R "$vo" SSAC neg.v >/dev/null 2>&1); then
      echo "negative control: a $kind ceiling moved by $shift was certified" >&2
      exit 1
    fi
  done
done
echo "  negative control: a ceiling, an eta_random_pinelis ceiling or a binomial-sum eta moved by +1"
echo "  or -1 fails to compile"
