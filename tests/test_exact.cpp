// The exact enumerator (ssac/exact.hpp): hand-worked instances (proofs-notes/exact.md), the
// cluster-assignment success probability against theory/, and Monte Carlo runs of the reference
// against the exact distribution. About 440 lines, one file: the three kinds of check share the
// instance builders and the exact binomial test, and together are the enumerator's own test.
#include <gtest/gtest.h>

#include <boost/math/distributions/binomial.hpp>
#include <map>
#include <tuple>
#include <vector>

#include "ssac/error.hpp"
#include "ssac/exact.hpp"
#include "ssac/observer.hpp"
#include "ssac/oracle_spec.hpp"
#include "ssac/theory/bounds.hpp"
#include "ssac/theory/decimal.hpp"

namespace ssac {
namespace {

Matrix line(const std::vector<double>& xs) {
  Matrix X(static_cast<Eigen::Index>(xs.size()), 1);
  for (std::size_t i = 0; i < xs.size(); ++i)
    X(static_cast<Eigen::Index>(i), 0) = xs[i];
  return X;
}

Rational R(long long a, long long b = 1) {
  return Rational(a, b);
}

Rational probability_of(const ExactResult& r, const std::vector<int>& labels) {
  Rational p = 0;
  for (const auto& o : r.outcomes)
    if (o.labels == labels) p += o.probability;
  return p;
}

// proofs-notes/exact.md, "n = 3, k = 2": a perfect oracle, r = 2.
TEST(Exact, HandWorkedThreePoints) {
  const Matrix X = line({0, 1, 10});
  const std::vector<int> truth = {1, 1, 2};
  Params P;
  P.rules.self_pairs = false;  // worked by hand under the former self-pair rule (exact.md)
  P.k = 2;
  P.eta = 1;
  P.beta = 1;
  P.oracle_clusters = 2;
  ExactOracle o;  // perfect
  const ExactResult r = exact_distribution(X, truth, o, P);
  EXPECT_EQ(r.total, 1);
  EXPECT_EQ(r.p_failure, 0);
  EXPECT_EQ(r.p_exact_recovery, 1);
  ASSERT_EQ(r.outcomes.size(), 2U);
  EXPECT_EQ(probability_of(r, {1, 1, 2}), R(2, 3));
  EXPECT_EQ(probability_of(r, {2, 2, 1}), R(1, 3));
  EXPECT_EQ(r.expected_queries_phase1, R(16, 9));
  EXPECT_EQ(r.expected_queries_phase2, R(2));
  EXPECT_EQ(r.expected_accuracy_pct, R(100));
}

// proofs-notes/exact.md, "n = 4, k = 2 with one not-sure": a local distance-weak oracle that
// abstains on the pair {0, 2} alone, r = 1, beta = 2.
TEST(Exact, HandWorkedFourPointsOneNotSure) {
  const Matrix X = line({0, 1, 2, 10});
  const std::vector<int> truth = {1, 1, 1, 2};
  Params P;
  P.rules.self_pairs = false;  // worked by hand under the former self-pair rule (exact.md)
  P.k = 2;
  P.eta = 0.5;
  P.beta = 2;
  P.oracle_clusters = 2;
  ExactOracle o;
  o.spec.kind = OracleKind::local;
  o.spec.nu = 1.0;
  o.spec.rho = 0.9;
  const ExactResult r = exact_distribution(X, truth, o, P);
  EXPECT_EQ(r.total, 1);
  EXPECT_EQ(r.p_failure, R(1, 4));
  EXPECT_EQ(r.p_exact_recovery, R(1, 3));
  EXPECT_EQ(r.clusters_recovered.at(1), R(1, 4));
  EXPECT_EQ(r.clusters_recovered.at(2), R(3, 4));
  EXPECT_EQ(r.outcomes.size(), 8U);
  EXPECT_EQ(probability_of(r, {1, 1, 1, 2}), R(1, 4));
  EXPECT_EQ(probability_of(r, {1, 1, 0, 0}), R(1, 8));
  EXPECT_EQ(probability_of(r, {1, 1, 0, 2}), R(1, 8));
  EXPECT_EQ(probability_of(r, {0, 1, 1, 0}), R(1, 8));
  EXPECT_EQ(probability_of(r, {0, 1, 1, 2}), R(1, 8));
  EXPECT_EQ(probability_of(r, {2, 2, 0, 1}), R(1, 12));
  EXPECT_EQ(probability_of(r, {2, 2, 2, 1}), R(1, 12));
  EXPECT_EQ(probability_of(r, {0, 2, 2, 1}), R(1, 12));
  EXPECT_EQ(r.expected_queries_phase1, R(1));
  EXPECT_EQ(r.expected_queries_phase2, R(41, 12));
  EXPECT_EQ(r.expected_correct, R(37, 12));
  EXPECT_EQ(r.expected_accuracy_pct, R(925, 12));
}

// proofs-notes/exact.md, "n = 3, k = 2, random-weak q = 1/2": r = 1, unified search with beta = 1
// (a not-sure probe reads out), every query a fair Bernoulli(1/2).
TEST(Exact, HandWorkedThreePointsRandomWeak) {
  const Matrix X = line({0, 1, 10});
  const std::vector<int> truth = {1, 1, 2};
  Params P;
  P.rules.self_pairs = false;  // worked by hand under the former self-pair rule (exact.md)
  P.k = 2;
  P.eta = 0.5;
  P.beta = 1;
  P.search = Search::unified;
  P.oracle_clusters = 2;
  ExactOracle o;
  o.spec.kind = OracleKind::random;
  o.q = R(1, 2);
  o.spec.q = 0.5;
  const ExactResult r = exact_distribution(X, truth, o, P);
  EXPECT_EQ(r.total, 1);
  EXPECT_EQ(r.p_failure, R(7, 12));
  EXPECT_EQ(r.p_exact_recovery, R(1, 4));
  EXPECT_EQ(r.clusters_recovered.at(1), R(7, 12));
  EXPECT_EQ(r.clusters_recovered.at(2), R(5, 12));
  EXPECT_EQ(r.clusters_recovered.count(0), 0U);
  EXPECT_EQ(r.outcomes.size(), 10U);
  EXPECT_EQ(probability_of(r, {1, 1, 2}), R(1, 6));
  EXPECT_EQ(probability_of(r, {2, 2, 1}), R(1, 12));
  for (const std::vector<int>& partial :
       std::vector<std::vector<int>>{{1, 0, 2}, {0, 1, 2}, {2, 0, 1}, {0, 2, 1}})
    EXPECT_EQ(probability_of(r, partial), R(1, 24));
  EXPECT_EQ(probability_of(r, {1, 1, 0}), R(1, 4));
  EXPECT_EQ(probability_of(r, {1, 0, 0}), R(1, 12));
  EXPECT_EQ(probability_of(r, {0, 1, 0}), R(1, 12));
  EXPECT_EQ(probability_of(r, {0, 0, 1}), R(1, 6));
  EXPECT_EQ(r.expected_queries_phase1, R(1));
  EXPECT_EQ(r.expected_queries_phase2, R(5, 3));
  EXPECT_EQ(r.expected_correct, R(23, 12));
  EXPECT_EQ(r.expected_accuracy_pct, R(575, 9));
}

// docs/exact.md, "What is reachable": examples/exact/ten-points.csv (three 2-D clusters of 4, 3 and
// 3 points), perfect oracle, k = 3, eta = 1 (r = 3), beta = 3, unified search. The branch and state
// counts are docs/exact.md's (about 6 s of CPU); the perfect oracle recovers the clustering always.
TEST(Exact, TenPointsPerfectOracleBranchCount) {
  Matrix X(10, 2);
  X << 0, 0, 1, 0, 0, 1, 1, 1, 10, 0, 11, 0, 10, 1, 0, 10, 1, 10, 0, 11;
  const std::vector<int> truth = {1, 1, 1, 1, 2, 2, 2, 3, 3, 3};
  Params P;
  P.rules.self_pairs = false;  // worked by hand under the former self-pair rule (exact.md)
  P.k = 3;
  P.eta = 1;
  P.beta = 3;
  P.oracle_clusters = 3;
  ExactOptions paths;  // the counts are the paths engine's (docs/exact.md's table)
  paths.engine = ExactOptions::Engine::paths;
  const ExactResult r = exact_distribution(X, truth, ExactOracle{}, P, paths);
  EXPECT_EQ(r.total, 1);
  EXPECT_EQ(r.branches, 222518U);
  EXPECT_EQ(r.states, (std::vector<std::size_t>{3302, 44844, 28800}));
  // The former merging (mu'_p by its bits; ExactOptions::Merging::boundaries) gives its former
  // counts, and the same law.
  ExactOptions former;
  former.engine = ExactOptions::Engine::paths;
  former.merging = ExactOptions::Merging::boundaries;
  const ExactResult f = exact_distribution(X, truth, ExactOracle{}, P, former);
  EXPECT_EQ(f.branches, 323886U);
  EXPECT_EQ(f.states, (std::vector<std::size_t>{4038, 97092, 77184}));
  EXPECT_EQ(f.outcomes.size(), r.outcomes.size());
  for (std::size_t i = 0; i < r.outcomes.size() && i < f.outcomes.size(); ++i) {
    EXPECT_EQ(f.outcomes[i].labels, r.outcomes[i].labels);
    EXPECT_EQ(f.outcomes[i].probability, r.outcomes[i].probability);
  }
  EXPECT_EQ(r.p_exact_recovery, 1);
  EXPECT_EQ(r.outcomes.size(), 6U);
  EXPECT_EQ(r.expected_queries_phase1, R(2405517, 171500));
  EXPECT_EQ(r.expected_queries_phase2, R(79119, 8575));
}

// proofs-notes/exact.md, "The joint law": the n = 3 instance with the numbers of queries.
TEST(Exact, HandWorkedThreePointsJointLaw) {
  const Matrix X = line({0, 1, 10});
  const std::vector<int> truth = {1, 1, 2};
  Params P;
  P.rules.self_pairs = false;  // worked by hand under the former self-pair rule (exact.md)
  P.k = 2;
  P.eta = 1;
  P.beta = 1;
  P.oracle_clusters = 2;
  ExactOptions opt;
  opt.joint_queries = true;
  const ExactResult r = exact_distribution(X, truth, ExactOracle{}, P, opt);
  std::map<std::tuple<std::vector<int>, std::uint64_t, std::uint64_t>, Rational> got;
  for (const auto& o : r.joint)
    got[{o.labels, o.queries_phase1, o.queries_phase2}] += o.probability;
  const std::map<std::tuple<std::vector<int>, std::uint64_t, std::uint64_t>, Rational> want = {
      {{{1, 1, 2}, 1, 2}, R(4, 9)},
      {{{1, 1, 2}, 2, 2}, R(2, 9)},
      {{{2, 2, 1}, 1, 2}, R(1, 9)},
      {{{2, 2, 1}, 3, 2}, R(1, 6)},
      {{{2, 2, 1}, 5, 2}, R(1, 18)}};
  EXPECT_EQ(got, want);
  EXPECT_EQ(r.joint.size(), 5U);
}

// The joint law's margins are the labels' law and the expected numbers of queries computed
// without it (by linearity), on instances with every kind of random event.
TEST(Exact, JointLawMarginsAgreeWithTheLabelsLaw) {
  struct Case {
    std::vector<double> xs;
    std::vector<int> truth;
    OracleKind kind;
    Rational q;
    int beta;
    Search search;
  };
  const std::vector<Case> cases = {
      {{0, 1, 2, 10, 11}, {1, 1, 1, 2, 2}, OracleKind::random, R(1, 2), 3, Search::unified},
      {{0, 1, 2, 9, 10}, {1, 1, 1, 2, 2}, OracleKind::random, R(3, 5), 3, Search::random},
      {{0, 2, 6, 8, 16}, {1, 1, 2, 2, 2}, OracleKind::local, R(1), 2, Search::unified}};
  for (const Case& c : cases) {
    Params P;
    P.k = 2;
    P.eta = 1;
    P.beta = c.beta;
    P.search = c.search;
    P.oracle_clusters = 2;
    ExactOracle o;
    o.spec.kind = c.kind;
    o.spec.nu = 2.5;
    o.q = c.q;
    const ExactResult plain = exact_distribution(line(c.xs), c.truth, o, P);
    ExactOptions opt;
    opt.joint_queries = true;
    const ExactResult joint = exact_distribution(line(c.xs), c.truth, o, P, opt);
    std::map<std::vector<int>, Rational> margin, labels;
    Rational q1 = 0, q2 = 0, total = 0;
    for (const auto& e : joint.joint) {
      margin[e.labels] += e.probability;
      q1 += e.probability * e.queries_phase1;
      q2 += e.probability * e.queries_phase2;
      total += e.probability;
    }
    for (const auto& e : plain.outcomes)
      labels[e.labels] += e.probability;
    EXPECT_EQ(total, 1);
    EXPECT_EQ(margin, labels);
    EXPECT_EQ(q1, plain.expected_queries_phase1);
    EXPECT_EQ(q2, plain.expected_queries_phase2);
    EXPECT_GT(joint.joint.size(), plain.outcomes.size());
    EXPECT_TRUE(plain.joint.empty());
  }
}

// Merging on what the rest of the run reads (ExactOptions::Merging::future) gives exactly the law
// of the former merging at three boundaries with mu'_p by its bits: the law of the labels and the
// expected queries of each phase, as fractions (the joint law's own check is
// JointLawMarginsAgreeWithTheLabelsLaw, and DistributionCorpus.ExactLawWritesTheSameLaw). The first
// instance is built so that draw order matters to the floating-point mean: Z_p = {0.1, 0.4, 0.7}
// summed in different orders gives centres that order rows 0 and 2 differently, so a state that
// kept Z_t only as a multiset before p is chosen (r = 4: three draws of cluster 1 before the last)
// would merge branches with different futures, and this test fails. The others cover the
// correlated oracle, a random anchor rule and a deterministic oracle. About 12 s of CPU.
TEST(Exact, MergingOnTheFutureGivesTheFormerLaw) {
  struct Case {
    std::vector<double> xs;
    std::vector<int> truth;
    OracleKind kind;
    Rational q;
    double eta;
    int beta;
    Search search;
    OracleMemory memory = OracleMemory::fresh;
    AnchorRule anchor = AnchorRule::opener;
  };
  const std::vector<Case> cases = {
      {{0.1, 0.4, 0.7, 5.0}, {1, 1, 1, 2}, OracleKind::random, R(7, 10), 2, 2, Search::unified},
      {{0, 1, 2, 10, 11}, {1, 1, 1, 2, 2}, OracleKind::correlated, R(3, 5), 1, 3, Search::unified},
      {{0, 1, 2, 10, 11},
       {1, 1, 1, 2, 2},
       OracleKind::random,
       R(7, 10),
       1,
       3,
       Search::unified,
       OracleMemory::fresh,
       AnchorRule::random_labelled_row},
      {{0, 2, 6, 8, 16}, {1, 1, 2, 2, 2}, OracleKind::local, R(1), 1, 2, Search::unified}};
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const Case& c = cases[i];
    Params P;
    P.k = 2;
    P.eta = c.eta;
    P.beta = c.beta;
    P.search = c.search;
    P.rules.anchor = c.anchor;
    P.oracle_clusters = 2;
    ExactOracle o;
    o.spec.kind = c.kind;
    o.spec.memory = c.memory;
    o.spec.nu = 2.5;
    o.spec.rho = 0.5;
    o.q = c.q;
    o.coin_flip = c.search == Search::plain;
    ExactOptions future, former;
    future.engine = former.engine = ExactOptions::Engine::paths;
    former.merging = ExactOptions::Merging::boundaries;
    const ExactResult a = exact_distribution(line(c.xs), c.truth, o, P, future);
    const ExactResult b = exact_distribution(line(c.xs), c.truth, o, P, former);
    ASSERT_EQ(a.outcomes.size(), b.outcomes.size()) << "case " << i;
    std::map<std::vector<int>, Rational> la, lb;
    for (std::size_t j = 0; j < a.outcomes.size(); ++j) {
      la[a.outcomes[j].labels] += a.outcomes[j].probability;
      lb[b.outcomes[j].labels] += b.outcomes[j].probability;
    }
    EXPECT_EQ(la, lb) << "case " << i;
    EXPECT_EQ(a.expected_queries_phase1, b.expected_queries_phase1) << "case " << i;
    EXPECT_EQ(a.expected_queries_phase2, b.expected_queries_phase2) << "case " << i;
    EXPECT_EQ(a.total, 1);
    EXPECT_LE(a.branches, b.branches) << "case " << i;
  }
}

// The budget is an error, never a truncated answer.
TEST(Exact, BudgetIsAnError) {
  const Matrix X = line({0, 1, 10});
  Params P;
  P.k = 2;
  P.eta = 1;
  P.beta = 1;
  ExactOptions opt;
  opt.max_branches = 3;
  EXPECT_THROW(exact_distribution(X, {1, 1, 2}, ExactOracle{}, P, opt), ParameterError);
}

// The decimals and fractions printed.
TEST(Exact, Formatting) {
  EXPECT_EQ(decimal_string(R(2, 3), 5), "0.66667");
  EXPECT_EQ(decimal_string(R(1, 8), 2), "0.13");
  EXPECT_EQ(decimal_string(R(925, 12), 3), "77.083");
  EXPECT_EQ(decimal_string(R(0), 2), "0.00");
  EXPECT_EQ(fraction_string(R(6, 8)), "3/4");
  EXPECT_EQ(fraction_string(R(1)), "1/1");
}

// Definition 4 with all k anchors known: the first k draws of iteration 1 open the k clusters
// (rows 0..k-1, one per cluster, in this order) and draw k+1 is row k, of cluster 1. Enumerating
// the random-weak oracle's abstentions and the draws, P(row k is placed in cluster 1 | the first
// k draws opened the k clusters in order) must be q + (1-q) q^(k-1) (theory's exact value).
class StopAfterAssignment : public RunObserver {
 public:
  struct Stop {};
  void sample_drawn(const Iteration& it) override {
    for (std::size_t s = 0; s < it.sample.size(); ++s)
      if (it.sample[s] != s) throw Stop{};  // not the draws conditioned on
  }
  void assigned(const Iteration& it) override {
    opened = true;
    for (std::size_t s = 0; s + 1 < it.assignment.size(); ++s)
      opened &= it.assignment[s] == static_cast<int>(s) + 1;
    placed = it.assignment.back() == 1;
    throw Stop{};
  }
  bool opened = false, placed = false;
};

Rational exact_of(const theory::Decimal& d) {
  Rational v(d.coefficient());
  const long long e = d.exponent();
  const theory::Decimal::Int p =
      boost::multiprecision::pow(theory::Decimal::Int(10), static_cast<unsigned>(e < 0 ? -e : e));
  return e < 0 ? v / Rational(p) : v * Rational(p);
}

TEST(Exact, AssignmentSuccessEqualsTheory) {
  for (int k : {2, 3, 4}) {
    for (const char* qs : {"0.5", "0.7", "0.93"}) {
      const theory::Decimal qd(qs);
      const Rational q = exact_of(qd);
      std::vector<double> xs;
      std::vector<int> truth;
      for (int t = 1; t <= k; ++t) {
        xs.push_back(10.0 * t);
        truth.push_back(t);
      }
      xs.push_back(11.0);
      truth.push_back(1);
      const Matrix X = line(xs);
      Params P;
      P.k = k;
      P.eta = 1.0 + 1.0 / k;  // r = k + 1
      P.oracle_clusters = k;
      PerfectOracle truth_oracle(truth);
      Rational cond = 0, joint = 0;
      Branches br;
      do {
        br.restart();
        BranchingChooser chooser(br);
        // The random-weak oracle's Bernoulli(q) per query, as exact_distribution branches it.
        struct Weak : Oracle {
          Weak(Branches& b, Oracle& t, Rational q) : b_(b), t_(t), w_{q, 1 - q} {}
          Answer query(std::size_t x, std::size_t y) override {
            return b_.decide(w_) == 0 ? t_.query(x, y) : Answer::NotSure;
          }
          Branches& b_;
          Oracle& t_;
          std::vector<Rational> w_;
        } oracle(br, truth_oracle, q);
        StopAfterAssignment obs;
        try {
          run_ssac(X, oracle, chooser, P, &obs);
        } catch (const StopAfterAssignment::Stop&) {
        }
        if (obs.opened) {
          cond += br.probability();
          if (obs.placed) joint += br.probability();
        }
      } while (br.next());
      const auto th = theory::assign_success_decimals(k, qd, 100);
      ASSERT_TRUE(th.exact.has_value());
      EXPECT_EQ(joint / cond, exact_of(*th.exact)) << "k = " << k << ", q = " << qs;
    }
  }
}

// Whether p lies in the exact two-sided binomial (Clopper-Pearson) interval of level 1 - alpha
// computed from `count` events in `N` trials.
bool in_interval(std::uint64_t N, std::uint64_t count, const Rational& p, double alpha) {
  using B = boost::math::binomial_distribution<double>;
  const double n = static_cast<double>(N), x = static_cast<double>(count);
  const double pd = p.convert_to<double>();
  return B::find_lower_bound_on_p(n, x, alpha / 2) <= pd &&
         B::find_upper_bound_on_p(n, x, alpha / 2) >= pd;
}

// 10^5 runs of the reference (its own random streams: `run(seed)` gives the final labels) against
// the exact distribution of the final labels: every labelling's count lies in the exact two-sided
// binomial (Clopper-Pearson) interval; the false-alarm budget 1e-6 is split evenly over the
// labellings (Bonferroni). Returns the counts for the negative control.
template <class RunFn>
std::map<std::vector<int>, std::uint64_t> expect_monte_carlo_agrees(const ExactResult& ex,
                                                                    RunFn run) {
  EXPECT_EQ(ex.total, 1);
  std::map<std::vector<int>, Rational> exact;
  for (const auto& e : ex.outcomes)
    exact[e.labels] += e.probability;
  const std::uint64_t N = 100000;
  std::map<std::vector<int>, std::uint64_t> seen;
  for (std::uint64_t seed = 0; seed < N; ++seed)
    ++seen[run(seed)];
  for (const auto& [labels, count] : seen)
    EXPECT_TRUE(exact.count(labels)) << "a labelling the enumeration says is impossible";
  const double alpha = 1e-6 / static_cast<double>(exact.size());
  for (const auto& [labels, p] : exact)
    EXPECT_TRUE(in_interval(N, seen.count(labels) ? seen.at(labels) : 0, p, alpha))
        << "labels " << ::testing::PrintToString(labels) << ", exact " << p;
  return seen;
}

Params six_point_params() {
  Params P;
  P.k = 2;
  P.eta = 1;
  P.beta = 3;
  P.oracle_clusters = 2;
  return P;
}

const std::vector<int> kSixTruth = {1, 1, 1, 2, 2, 2};

TEST(Exact, MonteCarloAgreesRandomWeak) {
  const Matrix X = line({0, 1, 2, 10, 11, 13});
  const Params P = six_point_params();
  ExactOracle o;
  o.spec.kind = OracleKind::random;
  o.q = R(7, 10);
  const auto seen =
      expect_monte_carlo_agrees(exact_distribution(X, kSixTruth, o, P), [&](std::uint64_t seed) {
        RandomWeakOracle oracle(kSixTruth, 0.7, Rng::stream(seed, {kStreamOracle}));
        return run_ssac(X, oracle, P, seed).labels;
      });
  // Negative control: the same counts against q = 0.6's exact distribution are rejected.
  o.q = R(6, 10);
  const ExactResult wrong = exact_distribution(X, kSixTruth, o, P);
  int rejected = 0;
  for (const auto& e : wrong.outcomes)
    rejected += !in_interval(100000, seen.count(e.labels) ? seen.at(e.labels) : 0, e.probability,
                             1e-6 / static_cast<double>(wrong.outcomes.size()));
  EXPECT_GT(rejected, 0);
}

TEST(Exact, MonteCarloAgreesPerPairMemory) {
  const Matrix X = line({0, 1, 2, 10, 11});
  const std::vector<int> truth = {1, 1, 1, 2, 2};
  const Params P = six_point_params();
  ExactOracle o;
  o.spec.kind = OracleKind::random;
  o.spec.memory = OracleMemory::per_pair;
  o.q = R(1, 2);
  expect_monte_carlo_agrees(exact_distribution(X, truth, o, P), [&](std::uint64_t seed) {
    RandomWeakOracle oracle(truth, 0.5, Rng::stream(seed, {kStreamOracle}), OracleMemory::per_pair);
    return run_ssac(X, oracle, P, seed).labels;
  });
}

TEST(Exact, MonteCarloAgreesCorrelated) {
  const Matrix X = line({0, 1, 3, 10, 11, 14});
  const Params P = six_point_params();
  ExactOracle o;
  o.spec.kind = OracleKind::correlated;
  o.spec.rho = 0.5;
  o.q = R(3, 5);
  expect_monte_carlo_agrees(exact_distribution(X, kSixTruth, o, P), [&](std::uint64_t seed) {
    CorrelatedWeakOracle oracle(X, kSixTruth, 0.6, 0.5, Rng::stream(seed, {kStreamOracle}));
    return run_ssac(X, oracle, P, seed).labels;
  });
}

// The original SSAC: plain binary search, each not-sure a fair coin flip.
TEST(Exact, MonteCarloAgreesCoinFlip) {
  const Matrix X = line({0, 1, 2, 10, 11});
  const std::vector<int> truth = {1, 1, 1, 2, 2};
  Params P = six_point_params();
  P.search = Search::plain;
  ExactOracle o;
  o.spec.kind = OracleKind::random;
  o.q = R(4, 5);
  o.coin_flip = true;
  expect_monte_carlo_agrees(exact_distribution(X, truth, o, P), [&](std::uint64_t seed) {
    RandomWeakOracle base(truth, 0.8, Rng::stream(seed, {kStreamOracle}));
    AskedOracle oracle(base, true, Rng::stream(seed, {kStreamCoinFlip}));
    return run_ssac(X, oracle.get(), P, seed).labels;
  });
}

}  // namespace
}  // namespace ssac
