// Unit tests of theory/: every bound against an independent evaluation of the paper's expression
// in its naive form at 500 decimal digits (where the naive form is exact enough), the certified
// ceilings, the numerically hard corners (gamma near 1, q near 0 and 1, tiny delta) where naive
// double forms fail, monotonicity, the q = 1 limits and the error paths.
#include <gtest/gtest.h>

#include <algorithm>
#include <boost/multiprecision/cpp_bin_float.hpp>
#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "reference.hpp"
#include "ssac/error.hpp"
#include "ssac/theory/bounds.hpp"

namespace {

using namespace theory_test;

struct Point {
  long long k, m, n;
  double delta, gamma, q;
};

// The grid of parameters, with the hard corners gamma = 1+1e-9, q = 1e-12, q = 1-1e-12 and
// delta = 1e-300.
std::vector<Point> grid() {
  std::vector<Point> g;
  for (long long k : {1LL, 2LL, 3LL, 10LL})
    for (long long m : {1LL, 2LL, 1000LL})
      for (double delta : {0.5, 0.05, 1e-300})
        for (double gamma : {1.0 + 1e-9, 1.001, 1.5, 2.0, 7.0})
          for (double q : {1e-12, 0.3, 0.9, 1.0 - 1e-12, 1.0})
            g.push_back({k, m, 1000, delta, gamma, q});
  return g;
}

TEST(Theory, EtaRandomMatchesNaive500DigitsInBothTypes) {
  for (const auto& p : grid()) {
    const Ref ref = ref_eta_random(p.k, p.m, p.delta, p.gamma, p.q);
    const Real50 v50 = eta_random<Real50>(p.k, p.m, Real50(p.delta), Real50(p.gamma), Real50(p.q));
    EXPECT_LT(rel(Ref(v50), ref), 1e-40)
        << p.k << " " << p.m << " " << p.delta << " " << p.gamma << " " << p.q;
    const double vd = eta_random<double>(p.k, p.m, p.delta, p.gamma, p.q);
    // The double result overflows only where the true value exceeds the double range.
    if (ref < Ref(1e300)) {
      EXPECT_LT(rel(Ref(vd), ref), 1e-13)
          << p.k << " " << p.m << " " << p.delta << " " << p.gamma << " " << p.q;
    } else if (ref > Ref(std::numeric_limits<double>::max())) {
      EXPECT_TRUE(std::isinf(vd));
    }
  }
}

TEST(Theory, EtaPerfectPinelisAndBetaMatchNaive500Digits) {
  for (const auto& p : grid()) {
    const Ref ep = ref_eta_perfect(p.k, p.m, p.delta, p.gamma);
    EXPECT_LT(rel(Ref(eta_perfect<double>(p.k, p.m, p.delta, p.gamma)), ep), 1e-14);
    EXPECT_LT(rel(Ref(eta_perfect<Real50>(p.k, p.m, Real50(p.delta), Real50(p.gamma))), ep), 1e-45);
    const Ref pp = ref_eta_perfect(p.k, p.m, p.delta, p.gamma, Ref(2));
    EXPECT_LT(rel(Ref(eta_perfect_pinelis<Real50>(p.k, Real50(p.delta), Real50(p.gamma))), pp),
              1e-45);
    const Ref rp = ref_eta_random(p.k, p.m, p.delta, p.gamma, p.q, Ref(2));
    EXPECT_LT(
        rel(Ref(eta_random_pinelis<Real50>(p.k, Real50(p.delta), Real50(p.gamma), Real50(p.q))),
            rp),
        1e-40);
    if (p.q < 1) {
      const Ref br = ref_beta(p.k, log(Ref(p.n)), p.delta, p.q);
      EXPECT_LT(rel(Ref(beta_random<double>(p.k, p.n, p.delta, p.q)), br), 1e-13) << p.q;
      EXPECT_LT(rel(Ref(beta_random<Real50>(p.k, p.n, Real50(p.delta), Real50(p.q))), br), 1e-45);
      const Ref bu = ref_beta(p.k, Ref(search_steps(p.n)), p.delta, p.q);
      EXPECT_LT(rel(Ref(beta_union<double>(p.k, p.n, p.delta, p.q)), bu), 1e-13) << p.q;
    }
  }
}

TEST(Theory, NaiveDoubleFormsFailWhereStableFormsHold) {
  // gamma = 1+1e-9: 1 - e^{-(gamma-1)^2/8} is 0 in double, so the naive denominator is 0.
  const double g = 1e-9, q = 0.9;
  const double naive = std::log(1 / (1 - q + q * std::exp(-g * g / 8)));
  EXPECT_EQ(naive, 0.0);
  const Ref ref = ref_eta_random(3, 2, 0.05, 1 + g, q);
  EXPECT_LT(rel(Ref(eta_random<double>(3, 2, 0.05, 1 + g, q)), ref), 1e-13);
  // q = 1e-12: log(1/(1-q)) in double keeps only about 4 digits.
  const double qs = 1e-12;
  const Ref bref = ref_beta(2, log(Ref(1000)), 0.05, qs);
  const double naive_beta =
      (std::log(4.0) + std::log(std::log(1000.0)) + std::log(1 / 0.05)) / std::log(1 / (1 - qs));
  EXPECT_GT(rel(Ref(naive_beta), bref), 1e-6);
  EXPECT_LT(rel(Ref(beta_random<double>(2, 1000, 0.05, qs)), bref), 1e-14);
}

TEST(Theory, CertifiedCeilingsAreExactIntegersAbove2To64) {
  for (const auto& p : grid()) {
    const Inputs in{p.k, p.m, p.n, p.delta, p.gamma, p.q};
    const Certified c = certified_eta_random(in);
    Ref500 ref = ref_eta_random(p.k, p.m, p.delta, p.gamma, p.q);
    // Above 1e60 the 200-digit naive reference no longer fixes every integer digit: 500 digits.
    if (ref > 1e60) ref = ref_eta_random<Ref500>(p.k, p.m, p.delta, p.gamma, p.q);
    ASSERT_TRUE(c.ceil.has_value());
    EXPECT_EQ(*c.ceil, floor(ref).convert_to<BigInt>() + 1);
    const Certified e = certified_eta_perfect(in);
    EXPECT_EQ(*e.ceil, floor(ref_eta_perfect(p.k, p.m, p.delta, p.gamma)).convert_to<BigInt>() + 1);
  }
  // gamma = 1+1e-9, k = 1, m = 2: 8 (log 3 + log 20) / 1e-18 ~ 3.3e19 > 2^64 ~ 1.8e19.
  const Certified big = certified_eta_perfect({1, 2, 1000, 0.05, 1 + 1e-9, 1});
  EXPECT_GT(*big.ceil, BigInt(1) << 64);
  EXPECT_EQ(big.digits, 50);
  // q = 1e-12, k = 10: q^9 = 1e-108 makes eta about 2.3e110: the 150-digit rung certifies it.
  // The reference is the naive form at 500 digits: 1 - 1e-108 (1 - e^{-1/32}) keeps about 390
  // digits, more than the 111 integer digits to be fixed.
  const Certified huge = certified_eta_random({10, 2, 1000, 0.05, 1.5, 1e-12});
  ASSERT_TRUE(huge.ceil.has_value());
  EXPECT_EQ(huge.digits, 150);
  EXPECT_EQ(*huge.ceil,
            floor(ref_eta_random<Ref500>(10, 2, 0.05, 1.5, 1e-12)).convert_to<BigInt>() + 1);
  EXPECT_GT(*huge.ceil, pow(BigInt(10), 110));
}

TEST(Theory, QEqualsOneLimits) {
  for (const auto& p : grid()) {
    // Theorem 1 at q = 1 allots delta/(2k) to Phase 1, the remark delta/k: the difference is
    // exactly 8 log 2 / (gamma-1)^2.
    const Real50 d = eta_random<Real50>(p.k, p.m, Real50(p.delta), Real50(p.gamma), Real50(1)) -
                     eta_perfect<Real50>(p.k, p.m, Real50(p.delta), Real50(p.gamma));
    const Ref g = Ref(p.gamma) - 1;
    EXPECT_LT(rel(Ref(d), 8 * log(Ref(2)) / (g * g)), 1e-35);
  }
  EXPECT_EQ(beta_random<double>(3, 100, 0.05, 1.0), 0.0);
  const Certified b = certified_beta_random({3, 1, 100, 0.05, 1.5, 1.0});
  EXPECT_EQ(b.value, 0);
  EXPECT_EQ(*b.ceil, 1);  // one query per search step still has to be asked
  EXPECT_EQ(*certified_beta_union({3, 1, 100, 0.05, 1.5, 1.0}).ceil, 1);
  // Continuity of eta at q -> 1.
  const double e1 = eta_random<double>(3, 2, 0.05, 1.1, 1.0);
  const double e2 = eta_random<double>(3, 2, 0.05, 1.1, 1.0 - 1e-12);
  EXPECT_LT(std::abs(e2 - e1) / e1, 1e-9);
  EXPECT_GT(e2, e1);
}

TEST(Theory, Monotonicity) {
  // eta decreases in q and gamma, increases in k, m and 1/delta; beta decreases in q.
  const std::vector<double> qs = {1e-12, 1e-3, 0.3, 0.5, 0.9, 1 - 1e-12, 1.0};
  const std::vector<double> gs = {1 + 1e-9, 1.01, 1.5, 3.0};
  for (double g : gs)
    for (std::size_t i = 1; i < qs.size(); ++i) {
      EXPECT_GT(eta_random<Real50>(3, 2, Real50(0.05), Real50(g), Real50(qs[i - 1])),
                eta_random<Real50>(3, 2, Real50(0.05), Real50(g), Real50(qs[i])));
      if (qs[i] < 1) {
        EXPECT_GT(beta_random<double>(3, 1000, 0.05, qs[i - 1]),
                  beta_random<double>(3, 1000, 0.05, qs[i]));
      }
    }
  for (double q : qs) {
    for (std::size_t i = 1; i < gs.size(); ++i)
      EXPECT_GT(eta_random<double>(3, 2, 0.05, gs[i - 1], q),
                eta_random<double>(3, 2, 0.05, gs[i], q));
    for (long long k = 1; k < 8; ++k)
      EXPECT_LT(eta_random<double>(k, 2, 0.05, 1.2, q), eta_random<double>(k + 1, 2, 0.05, 1.2, q));
    for (long long m = 1; m < 8; ++m)
      EXPECT_LT(eta_random<double>(3, m, 0.05, 1.2, q), eta_random<double>(3, m + 1, 0.05, 1.2, q));
    EXPECT_LT(eta_random<double>(3, 2, 0.5, 1.2, q), eta_random<double>(3, 2, 0.05, 1.2, q));
    EXPECT_LT(eta_random<double>(3, 2, 0.05, 1.2, q), eta_random<double>(3, 2, 1e-300, 1.2, q));
  }
}

TEST(Theory, AssignmentProbabilitiesOrdered) {
  for (long long k = 1; k <= 12; ++k)
    for (double q : {1e-12, 0.01, 0.3, 0.5, 0.9, 1 - 1e-12, 1.0}) {
      const Real50 Q(q);
      const Real50 ex = assign_success_exact<Real50>(k, Q);
      const Real50 pa = assign_success_paper<Real50>(k, Q);
      const Real50 lo = assign_success_lower<Real50>(k, Q);
      // References: q + (1-q) q^(k-1), k(1-q)q^(k-1) + q^k, q^(k-1) at 500 digits.
      const Ref R(q);
      EXPECT_LT(rel(Ref(ex), R + (1 - R) * pow(R, k - 1)), 1e-45);
      EXPECT_LT(rel(Ref(pa), k * (1 - R) * pow(R, k - 1) + pow(R, k)), 1e-45);
      EXPECT_LT(rel(Ref(lo), pow(R, k - 1)), 1e-45);
      EXPECT_GE(ex, pa);
      EXPECT_GE(pa, lo);
      if (k <= 2) {
        EXPECT_LT(rel(Ref(ex), Ref(pa)), 1e-45) << k << " " << q;
      }
      if (k >= 3 && q < 1 && q > 1e-6) {
        EXPECT_GT(ex, pa) << k << " " << q;
      }
      if (k >= 2 && q < 1 && q > 1e-6) {
        EXPECT_GT(pa, lo) << k << " " << q;
      }
      if (k == 1) {
        EXPECT_EQ(ex, 1);
        EXPECT_EQ(lo, 1);
        EXPECT_LT(rel(Ref(pa), Ref(1)), 1e-45);
      }
    }
}

// Direct sum of Lemma distance_ran's proof, term by term with exact binomial coefficients:
// sum_{l=0..s} C(s,l) qa^l (1-qa)^(s-l) min(1, H e^{-l (gamma-1)^2/8}).
Ref direct_tail(long long s, const Ref& qa, double gamma, const Ref& H) {
  const Ref g = Ref(gamma) - 1;
  Ref sum = 0;
  BigInt binom = 1;
  for (long long l = 0; l <= s; ++l) {
    const Ref h = H * exp(-Ref(l) * g * g / 8);
    sum += Ref(binom) * pow(qa, l) * pow(1 - qa, s - l) * (h < 1 ? h : Ref(1));
    binom = binom * (s - l) / (l + 1);
  }
  return sum;
}

TEST(Theory, BinomialTailMatchesDirectSum) {
  for (double gamma : {1.5, 2.0, 4.0})
    for (double q : {0.4, 0.9, 1.0})
      for (long long s : {0LL, 1LL, 7LL, 60LL, 200LL}) {
        const Real50 qa = pow(Real50(q), 2);
        const Real50 t = binomial_tail(BigInt(s), qa, Real50(gamma), Real50(4));
        EXPECT_LT(rel(Ref(t), direct_tail(s, pow(Ref(q), 2), gamma, Ref(4))), 1e-35)
            << gamma << " " << q << " " << s;
      }
}

TEST(Theory, BinomialEtaIsTheSmallestSizeAndBeatsTheClosedForm) {
  for (double gamma : {1.5, 2.0, 3.0})
    for (double q : {0.5, 0.9, 1.0})
      for (bool pinelis : {false, true}) {
        const Inputs in{3, 3, 1000, 0.05, gamma, q};
        const auto b = eta_random_binomial(in, pinelis);
        ASSERT_TRUE(b.has_value());
        const Certified closed =
            pinelis ? certified_eta_random_pinelis(in) : certified_eta_random(in);
        EXPECT_LE(b->s, *closed.ceil);
        const long long s = b->s.convert_to<long long>();
        const Ref H = pinelis ? Ref(2) : Ref(4);
        const Ref qa = pow(Ref(q), 2), target = Ref(0.05) / 6;
        EXPECT_LE(direct_tail(s, qa, gamma, H), target);
        EXPECT_GT(direct_tail(s - 1, qa, gamma, H), target);
      }
  // At a tight margin the sum is evaluated through Boost's binomial distribution with ~1e18
  // trials; the result is still below the closed form.
  const Inputs tight{3, 2, 1000, 0.05, 1 + 1e-9, 0.9};
  const auto b = eta_random_binomial(tight, false);
  ASSERT_TRUE(b.has_value());
  // Here almost all mass of Bin(s, 0.81) lies far beyond the cap j0 = log 3 / c, so the sum
  // equals the closed form to within its rounding: no improvement, and no loss.
  EXPECT_LE(b->s, *certified_eta_random(tight).ceil);
  EXPECT_LE(b->tail, Real50(0.05) / 6);
  EXPECT_GT(b->tail_prev, Real50(0.05) / 6);
}

TEST(Theory, PinelisNeverWorseAndEqualAtMOne) {
  for (const auto& p : grid()) {
    const Inputs in{p.k, p.m, p.n, p.delta, p.gamma, p.q};
    EXPECT_LE(*certified_eta_random_pinelis(in).ceil, *certified_eta_random(in).ceil);
    EXPECT_LE(*certified_eta_perfect_pinelis(in).ceil, *certified_eta_perfect(in).ceil);
    if (p.m == 1) {
      EXPECT_EQ(*certified_eta_random_pinelis(in).ceil, *certified_eta_random(in).ceil);
    }
  }
}

TEST(Theory, SearchStepsMatchTheBinarySearchOfTheLibrary) {
  // Run::search's loop: probe floor((lo+hi)/2), move lo or hi; the worst case over all answer
  // sequences is the longest path, explored here by always taking the larger half.
  for (long long n = 2; n <= 5000; ++n) {
    long long lo = 0, hi = n - 1, steps = 0;
    while (lo <= hi) {
      const long long j = lo + (hi - lo) / 2;
      ++steps;
      if (hi - j >= j - lo)
        lo = j + 1;
      else
        hi = j - 1;
    }
    EXPECT_EQ(search_steps(n), steps) << n;
    EXPECT_GT(static_cast<double>(steps), std::log(static_cast<double>(n)));
  }
}

TEST(Theory, BetaUnionNeedsAtLeastThePapersBeta) {
  // bit_width(n) > ln n, so the direct union bound is never below Theorem 1's closed form.
  for (const auto& p : grid()) {
    const Inputs in{p.k, p.m, p.n, p.delta, p.gamma, p.q};
    EXPECT_GE(*certified_beta_union(in).ceil, *certified_beta_random(in).ceil);
  }
  // And it can be strictly larger: q = 0.5, k = 1, n = 2, delta = 0.05 gives
  // log(2 ln 2 / 0.05) / ln 2 = 4.79 -> 5 against log(2 * 2 / 0.05) / ln 2 = 6.32 -> 7.
  const Inputs in{1, 1, 2, 0.05, 1.5, 0.5};
  EXPECT_EQ(*certified_beta_random(in).ceil, 5);
  EXPECT_EQ(*certified_beta_union(in).ceil, 7);
  EXPECT_GT(*certified_beta_union(in).ceil, *certified_beta_random(in).ceil);
}

TEST(Theory, Corollary1Counts) {
  const Corollary1Counts c = corollary1_counts(3, 2, 1000, BigInt(50), BigInt(7));
  // k (k (k eta) + beta bit_width(n)) = 3 (3 * 150 + 7 * 10)
  EXPECT_EQ(c.queries, BigInt(3 * (3 * 150 + 7 * 10)));
  EXPECT_EQ(c.distance_evaluations, BigInt(3000));
  EXPECT_EQ(c.flops, BigInt(3 * 1000 * 6));
  // The corollary's expression at q = 1 has no beta term: k^2 (log k + log m + log 1/delta) /
  // (gamma-1)^2.
  const Ref g = Ref(0.5);
  EXPECT_LT(
      rel(Ref(corollary1_expression<Real50>(3, 2, 1000, Real50(0.05), Real50(1.5), Real50(1.0))),
          9 * (log(Ref(3)) + log(Ref(2)) + log(1 / Ref(0.05))) / (g * g)),
      1e-45);
}

TEST(Theory, DimensionThreshold) {
  // log10 (k/delta)^{1/(gamma-1)^2 - 1}
  const Ref g = Ref(1 + 1e-9) - 1;  // gamma - 1 of the double 1 + 1e-9
  const Ref ref = (1 / (g * g) - 1) * log10(Ref(3) / Ref(0.05));
  EXPECT_LT(rel(Ref(dim_threshold_log10<Real50>(3, Real50(0.05), Real50(1 + 1e-9))), ref), 1e-40);
  EXPECT_EQ(dim_threshold_log10<double>(3, 0.05, 2.0), 0.0);
  EXPECT_LT(dim_threshold_log10<double>(3, 0.05, 3.0), 0.0);
}

TEST(Theory, ErrorsNameTheParameterAndItsRange) {
  expect_error([] { eta_random<double>(3, 2, 0.0, 1.5, 0.5); }, "delta", "(0, 1)");
  expect_error([] { eta_random<double>(3, 2, 1.0, 1.5, 0.5); }, "delta", "(0, 1)");
  expect_error([] { eta_random<double>(3, 2, std::nan(""), 1.5, 0.5); }, "delta", "(0, 1)");
  expect_error([] { eta_random<double>(3, 2, 0.05, 1.0, 0.5); }, "gamma", "(1, inf)");
  expect_error([] { eta_perfect<Real50>(3, 2, Real50(0.05), Real50(0.9)); }, "gamma", "(1, inf)");
  expect_error([] { eta_random<double>(3, 2, 0.05, 1.5, 0.0); }, "q", "(0, 1]");
  expect_error([] { eta_random<double>(3, 2, 0.05, 1.5, 1.5); }, "q", "(0, 1]");
  expect_error([] { eta_random<double>(0, 2, 0.05, 1.5, 0.5); }, "k", "[1, ");
  expect_error([] { eta_random<double>(3, 0, 0.05, 1.5, 0.5); }, "m", "[1, ");
  expect_error([] { beta_random<double>(3, 1, 0.05, 0.5); }, "n", "[2, ");
  expect_error([] { eta_assign<double>(3, 2, 0.05, 1.5, 0.0); }, "q_assign", "(0, 1]");
  expect_error([] { certified_eta_random({3, 2, 1000, 0.05, 1.5, -1}); }, "q", "(0, 1]");
  // An admissible 50-digit delta that rounds to 1 in double is accepted.
  EXPECT_GT(eta_perfect<Real50>(3, 2, Real50(1) - Real50("1e-30"), Real50(1.5)), 0);
}

}  // namespace
