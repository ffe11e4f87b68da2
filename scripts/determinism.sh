#!/usr/bin/env bash
# Same seed, same bytes: runs the same commands with binaries from different builds -- g++ Release
# at -O3 (build/), g++ at -O0 (build-debug/, below), clang++ -O2 with
# ASan and UBSan (build-sanitize/, scripts/sanitize-configure.sh) -- and, for the experiment, with
# --threads 1, 2 and 8, and fails on the first output that differs. Builds that are missing are configured and
# built here (only the program).
set -euo pipefail
cd "$(dirname "$0")/.."
declare -A dirs=([gcc-release]=build [gcc-debug]=build-debug [clang-sanitize]=build-sanitize)
[ -x build/cli/ssac ] || {
  cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DSSAC_WERROR=ON >/dev/null
  cmake --build build -j"$(nproc)" --target ssac_cli >/dev/null
}
[ -x build-sanitize/cli/ssac ] || {
  # shellcheck source=scripts/sanitize-configure.sh
  source scripts/sanitize-configure.sh
  configure_sanitize build-sanitize
  cmake --build build-sanitize -j"$(nproc)" --target ssac_cli >/dev/null
}
# The g++ -O0 program, without debug information (what is compared is the optimiser's effect on
# the bytes, and -g only slows the compile).
[ -x build-debug/cli/ssac ] && [ build-debug/cli/ssac -nt build/cli/ssac ] || {
  cmake -S . -B build-debug -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG=-O0 -DBUILD_TESTING=OFF \
    -DSSAC_WERROR=ON >/dev/null
  cmake --build build-debug -j"$(nproc)" --target ssac_cli >/dev/null
}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bin=build/cli/ssac
# shellcheck source=scripts/output-cases.sh
source scripts/output-cases.sh
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
