#!/usr/bin/env bash
# Certified tables: `ssac bounds --coq` certificates compiled against the built development.
#  1. every `$ ssac bounds` table of README.md and docs/*.md (not --data): its certificate
#     compiles, and every eta/beta ceiling the table prints is the ceiling of a certified lemma of
#     the same row;
#  2. a fixed grid of 214 parameter sets covering the extremes (gamma = 1 + 1e-6, q = 0.01,
#     k = 100, delta = 1e-12, m = 1000, n = 10^6): every certificate compiles;
#  3. negative control: the first lemma with its ceiling moved by +1 and by -1 must not compile.
# Usage: certificates-test.sh SSAC_BINARY REPO_ROOT VO_DIR
set -euo pipefail
ssac=$(realpath "$1") root=$2 vo=$(realpath "$3")
work=$(mktemp -d "${TMPDIR:-/tmp}/ssac-coq-cert.XXXXXX")
trap 'rm -rf "$work"' EXIT
# Compiles a certificate after checking that each lemma brackets its value as c - 1 < v <= c (a
# wider bracket would compile without certifying the ceiling).
compile() {
  python3 - "$work/$1" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
lemmas = re.findall(r"^Lemma (\w+) : (-?\d+) < .* <= (\d+)\.$", text, re.M)
if len(lemmas) != text.count("\nLemma "):
    sys.exit(f"{sys.argv[1]}: a lemma is not of the form c - 1 < value <= c")
for name, lo, c in lemmas:
    if int(lo) + 1 != int(c):
        sys.exit(f"{sys.argv[1]}: {name} brackets ({lo}, {c}], not (c - 1, c]")
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
proved = dict(re.findall(r"^Lemma (row\d+_\w+) : -?\d+ < .* <= (\d+)\.$", open(cert).read(), re.M))
columns = {"eta_perfect": "eta_perfect", "eta_random": "eta_random",
           "eta_pinelis (conjectural)": "eta_random_pinelis",
           "beta_random": "beta_random", "beta_union": "beta_union"}
rows = [l for l in open(out) if l.startswith("|")]
if not rows: sys.exit(f"{cmd}: no markdown table to check")
head = [c.strip() for c in rows[0].strip().strip("|").split("|")]
checked = 0
for i, line in enumerate(rows[2:], start=1):
    cells = [c.strip() for c in line.strip().strip("|").split("|")]
    for col, lemma in columns.items():
        if col not in head: continue
        value = cells[head.index(col)]
        name = f"row{i}_{lemma}"
        if proved.get(name) != value:
            sys.exit(f"{cmd}: row {i} prints {col} = {value}, certified: {proved.get(name)}")
        checked += 1
print(f"  {cmd}: {checked} printed ceilings certified")
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

# 3. Negative control: one ceiling moved by one, either way, must fail to compile.
for shift in 1 -1; do
  python3 - "$work/grid0.v" "$work/neg.v" "$shift" <<'PY'
import re, sys
src, dst, shift = sys.argv[1], sys.argv[2], int(sys.argv[3])
text = open(src).read()
head = text[:text.index("\nLemma ")]
m = re.search(r"^Lemma (\w+) : (-?\d+) < (.*) <= (\d+)\.\nProof\. .*$", text, re.M)
lemma = f"Lemma {m[1]} : {int(m[2]) + shift} < {m[3]} <= {int(m[4]) + shift}.\n" + m[0].split("\n")[1]
open(dst, "w").write(head + "\n" + lemma + "\n")
PY
  if (cd "$work" && coqc -R "$vo" SSAC neg.v >/dev/null 2>&1); then
    echo "negative control: a ceiling moved by $shift was certified" >&2
    exit 1
  fi
done
echo "  negative control: a ceiling moved by +1 or -1 fails to compile"
