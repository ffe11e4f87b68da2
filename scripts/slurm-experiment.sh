#!/usr/bin/env bash
# A Slurm job array that runs one `ssac experiment` sweep as SHARDS slices (docs/scaling.md):
#   sbatch --array=0-15 scripts/slurm-experiment.sh paper-main 5000 16 20171 /shared/run
# Array task t runs the t-th range of scripts/shards.sh into OUT/shard-t; when every task is done,
#   ssac merge OUT/shard-* --out OUT/merged
# gives the summary.json of the whole run, byte for byte (docs/experiment.md, "Random streams").
#SBATCH --job-name=ssac-experiment
#SBATCH --cpus-per-task=2
#SBATCH --time=01:00:00
set -euo pipefail
[ $# = 5 ] || { echo "usage: slurm-experiment.sh PRESET REPS SHARDS SEED OUT" >&2; exit 2; }
preset=$1 reps=$2 shards=$3 seed=$4 out=$5
task=${SLURM_ARRAY_TASK_ID:?run this script as a Slurm job array (sbatch --array=0-$((shards - 1)))}
here=$(dirname "$(realpath "$0")")
range=$(bash "$here/shards.sh" "$reps" "$shards" | sed -n "$((task + 1))p")
[ -n "$range" ] || { echo "slurm-experiment: task $task is beyond the $shards shards" >&2; exit 2; }
ssac=${SSAC:-ssac}
"$ssac" experiment --preset "$preset" --seed "$seed" --reps-range "$range" \
  --threads "${SLURM_CPUS_PER_TASK:-1}" --quiet --no-plots --out "$out/shard-$task"
