#!/usr/bin/env bash
# The README's test command: installs what a fresh Debian 12 machine lacks, builds everything with
# warnings as errors, checks the formatting, and runs every test registered with ctest (unit
# tests, property suites, command-line tests, the Python module's pytest suite, the examples of
# README.md, docs/ and proofs-notes/: ctest -L docs).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
build=${SSAC_BUILD_DIR:-build}
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DSSAC_WERROR=ON >/dev/null
cmake --build "$build" -j"$(nproc)"
# The Python module (built when python3-dev and pybind11-dev are present): put on the path of
# `python3` and /usr/bin/python3, where the script checks that `import ssac` works.
if grep -q '^SSAC_PYTHON:BOOL=ON' "$build/CMakeCache.txt"; then
  bash scripts/python-path.sh "$build"
fi
bash scripts/check-format.sh
ctest --test-dir "$build" -j"$(nproc)" --output-on-failure "$@"
