#!/usr/bin/env bash
# Per-rep CPU time of `ssac experiment` for each preset, for this tree and a baseline commit,
# measured in one run, side by side, so that a regression shows as a ratio rather than as an
# absolute figure that moves with the machine's load.
#
#   bash scripts/bench.sh [--baseline REV] [--rounds R] [--scale S] [--presets LIST]
#                         [--current-args 'ARGS'] [--full]
#
# --full measures instead the README's run, `ssac experiment --preset paper-main` with its 5000
# reps, plots and default threads, alternating (current, baseline) for R rounds: the median wall
# and CPU seconds (user + system, gnuplot included) of each, their ratios, the wall / CPU of each
# (the parallel efficiency: 0.5 is perfect on two cores) and whether the outputs agree.
#
# The baseline (default f76a49a, the tree before Phase 2 by selection and the blocked generator) is
# checked out with `git worktree` under build-bench/ and built there beside this tree (Release, the
# `ssac` program only, ccache when present); the worktree is removed at the end. Each round runs
# both programs once per preset, alternating (current, baseline), on one thread with the same seed,
# and takes CPU time (user + system, bash's `time`) over the reps; the figure printed is the median
# over rounds of CPU seconds / reps, in ms. The two programs' results are compared byte for byte
# too: gamma.csv (every rep's dataset), the Accuracy and #Failure CSV tables and table.txt ("same"
# or "DIFFERS"; summary.json is left out, as its header gained fields after the default baseline).
# --current-args adds options to this tree's runs only, e.g. '--gaussians ziggurat' (the
# generator's stream version 2): then the datasets differ by design, and since a rep's cost
# follows its number of generator draws, the mean draws per rep of each side are printed too.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

baseline=f76a49a
rounds=3
scale=1
presets="paper-main paper-highdim paper-nonsep"
current_args=""
full=0
while [ $# -gt 0 ]; do
  case $1 in
    --baseline) baseline=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --scale) scale=$2; shift 2 ;;
    --presets) presets=${2//,/ }; shift 2 ;;
    --current-args) current_args=$2; shift 2 ;;
    --full) full=1; shift ;;
    -h|--help) sed -n '2,26p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "bench.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
case $rounds in ''|*[!0-9]*|0) echo "bench.sh: --rounds must be a whole number >= 1" >&2; exit 2 ;; esac
case $scale in ''|*[!0-9]*|0) echo "bench.sh: --scale must be a whole number >= 1" >&2; exit 2 ;; esac
rev=$(git rev-parse --verify --quiet "$baseline^{commit}") ||
  { echo "bench.sh: --baseline '$baseline' is not a commit" >&2; exit 2; }

# Reps per run and preset: about a second of CPU each on the baseline.
reps_of() {
  case $1 in
    paper-highdim) echo $((30 * scale)) ;;
    *) echo $((150 * scale)) ;;
  esac
}

work=$root/build-bench
src=$work/baseline-src
mkdir -p "$work"
# Only this script's own worktree is touched (no `git worktree prune`: other worktrees of the
# repository are none of its business).
cleanup() {
  git -C "$root" worktree remove --force "$src" 2>/dev/null || rm -rf "$src"
  rm -rf "$work/runs"
}
trap cleanup EXIT
git worktree remove --force "$src" 2>/dev/null || rm -rf "$src"
git worktree add --quiet --force --detach "$src" "$rev"

launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
build() {  # build SOURCE BUILD_DIR
  cmake -S "$1" -B "$2" -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF -DSSAC_BENCHMARKS=OFF \
    "${launcher[@]}" >/dev/null 2>&1
  cmake --build "$2" -j2 --target ssac_cli >/dev/null
}
echo "building $(git -C "$root" rev-parse --short HEAD) (this tree) and $(git rev-parse --short "$rev") (baseline) ..." >&2
build "$root" "$work/current-build"
build "$src" "$work/baseline-build"
current=$work/current-build/cli/ssac
base=$work/baseline-build/cli/ssac

# cpu_seconds PROGRAM PRESET REPS OUT [ARGS...]: runs one experiment, prints user + system
# seconds.
cpu_seconds() {
  local t
  t=$( { TIMEFORMAT='%3U %3S'; time "$1" experiment --preset "$2" --reps "$3" --threads 1 \
           --seed 1 --quiet --no-plots --out "$4" "${@:5}" >/dev/null 2>&1; } 2>&1 )
  awk -v t="$t" 'BEGIN { split(t, a, " "); printf "%.3f\n", a[1] + a[2] }'
}
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

