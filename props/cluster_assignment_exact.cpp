// The cluster-assignment query's success probability (appendix, "Analysis on Weak Pairwise
// Cluster-assignment Query"), exactly: beside the Monte Carlo properties of
// cluster_assignment_query.cpp, the reference's own query is enumerated over every abstention of
// a q random-weak oracle (Definition 5), with exact rational probabilities (ssac/exact.hpp's
// Branches), and the success probability must be exactly q + (1-q) q^(k-1). No false alarm is
// possible: the comparison is of rationals. Note: proofs-notes/cluster-assignment.md.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <vector>

#include "ssac/exact.hpp"
#include "ssac/observer.hpp"
#include "ssac/theory/bounds.hpp"
#include "support.hpp"

namespace ssac::props {
namespace {

// Iteration 1 draws rows 0, 1, ..., k in this order: rows 0..k-1 are one per cluster, row k is a
// second point of cluster 1 (the draws are independent of the answers, so fixing them is
// conditioning on them).
class InOrder : public Chooser {
 public:
  std::size_t choose(const std::vector<std::size_t>& pool, Draw) override {
    return next_++ % pool.size();
  }

 private:
  std::size_t next_ = 0;
};

// The random-weak oracle's Bernoulli(q) per query, branched: the truth with q, not-sure 1 - q.
class BranchingWeak : public Oracle {
 public:
  BranchingWeak(Branches& b, const std::vector<int>& truth, const Rational& q)
      : b_(b), truth_(truth), w_{q, 1 - q} {}
  Answer query(std::size_t x, std::size_t y) override {
    if (b_.decide(w_) == 1) return Answer::NotSure;
    return truth_[x] == truth_[y] ? Answer::Yes : Answer::No;
  }

