#!/usr/bin/env bash
# docs/bounds-vs-practice.md from scratch: every run the page documents, in order, writing the
# outputs of `ssac calibrate` and `ssac harden` to docs/bounds-vs-practice/, then the figure
# (scripts/bounds-vs-practice-plot.sh), then the tables of the page and of docs/calibrate.md's
# summary (scripts/bounds_vs_practice_tables.py: every block between
# `<!-- generated: NAME ... -->` and `<!-- end generated: NAME -->`; the prose around them is
# written by hand).
#
# Usage: bash scripts/bounds-vs-practice-all.sh [STEP...]
#        bash scripts/bounds-vs-practice-all.sh --tables-only   (reassemble the tables, run nothing)
#        bash scripts/bounds-vs-practice-all.sh --check         (exit 1 when a table differs from
#                                                                what the outputs give; ctest
#                                                                bounds_vs_practice_tables)
# Steps, in this order (default: all of them; the tables are assembled after any step):
#   failure-generator   #Failure on the generator, 4 windows x 3 q, eta grid up to 50
#   failure-paper-main  #Failure on the generator in (1, 1.1], eta grid up to 1000
#   recovery-generator  exact recovery on the generator, (1.05, 1.1], (1.1, 1.3], (1.3, 2], grid
#                       up to 5000
#   recovery-narrow     exact recovery on the generator, (1, 1.05] and (1, 1.1], calibrate's grid
#                       up to 50,000
#   harden-failure      ssac harden for #Failure at eta = 2 in the 5 windows, then calibrate on
#                       each instance found (grid up to 1000)
#   harden-recovery     ssac harden for exact recovery at eta = 20 in (1, 1.1], then calibrate on
#                       the instance found (grid up to 50,000)
#   plot                docs/figures/bounds-vs-practice.png
# Environment: SSAC (default build/cli/ssac), THREADS (default 1), NICE (default 19), and for
# tests DIR (default docs/bounds-vs-practice), DOC (docs/bounds-vs-practice.md), SUMMARY
# (docs/calibrate.md), FIGURE (docs/figures/bounds-vs-practice.png).
# Not a CI step: all of it takes hours of CPU (the page states each part's time); seeds are fixed,
# so a step reproduces the committed outputs but for the lines of `ssac harden` that report time.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${DIR:-docs/bounds-vs-practice}
doc=${DOC:-docs/bounds-vs-practice.md}
summary=${SUMMARY:-docs/calibrate.md}
figure=${FIGURE:-docs/figures/bounds-vs-practice.png}
ssac=${SSAC:-build/cli/ssac}
threads=${THREADS:-1}
nice=${NICE:-19}
tables() { python3 scripts/bounds_vs_practice_tables.py assemble "$@" "$dir" "$doc" "$summary"; }
case ${1:-} in
  --tables-only) tables; exit ;;
  --check) tables --check; exit ;;
esac
all=(failure-generator failure-paper-main recovery-generator recovery-narrow harden-failure
  harden-recovery plot)
steps=("$@")
[ ${#steps[@]} -gt 0 ] || steps=("${all[@]}")
for s in "${steps[@]}"; do
  [[ " ${all[*]} " == *" $s "* ]] || {
    echo "bounds-vs-practice-all: no step '$s' (${all[*]})" >&2
    exit 2
  }
done
[ -x "$ssac" ] || { echo "bounds-vs-practice-all: $ssac: build the program first" >&2; exit 2; }
mkdir -p "$dir"

# The eta grids: calibrate's default (docs/calibrate.md) cut at 50, 1000 and 5000; the #Failure
# grid up to 50 leaves out 25 and 40.
g50=1,1.5,2,3,4,5,6,8,10,12,15,20,30,50
g1000=1,1.5,2,3,4,5,6,8,10,12,15,20,25,30,40,50,60,80,100,120,150,200,250,300,400,500,600,800,1000
g5000=$g1000,1500,2000,3000,4000,5000

# One scripts/bounds-vs-practice.sh invocation (its environment as arguments); its calibrate
# outputs go to $dir.
calibrate() {
  local tmp
  tmp=$(mktemp -d)
  env "$@" SSAC="$ssac" THREADS="$threads" nice -n "$nice" bash scripts/bounds-vs-practice.sh \
    "$tmp/table.md"
  cp "$tmp"/calibrate-*.txt "$dir"/
  rm -rf "$tmp"
}

# ssac harden in window (LO, HI] for EVENT at ETA (docs/bounds-vs-practice.md, "The search"); the
# output, after the command line, in $dir/harden-LO-HI-EVENT.txt, the instance in
# $dir/hardest-LO-HI-EVENT.csv.
harden() {
  local lo=$1 hi=$2 event=$3 eta=$4
  local args=(--gamma-min "$lo" --gamma-max "$hi" --n 1500 --m 2 --k 3 --q 0.7 --beta 10
    --restarts 24 --reps 400 --patience 60 --max-evals 6000 --final-reps 4000 --threads "$threads"
    --seed 0 --event "$event" --eta "$eta" --out "$dir/hardest-$lo-$hi-$event.csv")
  local log
  log=$(mktemp)
  { echo "\$ ssac harden ${args[*]}"; nice -n "$nice" "$ssac" harden "${args[@]}"; } >"$log"
  mv "$log" "$dir/harden-$lo-$hi-$event.txt"
}

for s in "${steps[@]}"; do
  echo "bounds-vs-practice-all: $s ($(date -u +%H:%M:%S))" >&2
  case $s in
    failure-generator) calibrate EVENT=fewer-clusters GRID=$g50 ;;
    failure-paper-main) calibrate WINDOWS=1:1.1 EVENT=fewer-clusters GRID=$g1000 ;;
    recovery-generator) calibrate WINDOWS="1.05:1.1 1.1:1.3 1.3:2" EVENT=recovery GRID=$g5000 ;;
    recovery-narrow) calibrate WINDOWS="1:1.05 1:1.1" EVENT=recovery ;;
    harden-failure)
      for w in 1:1.05 1:1.1 1.05:1.1 1.1:1.3 1.3:2; do
        harden "${w%%:*}" "${w##*:}" fewer-clusters 2
        calibrate DATA="$dir/hardest-${w%%:*}-${w##*:}-fewer-clusters.csv" EVENT=fewer-clusters \
          GRID=$g1000
      done
      ;;
    harden-recovery)
      harden 1 1.1 recovery 20
      calibrate DATA="$dir/hardest-1-1.1-recovery.csv" EVENT=recovery
      ;;
    plot) bash scripts/bounds-vs-practice-plot.sh "$dir" "$figure" >/dev/null ;;
  esac
done
tables
