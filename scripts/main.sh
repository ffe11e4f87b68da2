#!/usr/bin/env bash
# The README's main command: installs what a fresh Debian 12 machine lacks, builds ssac, draws the
# paper's main dataset (Section 5.1: n = 1500, m = 2, k = 3, sigma = 1.75, 1.0 < gamma <= 1.1) and
# clusters it with SSAC and a q = 0.7 random-weak oracle (Theorem 1's setting; unified search).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
build=${SSAC_BUILD_DIR:-build}
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$build" -j"$(nproc)" --target ssac_cli >/dev/null
mkdir -p out
"$build"/cli/ssac generate --n 1500 --m 2 --k 3 --std 1.75 --gamma-min 1.0 --gamma-max 1.1 \
  --seed 7 --out out/paper-main.csv
"$build"/cli/ssac cluster out/paper-main.csv --k 3 --oracle random --q 0.7 --eta 10 --beta 10 \
  --seed 7 --out out/paper-main-labels.csv
