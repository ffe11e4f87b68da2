#!/usr/bin/env bash
# The committed small-scope sweep (proofs-notes/smallscope.md, docs/smallscope.md): `ssac
# smallscope` on m = 1 (coordinates 0..4) and m = 2 ({0, 1}^2), n = 2..5, k <= 3, q in {0.7, 0.9,
# 0.93, 0.964} plus each beta's thresholds for beta = 1, 2, delta in {0.1, 0.2}, Theorem 1 and
# Appendix C, the paper's beta, beta_union, beta_union - 1 (the negative control) and the paper's
# beta with log2 n, every named rule, at most 2000 re-executions and 200 000 states of the count
# arithmetic per exact run (the counts engine, the default; docs/exact.md); then m = 2 on
# {0, 1, 2}^2 with n <= 4 under the paper's rules (square3.*). Both in the points' lexicographic
# row order only (--orders lex, the first committed sweeps), then both again over every row order
# (--orders all: sweep-orders.txt, square3-orders.txt).
# Text, JSON and CSV from one run, with the command, the date, the machine and the CPU seconds
# (user + system time of /usr/bin/time) written next to them in RUN.txt. Sized to a few CPU
# minutes: the machine it was run on was shared by many jobs. The all-orders sweeps' JSON and
# CSV (about 15 MB: every order's checks) go to DETAIL_DIR, which is not committed; their text
# summaries are.
# Usage: scripts/smallscope.sh BUILD [OUT_DIR] [THREADS] [DETAIL_DIR] (OUT_DIR defaults to
# docs/smallscope, DETAIL_DIR to BUILD/smallscope).
# Runs at nice 10.
set -euo pipefail
build=${1:?usage: scripts/smallscope.sh BUILD [OUT_DIR] [THREADS]}
root=$(cd "$(dirname "$0")/.." && pwd)
out=${2:-$root/docs/smallscope}
threads=${3:-2}
details=${4:-$build/smallscope}
mkdir -p "$details"
ssac="$build/cli/ssac"
mkdir -p "$out"
args=(smallscope --dims 1,2 --side1 5 --side2 2 --max-n 5 --q 0.7,0.9,0.93,0.964 --threshold-levels 2
  --max-branches 2000 --max-states 200000 --rule all --beta paper,union,union-minus-one,paper-log2
  --threads "$threads")
square3=(smallscope --dims 2 --side2 3 --max-n 4 --q 0.7,0.9,0.93,0.964 --threshold-levels 2
  --max-branches 2000 --max-states 200000 --rule paper --beta paper,union,union-minus-one,paper-log2
  --threads "$threads")
# sweep PREFIX DIR ARGS...: PREFIX.txt in OUT_DIR, PREFIX.json and PREFIX-violations.csv in DIR
sweep() {
  local prefix=$1 dir=$2
  shift 2
  local shown=""
  [ "$dir" = "$out" ] || shown="DETAIL_DIR/"
  echo "command: ssac $* --json $shown$prefix.json --csv $shown$prefix-violations.csv > $prefix.txt"
  /usr/bin/time -f '%U %S %e %M' -o "$out/.time" nice -n 10 "$ssac" "$@" \
    --json "$dir/$prefix.json" --csv "$dir/$prefix-violations.csv" >"$out/$prefix.txt"
  read -r user sys wall kb <"$out/.time"
  rm -f "$out/.time"
  echo "cost: $(python3 -c "print(f'{$user + $sys:.0f}')") CPU s (user + system), ${wall} s wall, $((kb / 1024)) MB peak"
}
{
  echo "date: $(date -u +%Y-%m-%dT%H:%MZ)"
  echo "machine: $(nproc) cores shared with other jobs; $(uname -srm)"
  echo "ssac: $("$ssac" --version)"
  sweep sweep "$out" "${args[@]}" --orders lex
  # The 3 x 3 square for m = 2 (n <= 4), under the paper's rules only (the anchor rules gave the
  # opener's counts on the first sweep).
  sweep square3 "$out" "${square3[@]}" --orders lex
  # Every row order (proofs-notes/smallscope.md, "Row orders").
  sweep sweep-orders "$details" "${args[@]}" --orders all
  sweep square3-orders "$details" "${square3[@]}" --orders all
} >"$out/RUN.txt"
cat "$out/RUN.txt"
