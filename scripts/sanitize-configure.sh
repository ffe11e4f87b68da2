# Sourced by sanitize.sh, fuzz.sh and determinism.sh: the one sanitizer build of the project.
# clang++ with AddressSanitizer and UndefinedBehaviorSanitizer at -O2, every target (library,
# program, unit tests, property suites) plus the libFuzzer targets, which link the library and the
# commands themselves, compiled with libFuzzer's coverage instrumentation in this build
# (fuzz/CMakeLists.txt). One build serves the sanitizer run, the fuzzers and the determinism
# check's clang++ program: clang++ compiles these sources under the sanitizers in about 0.6 of
# g++'s time (measured 2026-11-25 on tests/test_validate.cpp, props/theorem1_random_weak.cpp,
# lib/src/exact/exact.cpp), and every source is compiled once for all three.
configure_sanitize() {  # configure_sanitize BUILD_DIR
  cmake -S . -B "$1" -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DSSAC_SANITIZE=ON -DSSAC_FUZZ=ON -DSSAC_BENCHMARKS=OFF -DSSAC_WERROR=ON >/dev/null
}
