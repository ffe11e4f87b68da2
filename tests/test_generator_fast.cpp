// Differential test of the generator's early rejection (lib/src/data/generator.cpp): generate()
// must accept exactly the draw, the dataset bytes and the gamma that the plain path -- draw every
// dataset in full with draw_dataset(), compute its gamma-margin with cluster_stats() (Definition 2)
// and test the window -- accepts.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "ssac/data.hpp"
#include "ssac/error.hpp"
#include "ssac/generator.hpp"
#include "ssac/rng.hpp"

namespace {

struct Plain {
  ssac::Dataset data;
  double gamma = 0.0;
  std::uint64_t draws = 0;
};

Plain plain_generate(const ssac::GeneratorParams& p) {
  for (std::uint64_t d = 0; d < p.max_draws; ++d) {
    ssac::Dataset data = ssac::draw_dataset(p, d);
    const double g = ssac::cluster_stats(data.points, data.labels).gamma;
    if (g > p.gamma_min && g <= p.gamma_max) return {std::move(data), g, d + 1};
  }
  return {};
}

bool same_bytes(const ssac::Matrix& a, const ssac::Matrix& b) {
  return a.rows() == b.rows() && a.cols() == b.cols() &&
         std::memcmp(a.data(), b.data(), sizeof(double) * static_cast<std::size_t>(a.size())) == 0;
}

void expect_same(const ssac::GeneratorParams& p) {
  const Plain want = plain_generate(p);
  ASSERT_GT(want.draws, 0u) << "window not reached by the plain path, seed " << p.seed;
  const ssac::Generated got = ssac::generate(p);
  EXPECT_EQ(got.draws, want.draws) << "seed " << p.seed;
  EXPECT_EQ(std::memcmp(&got.gamma, &want.gamma, sizeof(double)), 0) << "seed " << p.seed;
  EXPECT_TRUE(same_bytes(got.data.points, want.data.points)) << "seed " << p.seed;
  EXPECT_EQ(got.data.labels, want.data.labels);
  EXPECT_EQ(got.data.column_names, want.data.column_names);
}

// expect_same on seeds first, first + 1, ..., first + count - 1.
void expect_same_on_seeds(ssac::GeneratorParams p, std::uint64_t first, std::uint64_t count) {
  for (std::uint64_t s = first; s < first + count; ++s) {
    p.seed = s;
    expect_same(p);
  }
}

TEST(GeneratorEarlyRejection, PaperMainWindowMatchesPlainPathOn60Seeds) {
  ssac::GeneratorParams p;  // n = 1500, m = 2, k = 3, sigma = 1.75, (1.0, 1.1]
  p.n = 300;                // smaller n keeps the plain path quick; the window is still narrow
  expect_same_on_seeds(p, 0, 60);
}

TEST(GeneratorEarlyRejection, NonSeparableWindowMatchesPlainPath) {
  ssac::GeneratorParams p;
  p.n = 301;  // uneven cluster sizes
  p.gamma_min = 0.6;
  p.gamma_max = 1.0;
  expect_same_on_seeds(p, 100, 40);
}

TEST(GeneratorEarlyRejection, HigherDimensionAndMoreClustersMatchPlainPath) {
  ssac::GeneratorParams p;
  p.n = 200;
  p.m = 10;
  p.k = 4;
  p.gamma_min = 0.9;
  p.gamma_max = std::numeric_limits<double>::infinity();
  expect_same_on_seeds(p, 0, 30);
}

// Every number of coordinates a block of add_rows's sums can hold (1 to 8, and 9 and 17 for a full
// block and a remainder): the means, and so gamma and the accepted draw, are those of the plain
// path. An accepted draw is summed in full, so every block is checked; in m = 1 and 2 some of these
// seeds also reject draws before they accept one (from m = 5 on, their first draw is accepted).
TEST(GeneratorEarlyRejection, EveryCountOfCoordinatesInABlockMatchesPlainPath) {
  ssac::GeneratorParams p;
  p.n = 90;
  p.k = 3;
  p.gamma_min = 0.4;
  p.gamma_max = 1.6;
  p.max_draws = 2000;
  for (std::size_t m : {1, 2, 3, 4, 5, 6, 7, 8, 9, 17}) {
    p.m = m;
    p.sigma = 1.75 * std::sqrt(static_cast<double>(m) / 2.0);  // gamma near 1 in every m
    for (std::uint64_t s = 0; s < 6; ++s) {
      p.seed = s;
      SCOPED_TRACE("m = " + std::to_string(m));
      expect_same(p);
    }
  }
}

// The same equality for the ziggurat stream (version 2), in 2 and in 10 dimensions.
TEST(GeneratorEarlyRejection, ZigguratStreamMatchesPlainPath) {
  ssac::GeneratorParams p;
  p.gaussians = ssac::GaussianMethod::ziggurat;
  p.n = 300;
  expect_same_on_seeds(p, 0, 40);
  p.n = 200;
  p.m = 10;
  p.k = 4;
  p.gamma_min = 0.9;
  p.gamma_max = std::numeric_limits<double>::infinity();
  expect_same_on_seeds(p, 0, 20);
}

TEST(GeneratorEarlyRejection, WindowBoundaryAtAcceptedGammaIsInclusiveAboveExclusiveBelow) {
  // Pin the window's ends to an accepted gamma: (g, ...] must skip that draw, (..., g] keep it.
  ssac::GeneratorParams p;
  p.n = 150;
  p.seed = 7;
  const Plain first = plain_generate(p);
  ASSERT_GT(first.draws, 0u);
  p.gamma_max = first.gamma;
  expect_same(p);
  EXPECT_EQ(ssac::generate(p).draws, first.draws);
  p.gamma_max = 1.1;
  p.gamma_min = first.gamma;
  expect_same(p);
  EXPECT_GT(ssac::generate(p).draws, first.draws);
}

TEST(GeneratorEarlyRejection, OneClusterHasInfiniteGamma) {
  ssac::GeneratorParams p;
  p.n = 50;
  p.k = 1;
  p.gamma_max = std::numeric_limits<double>::infinity();
  const ssac::Generated g = ssac::generate(p);
  EXPECT_TRUE(std::isinf(g.gamma));
  EXPECT_EQ(g.draws, 1u);
  expect_same(p);
}

// Version 3 (a stream per cluster) with the hull rule, which draws every cluster's first points in
// turns and abandons a draw once an outsider lies inside another cluster's points so far: the
// accepted draw, its bytes and its gamma are those of the plain path, which draws everything and
// knows nothing of the rule. At n = 1500 the rule must also have fired: without it a rejected draw
// costs at least one whole cluster and one outsider (the smallest cluster's size plus one points),
// and the points drawn fall well below that. (With small clusters the turns stop early and the
// rule saves little.)
class PerClusterStreams : public ::testing::TestWithParam<ssac::GaussianMethod> {};

TEST_P(PerClusterStreams, WithTheHullRuleMatchPlainPath) {
  ssac::GeneratorParams p;  // n = 1500, m = 2, k = 3, sigma = 1.75, (1.0, 1.1]: the rule applies
  p.gaussians = GetParam();
  ASSERT_TRUE(ssac::hull_rule_slack(p).has_value());
  for (const std::size_t n : {1500, 301, 40}) {
    p.n = n;
    std::uint64_t points = 0, without_rule = 0;
    for (std::uint64_t s = 0; s < (n == 1500 ? 12u : 40u); ++s) {
      p.seed = s;
      SCOPED_TRACE("n = " + std::to_string(n));
      expect_same(p);
      const ssac::Generated g = ssac::generate(p);
      points += g.points;
      without_rule += (g.draws - 1) * (n / 3 + 1) + n;
    }
    if (n == 1500) {
      EXPECT_LT(4 * points, 3 * without_rule);
    }
  }
}

// Where the rule does not apply, version 3 still matches the plain path: below gamma_min = 1, in
// three dimensions, with more clusters.
TEST_P(PerClusterStreams, WithoutTheRuleMatchPlainPath) {
  ssac::GeneratorParams p;
  p.gaussians = GetParam();
  p.n = 301;
  p.gamma_min = 0.6;
  p.gamma_max = 1.0;
  ASSERT_FALSE(ssac::hull_rule_slack(p).has_value());
  expect_same_on_seeds(p, 0, 30);
  p.n = 200;
  p.m = 3;
  p.k = 4;
  p.gamma_min = 1.0;
  p.gamma_max = std::numeric_limits<double>::infinity();
  ASSERT_FALSE(ssac::hull_rule_slack(p).has_value());
  expect_same_on_seeds(p, 0, 20);
}

// Versions 3 and 4's draw, written out: the centers from the draw's stream as in version 1, then
// cluster i's Gaussians, row by row and coordinate by coordinate, from Rng::stream(seed, {1, d,
// i}).
TEST_P(PerClusterStreams, DrawEachClusterFromItsOwnStream) {
  ssac::GeneratorParams p;
  p.gaussians = GetParam();
  const bool zig = p.gaussians == ssac::GaussianMethod::ziggurat_clusters;
  p.n = 11;  // clusters of 4, 4 and 3 points
  p.m = 2;
  p.k = 3;
  p.seed = 5;
  const std::uint64_t d = 2;
  const ssac::Dataset got = ssac::draw_dataset(p, d);
  ssac::Rng centers = ssac::Rng::stream(p.seed, {ssac::kStreamGenerator, d});
  double c[3][2];
  for (auto& row : c)
    for (double& x : row)
      x = -p.box + 2.0 * p.box * centers.uniform01();
  std::size_t row = 0;
  for (std::size_t i = 0; i < 3; ++i) {
    ssac::Rng own = ssac::Rng::stream(p.seed, {ssac::kStreamGenerator, d, i + 1});
    for (std::size_t j = 0; j < (i < 2 ? 4u : 3u); ++j, ++row)
      for (Eigen::Index x = 0; x < 2; ++x) {
        const double want = c[i][x] + p.sigma * (zig ? own.gaussian_ziggurat() : own.gaussian());
        EXPECT_EQ(got.points(static_cast<Eigen::Index>(row), x), want) << row << ", " << x;
      }
    EXPECT_EQ(got.labels[row - 1], static_cast<int>(i + 1));
  }
  // Versions 1 and 2 from the same seed have the same centers and other points.
  p.gaussians = zig ? ssac::GaussianMethod::ziggurat : ssac::GaussianMethod::polar;
  EXPECT_NE(ssac::draw_dataset(p, d).points(0, 0), got.points(0, 0));
}

INSTANTIATE_TEST_SUITE_P(Generator, PerClusterStreams,
                         ::testing::Values(ssac::GaussianMethod::polar_clusters,
                                           ssac::GaussianMethod::ziggurat_clusters),
                         [](const auto& info) {
                           return info.param == ssac::GaussianMethod::polar_clusters
                                      ? "PolarClusters"
                                      : "ZigguratClusters";
                         });

// The rule's premise: version 3, the plane, two clusters or more, gamma_min >= 1, and a slack that
// neither underflows nor overflows. The slack grows with sigma squared and is far below it.
TEST(GeneratorHullRule, AppliesOnlyWithinItsPremise) {
  ssac::GeneratorParams p;
  p.gaussians = ssac::GaussianMethod::polar_clusters;
  p.k = 2;
  p.gamma_min = 1.0;
  const std::optional<double> slack = ssac::hull_rule_slack(p);
  ASSERT_TRUE(slack.has_value());
  EXPECT_GT(*slack, 0.0);
  EXPECT_LT(*slack, 1e-8 * p.sigma * p.sigma);
  auto without = [&](auto change) {
    ssac::GeneratorParams q = p;
    change(q);
    return !ssac::hull_rule_slack(q).has_value();
  };
  EXPECT_TRUE(without([](auto& q) { q.gaussians = ssac::GaussianMethod::polar; }));
  EXPECT_TRUE(without([](auto& q) { q.gaussians = ssac::GaussianMethod::ziggurat; }));
  EXPECT_FALSE(without([](auto& q) { q.gaussians = ssac::GaussianMethod::ziggurat_clusters; }));
  EXPECT_TRUE(without([](auto& q) { q.m = 1; }));
  EXPECT_TRUE(without([](auto& q) { q.m = 3; }));
  EXPECT_TRUE(without([](auto& q) { q.k = 1; }));
  EXPECT_TRUE(without([](auto& q) { q.gamma_min = std::nextafter(1.0, 0.0); }));
  EXPECT_TRUE(without([](auto& q) {  // the slack would underflow
    q.sigma = 1e-300;
    q.box = 1e-300;
  }));
  EXPECT_FALSE(without([](auto& q) { q.sigma = 1e-300; }));  // the centers' rounding dominates
  EXPECT_FALSE(without([](auto& q) { q.k = 7; }));
  EXPECT_FALSE(without([](auto& q) { q.gamma_min = 2.5; }));
  EXPECT_FALSE(without([](auto& q) { q.sigma = 1e150; }));
  ssac::GeneratorParams q = p;
  q.box = 1e-3;  // the center's rounding then adds next to nothing
  q.sigma = 1.0;
  const double one = *ssac::hull_rule_slack(q);
  q.sigma = 2.0;
  EXPECT_NEAR(*ssac::hull_rule_slack(q) / one, 4.0, 1e-9);
}

// y = (0, 0) with points on both sides in both coordinates.
TEST(GeneratorHullRule, QuadrantCertificateNeedsAFarWitnessInEveryOpenQuadrant) {
  const double y[2] = {0.0, 0.0};
  const double slack = 0.01;
  // Witnesses last, behind points that count for nothing, so no early exit hides a later one.
  std::vector<double> P = {0.0, 5.0, 5.0,  0.0, -0.05, 0.05,  // on an axis; inside the slack
                           1.0, 1.0, -1.0, 2.0, -3.0,  -1.0, 2.0, -2.0};
  auto certified = [&](const std::vector<double>& pts) {
    return ssac::quadrant_certificate(pts.data(), pts.size() / 2, y, slack);
  };
  EXPECT_TRUE(certified(P));
  for (std::size_t q = 0; q < 4; ++q) {  // each quadrant's witness moved onto an axis
    std::vector<double> missing = P;
    missing[6 + 2 * q + q % 2] = 0.0;
    EXPECT_FALSE(certified(missing)) << "quadrant " << q;
  }
  // A witness at squared distance exactly the slack does not count; just beyond it does.
  std::vector<double> near = P;
  near[12] = 0.1 * std::sqrt(0.5);
  near[13] = -0.1 * std::sqrt(0.5);
  const double d2 = near[12] * near[12] + near[13] * near[13];
  EXPECT_EQ(ssac::quadrant_certificate(near.data(), near.size() / 2, y, d2), false);
  EXPECT_EQ(ssac::quadrant_certificate(near.data(), near.size() / 2, y, std::nextafter(d2, 0.0)),
            true);
  EXPECT_FALSE(certified({}));
}

// outsiders_beyond where the triangle inequality is tight: cluster t's farthest point y from mu_t
// lies on the segment towards mu_i, so y, at |mu_i - mu_t| - r_t from mu_i, is cluster i's nearest
// outsider. For gamma at, just below and just above y's computed ratio, `beyond` must never claim
// ratio > gamma falsely; returns how often it does, and how often it proves a gamma 2^-20 below
// the ratio (which a bound with room of a few 2^-30 must).
struct BeyondCheck {
  int false_claims = 0, proved = 0, cases = 0;
};
template <class Beyond>
BeyondCheck check_beyond(Beyond beyond) {
  BeyondCheck out;
  ssac::Rng rng(515);
  for (std::size_t m : {2u, 10u}) {
    for (int trial = 0; trial < 4000; ++trial) {
      std::vector<double> mu_i(m), mu_t(m), y(m);
      for (std::size_t c = 0; c < m; ++c) {
        mu_i[c] = 20.0 * rng.uniform01() - 10.0;
        mu_t[c] = 20.0 * rng.uniform01() - 10.0;
      }
      const double share = 0.05 + 0.9 * rng.uniform01();  // y's place on the segment
      for (std::size_t c = 0; c < m; ++c)
        y[c] = mu_t[c] + share * (mu_i[c] - mu_t[c]);
      const auto dist = [m](const std::vector<double>& a, const std::vector<double>& b) {
        double s = 0.0;
        for (std::size_t c = 0; c < m; ++c)
          s += (a[c] - b[c]) * (a[c] - b[c]);
        return std::sqrt(s);
      };
      const double r_t = dist(y, mu_t);
      const double r_i = 0.2 + 3.0 * rng.uniform01();
      const double ratio = ssac::cluster_ratio(r_i, dist(y, mu_i));
      for (const double gamma :
           {ratio, std::nextafter(ratio, 0.0), std::nextafter(ratio, 1e300), ratio * (1 - 0x1p-40),
            ratio * (1 - 0x1p-30), ratio * (1 + 0x1p-40)}) {
        ++out.cases;
        out.false_claims +=
            beyond(mu_i.data(), mu_t.data(), m, r_t, r_i, gamma) && !(ratio > gamma);
      }
      out.proved += beyond(mu_i.data(), mu_t.data(), m, r_t, r_i, ratio * (1 - 0x1p-20));
    }
  }
  return out;
}

TEST(GeneratorEarlyRejection, OutsidersBeyondNeverClaimsTooMuch) {
  const BeyondCheck c = check_beyond(ssac::outsiders_beyond);
  EXPECT_EQ(c.false_claims, 0) << "of " << c.cases;
  EXPECT_EQ(c.proved, 8000);
}

// Negative control: the same bound without its room for rounding (D~ - r_t > gamma r_i) claims a
// ratio above gamma where it is not.
TEST(GeneratorEarlyRejection, TheBeyondCheckCatchesABoundWithoutRoom) {
  const auto bare = [](const double* mu_i, const double* mu_t, std::size_t m, double r_t,
                       double r_i, double gamma) {
    double d2 = 0.0;
    for (std::size_t c = 0; c < m; ++c)
      d2 += (mu_i[c] - mu_t[c]) * (mu_i[c] - mu_t[c]);
    return std::sqrt(d2) - r_t > gamma * r_i;
  };
  EXPECT_GT(check_beyond(bare).false_claims, 0);
}

// The last cluster's bound (ratios_exceed_window) decides most rejected draws of windows whose
// upper end lies among the draws' gammas: the accepted draws must still be the plain path's.
TEST(GeneratorEarlyRejection, UpperEndOfTheWindowMatchesPlainPath) {
  ssac::GeneratorParams p;
  p.n = 300;
  p.m = 10;
  p.k = 3;
  p.gamma_min = 1.2;
  p.gamma_max = 1.5;
  expect_same_on_seeds(p, 0, 12);
  p.m = 2;
  p.gamma_min = 1.0;
  p.gamma_max = 1.2;
  p.gaussians = ssac::GaussianMethod::ziggurat_clusters;
  expect_same_on_seeds(p, 0, 12);
}

TEST(GeneratorStreams, NamesListEveryVersion) {
  EXPECT_EQ(ssac::gaussian_method_names(),
            (std::vector<std::string>{"polar", "ziggurat", "polar-clusters", "ziggurat-clusters"}));
  for (const std::string& name : ssac::gaussian_method_names())
    EXPECT_EQ(ssac::to_string(ssac::parse_gaussian_method("--gaussians", name)), name);
  try {
    ssac::parse_gaussian_method("--gaussians", "box-muller");
    FAIL() << "accepted";
  } catch (const ssac::ParameterError& e) {
    EXPECT_STREQ(e.what(),
                 "--gaussians: 'box-muller' is not a Gaussian method (polar | ziggurat | "
                 "polar-clusters | ziggurat-clusters)");
  }
}

TEST(GeneratorEarlyRejection, UnreachableWindowIsADataError) {
  ssac::GeneratorParams p;
  p.n = 30;
  p.gamma_min = 50.0;
  p.gamma_max = 60.0;
  p.max_draws = 20;
  EXPECT_THROW(ssac::generate(p), ssac::DataError);
}

}  // namespace
