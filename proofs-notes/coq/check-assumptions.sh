#!/usr/bin/env bash
# Prints `Print Assumptions` for every main theorem (Assumptions.v) in the built development and
# compares it with the committed expected output: only the standard library's axioms of the real
# numbers may appear, and a change (a new axiom, an Admitted lemma, which Coq lists as an axiom)
# fails the test.  Also refuses Admitted/Axiom/Parameter/admit in the sources themselves.
# Usage: check-assumptions.sh SOURCE_DIR BUILD_DIR
set -euo pipefail
src=$1 out=$2
if grep -nE '\b(Admitted|admit)\b|^\s*(#\[[a-z]*\]\s*)?(Axiom|Axioms|Parameter|Parameters|Conjecture)\b' "$src"/*.v; then
  echo "check-assumptions: the lines above use Admitted, admit, Axiom, Parameter or Conjecture" >&2
  exit 1
fi
cd "$out"
cp "$src"/Assumptions.v .
coqc -R . SSAC Assumptions.v >assumptions.out 2>&1 || { cat assumptions.out >&2; exit 1; }
if ! diff -u "$src"/assumptions.expected assumptions.out; then
  echo "check-assumptions: Print Assumptions changed (expected: $src/assumptions.expected)" >&2
  exit 1
fi
# Whatever the expected file says, only these names may ever be trusted.
allowed='^(ClassicalDedekindReals\.sig_forall_dec|ClassicalDedekindReals\.sig_not_dec|FunctionalExtensionality\.functional_extensionality_dep|Classical_Prop\.classic)$'
# The axiom names: the unindented lines of each "Axioms:" block (a block ends at the next ***).
names=$(awk '/^\*\*\*/ {inside = 0} inside && /^[^ ]/ {print $1} /^Axioms:/ {inside = 1}' \
  assumptions.out | sort -u)
if bad=$(grep -vE "$allowed" <<<"$names"); then
  echo "check-assumptions: not a standard-library axiom of the reals: $bad" >&2
  exit 1
fi
echo "check-assumptions: $(grep -c '^\*\*\*' assumptions.out) theorems, assumptions as expected"
