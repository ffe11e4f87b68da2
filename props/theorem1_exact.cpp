// Theorem 1 exactly, beside its Monte Carlo check (theorem1_random_weak.cpp): on instances small
// enough to enumerate every draw and abstention (ssac/exact.hpp), Algorithm 1 with Algorithm 2 and
// a q random-weak oracle (Definition 5), at the theorem's eta and the corrected beta (the
// certified ceilings of eta_random and beta_union, theory/; errata E6 for why the paper's beta is
// not enough), outputs the oracle's clustering with probability at least 1 - delta. The
// probability is exact (a rational), so no false alarm is possible, and the cases are not sampled
// but all taken: two clusters on a line of 2 and 1-2 points, q in {0.85, 0.9, 0.95, 1}, delta in
// {0.3, 0.5, 0.9} (24 cases; a third point in the first cluster makes the enumeration take about a
// minute).
// Note: proofs-notes/theorem1-random-weak.md.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <sstream>

#include "ssac/exact.hpp"
#include "ssac/theory/bounds.hpp"
#include "ssac/theory/hypotheses.hpp"
#include "support.hpp"

namespace ssac::props {
namespace {

struct Outcome {
  Rational fail, delta;
  std::string text;
};

// P(the run does not output the oracle's clustering), exactly, with the run's step `fault`.
Outcome exact_failure(int n1, int n2, long long q_percent, int delta_tenths, Fault fault) {
  const int n = n1 + n2;
  Matrix X(n, 1);
  std::vector<int> labels;
  for (int i = 0; i < n; ++i) {
    X(i, 0) = i < n1 ? i : 100.0 + (i - n1);
    labels.push_back(i < n1 ? 1 : 2);
  }
  // The margin is at least 99 here; the theorem is taken at gamma = 20 (Definition 2 holds for
  // every gamma below the supremum), which keeps eta, and so r = ceil(k eta), enumerable.
  const double gamma = 20.0, q = static_cast<double>(q_percent) / 100.0,
               delta = delta_tenths / 10.0;
  EXPECT_GT(cluster_stats(X, labels).gamma, gamma);
  // eta and beta: the certified ceilings of the exact decimal inputs, as `ssac bounds` prints them
  // (at q = 1 beta_union is 0 and the run asks one answer per probe, the least it can).
  theory::Inputs in;
  in.k = 2;
  in.m = 1;
  in.n = n;
  in.delta = theory::Decimal("0." + std::to_string(delta_tenths));
  in.gamma = theory::Decimal("20");
  in.q =
      q_percent == 100 ? theory::Decimal("1") : theory::Decimal("0." + std::to_string(q_percent));
  Params P;
  P.k = 2;
  P.eta = static_cast<double>(theory::certified_eta_random(in).ceil->convert_to<long long>());
  P.beta =
      std::max(1, static_cast<int>(theory::certified_beta_union(in).ceil->convert_to<long long>()));
  P.search = Search::random;  // Algorithm 2
  P.oracle_clusters = 2;
  EXPECT_LE(P.sample_size(), 4U);  // ceil(eta) <= 2 on these cases (ssac bounds)
  ExactOracle o;
  o.spec.kind = OracleKind::random;
  o.q = Rational(q_percent, 100);
  o.spec.q = q;
  ExactOptions opt;
  if (fault != Fault::none) opt.engine = ExactOptions::Engine::paths;  // a variant: paths only
  if (fault != Fault::none)
    opt.run = [fault](const Matrix& Xs, Oracle& oracle, Chooser& chooser, const Params& Ps,
                      RunObserver* obs) {
      return run_ssac_with_fault(Xs, oracle, chooser, Ps, fault, obs);
    };
  const ExactResult r = exact_distribution(X, labels, o, P, opt);
  EXPECT_EQ(r.total, 1);
  Outcome out{1 - r.p_exact_recovery, Rational(delta_tenths, 10), ""};
  std::ostringstream os;
  os << "n1=" << n1 << " n2=" << n2 << " q=" << q << " delta=" << delta << " r=" << P.sample_size()
     << " beta=" << P.beta << ": P(not the oracle's clustering) = " << fraction_string(out.fail)
     << " = " << decimal_string(out.fail, 6);
  out.text = os.str();
  return out;
}

// Every case (up to the first that fails with `stop_at_failure`); returns how many fail
// (P > delta) and prints the one closest to delta.
int check_all(Fault fault, bool stop_at_failure) {
  int failed = 0, cases = 0;
  Rational worst = -1;
  std::string worst_text;
  for (int n1 : {2})
    for (int n2 : {1, 2})
      for (long long q : {85, 90, 95, 100})
        for (int d : {3, 5, 9}) {
          const Outcome o = exact_failure(n1, n2, q, d, fault);
          ++cases;
          if (o.fail > o.delta) {
            ++failed;
            if (fault == Fault::none) ADD_FAILURE() << o.text;
            if (stop_at_failure) {
              std::cout << "fails: " << o.text << "\n";
              return failed;
            }
          }
          if (o.fail / o.delta > worst) {
            worst = o.fail / o.delta;
            worst_text = o.text;
          }
        }
  std::cout << cases << " cases, " << failed << " with P > delta; the largest P / delta is "
            << decimal_string(worst, 6) << " (" << worst_text << ")\n";
  return failed;
}

// The referee's two instances at n = 2 (proofs-notes/theorem1-random-weak.md, "Phase 2 and beta";
// errata E6): m = 1, delta = 1/10, the theorem taken at gamma = 100 (the data's margin is
// infinite), eta = the certified ceiling of eta_random, beta = the certified ceiling of the paper's
// beta_random or of beta_union (theory/, 50-digit evaluations of the exact decimal inputs). The
// oracle's q is the same exact decimal, as a rational.
struct SmallN {
  const char* name;
  std::vector<double> xs;
  std::vector<int> labels;
  const char* q;
};
struct SmallNLaw {
  long long eta = 0, beta_paper = 0, beta_union = 0;
  Rational fail_paper, fail_union;  // P(not the oracle's clustering) at each beta
};
Rational fail_at(const SmallN& c, double eta, long long beta) {
  Matrix X(static_cast<Eigen::Index>(c.xs.size()), 1);
  for (std::size_t i = 0; i < c.xs.size(); ++i)
    X(static_cast<Eigen::Index>(i), 0) = c.xs[i];
  const int k = *std::max_element(c.labels.begin(), c.labels.end());
  Params P;
  P.k = k;
  P.eta = eta;
  P.beta = static_cast<int>(beta);
  P.search = Search::random;  // Algorithm 2
  P.oracle_clusters = k;
  ExactOracle o;
  o.spec.kind = OracleKind::random;
  const theory::Decimal q(c.q);
  // q = coefficient * 10^exponent exactly, exponent < 0 for the q in (0, 1) given here.
  o.q = Rational(q.coefficient(), boost::multiprecision::pow(theory::Decimal::Int(10),
                                                             static_cast<unsigned>(-q.exponent())));
  o.spec.q = q.to_double();
  const ExactResult r = exact_distribution(X, c.labels, o, P);
  EXPECT_EQ(r.total, 1);
  return 1 - r.p_exact_recovery;
}
SmallNLaw small_n_law(const SmallN& c) {
  Dataset data;
  data.points = Matrix(static_cast<Eigen::Index>(c.xs.size()), 1);
  for (std::size_t i = 0; i < c.xs.size(); ++i)
    data.points(static_cast<Eigen::Index>(i), 0) = c.xs[i];
  data.labels = c.labels;
  const int k = *std::max_element(c.labels.begin(), c.labels.end());
  const theory::Decimal gamma("100");
  EXPECT_TRUE(theory::check_theorem1(data, static_cast<std::size_t>(k), gamma).all_hold())
      << c.name;
  theory::Inputs in;
  in.k = k;
  in.m = 1;
  in.n = static_cast<long long>(c.xs.size());
  in.delta = theory::Decimal("0.1");
  in.gamma = gamma;
  in.q = theory::Decimal(c.q);
  SmallNLaw law;
  law.eta = theory::certified_eta_random(in).ceil->convert_to<long long>();
  law.beta_paper = theory::certified_beta_random(in).ceil->convert_to<long long>();
  law.beta_union = theory::certified_beta_union(in).ceil->convert_to<long long>();
  law.fail_paper = fail_at(c, static_cast<double>(law.eta), law.beta_paper);
  law.fail_union = fail_at(c, static_cast<double>(law.eta), law.beta_union);
  std::cout << "[exact] " << c.name << ": eta = " << law.eta
            << ", paper's beta = " << law.beta_paper << ": P = " << fraction_string(law.fail_paper)
            << " = " << decimal_string(law.fail_paper, 6) << "; beta_union = " << law.beta_union
            << ": P = " << fraction_string(law.fail_union) << " = "
            << decimal_string(law.fail_union, 6) << " (delta = 1/10)\n";
  return law;
}

}  // namespace

// Theorem 1 with the paper's beta is false at n = 2, and with beta_union it holds there, exactly.
// (a): one cluster {-1, 1}, k = 1, q = 0.93: the search's two probes each fail with probability
// 7/100 at beta = 1, so P = 1 - (93/100)^2. (b): {-1} and {1}, k = 2, q = 0.964. No false alarm is
// possible (exact rationals); each case's beta_union result is the paper's beta's control.
TEST(Theorem1Exact, PapersBetaFailsAtSmallNBetaUnionHolds) {
  const Rational delta(1, 10);
  const SmallNLaw a = small_n_law({"(a) one cluster {-1, 1}", {-1, 1}, {1, 1}, "0.93"});
  EXPECT_EQ(a.eta, 1);
  EXPECT_EQ(a.beta_paper, 1);
  EXPECT_EQ(a.beta_union, 2);
  EXPECT_EQ(a.fail_paper, Rational(1351, 10000));
  EXPECT_GT(a.fail_paper, delta);
  EXPECT_EQ(a.fail_union, Rational(977599, 100000000));
  EXPECT_LE(a.fail_union, delta);
  const SmallNLaw b = small_n_law({"(b) {-1} and {1}", {-1, 1}, {1, 2}, "0.964"});
  EXPECT_EQ(b.eta, 2);
  EXPECT_EQ(b.beta_paper, 1);
  EXPECT_EQ(b.beta_union, 2);
  EXPECT_EQ(fraction_string(b.fail_paper),
            "3104176078407170791370145389767461/29802322387695312500000000000000000");
  EXPECT_GT(b.fail_paper, delta);
  EXPECT_EQ(fraction_string(b.fail_union),
            "1808253991239578817740787228766682297319/465661287307739257812500000000000000000000");
  EXPECT_LE(b.fail_union, delta);
}

TEST(Theorem1Exact, FailureAtMostDeltaOnEveryEnumerableCase) {
  EXPECT_EQ(check_all(Fault::none, false), 0);
}

// Negative control: the search returning j* + 1 (the radius of the next point) is caught by the
// same exact check.
TEST(Theorem1Exact_Negative, OffByOneSearchIsCaught) {
  NegativeControl guard;
  EXPECT_GT(check_all(Fault::off_by_one_search, true), 0);
}

}  // namespace ssac::props
