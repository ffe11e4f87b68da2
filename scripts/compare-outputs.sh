#!/usr/bin/env bash
# Before and after: runs the same commands with two programs and fails on the first output that
# differs. For changes that must not move any output (a refactoring): build the old tree's program
# beside the new one, then
#   bash scripts/compare-outputs.sh OLD/cli/ssac build/cli/ssac
# The commands are scripts/output-cases.sh's (data, clusterings, traces, an experiment at three
# thread counts) plus the conformance corpus and bound tables in every format.
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# = 2 ] || { echo "usage: compare-outputs.sh OLD_PROGRAM NEW_PROGRAM" >&2; exit 2; }
old=$(realpath "$1")
new=$(realpath "$2")
bin=$new
# shellcheck source=scripts/output-cases.sh
source scripts/output-cases.sh
cases+=("conformance|conformance --out corpus")
for f in text csv markdown latex json; do
  cases+=("bounds-$f|bounds --k 2,3 --m 2,10 --n 1500 --delta 0.05 --gamma 1.05,1.5 --q 0.7,1 --format $f")
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for side in old new; do
  mkdir -p "$work/$side"
  prog=${!side}
  for c in "${cases[@]}"; do
    name=${c%%|*}
    args=${c#*|}
    (cd "$work/$side" && eval "\"$prog\" $args" >"$name.stdout" 2>"$name.stderr") || echo "$?" >"$work/$side/$name.status"
  done
  rm -f "$work/$side"/exp*/timing.json
done
if diff -r -q "$work/old" "$work/new" >&2; then
  echo "compare-outputs: $(find "$work/new" -type f | wc -l) output files identical"
else
  echo "compare-outputs: the outputs above differ" >&2
  exit 1
fi
