#!/usr/bin/env bash
# The extracted search (BinarySearch.v via Extract.v) against lib's search on the instances
# coq_search_driver prints: every probed position and every outcome must agree.
# Usage: search-differential-test.sh DRIVER SOURCE_DIR VO_DIR COUNT
set -euo pipefail
driver=$(realpath "$1") src=$(realpath "$2") vo=$(realpath "$3") count=$4
work=$(mktemp -d "${TMPDIR:-/tmp}/ssac-coq-search.XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work"
cp "$src"/Extract.v .
coqc -R "$vo" SSAC Extract.v >/dev/null
cp "$src"/search_driver.ml .
ocamlopt search_extracted.mli search_extracted.ml search_driver.ml -o extracted_search
"$driver" "$count" 20261127 >lib.txt
sed 's/ :.*//' lib.txt | ./extracted_search >coq.txt
if ! cmp -s lib.txt coq.txt; then
  echo "search-differential: lib and the extracted search disagree (first differences):" >&2
  diff lib.txt coq.txt | head -10 >&2
  exit 1
fi
echo "search-differential: $(wc -l <lib.txt) instances agree" \
  "($(grep -c ' = fail$' lib.txt) failed searches, $(grep -c '^A. Y :' lib.txt) with n = 1)"
