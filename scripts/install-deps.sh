#!/usr/bin/env bash
# Installs, by Debian package name, everything ssac needs to build, test and run on a fresh
# Debian 12 machine (run as root). Packages already present are left alone, so a second run is
# quick and needs no network.
set -euo pipefail

packages=(
  cmake g++ make ninja-build
  time                   # scripts/build-time.sh: the CPU time of every compile and link
  libeigen3-dev          # points and vectors
  libboost-math-dev      # theory/: bounds, binomial distribution, multiprecision
  nlohmann-json3-dev     # JSON output, traces, conformance vectors
  libcli11-dev           # command line
  libgtest-dev           # unit tests
  librapidcheck-dev      # property suites
  libbenchmark-dev       # benchmarks
  gnuplot-nox            # ssac experiment's plots (PNG)
  parallel               # docs/scaling.md: the sharded-sweep recipe and its test
  python3-jsonschema     # tests/schema_test.py: the corpus and traces against schemas/
  clang-format
  clang libclang-rt-14-dev  # fuzzing (libFuzzer) and the clang++ determinism build
  python3-dev pybind11-dev  # the Python module (python/)
  python3-numpy python3-pytest  # its arrays and its tests, for Debian's /usr/bin/python3
  python3-setuptools python3-wheel python3-pip python3-venv  # pip install . (pyproject.toml), offline
  coq libcoq-interval libcoq-coquelicot libcoq-mathcomp-ssreflect libcoq-flocq  # proofs-notes/coq
  ocaml-nox ocaml-findlib  # the extracted binary search (proofs-notes/coq) and its driver
  libcpp-httplib-dev     # ssac label: the labelling page's server (loopback only)
  chromium chromium-driver python3-selenium python3-sklearn  # its browser test (ctest -L browser); sklearn: also docs/python.md, python/tests/test_estimator.py
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "install-deps: installing ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
