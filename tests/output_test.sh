#!/usr/bin/env bash
# The output writer (cli/output/output_file.hpp) and the readers' pipes under the conditions the
# catalogue's one-command rows cannot set up: a CSV, a law and outcomes through a pipe, a FIFO
# without a writer, concurrent writers, a signal while outputs are staged or a figure is drawn, a
# read-only target, a missing or failing gnuplot, an earlier run's files, the interactive oracle's
# answer log, a thread the system refuses, and, inside a private mount namespace (root and
# `unshare -m`), a full disk and a device node. Usage: output_test.sh PATH/TO/ssac
set -u
SSAC=$1
FIXTURES=$(cd "$(dirname "$0")/fixtures" && pwd)
# shellcheck source=cli_harness.sh
source "$(dirname "$0")/cli_harness.sh"
GEN=(generate --k 2 --gamma-min 0 --gamma-max inf)
EXP=(experiment --reps 2 --n 30 --k 2 --gamma-min 0 --gamma-max inf --quiet)
no_temporaries() { # DIR: no .ssac-* temporary left in it
  if ls -a "$1" | grep -q '^\.ssac-'; then bad "$2: temporaries left: $(ls -a "$1" | grep '^\.ssac-')"; else ok; fi
}

# Two writers at once, ten times: both succeed and the file is one of the two complete outputs.
"$SSAC" "${GEN[@]}" --n 20000 --seed 1 --out ref1.csv >/dev/null
"$SSAC" "${GEN[@]}" --n 20000 --seed 2 --out ref2.csv >/dev/null
for i in 1 2 3 4 5 6 7 8 9 10; do
  "$SSAC" "${GEN[@]}" --n 20000 --seed 1 --out same.csv >/dev/null 2>e1.txt &
  p1=$!
  "$SSAC" "${GEN[@]}" --n 20000 --seed 2 --out same.csv >/dev/null 2>e2.txt &
  p2=$!
  wait $p1 && wait $p2 || bad "concurrent writer $i failed: $(cat e1.txt e2.txt)"
  if cmp -s same.csv ref1.csv || cmp -s same.csv ref2.csv; then ok; else bad "concurrent $i: mixed file"; fi
done
no_temporaries . "concurrent writers"

# A read-only file is neither replaced nor has its mode changed (root bypasses permissions, so
# the check is on the mode itself).
printf 'keep\n' >ro.csv
chmod 444 ro.csv
expect 1 'ro.csv: the file is not writable' -- "$SSAC" "${GEN[@]}" --n 30 --out ro.csv
[ "$(cat ro.csv)" = keep ] && [ "$(stat -c %a ro.csv)" = 444 ] && ok || bad "read-only file changed"
# An existing file keeps its mode; a new one gets 0666 less the umask.
printf 'x\n' >mode.csv
chmod 640 mode.csv
"$SSAC" "${GEN[@]}" --n 30 --out mode.csv >/dev/null
[ "$(stat -c %a mode.csv)" = 640 ] && ok || bad "mode of a replaced file: $(stat -c %a mode.csv)"
(umask 022 && "$SSAC" "${GEN[@]}" --n 30 --out new.csv >/dev/null)
[ "$(stat -c %a new.csv)" = 644 ] && ok || bad "mode of a new file: $(stat -c %a new.csv)"
expect 2 '--out: the path is empty' -- "$SSAC" "${GEN[@]}" --n 30 --out ''
# A name of 250 bytes is valid: the temporary's name does not depend on it.
long=$(printf 'a%.0s' $(seq 250))
expect 0 '' -- "$SSAC" "${GEN[@]}" --n 30 --out "$long"
[ -f "$long" ] && ok || bad "250-byte name not written"

