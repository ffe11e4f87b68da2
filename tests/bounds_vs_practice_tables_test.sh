#!/usr/bin/env bash
# docs/bounds-vs-practice.md's and docs/calibrate.md's generated tables are what
# scripts/bounds-vs-practice-all.sh --tables-only makes from the committed outputs in
# docs/bounds-vs-practice/, byte for byte. Negative controls: one count changed in a copy of an
# output, and one cell changed in a copy of the page, each make --check fail; a missing output
# fails with one line.
# Usage: bounds_vs_practice_tables_test.sh SOURCE_DIR
set -euo pipefail
src=$1
fail() { echo "FAIL: $*" >&2; exit 1; }
bash "$src/scripts/bounds-vs-practice-all.sh" --check >/dev/null ||
  fail "the committed tables differ from the outputs (bash scripts/bounds-vs-practice-all.sh --check)"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp -r "$src/docs/bounds-vs-practice" "$tmp/out"
cp "$src/docs/bounds-vs-practice.md" "$tmp/doc.md"
cp "$src/docs/calibrate.md" "$tmp/calibrate.md"
check() { DIR=$tmp/out DOC=$tmp/doc.md SUMMARY=$tmp/calibrate.md \
  bash "$src/scripts/bounds-vs-practice-all.sh" --check >"$tmp/log" 2>&1; }
check || fail "the copies differ before any change: $(cat "$tmp/log")"

# A re-check's count in an output: its table row must change.
f=$tmp/out/calibrate-1.3-2-q1-fewer-clusters.txt
sed -i 's/^empirical eta = 1 (re-check 1: 1 of 624/empirical eta = 1 (re-check 1: 2 of 624/' "$f"
grep -q 're-check 1: 2 of 624' "$f" || fail "the negative control's edit did not apply"
if check; then fail "a changed output passed --check"; fi
grep -q '^+| (1.3, 2\] | 1 | 1 | re-check 1: 2 of 624' "$tmp/log" || fail "no diff line: $(cat "$tmp/log")"
cp "$src/docs/bounds-vs-practice/calibrate-1.3-2-q1-fewer-clusters.txt" "$f"

# A cell of the page's table.
sed -i 's/^| (1.3, 2\] | 1 | 1 | re-check 1: 1 of 624/| (1.3, 2] | 1 | 1 | re-check 1: 9 of 624/' "$tmp/doc.md"
if check; then fail "an edited table passed --check"; fi
cp "$src/docs/bounds-vs-practice.md" "$tmp/doc.md"

# A missing output: one line naming it, exit status 1, nothing written.
rm "$tmp/out/harden-1.3-2-fewer-clusters.txt"
cp "$tmp/doc.md" "$tmp/doc.before"
set +e
DIR=$tmp/out DOC=$tmp/doc.md SUMMARY=$tmp/calibrate.md \
  bash "$src/scripts/bounds-vs-practice-all.sh" --tables-only >"$tmp/log" 2>"$tmp/err"
status=$?
set -e
[ "$status" = 1 ] || fail "missing output: exit $status"
if [ "$(wc -l <"$tmp/err")" != 1 ] || ! grep -q 'harden-1.3-2-fewer-clusters.txt: missing' "$tmp/err"; then
  fail "missing output: $(cat "$tmp/err")"
fi
cmp -s "$tmp/doc.md" "$tmp/doc.before" || fail "missing output: the page was written"
echo "bounds_vs_practice_tables_test: ok"
