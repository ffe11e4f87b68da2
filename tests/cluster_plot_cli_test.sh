#!/usr/bin/env bash
# ssac cluster --plot: a labelled file gives a PNG (its 8-byte signature) beside the usual output;
# negative control: without gnuplot on PATH the command fails with exit 1 before the run and
# leaves neither the figure nor --out behind.
# Usage: cluster_plot_cli_test.sh PATH/TO/ssac PATH/TO/tests/fixtures
set -euo pipefail
ssac=$(realpath "$1")
tiny=$(realpath "$2/tiny.csv")
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
cd "$dir"
if ! command -v gnuplot >/dev/null; then
  echo "cluster_plot_cli_test: gnuplot not installed, skipped"
  exit 0
fi
out=$("$ssac" cluster "$tiny" --k 2 --eta 2 --seed 1 --plot p.png)
grep -q '^figure written to p.png$' <<<"$out" || fail "no figure line: $out"
[ "$(head -c 8 p.png | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] || fail "p.png is not a PNG"
status=0
PATH=/nonexistent "$ssac" cluster "$tiny" --k 2 --eta 2 --plot q.png --out l.csv 2>err.txt || status=$?
[ "$status" = 1 ] || fail "exit $status without gnuplot"
grep -q "gnuplot: not found" err.txt || fail "message: $(cat err.txt)"
[ ! -e q.png ] && [ ! -e l.csv ] || fail "an output was written although gnuplot is missing"
echo "cluster_plot_cli_test: ok"