if [ "$full" = 1 ]; then
  # full_run PROGRAM OUT: the README's run; prints "wall cpu" in seconds.
  full_run() {
    local t
    t=$( { TIMEFORMAT='%3R %3U %3S'; time "$1" experiment --preset paper-main --seed 1 --quiet \
             --out "$2" >/dev/null 2>&1; } 2>&1 )
    awk -v t="$t" 'BEGIN { split(t, a, " "); printf "%.3f %.3f\n", a[1], a[2] + a[3] }'
  }
  echo "$(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg);" \
    "$rounds rounds of ssac experiment --preset paper-main (5000 reps, plots), medians"
  : >"$work/cur.full"
  : >"$work/base.full"
  for _ in $(seq "$rounds"); do
    rm -rf "$work/runs"
    full_run "$current" "$work/runs/current" >>"$work/cur.full"
    full_run "$base" "$work/runs/baseline" >>"$work/base.full"
  done
  same=same
  for f in "$work"/runs/baseline/*.csv "$work/runs/baseline/table.txt"; do
    cmp -s "$f" "$work/runs/current/${f##*/}" || same=DIFFERS
  done
  cw=$(cut -d' ' -f1 "$work/cur.full" | median)
  cc=$(cut -d' ' -f2 "$work/cur.full" | median)
  bw=$(cut -d' ' -f1 "$work/base.full" | median)
  bc=$(cut -d' ' -f2 "$work/base.full" | median)
  echo "load at the end $(cut -d' ' -f1-3 /proc/loadavg)"
  printf '%-10s %8s %8s %10s\n' tree wall cpu wall/cpu
  awk -v w="$cw" -v c="$cc" 'BEGIN { printf "%-10s %8.2f %8.2f %10.3f\n", "current", w, c, w / c }'
  awk -v w="$bw" -v c="$bc" 'BEGIN { printf "%-10s %8.2f %8.2f %10.3f\n", "baseline", w, c, w / c }'
  awk -v a="$cw" -v b="$bw" -v c="$cc" -v d="$bc" -v s="$same" \
    'BEGIN { printf "ratio current / baseline: wall %.3f, cpu %.3f; results %s\n", a / b, c / d, s }'
  rm -f "$work/cur.full" "$work/base.full"
  exit 0
fi

echo "$(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg);" \
  "$rounds rounds, one thread, median CPU ms per rep"
[ -n "$current_args" ] && echo "this tree's runs add: $current_args"
read -r -a extra <<<"$current_args"
printf '%-14s %6s %12s %12s %8s %10s %14s\n' preset reps current baseline ratio results \
  'draws/rep c b'
# mean_draws DIR: the mean of gamma.csv's draws column.
mean_draws() { awk -F, 'NR > 1 { s += $3; n++ } END { printf "%.1f", s / n }' "$1/gamma.csv"; }
for p in $presets; do
  reps=$(reps_of "$p")
  : >"$work/cur.$p"
  : >"$work/base.$p"
  for _ in $(seq "$rounds"); do
    rm -rf "$work/runs"
    cpu_seconds "$current" "$p" "$reps" "$work/runs/current" "${extra[@]}" >>"$work/cur.$p"
    cpu_seconds "$base" "$p" "$reps" "$work/runs/baseline" >>"$work/base.$p"
  done
  same=same
  for f in "$work"/runs/baseline/*.csv "$work/runs/baseline/table.txt"; do
    cmp -s "$f" "$work/runs/current/${f##*/}" || same=DIFFERS
  done
  c=$(median <"$work/cur.$p")
  b=$(median <"$work/base.$p")
  draws="$(mean_draws "$work/runs/current") $(mean_draws "$work/runs/baseline")"
  awk -v p="$p" -v r="$reps" -v c="$c" -v b="$b" -v s="$same" -v d="$draws" \
    'BEGIN { printf "%-14s %6d %12.2f %12.2f %8.3f %10s %14s\n", p, r, 1e3 * c / r, 1e3 * b / r, c / b, s, d }'
  rm -f "$work/cur.$p" "$work/base.$p"
done
