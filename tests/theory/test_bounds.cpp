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

#include "ssac/error.hpp"
#include "ssac/theory/bounds.hpp"

namespace {

namespace mp = boost::multiprecision;
using namespace ssac::theory;
using Ref = mp::number<mp::cpp_bin_float<200>, mp::et_off>;
using Ref500 = mp::number<mp::cpp_bin_float<500>, mp::et_off>;

// ---- Independent references: the paper's expressions written naively, evaluated at 200 digits.
// At 200 digits 1 - qa (1 - e^{-c}) keeps more than 70 digits for every grid point below
// (qa (1 - e^{-c}) >= 1.25e-127 at q = 1e-12, k = 10, gamma = 1+1e-9), so the naive form is exact
// to far beyond the 50 digits compared.
template <class T = Ref>
T ref_eta_random(long long k, long long m, double delta, double gamma, double q, T h = -1) {
  // (log(2k) + log(m+1) + log(1/delta)) / log(1/(1 - q^(k-1) + q^(k-1) e^{-(gamma-1)^2/8}))
  const T H = h < 0 ? T(m + 1) : h;
  const T qa = pow(T(q), k - 1);
  const T g = T(gamma) - 1;
  return (log(T(2 * k)) + log(H) + log(1 / T(delta))) / log(1 / (1 - qa + qa * exp(-g * g / 8)));
}
Ref ref_eta_perfect(long long k, long long m, double delta, double gamma, Ref h = -1) {
  // 8 (log k + log(m+1) + log(1/delta)) / (gamma-1)^2
  const Ref H = h < 0 ? Ref(m + 1) : h;
  const Ref g = Ref(gamma) - 1;
  return 8 * (log(Ref(k)) + log(H) + log(1 / Ref(delta))) / (g * g);
}
Ref ref_beta(long long k, Ref steps, double delta, double q) {
  // (log(2k) + log(steps) + log(1/delta)) / log(1/(1-q)); steps = log n for Theorem 1
  return (log(Ref(2 * k)) + log(steps) + log(1 / Ref(delta))) / log(1 / (1 - Ref(q)));
}

double rel(const Ref& a, const Ref& b) {
  return static_cast<double>(abs(a - b) / abs(b));
}

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

void expect_error(const std::function<void()>& f, const std::string& name,
                  const std::string& range) {
  try {
    f();
    ADD_FAILURE() << "no error for " << name;
  } catch (const ssac::ParameterError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find(name + " = "), std::string::npos) << msg;
    EXPECT_NE(msg.find(range), std::string::npos) << msg;
  }
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

TEST(Theory, DistanceWeakOnASmallDataset) {
  // Cluster 1 on the line at 0, 1, 2, 3, 10 (mean 3.2, r = 6.8); cluster 2 at 100, 101 (mean
  // 100.5, r = 0.5). gamma = min((100-3.2)/6.8, (100.5-10)/0.5) = 96.8/6.8.
  ssac::Dataset d;
  d.points.resize(7, 1);
  d.points << 0, 1, 2, 3, 10, 100, 101;
  d.labels = {1, 1, 1, 1, 1, 2, 2};
  const DistanceWeakReport r = distance_weak_global(d, 0.9, 0.05);
  EXPECT_DOUBLE_EQ(r.c, 0.8);
  // G_1(0.8): d < 5.44 holds for 0 (3.2), 1 (2.2), 2 (1.2), 3 (0.2): 4 of 5. G_2(0.8): d < 0.4
  // holds for neither point (both at 0.5), so q_d' = 0 and no x* exists in cluster 2.
  EXPECT_EQ(r.good, 0u);
  EXPECT_EQ(r.worst_cluster, 2u);
  EXPECT_FALSE(r.satisfied);
  EXPECT_FALSE(r.eta.has_value());
  // Add the mean of cluster 2 as a point: G_2 gets it (d = 0), |G_2|/|C_2| = 1/3 < 4/6.
  ssac::Dataset e;
  e.points.resize(8, 1);
  e.points << 0, 1, 2, 3, 10, 100, 100.5, 101;
  e.labels = {1, 1, 1, 1, 1, 2, 2, 2};
  const DistanceWeakReport s = distance_weak_global(e, 0.9, 0.05);
  EXPECT_EQ(s.worst_cluster, 2u);
  EXPECT_EQ(s.good, 1u);
  EXPECT_EQ(s.size, 3u);
  EXPECT_LT(rel(Ref(s.q), Ref(1) / 9), 1e-45);
  // t_max: cluster 1's closest point 3 is 0.2/6.8 from its mean, cluster 2's is 0.
  EXPECT_NEAR(s.t_max, 0.2 / 6.8, 1e-15);
  EXPECT_TRUE(s.x_star);
  EXPECT_TRUE(s.satisfied);
  ASSERT_TRUE(s.eta.has_value());
  // epsilon = min((gamma-1)/2, (0.8 - t_max)/2) = (0.8 - 0.2/6.8)/2 here.
  EXPECT_NEAR(static_cast<double>(s.epsilon), (0.8 - 0.2 / 6.8) / 2, 1e-12);
  const DistanceWeakReport l = distance_weak_local(e, 2.0, 0.9, 0.05);
  EXPECT_FALSE(l.nu_in_range);  // gamma ~ 14 > nu
  expect_error([&] { distance_weak_global(e, 0.0, 0.05); }, "rho", "(0, 1]");
  expect_error([&] { distance_weak_local(e, 0.5, 0.9, 0.05); }, "nu", "[1, inf)");
}

// Theorem 2 (local) and Theorem 3 (global) on a dataset small enough to work by hand.
// Cluster 1 = {0, 1, 2, 3, 4}: mean 2, r(C_1) = 2, distance ratios d(x, mu_1)/r = 1, .5, 0, .5, 1.
// Cluster 2 = {20, 21, 22}: mean 21, r(C_2) = 1, ratios 1, 0, 1.
// gamma = min((20 - 2)/2, (21 - 4)/1) = 9, exactly representable, as are all ratios above.
ssac::Dataset hand_worked() {
  ssac::Dataset d;
  d.points.resize(8, 1);
  d.points << 0, 1, 2, 3, 4, 20, 21, 22;
  d.labels = {1, 1, 1, 1, 1, 2, 2, 2};
  return d;
}

// eta of the proof of Theorem 2 written naively at 200 digits:
// (log k + log(m+1) + log(1/delta)) / log(1/(1 - q^(k-1) + q^(k-1) e^{-eps^2/2})).
Ref ref_eta_distance_weak(long long k, long long m, double delta, const Ref& eps, const Ref& q) {
  const Ref qa = pow(q, k - 1);
  return (log(Ref(k)) + log(Ref(m + 1)) + log(1 / Ref(delta))) /
         log(1 / (1 - qa + qa * exp(-eps * eps / 2)));
}

TEST(Theory, DistanceWeakLocalOnAHandWorkedDataset) {
  const ssac::Dataset d = hand_worked();
  // nu = 9.5 in [gamma, gamma+1] = [9, 10]; c = min{2(0.9)-1, 9-9.5+1} = 0.5. G_i(c) is strict
  // (d < c r): cluster 1 keeps only 2 (1 and 3 sit exactly at 0.5 r), 1/5; cluster 2 keeps 21,
  // 1/3. So q_d = 1/5 from cluster 1 and q = 1-(1-1/5)^2 = 9/25.
  const DistanceWeakReport r = distance_weak_local(d, 9.5, 0.9, 0.05);
  EXPECT_FALSE(r.global);
  EXPECT_EQ(r.gamma, 9.0);
  EXPECT_EQ(r.c, 0.5);
  EXPECT_EQ(r.worst_cluster, 1u);
  EXPECT_EQ(r.good, 1u);
  EXPECT_EQ(r.size, 5u);
  EXPECT_LT(rel(Ref(r.q_d), Ref(1) / 5), 1e-45);
  EXPECT_LT(rel(Ref(r.q), Ref(9) / 25), 1e-45);
  // Both clusters contain their mean, so t_max = 0 and epsilon = min((9-1)/2, 0.5/2) = 1/4.
  EXPECT_EQ(r.t_max, 0.0);
  EXPECT_LT(rel(Ref(r.epsilon), Ref(1) / 4), 1e-45);
  EXPECT_TRUE(r.nu_in_range);
  EXPECT_TRUE(r.x_star);
  EXPECT_TRUE(r.satisfied);
  ASSERT_TRUE(r.eta.has_value());
  const Ref want = ref_eta_distance_weak(2, 1, 0.05, Ref(1) / 4, Ref(9) / 25);
  EXPECT_LT(rel(Ref(r.eta->value), want), 1e-40);
  ASSERT_TRUE(r.eta->ceil.has_value());
  EXPECT_EQ(*r.eta->ceil, BigInt(static_cast<long long>(floor(want))) + 1);

  // nu = 9: c = min{0.8, 1} = 0.8 (2rho-1 evaluated in double). G_1 = {1, 2, 3}: 3/5; G_2 = {21}:
  // 1/3, so the worst cluster moves to 2.
  const DistanceWeakReport at9 = distance_weak_local(d, 9.0, 0.9, 0.05);
  EXPECT_EQ(at9.c, 2 * 0.9 - 1);
  EXPECT_EQ(at9.worst_cluster, 2u);
  EXPECT_EQ(at9.good, 1u);
  EXPECT_EQ(at9.size, 3u);
  EXPECT_TRUE(at9.satisfied);
  // Theorem 2's nu range: 8.5 < gamma and 10.5 > gamma + 1 are reported, not rejected.
  for (double nu : {8.5, 10.5}) {
    const DistanceWeakReport out = distance_weak_local(d, nu, 0.9, 0.05);
    EXPECT_FALSE(out.nu_in_range) << nu;
    EXPECT_FALSE(out.satisfied) << nu;
    EXPECT_FALSE(out.eta.has_value()) << nu;
  }
  // nu = gamma + 1 = 10 is in range but leaves c = 0: every G_i(0) is empty, no x*, q_d = 0.
  const DistanceWeakReport edge = distance_weak_local(d, 10.0, 0.9, 0.05);
  EXPECT_TRUE(edge.nu_in_range);
  EXPECT_EQ(edge.c, 0.0);
  EXPECT_EQ(edge.good, 0u);
  EXPECT_FALSE(edge.x_star);
  EXPECT_FALSE(edge.satisfied);
  EXPECT_FALSE(edge.eta.has_value());
}

TEST(Theory, DistanceWeakGlobalOnAHandWorkedDataset) {
  const ssac::Dataset d = hand_worked();
  // rho = 0.75: c = 2rho-1 = 0.5 exactly; G_1 = {2}: 1/5, G_2 = {21}: 1/3; q_d' = 1/5,
  // q = q_d'^2 = 1/25, epsilon = min(4, (0.5-0)/2) = 1/4.
  const DistanceWeakReport r = distance_weak_global(d, 0.75, 0.05);
  EXPECT_TRUE(r.global);
  EXPECT_TRUE(r.nu_in_range);  // no nu in Theorem 3
  EXPECT_EQ(r.c, 0.5);
  EXPECT_EQ(r.worst_cluster, 1u);
  EXPECT_EQ(r.good, 1u);
  EXPECT_EQ(r.size, 5u);
  EXPECT_LT(rel(Ref(r.q), Ref(1) / 25), 1e-45);
  EXPECT_LT(rel(Ref(r.epsilon), Ref(1) / 4), 1e-45);
  ASSERT_TRUE(r.satisfied);
  ASSERT_TRUE(r.eta.has_value());
  const Ref want = ref_eta_distance_weak(2, 1, 0.05, Ref(1) / 4, Ref(1) / 25);
  EXPECT_LT(rel(Ref(r.eta->value), want), 1e-40);
  ASSERT_TRUE(r.eta->ceil.has_value());
  EXPECT_EQ(*r.eta->ceil, BigInt(static_cast<long long>(floor(want))) + 1);
  // The same q_d gives a larger q for the local oracle (1-(1-q_d)^2 > q_d^2), hence a smaller eta.
  const DistanceWeakReport l = distance_weak_local(d, 9.0, 0.75, 0.05);
  ASSERT_TRUE(l.eta.has_value());
  EXPECT_LT(l.eta->value, r.eta->value);
  // rho = 1/2 gives c = 0: Theorem 3 cannot hold.
  const DistanceWeakReport half = distance_weak_global(d, 0.5, 0.05);
  EXPECT_FALSE(half.x_star);
  EXPECT_FALSE(half.satisfied);
  expect_error([&] { distance_weak_global(d, 0.9, 1.0); }, "delta", "(0, 1)");
  expect_error([&] { distance_weak_global(d, 1.5, 0.05); }, "rho", "(0, 1]");
  expect_error([&] { distance_weak_local(d, std::numeric_limits<double>::infinity(), 0.9, 0.05); },
               "nu", "[1, inf)");
  // Without labels there is no clustering to take G_i(c) from.
  ssac::Dataset unlabelled = d;
  unlabelled.labels.clear();
  EXPECT_THROW(distance_weak_global(unlabelled, 0.9, 0.05), ssac::ParameterError);
}

// ---- Exact decimal inputs ----------------------------------------------------------------------
using Ref60 = mp::number<mp::cpp_bin_float<60>, mp::et_off>;

TEST(Theory, ExactDecimalInputsMatchA60DigitEvaluation) {
  // The referee's case: gamma = 1.000001, q = 0.7. The inputs are the decimals, not their
  // nearest doubles; the reference evaluates the paper's naive expressions at 60 digits from the
  // same text (gamma - 1 = 1e-6 keeps 54 of them, 1 - e^{-(gamma-1)^2/8} about 47).
  const Inputs in{3, 2, 1500, Decimal("0.05"), Decimal("1.000001"), Decimal("0.7")};
  const Ref60 delta("0.05"), gamma("1.000001"), q("0.7");
  const Ref60 g = gamma - 1, qa = q * q;
  const Ref60 perfect = 8 * (log(Ref60(3)) + log(Ref60(3)) + log(1 / delta)) / (g * g);
  const Ref60 random =
      (log(Ref60(6)) + log(Ref60(3)) + log(1 / delta)) / log(1 / (1 - qa + qa * exp(-g * g / 8)));
  const Ref60 beta = (log(Ref60(6)) + log(log(Ref60(1500))) + log(1 / delta)) / log(1 / (1 - q));
  auto check = [](const Certified& c, const Ref60& ref) {
    EXPECT_LT(static_cast<double>(abs(Ref60(c.value) - ref) / ref), 1e-40);
    ASSERT_TRUE(c.ceil.has_value());
    EXPECT_EQ(*c.ceil, floor(ref).convert_to<BigInt>() + 1);
  };
  check(certified_eta_perfect(in), perfect);
  check(certified_eta_random(in), random);
  check(certified_beta_random(in), beta);
  EXPECT_EQ(*certified_eta_perfect(in).ceil, BigInt(41543654807122LL));
  // The nearest doubles (1.0000009999999999177... for gamma) give another integer: the one the
  // command line printed when it read its inputs as doubles.
  EXPECT_EQ(*certified_eta_perfect({3, 2, 1500, 0.05, 1.000001, 0.7}).ceil,
            BigInt(41543654813957LL));
  // Definition 4's probabilities are exact decimals: 0.7 + 0.3 * 0.49, 3 * 0.3 * 0.49 + 0.343,
  // 0.49.
  const AssignSuccessDecimals p = assign_success_decimals(3, Decimal("0.7"), 20);
  ASSERT_TRUE(p.exact && p.paper && p.lower);
  EXPECT_EQ(p.exact->str(), "0.847");
  EXPECT_EQ(p.paper->str(), "0.784");
  EXPECT_EQ(p.lower->str(), "0.49");
  // The 50-digit bounds of Section 3.2 and Corollary 1 from the same inputs.
  const Ref60 dim = (1 - g) * (1 + g) / (g * g) * (log(Ref60(3)) - log(delta)) / log(Ref60(10));
  EXPECT_LT(static_cast<double>(abs(Ref60(dim_threshold_log10(in)) - dim) / dim), 1e-40);
}

TEST(Theory, ExactInputsKeepTheirDigitsNextToOne) {
  // gamma = 1 + 1e-37 and q = 1 - 1e-40 round to 1 in every precision below 130 bits; the bounds
  // take gamma - 1 and 1 - q exactly, and must match a 500-digit naive evaluation.
  const std::string gs = "1.0000000000000000000000000000000000001";
  const std::string qs = "0.9999999999999999999999999999999999999999";
  const Inputs in{4, 3, 1000, Decimal("0.01"), Decimal(gs), Decimal(qs)};
  const Ref500 delta("0.01"), g = Ref500(gs) - 1, q(qs), qa = pow(q, 3);
  const Ref500 perfect = 8 * (log(Ref500(4)) + log(Ref500(4)) + log(1 / delta)) / (g * g);
  const Ref500 random =
      (log(Ref500(8)) + log(Ref500(4)) + log(1 / delta)) / log(1 / (1 - qa + qa * exp(-g * g / 8)));
  const Ref500 beta = (log(Ref500(8)) + log(log(Ref500(1000))) + log(1 / delta)) / log(1 / (1 - q));
  for (const auto& [c, ref] :
       {std::pair{certified_eta_perfect(in), perfect}, std::pair{certified_eta_random(in), random},
        std::pair{certified_beta_random(in), beta}}) {
    EXPECT_LT(static_cast<double>(abs(Ref500(c.value) - ref) / ref), 1e-45);
    ASSERT_TRUE(c.ceil.has_value());
    EXPECT_EQ(*c.ceil, std::max(BigInt(1), BigInt(floor(ref).convert_to<BigInt>() + 1)));
  }
  // Near 1 the 50-digit value of -log(1-q) from the rounded q would have lost ~40 digits; here
  // beta's value is (log 8 + log log 1000 + log 100) / (40 log 10).
  EXPECT_GT(certified_beta_random(in).value, Real50("0.09"));
  // delta close to 1 enters through 1 - delta as well.
  const Inputs near_one{
      2, 1, 10, Decimal("0.99999999999999999999999999999"), Decimal("3"), Decimal("1")};
  const Ref500 d1("0.99999999999999999999999999999");
  const Ref500 dim = Ref500(-3) / 4 * (log(Ref500(2)) - log(d1)) / log(Ref500(10));
  EXPECT_LT(static_cast<double>(abs(Ref500(dim_threshold_log10(near_one)) - dim) / abs(dim)),
            1e-45);
}

// The numerators of q + (1-q)q^(k-1), k(1-q)q^(k-1) + q^k and q^(k-1) over 10^(ke) for
// q = N / 10^e, computed with integers only, and their significant digits.
struct ExactPoly {
  BigInt num;          // trailing zeros stripped
  long long exponent;  // value = num * 10^exponent
  std::size_t digits;
};
ExactPoly exact_poly(const BigInt& raw, long long k, long long e) {
  ExactPoly p{raw, -k * e, 0};
  while (p.num != 0 && p.num % 10 == 0) {
    p.num /= 10;
    ++p.exponent;
  }
  p.digits = p.num.str().size();
  return p;
}

TEST(Theory, AssignSuccessDecimalsAreExactAndEmptyOnlyWhenLong) {
  // q given as digits after the point (N / 10^e); every k from 1 to 40 and two digit limits.
  const std::vector<std::pair<long long, long long>> qs = {
      {7, 1}, {5, 1}, {1, 3}, {123, 3}, {99, 2}, {2, 1}, {5, 2}, {3333, 4}, {999, 3}, {1, 1}};
  for (const auto& [n, e] : qs)
    for (long long k = 1; k <= 40; ++k)
      for (std::size_t max_digits : {std::size_t(20), std::size_t(60)}) {
        const BigInt N = n, D = pow(BigInt(10), static_cast<unsigned>(e));
        const auto K = static_cast<unsigned>(k);
        const BigInt qk1 = pow(N, K - 1), dk1 = pow(D, K - 1);
        const ExactPoly want[3] = {exact_poly(N * dk1 + (D - N) * qk1, k, e),
                                   exact_poly(BigInt(k) * (D - N) * qk1 + qk1 * N, k, e),
                                   exact_poly(qk1 * D, k, e)};
        const Decimal q(std::to_string(n) + "e-" + std::to_string(e));
        const AssignSuccessDecimals got = assign_success_decimals(k, q, max_digits);
        const std::optional<Decimal>* have[3] = {&got.exact, &got.paper, &got.lower};
        for (int i = 0; i < 3; ++i) {
          SCOPED_TRACE(std::to_string(n) + "e-" + std::to_string(e) + " k=" + std::to_string(k) +
                       " i=" + std::to_string(i) + " max=" + std::to_string(max_digits));
          if (want[i].digits > max_digits) {
            EXPECT_FALSE(have[i]->has_value());
          } else {
            ASSERT_TRUE(have[i]->has_value());
            EXPECT_EQ((*have[i])->coefficient(), want[i].num);
            EXPECT_EQ((*have[i])->exponent(), want[i].exponent);
          }
        }
      }
  // q = 10^-3 keeps q^(k-1) at one digit and k(1-q)q^(k-1) + q^k short for any k; q = 0.7 at
  // k = 10^6 is far from short and must be refused without expanding 7^999999.
  const AssignSuccessDecimals big = assign_success_decimals(1000000, Decimal("0.001"), 20);
  ASSERT_TRUE(big.lower && big.paper);
  EXPECT_EQ(big.lower->str(), "1e-2999997");
  EXPECT_EQ(big.paper->str(), "9.99000001e-2999992");  // (10^9 - 999999) 10^-3000000
  EXPECT_FALSE(big.exact.has_value());
  const AssignSuccessDecimals none = assign_success_decimals(1000000, Decimal("0.7"), 20);
  EXPECT_FALSE(none.exact || none.paper || none.lower);
  const AssignSuccessDecimals one = assign_success_decimals(9007199254740992LL, Decimal("1"), 20);
  EXPECT_EQ(one.exact->str(), "1");
}

TEST(Theory, DistanceWeakComparesWithTheExactC) {
  // Cluster 1 = {-5, -4, 4, 5}: mean 0, r = 5, and -4, 4 sit at ratio 4/5 exactly. Cluster 2 =
  // {1000, 1001, 1002}: ratios 1, 0, 1. For rho = 0.9 typed, c = 2rho - 1 = 0.8 and G_1(c) is
  // empty (the membership is strict); for the double 0.9, c = 0.8000000000000000444... and
  // -4, 4 belong to G_1(c), although c r rounds to 4 in double arithmetic.
  ssac::Dataset d;
  d.points.resize(7, 1);
  d.points << -5, -4, 4, 5, 1000, 1001, 1002;
  d.labels = {1, 1, 1, 1, 2, 2, 2};
  const DistanceWeakReport exact = distance_weak_global(d, Decimal("0.9"), Decimal("0.05"));
  EXPECT_EQ(exact.c_exact.str(), "0.8");
  EXPECT_EQ(exact.worst_cluster, 1u);
  EXPECT_EQ(exact.good, 0u);
  EXPECT_EQ(exact.t_max, 0.8);
  EXPECT_FALSE(exact.x_star);  // t_max = c
  EXPECT_EQ(exact.epsilon, 0);
  const DistanceWeakReport dbl = distance_weak_global(d, 0.9, 0.05);
  EXPECT_GT(dbl.c_exact, Decimal("0.8"));
  EXPECT_EQ(dbl.worst_cluster, 2u);
  EXPECT_EQ(dbl.good, 1u);
  EXPECT_TRUE(dbl.x_star);
  // epsilon = (c r - d) / (2r) = (2 * 0.9's double - 1) * 5 - 4) / 10, formed exactly.
  const Ref500 c_dbl = 2 * Ref500(0.9) - 1;
  EXPECT_LT(rel(Ref(dbl.epsilon), Ref((c_dbl * 5 - 4) / 10)), 1e-45);
  // Theorem 2's nu range [gamma, gamma + 1] is compared exactly too: gamma = 1000/5 here.
  EXPECT_EQ(dbl.gamma, 200.0);
  auto local = [&](const char* nu) {
    return distance_weak_local(d, Decimal(nu), Decimal("0.9"), Decimal("0.05"));
  };
  EXPECT_TRUE(local("200").nu_in_range);
  EXPECT_TRUE(local("201").nu_in_range);
  EXPECT_FALSE(local("199.99999999999999999999").nu_in_range);  // its double is 200
  EXPECT_FALSE(local("201.00000000000000000001").nu_in_range);  // its double is 201
}

}  // namespace
