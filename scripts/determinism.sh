#!/usr/bin/env bash
# Same seed, same bytes: runs the same commands with binaries from different builds -- g++ Release
# (build/), g++ Debug at -O0 (build-debug/), g++ -O2 with sanitizers (build-sanitize/), clang++
# (build-fuzz/) -- and, for the experiment, with --threads 1, 2 and 8, and fails on the first
# output that differs. Builds that are missing are configured and built here (only the program).
set -euo pipefail
cd "$(dirname "$0")/.."
declare -A dirs=([gcc-release]=build [gcc-debug]=build-debug [gcc-sanitize]=build-sanitize
  [clang]=build-fuzz)
[ -x build/cli/ssac ] || {
  cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DSSAC_WERROR=ON >/dev/null
  cmake --build build -j"$(nproc)" --target ssac_cli >/dev/null
}
[ -x build-sanitize/cli/ssac ] || {
  cmake -S . -B build-sanitize -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSSAC_SANITIZE=ON \
    -DSSAC_BENCHMARKS=OFF -DSSAC_WERROR=ON >/dev/null
  cmake --build build-sanitize -j"$(nproc)" --target ssac_cli >/dev/null
}
cmake -S . -B build-debug -DCMAKE_BUILD_TYPE=Debug -DSSAC_BENCHMARKS=OFF -DSSAC_WERROR=ON >/dev/null
cmake --build build-debug -j"$(nproc)" --target ssac_cli >/dev/null
cmake -S . -B build-fuzz -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DSSAC_FUZZ=ON -DSSAC_WERROR=ON >/dev/null
cmake --build build-fuzz -j"$(nproc)" --target ssac_cli >/dev/null

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Each line: a name and the arguments after `ssac`. Each build runs them inside its own directory
# with relative file names, so that printed paths are the same too.
cases=(
  "generate|generate --n 1500 --m 2 --k 3 --std 1.75 --gamma-min 1.0 --gamma-max 1.1 --seed 7 --out d.csv"
  "generate-highdim|generate --n 3000 --m 10 --k 3 --std 1.75 --gamma-min 1.0 --gamma-max 1.1 --seed 11 --out h.csv"
  "cluster-random|cluster d.csv --k 3 --oracle random --q 0.7 --eta 10 --seed 7 --json --out l1.csv --trace t1.jsonl"
  "cluster-local|cluster d.csv --k 3 --oracle local --nu 1.05 --rho 0.9 --eta 5 --search distance --seed 3 --json --trace t2.jsonl"
  "cluster-global|cluster h.csv --k 3 --oracle global --rho 0.95 --eta 5 --search random --seed 4 --json --trace t3.jsonl"
  "cluster-original|cluster d.csv --k 3 --oracle random --q 0.85 --eta 2 --algorithm original --seed 5 --json"
)
if build/cli/ssac experiment --help >/dev/null 2>&1; then
  for t in 1 2 8; do
    cases+=("experiment-threads-$t|experiment --preset paper-main --reps 40 --seed 3 --threads $t --quiet --out exp$t")
  done
fi
for b in "${!dirs[@]}"; do
  mkdir -p "$work/$b"
  bin=$PWD/${dirs[$b]}/cli/ssac
  for c in "${cases[@]}"; do
    name=${c%%|*}
    args=${c#*|}
    (cd "$work/$b" && eval "\"$bin\" $args" >"$name.stdout")
  done
  # Wall-clock timings are the one output that may differ; they are kept apart for that reason.
  rm -f "$work/$b"/exp*/timing.json
done
status=0
for b in "${!dirs[@]}"; do
  [ "$b" = gcc-release ] && continue
  if ! diff -r -q "$work/gcc-release" "$work/$b" >/dev/null; then
    echo "determinism: outputs of $b differ from gcc-release:" >&2
    diff -r -q "$work/gcc-release" "$work/$b" >&2 || true
    status=1
  fi
done
# The experiment's summaries must not depend on the thread count.
if [ -d "$work/gcc-release/exp1" ]; then
  for t in 2 8; do
    cmp -s "$work/gcc-release/exp1/summary.json" "$work/gcc-release/exp$t/summary.json" || {
      echo "determinism: experiment summary differs between --threads 1 and --threads $t" >&2
      status=1
    }
  done
fi
n=$(find "$work/gcc-release" -type f | wc -l)
[ "$status" = 0 ] && echo "determinism: $n output files identical across ${#dirs[@]} builds"
exit $status
