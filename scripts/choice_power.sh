#!/usr/bin/env bash
# The power study of `ssac choices` (docs/conformance.md, "The law of the choices"): writes
# docs/choice-power.md from tests/choice_power.cpp on the 9-point instance of lib/testing. Long
# (about an hour of one core here): run it once after a change to the check or to the negative
# controls, and commit its output. Not a CI step; the short version of each claim is a test of
# tests/test_choice_law.cpp.
#
# Usage (from the source tree, after building the target choice_power):
#   scripts/choice_power.sh [BUILD_DIR] [REPS]     (defaults: build, 20)
set -euo pipefail
build=${1:-build}
reps=${2:-20}
bin="$build/tests/choice_power"
[[ -x $bin ]] || { echo "choice_power.sh: $bin: not built (cmake --build $build --target choice_power)" >&2; exit 2; }
out=docs/choice-power.md
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
{
  echo "# The power of \`ssac choices\`"
  echo
  echo "Written by \`scripts/choice_power.sh $build $reps\` on $(date -u +%Y-%m-%d) at commit"
  echo "$(git rev-parse --short HEAD 2>/dev/null || echo unknown) ($(nproc) cores, $(uname -m)); the program is"
  echo "tests/choice_power.cpp. Every check runs at the default"
  echo "alpha = 1e-6 (10 bins, pairs in 4x4 cells) on the 9-point instance of"
  echo "lib/testing/choice_bugs.cpp (three clusters of three; k = 3, eta = 2, beta = 3, Algorithm 4,"
  echo "random-weak q = 0.7). Repetition i uses the seeds from 1 + i * 10^6, disjoint."
  echo
  echo "## Clean reference traces"
  echo
  echo "Three disjoint seed ranges of 1,000 traces and three of 5,000: each kind's p (the check"
  echo "fails a kind when p <= alpha / 8 = 1.25e-7)."
  echo
  "$bin" clean 3 1000
  "$bin" clean 3 5000 | tail -n +3
  echo
  echo "## Negative controls: the traces each needs"
  echo
  echo "The smallest of 25, 50, 100, 200, 500, 1,000, 2,000, 5,000 traces at which the check"
  echo "fails in each of $(( reps / 2 )) repetitions (each repetition checked at the numbers in"
  echo "turn on a growing prefix of its traces), and the kinds that fail there in the first."
  echo
  "$bin" controls $(( reps / 2 ))
  echo
  echo "## Power per kind of choice"
  echo
  echo "For each kind, the smallest shift of its law on a grid caught in at least 95% of $reps"
  echo "repetitions (at least $(( (19 * reps + 19) / 20 )) of $reps) at N traces (\"> grid\" when"
  echo "none of the grid is). At N = 5,000 one shift only is tried (10^5 traces per grid point"
  echo "cost too much on this machine): the largest on the grid at most half the one found at"
  echo "1,000; \"<= eps\" says it was caught, \"> eps\" that it was not, with the count. A front"
  echo "bias eps draws, with probability eps, uniformly from the front half of the pool (its first"
  echo "max(1, size / 2) positions): the front half is drawn 1 + eps times as often as it should be"
  echo "when the pool's size is even, more when it is odd. A shift delta of the abstention makes"
  echo "the oracle not-sure with probability 1 - q + delta (q = 0.7)."
  echo
  echo "| kind | shift | N = 200 | N = 1,000 | N = 5,000 |"
  echo "|---|---|---|---|---|"
  for family in 0 1 2; do
    "$bin" power "$reps" "$family" 2>/dev/null
  done
} > "$tmp"
mv "$tmp" "$out"
trap - EXIT
echo "wrote $out"