 private:
  Branches& b_;
  const std::vector<int>& truth_;
  std::vector<Rational> w_;
};

// Stops the run once iteration 1's Phase-1 draws are assigned; records whether the first k draws
// opened clusters 1..k in order (all k anchors known) and whether draw k+1 went to cluster 1.
class AfterAssignment : public RunObserver {
 public:
  struct Stop {};
  void assigned(const Iteration& it) override {
    opened = true;
    for (std::size_t s = 0; s + 1 < it.assignment.size(); ++s)
      opened &= it.assignment[s] == static_cast<int>(s) + 1;
    placed = it.assignment.back() == 1;
    throw Stop{};
  }
  bool opened = false, placed = false;
};

// P(draw k+1 is placed in its cluster | all k clusters known), exactly, for the reference's query
// with or without elimination (S2).
Rational enumerated_success(int k, const Rational& q, bool elimination) {
  Matrix X(k + 1, 1);
  std::vector<int> truth;
  for (int t = 0; t < k; ++t) {
    X(t, 0) = 10.0 * (t + 1);
    truth.push_back(t + 1);
  }
  X(k, 0) = 11.0;
  truth.push_back(1);
  Params P;
  P.k = k;
  P.eta = 1.0 + 1.0 / k;  // r = k + 1
  P.oracle_clusters = k;
  P.elimination = elimination;
  Rational known = 0, placed = 0;
  Branches br;
  do {
    br.restart();
    InOrder chooser;
    BranchingWeak oracle(br, truth, q);
    AfterAssignment obs;
    try {
      run_ssac(X, oracle, chooser, P, &obs);
    } catch (const AfterAssignment::Stop&) {
    }
    if (obs.opened) {
      known += br.probability();
      if (obs.placed) placed += br.probability();
    }
  } while (br.next());
  return placed / known;
}

struct ExactCase {
  int k;
  long long a, b;  // q = a / b
};
rc::Gen<ExactCase> gen_exact_case() {
  return rc::gen::exec([] {
    ExactCase c;
    c.k = *rc::gen::inRange(2, 6);  // up to 2^15 oracle branches at k = 5
    c.b = *rc::gen::inRange(2, 41);
    c.a = *rc::gen::inRange<long long>(1, c.b);  // 0 < q < 1
    return c;
  });
}

void check_exact(bool elimination) {
  const auto c = *gen_exact_case();
  const Rational q(c.a, c.b);
  Rational qk = 1;
  for (int i = 1; i < c.k; ++i)
    qk *= q;
  const Rational claimed = q + (1 - q) * qk;  // q + (1-q) q^(k-1)
  const Rational got = enumerated_success(c.k, q, elimination);
  RC_CLASSIFY(c.k >= 3, "k >= 3 (the appendix's value only a bound)");
  RC_ASSERT(got == claimed);
  // theory/'s value, in 50 digits, is the same number.
  using F = theory::Real50;
  const F th = theory::assign_success_exact<F>(c.k, F(c.a) / F(c.b));
  const F value =
      F(boost::multiprecision::numerator(got)) / F(boost::multiprecision::denominator(got));
  RC_ASSERT(abs(th - value) < F("1e-45"));
}

// Stops the run once iteration 1's Phase-1 draws are assigned and keeps their assignments.
class Assignments : public RunObserver {
 public:
  struct Stop {};
  void assigned(const Iteration& it) override {
    assignment = it.assignment;
    throw Stop{};
  }
  std::vector<int> assignment;
};

// k = 3, rows 0 (cluster 1), 1 (cluster 2), 2 (`third`'s cluster), 3 (the remaining cluster),
// drawn 0, 1, 2 (r = 3): P(draw 3 is placed | draws 1 and 2 opened clusters 1 and 2), exactly.
Rational third_draw_placed(int third, const Rational& q) {
  Matrix X(4, 1);
  X << 10, 20, third == 1 ? 11 : 30, third == 1 ? 30 : 11;
  const std::vector<int> truth{1, 2, third, third == 1 ? 3 : 1};
  Params P;
  P.k = 3;
  P.eta = 1.0;  // r = k eta = 3
  P.oracle_clusters = 3;
  Rational known = 0, placed = 0;
  Branches br;
  do {
    br.restart();
    InOrder chooser;
    BranchingWeak oracle(br, truth, q);
    Assignments obs;
    try {
      run_ssac(X, oracle, chooser, P, &obs);
    } catch (const Assignments::Stop&) {
    }
    if (obs.assignment.size() == 3 && obs.assignment[0] == 1 && obs.assignment[1] == 2) {
      known += br.probability();
      if (obs.assignment[2] != 0) placed += br.probability();
    }
  } while (br.next());
  return placed / known;
}

}  // namespace

// The draws of Phase 1 are not assignment-known with one probability when k >= 3
// (proofs-notes/lemma-distance-ran.md, "What the repair needs"): with clusters 1 and 2 known, a
// draw from cluster 1 is placed on one yes from its anchor (probability q; a no from cluster 2's
// anchor cannot place it while cluster 3 is undiscovered), a draw from the undiscovered cluster 3
// only on two no's (q^2). Both are at least q^(k-1) = q^2, the bound the proof uses. Exact, q =
// 7/10.
TEST(ClusterAssignmentQuery, KnownAndUndiscoveredClusterDrawsArePlacedWithUnequalProbabilities) {
  const Rational q(7, 10);
  const Rational from_known = third_draw_placed(1, q), from_new = third_draw_placed(3, q);
  EXPECT_EQ(from_known, Rational(7, 10));
  EXPECT_EQ(from_new, Rational(49, 100));
  EXPECT_NE(from_known, from_new);
  EXPECT_GE(from_new, q * q);
}

RC_GTEST_PROP(ClusterAssignmentQuery, ExactEnumerationEqualsTheExactValue, ()) {
  check_exact(true);
}

// Negative control: without elimination (S2, the authors' code) the enumeration gives q, which
// differs from q + (1-q) q^(k-1) for every 0 < q < 1.
TEST(ClusterAssignmentQuery_Negative, ExactEnumerationWithoutEliminationIsCaught) {
  EXPECT_TRUE(expect_caught("exact enumeration without elimination", [] { check_exact(false); }));
}

}  // namespace ssac::props
