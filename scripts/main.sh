#!/usr/bin/env bash
# The README's main command: installs what a fresh Debian 12 machine lacks, builds ssac, and
# reproduces the paper's main evaluation (Section 5: n = 1500, m = 2, k = 3, sigma = 1.75,
# 1.0 < gamma <= 1.1; random-weak oracle, q in {0.7, 0.85, 1}, eta in {2, 5, 10, 20, 50}, beta = 10,
# unified binary search, 5000 reps). Prints the paper's tables; the plots, CSV tables and
# summary.json are written to results/paper-main/.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
build=${SSAC_BUILD_DIR:-build}
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$build" -j"$(nproc)" --target ssac_cli >/dev/null
# The Python module, when python3-dev and pybind11-dev are present (docs/python.md).
if grep -q '^SSAC_PYTHON:BOOL=ON' "$build/CMakeCache.txt"; then
  cmake --build "$build" -j"$(nproc)" --target ssac_python >/dev/null
  bash scripts/python-path.sh "$build" >/dev/null
fi
"$build"/cli/ssac experiment --preset paper-main --out results/paper-main "$@"
