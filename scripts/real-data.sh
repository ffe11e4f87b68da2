#!/usr/bin/env bash
# Real labelled data: iris, wine, breast cancer and digits, taken from the data files Debian's
# python3-sklearn package ships (sklearn/datasets/data/), without installing any Python library:
# the package is downloaded with `apt-get download` and unpacked with `dpkg-deb -x` into a
# temporary directory. Each dataset is written as an ssac CSV twice -- NAME.csv (the features as
# shipped) and NAME-std.csv (every column standardized to mean 0, standard deviation 1; a constant
# column becomes 0) -- with columns x1..xm and `label` = class + 1 (1..K), and SHA256SUMS lists
# them; docs/real-data.sha256 is the committed list they are checked against. A mismatch (another
# version of the package, say) stops the script with one line and exit status 1, before anything
# is written to OUT, unless --accept-checksums says to go on with the files as converted.
#
# Then, unless --convert-only, `ssac experiment --data` runs every cell of the paper-main grid on
# each CSV (random-weak oracle q in {0.7, 0.85, 1} -- q = 1 is the perfect oracle -- eta in
# {2, 5, 10, 20, 50}, beta = 10, REPS reps, seed 0) and results/real-data/tables.md collects the
# tables of docs/real-data.md.
#
# Usage: bash scripts/real-data.sh [--convert-only] [--accept-checksums] [OUT]
#   (OUT defaults to results/real-data)
# Environment: SSAC (the program, default build/cli/ssac), REPS (default 200), THREADS (default 2).
# Not a CI step: the runs take minutes (docs/real-data.md states the sizes and times).
set -euo pipefail
cd "$(dirname "$0")/.."
convert_only=0
accept=0
while [ $# -gt 0 ]; do
  case $1 in
    --convert-only) convert_only=1 ;;
    --accept-checksums) accept=1 ;;
    -*) echo "real-data: unknown option $1 (--convert-only, --accept-checksums)" >&2; exit 2 ;;
    *) break ;;
  esac
  shift
done
out=$(realpath -m "${1:-results/real-data}")
ssac=${SSAC:-build/cli/ssac}
reps=${REPS:-200}
threads=${THREADS:-2}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# 1. The package: python3-sklearn holds sklearn/datasets/data/ (python3-sklearn-lib holds only
# the compiled extensions); check that before unpacking.
(cd "$tmp" && apt-get download python3-sklearn >/dev/null 2>"$tmp/apt.log") || {
  cat "$tmp/apt.log" >&2
  echo "real-data: apt-get download python3-sklearn failed (run apt-get update first?)" >&2
  exit 1
}
deb=$(ls "$tmp"/python3-sklearn_*.deb)
data_dir=usr/lib/python3/dist-packages/sklearn/datasets/data
dpkg-deb -c "$deb" >"$tmp/contents"
for f in iris.csv wine_data.csv breast_cancer.csv digits.csv.gz; do
  grep -q " ./$data_dir/$f\$" "$tmp/contents" || {
    echo "real-data: $(basename "$deb") has no $data_dir/$f" >&2
    exit 1
  }
done
dpkg-deb -x "$deb" "$tmp/pkg"
src=$tmp/pkg/$data_dir
echo "real-data: $(basename "$deb") (sha256 $(sha256sum "$deb" | cut -c1-16)...)"

# 2. Conversion. iris, wine and breast cancer start with a row "n,m,class names..."; digits has
# no header. The class is the last column, 0..K-1.
to_ssac() {  # to_ssac SOURCE_TEXT SKIP_FIRST_ROW > CSV with the features as shipped
  awk -F, -v skip="$2" 'NR == 1 && skip { next }
    !h { for (i = 1; i < NF; i++) printf "x%d,", i; print "label"; h = 1 }
    { for (i = 1; i < NF; i++) printf "%s,", $i; print $NF + 1 }' "$1"
}
standardize() {  # standardize CSV > CSV with each feature column z-scored (population sd)
  awk -F, 'NR == FNR { if (FNR > 1) { n++; for (i = 1; i < NF; i++) { s[i] += $i; ss[i] += $i * $i } } next }
    FNR == 1 { print; next }
    { for (i = 1; i < NF; i++) {
        mu = s[i] / n; var = ss[i] / n - mu * mu; sd = var > 0 ? sqrt(var) : 0
        printf "%.17g,", (sd > 0 ? ($i - mu) / sd : 0)
      }
      print $NF }' "$1" "$1"
}
# The CSVs are written to a scratch directory first and reach OUT only once their checksums are
# accepted.
gunzip -c "$src/digits.csv.gz" >"$tmp/digits.csv"
csv=$tmp/csv
mkdir "$csv"
to_ssac "$src/iris.csv" 1 >"$csv/iris.csv"
to_ssac "$src/wine_data.csv" 1 >"$csv/wine.csv"
to_ssac "$src/breast_cancer.csv" 1 >"$csv/breast-cancer.csv"
to_ssac "$tmp/digits.csv" 0 >"$csv/digits.csv"
names=(iris wine breast-cancer digits)
for d in "${names[@]}"; do
  standardize "$csv/$d.csv" >"$csv/$d-std.csv"
