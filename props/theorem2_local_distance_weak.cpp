// Theorem 2: on instances that satisfy the x* condition (generated on purpose: one point at each
// cluster's mean), with eta at theory::distance_weak_local's minimum sufficient value,
// Algorithm 1 with Algorithm 3 and a (nu, rho) local distance-weak oracle outputs the
// oracle's clustering with probability at least 1 - delta.
// Note: proofs-notes/theorem2-local-distance-weak.md.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cmath>
#include <sstream>

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

// The counterexample RapidCheck found and shrank (seed 1008, case 65), checked by hand in the
// note: cluster 1 = 11 x {a} + 10 x {b}, cluster 2 = 3 x {c} + 3 x {d}, plus each mean.
Instance hand_checked_counterexample() {
  const double a = 1.0454398136864376, b = -0.97749801264458, c = -1.295388243395408,
               d = -3.2704896280223936;
  Instance inst;
  std::vector<double> xs;
  for (int i = 0; i < 21; ++i) {
    xs.push_back(i % 2 == 0 ? a : b);
    inst.labels.push_back(1);
  }
  for (int i = 0; i < 6; ++i) {
    xs.push_back(i % 2 == 0 ? c : d);
    inst.labels.push_back(2);
  }
  inst.X = Matrix(static_cast<Eigen::Index>(xs.size()), 1);
  for (std::size_t i = 0; i < xs.size(); ++i)
    inst.X(static_cast<Eigen::Index>(i), 0) = xs[i];
  inst.stats = cluster_stats(inst.X, inst.labels);
  inst.shape = "ring";
  return with_center_points(inst);
}

// The same counterexample with distinct points (X is a set in the paper): copy i of each repeated
// value moved by i * 1e-7 away from the other cluster side, then a point at each mean. Margins,
// checked by hand in the note: gamma = 1.2999987 (nu - gamma = 0.022), condition (a) between the
// near sides fires with at least 1.01e-4 to spare, condition (b) across each cluster's sides with
// 0.43 and 0.49, and the mean points lie 0.21 r_1 and 0.20 r_2 inside the x* bound.
Instance jittered_counterexample() {
  const double a = 1.0454398136864376, b = -0.97749801264458, c = -1.295388243395408,
               d = -3.2704896280223936, h = 1e-7;
  std::vector<double> xs;
  Instance inst;
  auto add = [&](double base, double step, int copies, int label) {
    for (int i = 0; i < copies; ++i) {
      xs.push_back(base + i * step);
      inst.labels.push_back(label);
    }
  };
  add(a, h, 11, 1);
  add(b, -h, 10, 1);
  add(c, h, 3, 2);
  add(d, -h, 3, 2);
  inst.X = Matrix(static_cast<Eigen::Index>(xs.size()), 1);
  for (std::size_t i = 0; i < xs.size(); ++i)
    inst.X(static_cast<Eigen::Index>(i), 0) = xs[i];
  inst.stats = cluster_stats(inst.X, inst.labels);
  inst.shape = "line";
  return with_center_points(inst);
}

}  // namespace

// The jittered counterexample under each anchor rule of Definition 4
// (proofs-notes/anchor-rules.md), at delta = 0.1 (the theorem is claimed for every delta; eta =
// 3709.8 there): the opener fails 568 of 1000 runs, the lowest and a random labelled row 259 of
// 1000 (above 0.1, below 0.3), a random known row (placed rows count) 0 of 1000. 300 runs per rule
// decide each verdict.
TEST(Theorem2LocalDistanceWeak, JitteredCounterexamplePerAnchorRule) {
  check_pinned_per_rule({"theorem2 jittered", /*global=*/false, jittered_counterexample(), 1.322,
                         0.75, 0.1, /*runs=*/300},
                        {{AnchorRule::opener, Verdict::falsified},
                         {AnchorRule::lowest_labelled_row, Verdict::falsified},
                         {AnchorRule::random_labelled_row, Verdict::falsified},
                         {AnchorRule::random_known_row, Verdict::holds}});
}

// FINDING (proofs-notes/theorem2-local-distance-weak.md): the theorem as stated is false, by the
// mechanism of Theorem 3. With 1000 runs per case the default seed finds, after 65 cases, k = 2,
// m = 1, two 1-D "rings" (points at +-r) plus a point at each mean, nu = 1.322, rho = 0.75,
// delta = 0.3: 578 of 1000 runs fail. The near sides of the two clusters are mutually not-sure
// (condition (a)) and the two sides of a cluster are not-sure (condition (b)), so with both
// anchors on the near sides the near-side points are never assignment-known and mu'_p is biased
// by about r. This test asserts that a counterexample is found; it fails if the statement ever
// holds on every generated case.
// The search itself costs about 4 minutes (65 cases of 1000 runs before the failure), so it runs
// only in thorough mode, with shrinking disabled (props/CMakeLists.txt); the default suite reruns
// the hand-checked counterexample it found as a fixed regression.
TEST(Theorem2LocalDistanceWeak, StatedClaimIsFalsified) {
  if (!thorough()) GTEST_SKIP() << "the search runs with SSAC_THOROUGH=1";
  EXPECT_TRUE(expect_caught("Theorem 2 as stated", [] { check_theorem(Fault::none); }));
}

TEST(Theorem2LocalDistanceWeak, HandCheckedCounterexample) {
  EXPECT_TRUE(expect_caught("Theorem 2 on the hand-checked counterexample", [] {
    check_instance(hand_checked_counterexample(), 1.322, 0.75, 0.3, 0, Fault::none, kTheoremRuns);
  }));
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
      /*max_success=*/10));
  EXPECT_TRUE(expect_holds(
      "Theorem 2's counterexample with a perfect oracle",
      [] {
        check_distance_weak("theorem2_perfect_oracle", /*global=*/false,
                            hand_checked_counterexample(), 1.322, 0.75, 0.3, 0, Fault::none,
                            /*runs=*/200, /*perfect_oracle=*/true);
      },
      /*max_success=*/1));
}

TEST(Theorem2LocalDistanceWeak_Negative, WrongX1IsCaught) {
  EXPECT_TRUE(
      expect_caught("Theorem 2, x_1 = farthest point", [] { check_theorem(Fault::wrong_x1); }));
}

}  // namespace ssac::props
