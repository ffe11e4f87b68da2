#!/usr/bin/env bash
# Where the README test command's build time goes (docs/build-time.md). Configures a fresh build
# tree as scripts/test.sh does, without a compiler cache, and builds everything with -j2 through a
# launcher that records the CPU time (user + sys) of every compile and link; then prints the total
# CPU time, the totals by folder and the slowest steps. CPU time, not wall time, because the
# machine may be shared: it does not depend on what else runs. With --ctest, also runs
# `ctest -j2` and prints its CPU time (ctest's and all its tests').
# Usage: bash scripts/build-time.sh [--ctest] [BUILD_DIR [TARGET...]]   (BUILD_DIR default
# /tmp/ssac-build-time, emptied first; TARGETs, e.g. one object file, default everything). The
# per-step log stays in BUILD_DIR/build-time.log ("user sys wall output" per line).
set -euo pipefail
cd "$(dirname "$0")/.."
run_ctest=0
if [ "${1:-}" = --ctest ]; then
  run_ctest=1
  shift
fi
build=${1:-/tmp/ssac-build-time}
shift || true
targets=()
(($#)) && targets=(--target "$@")
rm -rf "$build"
mkdir -p "$build"
launcher=$build/time-launcher.sh
cat >"$launcher" <<'SH'
#!/usr/bin/env bash
out=unknown
prev=
for a in "$@"; do
  [ "$prev" = -o ] && out=$a
  prev=$a
done
exec /usr/bin/time -a -o "$SSAC_BUILD_TIME_LOG" -f "%U %S %e $out" "$@"
SH
chmod +x "$launcher"
export SSAC_BUILD_TIME_LOG=$build/build-time.log CCACHE_DISABLE=1
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DSSAC_WERROR=ON \
  -DCMAKE_CXX_COMPILER_LAUNCHER="$launcher" -DCMAKE_CXX_LINKER_LAUNCHER="$launcher" >/dev/null
start=$SECONDS
cmake --build "$build" -j2 "${targets[@]}" >"$build/build.log" 2>&1 || { tail -n 30 "$build/build.log" >&2; exit 1; }
echo "build-time: wall $((SECONDS - start)) s with -j2"
awk '{cpu = $1 + $2; total += cpu; steps++; split($4, p, "/"); dir[p[1]] += cpu; n[p[1]]++}
     END {printf "build-time: %.0f CPU-s in %d compile and link steps\n", total, steps
          for (d in dir) printf "  %-8s %7.0f CPU-s  %3d steps\n", d, dir[d], n[d]}' \
  "$SSAC_BUILD_TIME_LOG"
echo "build-time: the slowest steps (CPU-s):"
awk '{printf "  %7.1f  %s\n", $1 + $2, $4}' "$SSAC_BUILD_TIME_LOG" | sort -rn | head -n 15
if ((run_ctest)); then
  /usr/bin/time -o "$build/ctest-time" -f "%U %S %e" ctest --test-dir "$build" -j2 >"$build/ctest.log" 2>&1 ||
    echo "build-time: some tests failed (see $build/ctest.log)" >&2
  read -r u s e <"$build/ctest-time"
  echo "build-time: ctest -j2: $(awk -v u="$u" -v s="$s" 'BEGIN {printf "%.0f", u + s}') CPU-s, wall $e s"
fi
