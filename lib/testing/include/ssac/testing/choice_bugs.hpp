// Negative controls for the law of the choices (ssac/choice_law.hpp): implementations whose every
// trace `ssac validate` accepts, since a replay takes whatever draws and answers a trace records,
// but whose draws or answers follow another law than the paper's. Not part of SSAC and not
// installed: only tests/ and the power study link the ssac_testing library.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ssac/data.hpp"
#include "ssac/ssac.hpp"

namespace ssac::testing {

enum class ChoiceBug {
  none,
  // Marginal laws: each choice's own law is wrong.
  phase1_without_replacement,  // Z drawn without replacement (S1 says with)
  b_without_replacement,       // B drawn without replacement from Z_p's positions (S5 says with)
  b_from_distinct_rows,        // B uniform over Z_p's distinct rows, not its positions
  never_last,                  // an index draw that never returns a pool's last element
  abstention_q_squared,        // not-sure with probability 1 - q^2 instead of 1 - q (Definition 5)
  // With probability `strength`, a Phase-1 draw (front_bias_phase1) or a draw of B (front_bias_b)
  // is made uniformly from the front half of the pool (its first max(1, size / 2) positions)
  // instead of the whole pool: strength 0.1 is the "10% front bias", the front half of a pool of
  // even size drawn 1.1 times as often as it should be (of a pool of odd size, more).
  front_bias_phase1,
  front_bias_b,
  // Not-sure with probability 1 - q + strength instead of 1 - q (Definition 5).
  abstention_shift,
  // Under a random anchor rule (Definition 4, proofs-notes/anchor-rules.md): the anchor is always
  // the first candidate (the lowest row known to be in the cluster) instead of a uniform one
  // (anchor_first), or with probability `strength` is drawn from the front half of the candidates
  // (front_bias_anchor, as front_bias_phase1 does for Phase 1).
  anchor_first,
  front_bias_anchor,
  // Joint laws: each choice's marginal law is right or nearly so, but choices depend on each other.
  // Every probe of a search after the first reuses the previous probe's B (the same positions of
  // the same Z_p) instead of drawing a fresh one (S5).
  b_reused_across_probes,
  // With probability `strength` (default 1/2) a Phase-1 draw after the first of its sample takes
  // the position after the previous draw's (cyclically) instead of a fresh uniform one (S1).
  phase1_follows_previous,
  // The random-weak oracle answers a pair asked again as it did the first time (per-pair memory)
  // while the trace's header says fresh (Definition 5 with independent answers).
  oracle_repeats_answers,
};

struct ChoiceBugSpec {
  ChoiceBug bug = ChoiceBug::none;
  double strength = 0.5;  // for the bugs that take one (front bias, shift, follows previous)
};

// `runs` traces (JSON Lines text) of the implementation with `bug` on X with a random-weak oracle
// of parameter q backed by `labels`, seeds first_seed, first_seed + 1, ...; each header claims the
// reference's laws (the oracle's q, fresh memory).
std::vector<std::string> buggy_traces(const Matrix& X, const std::vector<int>& labels,
                                      const Params& params, double q, const ChoiceBugSpec& bug,
                                      std::uint64_t first_seed, int runs);

// The 9-point instance the choice-law tests and the power study (tests/choice_power.cpp) run on:
// three clusters of three points (a right triangle of unit legs each, 10 apart), the size of the
// smallest data sets people test on; k = 3, eta = 2 (r = 6 draws per sample), beta = 3,
// Algorithm 4, a random-weak oracle with q = 0.7. `anchor` is the anchor rule (the paper's opener
// by default; the anchor-draw controls run under the two random rules).
struct ChoiceInstance {
  Matrix X;
  std::vector<int> labels;
  Params params;
  double q = 0.7;
};
ChoiceInstance nine_points(AnchorRule anchor = AnchorRule::opener);

// The bug's name as the power study prints it ("phase1_follows_previous", ...).
std::string to_string(ChoiceBug bug);

}  // namespace ssac::testing