# A missing gnuplot is found before the run, and nothing is written.
expect 1 'gnuplot: not found' -- env PATH=/nonexistent "$SSAC" "${EXP[@]}" --out nogp
[ ! -e nogp ] && ok || bad "nogp written without gnuplot"
# A re-run replaces the directory as a whole: no file of the earlier run stays.
expect 0 '' -- "$SSAC" "${EXP[@]}" --no-plots --out exp
touch exp/stale.csv
expect 0 '' -- "$SSAC" "${EXP[@]}" --no-plots --out exp
[ ! -e exp/stale.csv ] && ok || bad "a file of the earlier run stayed in exp/"
no_temporaries . "experiment re-run"
# A directory that is no earlier output is not replaced.
mkdir mine && touch mine/notes.txt
expect 1 'mine: is neither empty nor an earlier output' -- "$SSAC" "${EXP[@]}" --out mine
[ -e mine/notes.txt ] && ok || bad "an unrelated directory was replaced"

# SIGTERM while the outputs are staged (a gnuplot that passes the PNG probe, then waits on the
# script): ssac dies by the signal and leaves neither the output nor a temporary.
mkdir slowbin
# Each fake gnuplot appends its pid: with two threads the figures are drawn by parallel runs.
printf '#!/bin/sh\n[ "$1" = -e ] && exit 0\necho $$ >>"$GP_PID"\nexec sleep 30\n' >slowbin/gnuplot
chmod +x slowbin/gnuplot
GP_PID=$PWD/gp.pid PATH="$PWD/slowbin:$PATH" "$SSAC" "${EXP[@]}" --out sig 2>sig.txt &
pid=$!
for _ in $(seq 100); do ls -a | grep -q '^\.ssac-' && break; sleep 0.1; done
ls -a | grep -q '^\.ssac-' && ok || bad "no staging directory seen before the signal"
kill -TERM $pid
wait $pid
status=$?
[ "$status" = 143 ] && ok || bad "after SIGTERM, exit status $status (expected 143)"
[ ! -e sig ] && ok || bad "sig/ written although the run was killed"
no_temporaries . "SIGTERM"
[ -s gp.pid ] && xargs kill <gp.pid 2>/dev/null
rm -f gp.pid
# The same while `cluster --plot` draws its figure: its scratch directory (in TMPDIR) goes too.
mkdir tmpd
cp "$FIXTURES/tiny.csv" plot.csv
GP_PID=$PWD/gp.pid TMPDIR=$PWD/tmpd PATH="$PWD/slowbin:$PATH" \
  "$SSAC" cluster plot.csv --k 2 --eta 2 --plot sig.png 2>sig.txt &
pid=$!
for _ in $(seq 100); do [ -s gp.pid ] && break; sleep 0.1; done
ls tmpd | grep -q '^ssac-plot-' && ok || bad "no scratch directory seen before the signal"
kill -TERM $pid
wait $pid
status=$?
[ "$status" = 143 ] && ok || bad "cluster --plot after SIGTERM, exit status $status (expected 143)"
[ -z "$(ls -A tmpd)" ] && ok || bad "cluster --plot left its scratch directory: $(ls tmpd)"
[ ! -e sig.png ] && ok || bad "sig.png written although the run was killed"
[ -s gp.pid ] && xargs kill <gp.pid 2>/dev/null

# A gnuplot that cannot draw PNG files is found before the run by its probe, and nothing is
# written; one that passes the probe and then fails on the script costs the figures only: every
# other file is written (the same summary as without plots), the PNG files are dropped and
# gnuplot.log is kept, and the exit status is 1.
mkdir failbin passbin
printf '#!/bin/sh\nexit 1\n' >failbin/gnuplot
printf '#!/bin/sh\n[ "$1" = -e ] && exit 0\necho "\\"plots.gp\\" line 7: fake failure" >&2\nexit 1\n' \
  >passbin/gnuplot
chmod +x failbin/gnuplot passbin/gnuplot
expect 1 'gnuplot: cannot draw PNG files' -- env PATH="$PWD/failbin:$PATH" "$SSAC" "${EXP[@]}" --out probe
[ ! -e probe ] && ok || bad "probe/ written although gnuplot cannot draw"
expect 1 'gnuplot: cannot draw PNG files' -- env PATH="$PWD/failbin:$PATH" \
  "$SSAC" cluster plot.csv --k 2 --eta 2 --out probe.csv --plot probe.png
