// theory::check_* (ssac/theory/hypotheses.hpp): each hypothesis of Theorems 1-3 caught on an
// instance built to break it alone, with the offending rows named.
#include <gtest/gtest.h>

#include <vector>

#include "ssac/theory/hypotheses.hpp"

namespace ssac::theory {
namespace {

Dataset line(const std::vector<double>& xs, const std::vector<int>& labels) {
  Dataset d;
  d.points = Matrix(static_cast<Eigen::Index>(xs.size()), 1);
  for (std::size_t i = 0; i < xs.size(); ++i)
    d.points(static_cast<Eigen::Index>(i), 0) = xs[i];
  d.labels = labels;
  return d;
}

// The ids of the items that fail.
std::vector<HypothesisId> failing(const HypothesisReport& r) {
  std::vector<HypothesisId> out;
  for (const Hypothesis& h : r.items)
    if (!h.holds) out.push_back(h.id);
  return out;
}

// The instance pinned for Theorem 3 until it was found to break Definition 1: C_1 = {0.42627,
// -0.69781} and its mean -0.13577 (r_1 = 0.56204), C_2 = {0.69551, 0.59489} and its mean 0.64520.
// Its gamma-margin holds (1.300014: Definition 2 compares distances to one center only), but the
// point 0.42627 of C_1 lies 0.219 from mu_2 and 0.562 from mu_1.
TEST(Hypotheses, CatchesTheOldTheorem3InstanceBreakingDefinition1) {
  const Dataset d =
      line({0.42627, -0.69781, -0.13577, 0.69551, 0.59489, 0.64520}, {1, 1, 1, 2, 2, 2});
  const HypothesisReport r = check_theorem3(d, 2, Decimal("0.75"), Decimal("0.1"));
  EXPECT_FALSE(r.all_hold());
  EXPECT_EQ(failing(r), std::vector<HypothesisId>{HypothesisId::center_based});
  const Hypothesis* h = r.find(HypothesisId::center_based);
  ASSERT_NE(h, nullptr);
  EXPECT_EQ(h->rows, std::vector<std::size_t>{1});  // the point 0.42627, data row 1
  EXPECT_EQ(h->offending, 1u);
  EXPECT_NE(h->detail.find("row 1 of C_1"), std::string::npos) << h->detail;
  EXPECT_TRUE(r.find(HypothesisId::margin)->holds);
  EXPECT_TRUE(r.find(HypothesisId::x_star)->holds);
}

// Its replacement (props/pinned_instances.hpp, proofs-notes/theorem3-global-distance-weak.md):
// C_1 = {10, -10, 0}, C_2 = {33, 13, 23}; gamma = 13/10, every point nearer its own mean.
TEST(Hypotheses, TheNewTheorem3InstanceMeetsEveryHypothesis) {
  const Dataset d = line({10, -10, 0, 33, 13, 23}, {1, 1, 1, 2, 2, 2});
  const HypothesisReport r = check_theorem3(d, 2, Decimal("0.75"), Decimal("0.1"));
  EXPECT_TRUE(r.all_hold()) << r.failures();
  EXPECT_EQ(r.items.size(), 6u);
  EXPECT_TRUE(r.failures().empty());
  // The x* condition's figures; its eps is (gamma-1)/2 here, so no remark (errata E3).
  EXPECT_EQ(r.find(HypothesisId::x_star)->detail, "t_max = 0 < c = 0.5, eps = 0.15");
}

TEST(Hypotheses, RepeatedPointsAreNamed) {
  // Rows 2 and 4 repeat rows 1 and 3; the clustering is otherwise fine.
  const Dataset d = line({0, 0, 1, 1, 20, 21}, {1, 1, 1, 1, 2, 2});
  const HypothesisReport r = check_theorem1(d, 2);
  EXPECT_EQ(failing(r), std::vector<HypothesisId>{HypothesisId::distinct});
  const Hypothesis* h = r.find(HypothesisId::distinct);
  EXPECT_EQ(h->rows, (std::vector<std::size_t>{2, 4}));
  EXPECT_EQ(h->offending, 2u);
  EXPECT_NE(h->detail.find("row 1 and row 2"), std::string::npos) << h->detail;
}

TEST(Hypotheses, MarginAtTheTheoremsGamma) {
  // C_1 = {0, 2} (mean 1, r = 1), C_2 = {4, 6} (mean 5, r = 1): gamma = 3 exactly.
  const Dataset d = line({0, 2, 4, 6}, {1, 1, 2, 2});
  EXPECT_TRUE(check_theorem1(d, 2).all_hold());
  EXPECT_TRUE(check_theorem1(d, 2, Decimal("3")).all_hold());  // the supremum reading
  const HypothesisReport above = check_theorem1(d, 2, Decimal("3.0000001"));
  EXPECT_EQ(failing(above), std::vector<HypothesisId>{HypothesisId::margin});
  // Cluster 1 attains gamma: its row 1 at r = 1 (the first row at r), the outsider row 3 at 3
  // from mu_1.
  EXPECT_EQ(above.find(HypothesisId::margin)->rows, (std::vector<std::size_t>{1, 3}));
  EXPECT_EQ(failing(check_theorem1(d, 2, Decimal("1"))),
            std::vector<HypothesisId>{HypothesisId::margin});
  // gamma <= 1 for the data itself, Definition 1 still holding: C_1 = {(-10, 0), (10, 0)} (mean
  // 0, r = 10) and the small C_2 = {(0, 9), (0, 9.5)} inside C_1's ball: gamma = 9/10.
  Dataset inside;
  inside.points = Matrix(4, 2);
  inside.points << -10, 0, 10, 0, 0, 9, 0, 9.5;
  inside.labels = {1, 1, 2, 2};
  const HypothesisReport in = check_theorem1(inside, 2);
  EXPECT_EQ(failing(in), std::vector<HypothesisId>{HypothesisId::margin});
  EXPECT_EQ(in.find(HypothesisId::margin)->rows, (std::vector<std::size_t>{1, 3}));
}

TEST(Hypotheses, KMustBeTheNumberOfClusters) {
  const Dataset d = line({0, 2, 4, 6}, {1, 1, 2, 2});
  EXPECT_EQ(failing(check_theorem1(d, 3)), std::vector<HypothesisId>{HypothesisId::k_equals_K});
  EXPECT_TRUE(check_theorem1(d, 0).find(HypothesisId::k_equals_K)->holds);
}

TEST(Hypotheses, DistanceWeakConditions) {
  // C_1 = {0, 1, 2, 3, 4} (mean 2, r = 2), C_2 = {20, 21, 22} (mean 21, r = 1): gamma = 9.
  const Dataset d = line({0, 1, 2, 3, 4, 20, 21, 22}, {1, 1, 1, 1, 1, 2, 2, 2});
  const HypothesisReport ok = check_theorem2(d, 2, Decimal("9.5"), Decimal("0.9"), Decimal("0.05"));
  EXPECT_TRUE(ok.all_hold());
  // c = min{2(0.9) - 1, gamma - nu + 1} = 0.5 leaves an eps below (gamma - 1)/2 = 4 (errata E3).
  EXPECT_EQ(ok.find(HypothesisId::x_star)->detail,
            "t_max = 0 < c = 0.5, eps = 0.25 (below (gamma-1)/2 = 4: proofs-notes/errata.md, E3)");
  // nu = 10.5 > gamma + 1: the oracle's condition fails, and with it c = min{0.8, -0.5} < 0
  // leaves no x*.
  const HypothesisReport far =
      check_theorem2(d, 2, Decimal("10.5"), Decimal("0.9"), Decimal("0.05"));
  EXPECT_EQ(failing(far), (std::vector<HypothesisId>{HypothesisId::oracle, HypothesisId::x_star}));
  // Without the mean points no cluster has an x* below c = 2(0.6) - 1 = 0.2: C_1 = {0, 1, 4, 5}
  // has mean 2.5 and r_1 = 2.5, its nearest points (1 and 4) at 1.5 = 0.6 r_1; C_2 = {20, 22} has
  // mean 21 and r_2 = 1, both points at 1 = r_2. The worst cluster, the one named, is C_2 (best
  // ratio 1 against C_1's 0.6), and its first point at that ratio is row 5.
  const Dataset hollow = line({0, 1, 4, 5, 20, 22}, {1, 1, 1, 1, 2, 2});
  const HypothesisReport h = check_theorem3(hollow, 2, Decimal("0.6"), Decimal("0.05"));
  EXPECT_EQ(failing(h), std::vector<HypothesisId>{HypothesisId::x_star});
  const Hypothesis* xs = h.find(HypothesisId::x_star);
  EXPECT_EQ(xs->rows, std::vector<std::size_t>{5});
  EXPECT_EQ(xs->offending, 1u);
  EXPECT_EQ(
      xs->detail.rfind("no x* in C_2: its point nearest the mean, row 5, lies at 1 r(C_2)", 0), 0u)
      << xs->detail;
}

// Definition 1 asks each point's own mean to be its *strictly* nearest: a point as far from
// another cluster's mean as from its own breaks it. C_1 = {0, 4} (mean 2), C_2 = {5, 11} (mean
// 8): the point 5 of C_2, row 3, lies 3 from mu_2 and 3 from mu_1 (exact in doubles). The margin
// still holds (gamma = min(3/2, 4/3) = 4/3).
TEST(Hypotheses, ATieWithAnotherClustersMeanBreaksDefinition1) {
  const Dataset d = line({0, 4, 5, 11}, {1, 1, 2, 2});
  const HypothesisReport r = check_theorem1(d, 2);
  EXPECT_EQ(failing(r), std::vector<HypothesisId>{HypothesisId::center_based});
  const Hypothesis* h = r.find(HypothesisId::center_based);
  EXPECT_EQ(h->rows, std::vector<std::size_t>{3});
  EXPECT_EQ(h->offending, 1u);
  EXPECT_EQ(h->detail,
            "1 point(s) not nearest their own mean, first row 3 of C_2: d(x, mu_2) = 3 >= d(x, "
            "mu_1) = 3");
  EXPECT_TRUE(r.find(HypothesisId::margin)->holds);
}

// Two offending points in the second and third of three clusters: both rows named, the first in
// row order described. C_1 = {0, 2} (mean 1), C_2 = {3, 9} (mean 6), C_3 = {10, 22} (mean 16):
// row 3 (the point 3 of C_2) lies 3 from mu_2 and 2 from mu_1; row 5 (the point 10 of C_3) lies 6
// from mu_3 and 4 from mu_2. A point nearer its own mean is never named: rows 1, 2, 4 and 6 hold.
TEST(Hypotheses, OffendingPointsOutsideTheFirstClusterAreNamed) {
  const Dataset d = line({0, 2, 3, 9, 10, 22}, {1, 1, 2, 2, 3, 3});
  const HypothesisReport r = check_theorem1(d, 3);
  const Hypothesis* h = r.find(HypothesisId::center_based);
  ASSERT_NE(h, nullptr);
  EXPECT_FALSE(h->holds);
  EXPECT_EQ(h->rows, (std::vector<std::size_t>{3, 5}));
  EXPECT_EQ(h->offending, 2u);
  EXPECT_EQ(h->detail,
            "2 point(s) not nearest their own mean, first row 3 of C_2: d(x, mu_2) = 3 >= d(x, "
            "mu_1) = 2");
}

// When Definition 1 holds, the detail is the smallest ratio d(x, mu_j) / d(x, mu_i): on C_1 = {0,
// 2}, C_2 = {4, 6} (means 1 and 5) the points 2 and 4 attain 3 / 1.
TEST(Hypotheses, Definition1sSmallestRatioIsReported) {
  const Dataset d = line({0, 2, 4, 6}, {1, 1, 2, 2});
  const HypothesisReport r = check_theorem1(d, 2);
  const Hypothesis* h = r.find(HypothesisId::center_based);
  EXPECT_TRUE(h->holds);
  EXPECT_TRUE(h->rows.empty());
  EXPECT_EQ(
      h->detail,
      "every point nearer its own cluster's mean (smallest ratio d(x, mu_j) / d(x, mu_i) = 3)");
}

// The margin attained by a cluster other than the first: C_1 = {0, 2} (mean 1, r = 1, nearest
// outsider 10 at 9: ratio 9), C_2 = {10, 14} (mean 12, r = 2, nearest outsider 2 at 10: ratio 5).
// At gamma = 6 Definition 2 fails in C_2: the outsider row 2 and C_2's first row at r, row 3.
TEST(Hypotheses, TheMarginsFailingClusterIsNamedWhenItIsNotTheFirst) {
  const Dataset d = line({0, 2, 10, 14}, {1, 1, 2, 2});
  EXPECT_TRUE(check_theorem1(d, 2, Decimal("5")).all_hold());
  const HypothesisReport r = check_theorem1(d, 2, Decimal("6"));
  EXPECT_EQ(failing(r), std::vector<HypothesisId>{HypothesisId::margin});
  const Hypothesis* h = r.find(HypothesisId::margin);
  EXPECT_EQ(h->rows, (std::vector<std::size_t>{2, 3}));
  EXPECT_EQ(h->offending, 2u);
  EXPECT_EQ(h->detail,
            "gamma = 6 exceeds the data's margin 5 (cluster 2: row 2 lies 10 from mu_2, row 3 of "
            "C_2 at r = 2)");
}

// x* missing in the middle one of three clusters only: C_1 = {0, 10, 20} and C_3 = {200, 210,
// 220} have a point at their mean (ratio 0); C_2 = {100, 104, 110, 114} (mean 107, r = 7) has its
// nearest points 104 and 110 at 3/7 r_2, not below c = 2(0.6) - 1 = 0.2. Row 5 (104) is named.
TEST(Hypotheses, XStarMissingInTheMiddleClusterIsNamed) {
  const Dataset d =
      line({0, 10, 20, 100, 104, 110, 114, 200, 210, 220}, {1, 1, 1, 2, 2, 2, 2, 3, 3, 3});
  const HypothesisReport r = check_theorem3(d, 3, Decimal("0.6"), Decimal("0.05"));
  EXPECT_EQ(failing(r), std::vector<HypothesisId>{HypothesisId::x_star});
  const Hypothesis* h = r.find(HypothesisId::x_star);
  EXPECT_EQ(h->rows, std::vector<std::size_t>{5});
  EXPECT_EQ(h->detail.rfind("no x* in C_2: its point nearest the mean, row 5, lies at 0.428571429 "
                            "r(C_2)",
                            0),
            0u)
      << h->detail;
}

// Two clusters tie for the worst best ratio: C_1 = {0, 1, 4, 5} (mean 2.5, r = 2.5, nearest points
// at 1.5 = 0.6 r) and C_2 = {20, 22, 28, 30} (mean 25, r = 5, nearest at 3 = 0.6 r; both ratios
// the same double). The first such cluster is named, with its first point at that ratio (row 2).
TEST(Hypotheses, XStarTieBetweenClustersNamesTheFirst) {
  const Dataset d = line({0, 1, 4, 5, 20, 22, 28, 30}, {1, 1, 1, 1, 2, 2, 2, 2});
  const HypothesisReport r = check_theorem3(d, 2, Decimal("0.6"), Decimal("0.05"));
  EXPECT_EQ(failing(r), std::vector<HypothesisId>{HypothesisId::x_star});
  const Hypothesis* h = r.find(HypothesisId::x_star);
  EXPECT_EQ(h->rows, std::vector<std::size_t>{2});
  EXPECT_EQ(
      h->detail.rfind("no x* in C_1: its point nearest the mean, row 2, lies at 0.6 r(C_1)", 0), 0u)
      << h->detail;
}

// Every cluster attains the margin 3 and C_1's two nearest outsiders tie: C_1 = {0, 2} (mean 1,
// r = 1), C_2 = {4, 6}, C_3 = {-2, -4}. At gamma = 4 the first cluster is named, with its first row
// at r (row 1) and its first outsider in row order at 3 from mu_1 (row 3, the point 4; row 5, the
// point -2, ties with it).
TEST(Hypotheses, MarginTiesNameTheFirstClusterAndOutsider) {
  const Dataset d = line({0, 2, 4, 6, -2, -4}, {1, 1, 2, 2, 3, 3});
  const HypothesisReport r = check_theorem1(d, 3, Decimal("4"));
  EXPECT_EQ(failing(r), std::vector<HypothesisId>{HypothesisId::margin});
  const Hypothesis* h = r.find(HypothesisId::margin);
  EXPECT_EQ(h->rows, (std::vector<std::size_t>{1, 3}));
  EXPECT_EQ(
      h->detail,
      "gamma = 4 exceeds the data's margin 3 (cluster 1: row 3 lies 3 from mu_1, row 1 of C_1 "
      "at r = 1)");
}

}  // namespace
}  // namespace ssac::theory
