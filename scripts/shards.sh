#!/usr/bin/env bash
# Prints the rep ranges A:B, one per line, that split REPS reps into SHARDS contiguous slices of
# nearly equal size (the first REPS mod SHARDS slices get one rep more), for
# `ssac experiment --reps-range A:B`. Shared by the GNU parallel and Slurm recipes of
# docs/scaling.md, so every scheduler cuts a run the same way.
#   bash scripts/shards.sh 5000 4    ->  0:1250 1250:2500 2500:3750 3750:5000
set -euo pipefail
[ $# = 2 ] || { echo "usage: shards.sh REPS SHARDS" >&2; exit 2; }
reps=$1 shards=$2
[[ $reps =~ ^[0-9]+$ && $shards =~ ^[0-9]+$ ]] || { echo "shards.sh: REPS and SHARDS must be whole numbers" >&2; exit 2; }
((shards >= 1 && shards <= reps)) || { echo "shards.sh: SHARDS must be in [1, REPS]" >&2; exit 2; }
start=0
for ((s = 0; s < shards; s++)); do
  size=$((reps / shards + (s < reps % shards ? 1 : 0)))
  echo "$start:$((start + size))"
  start=$((start + size))
done
