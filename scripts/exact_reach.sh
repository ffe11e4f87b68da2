#!/usr/bin/env bash
# The reach table of docs/exact.md: CPU seconds (user time of /usr/bin/time), re-executions,
# merged states and peak memory of `ssac exact` on small instances, under the default merging and
# under --merging boundaries (the former one) for comparison. Usage: scripts/exact_reach.sh BUILD
# [--quick]; --quick leaves out the instances that take more than a few seconds. Prints a Markdown
# table; the rows are independent runs, one at a time.
set -euo pipefail
build=${1:?usage: scripts/exact_reach.sh BUILD [--quick]}
quick=${2:-}
ssac="$build/cli/ssac"
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d /tmp/exact-reach-XXXXXX)
trap 'rm -rf "$tmp"' EXIT

row() {  # row LABEL MERGING FILE ARGS...
  local label=$1 merging=$2 file=$3
  shift 3
  if ! /usr/bin/time -f '%U %M' -o "$tmp/time" "$ssac" exact "$root/$file" "$@" --merging "$merging" \
    --top 0 --format json >"$tmp/out.json" 2>"$tmp/err"; then
    echo "| $label | $merging | refused: $(head -c 120 "$tmp/err") | | | |"
    return
  fi
  read -r cpu kb <"$tmp/time"
  python3 - "$tmp/out.json" "$label" "$merging" "$cpu" "$kb" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
label, merging, cpu, kb = sys.argv[2:]
states = ", ".join(str(s) for s in r["states"])
print(f"| {label} | {merging} | {r['branches']} | {states} | {float(cpu):.2f} | {int(kb) // 1024} |")
PY
}

echo "| instance | merging | re-executions | states (per iteration) | CPU s | peak MB |"
echo "|---|---|---|---|---|---|"
six=examples/exact/six-points.csv
gen=tests/data/six-generated.csv
ten=examples/exact/ten-points.csv
rw="--oracle random --q 0.7"
for m in future boundaries; do
  row "n = 6, k = 2, eta = 1, beta = 3, random-weak q = 0.7 (six-points)" $m $six --k 2 --eta 1 --beta 3 $rw
  row "n = 6, k = 2, eta = 1, beta = 3, random-weak q = 0.7 (six-generated)" $m $gen --k 2 --eta 1 --beta 3 $rw
  row "n = 10, k = 3, eta = 1, beta = 3, perfect (ten-points)" $m $ten --k 3 --eta 1 --beta 3 --oracle perfect
done
row "n = 6, k = 2, eta = 1.5, beta = 3, random-weak q = 0.7 (six-generated)" future $gen --k 2 --eta 1.5 --beta 3 $rw
[ "$quick" = --quick ] && exit 0
row "n = 6, k = 2, eta = 2, beta = 3, random-weak q = 0.7 (six-generated)" future $gen --k 2 --eta 2 --beta 3 $rw
row "n = 6, k = 2, eta = 2, beta = 3, random-weak q = 0.7 (six-points)" future $six --k 2 --eta 2 --beta 3 $rw
row "n = 6, k = 2, eta = 2, beta = 3, random-weak q = 0.7 (six-generated), budget 10^7" boundaries $gen --k 2 --eta 2 --beta 3 $rw
row "n = 10, k = 3, eta = 2, beta = 3, perfect (ten-points): refused up front" future $ten --k 3 --eta 2 --beta 3 --oracle perfect
