// Unit tests of theory/ on data and on exact inputs: the distance-weak bounds of Theorems 2 and 3
// on data sets small enough to work by hand, and the bounds of exact decimal inputs (not their
// nearest doubles) against evaluations at 60 and 500 digits.
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

// The corrected Theorems 2' and 3' (proofs-notes/distance-weak-corrected.md): eta_mcdiarmid at
// q = 1 and gamma' = 1 + 2 eps, ((1 + sqrt(2 log(2k/delta))) / eps)^2, with gamma' the largest
// double at most 1 + 2 eps (the data's gamma when eps = (gamma - 1)/2).
TEST(Theory, CorrectedDistanceWeakEta) {
  // Cluster 1 = {0, 1, 2, 3, 4} (mean 2, r = 2), cluster 2 = {20, 21, 22} (mean 21, r = 1):
  // gamma = 9. Local, nu = 9.5, rho = 0.9: c = 0.5, t_max = 0, eps = 0.25 (the x* condition binds):
  // gamma' = 1.5. Global, rho = 0.9: c = 0.8, eps = 0.4: 1 + 2 eps = 1.8, not a double.
  ssac::Dataset d;
  d.points.resize(8, 1);
  d.points << 0, 1, 2, 3, 4, 20, 21, 22;
  d.labels = {1, 1, 1, 1, 1, 2, 2, 2};
  const auto expected = [](double eps) {
    return std::pow((1 + std::sqrt(2 * std::log(2 * 2 / 0.05))) / eps, 2);
  };
  const DistanceWeakReport l = distance_weak_local(d, 9.5, 0.9, 0.05);
  ASSERT_TRUE(l.satisfied && l.eta_corrected.has_value());
  EXPECT_EQ(l.gamma_corrected, 1.5);
  EXPECT_NEAR(static_cast<double>(l.eta_corrected->value), expected(0.25), 1e-9);
  EXPECT_EQ(*l.eta_corrected->ceil, 251);
  // rho as the decimal 0.9 (the double 0.9 is above it, and 1 + 2 eps would be the double 1.8).
  const DistanceWeakReport g = distance_weak_global(d, Decimal("0.9"), 0.05);
  ASSERT_TRUE(g.satisfied && g.eta_corrected.has_value());
  EXPECT_LE(Real50(g.gamma_corrected), 1 + 2 * g.epsilon);
  EXPECT_EQ(g.gamma_corrected, std::nextafter(1.8, 1.0));
  EXPECT_NEAR(static_cast<double>(g.eta_corrected->value), expected(0.4), 1e-9);
  EXPECT_EQ(*g.eta_corrected->ceil, 99);
  // eps = (gamma - 1)/2: gamma' is the data's gamma. Cluster 2 moved to {5.5, 6.5, 7.5}: gamma =
  // (5.5 - 2)/2 = 1.75, eps = 0.375 < (c - t_max)/2 = 0.4.
  d.points << 0, 1, 2, 3, 4, 5.5, 6.5, 7.5;
  const DistanceWeakReport m = distance_weak_global(d, 0.9, 0.05);
  ASSERT_TRUE(m.satisfied && m.eta_corrected.has_value());
  EXPECT_EQ(m.gamma_corrected, m.gamma);
  // Not satisfied: no corrected eta either.
  EXPECT_FALSE(distance_weak_global(d, 0.5, 0.05).eta_corrected.has_value());
}

}  // namespace
