#!/usr/bin/env bash
# Table-driven test of docs/bad-input.md: runs every row of the catalogue's table.
# Usage: bad_input_test.sh PATH/TO/ssac PATH/TO/docs/bad-input.md PATH/TO/tests/fixtures
set -u
SSAC=$1
TABLE=$2
FIXTURES=$3
pass=0
fail=0
rows=0
while IFS= read -r line; do
  # Rows look like: | ID | entry | input | `command` | exit | `message` |
  [[ $line =~ ^\|\ ([A-Z][0-9]+)\ \| ]] || continue
  id=${BASH_REMATCH[1]}
  rows=$((rows + 1))
  IFS='|' read -r _ _ _ _ cmd want msg _ <<<"$line"
  cmd=$(sed -e 's/^ *`//' -e 's/` *$//' <<<"$cmd")
  want=$(tr -d ' ' <<<"$want")
  msg=$(sed -e 's/^ *`\{0,1\}//' -e 's/`\{0,1\} *$//' <<<"$msg")
  dir=$(mktemp -d)
  cp -r "$FIXTURES"/. "$dir"/
  read -r -a argv <<<"$cmd"
  argv[0]=$SSAC
  # A word written '' is the empty argument (an empty path).
  for i in "${!argv[@]}"; do [ "${argv[$i]}" = "''" ] && argv[$i]=""; done
  (cd "$dir" && "${argv[@]}" </dev/null >stdout.txt 2>stderr.txt)
  got=$?
  problem=""
  if [ "$got" != "$want" ]; then
    problem="exit $got, expected $want"
  elif [ "$want" != 0 ]; then
    # The interactive oracle prompts on stderr; there the error must be the last line and the
    # only one saying "error:". Everywhere else stderr is the error line alone.
    if [[ $cmd == *interactive* ]]; then
      [ "$(grep -c 'error:' "$dir/stderr.txt")" = 1 ] && tail -n 1 "$dir/stderr.txt" | grep -q 'error:' ||
        problem="the error is not the one last line"
    elif [ -s "$dir/stderr.txt" ]; then
      [ "$(wc -l <"$dir/stderr.txt")" = 1 ] || problem="stderr is not one line"
    else
      # A verdict rather than an error (ssac validate: the trace does not conform): one line on
      # stdout.
      [ "$(wc -l <"$dir/stdout.txt")" = 1 ] || problem="neither stderr nor stdout is one line"
    fi
    [ -z "$msg" ] || cat "$dir/stderr.txt" "$dir/stdout.txt" | grep -qF -- "$msg" ||
      problem="the output lacks '$msg'"
    if ls "$dir"/out* >/dev/null 2>&1; then problem="left an output file behind"; fi
  fi
  if [ "$got" -ge 128 ] 2>/dev/null; then problem="crashed (status $got)"; fi
  if [ -n "$problem" ]; then
    fail=$((fail + 1))
    echo "FAIL $id: $cmd: $problem; stderr: $(head -c 400 "$dir/stderr.txt")"
  else
    pass=$((pass + 1))
  fi
  rm -rf "$dir"
done <"$TABLE"
[ "$rows" -gt 0 ] || { echo "no rows read from $TABLE"; exit 1; }
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
