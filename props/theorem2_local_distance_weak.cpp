// Theorem 2: on instances that satisfy the x* condition (generated on purpose: one point at each
// cluster's mean), with eta at theory::distance_weak_local's minimum sufficient value,
// Algorithm 1 with Algorithm 3 and a (nu, rho) local distance-weak oracle outputs the
// oracle's clustering with probability at least 1 - delta.
// Note: proofs-notes/theorem2-local-distance-weak.md.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cmath>
#include <sstream>

#include "pinned_instances.hpp"
#include "ssac/theory/bounds.hpp"
#include "theorems_common.hpp"

namespace ssac::props {
namespace {

// One instance: the failure rate over `runs` runs against delta.
void check_instance(const Instance& inst, double nu, double rho, double delta, std::uint64_t seed,
                    Fault fault, std::uint64_t runs) {
  check_distance_weak("theorem2", /*global=*/false, inst, nu, rho, delta, seed, fault, runs);
}

void check_theorem(Fault fault) {
  check_generated_distance_weak("theorem2", /*global=*/false, fault, kTheoremRuns);
}

}  // namespace

// The jittered counterexample under each anchor rule of Definition 4
// (proofs-notes/anchor-rules.md), at delta = 0.1 (the theorem is claimed for every delta; eta =
// 3709.8 there): the opener fails 568 of 1000 runs, the lowest and a random labelled row 259 of
// 1000 (above 0.1, below 0.3), a random known row (placed rows count) 0 of 1000. 300 runs per rule
// decide each verdict.
TEST(Theorem2LocalDistanceWeak, JitteredCounterexamplePerAnchorRule) {
  check_pinned_per_rule({"theorem2 jittered", /*global=*/false, theorem2_jittered_instance(), 1.322,
                         0.75, 0.1, /*runs=*/300},
                        {{AnchorRule::opener, Verdict::falsified},
                         {AnchorRule::lowest_labelled_row, Verdict::falsified},
                         {AnchorRule::random_labelled_row, Verdict::falsified},
                         {AnchorRule::random_known_row, Verdict::holds}});
}

// Theorem 2 under random-known-row, the one rule the jittered instance does not refute: the
// instance of proofs-notes/theorem2-local-distance-weak.md ("Under a random known row"), where the
// placements alone bias mu'_1 past Lemma 6's bound (0.089 r_1 against eps r_1 = 0.050 r_1), so the
// outsider 1.1 is sorted before cluster 1's two L rows and no radius separates C_1; eta does not
// shrink the bias. Every run of the suite fails (30 of 30 at the data's own gamma; 30 of 30 at
// gamma' = 1.099, inside the strict margin, where eps = 0.0495 and eta = 47506.9 — the theorem's
// hypotheses at a gamma the data meets strictly); falsified against delta = 0.1 with
// Clopper-Pearson at alpha = 1e-6 each (kPinnedAlpha). About 8 s of CPU (60 runs of up to three
// iterations of 140,529 draws; 80 s of wall time on the shared 2-core machine).
TEST(Theorem2LocalDistanceWeak, KnownRowCounterexample) {
  PinnedInstance pin{"theorem2 random-known-row",
                     /*global=*/false,
                     theorem2_known_row_instance(),
                     kTheorem2KnownRowNu,
                     kTheorem2KnownRowRho,
                     kTheorem2KnownRowDelta,
                     /*runs=*/30};
  check_pinned_per_rule(pin, {{AnchorRule::random_known_row, Verdict::falsified}});
  // gamma' = 1.099 < gamma* = 1.0997: c = min{2 rho - 1, gamma' - nu + 1} = 0.199 leaves G_i(c)
  // and q_d unchanged, and eps = (gamma' - 1)/2 = 0.0495.
  const auto rep = theory::distance_weak_local(as_dataset(pin.inst), pin.nu, pin.rho, pin.delta);
  ASSERT_TRUE(rep.satisfied);
  pin.name = "theorem2 random-known-row, gamma' = 1.099";
  pin.eta =
      static_cast<double>(theory::certified_eta_distance_weak(3, 1, theory::Decimal(pin.delta),
                                                              theory::Real50("0.0495"), rep.q)
                              .value);
  check_pinned_per_rule(pin, {{AnchorRule::random_known_row, Verdict::falsified}}, /*seed=*/1000);
}

// FINDING (proofs-notes/theorem2-local-distance-weak.md): the theorem as stated is false, by the
// mechanism of Theorem 3. A generated search (1000 runs per case, RapidCheck seed 1008) found, on
// the Gaussian stream before ebaf92e and after 65 cases, the instance below: k = 2, m = 1, two 1-D
// "rings" (points at +-r) plus a point at each mean, nu = 1.322, rho = 0.75, delta = 0.3, 578 of
// 1000 runs failing. The near sides of the two clusters are mutually not-sure (condition (a)) and
// the two sides of a cluster are not-sure (condition (b)), so with both anchors on the near sides
// the near-side points are never assignment-known and mu'_p is biased by about r. Run once on the
// current stream (thorough mode, 1000 cases) the search found no counterexample within 11 minutes
// of CPU and was stopped (the note), so it is no longer a test: the suite pins the instance it
// found, shrunk and jittered, as fixed regressions.
// The property generates nothing, so its first case is the counterexample.
TEST(Theorem2LocalDistanceWeak, HandCheckedCounterexample) {
  const CheckReport r = expect_caught("Theorem 2 on the hand-checked counterexample", [] {
    check_instance(theorem2_shrunk_instance(), 1.322, 0.75, 0.3, 0, Fault::none, kTheoremRuns);
  });
  EXPECT_TRUE(r) << to_string(r.outcome);
  EXPECT_EQ(r.num_success, 0);
}

// Positive controls: the same harness with a perfect oracle in place of the local distance-weak one
// must meet the claim, on the generated cases and on the counterexample's instance.
TEST(Theorem2LocalDistanceWeak, PositiveControlPerfectOracleHolds) {
  EXPECT_TRUE(expect_holds(
      "Theorem 2's harness with a perfect oracle",
      [] {
        check_generated_distance_weak("theorem2_perfect_oracle", /*global=*/false, Fault::none,
                                      /*runs=*/100, /*perfect_oracle=*/true);
      },
      Stream{1008, 10}));
  EXPECT_TRUE(expect_holds(
      "Theorem 2's counterexample with a perfect oracle",
      [] {
        check_distance_weak("theorem2_perfect_oracle", /*global=*/false, theorem2_shrunk_instance(),
                            1.322, 0.75, 0.3, 0, Fault::none,
                            /*runs=*/200, /*perfect_oracle=*/true);
      },
      Stream{1008, 1}));
}

TEST(Theorem2LocalDistanceWeak_Negative, WrongX1IsCaught) {
  EXPECT_TRUE(
      expect_caught("Theorem 2, x_1 = farthest point", [] { check_theorem(Fault::wrong_x1); }));
}

}  // namespace ssac::props
