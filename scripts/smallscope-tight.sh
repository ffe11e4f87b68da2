#!/usr/bin/env bash
# The committed tight-margin sweeps (proofs-notes/smallscope.md, "What the committed sweeps
# cover"): `ssac smallscope` under the counts engine on m = 1 with coordinates 0..5 (n <= 4,
# k <= 2, then n <= 5 and n <= 6, k <= 3 under every named rule) and m = 2 on {0, 1, 2}^2 (n <= 4,
# k <= 2), q = 0.9, delta = 0.1, Theorem 1 (Algorithm 2), the paper's beta, beta_union and beta_union - 1 (the
# negative control), at most 200 000 re-executions and 10^6 states of the count arithmetic per
# exact run. Text and violations CSV to OUT_DIR (default docs/smallscope), the JSON to BUILD's
# smallscope/ (not committed), the commands and their cost (user + system CPU of /usr/bin/time)
# to OUT_DIR/TIGHT.txt. About 10 CPU minutes. Usage: scripts/smallscope-tight.sh BUILD [OUT_DIR].
set -euo pipefail
build=${1:?usage: scripts/smallscope-tight.sh BUILD [OUT_DIR]}
root=$(cd "$(dirname "$0")/.." && pwd)
out=${2:-$root/docs/smallscope}
details=$build/smallscope
mkdir -p "$out" "$details"
ssac="$build/cli/ssac"
common=(--q 0.9 --delta 0.1 --threshold-levels 0 --max-branches 200000 --max-states 1000000
  --beta paper,union,union-minus-one --claim theorem1 --threads 1 --orders lex)
sweep() {  # sweep NAME ARGS...
  local name=$1
  shift
  echo "command: ssac smallscope $* ${common[*]} --json $name.json --csv $name-violations.csv > $name.txt"
  /usr/bin/time -f '%U %S %e %M' -o "$out/.time" nice -n 10 "$ssac" smallscope "$@" "${common[@]}" \
    --json "$details/$name.json" --csv "$out/$name-violations.csv" >"$out/$name.txt"
  read -r user sys wall kb <"$out/.time"
  rm -f "$out/.time"
  echo "cost: $(python3 -c "print(f'{$user + $sys:.0f}')") CPU s (user + system), ${wall} s wall, $((kb / 1024)) MB peak ($name.json not committed)"
}
{
  echo "Tight-margin sweeps with the counts engine (proofs-notes/smallscope.md, \"What the committed sweeps cover\")."
  echo "date: $(date -u +%Y-%m-%dT%H:%MZ)"
  echo "machine: $(nproc) cores shared with other jobs; $(uname -srm)"
  sweep tight-m1 --dims 1 --side1 6 --max-n 4 --max-k 2 --rule paper
  sweep tight-m2 --dims 2 --side2 3 --max-n 4 --max-k 2 --rule paper
  sweep tight-m1-k3 --dims 1 --side1 6 --max-n 5 --max-k 3 --rule all
  sweep tight-m1-n6 --dims 1 --side1 6 --max-n 6 --max-k 3 --rule all
} >"$out/TIGHT.txt"
cat "$out/TIGHT.txt"
