// The law of every random choice, checked over many traces (`ssac gof --data DATA --traces ...`).
//
// A replay (ssac/trace.hpp) accepts any draws and answers a trace records, so a bug in how an
// implementation draws or how its oracle abstains passes validation trace by trace; and a histogram
// of final outcomes (the distribution corpus) sees such a bug only through what it does to the
// outcome. But the reference knows the exact conditional law of each recorded choice given
// everything before it:
//   - a Phase-1 draw (Algorithm 1, line 4): uniform over S_i, independently of the sample's earlier
//     draws (with replacement, semantics S1);
//   - a draw of B (Algorithms 2 and 4): uniform over the positions of the multiset Z_p, so a row
//     with probability its multiplicity over |Z_p|, independently of B's earlier draws (S5);
//   - a random-weak oracle's answer (Definition 5, fresh memory): not-sure with probability 1 - q,
//     independently of everything before; under per-pair memory only a pair's first query is a
//     draw (a repeat is fixed, and the replay already enforces it);
//   - an anchor draw under a random anchor rule (Definition 4, proofs-notes/anchor-rules.md; a
//     trace of version 4 records it): uniform over the rows known to be in the cluster at that
//     query, afresh at each query. Its transform is in increasing row order.
// Each choice is turned into one number u by the randomized probability integral transform of its
// law (the outcomes in a fixed order, u uniform within the chosen outcome's share of [0, 1), the
// offset from a keyed stream of rng.hpp). Under the laws above the u of all choices are independent
// and exactly Uniform(0, 1) (Rosenblatt 1952), whatever the instance, parameters or pool sizes, so
// choices of many traces can be pooled. The order puts the outcomes already drawn in the same
// sample first (a draw without replacement never lands there), then the rest in pool order (a draw
// that never returns the last element leaves the top short), and not-sure first among answers.
//
// Dependence between choices: under these laws the u of one run are independent, so any two of
// them are uniform on the unit square. Five joint kinds pair them, each value in at most one pair
// of a kind, so that a kind's pairs are independent too:
//   - phase1_pair: draws 1 and 2, 3 and 4, ... of one Phase-1 sample (one iteration's Z);
//   - b_pair: the same over the draws of B of one search (Phase 2 of one iteration), in order;
//   - b_probe_pair: draw j of the first and second B of a search, of the third and fourth, ...
//     (a fresh B at every probe, S5);
//   - abstention_pair: consecutive random-weak answers of one iteration, 1 and 2, 3 and 4, ...;
//   - repeat_agreement: a pair of points asked again under fresh memory agrees with its previous
//     ask (both not-sure, or both answered) with probability 1 - q after a not-sure and q after an
//     answer (Definition 5: independent answers), given the first ask -- not q^2 + (1 - q)^2,
//     since whether a pair is asked again depends on its first answer. Asks 1 and 2, 3 and 4, ...
//     of the same pair; the indicator is transformed like an answer (agreement first). Not a pair
//     kind: one value per two asks.
//
// The tests, per kind with choices: (a) its u in `bins` equal bins (a pair kind: its pairs in a
// grid x grid of cells, each count against Binomial(its row's total, 1 / grid): given the first
// value the second is uniform, while whether a pair is formed at all may depend on the first),
// each count against its exact binomial law, two-sided, Bonferroni over the cells; (b) the exact
// Kolmogorov-Smirnov test of the u (a pair kind: of frac(u2 - u1), uniform when u1 and u2 are
// independent uniforms, and piled near 0 and 1 when the second copies the first), on a 4096-cell
// histogram whose edges bound the statistic from below, so the p-value is conservative; its tail is
// the one-sided Smirnov law (Birnbaum and Tingey 1951) doubled, an upper bound of the two-sided
// one. A kind's p is twice the smaller of the two (Bonferroni), and it deviates when p <= alpha /
// (number of kinds with choices): the whole check rejects a conforming implementation with
// probability at most alpha.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "ssac/data.hpp"
#include "ssac/trace.hpp"

