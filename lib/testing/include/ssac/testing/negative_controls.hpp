// Negative controls for the property suites and the validation tests: deliberately broken variants
// of one step of Algorithm 1, run through the same property or replay as the reference to show that
// the check can fail. Not part of SSAC and not installed: only tests and props/ link the
// ssac_testing library. Each variant replaces one step of the reference run (lib/src/algorithm/),
// which itself has no knowledge of them.
#pragma once

#include <utility>
#include <vector>

#include "ssac/observer.hpp"
#include "ssac/oracle.hpp"
#include "ssac/rng.hpp"
#include "ssac/ssac.hpp"

namespace ssac::testing {

enum class Fault {
  none,
  off_by_one_search,      // Phase 2 returns j* + 1 instead of j* (the radius of the next point)
  wrong_x1,               // Algorithms 3/4 take as x_1 the point farthest from mu'_p
  mean_over_all_samples,  // mu'_p is the mean of all of Z, not of Z_p
  p_not_argmax,           // p is the cluster with the fewest assignment-known draws (Theorem 1)
  // Not a broken step but a reading of Definition 4 that the reference does not offer
  // (proofs-notes/anchor-rules.md, "anchors drawn from the placed draws"): with anchor rule
  // random-known-row, a row is drawn as t's anchor with weight the number of Phase-1 draws placed
  // in t at it (at least 1 for a labelled row and the opener), i.e. uniformly from the multiset
  // Z_t of the run so far. For the paper's profile (Rules::overwrite off) only.
  anchor_by_placements,
};

// run_ssac with one step replaced by `fault` (Fault::none is the reference itself).
Result run_ssac_with_fault(const Matrix& X, Oracle& oracle, Chooser& chooser, const Params& params,
                           Fault fault, RunObserver* observer = nullptr);
// The same with the reference's own choices for `seed` (see run_ssac).
Result run_ssac_with_fault(const Matrix& X, Oracle& oracle, const Params& params,
                           std::uint64_t seed, Fault fault, RunObserver* observer = nullptr);

// Not a broken step but an oracle that meets Definition 5 to the letter and not its single-rate
// erasure reading (proofs-notes/oracle-independence.md, clause 2): fresh, independent, memoryless
// abstentions with probability 1 - q on every pair x != y, as RandomWeakOracle draws them, and
// never an abstention on a self-pair Q(x, x), which it answers yes ("not-sure with probability at
// most 1 - q" allows 0). With self-pairs asked (S4) Phase 1 then sees what the former rule
// self-pairs=off made it see: a re-drawn anchor is always placed (theorem1-random-weak.md, "Which
// oracle"). A person who answers self-pairs with yes is this oracle.
class SelfPairSureOracle : public Oracle {
 public:
  SelfPairSureOracle(std::vector<int> labels, double q, Rng rng)
      : inner_(std::move(labels), q, rng) {}
  Answer query(std::size_t x, std::size_t y) override {
    return x == y ? Answer::Yes : inner_.query(x, y);
  }

 private:
  RandomWeakOracle inner_;
};

}  // namespace ssac::testing
