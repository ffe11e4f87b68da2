#!/usr/bin/env bash
# Command-line tests of `ssac generate | gamma | cluster`: the end-to-end checks below, exit
# statuses (0 ok, 1 bad data, 2 usage), one-line error messages, no partial output, and
# byte-identical repeated runs. Usage: cli_test.sh PATH/TO/ssac
set -u
SSAC=$1
FIXTURES=$(cd "$(dirname "$0")/fixtures" && pwd)
# shellcheck source=cli_harness.sh
source "$(dirname "$0")/cli_harness.sh"

# End to end: a dataset in the paper's main window (Section 5.1: n = 1500, m = 2, k = 3,
# sigma = 1.75, 1 < gamma <= 1.1), its gamma-margin (Definition 2), and clustering it.
expect 0 '' -- "$SSAC" generate --n 1500 --m 2 --k 3 --std 1.75 --gamma-min 1.0 --gamma-max 1.1 --seed 7 --out d.csv
g=$("$SSAC" gamma d.csv | sed -n 's/^gamma = //p')
awk -v g="$g" 'BEGIN { exit !(g > 1.0 && g <= 1.1) }' && ok || bad "gamma $g not in (1, 1.1]"
"$SSAC" cluster d.csv --k 3 --oracle random --q 0.7 --eta 10 --beta 10 --seed 7 --json >a.json
"$SSAC" cluster d.csv --k 3 --oracle random --q 0.7 --eta 10 --beta 10 --seed 7 --json >b.json
cmp -s a.json b.json && ok || bad "two identical cluster runs printed different bytes"
for key in accuracy_pct failed queries_phase1 queries_phase2 labels_recovered; do
  grep -q "\"$key\":" a.json && ok || bad "--json lacks $key"
done
"$SSAC" generate --n 1500 --m 2 --k 3 --std 1.75 --gamma-min 1.0 --gamma-max 1.1 --seed 7 --out d2.csv >/dev/null
cmp -s d.csv d2.csv && ok || bad "two identical generate runs wrote different files"

# Well-separated data and a perfect oracle: every run recovers the clustering exactly.
"$SSAC" generate --n 900 --m 3 --k 4 --std 1 --gamma-min 1.3 --gamma-max inf --seed 3 --out sep.csv >/dev/null
for seed in 1 2 3 4 5 6 7 8 9 10; do
  for search in random distance unified; do
    out=$("$SSAC" cluster sep.csv --k 4 --oracle perfect --eta 20 --search "$search" --seed $seed)
    echo "$out" | grep -q "accuracy: 100.000%" && ok || bad "perfect oracle seed $seed $search: $out"
  done
done

# Every oracle and both algorithms run; labels are written with one row per point.
expect 0 '' -- "$SSAC" cluster d.csv --k 3 --oracle local --nu 1.05 --rho 0.9 --eta 5 --search distance --seed 1
expect 0 '' -- "$SSAC" cluster d.csv --k 3 --oracle global --rho 0.9 --eta 5 --seed 1
expect 0 '' -- "$SSAC" cluster d.csv --k 3 --oracle random --q 0.7 --eta 5 --algorithm original --seed 1 --out labels.csv
[ "$(wc -l <labels.csv)" = 1501 ] && ok || bad "labels.csv should have a header and 1500 rows"
printf 'y\n' | "$SSAC" cluster d.csv --k 1 --oracle interactive --eta 1 --seed 1 >/dev/null 2>&1 \
  && bad "interactive with k=1 should stop when input ends" || ok