done
(cd "$csv" && sha256sum ./*.csv | sed 's| \./| |' >SHA256SUMS)
if diff -q docs/real-data.sha256 "$csv/SHA256SUMS" >/dev/null 2>&1; then
  echo "real-data: the CSVs match docs/real-data.sha256"
else
  differing=$( (diff docs/real-data.sha256 "$csv/SHA256SUMS" || true) | awk '/^[<>]/ { print $3 }' |
    sort -u | paste -sd, - | sed 's/,/, /g')
  if [ "$accept" = 0 ]; then
    echo "real-data: the converted CSVs differ from docs/real-data.sha256 ($differing); nothing written (--accept-checksums uses them anyway)" >&2
    exit 1
  fi
  echo "real-data: the converted CSVs differ from docs/real-data.sha256 ($differing); accepted (--accept-checksums)" >&2
fi
mkdir -p "$out"
cp "$csv"/*.csv "$csv/SHA256SUMS" "$out"/
for d in "${names[@]}"; do
  for v in "$d" "$d-std"; do
    "$ssac" gamma "$out/$v.csv" >"$tmp/gamma.txt"
    printf '%-22s %s\n' "$v.csv" "$(head -2 "$tmp/gamma.txt" | tr '\n' ' ')"
  done
done
[ "$convert_only" = 1 ] && exit 0

# 3. The trivial baseline: points in file order, each asked against the anchors found so far (one
# per cluster, in the order found) until one says yes; with k anchors the k-th needs no question.
# Its count with a perfect oracle; a random-weak oracle with fresh answers (Definition 5) needs
# on average 1/q asks per answer, so count/q.
baseline() {
  awk -F, 'NR == 1 { next } { lab[NR] = $NF; if ($NF > k) k = $NF }
    END { a = 0; total = 0
      for (r = 2; r <= NR; r++) { c = lab[r]
        if (c in pos) { j = pos[c]; total += (a == k && j == k) ? k - 1 : j }
        else { total += a; pos[c] = ++a } }
      print total }' "$1"
}

# One dataset's table from its summary.json (nlohmann's layout: one "key": value per line).
table() {  # table SUMMARY NAME BASELINE
  awk -v name="$2" -v base="$3" '
    /^  "n": / { n = $2 + 0 } /^  "k": / { k = $2 + 0 } /^  "reps": / { reps = $2 + 0 }
    /^  "data_gamma": / { g = $2 + 0 }
    /^      "q": / { q = $2 + 0 } /^      "eta": / { eta = $2 + 0 }
    /^      "accuracy_pct": / { acc = $2 + 0 } /^      "failures": / { f = $2 + 0 }
    /^      "mean_queries_phase1": / { q1 = $2 + 0 } /^      "mean_queries_phase2": / { q2 = $2 + 0 }
    /^      "queries_phase2": / {
      if (!hdr) {
        printf "#### %s (n = %d, k = %d, gamma = %.3f, %d reps)\n\n", name, n, k, g, reps
        print "| q | eta | accuracy % | failures | queries phase 1 | queries phase 2 | total | baseline |"
        print "|---|---|---|---|---|---|---|---|"
        hdr = 1
      }
      printf "| %s | %s | %.2f | %d | %.1f | %.1f | %.1f | %.1f |\n", q, eta, acc, f, q1, q2, q1 + q2, base / q
    }
    END { print "" }' "$1"
}

# 4. The runs and the tables.
tables=$out/tables.md
: >"$tables"
for d in "${names[@]}"; do
  for v in "$d" "$d-std"; do
    nice -n 10 "$ssac" experiment --data "$out/$v.csv" --reps "$reps" --threads "$threads" \
      --quiet --no-plots --out "$out/$v"
    base=$(baseline "$out/$v.csv")
    table "$out/$v/summary.json" "$v" "$base" >>"$tables"
  done
done
echo "real-data: wrote $tables"