[ ! -e probe.csv ] && [ ! -e probe.png ] && ok || bad "cluster wrote although gnuplot cannot draw"
expect 1 'gnuplot failed on plots.gp: "plots.gp" line 7: fake failure; every result but the figures is written to late/' \
  -- env PATH="$PWD/passbin:$PATH" "$SSAC" "${EXP[@]}" --out late
"$SSAC" "${EXP[@]}" --no-plots --out noplots >/dev/null
cmp -s late/summary.json noplots/summary.json && [ -s late/table.txt ] && [ -s late/plots.gp ] &&
  [ -s late/gnuplot.log ] && ! ls late/*.png >/dev/null 2>&1 && ok ||
  bad "after a late gnuplot failure late/ holds: $(ls late 2>&1)"
no_temporaries . "late gnuplot failure"

# Inputs: a CSV through a pipe is read like a file; a FIFO nobody writes to is given up after
# kPipeWaitSeconds (5 s) instead of blocking for ever.
cp "$FIXTURES/tiny.csv" tiny.csv
piped=$("$SSAC" gamma <(cat tiny.csv) 2>&1)
[ "$piped" = "$("$SSAC" gamma tiny.csv)" ] && [[ $piped == "gamma = "* ]] && ok ||
  bad "a CSV through a pipe: $piped"
mkfifo lonely.fifo
expect 1 'lonely.fifo: nothing arrived from the pipe in 5 s (no writer?)' -- timeout 60 "$SSAC" gamma lonely.fifo
# ssac gof reads both its files through the same reader: a pipe works, a FIFO without a writer is
# given up after 5 s (the two cases run side by side).
cp "$FIXTURES/law.json" "$FIXTURES/observed.txt" .
piped=$("$SSAC" gof --expected <(cat law.json) --observed <(cat observed.txt) 2>&1)
[[ $piped == *"observed: /dev/fd/"*", 3 runs"*"verdict: conforms"* ]] && ok || bad "gof through pipes: $piped"
timeout 60 "$SSAC" gof --expected lonely.fifo --observed observed.txt >/dev/null 2>gof1.txt &
p1=$!
timeout 60 "$SSAC" gof --expected law.json --observed lonely.fifo >/dev/null 2>gof2.txt &
p2=$!
wait $p1
s1=$?
wait $p2
s2=$?
[ "$s1" = 1 ] && [ "$(cat gof1.txt)" = "ssac gof: error: lonely.fifo: nothing arrived from the pipe in 5 s (no writer?)" ] &&
  ok || bad "gof --expected FIFO: exit $s1, $(cat gof1.txt)"
[ "$s2" = 1 ] && [ "$(cat gof2.txt)" = "ssac gof: error: lonely.fifo: nothing arrived from the pipe in 5 s (no writer?)" ] &&
  ok || bad "gof --observed FIFO: exit $s2, $(cat gof2.txt)"

# The answer log of the interactive oracle: a session's answers are reused by the next one (which
# then asks nothing); a FIFO is refused at once (it is read and then appended to); a write that
# fails (a file-size limit of 0 blocks, SIGXFSZ ignored so that the write fails with EFBIG) ends
# the session with one line instead of claiming the answer saved.
yes y | head -n 200 | "$SSAC" cluster tiny.csv --k 2 --eta 2 --oracle interactive --answers ans.txt \
  --out first.csv >/dev/null 2>&1
"$SSAC" cluster tiny.csv --k 2 --eta 2 --oracle interactive --answers ans.txt --out second.csv \
  </dev/null >/dev/null 2>&1
[ -s ans.txt ] && cmp -s first.csv second.csv && ok || bad "the answer log was not reused"
mkfifo ans.fifo
expect 1 'ans.fifo: is not a regular file (a device, FIFO or socket); the answer log is read and then appended to' \
  -- timeout 20 "$SSAC" cluster tiny.csv --k 2 --eta 2 --oracle interactive --answers ans.fifo
# (stderr goes through a pipe: the limit would stop its writes to a file too)
printf 'y\n' | bash -c 'trap "" XFSZ; ulimit -f 0; exec "$@"' _ \
  "$SSAC" cluster tiny.csv --k 2 --eta 2 --oracle interactive --answers full.txt 2>&1 >/dev/null |
  tail -n 1 >full.txt.err
status=${PIPESTATUS[1]}
[ "$status" = 1 ] && grep -q 'full.txt: cannot write answer 1 to the answer log' full.txt.err &&
  ok || bad "a failed write of the answer log: exit $status, $(cat full.txt.err)"

# A thread the system refuses (address space capped at 1 GB, 400 threads of 8 MiB stacks): one
# line and exit 1, not std::terminate.
# A sanitizer build reserves far more address space than that and cannot start under the cap.
if bash -c "ulimit -v 1000000 && exec \"\$0\" --version" "$SSAC" >/dev/null 2>&1; then
  expect 1 'cannot start worker thread' -- bash -c "ulimit -v 1000000 && exec \"\$0\" \"\$@\"" \
    "$SSAC" experiment --reps 400 --n 30 --k 2 --gamma-min 0 --gamma-max inf --quiet --no-plots \
    --threads 400 --out threads
  [ ! -e threads ] && ok || bad "threads/ written although the run failed"
  # ssac calibrate and ssac harden start their workers through the same pool.
  expect 1 'cannot start worker thread' -- bash -c "ulimit -v 1000000 && exec \"\$0\" \"\$@\"" \
    "$SSAC" calibrate --grid 5 --threads 400
  expect 1 'cannot start worker thread' -- bash -c "ulimit -v 1000000 && exec \"\$0\" \"\$@\" >/dev/null" \
    "$SSAC" harden --n 30 --restarts 1 --reps 10 --max-evals 1 --final-reps 10 --threads 400 \
    --out hthreads.csv
  [ ! -e hthreads.csv ] && ok || bad "hthreads.csv written although the run failed"
else
  echo "skipped: the thread-failure case (ssac does not start under a 1 GB address-space limit)"
fi
# An error while a prompt of the interactive oracle is open starts on its own line.
printf '' | "$SSAC" cluster tiny.csv --k 2 --eta 2 --oracle interactive 2>prompt.txt >/dev/null
grep -q '^ssac cluster: error: interactive oracle: input ended' prompt.txt && ok ||
  bad "the interactive error is glued to the prompt: $(tail -n 1 prompt.txt)"

# A full disk and a device node, in a private mount namespace with a 64 KiB tmpfs.
if [ "$(id -u)" != 0 ] || ! unshare -m true 2>/dev/null; then
  echo "SKIP full-disk and device-node cases: need root and unshare -m (uid $(id -u))"
else
  mkdir -p mnt
  unshare -m bash -c '
    set -u
    mount -t tmpfs -o size=64k tmpfs "$2" || exit 99
    cd "$2"
    printf "keep\n" >full.csv
    "$1" generate --k 2 --gamma-min 0 --gamma-max inf --n 20000 --out full.csv >/dev/null 2>err.txt
    echo "full=$? $(cat full.csv) $(ls -a | grep -c "^\.ssac-") $(cat err.txt)"
    mknod node c 1 3 || exit 98
    "$1" generate --k 2 --gamma-min 0 --gamma-max inf --n 30 --out node >/dev/null 2>err.txt
    echo "node=$? $(stat -c %F node) $(cat err.txt)"
  ' _ "$SSAC" "$dir/mnt" >ns.txt 2>&1 </dev/null
  st=$?
  if [ "$st" = 99 ] || [ "$st" = 98 ]; then
    echo "SKIP full-disk and device-node cases: mount or mknod refused: $(cat ns.txt)"
  else
    grep -q '^full=1 keep 0 .*full.csv: cannot write (No space left on device)' ns.txt && ok ||
      bad "disk full: $(cat ns.txt)"
    grep -q '^node=1 character special file .*node: is not a regular file' ns.txt && ok ||
      bad "device node: $(cat ns.txt)"
  fi
fi
finish