# Usage errors: exit 2, one line naming the parameter and its range.
expect 2 'q = 1.5 is outside its admissible range (0, 1]' -- "$SSAC" cluster d.csv --k 3 --oracle random --q 1.5 --eta 5
expect 2 'eta = 0 is outside its admissible range (0, inf)' -- "$SSAC" cluster d.csv --k 3 --eta 0
expect 2 'k = 0 is outside its admissible range' -- "$SSAC" cluster d.csv --k 0 --eta 5
# k has one range, [1, n]: k above the labels' 3 clusters runs, with a note that it must fail.
expect 0 'note: k = 4 is more than the 3 clusters of the file' -- "$SSAC" cluster d.csv --k 4 --eta 5
expect 2 'beta = 0 is outside its admissible range [1, 1000000]' -- "$SSAC" cluster d.csv --k 3 --eta 5 --beta 0
expect 2 'rho = 0 is outside its admissible range (0, 1]' -- "$SSAC" cluster d.csv --k 3 --oracle global --rho 0 --eta 5
expect 2 'nu = 0.5 is outside its admissible range [1, inf)' -- "$SSAC" cluster d.csv --k 3 --oracle local --nu 0.5 --eta 5
expect 2 '--q applies only to --oracle random or correlated' -- "$SSAC" cluster d.csv --k 3 --q 0.5 --eta 5
expect 2 '--oracle' -- "$SSAC" cluster d.csv --k 3 --oracle psychic --eta 5
expect 2 '' -- "$SSAC" cluster d.csv --eta 5
expect 2 '' -- "$SSAC" frobnicate
expect 2 'std = 0 is outside its admissible range (0, inf)' -- "$SSAC" generate --std 0 --out x.csv
expect 2 'n = -5 is outside its admissible range' -- "$SSAC" generate --n -5 --out x.csv
[ ! -e x.csv ] && ok || bad "a usage error left x.csv behind"

# Bad data: exit 1, one line naming the file and position.
printf 'x,y,label\n1,2,1\n3,oops,2\n' >broken.csv
expect 1 "broken.csv:3:3: column 2 (y): 'oops' is not a number" -- "$SSAC" gamma broken.csv
expect 1 'missing.csv: cannot open the file for reading' -- "$SSAC" cluster missing.csv --k 2 --eta 2
printf 'x,y\n1,2\n3,4\n' >nolabel.csv
expect 1 "nolabel.csv: no 'label' column" -- "$SSAC" cluster nolabel.csv --k 2 --eta 2
expect 1 'no draw in 3 had its gamma-margin' -- "$SSAC" generate --n 100 --std 0.01 --gamma-max 1.0001 --max-draws 3 --out y.csv
[ ! -e y.csv ] && ok || bad "a failed generate left y.csv behind"
expect 1 'cannot open the file for writing' -- "$SSAC" generate --n 100 --gamma-min 0 --gamma-max inf --out /nonexistent/z.csv

# Coordinates whose squares overflow (1e200): the distances fall back to the scaled sum, so the
# gamma-margin is tiny.csv's 19 (the same points times 1e200), not inf or nan
# (proofs-notes/semantics.md, "Distances of huge coordinates").
g=$("$SSAC" gamma "$FIXTURES/huge-valid.csv" | sed -n 's/^gamma = //p')
awk -v g="$g" 'BEGIN { exit !(g > 18.999999999 && g < 19.000000001) }' && ok ||
  bad "gamma of tiny.csv times 1e200 is '$g', expected 19"
# Coordinates whose sums overflow (a mean near 1e308): the means are taken without overflow, so
# gamma is that of the same data times 1e-8, 5, and a perfect oracle recovers the clusters (with
# a plain sum the mean was infinite: gamma 10.9 and accuracy 0 %).
g=$("$SSAC" gamma "$FIXTURES/huge-mean.csv" | sed -n 's/^gamma = //p')
[ "$g" = 5 ] && ok || bad "gamma of huge-mean.csv is '$g', expected 5"
"$SSAC" cluster "$FIXTURES/huge-mean.csv" --k 2 --eta 5 --trace huge-mean.jsonl | grep -q '^accuracy: 100.000%' && ok ||
  bad "a perfect oracle on huge-mean.csv does not recover the clusters"
expect 0 '' -- "$SSAC" validate --data "$FIXTURES/huge-mean.csv" --trace huge-mean.jsonl
# Two points at one place with different labels: no gamma has the property (gamma = 0).
g=$("$SSAC" gamma "$FIXTURES/coincident.csv" | sed -n 's/^gamma = //p')
[ "$g" = 0 ] && ok || bad "gamma of coincident points with different labels is '$g', expected 0"
# The generator refuses a spread whose data it could not write back.
expect 2 'std = 1e+300 is outside its admissible range (0, 1e150]' -- "$SSAC" generate --std 1e300 --out big.csv

