// The statistics of `ssac calibrate` (theory/include/ssac/theory/calibrate.hpp): the exact
// Clopper-Pearson bound against its defining equation, the rep plan's power and false-pass rate
// recomputed from binomial sums, the rise test, and the grid scan with deterministic stand-ins
// for the simulation (non-monotone rates, a re-check that fails, nothing passing).
#include <gtest/gtest.h>

#include <cmath>

#include "ssac/error.hpp"
#include "ssac/theory/calibrate.hpp"

namespace {

using ssac::theory::Counts;

// P(Bin(n, p) <= x), summed term by term in long double (independent of Boost).
long double cdf(std::uint64_t x, std::uint64_t n, long double p) {
  long double term = std::pow(1.0L - p, static_cast<long double>(n)), sum = 0;  // P(X = 0)
  for (std::uint64_t i = 0; i <= x && i <= n; ++i) {
    sum += term;
    term *= static_cast<long double>(n - i) / static_cast<long double>(i + 1) * p / (1.0L - p);
  }
  return sum;
}

TEST(Calibrate, ClopperPearsonUpperSolvesItsEquation) {
  // Zero failures: the bound is 1 - alpha^(1/n) in closed form.
  EXPECT_NEAR(ssac::theory::clopper_pearson_upper(0, 100, 0.05), 1 - std::pow(0.05, 0.01), 1e-12);
  for (std::uint64_t x : {1u, 3u, 22u}) {
    const double u = ssac::theory::clopper_pearson_upper(x, 624, 0.05);
    EXPECT_NEAR(static_cast<double>(cdf(x, 624, u)), 0.05, 1e-9) << x;
    // Negative control: a bound a little lower leaves more than alpha below x.
    EXPECT_GT(static_cast<double>(cdf(x, 624, u * 0.98)), 0.05) << x;
  }
  EXPECT_EQ(ssac::theory::clopper_pearson_upper(5, 5, 0.05), 1.0);
  EXPECT_THROW(ssac::theory::clopper_pearson_upper(6, 5, 0.05), ssac::ParameterError);
  EXPECT_THROW(ssac::theory::clopper_pearson_upper(0, 5, 1.0), ssac::ParameterError);
}

TEST(Calibrate, RepPlanIsTheSmallestNWithThePower) {
  const auto plan = ssac::theory::rep_plan(0.05, 0.05, 0.95);
  const std::uint64_t n = plan.reps, c = plan.max_failures;
  // c is the largest count whose bound is <= delta.
  EXPECT_LE(ssac::theory::clopper_pearson_upper(c, n, 0.05), 0.05);
  EXPECT_GT(ssac::theory::clopper_pearson_upper(c + 1, n, 0.05), 0.05);
  // The power and the false-pass rate, recomputed.
  EXPECT_NEAR(plan.power_at_half, static_cast<double>(cdf(c, n, 0.025L)), 1e-9);
  EXPECT_GE(plan.power_at_half, 0.95);
  EXPECT_NEAR(plan.false_pass_at_delta, static_cast<double>(cdf(c, n, 0.05L)), 1e-9);
  EXPECT_LE(plan.false_pass_at_delta, 0.05);
  // No smaller N reaches the power (checked from the definition for every smaller N).
  for (std::uint64_t m = 1; m < n; ++m) {
    long long cm = -1;
    while (cm + 1 < static_cast<long long>(m) &&
           ssac::theory::clopper_pearson_upper(static_cast<std::uint64_t>(cm + 1), m, 0.05) <= 0.05)
      ++cm;
    if (cm >= 0) {
      EXPECT_LT(static_cast<double>(cdf(static_cast<std::uint64_t>(cm), m, 0.025L)), 0.95) << m;
    }
  }
  EXPECT_THROW(ssac::theory::rep_plan(0.0, 0.05), ssac::ParameterError);
  EXPECT_THROW(ssac::theory::rep_plan(0.05, 0.05, 0.95, 10), ssac::ParameterError);
}

TEST(Calibrate, RiseTestIsTheConditionalBinomialTail) {
  EXPECT_EQ(ssac::theory::rise_p_value(0, 0), 1.0);
  EXPECT_EQ(ssac::theory::rise_p_value(7, 0), 1.0);
  // a = 2, b = 10: P(Bin(12, 1/2) >= 10) = (66 + 12 + 1) / 4096.
  EXPECT_NEAR(ssac::theory::rise_p_value(2, 10), 79.0 / 4096.0, 1e-12);
  // Equal counts are no evidence of a rise.
  EXPECT_GT(ssac::theory::rise_p_value(10, 10), 0.5);
}

// A deterministic stand-in: the event count of every value is given for the scan (the first
// call); re-check number a (a later call, one value) sees recheck_counts[a - 1].
ssac::theory::Counter stand_in(std::vector<std::uint64_t> counts,
                               std::vector<std::uint64_t> recheck_counts,
                               std::vector<std::uint64_t>* seeds) {
  return [=](const std::vector<double>& values, std::uint64_t seed, std::uint64_t) {
    seeds->push_back(seed);
    std::vector<Counts> out;
    if (seeds->size() > 1) {
      EXPECT_EQ(values.size(), 1u);
      out.push_back({recheck_counts.at(seeds->size() - 2), 0, 0});
      return out;
    }
    for (std::uint64_t c : counts)
      out.push_back({c, 0, 0});
    return out;
  };
}

TEST(Calibrate, ScanPicksTheSmallestPassingValueAndRechecksOnAFreshSeed) {
  std::vector<std::uint64_t> seeds;
  const auto plan = ssac::theory::rep_plan(0.05, 0.05);
  const std::uint64_t c = plan.max_failures;
  const auto cal = ssac::theory::calibrate({1, 2, 5, 10}, 0.05, 0.05, 7,
                                           stand_in({300, c + 1, c, 0}, {3}, &seeds));
  ASSERT_TRUE(cal.chosen.has_value());
  EXPECT_EQ(*cal.chosen, 2u);  // c failures pass, c + 1 do not
  ASSERT_TRUE(cal.confirmed.has_value());
  EXPECT_EQ(*cal.confirmed, 2u);
  ASSERT_EQ(cal.rechecks.size(), 1u);
  EXPECT_EQ(cal.rechecks[0].value, 5.0);
  EXPECT_TRUE(cal.rechecks[0].pass);
  ASSERT_EQ(seeds.size(), 2u);
  EXPECT_EQ(seeds[0], 7u);
  EXPECT_EQ(seeds[1], ssac::theory::recheck_seed(7, 1));
  EXPECT_NE(seeds[1], seeds[0]);
  EXPECT_TRUE(cal.rises.empty());
  EXPECT_TRUE(cal.pass_then_fail.empty());
}

TEST(Calibrate, NonMonotoneRatesAndFailedRechecksAreReported) {
  std::vector<std::uint64_t> seeds;
  // Passing at 2, failing (significantly higher) at 5, passing again at 10 and 20. The re-check
  // of 2 fails, that of 10 passes: 10 is the confirmed value.
  const auto cal = ssac::theory::calibrate({1, 2, 5, 10, 20}, 0.05, 0.05, 1,
                                           stand_in({100, 2, 60, 1, 0}, {200, 4}, &seeds));
  ASSERT_TRUE(cal.chosen.has_value());
  EXPECT_EQ(cal.grid[*cal.chosen].value, 2.0);
  ASSERT_EQ(cal.rises.size(), 1u);
  EXPECT_EQ(cal.rises[0].from, 1u);
  EXPECT_EQ(cal.rises[0].to, 2u);
  EXPECT_EQ(cal.pass_then_fail, (std::vector<std::size_t>{1}));
  ASSERT_EQ(cal.rechecks.size(), 2u);
  EXPECT_FALSE(cal.rechecks[0].pass);  // the re-check's own bound is what counts
  EXPECT_EQ(cal.rechecks[1].value, 10.0);
  ASSERT_TRUE(cal.confirmed.has_value());
  EXPECT_EQ(cal.grid[*cal.confirmed].value, 10.0);
  EXPECT_NE(cal.recheck_seeds[0], cal.recheck_seeds[1]);
  // With at most one re-check allowed, nothing is confirmed.
  seeds.clear();
  const auto one = ssac::theory::calibrate({1, 2, 5, 10, 20}, 0.05, 0.05, 1,
                                           stand_in({100, 2, 60, 1, 0}, {200}, &seeds), 0.95, 1);
  EXPECT_EQ(one.rechecks.size(), 1u);
  EXPECT_FALSE(one.confirmed.has_value());
}

TEST(Calibrate, NothingPassing) {
  std::vector<std::uint64_t> seeds;
  const auto cal = ssac::theory::calibrate({1, 2}, 0.05, 0.05, 1, stand_in({500, 400}, {}, &seeds));
  EXPECT_FALSE(cal.chosen.has_value());
  EXPECT_TRUE(cal.rechecks.empty());
  EXPECT_EQ(seeds.size(), 1u);  // no re-check was run
  EXPECT_THROW(ssac::theory::calibrate({2, 1}, 0.05, 0.05, 1, stand_in({0, 0}, {}, &seeds)),
               ssac::ParameterError);
}

}  // namespace
