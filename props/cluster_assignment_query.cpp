// Appendix, "Analysis on Weak Pairwise Cluster-assignment Query": with all k anchors known and a
// q random-weak oracle, the query succeeds with probability at least q^{k-1}; the appendix's
// k(1-q)q^{k-1} + q^k ("at least k-1 definite answers"). For lib/src/algorithm/ssac.cpp's query (a
// yes gives the cluster; k-1 no and one not-sure identify it by elimination) the exact value is q +
// (1-q) q^{k-1} (theory::assign_success_exact), which equals the appendix's only for k <= 2. Note:
// proofs-notes/cluster-assignment.md.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cmath>
#include <sstream>

#include "ssac/theory/bounds.hpp"
#include "support.hpp"

namespace ssac::props {
namespace {

struct Tally {
  std::uint64_t trials = 0, successes = 0;
};

// Runs SSAC and replays each Phase-1 draw's queries from Result::queries to find the draws made
// while all k anchors were known (and that are not anchors themselves): each is one Bernoulli
// trial of the cluster-assignment query with the abstentions of its own k queries.
void tally_run(const Matrix& X, const std::vector<int>& labels, int k, double q, bool elimination,
               std::uint64_t seed, Tally& t) {
  RandomWeakOracle oracle(labels, q, Rng::stream(seed, {kStreamOracle}));
  Params P;
  P.k = k;
  P.eta = std::max(4.0, 2000.0 / (k * k));  // about 2000 draws per iteration
  P.beta = 1;
  P.search = Search::unified;
  P.elimination = elimination;
  const Result R = run_ssac(X, oracle, P, seed);
  std::size_t qi = 0;
  std::vector<std::size_t> anchors;
  for (const auto& it : R.iterations) {
    for (std::size_t s = 0; s < it.sample.size(); ++s) {
      const std::size_t x = it.sample[s];
      bool is_anchor = false;
      for (auto a : anchors)
        is_anchor |= a == x;
      if (is_anchor) continue;
      const std::size_t known = anchors.size();
      while (qi < R.queries.size() && R.queries[qi].purpose != Purpose::assignment)
        ++qi;
      bool all_no = true;
      for (std::size_t j = 0; j < known; ++j, ++qi)
        all_no &= R.queries[qi].answer == Answer::No;
      if (known == static_cast<std::size_t>(k)) {
        ++t.trials;
        t.successes += it.assignment[s] != 0;
      } else if (all_no && it.assignment[s] == static_cast<int>(known) + 1) {
        anchors.push_back(x);
      }
    }
  }
}

struct AssignCase {
  int k;
  double q;
  std::uint64_t seed;
};
rc::Gen<AssignCase> gen_assign_case() {
  return rc::gen::exec([] {
    AssignCase c;
    c.k = *rc::gen::inRange(2, 21);
    // q^(k-1) >= 0.3, so that all k anchors get known within a run (opening the last cluster
    // needs k-1 "no" answers in a row).
    const double q_min = std::pow(0.3, 1.0 / (c.k - 1));
    c.q = q_min + (1 - q_min) * (*rc::gen::inRange(0, 100) / 100.0);
    c.seed = *rc::gen::arbitrary<std::uint64_t>();
    return c;
  });
}

// k clusters of 3 points on a line, far apart (the geometry does not matter for Phase 1).
Matrix line_clusters(int k, std::vector<int>& labels) {
  Matrix X(3 * k, 1);
  labels.clear();
  for (int i = 0; i < k; ++i)
    for (int j = 0; j < 3; ++j) {
      X(3 * i + j, 0) = 100.0 * i + j;
      labels.push_back(i + 1);
    }
  return X;
}

Tally measure(const AssignCase& c, bool elimination) {
  std::vector<int> labels;
  const Matrix X = line_clusters(c.k, labels);
  Tally t;
  // 100000 trials: the two-sided Clopper-Pearson interval at alpha = 5e-7 / cases is about
  // +-0.009 wide at p = 1/2, enough to tell q + (1-q)q^(k-1) from the appendix's value for k >= 3.
  const std::uint64_t want = 100000;
  for (std::uint64_t r = 0; t.trials < want && r < 2000; ++r)
    tally_run(X, labels, c.k, c.q, elimination, c.seed + r, t);
  return t;
}

std::string describe_case(const AssignCase& c) {
  std::ostringstream os;
  os << "k=" << c.k << " q=" << c.q << " seed=" << c.seed;
  return os.str();
}

// Two-sided: the rate is consistent with `p` (each side at half the per-case alpha).
bool consistent(const std::string& name, const AssignCase& c, const Tally& t, double p,
                const std::string& claim) {
  return rate_at_least(name + "_lo", describe_case(c), t.successes, t.trials, p, claim, 0.5) &&
         rate_at_most(name + "_hi", describe_case(c), t.successes, t.trials, p, claim, 0.5);
}

}  // namespace

RC_GTEST_PROP(ClusterAssignmentQuery, SuccessAtLeastQToTheKMinusOne, ()) {
  const auto c = *gen_assign_case();
  const Tally t = measure(c, true);
  RC_ASSERT(t.trials > 0);
  RC_ASSERT(rate_at_least("assign_success_lower", describe_case(c), t.successes, t.trials,
                          theory::assign_success_lower<double>(c.k, c.q), "q^(k-1)"));
}

RC_GTEST_PROP(ClusterAssignmentQuery, SuccessEqualsExactValue, ()) {
  const auto c = *gen_assign_case();
  const Tally t = measure(c, true);
  RC_ASSERT(t.trials > 0);
  RC_CLASSIFY(c.k <= 2, "k <= 2 (paper's value exact)");
  RC_CLASSIFY(c.k >= 10, "k >= 10");
  RC_CLASSIFY(c.q < 0.9, "q < 0.9");
  RC_ASSERT(consistent("assign_success_exact", c, t, theory::assign_success_exact<double>(c.k, c.q),
                       "q+(1-q)q^(k-1)"));
}

// The appendix's k(1-q)q^{k-1} + q^k as the exact value: rejected for k >= 3 whenever the gap is
// resolvable -- recorded as a finding: the appendix's proof of the cluster-assignment query takes
// it as the success probability (at least k-1 definite answers), but a yes from x's own anchor
// suffices alone, so it is only a lower bound (proofs-notes/cluster-assignment.md).
TEST(ClusterAssignmentQuery, PapersValueIsOnlyALowerBoundForKAtLeast3) {
  EXPECT_TRUE(expect_caught("k(1-q)q^(k-1)+q^k as the exact success probability", [] {
    auto c = *gen_assign_case();
    c.k = std::max(c.k, 3);
    const Tally t = measure(c, true);
    RC_ASSERT(consistent("assign_success_paper", c, t,
                         theory::assign_success_paper<double>(c.k, c.q), "k(1-q)q^(k-1)+q^k"));
  }));
}

// Negative controls: without elimination the exact value is caught; an oracle with q^2 in place of
// q run against the q^(k-1) lower bound (k = 2) is caught.
TEST(ClusterAssignmentQuery_Negative, NoEliminationIsCaught) {
  EXPECT_TRUE(expect_caught("assignment without elimination", [] {
    const auto c = *gen_assign_case();
    const Tally t = measure(c, false);
    RC_ASSERT(consistent("assign_success_exact", c, t,
                         theory::assign_success_exact<double>(c.k, c.q), "q+(1-q)q^(k-1)"));
  }));
}

TEST(ClusterAssignmentQuery_Negative, WeakerOracleIsCaught) {
  EXPECT_TRUE(expect_caught("oracle with q^2 against q^(k-1)", [] {
    auto c = *gen_assign_case();
    c.k = 2;
    AssignCase weaker = c;
    weaker.q = c.q * c.q;
    const Tally t = measure(weaker, true);
    RC_ASSERT(rate_at_least("assign_success_lower", describe_case(c), t.successes, t.trials,
                            theory::assign_success_lower<double>(c.k, c.q), "q^(k-1)"));
  }));
}

}  // namespace ssac::props
