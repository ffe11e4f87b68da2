# Shared by the shell tests of the command line (cli_test.sh, bounds_cli_test.sh): a scratch
# directory, pass/fail counters and `expect`. Source it after setting SSAC.
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir" || exit 1
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

# expect STATUS 'stderr substring' -- command...
# A failure (STATUS != 0) must be exactly one line on stderr containing the substring. With
# EXPECT_QUIET_STDOUT=1 it must also print nothing on stdout.
expect() {
  local want=$1 msg=$2
  shift 3
  "$@" >out.txt 2>err.txt
  local got=$?
  if [ "$got" != "$want" ]; then
    bad "$* exited $got, expected $want; stderr: $(cat err.txt)"
  elif [ -n "$msg" ] && ! grep -qF -- "$msg" err.txt; then
    bad "$*: stderr lacks '$msg': $(cat err.txt)"
  elif [ "$want" != 0 ] && [ "$(wc -l <err.txt)" != 1 ]; then
    bad "$*: the error is not one line: $(cat err.txt)"
  elif [ "$want" != 0 ] && [ "${EXPECT_QUIET_STDOUT:-0}" = 1 ] && [ -s out.txt ]; then
    bad "$*: printed to stdout before failing: $(head -c 200 out.txt)"
  else
    ok
  fi
}

# Prints the summary line ctest's log shows and sets the exit status.
finish() {
  echo "$pass passed, $fail failed"
  [ "$fail" = 0 ]
}