namespace ssac {

struct ChoiceLawOptions {
  double alpha = 1e-6;     // false-alarm rate of the whole check, in (0, 0.5]
  int bins = 10;           // equal bins of [0, 1) per kind, 2..1000
  int grid = 4;            // a pair kind's cells per axis, 2..32
  std::uint64_t seed = 0;  // the transform's offsets: rng stream (seed, trace number, choice)
};

struct ChoiceKind {
  std::string name;    // "phase1_draw", "b_draw", "abstention", "anchor_draw", "phase1_pair", ...
  std::string law;     // the law in words, with the paper's statement
  bool pairs = false;  // a joint kind: each choice is a pair of values
  std::uint64_t choices = 0;          // values (pairs, for a joint kind)
  std::vector<std::uint64_t> counts;  // u per bin; a pair kind's pairs per cell, row-major
  // Every kind: its "hits" (draws: repeats; answers: not-sure; anchor draws: the first candidate,
  // the lowest row; pairs: both values in the same grid interval; agreement: agreements) and the
  // number expected under the law.
  std::uint64_t hits = 0;
  double expected_hits = 0.0;
  // Draws only: draws that repeat an outcome already drawn in the same sample, and the number
  // expected under the law (the sum of each draw's conditional probability of a repeat).
  std::uint64_t repeats = 0;
  double expected_repeats = 0.0;
  // Abstentions only: not-sure answers, and the number expected (the sum of 1 - q).
  std::uint64_t not_sure = 0;
  double expected_not_sure = 0.0;
  // The smallest Bonferroni-adjusted two-sided p-value over the bins or cells, and its bin.
  double p_bins = 1.0;
  int worst_bin = -1;
  // The Kolmogorov-Smirnov distance of the u (pairs: of frac(u2 - u1)) from uniform, as bounded
  // below on the histogram's edges, and its exact (conservative) two-sided p-value.
  double ks_d = 0.0;
  double p_ks = 1.0;
  // min(1, 2 min(p_bins, p_ks)), 1 when no choices: the kind deviates when p <= alpha / (number of
  // kinds checked).
  double p = 1.0;
};

// P(D_n >= d) for the two-sided Kolmogorov-Smirnov distance of n independent Uniform(0, 1) values,
// bounded above by twice the exact one-sided tail P(D_n^+ >= d) (Birnbaum and Tingey 1951), capped
// at 1; exact to rounding in the one-sided part.
double ks_p_value(std::uint64_t n, double d);

struct ChoiceLawReport {
  std::size_t traces = 0;  // traces pooled: those that conform
  // Traces that do not conform to the reference ("NAME: the divergence"), in the order given: the
  // law of their choices is not the reference's, so they are left out of the pool, and the check
  // fails (the implementation that wrote them does not run as the reference does).
  std::vector<std::string> nonconforming;
  ChoiceLawOptions options;
  std::vector<ChoiceKind> kinds;  // the nine kinds above, marginal ones first
  // Kinds with at least one choice; alpha is shared among them.
  int checked() const;
  bool passes() const;
  // Answers that were not draws of a law this check knows (a correlated or deterministic oracle,
  // an interactive one, the original SSAC's coin flips), left out of the check.
  std::uint64_t answers_not_checked = 0;
  // Choices of probability 0 under the law (a not-sure answer where q = 1): any fails the check.
  std::uint64_t impossible = 0;
};

// Pools the choices of many traces. Each trace is replayed first; one that does not conform to
// the reference is left out of the pool and listed in the report's `nonconforming` (the law of its
// choices is the reference's only while it runs as the reference does), and the others are pooled
// all the same. A trace that cannot be read, breaks the format or is for other data throws
// DataError, as validate_trace does. Memory: the per-kind tallies and one trace's choices at a
// time, whatever the number of traces.
class ChoiceLaw {
 public:
  explicit ChoiceLaw(ChoiceLawOptions options);
  ~ChoiceLaw();
  ChoiceLaw(const ChoiceLaw&) = delete;
  ChoiceLaw& operator=(const ChoiceLaw&) = delete;

  // The trace in the file at `path` (validate_trace_file), or the text `text` named `name`, on
  // the points X of its own data set (traces of different data sets pool: every law is
  // conditional on the run's own points). True when it conforms and was pooled.
  bool add_file(const Matrix& X, const std::string& path, const ReplayOptions& replay = {});
  bool add_text(const Matrix& X, const std::string& text, const std::string& name,
                const ReplayOptions& replay = {});
  ChoiceLawReport report() const;

 private:
  struct State;
  bool add(const Matrix& X, const std::string& name, ReplayOptions replay,
           const std::function<ValidationReport(const ReplayOptions&)>& run);
  std::unique_ptr<State> s_;
};

}  // namespace ssac