# ssac validate reads a trace of format version 1 with that version's field names and says so in
# one line on stderr; a trace of version 2 or 3 gets no such note.
"$SSAC" validate --data "$FIXTURES/tiny.csv" --trace "$FIXTURES/trace-v1.jsonl" >out.txt 2>err.txt &&
  [ "$(cat err.txt)" = "note: $FIXTURES/trace-v1.jsonl is a version 1 trace (read with the version 1 field names)" ] &&
  grep -q 'trace-v1.jsonl: conforms (26 events, 10 queries replayed in' out.txt && ok ||
  bad "validate of a version 1 trace: $(cat out.txt err.txt)"
"$SSAC" validate --data "$FIXTURES/tiny.csv" --trace "$FIXTURES/trace.jsonl" >out.txt 2>err.txt &&
  [ ! -s err.txt ] && grep -q '"version":2,' "$FIXTURES/trace.jsonl" && ok ||
  bad "validate of a version 2 trace: $(cat out.txt err.txt)"
# trace.jsonl is a version-2 trace of the former default, which took a re-drawn anchor as known
# without asking Q(x, x): it names no rules, so it is replayed under self-pairs=off and conforms.
# The same lines claiming version 3, whose unnamed rules ask self-pairs (S4), do not.
sed 's/"version":2,/"version":3,/' "$FIXTURES/trace.jsonl" >v3.jsonl
"$SSAC" validate --data "$FIXTURES/tiny.csv" --trace v3.jsonl >out.txt 2>err.txt
[ $? = 1 ] && grep -qF 'the reference asks Q(x3, x3): self-pairs are asked like any pair (S4)' out.txt &&
  ok || bad "a version-2 trace relabelled version 3: $(cat out.txt err.txt)"
# ssac cluster --trace writes version 3, naming its oracle in fields.
"$SSAC" cluster "$FIXTURES/tiny.csv" --k 2 --eta 2 --oracle local --nu 1.5 --rho 0.5 --trace t.jsonl >/dev/null &&
  head -n 1 t.jsonl | grep -qF '"version":3,' && head -n 1 t.jsonl | grep -qF '"oracle":{"kind":"local","nu":1.5,"rho":0.5}' &&
  ok || bad "cluster --trace header: $(head -n 1 t.jsonl)"
# Elimination (S2) needs the point's cluster among the k (proofs-notes/semantics.md S2): on a
# 3-cluster file run with k = 2, no point of the third cluster may be labelled 1 or 2 (with
# elimination applied regardless, 74 of its 100 points were labelled 2 on this run).
"$SSAC" generate --n 300 --m 2 --k 3 --std 1.0 --gamma-min 1.2 --gamma-max 5 --seed 3 --out k3.csv >/dev/null
"$SSAC" cluster k3.csv --k 2 --oracle random --q 0.5 --eta 10 --seed 4 --out k3labels.csv >/dev/null
third=$(tail -n +2 k3.csv | awk -F, '{print $NF}' | paste -d, - <(tail -n +2 k3labels.csv) |
  awk -F, '$1 == 3 { n++; if ($2 != 0) w++ } END { printf "%d %d", n, w }')
[ "$third" = "100 0" ] && ok || bad "third cluster: '$third' (points, of them labelled), expected '100 0'"
# A person's clusters are not the file's labels: with the same labelled file and k = 2 the
# interactive oracle takes k as the person's claim, so elimination applies and the note says so.
printf '' | "$SSAC" cluster k3.csv --k 2 --oracle interactive --eta 1 --seed 1 >/dev/null 2>err.txt
grep -qF 'this assumes your clustering has exactly k = 2 clusters' err.txt && ok ||
  bad "interactive oracle on a labelled file with k = 2: no elimination note: $(head -c 300 err.txt)"
# A person is asked each pair once: the trace of an interactive run records per-pair memory, and
# the replay (which then holds every repeated pair to its first answer) accepts it.
printf 'x,label\n0,1\n1,1\n2,1\n' >three1.csv
yes y | head -n 100 | "$SSAC" cluster three1.csv --k 1 --oracle interactive --eta 4 --seed 2 \
  --trace person.jsonl >/dev/null 2>&1 || bad "interactive run with yes answers failed"
head -n 1 person.jsonl | grep -qF '"oracle_memory":"per-pair"' && ok ||
  bad "interactive trace header lacks oracle_memory per-pair: $(head -n 1 person.jsonl)"
expect 0 '' -- "$SSAC" validate --data three1.csv --trace person.jsonl

# Help is success.
expect 0 '' -- "$SSAC" --help
expect 0 '' -- "$SSAC" cluster --help

finish
