// Theorem 1 exactly, beside its Monte Carlo check (theorem1_random_weak.cpp): on instances small
// enough to enumerate every draw and abstention (ssac/exact.hpp), Algorithm 1 with Algorithm 2 and
// a q random-weak oracle (Definition 5), at the theorem's eta and beta (theory/), outputs the
// oracle's clustering with probability at least 1 - delta. The probability is exact (a rational),
// so no false alarm is possible, and the cases are not sampled but all taken: two clusters on a
// line of 2 and 1-2 points, q in {0.85, 0.9, 0.95, 1}, delta in {0.3, 0.5, 0.9} (24 cases; a
// third point in the first cluster makes the enumeration take about a minute).
// Note: proofs-notes/theorem1-random-weak.md.
#include <gtest/gtest.h>

#include <cmath>
#include <iostream>
#include <sstream>

#include "ssac/exact.hpp"
#include "ssac/theory/bounds.hpp"
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
  Params P;
  P.k = 2;
  P.eta = theory::eta_random<double>(2, 1, delta, gamma, q);
  P.beta = std::max(1, static_cast<int>(std::ceil(theory::beta_random<double>(2, n, delta, q))));
  P.search = Search::random;  // Algorithm 2
  P.oracle_clusters = 2;
  EXPECT_LE(P.sample_size(), 4U);  // eta <= 1.74 on these cases (ssac bounds)
  ExactOracle o;
  o.spec.kind = OracleKind::random;
  o.q = Rational(q_percent, 100);
  o.spec.q = q;
  ExactOptions opt;
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

}  // namespace

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
