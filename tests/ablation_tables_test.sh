#!/usr/bin/env bash
# Every #Failure and accuracy cell of docs/reproduction.md's tables (its summary table of
# both profiles included) is a number of docs/reproduction/ablation.txt, as scripts/ablation_tables.py
# prints it. Negative controls: one failure count changed in a copy of the file (its pooled count
# changed with it, so the file still adds up) makes the check fail; a line whose cells do not add
# up to its pooled count is refused.
# Usage: ablation_tables_test.sh SOURCE_DIR
set -euo pipefail
src=$1
fail() { echo "FAIL: $*" >&2; exit 1; }
tables=$src/scripts/ablation_tables.py
file=$src/docs/reproduction/ablation.txt
python3 "$tables" check "$file" "$src/docs/reproduction.md" "$src/docs/reproduction.md" >/dev/null ||
  fail "$(python3 "$tables" check "$file" "$src/docs/reproduction.md" "$src/docs/reproduction.md")"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# paper-main's paper run: 19 failures at q = 0.7, eta = 2 become 18, pooled 20 becomes 19.
sed 's/^paper-main | paper | 20 | q=0.7: 19 /paper-main | paper | 19 | q=0.7: 18 /' "$file" >"$tmp/a.txt"
! cmp -s "$file" "$tmp/a.txt" || fail "the negative control's edit did not apply"
if python3 "$tables" check "$tmp/a.txt" "$src/docs/reproduction.md" "$src/docs/reproduction.md" >"$tmp/log"; then
  fail "a changed count passed the check"
fi
grep -q "no line '| .* | 19 | 18 0 0 0 0" "$tmp/log" || fail "unexpected report: $(cat "$tmp/log")"
# A line that does not add up.
sed 's/^paper-main | paper | 20 | q=0.7: 19 /paper-main | paper | 20 | q=0.7: 18 /' "$file" >"$tmp/b.txt"
if python3 "$tables" tables "$tmp/b.txt" paper-main >"$tmp/log" 2>&1; then
  fail "a line whose cells do not add up was read"
fi
grep -q "do not add up to the pooled 20" "$tmp/log" || fail "unexpected error: $(cat "$tmp/log")"
echo "ablation_tables_test: ok"
