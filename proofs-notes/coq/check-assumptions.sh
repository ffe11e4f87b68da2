#!/usr/bin/env bash
# Checks the trusted base of every main theorem listed in Assumptions.v against the committed
# assumptions.expected: only the standard library's axioms of the real numbers may appear, and a
# change (a new axiom, an Admitted lemma, which Coq lists as an axiom) fails the test.  Also refuses
# Admitted/Axiom/Parameter/admit in the sources themselves.
#
# Assumptions.v names each theorem once, with `Print Assumptions NAME.` under a heading.  Printed
# one by one they cost about 0.5 CPU-s each (each call walks the whole dependency graph, the
# reals' library included: 38 CPU-s for 72 in 2026-12), so the test checks them in one batch: the
# headings and the `Check`/`Print` lines as written, then one `Print Assumptions` of the tuple of
# every listed theorem (one walk, about 3 CPU-s).  The union of the trusted bases is what is
# compared; it lists only allowed axioms exactly when every theorem's own list does.
# `--each` prints every theorem's own list instead (Assumptions.v as written), checks the names
# the same way, and compares nothing: for reading, not for CI.
# Usage: check-assumptions.sh [--each] SOURCE_DIR BUILD_DIR
set -euo pipefail
each=0
if [ "${1:-}" = --each ]; then each=1; shift; fi
src=$(cd "$1" && pwd) out=$2
if grep -nE '\b(Admitted|admit)\b|^\s*(#\[[a-z]*\]\s*)?(Axiom|Axioms|Parameter|Parameters|Conjecture)\b' "$src"/*.v; then
  echo "check-assumptions: the lines above use Admitted, admit, Axiom, Parameter or Conjecture" >&2
  exit 1
fi
cd "$out"
if ((each)); then
  cp "$src"/Assumptions.v .
  coqc -R . SSAC Assumptions.v >assumptions-each.out 2>&1 || { cat assumptions-each.out >&2; exit 1; }
  result=assumptions-each.out
else
  # The batch: every `Print Assumptions NAME.` line becomes an entry of one tuple.
  awk '
    /^Print Assumptions / { name = $3; sub(/\.$/, "", name); names[++n] = name; next }
    { print }
    END {
      printf "Goal True. idtac \"*** The %d theorems above, in one batch: Print Assumptions of their tuple\". exact I. Abort.\n", n
      printf "Definition ssac_main_theorems := ("
      for (i = 1; i <= n; i++) printf "%s@%s", (i > 1 ? ", " : ""), names[i]
      printf ").\nPrint Assumptions ssac_main_theorems.\n"
    }' "$src"/Assumptions.v >AssumptionsBatch.v
  coqc -R . SSAC AssumptionsBatch.v >assumptions.out 2>&1 || { cat assumptions.out >&2; exit 1; }
  if ! diff -u "$src"/assumptions.expected assumptions.out; then
    echo "check-assumptions: Print Assumptions changed (expected: $src/assumptions.expected)" >&2
    exit 1
  fi
  result=assumptions.out
fi
# Whatever the expected file says, only these names may ever be trusted.
allowed='^(ClassicalDedekindReals\.sig_forall_dec|ClassicalDedekindReals\.sig_not_dec|FunctionalExtensionality\.functional_extensionality_dep|Classical_Prop\.classic)$'
# The axiom names: the unindented lines of each "Axioms:" block (a block ends at the next ***).
names=$(awk '/^\*\*\*/ {inside = 0} inside && /^[^ ]/ {print $1} /^Axioms:/ {inside = 1}' \
  "$result" | sort -u)
if bad=$(grep -vE "$allowed" <<<"$names"); then
  echo "check-assumptions: not a standard-library axiom of the reals: $bad" >&2
  exit 1
fi
listed=$(grep -c '^Print Assumptions ' "$src"/Assumptions.v)
if ((each)); then
  echo "check-assumptions: $listed theorems one by one, only the allowed axioms (nothing compared)"
else
  echo "check-assumptions: $listed theorems in one batch, assumptions as expected"
fi
