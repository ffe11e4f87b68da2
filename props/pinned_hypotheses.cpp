// Every pinned instance of props/ against every hypothesis of the theorem it is pinned for
// (theory::check_theorem1/2/3, ssac/theory/hypotheses.hpp): each must meet them all except the ones
// it is pinned as violating (Instance::violates), so a pinned verdict is never read as a verdict on
// the theorem when the instance lies outside it. Deterministic, no Monte Carlo: no false alarm.
// Note: proofs-notes/hypotheses.md.
#include <gtest/gtest.h>

#include "pinned_instances.hpp"
#include "ssac/data.hpp"
#include "theorems_common.hpp"

namespace ssac::props {
namespace {

struct Pinned {
  const char* name;
  int theorem;  // 1, 2 or 3
  Instance inst;
  double nu, rho, delta;  // Theorems 2 and 3
  double gamma = 0;       // Theorem 1's gamma; 0: the data's own (a supremum)
};

theory::HypothesisReport check(const Pinned& p) {
  const Dataset data = as_dataset(p.inst);
  const auto k = static_cast<std::size_t>(p.inst.k());
  if (p.theorem == 1)
    return theory::check_theorem1(data, k,
                                  theory::Decimal(p.gamma > 0 ? p.gamma : p.inst.stats.gamma));
  if (p.theorem == 2) return theory::check_theorem2(data, k, p.nu, p.rho, p.delta);
  return theory::check_theorem3(data, k, p.rho, p.delta);
}

// The parameters each suite runs them at (the theorem suites, Appendix C's and the abstention
// models').
std::vector<Pinned> pinned() {
  return {{"theorem2 shrunk", 2, theorem2_shrunk_instance(), 1.322, 0.75, 0.3},
          {"theorem2 jittered", 2, theorem2_jittered_instance(), 1.322, 0.75, 0.1},
          {"theorem3 hand-checked", 3, theorem3_hand_checked_instance(), 1.0, 0.75, 0.1},
          {"theorem3 hand-checked, delta 0.3", 3, theorem3_hand_checked_instance(), 1.0, 0.75, 0.3},
          {"theorem3 referee", 3, theorem3_referee_instance(), 1.0, 0.95, 0.3},
          {"theorem3 search", 3, theorem3_search_instance(), 1.0, kTheorem3SearchRho,
           kTheorem3SearchDelta},
          {"theorem3 second referee", 3, theorem3_second_referee_instance(), 1.0, 0.6, 0.1},
          {"theorem1 self-pair", 1, theorem1_self_pair_instance(), 0, 0, 0, 1.19999},
          {"two_pairs", 1, two_pairs(), 0, 0, 0},
          {"two_segments", 1, two_segments(), 0, 0, 0},
          {"theorem2 random-known-row", 2, theorem2_known_row_instance(), kTheorem2KnownRowNu,
           kTheorem2KnownRowRho, kTheorem2KnownRowDelta}};
}

}  // namespace

TEST(PinnedInstances, EveryHypothesisChecked) {
  for (const Pinned& p : pinned()) {
    const theory::HypothesisReport r = check(p);
    EXPECT_EQ(violated(r), p.inst.violates) << p.name << ": " << r.failures();
    std::cout << "[hypotheses] " << p.name << ": "
              << (r.all_hold() ? "every hypothesis holds" : r.failures()) << "\n";
  }
}

// The repeated points the two instances with copies are pinned as violating are the copies.
TEST(PinnedInstances, KnownViolationsAreTheCopies) {
  const auto shrunk = check(pinned()[0]);
  const theory::Hypothesis* d = shrunk.find(theory::HypothesisId::distinct);
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->offending, 10u + 9u + 2u + 2u);  // 11 a, 10 b, 3 c, 3 d: all but one of each
  const auto referee = check(pinned()[4]);
  EXPECT_EQ(referee.find(theory::HypothesisId::distinct)->offending, 20u + 13u + 8u);
}

// The file the notes' `ssac` commands reproduce Theorem 2's random-known-row counterexample from
// holds the pinned instance's rows, in order, with its labels.
TEST(PinnedInstances, Theorem2KnownRowFileIsThePinnedInstance) {
  const Dataset file = read_csv(SSAC_EXAMPLES_DIR "/theorem2/known-row.csv");
  const Instance inst = theorem2_known_row_instance();
  ASSERT_EQ(file.points.rows(), inst.X.rows());
  ASSERT_EQ(file.points.cols(), inst.X.cols());
  EXPECT_TRUE(file.points == inst.X);
  EXPECT_EQ(file.labels, inst.labels);
}

// Negative control: the Theorem 3 instance pinned before this check existed breaks Definition 1
// (its point 0.42627 of C_1 lies 0.219 from mu_2 and 0.562 from mu_1), and the same comparison
// that passes the pinned instances above must reject it.
TEST(PinnedInstances_Negative, TheOldTheorem3InstanceIsRejected) {
  Instance old;
  old.labels = {1, 1, 1, 2, 2, 2};
  set_line_points(old, {0.42627, -0.69781, -0.13577, 0.69551, 0.59489, 0.64520});
  const Pinned p{"theorem3 hand-checked before", 3, old, 1.0, 0.75, 0.1};
  const theory::HypothesisReport r = check(p);
  EXPECT_NE(violated(r), old.violates);
  EXPECT_EQ(violated(r), std::vector<std::string>{"center_based"});
}

}  // namespace ssac::props
