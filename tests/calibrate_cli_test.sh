#!/usr/bin/env bash
# ssac calibrate on a small instance (tests/fixtures/tiny.csv: two clusters of two points,
# gamma = 19): with a perfect oracle the smallest grid eta passes and its re-check confirms it;
# the output does not depend on the number of threads; negative control: an oracle that is sure
# 5% of the time with beta = 1 fails nearly every rep, so nothing passes.
# Usage: calibrate_cli_test.sh PATH/TO/ssac PATH/TO/tests/fixtures
set -euo pipefail
ssac=$1
tiny=$2/tiny.csv
one=$("$ssac" calibrate --data "$tiny" --q 1 --grid 1,2 --threads 1)
two=$("$ssac" calibrate --data "$tiny" --q 1 --grid 1,2 --threads 2)
fail() { echo "FAIL: $*" >&2; exit 1; }
grep -q '^plan: 624 reps per value' <<<"$one" || fail "plan line: $one"
grep -q '^empirical eta = 1 (re-check 1: 0 of 624' <<<"$one" || fail "empirical eta: $one"
grep -q 'theory / empirical' <<<"$one" || fail "no ratio: $one"
[ "$one" = "$two" ] || fail "output differs between --threads 1 and 2"
neg=$("$ssac" calibrate --data "$tiny" --q 0.05 --beta 1 --grid 1 --threads 1)
grep -q '^no value of the grid passes' <<<"$neg" || fail "negative control passed: $neg"
echo "calibrate_cli_test: ok"
