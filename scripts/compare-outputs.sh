#!/usr/bin/env bash
# Before and after: runs the same commands with two programs and fails on the first output that
# differs. For changes that must not move any output (a refactoring): build the old tree's program
# beside the new one, then
#   bash scripts/compare-outputs.sh OLD/cli/ssac build/cli/ssac
# The commands are scripts/output-cases.sh's (data, clusterings, traces, an experiment at three
# thread counts) plus the conformance corpus, bound tables in every format, and the cases below.
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
# Every kind of experiment block (the four oracles, both algorithms) with its printed tables and
# figures; a run in two slices and their merge; a trace replayed with its oracle checked; the
# cluster figure; an exact distribution; the help of the commands whose parameters have ranges or
# named values; and the errors for a value out of its range or a name not in its list. Times are
# taken out of what is compared.
all="--preset paper-main --seed 9 --threads 2 --oracle random,local,global,correlated --algorithm weak,original --eta 2,10"
cases+=(
  "experiment-blocks|experiment $all --reps 4 --out expall | grep -v '^time: '"
  "experiment-slice-1|experiment $all --reps-range 0:2 --quiet --out slice1"
  "experiment-slice-2|experiment $all --reps-range 2:4 --quiet --out slice2"
  "merge|merge slice2 slice1 --out merged"
  "validate|validate --data d.csv --trace t1.jsonl --check-oracle | sed 's/ in [0-9.]* ms)/)/'"
  "cluster-plot|cluster d.csv --k 3 --oracle random --q 0.7 --eta 10 --seed 7 --plot plot.png"
  "generate-tiny|generate --n 6 --m 2 --k 2 --gamma-min 0 --gamma-max inf --seed 1 --out tiny.csv"
  "exact|exact tiny.csv --k 2 --eta 1 --oracle random --q 7/10 --format json | grep -v '\"seconds\"'"
)
for c in generate cluster experiment exact calibrate merge validate; do
  cases+=("help-$c|$c --help")
done
cases+=(
  "range-n|generate --n 1 --out bad.csv"
  "range-m|experiment --m 0 --out bad"
  "range-k|experiment --k 0 --out bad"
  "range-reps|experiment --reps 0 --out bad"
  "range-beta|cluster d.csv --k 3 --eta 2 --beta 0"
  "names-search|cluster d.csv --k 3 --eta 2 --search plain"
  "names-oracle|experiment --oracle perfect --out bad"
  "names-oracle-cluster|cluster d.csv --k 3 --eta 2 --oracle psychic"
  "names-oracle-exact|exact tiny.csv --k 2 --eta 1 --oracle interactive"
  "names-oracle-validate|validate --data d.csv --trace t1.jsonl --check-oracle --oracle correlated"
  "names-algorithm|experiment --algorithm both --out bad"
  "names-memory|cluster d.csv --k 3 --eta 2 --memory always"
  "names-assignment|cluster d.csv --k 3 --eta 2 --assignment authors"
  "names-gaussians|generate --gaussians box-muller --out bad.csv"
)
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
  find "$work/$side" -name timing.json -delete
done
if diff -r -q "$work/old" "$work/new" >&2; then
  echo "compare-outputs: $(find "$work/new" -type f | wc -l) output files identical"
else
  echo "compare-outputs: the outputs above differ" >&2
  exit 1
fi
