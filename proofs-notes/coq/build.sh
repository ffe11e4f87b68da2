#!/usr/bin/env bash
# Builds the Coq development of proofs-notes/coq out of source: copies the .v files and the
# _CoqProject into BUILD_DIR and runs coq_makefile's Makefile there (the source folder stays free
# of .vo files).  Usage: build.sh SOURCE_DIR BUILD_DIR
set -euo pipefail
src=$1 out=$2
mkdir -p "$out"
cp "$src"/_CoqProject "$src"/*.v "$out"/
cd "$out"
coq_makefile -f _CoqProject -o Makefile.coq >/dev/null
make -s -f Makefile.coq -j"${COQ_JOBS:-2}"
