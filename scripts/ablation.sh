#!/usr/bin/env bash
# The ablation behind docs/reproduction.md: which rule of the authors' experiment code accounts for
# the difference between the reference's #Failure and the paper's. For each preset it runs
# `ssac experiment` under
#   the paper's rules; the paper's former default (self-pairs=off, semantics S4); the paper's rules
#   plus each authors-code rule alone;
#   the paper's rules plus the anchor rule on shuffled rows (with and without overwriting);
#   the authors-code profile; the authors-code profile minus each rule;
# with the same seed, and prints one line per run in the format of docs/reproduction/ablation.txt
# (scripts/ablation_tables.py `line`): the rules, the pooled #Failure over the 15 (q, eta) cells,
# every cell's #Failure and every cell's accuracy. Not a CI step: at 5000 reps a run of
# paper-main takes about a minute of one core, paper-nonsep less, paper-highdim more. Results go
# to OUT/<preset>/<name>/.
#   bash scripts/ablation.sh [REPS] [OUT]      (defaults: 5000, results/ablation)
# Environment: SSAC (default build/cli/ssac), THREADS (default 2), PRESETS (default
# "paper-main paper-nonsep"; the committed file adds paper-highdim with ONLY="paper authors-code"),
# ONLY (run names to make, space-separated; default every run), GAUSSIANS (the generator's
# stream, default polar: version 1, the stream of the committed file; the presets' own default is
# ziggurat-clusters).
set -euo pipefail
cd "$(dirname "$0")/.."
reps=${1:-5000}
out=${2:-results/ablation}
ssac=${SSAC:-build/cli/ssac}
threads=${THREADS:-2}
presets=${PRESETS:-paper-main paper-nonsep}
only=${ONLY:-}
gaussians=${GAUSSIANS:-polar}
[ -x "$ssac" ] || { echo "ablation: build the program first (bash scripts/test.sh)" >&2; exit 2; }
# One authors-code rule each: NAME=VALUE as in `--rule`, and its paper value. Both profiles ask
# self-pairs (S4), so self-pairs is not among them; the former default that did not is a run of its
# own, paper+self-pairs=off.
rules=("anchor=lowest-labelled-row|anchor=opener" "phase2=prefix|phase2=radius"
  "overwrite=on|overwrite=off" "sample-cap=on|sample-cap=off"
  "empty-recovers=on|empty-recovers=off" "elimination=off|elimination=on"
  "rows=shuffled|rows=blocks")
for preset in $presets; do
  seed=20171
  runs=("paper|--semantics paper" "paper+self-pairs=off|--semantics paper --rule self-pairs=off")
  for r in "${rules[@]}"; do runs+=("paper+${r%%|*}|--semantics paper --rule ${r%%|*}"); done
  # What the anchor rule does depends on the row order (the lowest labelled row of a cluster is
  # its lowest-index true member unless a captured row of another cluster lies below it), so it is
  # also run with the rows shuffled as the authors' data has them, and with overwriting on top.
  runs+=("paper+anchor+rows|--semantics paper --rule anchor=lowest-labelled-row --rule rows=shuffled")
  runs+=("paper+anchor+rows+overwrite|--semantics paper --rule anchor=lowest-labelled-row --rule rows=shuffled --rule overwrite=on")
  runs+=("authors-code|--semantics authors-code")
  for r in "${rules[@]}"; do runs+=("authors-code-${r%%|*}|--semantics authors-code --rule ${r#*|}"); done
  for run in "${runs[@]}"; do
    name=${run%%|*}
    args=${run#*|}
    if [ -n "$only" ] && ! grep -qxF -- "$name" <(tr ' ' '\n' <<<"$only"); then continue; fi
    dir=$out/$preset/$name
    # shellcheck disable=SC2086
    "$ssac" experiment --preset "$preset" --reps "$reps" --seed "$seed" --gaussians "$gaussians" $args \
      --threads "$threads" --quiet \
      --no-plots --out "$dir"
    python3 scripts/ablation_tables.py line "$dir/summary.json" "$preset" "$name"
  done
done
