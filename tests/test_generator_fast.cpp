// Differential test of the generator's early rejection (lib/src/data/generator.cpp): generate()
// must accept exactly the draw, the dataset bytes and the gamma that the plain path -- draw every
// dataset in full with draw_dataset(), compute its gamma-margin with cluster_stats() (Definition 2)
// and test the window -- accepts.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include "ssac/data.hpp"
#include "ssac/error.hpp"
#include "ssac/generator.hpp"

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

TEST(GeneratorEarlyRejection, PaperMainWindowMatchesPlainPathOn60Seeds) {
  ssac::GeneratorParams p;  // n = 1500, m = 2, k = 3, sigma = 1.75, (1.0, 1.1]
  p.n = 300;                // smaller n keeps the plain path quick; the window is still narrow
  for (std::uint64_t s = 0; s < 60; ++s) {
    p.seed = s;
    expect_same(p);
  }
}

TEST(GeneratorEarlyRejection, NonSeparableWindowMatchesPlainPath) {
  ssac::GeneratorParams p;
  p.n = 301;  // uneven cluster sizes
  p.gamma_min = 0.6;
  p.gamma_max = 1.0;
  for (std::uint64_t s = 100; s < 140; ++s) {
    p.seed = s;
    expect_same(p);
  }
}

TEST(GeneratorEarlyRejection, HigherDimensionAndMoreClustersMatchPlainPath) {
  ssac::GeneratorParams p;
  p.n = 200;
  p.m = 10;
  p.k = 4;
  p.gamma_min = 0.9;
  p.gamma_max = std::numeric_limits<double>::infinity();
  for (std::uint64_t s = 0; s < 30; ++s) {
    p.seed = s;
    expect_same(p);
  }
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
  for (std::uint64_t s = 0; s < 40; ++s) {
    p.seed = s;
    expect_same(p);
  }
  p.n = 200;
  p.m = 10;
  p.k = 4;
  p.gamma_min = 0.9;
  p.gamma_max = std::numeric_limits<double>::infinity();
  for (std::uint64_t s = 0; s < 20; ++s) {
    p.seed = s;
    expect_same(p);
  }
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

TEST(GeneratorEarlyRejection, UnreachableWindowIsADataError) {
  ssac::GeneratorParams p;
  p.n = 30;
  p.gamma_min = 50.0;
  p.gamma_max = 60.0;
  p.max_draws = 20;
  EXPECT_THROW(ssac::generate(p), ssac::DataError);
}

}  // namespace
