#!/usr/bin/env bash
# The installable package: installs the build tree into a temporary prefix, then configures,
# builds and runs tests/consumer/ (a project that only does find_package(ssac)) against it.
# Usage: consumer_test.sh BUILD_DIR CONSUMER_SOURCE_DIR CXX_COMPILER VERSION [FLAGS]
# FLAGS (compile and link) are the sanitizer options of a sanitizer build, else empty.
set -euo pipefail
build=$1 source=$2 cxx=$3 version=$4 flags=${5:-}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cmake --install "$build" --prefix "$work/prefix" >"$work/install.log"
for f in include/ssac/ssac.hpp include/ssac/version.hpp include/ssac/theory/bounds.hpp bin/ssac; do
  [ -e "$work/prefix/$f" ] || { echo "consumer_test: $f was not installed" >&2; exit 1; }
done
# The package files, under the library directory GNUInstallDirs chose (lib, or lib/<arch>).
for f in ssacConfig.cmake ssacConfigVersion.cmake ssacTargets.cmake; do
  find "$work/prefix" -path "*/cmake/ssac/$f" | grep -q . ||
    { echo "consumer_test: $f was not installed" >&2; exit 1; }
done
# Test-only code stays out of the package.
if find "$work/prefix" -name '*ssac_testing*' -o -name 'negative_controls.hpp' | grep -q .; then
  echo "consumer_test: the negative controls were installed" >&2
  exit 1
fi
cmake -S "$source" -B "$work/build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER="$cxx" \
  -DCMAKE_PREFIX_PATH="$work/prefix" -DCMAKE_CXX_FLAGS="$flags" -DCMAKE_EXE_LINKER_FLAGS="$flags" \
  >"$work/configure.log" ||
  { cat "$work/configure.log" >&2; exit 1; }
cmake --build "$work/build" >"$work/build.log" 2>&1 || { cat "$work/build.log" >&2; exit 1; }
out=$("$work/build/consumer")
echo "$out"
case $out in
  "ssac $version: 3 clusters; Theorem 1 eta"*) ;;
  *) echo "consumer_test: unexpected output" >&2; exit 1 ;;
esac
# The installed program reports the same version.
[ "$("$work/prefix/bin/ssac" --version)" = "ssac $version" ] ||
  { echo "consumer_test: ssac --version is not ssac $version" >&2; exit 1; }
# A version the package is not compatible with is refused.
mkdir -p "$work/wrong"
cat >"$work/wrong/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.25)
project(wrong LANGUAGES CXX)
find_package(ssac 99 REQUIRED)
CMAKE
if cmake -S "$work/wrong" -B "$work/wrong/build" -DCMAKE_PREFIX_PATH="$work/prefix" \
  >"$work/wrong.log" 2>&1; then
  echo "consumer_test: find_package(ssac 99) succeeded against ssac $version" >&2
  exit 1
fi
echo "consumer_test: ok"
