#!/usr/bin/env bash
# docs/scaling.md's GNU parallel recipe, run here on one machine: a paper-main sweep cut into 4
# shards by scripts/shards.sh, run by GNU parallel, merged by `ssac merge`, must reproduce the
# single run's outputs (summary.json, gamma.csv, the CSV tables and table.txt) byte for byte.
# Negative control: a merge missing one shard must be refused (the slices must be contiguous).
set -euo pipefail
SSAC=$(realpath "$1")
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
common=(--preset paper-main --seed 11 --quiet --no-plots)
"$SSAC" experiment "${common[@]}" --reps 60 --threads 2 --out single
bash "$root/scripts/shards.sh" 60 4 |
  parallel --will-cite -j 2 "$SSAC" experiment "${common[@]}" --reps-range {} --threads 1 --out shard-{#}
"$SSAC" merge shard-* --out merged --quiet --no-plots
for f in summary.json gamma.csv table.txt accuracy_random_weak.csv failures_random_weak.csv; do
  cmp single/$f merged/$f || { echo "scaling: merged $f differs from the single run's" >&2; exit 1; }
done
if "$SSAC" merge shard-1 shard-2 shard-4 --out gap --quiet --no-plots 2>/dev/null; then
  echo "scaling: a merge with a missing shard was accepted" >&2
  exit 1
fi
echo "scaling: 4 shards under GNU parallel reproduce the single run byte for byte"
