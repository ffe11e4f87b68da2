#!/usr/bin/env bash
# Theory versus practice: `ssac calibrate` on the paper's generator (n = 1500, m = 2, k = 3,
# sigma = 1.75, beta = 10) for each gamma window x q, and one markdown table of the empirical eta
# beside Theorem 1's (docs/bounds-vs-practice.md holds the committed output).
#
# Usage: bash scripts/bounds-vs-practice.sh [OUT.md]     (default results/bounds-vs-practice.md)
# Environment: SSAC (default build/cli/ssac), EVENT (fewer-clusters | recovery; default
# fewer-clusters), GRID (the eta grid, default calibrate's), THREADS (default 2),
# WINDOWS (default "1:1.05 1.05:1.1 1.1:1.3 1.3:2"), QS (default "0.7 0.85 1"),
# DATA (a labelled CSV, e.g. the hardest instance `ssac harden` found: calibrate on that fixed
# dataset instead of the windows; Theorem 1 is then evaluated at the dataset's own gamma).
# Not a CI step: each calibrate run measures 624 reps per grid value plus a re-check.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-results/bounds-vs-practice.md}
ssac=${SSAC:-build/cli/ssac}
event=${EVENT:-fewer-clusters}
threads=${THREADS:-2}
windows=${WINDOWS:-"1:1.05 1.05:1.1 1.1:1.3 1.3:2"}
qs=${QS:-"0.7 0.85 1"}
grid_opt=()
[ -n "${GRID:-}" ] && grid_opt=(--grid "$GRID")
mkdir -p "$(dirname "$out")"
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT

{
  echo "| gamma window | q | empirical eta | re-check (failures of reps, CP bound) | eta_random (Thm 1, at gamma_max) | ratio | eta_random Pinelis | eta_perfect | non-monotone |"
  echo "|---|---|---|---|---|---|---|---|---|"
} >"$out"
[ -n "${DATA:-}" ] && windows=data
for w in $windows; do
  lo=${w%%:*}
  hi=${w##*:}
  for q in $qs; do
    if [ "$w" = data ]; then
      where=(--data "$DATA")
      label="$(basename "$DATA" .csv), gamma = $("$ssac" gamma "$DATA" | awk 'NR == 1 { print $3 }')"
      name=$(basename "$DATA" .csv)-q$q-$event
    else
      where=(--gamma-min "$lo" --gamma-max "$hi")
      label="($lo, $hi]"
      name=$lo-$hi-q$q-$event
    fi
    log=$logs/$name.txt
    start=$(date +%s)
    nice -n 10 "$ssac" calibrate "${where[@]}" --q "$q" --beta 10 \
      --delta 0.05 --alpha 0.05 --event "$event" --threads "$threads" "${grid_opt[@]}" >"$log"
    echo "bounds-vs-practice: $label q = $q: $(($(date +%s) - start)) s" >&2
    awk -v w="$label" -v q="$q" '
      /^empirical eta = / { emp = $4; match($0, /re-check [0-9]+: [0-9]+ of [0-9]+/)
                            re = substr($0, RSTART, RLENGTH); match($0, /upper bound [0-9.]+/)
                            re = re ", CP " substr($0, RSTART + 12, RLENGTH - 12) }
      /^empirical eta: none confirmed/ { emp = "none confirmed"; re = "-" }
      /^no value of the grid passes/ { emp = "none on the grid"; re = "-" }
      /^  eta_random \(Theorem 1\)/ { th = $4; ratio = NF >= 9 ? $NF : "-" }
      /^  eta_random, Pinelis/ { pin = $3 }
      /^  eta_perfect \(remark/ { per = $6 }
      /^non-monotone/ { nm++ }
      END { printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", w, q, emp, re, th, ratio,
            pin, per, nm ? nm " flag(s)" : "none" }' "$log" >>"$out"
    cp "$log" "$(dirname "$out")/calibrate-$name.txt"
  done
done
echo "bounds-vs-practice: wrote $out"
