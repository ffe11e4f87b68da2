// Coq certificates of the printed ceilings (proofs-notes/coq/README.md, "Certified tables"): for
// each row of `ssac bounds` and each closed form proved in proofs-notes/coq/Bounds.v, a lemma
//   c - 1 < B k m ... <= c
// about the Coq definition of that bound at the exact decimal inputs, proved by the interval
// tactic; for each binomial-sum eta s it can certify (BinomialTail.v), a lemma
//   tail(s) <= delta/(2k) < tail(s - 1). Compiling the file (against the SSAC development) checks
//   every ceiling independently
// of the C++ evaluation that printed it.
#pragma once

#include <string>
#include <vector>

#include "ssac/theory/bounds.hpp"

namespace ssac::theory {

// The whole .v file for `rows` (each row is checked with check() first). Ceilings theory/ cannot
// certify (empty `ceil`, values above about 10^484), beta at q = 1 (0 by definition, no
// logarithm) and binomial-sum etas out of the method's reach get a comment, with the reason, in
// place of a lemma.
std::string coq_certificate(const std::vector<Inputs>& rows);

// A decimal as a Coq real literal: "(123 / 1000)", "1500", "(1 / 1000000000000)".
std::string coq_real(const Decimal& x);

}  // namespace ssac::theory
