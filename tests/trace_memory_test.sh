#!/usr/bin/env bash
# ssac validate reads a trace with memory independent of the length of its text
# (docs/trace-format.md, "Reading a trace"), under an address-space limit (ulimit -v):
#  1. a valid trace whose lines are padded with JSON whitespace to about 120 MB conforms under a
#     limit of LIMIT_KB; negative control: `ssac gamma`, which reads its whole input into memory,
#     fails on the same file under the same limit, so the limit is below the text's size;
#  2. /dev/zero is refused at the line cap with one line naming it, under the limit;
#  3. a FIFO with no writer does not block: it is given up after 5 s, saying so (exit 1);
#  4. the trace piped through a FIFO with a writer conforms (read once, replayed from a copy).
# Usage: trace_memory_test.sh PATH/TO/ssac
set -u
SSAC=$1
LIMIT_KB=64000
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir" || exit 1
fail=0
check() {  # check NAME WANT_EXIT GOT_EXIT STDERR_FILE [TEXT]
  if [ "$3" != "$2" ]; then
    echo "FAIL $1: exit $3, expected $2; stderr: $(head -c 300 "$4")"
    fail=1
  elif [ -n "${5:-}" ] && ! grep -qF -- "$5" "$4"; then
    echo "FAIL $1: the output lacks '$5': $(head -c 300 "$4")"
    fail=1
  elif [ "$2" != 0 ] && [ "$(wc -l <"$4")" != 1 ]; then
    echo "FAIL $1: not one line: $(head -c 300 "$4")"
    fail=1
  else
    echo "ok $1"
  fi
}
if ! (ulimit -v "$LIMIT_KB") 2>/dev/null; then
  echo "SKIP: this shell cannot set an address-space limit (ulimit -v)"
  exit 0
fi
if ! (ulimit -v "$LIMIT_KB"; "$SSAC" --version) >/dev/null 2>&1; then
  # A sanitizer build reserves terabytes of address space for its shadow memory.
  echo "SKIP: ssac does not start under ulimit -v $LIMIT_KB (a sanitizer build?)"
  exit 0
fi
"$SSAC" generate --n 400 --k 3 --gamma-min 0 --gamma-max inf --seed 1 --out d.csv >/dev/null || exit 1
"$SSAC" cluster d.csv --k 3 --eta 150 --seed 1 --trace t.jsonl >/dev/null || exit 1
# Pad every event with spaces before its closing brace: the same events, a text of ~120 MB
# (each line stays below the cap, 16384 + 32 * 400 bytes).
pad=$(head -c 28000 /dev/zero | tr '\0' ' ')
while IFS= read -r line; do printf '%s%s}\n' "${line%\}}" "$pad"; done <t.jsonl >big.jsonl
size=$(wc -c <big.jsonl)
[ "$size" -gt $((LIMIT_KB * 1024)) ] || { echo "FAIL: padded trace of $size bytes is not above the limit"; exit 1; }

(ulimit -v "$LIMIT_KB"; "$SSAC" validate --data d.csv --trace big.jsonl >out.txt 2>err.txt)
check "padded trace of $size bytes conforms under ulimit -v $LIMIT_KB" 0 $? err.txt
grep -q "big.jsonl: conforms" out.txt || { echo "FAIL: no verdict: $(cat out.txt)"; fail=1; }
(ulimit -v "$LIMIT_KB"; "$SSAC" gamma big.jsonl >out.txt 2>err.txt)
check "negative control: gamma reads the same file whole and runs out of memory" 1 $? err.txt \
  "out of memory"

(ulimit -v "$LIMIT_KB"; "$SSAC" validate --data d.csv --trace /dev/zero >out.txt 2>err.txt)
check "/dev/zero under ulimit -v $LIMIT_KB" 1 $? err.txt "/dev/zero:1: line longer than"

mkfifo nowriter
timeout 60 "$SSAC" validate --data d.csv --trace nowriter >out.txt 2>err.txt
check "FIFO with no writer" 1 $? err.txt "nowriter: nothing arrived from the pipe in 5 s (no writer?)"

mkfifo piped
cat t.jsonl >piped &
"$SSAC" validate --data d.csv --trace piped >out.txt 2>err.txt
check "trace through a FIFO" 0 $? err.txt
wait
exit $fail
