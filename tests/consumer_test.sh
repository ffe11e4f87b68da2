#!/usr/bin/env bash
# The installable package, used as another project would use it: tests/consumer/ (a project that
# only does find_package(ssac)) is configured, built and run against an installed tree.
# Usage:
#   consumer_test.sh installed BUILD_DIR CONSUMER_SOURCE_DIR CXX_COMPILER VERSION [FLAGS]
#     installs the build tree BUILD_DIR into a temporary prefix. FLAGS (compile and link) are the
#     sanitizer options of a sanitizer build, else empty.
#   consumer_test.sh alone SOURCE_DIR TREE_DIR CONSUMER_SOURCE_DIR CXX_COMPILER VERSION [LAUNCHER]
#     configures SOURCE_DIR afresh in TREE_DIR as a machine without the test frameworks would
#     (no tests, no GoogleTest, RapidCheck or Google Benchmark, no Python module), builds only the
#     two libraries and installs everything but the `program` component (the `ssac` program,
#     which the installed mode checks: compiling it again here would double this test's cost for
#     nothing the libraries' package depends on). TREE_DIR is kept between runs so that a rerun compiles
#     only what changed; its CMakeCache.txt is removed first, so every run configures from
#     nothing. LAUNCHER (e.g. ccache) is the compiler launcher of the build that runs the test.
set -euo pipefail
mode=$1
shift
case $mode in
  installed) build=$1 source=$2 cxx=$3 version=$4 flags=${5:-} ;;
  alone) tree_source=$1 tree=$2 source=$3 cxx=$4 version=$5 launcher=${6:-} flags= ;;
  *) echo "consumer_test: unknown mode '$mode' (installed | alone)" >&2; exit 2 ;;
esac
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if [ "$mode" = alone ]; then
  rm -f "$tree/CMakeCache.txt"
  # Release without its optimisation (-O0): what is checked is that the lone tree configures,
  # compiles, installs and links, not its speed, and -O0 compiles the Eigen- and Boost-heavy
  # sources in a fraction of an optimised build's time on CI's cold compiler cache.
  args=(-DCMAKE_BUILD_TYPE=Release "-DCMAKE_CXX_FLAGS_RELEASE=-O0 -DNDEBUG"
    -DCMAKE_CXX_COMPILER="$cxx" -DBUILD_TESTING=OFF
    -DCMAKE_DISABLE_FIND_PACKAGE_GTest=ON -DCMAKE_DISABLE_FIND_PACKAGE_rapidcheck=ON
    -DCMAKE_DISABLE_FIND_PACKAGE_benchmark=ON -DSSAC_PYTHON=OFF)
  [ -z "$launcher" ] || args+=(-DCMAKE_CXX_COMPILER_LAUNCHER="$launcher")
  cmake -S "$tree_source" -B "$tree" "${args[@]}" >"$work/tree-configure.log" 2>&1 ||
    { cat "$work/tree-configure.log" >&2; echo "consumer_test: the library alone does not configure" >&2; exit 1; }
  # The libraries' package: the two libraries, their headers and the package files.
  cmake --build "$tree" -j"$(nproc)" --target ssac ssac_theory >"$work/tree-build.log" 2>&1 ||
    { tail -n 40 "$work/tree-build.log" >&2; echo "consumer_test: the library alone does not build" >&2; exit 1; }
  build=$tree
fi

installed=(include/ssac/ssac.hpp include/ssac/version.hpp include/ssac/theory/bounds.hpp)
if [ "$mode" = alone ]; then
  # Every component but the program: CMake's default component holds the libraries, the headers
  # and the package files.
  cmake --install "$build" --prefix "$work/prefix" --component Unspecified >"$work/install.log"
  if [ -e "$work/prefix/bin/ssac" ]; then
    echo "consumer_test: the library alone installed the program" >&2
    exit 1
  fi
else
  cmake --install "$build" --prefix "$work/prefix" >"$work/install.log"
  installed+=(bin/ssac)
fi
for f in "${installed[@]}"; do
  [ -e "$work/prefix/$f" ] || { echo "consumer_test: $f was not installed" >&2; exit 1; }
done
# The package files, under the library directory GNUInstallDirs chose (lib, or lib/<arch>).
for f in ssacConfig.cmake ssacConfigVersion.cmake ssacTargets.cmake; do
  find "$work/prefix" -path "*/cmake/ssac/$f" | grep -q . ||
    { echo "consumer_test: $f was not installed" >&2; exit 1; }
done
# Test-only code stays out of the package (a tree with tests builds it; the lone library has none).
if find "$work/prefix" -name '*ssac_testing*' -o -name 'negative_controls.hpp' | grep -q .; then
  echo "consumer_test: the negative controls were installed" >&2
  exit 1
fi
# The consumer states no C++ standard, as a project with default settings would not: the
# package's targets must carry the one their headers need (g++ 12 and clang++ 14 default to C++17).
if grep -nE 'CMAKE_CXX_STANDARD|cxx_std_|-std=' "$source/CMakeLists.txt" >&2; then
  echo "consumer_test: the consumer sets a C++ standard itself (line above)" >&2
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
if [ "$mode" = installed ]; then
  [ "$("$work/prefix/bin/ssac" --version)" = "ssac $version" ] ||
    { echo "consumer_test: ssac --version is not ssac $version" >&2; exit 1; }
fi
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
echo "consumer_test: ok ($mode)"
