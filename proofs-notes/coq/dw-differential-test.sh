#!/usr/bin/env bash
# The extracted distance-weak oracles (DistanceWeak.v: Definitions 6 and 7) and the run by rows
# answering with them (RunModel.run; ExtractDistanceWeak.v) against lib under its local and global
# oracles (proofs-notes/extracted-run.md, "The distance-weak runs"): coq_dw_driver makes RUNS runs
# as `ssac cluster --trace` does and prints each instance and trace; dw_checker runs the model on
# each trace and compares every oracle answer and every event, and DistanceWeakRun.definite_place's
# placement of every draw under the opener rule; the model must agree on every run it is compared
# on, at least MIN of them, and the controls must disagree on some run: the model
# with another anchor rule than lib's, and four mutants of the extracted oracles with <= for <
# in Definition 6 (a), 6 (b), 7 (a) (both sides) and 7 (b).
# The first 24 runs (both oracles, the three searches, the four anchor rules) are made again by the
# `ssac cluster` command itself, whose traces must be the driver's byte for byte.
# Usage: dw-differential-test.sh DRIVER SSAC SOURCE_DIR VO_DIR RUNS MIN
set -euo pipefail
driver=$(realpath "$1") ssac=$(realpath "$2") src=$(realpath "$3") vo=$(realpath "$4")
runs=$5 minimum=$6
work=$(mktemp -d "${TMPDIR:-/tmp}/ssac-coq-dw.XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work"
cp "$src"/ExtractDistanceWeak.v "$src"/dw_checker.ml .
if ! coqc -R "$vo" SSAC ExtractDistanceWeak.v >coqc.log 2>&1; then
  cat coqc.log >&2
  exit 1
fi
# run_checker.ml's reader, comparison lines and exactness check, without its main part.
grep -qx 'let () =' "$src"/run_checker.ml || {
  echo "dw-differential: run_checker.ml has no main part 'let () =' to leave out" >&2
  exit 1
}
sed '/^let () =$/,$d' "$src"/run_checker.ml >run_common.ml
# The generated interface declares the type of the module that defines R, which the extraction
# realizes by float (ExtractRun.v); without the interface OCaml infers the module's own.
rm -f run_extracted.mli
build() {  # DIR: compile the checker against DIR/run_extracted.ml
  (cd "$1" && ocamlopt -alert -deprecated -w -a -c run_extracted.ml &&
    ocamlopt -c run_common.ml && ocamlopt -c dw_checker.ml &&
    ocamlopt run_extracted.cmx run_common.cmx dw_checker.cmx -o dw_checker)
}
build .
mkdir cli
"$driver" "$runs" 20261206 cli 24 >corpus.txt
made=0
for args in cli/*.args; do
  stem=${args%.args}
  made=$((made + 1))
  # shellcheck disable=SC2046  # the options are words
  "$ssac" cluster "$stem.csv" $(cat "$args") --trace "$stem.cli.jsonl" >/dev/null 2>&1
  if ! cmp -s "$stem.jsonl" "$stem.cli.jsonl"; then
    echo "dw-differential: ssac cluster $stem.csv $(cat "$args") wrote another trace than" \
      "coq_dw_driver's" >&2
    exit 1
  fi
done
echo "dw-differential: the $made traces of ssac cluster are coq_dw_driver's"
status=0
./dw_checker "$minimum" <corpus.txt || status=1
# The mutants: within the extracted function FUNC, each line OLD replaced by NEW (<= for <).
mutant() {  # NAME FUNC OLD NEW [OLD2 NEW2]
  local name=$1 func=$2
  mkdir "$name"
  cp run_common.ml dw_checker.ml "$name"/
  awk -v func_="let $func " -v o1="$3" -v n1="$4" -v o2="${5-}" -v n2="${6-}" '
    index($0, func_) == 1 { inside = 1 } /^\(\*\* val / { inside = 0 }
    inside && $0 == o1 { print n1; hits++; next }
    inside && o2 != "" && $0 == o2 { print n2; hits++; next }
    { print }
    END { if (hits != (o2 == "" ? 1 : 2)) exit 1 }' run_extracted.ml >"$name/run_extracted.ml" || {
    echo "dw-differential: the mutant $name finds no line to change in $func" >&2
    return 1
  }
  build "$name"
  local summary
  summary=$("$name/dw_checker" 1 <corpus.txt 2>/dev/null | grep -e '^the run by rows' -e '^DistanceWeakRun') ||
    true
  echo "mutant $name:"
  echo "$summary"
  if [ "$(wc -l <<<"$summary")" -ne 3 ]; then
    echo "dw-differential: the mutant $name's checker did not report on each model" >&2
    return 1
  fi
  if ! grep -q '^the run by rows.* [1-9][0-9]* disagree' <<<"$summary"; then
    echo "dw-differential: the mutant $name agrees with lib on every run by rows" >&2
    return 1
  fi
}
le='(fun (a : float) b -> a <= b)'
mutant def6a-le local_unsure '  else rltb (dist m (pt x) (pt y))' \
  "  else $le (dist m (pt x) (pt y))" || status=1
mutant def6b-le local_unsure '  then rltb (( *. ) (( *. ) (iZR ((fun p->2*p) 1)) rho) (rad (label x)))' \
  "  then $le (( *. ) (( *. ) (iZR ((fun p->2*p) 1)) rho) (rad (label x)))" || status=1
mutant def7a-le global_unsure '         (rltb (( *. ) rho (rad (label x)))' \
  "         ($le (( *. ) rho (rad (label x)))" \
  '         (rltb (( *. ) rho (rad (label y)))' \
  "         ($le (( *. ) rho (rad (label y)))" || status=1
mutant def7b-le global_unsure '  then rltb (( *. ) (( *. ) (iZR ((fun p->2*p) 1)) rho) (rad (label x)))' \
  "  then $le (( *. ) (( *. ) (iZR ((fun p->2*p) 1)) rho) (rad (label x)))" || status=1
exit $status
