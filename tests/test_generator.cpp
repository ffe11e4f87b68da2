#include <gtest/gtest.h>

#include "ssac/error.hpp"
#include "ssac/generator.hpp"

using namespace ssac;

TEST(Generator, SplitsPointsAsEvenlyAsPossible) {
  GeneratorParams p;
  p.n = 11;
  p.k = 4;
  p.m = 3;
  p.gamma_min = 0.0;
  p.gamma_max = std::numeric_limits<double>::infinity();
  const Generated g = generate(p);
  // 11 = 4 * 2 + 3: the first three clusters get 3 points, the last 2; rows are grouped.
  EXPECT_EQ(g.data.labels, (std::vector<int>{1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4}));
  EXPECT_EQ(g.data.m(), 3u);
  EXPECT_EQ(g.draws, 1u);
}

TEST(Generator, KeepsOnlyDrawsInsideTheWindow) {
  for (std::uint64_t seed = 0; seed < 20; ++seed) {
    GeneratorParams p;
    p.n = 300;
    p.seed = seed;
    const Generated g = generate(p);
    EXPECT_GT(g.gamma, 1.0);
    EXPECT_LE(g.gamma, 1.1);
    EXPECT_EQ(cluster_stats(g.data.points, g.data.labels).gamma, g.gamma);
    // Every earlier draw was outside the window: the generator took the first acceptable one.
    for (std::uint64_t d = 0; d + 1 < g.draws; ++d) {
      const Dataset rejected = draw_dataset(p, d);
      const double gr = cluster_stats(rejected.points, rejected.labels).gamma;
      EXPECT_TRUE(!(gr > 1.0 && gr <= 1.1));
    }
  }
}

TEST(Generator, SameSeedSameBytesAndCentersInTheBox) {
  GeneratorParams p;
  p.n = 200;
  p.seed = 99;
  const std::string a = format_csv(generate(p).data), b = format_csv(generate(p).data);
  EXPECT_EQ(a, b);
  p.seed = 100;
  EXPECT_NE(a, format_csv(generate(p).data));
  // With a tiny sigma every point sits next to its center, which is uniform in [-10, 10]^m.
  p.sigma = 1e-9;
  p.gamma_min = 0;
  p.gamma_max = std::numeric_limits<double>::infinity();
  const Dataset d = generate(p).data;
  EXPECT_LE(d.points.cwiseAbs().maxCoeff(), 10.0 + 1e-6);
}

TEST(Generator, UnreachableWindowIsAClearError) {
  GeneratorParams p;
  p.n = 100;
  p.sigma = 0.01;  // far-apart tight clusters: gamma is large, never in (1, 1.0001]
  p.gamma_max = 1.0001;
  p.max_draws = 5;
  try {
    generate(p);
    FAIL();
  } catch (const DataError& e) {
    EXPECT_NE(std::string(e.what()).find("no draw in 5 had its gamma-margin in (1, 1.0001]"),
              std::string::npos)
        << e.what();
  }
}

TEST(Generator, ParametersOutsideTheirRangeAreNamed) {
  auto expect = [](GeneratorParams p, const std::string& msg) {
    try {
      p.check();
      ADD_FAILURE() << msg;
    } catch (const ParameterError& e) {
      EXPECT_EQ(std::string(e.what()), msg);
    }
  };
  GeneratorParams p;
  p.n = 1;
  expect(p, "n = 1 is outside its admissible range [2, 100000000]");
  p = {};
  p.k = 0;
  expect(p, "k = 0 is outside its admissible range [1, n] = [1, 1500]");
  p = {};
  p.sigma = -1;
  expect(p, "std = -1 is outside its admissible range (0, inf)");
  p = {};
  p.gamma_max = 0.5;
  expect(p, "gamma-max = 0.5 is outside its admissible range (gamma-min, inf] = (1, inf]");
}
