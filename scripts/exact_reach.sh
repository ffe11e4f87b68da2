#!/usr/bin/env bash
# The reach table of docs/exact.md: CPU seconds (user time of /usr/bin/time), re-executions of the
# reference, branches merged, merged states per iteration and peak memory of `ssac exact` on small
# instances, under the states engine (the default) and the paths engine (--engine paths, the
# former one) for comparison, then the states engine's growth with r at fixed n; then the counts
# engine (--engine counts, Phase 1 by counts) on the same rows and further in r. Usage:
# scripts/exact_reach.sh BUILD [--quick | --counts]; --quick leaves out the rows that take more
# than a few seconds, --counts runs the counts engine's rows only. Prints a Markdown table; the rows are independent runs, one at a time.
set -euo pipefail
build=${1:?usage: scripts/exact_reach.sh BUILD [--quick]}
quick=${2:-}
ssac="$build/cli/ssac"
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d /tmp/exact-reach-XXXXXX)
trap 'rm -rf "$tmp"' EXIT

row() {  # row LABEL ENGINE FILE ARGS...
  local label=$1 engine=$2 file=$3
  shift 3
  case $file in /*) ;; *) file=$root/$file ;; esac
  if ! /usr/bin/time -f '%U %M' -o "$tmp/time" "$ssac" exact "$file" "$@" --engine "$engine" \
    --top 0 --format json >"$tmp/out.json" 2>"$tmp/err"; then
    read -r cpu kb < <(tail -n 1 "$tmp/time") || true
    echo "| $label | $engine | refused after ${cpu:-?} CPU s: $(head -c 150 "$tmp/err") | | | | |"
    return
  fi
  read -r cpu kb < <(tail -n 1 "$tmp/time")
  python3 - "$tmp/out.json" "$label" "$engine" "$cpu" "$kb" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
label, engine, cpu, kb = sys.argv[2:]
states = ", ".join(str(s) for s in r["states"])
print(f"| {label} | {engine} | {r['branches']} | {r['merged']} | {states} | {float(cpu):.2f} | {int(kb) // 1024} |")
PY
}

echo "| instance | engine | re-executions | merged | states (per iteration) | CPU s | peak MB |"
echo "|---|---|---|---|---|---|---|"
six=examples/exact/six-points.csv
gen=tests/data/six-generated.csv
ten=examples/exact/ten-points.csv
rw="--oracle random --q 0.7"
if [ "$quick" != --counts ]; then
for e in states paths; do
  row "n = 6, k = 2, eta = 1, beta = 3, random-weak q = 0.7 (six-points)" $e $six --k 2 --eta 1 --beta 3 $rw
  row "n = 6, k = 2, eta = 1, beta = 3, random-weak q = 0.7 (six-generated)" $e $gen --k 2 --eta 1 --beta 3 $rw
  row "n = 10, k = 3, eta = 1, beta = 3, perfect (ten-points)" $e $ten --k 3 --eta 1 --beta 3 --oracle perfect
  row "n = 6, k = 2, eta = 1.5, beta = 3, random-weak q = 0.7 (six-generated)" $e $gen --k 2 --eta 1.5 --beta 3 $rw
done
row "n = 6, k = 2, eta = 2, beta = 3, random-weak q = 0.7 (six-generated)" states $gen --k 2 --eta 2 --beta 3 $rw
row "n = 6, k = 2, eta = 2, beta = 3, local nu = 1 rho = 0.9 (six-generated)" states $gen --k 2 --eta 2 --beta 3 --oracle local --nu 1 --rho 0.9
row "n = 10, k = 3, eta = 2, beta = 3, perfect (ten-points)" states $ten --k 3 --eta 2 --beta 3 --oracle perfect
fi
[ "$quick" = --quick ] && exit 0
if [ "$quick" != --counts ]; then
row "n = 6, k = 2, eta = 2, beta = 3, random-weak q = 0.7 (six-generated)" paths $gen --k 2 --eta 2 --beta 3 $rw
# Growth with r at fixed n: r = 2, 4, 8, 16, 32 (eta = r / k), on the real-valued six-generated and
# on the integer six-points (whose sums of draws coincide, so more states merge).
for f in $gen $six; do
  for eta in 1 2 4 8 16; do
    row "n = 6, k = 2, eta = $eta (r = $((2 * eta))), beta = 3, random-weak q = 0.7 ($(basename $f .csv))" \
      states $f --k 2 --eta $eta --beta 3 $rw --max-branches 20000000
  done
done
# Phase 1 at k = 2 with q < 1 and r >= 9 (Lemma 7's regime), and r = 20 on n = 6 rows.
row "n = 6, k = 2, eta = 5 (r = 10), beta = 3, random-weak q = 0.9 (six-points)" states $six --k 2 --eta 5 --beta 3 --oracle random --q 0.9
row "n = 6, k = 2, eta = 10 (r = 20), beta = 1, perfect (six-points)" states $six --k 2 --eta 10 --beta 1 --oracle perfect --max-branches 20000000
row "n = 6, k = 2, eta = 20 (r = 40), beta = 1, perfect (six-points)" states $six --k 2 --eta 20 --beta 1 --oracle perfect --max-branches 20000000
fi
# The counts engine: the rows above that it takes (Phase 1 by counts), then r up to 160 at k = 2
# and up to 60 at k = 3, and the six-generated instance at eta = 5, 10 and 20.
row "n = 6, k = 2, eta = 2, beta = 3, random-weak q = 0.7 (six-generated)" counts $gen --k 2 --eta 2 --beta 3 $rw
for eta in 5 10 20; do
  row "n = 6, k = 2, eta = $eta (r = $((2 * eta))), beta = 3, random-weak q = 0.7 (six-generated)" \
    counts $gen --k 2 --eta $eta --beta 3 $rw --max-branches 20000000
done
for eta in 1 2 4 8 16; do
  row "n = 6, k = 2, eta = $eta (r = $((2 * eta))), beta = 3, random-weak q = 0.7 (six-points)" \
    counts $six --k 2 --eta $eta --beta 3 $rw --max-branches 20000000
done
row "n = 6, k = 2, eta = 5 (r = 10), beta = 3, random-weak q = 0.9 (six-points)" counts $six --k 2 --eta 5 --beta 3 --oracle random --q 0.9
row "n = 6, k = 2, eta = 20 (r = 40), beta = 1, perfect (six-points)" counts $six --k 2 --eta 20 --beta 1 --oracle perfect --max-branches 20000000
# Lattices of the small-scope sweeps: n = 4 and 5 on a line, k = 2 and 3, q = 0.9, Algorithm 2.
printf 'x,label\n0,1\n1,1\n3,2\n4,2\n' >"$tmp/line4.csv"
printf 'x,label\n0,1\n1,1\n2,2\n3,2\n4,3\n' >"$tmp/line5.csv"
for eta in 5 10 20 40 80; do
  row "n = 4, k = 2, eta = $eta (r = $((2 * eta))), beta = 1, random-weak q = 0.9 (0 1 | 3 4)" \
    counts "$tmp/line4.csv" --k 2 --eta $eta --beta 1 --oracle random --q 0.9 --search random --max-branches 20000000
done
for eta in 2 5 10 20; do
  row "n = 5, k = 3, eta = $eta (r = $((3 * eta))), beta = 1, random-weak q = 0.9 (0 1 | 2 3 | 4)" \
    counts "$tmp/line5.csv" --k 3 --eta $eta --beta 1 --oracle random --q 0.9 --search random --max-branches 20000000 \
    --max-states 1000000000
done
