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
//     draw (a repeat is fixed, and the replay already enforces it).
// Each choice is turned into one number u by the randomized probability integral transform of its
// law (the outcomes in a fixed order, u uniform within the chosen outcome's share of [0, 1), the
// offset from a keyed stream of rng.hpp). Under the laws above the u of all choices are independent
// and exactly Uniform(0, 1) (Rosenblatt 1952), whatever the instance, parameters or pool sizes, so
// choices of many traces can be pooled. The order puts the outcomes already drawn in the same
// sample first (a draw without replacement never lands there), then the rest in pool order (a draw
// that never returns the last element leaves the top short), and not-sure first among answers.
//
// The test: the u of each kind in `bins` equal bins, each bin's count against Binomial(N, 1/bins)
// with exact two-sided tails, Bonferroni over bins and kinds, so that the whole check rejects a
// conforming implementation with probability at most alpha.
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
  std::uint64_t seed = 0;  // the transform's offsets: rng stream (seed, trace number, choice)
};

struct ChoiceKind {
  std::string name;  // "phase1_draw", "b_draw", "abstention"
  std::string law;   // the law in words, with the paper's statement
  std::uint64_t choices = 0;
  std::vector<std::uint64_t> counts;  // u per bin
  // Draws only: draws that repeat an outcome already drawn in the same sample, and the number
  // expected under the law (the sum of each draw's conditional probability of a repeat).
  std::uint64_t repeats = 0;
  double expected_repeats = 0.0;
  // Abstentions only: not-sure answers, and the number expected (the sum of 1 - q).
  std::uint64_t not_sure = 0;
  double expected_not_sure = 0.0;
  // The smallest Bonferroni-adjusted two-sided p-value over the bins (1 when no choices), and its
  // bin: the kind's u deviate when p <= alpha / (number of kinds checked).
  double p = 1.0;
  int worst_bin = -1;
};

struct ChoiceLawReport {
  std::size_t traces = 0;
  ChoiceLawOptions options;
  std::vector<ChoiceKind> kinds;  // phase1_draw, b_draw, abstention, in that order
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
// the reference is refused (DataError naming it, with its divergence), since the law of its
// choices is the reference's only while it runs as the reference does. Memory: the per-kind tallies
// and one trace's choices at a time, whatever the number of traces.
class ChoiceLaw {
 public:
  explicit ChoiceLaw(ChoiceLawOptions options);
  ~ChoiceLaw();
  ChoiceLaw(const ChoiceLaw&) = delete;
  ChoiceLaw& operator=(const ChoiceLaw&) = delete;

  // The trace in the file at `path` (validate_trace_file), or the text `text` named `name`.
  void add_file(const Matrix& X, const std::string& path, const ReplayOptions& replay = {});
  void add_text(const Matrix& X, const std::string& text, const std::string& name,
                const ReplayOptions& replay = {});
  ChoiceLawReport report() const;

 private:
  struct State;
  void add(const Matrix& X, const std::string& name, ReplayOptions replay,
           const std::function<ValidationReport(const ReplayOptions&)>& run);
  std::unique_ptr<State> s_;
};

}  // namespace ssac
