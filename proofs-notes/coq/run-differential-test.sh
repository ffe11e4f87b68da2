#!/usr/bin/env bash
# The extracted runs (ExtractRun.v: RunTheorem.run_events, the run Theorem 1 is about, and
# RunModel.run, the run by rows) against lib on traced runs (proofs-notes/extracted-run.md):
# coq_run_driver makes MIXED runs of every rule and THEOREM runs in Theorem 1's configuration
# (at the certified eta and beta of their instance) as `ssac cluster --trace` does and prints
# each instance and trace; run_checker reads each trace's random choices, runs the extracted
# models on them and compares their events with the trace's; each model must agree on every run
# it is compared on, at least MIN of them, at least THEOREM_MIN runs in the theorem's
# configuration must be compared with the theorem's run and agree, and each negative control (a
# rule switched; the extracted code with line 10's ties broken the other way, or with <= for < in
# C'_p) must disagree on some run.
# The first 12 runs of each kind are made again by the `ssac cluster` command itself, whose
# traces must be the driver's byte for byte.
# Usage: run-differential-test.sh DRIVER SSAC SOURCE_DIR VO_DIR MIXED THEOREM MIN THEOREM_MIN
set -euo pipefail
driver=$(realpath "$1") ssac=$(realpath "$2") src=$(realpath "$3") vo=$(realpath "$4")
mixed=$5 theorem=$6 minimum=$7 theorem_minimum=$8
work=$(mktemp -d "${TMPDIR:-/tmp}/ssac-coq-run.XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work"
cp "$src"/ExtractRun.v "$src"/run_checker.ml .
if ! coqc -R "$vo" SSAC ExtractRun.v >coqc.log 2>&1; then
  cat coqc.log >&2
  exit 1
fi
# The generated interface declares the type of the module that defines R, which ExtractRun.v
# realizes by float; without the interface OCaml infers the module's own.
rm -f run_extracted.mli
ocamlopt -alert -deprecated -w -a -c run_extracted.ml
ocamlopt -c run_checker.ml
ocamlopt run_extracted.cmx run_checker.cmx -o run_checker
mkdir cli
"$driver" "$mixed" "$theorem" 20261128 cli 12 >corpus.txt
for args in cli/*.args; do
  stem=${args%.args}
  # shellcheck disable=SC2046  # the options are words
  "$ssac" cluster "$stem.csv" $(cat "$args") --trace "$stem.cli.jsonl" >/dev/null 2>&1
  if ! cmp -s "$stem.jsonl" "$stem.cli.jsonl"; then
    echo "run-differential: ssac cluster $stem.csv $(cat "$args") wrote another trace than" \
      "coq_run_driver's" >&2
    exit 1
  fi
done
echo "run-differential: the $(ls cli/*.args | wc -l) traces of ssac cluster are coq_run_driver's"
status=0
# The controls (rules switched) on the first 2000 runs.
./run_checker "$minimum" 2000 "$theorem_minimum" <corpus.txt || status=1
# Negative controls on the extracted code itself, on the first 1000 runs of each kind: line 10's
# ties broken the other way (Algorithm1.before), and C'_p with <= for < (Algorithm1.below), in
# the code both models share.  Each mutant must disagree with lib in each model.
awk -v mixed="$mixed" '/^#run / { id = $2 } id < 1000 || (id >= mixed && id < mixed + 1000)' \
  corpus.txt >first.txt
mutant() {  # NAME OLD NEW: run_extracted.ml with the one line OLD replaced by NEW
  mkdir "$1"
  grep -cxF -- "$2" run_extracted.ml | grep -qx 1 || {
    echo "run-differential: the mutant $1 finds no line '$2' in the extracted code" >&2
    return 1
  }
  awk -v old="$2" -v new="$3" '$0 == old { print new; next } { print }' run_extracted.ml \
    >"$1/run_extracted.ml"
  (cd "$1" && cp ../run_checker.ml . && ocamlopt -alert -deprecated -w -a -c run_extracted.ml &&
    ocamlopt -c run_checker.ml && ocamlopt run_extracted.cmx run_checker.cmx -o run_checker)
  local summary
  summary=$("$1/run_checker" 1 0 <first.txt 2>/dev/null | head -2) || true
  echo "mutant $1:"
  echo "$summary"
  if grep -q ' 0 disagree' <<<"$summary"; then
    echo "run-differential: the mutant $1 agrees with lib on every run in a model" >&2
    return 1
  fi
}
mutant ties-by-larger-row '       else (<=) x y' '       else (>=) x y' || status=1
mutant cp-with-le "    if (fun (x : float) y -> x < y) (dist m (pt x) mu') r0" \
  "    if (fun (x : float) y -> x <= y) (dist m (pt x) mu') r0" || status=1
exit $status
