#!/usr/bin/env bash
# Builds the whole project with AddressSanitizer and UndefinedBehaviorSanitizer (clang++, -O2, line
# tables; scripts/sanitize-configure.sh) and runs the unit and property suites under them. Any
# report fails the test that triggered it.
# The property suites run a quarter of their RapidCheck cases (SSAC_PROPS_SCALE=0.25): the
# sanitizers need every code path, which a quarter of the cases still takes, while the statistics
# are the Release run's job; this keeps CI inside its time budget.
# (-O2 rather than -O1: Eigen-heavy property suites run about ten times slower at -O1 under the
# sanitizers, which the CI budget cannot afford; the sanitizers instrument either level.)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${SSAC_SANITIZE_BUILD_DIR:-build-sanitize}
# shellcheck source=scripts/sanitize-configure.sh
source scripts/sanitize-configure.sh
configure_sanitize "$build"
cmake --build "$build" -j"$(nproc)"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export SSAC_PROPS_SCALE=${SSAC_PROPS_SCALE:-0.25}
ctest --test-dir "$build" -j"$(nproc)" --output-on-failure "$@"
