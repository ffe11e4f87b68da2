#!/usr/bin/env bash
# Builds the libFuzzer targets with clang++ (ASan + UBSan), in the sanitizer build
# (scripts/sanitize-configure.sh; already built when scripts/sanitize.sh ran first), and runs each
# for a fixed time, SSAC_FUZZ_SECONDS (default 30) per target, from the committed seed corpus in
# fuzz/corpus/.
# New inputs go to a scratch directory, so the committed corpus is not modified; a crash leaves
# its input in build-sanitize/artifacts/ and fails the script. A longer run, e.g. an hour per target:
#   SSAC_FUZZ_SECONDS=3600 bash scripts/fuzz.sh
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${SSAC_FUZZ_SECONDS:-30}
build=${SSAC_FUZZ_BUILD_DIR:-build-sanitize}
# shellcheck source=scripts/sanitize-configure.sh
source scripts/sanitize-configure.sh
configure_sanitize "$build"
targets=$(cd fuzz/corpus && ls)
for t in $targets; do cmake --build "$build" -j"$(nproc)" --target "fuzz_$t" >/dev/null; done
mkdir -p "$build/artifacts"
for t in $targets; do
  scratch=$(mktemp -d)
  echo "fuzz: $t for ${seconds}s" >&2
  "$build/fuzz/fuzz_$t" -max_total_time="$seconds" -max_len=4096 -print_final_stats=1 \
    -artifact_prefix="$build/artifacts/$t-" "$scratch" "fuzz/corpus/$t" 2>"$build/fuzz_$t.log" || {
    tail -40 "$build/fuzz_$t.log" >&2
    echo "fuzz: $t FAILED; the input is in $build/artifacts/" >&2
    exit 1
  }
  grep -E 'stat::number_of_executed_units' "$build/fuzz_$t.log" >&2 || true
  rm -rf "$scratch"
done
echo "fuzz: every target ran ${seconds}s without a finding"
