#!/usr/bin/env bash
# The ablation behind docs/reproduction.md: which rule of the authors' experiment code accounts for
# the difference between the reference's #Failure and the paper's. For each preset it runs
# `ssac experiment` under
#   the paper's rules; the paper's rules plus each authors-code rule alone;
#   the paper's rules plus the anchor rule on shuffled rows (with and without overwriting);
#   the authors-code profile; the authors-code profile minus each rule;
# with the same seed, and prints one line per run: the rules, the pooled #Failure over the 15
# (q, eta) cells, the failures at q = 1, and the accuracy table. Not a CI step: at 5000 reps a
# preset takes about 12 minutes of two cores. Results go to OUT/<preset>/<name>/.
#   bash scripts/ablation.sh [REPS] [OUT]      (defaults: 5000, results/ablation)
set -euo pipefail
cd "$(dirname "$0")/.."
reps=${1:-5000}
out=${2:-results/ablation}
ssac=${SSAC:-build/cli/ssac}
threads=${THREADS:-2}
[ -x "$ssac" ] || { echo "ablation: build the program first (bash scripts/test.sh)" >&2; exit 2; }
# One authors-code rule each: NAME=VALUE as in `--rule`, and its paper value.
rules=("anchor=lowest-labelled-row|anchor=opener" "phase2=prefix|phase2=radius"
  "overwrite=on|overwrite=off" "sample-cap=on|sample-cap=off" "self-pairs=on|self-pairs=off"
  "empty-recovers=on|empty-recovers=off" "elimination=off|elimination=on"
  "rows=shuffled|rows=blocks")
for preset in paper-main paper-nonsep; do
  seed=20171
  runs=("paper|--semantics paper")
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
    dir=$out/$preset/$name
    # shellcheck disable=SC2086
    "$ssac" experiment --preset "$preset" --reps "$reps" --seed "$seed" $args --threads "$threads" --quiet \
      --no-plots --out "$dir"
    python3 - "$dir/summary.json" "$preset" "$name" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
cells = s["cells"]
fail = sum(c["failures"] for c in cells)
q1 = [c["failures"] for c in cells if c.get("q") == 1]
acc = {}
for c in cells:
    acc.setdefault(c["q"], []).append("%.3f" % c["accuracy_pct"])
print("%s | %s | %d | %s | %s" % (sys.argv[2], sys.argv[3], fail, " ".join(map(str, q1)),
      " / ".join("q=%g: %s" % (q, " ".join(v)) for q, v in acc.items())))
PY
  done
done
