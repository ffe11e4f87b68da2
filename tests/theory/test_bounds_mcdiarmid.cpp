// Unit tests of eta_mcdiarmid (proofs-notes/bounds.md, "eta_mcdiarmid"): against 50-digit values
// computed independently (mpmath at 80 digits, the closed form written naively), against the
// naive form at 200/500 digits over test_bounds.cpp's kind of grid, the certified ceiling against
// the inversion of its tail (tail(ceil) <= delta/(2k) < tail(ceil - 1)), the q = 1 value
// ((1 + sqrt(2L))/eps)^2, and the comparison with eta_random (it wins exactly when m is large).
#include <gtest/gtest.h>

#include <boost/multiprecision/cpp_bin_float.hpp>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "reference.hpp"
#include "ssac/error.hpp"
#include "ssac/theory/bounds.hpp"

namespace {

using namespace theory_test;

// (L + w/2) / log(1/(1 - qa + qa e^{-(gamma-1)^2/8 * w/(1+w)})), L = log(2k) + log(1/delta),
// w = sqrt(2L), qa = q^(k-1), written naively.
template <class T = Ref>
T ref_eta_mcdiarmid(long long k, const T& delta, const T& gamma, const T& q) {
  const T L = log(T(2 * k)) + log(1 / delta);
  const T w = sqrt(2 * L);
  const T g = gamma - 1;
  const T qa = pow(q, k - 1);
  return (L + w / 2) / log(1 / (1 - qa + qa * exp(-g * g / 8 * w / (1 + w))));
}
template <class T = Ref>
T ref_mcdiarmid_tail(long long k, const T& delta, const T& gamma, const T& q, const T& s) {
  const T L = log(T(2 * k)) + log(1 / delta);
  const T w = sqrt(2 * L);
  const T g = gamma - 1;
  const T qa = pow(q, k - 1);
  return exp(w / 2) * pow(1 - qa + qa * exp(-g * g / 8 * w / (1 + w)), s);
}

struct Point {
  long long k;
  double delta, gamma, q;
};
std::vector<Point> grid() {
  std::vector<Point> g;
  for (long long k : {1LL, 2LL, 3LL, 10LL})
    for (double delta : {0.5, 0.05, 1e-300})
      for (double gamma : {1.0 + 1e-9, 1.001, 1.5, 2.0, 7.0})
        for (double q : {1e-12, 0.3, 0.9, 1.0 - 1e-12, 1.0})
          g.push_back({k, delta, gamma, q});
  return g;
}

TEST(TheoryMcDiarmid, MatchesIndependent50DigitValues) {
  // mpmath 1.3.0 at 80 digits, the expression above, from the decimal strings.
  struct Case {
    long long k;
    const char *delta, *gamma, *q, *value, *ceil;
  };
  const Case cases[] = {
      {3, "0.05", "1.1", "0.9", "8279.1024390760427968359907600497749911490350139254", "8280"},
      {3, "0.05", "1.1", "0.7", "13687.932101121543016712673424017774153789637976953", "13688"},
      {1, "0.5", "2", "1", "28.411228667482289052326348261654041851297423785995", "29"},
      {10, "1e-12", "1.000001", "0.3", "15832226935900920430.519128279842027876559883685471",
       "15832226935900920431"},
      {3, "0.05", "1.000000001", "0.9", "82783592727422903296.529874188486984019048450781354",
       "82783592727422903297"},
      {5, "0.05", "100", "0.01", "692594096.26370608884614067487437034133615250554486",
       "692594097"},
  };
  for (const Case& c : cases) {
    const Inputs in{c.k, 1, 1000, Decimal(c.delta), Decimal(c.gamma), Decimal(c.q)};
    const Certified e = certified_eta_mcdiarmid(in);
    EXPECT_LT(rel(Ref(e.value), Ref(c.value)), 1e-45) << c.gamma << " " << c.q;
    ASSERT_TRUE(e.ceil.has_value());
    EXPECT_EQ(e.ceil->str(), c.ceil);
  }
}

TEST(TheoryMcDiarmid, MatchesNaive200DigitsInBothTypes) {
  for (const auto& p : grid()) {
    const Ref ref = ref_eta_mcdiarmid(p.k, Ref(p.delta), Ref(p.gamma), Ref(p.q));
    const Real50 v50 = eta_mcdiarmid<Real50>(p.k, Real50(p.delta), Real50(p.gamma), Real50(p.q));
    EXPECT_LT(rel(Ref(v50), ref), 1e-40) << p.k << " " << p.delta << " " << p.gamma << " " << p.q;
    const double vd = eta_mcdiarmid<double>(p.k, p.delta, p.gamma, p.q);
    if (ref < Ref(1e300)) {
      EXPECT_LT(rel(Ref(vd), ref), 1e-13) << p.k << " " << p.delta << " " << p.gamma << " " << p.q;
    } else if (ref > Ref(std::numeric_limits<double>::max())) {
      EXPECT_TRUE(std::isinf(vd));
    }
  }
}

TEST(TheoryMcDiarmid, CeilingIsTheInversionOfItsTail) {
  for (const auto& p : grid()) {
    const Inputs in{p.k, 1, 1000, p.delta, p.gamma, p.q};
    const Certified c = certified_eta_mcdiarmid(in);
    Ref500 ref = ref_eta_mcdiarmid(p.k, Ref(p.delta), Ref(p.gamma), Ref(p.q));
    if (ref > 1e60) ref = ref_eta_mcdiarmid<Ref500>(p.k, p.delta, p.gamma, p.q);
    ASSERT_TRUE(c.ceil.has_value());
    EXPECT_EQ(*c.ceil, floor(ref).convert_to<BigInt>() + 1);
    if (ref > 1e40) continue;  // 200 digits still resolve the tail's exponent s * log(M) here
    // The tail at the ceiling meets the budget delta/(2k) and at ceiling - 1 it does not, both in
    // theory/'s own tail and in the naive 200-digit one.
    const Ref target = Ref(p.delta) / (2 * p.k);
    const Ref s = Ref(c.ceil->str());
    EXPECT_LE(ref_mcdiarmid_tail(p.k, Ref(p.delta), Ref(p.gamma), Ref(p.q), s), target);
    EXPECT_GT(ref_mcdiarmid_tail(p.k, Ref(p.delta), Ref(p.gamma), Ref(p.q), Ref(s - 1)), target);
    const Real50 s50(c.ceil->str());
    const Real50 t50 = Real50(p.delta) / (2 * p.k);
    EXPECT_LE(mcdiarmid_tail<Real50>(p.k, Real50(p.delta), Real50(p.gamma), Real50(p.q), s50), t50);
    EXPECT_GT(
        mcdiarmid_tail<Real50>(p.k, Real50(p.delta), Real50(p.gamma), Real50(p.q), Real50(s50 - 1)),
        t50);
  }
}

TEST(TheoryMcDiarmid, AtQOneItIsTheSolutionOfTheSingleDrawTail) {
  // q = 1: every draw is assignment-known and eta_mcdiarmid = ((1 + sqrt(2L)) / eps)^2, the l
  // with exp(-(eps sqrt(l) - 1)^2 / 2) = delta/(2k) (BoundsMcDiarmid.v, eta_mcdiarmid_q1).
  for (const auto& p : grid()) {
    const Ref L = log(Ref(2 * p.k)) + log(1 / Ref(p.delta));
    const Ref eps = (Ref(p.gamma) - 1) / 2;
    const Ref l = pow((1 + sqrt(2 * L)) / eps, 2);
    const Real50 v = eta_mcdiarmid<Real50>(p.k, Real50(p.delta), Real50(p.gamma), Real50(1));
    EXPECT_LT(rel(Ref(v), l), 1e-45);
    EXPECT_LT(rel(exp(-pow(eps * sqrt(l) - 1, 2) / 2), Ref(p.delta) / (2 * p.k)), 1e-100);
  }
}

TEST(TheoryMcDiarmid, WinsOverEtaRandomExactlyWhereMIsLarge) {
  // At q = 1: eta_random = 2 (L + log(m+1)) / eps^2 and eta_mcdiarmid = (1 + 2w + 2L) / eps^2, so
  // eta_mcdiarmid < eta_random iff m + 1 > e^{w + 1/2}: at k = 3, delta = 0.05, L = log 120,
  // e^{w + 1/2} = 36.4, so m = 35 loses and m = 36 wins.
  for (double gamma : {1.000001, 1.1, 2.0}) {
    const Real50 mcd = eta_mcdiarmid<Real50>(3, Real50(0.05), Real50(gamma), Real50(1));
    EXPECT_GT(mcd, eta_random<Real50>(3, 35, Real50(0.05), Real50(gamma), Real50(1)));
    EXPECT_LT(mcd, eta_random<Real50>(3, 36, Real50(0.05), Real50(gamma), Real50(1)));
  }
  // docs/bounds.md's table (k = 3, delta = 0.05, gamma = 1.1, q = 0.9): the ceilings.
  const Inputs base{3, 1, 1000, Decimal("0.05"), Decimal("1.1"), Decimal("0.9")};
  EXPECT_EQ(*certified_eta_mcdiarmid(base).ceil, 8280);
  const long long ms[] = {1, 2, 10, 100, 1000};
  const long long random[] = {5414, 5815, 7098, 9288, 11554};
  for (int i = 0; i < 5; ++i) {
    Inputs in = base;
    in.m = ms[i];
    EXPECT_EQ(*certified_eta_random(in).ceil, random[i]) << ms[i];
    EXPECT_EQ(*certified_eta_mcdiarmid(in).ceil, 8280) << ms[i];  // no m in it
  }
}

TEST(TheoryMcDiarmid, ErrorsNameTheParameterAndItsRange) {
  expect_error([] { eta_mcdiarmid<double>(3, 0.0, 1.5, 0.5); }, "delta", "(0, 1)");
  expect_error([] { eta_mcdiarmid<double>(3, 1.0, 1.5, 0.5); }, "delta", "(0, 1)");
  expect_error([] { eta_mcdiarmid<double>(3, 0.05, 1.0, 0.5); }, "gamma", "(1, inf)");
  expect_error([] { eta_mcdiarmid<Real50>(3, Real50(0.05), Real50(1.5), Real50(0)); }, "q",
               "(0, 1]");
  expect_error([] { eta_mcdiarmid<double>(0, 0.05, 1.5, 0.5); }, "k", "[1, ");
  expect_error([] { mcdiarmid_tail<double>(3, 0.05, 1.5, 0.5, -1.0); }, "s", "[0, inf)");
  expect_error([] { certified_eta_mcdiarmid({3, 2, 1000, 0.05, 1.5, 2}); }, "q", "(0, 1]");
}

// At s = 0 no draw has been made and the tail is its slack e^{w/2} alone (s = 0 is in range); the
// tail checks each of its arguments as eta_mcdiarmid does.
TEST(McDiarmidTail, AtSizeZeroItIsTheSlackAloneAndEveryArgumentIsChecked) {
  const double w = std::sqrt(2 * std::log(2 * 3 / 0.05));
  EXPECT_NEAR(mcdiarmid_tail<double>(3, 0.05, 1.5, 0.5, 0.0), std::exp(w / 2), 1e-13);
  expect_error([] { mcdiarmid_tail<double>(3, 0.05, 1.0, 0.5, 1.0); }, "gamma", "(1, inf)");
  expect_error([] { mcdiarmid_tail<double>(3, 1.0, 1.5, 0.5, 1.0); }, "delta", "(0, 1)");
  expect_error([] { mcdiarmid_tail<double>(3, 0.05, 1.5, 0.0, 1.0); }, "q", "(0, 1]");
  expect_error([] { mcdiarmid_tail<double>(0, 0.05, 1.5, 0.5, 1.0); }, "k", "[1, ");
}

// The 50-digit value's error budget carries (k-1) |log q|: here (k = 5, q = 0.01, amplification
// 19.4) the value lies 5e-38 (relative) below an integer, inside that budget but outside the
// budget of 1, so the ceiling is certified only at 150 digits. gamma was solved for at 120 digits
// (mpmath 1.3.0, bisection on the naive form above): eta = 29319083612.(26 nines)853...
TEST(McDiarmidCeiling, AValueWithinTheAmplifiedErrorOfAnIntegerGoesTo150Digits) {
  const Inputs in{5,
                  1,
                  1000,
                  Decimal("0.05"),
                  Decimal("1.49999999999964871810985278759893149914842755295563060901211"),
                  Decimal("0.01")};
  const Certified c = certified_eta_mcdiarmid(in);
  ASSERT_TRUE(c.ceil.has_value());
  EXPECT_EQ(c.ceil->str(), "29319083613");
  EXPECT_EQ(c.digits, 150);
}

}  // namespace
