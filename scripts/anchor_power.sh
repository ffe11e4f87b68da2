#!/usr/bin/env bash
# The anchor draws of the two random anchor rules under `ssac choices` (docs/conformance.md, "The
# law of the choices"): writes docs/anchor-power.md from tests/choice_power.cpp (`choice_power
# anchors`) on the 9-point instance of lib/testing. About a minute of one core here: run it once
# after a change to the check or to the anchor's negative controls, and commit its output. Not a
# CI step; the short version of each claim is a test of tests/test_choice_law.cpp.
#
# Usage (from the source tree, after building the target choice_power):
#   scripts/anchor_power.sh [BUILD_DIR] [REPS] [TRACES]     (defaults: build, 10, 1000)
set -euo pipefail
build=${1:-build}
reps=${2:-10}
traces=${3:-1000}
bin="$build/tests/choice_power"
[[ -x $bin ]] || { echo "anchor_power.sh: $bin: not built (cmake --build $build --target choice_power)" >&2; exit 2; }
out=docs/anchor-power.md
tmp=$(mktemp)
run=$(mktemp)
trap 'rm -f "$tmp" "$run"' EXIT
"$bin" anchors "$reps" "$traces" >"$run"
{
  echo "# Anchor draws under \`ssac choices\`"
  echo
  echo "Written by \`scripts/anchor_power.sh $build $reps $traces\` on $(date -u +%Y-%m-%d) at commit"
  echo "$(git rev-parse --short HEAD 2>/dev/null || echo unknown) ($(nproc) cores, $(uname -m)); the program is"
  echo "tests/choice_power.cpp (\`choice_power anchors $reps $traces\`). Every check runs at the default"
  echo "alpha = 1e-6 (10 bins, pairs in 4x4 cells) on the 9-point instance of"
  echo "lib/testing/choice_bugs.cpp (three clusters of three; k = 3, eta = 2, beta = 3, Algorithm 4,"
  echo "random-weak q = 0.7) under each random anchor rule, whose traces (format version 4) record"
  echo "every anchor drawn. Repetition i uses the seeds from 1 + i * 10^6, disjoint."
  echo
  echo "## Clean reference traces"
  echo
  echo "$reps disjoint seed ranges of $traces traces per rule: whether the whole check passes, the"
  echo "anchor draws checked and their p (the kind fails at p <= alpha / 9), and the smallest p of the"
  echo "eight other kinds. Each range's false alarm is at most alpha = 1e-6."
  echo
  sed '/^$/q' "$run"
  echo "## Negative controls: the traces each needs"
  echo
  echo "The smallest of 25, 50, 100, 200, 500, 1,000, 2,000, 5,000 traces at which the check fails"
  echo "in each of $reps repetitions, and the kinds that fail there in the first. anchor_first: the"
  echo "anchor is always the lowest row known to be in the cluster; front_bias_anchor with strength"
  echo "s: with probability s the anchor is drawn from the front half of those rows."
  echo
  sed '1,/^$/d' "$run"
} >"$tmp"
mv "$tmp" "$out"
rm -f "$run"
trap - EXIT
echo "anchor_power.sh: wrote $out"
