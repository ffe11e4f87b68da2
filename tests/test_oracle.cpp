// Each oracle's definition checked on constructed pairs whose answers are derived by hand.
#include <gtest/gtest.h>

#include <boost/math/distributions/binomial.hpp>
#include <sstream>

#include "ssac/error.hpp"
#include "ssac/oracle.hpp"

using namespace ssac;

namespace {
// One-dimensional instance: C1 = {-1, 1} (mean 0, radius 1), C2 = {3, 5} (mean 4, radius 1),
// C3 = {10, 10.5, 13.5} (mean 11.333..., radius 2.1666...).
Matrix line() {
  Matrix X(7, 1);
  X << -1, 1, 3, 5, 10, 10.5, 13.5;
  return X;
}
const std::vector<int> kLabels = {1, 1, 2, 2, 3, 3, 3};
}  // namespace

TEST(PerfectOracle, AnswersFromLabels) {
  PerfectOracle o(kLabels);
  EXPECT_EQ(o.query(0, 1), Answer::Yes);
  EXPECT_EQ(o.query(1, 2), Answer::No);
  EXPECT_EQ(o.query(4, 6), Answer::Yes);
}

TEST(LocalDistanceWeak, ConditionAIsStrictAndUsesTheNearerCenterDistance) {
  const Matrix X = line();
  // Rows 1 (x = 1, d(x, mu_1) = 1) and 2 (y = 3, d(y, mu_2) = 1): d(x, y) = 2.
  // Definition 6 (a): not-sure iff 2 < (nu - 1) * min(1, 1) = nu - 1, i.e. iff nu > 3.
  auto at3 = DistanceWeakOracle::local(X, kLabels, 3.0, 1.0);
  EXPECT_EQ(at3.query(1, 2), Answer::No);  // 2 < 2 is false
  auto above = DistanceWeakOracle::local(X, kLabels, 3.0000001, 1.0);
  EXPECT_EQ(above.query(1, 2), Answer::NotSure);
  EXPECT_EQ(above.query(2, 1), Answer::NotSure);  // symmetric
  // Rows 0 (x = -1, d = 1) and 3 (y = 5, d = 1): d = 6 >= (nu - 1) for nu <= 7.
  EXPECT_EQ(above.query(0, 3), Answer::No);
  // nu = 1 never abstains across clusters: (nu - 1) min(...) = 0.
  auto one = DistanceWeakOracle::local(X, kLabels, 1.0, 1.0);
  for (std::size_t a = 0; a < 7; ++a)
    for (std::size_t b = 0; b < 7; ++b)
      if (kLabels[a] != kLabels[b]) {
        EXPECT_EQ(one.query(a, b), Answer::No);
      }
}

TEST(LocalDistanceWeak, ConditionBIsStrictOnTwiceRhoRadius) {
  const Matrix X = line();
  // C1: d(-1, 1) = 2 and r(C1) = 1: not-sure iff 2 > 2 rho, i.e. iff rho < 1.
  EXPECT_EQ(DistanceWeakOracle::local(X, kLabels, 1.0, 1.0).query(0, 1), Answer::Yes);
  EXPECT_EQ(DistanceWeakOracle::local(X, kLabels, 1.0, 0.999).query(0, 1), Answer::NotSure);
  // C3: mean 34/3, radius 13.5 - 34/3 = 13/6; d(10, 13.5) = 3.5 > 2 rho 13/6 iff rho < 21/26.
  EXPECT_EQ(DistanceWeakOracle::local(X, kLabels, 1.0, 0.81).query(4, 6), Answer::Yes);
  EXPECT_EQ(DistanceWeakOracle::local(X, kLabels, 1.0, 0.80).query(4, 6), Answer::NotSure);
  // d(10, 10.5) = 0.5 stays answerable for any rho >= 0.5 / (2 * 13/6) = 3/26.
  EXPECT_EQ(DistanceWeakOracle::local(X, kLabels, 1.0, 0.2).query(4, 5), Answer::Yes);
}

TEST(GlobalDistanceWeak, ConditionAUsesEachPointsOwnRadius) {
  const Matrix X = line();
  // Row 1: d(1, mu_1) = 1 = r(C1); row 2: d(3, mu_2) = 1 = r(C2). Definition 7 (a): not-sure iff
  // either distance exceeds rho times its radius, i.e. iff rho < 1.
  EXPECT_EQ(DistanceWeakOracle::global(X, kLabels, 1.0).query(1, 2), Answer::No);
  EXPECT_EQ(DistanceWeakOracle::global(X, kLabels, 0.99).query(1, 2), Answer::NotSure);
  // Row 5: d(10.5, 34/3) = 5/6 <= rho 13/6 iff rho >= 5/13; row 0: d = 1 <= rho iff rho >= 1.
  EXPECT_EQ(DistanceWeakOracle::global(X, kLabels, 1.0).query(5, 0), Answer::No);
  EXPECT_EQ(DistanceWeakOracle::global(X, kLabels, 0.5).query(5, 0), Answer::NotSure);
  // Same-cluster pairs follow condition (b) only.
  EXPECT_EQ(DistanceWeakOracle::global(X, kLabels, 0.5).query(4, 5), Answer::Yes);
}

TEST(DistanceWeak, ParametersOutsideTheirRange) {
  const Matrix X = line();
  EXPECT_THROW(DistanceWeakOracle::local(X, kLabels, 0.99, 1.0), ParameterError);
  EXPECT_THROW(DistanceWeakOracle::local(X, kLabels, 1.0, 0.0), ParameterError);
  EXPECT_THROW(DistanceWeakOracle::global(X, kLabels, 1.01), ParameterError);
}

TEST(RandomWeakOracle, AbstainsWithProbabilityExactlyOneMinusQ) {
  // Clopper-Pearson two-sided interval at false-alarm rate 1e-9 per q.
  const int N = 100000;
  for (double q : {0.1, 0.7, 0.85}) {
    RandomWeakOracle o(kLabels, q, Rng(8));
    int unsure = 0;
    for (int i = 0; i < N; ++i) {
      const Answer a = o.query(0, 2);
      if (a == Answer::NotSure)
        ++unsure;
      else
        EXPECT_EQ(a, Answer::No);  // it never lies
    }
    using B = boost::math::binomial_distribution<double>;
    EXPECT_LE(B::find_lower_bound_on_p(N, unsure, 0.5e-9), 1 - q);
    EXPECT_GE(B::find_upper_bound_on_p(N, unsure, 0.5e-9), 1 - q);
  }
  RandomWeakOracle sure(kLabels, 1.0, Rng(1));
  for (int i = 0; i < 1000; ++i)
    EXPECT_EQ(sure.query(0, 1), Answer::Yes);
  EXPECT_THROW(RandomWeakOracle(kLabels, 0.0, Rng(1)), ParameterError);
  EXPECT_THROW(RandomWeakOracle(kLabels, 1.5, Rng(1)), ParameterError);
}

TEST(CoinFlipOracle, KeepsDefiniteAnswersAndFlipsAFairCoinOtherwise) {
  PerfectOracle perfect(kLabels);
  CoinFlipOracle same(perfect, Rng(3));
  for (int i = 0; i < 100; ++i)
    EXPECT_EQ(same.query(0, 2), Answer::No);
  RandomWeakOracle never(kLabels, 1e-300, Rng(4));  // practically always not-sure
  CoinFlipOracle coin(never, Rng(5));
  const int N = 100000;
  int yes = 0;
  for (int i = 0; i < N; ++i) {
    const Answer a = coin.query(0, 2);
    ASSERT_NE(a, Answer::NotSure);
    yes += a == Answer::Yes;
  }
  using B = boost::math::binomial_distribution<double>;
  EXPECT_LE(B::find_lower_bound_on_p(N, yes, 0.5e-9), 0.5);
  EXPECT_GE(B::find_upper_bound_on_p(N, yes, 0.5e-9), 0.5);
}

TEST(InteractiveOracle, PromptsParsesRemembersAndLogs) {
  const Matrix X = line();
  std::istringstream in("maybe\ny\n?\nNo\n");
  std::ostringstream out, log;
  InteractiveOracle o(X, in, out, &log);
  EXPECT_EQ(o.query(0, 1), Answer::Yes);  // "maybe" is refused, then "y"
  EXPECT_EQ(o.query(1, 0), Answer::Yes);  // the same unordered pair is not asked again
  EXPECT_EQ(o.query(2, 4), Answer::NotSure);
  EXPECT_EQ(o.query(3, 5), Answer::No);
  EXPECT_EQ(o.asked(), 3u);
  EXPECT_NE(out.str().find("row 1: (-1)"), std::string::npos);
  EXPECT_NE(out.str().find("Please type y, n or ?."), std::string::npos);
  EXPECT_EQ(log.str(), "0,1,yes\n2,4,not-sure\n3,5,no\n");
  EXPECT_THROW(o.query(0, 6), DataError);  // input ended

  // A new session preloads the log and asks only what is new.
  std::istringstream prev(log.str()), in2("n\n");
  std::ostringstream out2;
  InteractiveOracle again(X, in2, out2);
  again.preload(prev, "answers.log");
  EXPECT_EQ(again.query(4, 2), Answer::NotSure);
  EXPECT_EQ(again.query(0, 6), Answer::No);
  EXPECT_EQ(again.asked(), 1u);
  std::istringstream bad("0,1,yes\n0,x,no\n"), none;
  std::ostringstream sink;
  InteractiveOracle third(X, none, sink);
  try {
    third.preload(bad, "answers.log");
    FAIL();
  } catch (const DataError& e) {
    EXPECT_EQ(std::string(e.what()),
              "answers.log:2:3: column 2 (y): 'x' is not a row number below 7");
  }
  // The same reader as ssac label's answer file (read_answer_lines): quoted fields are CSV fields.
  std::istringstream quoted("\"0\",\"6\",\"no\"\n"), quoted_comma("0,\"1,2\",no\n");
  InteractiveOracle fourth(X, none, sink);
  fourth.preload(quoted, "answers.log");
  EXPECT_EQ(fourth.query(6, 0), Answer::No);
  EXPECT_EQ(fourth.asked(), 0u);
  try {
    fourth.preload(quoted_comma, "answers.log");
    FAIL();
  } catch (const DataError& e) {
    EXPECT_EQ(std::string(e.what()),
              "answers.log:1:3: column 2 (y): '1,2' is not a row number below 7");
  }
}

TEST(RecordingOracle, RecordsEveryQueryInOrder) {
  PerfectOracle perfect(kLabels);
  RecordingOracle rec(perfect);
  rec.query(0, 1);
  rec.query(2, 6);
  ASSERT_EQ(rec.count(), 2u);
  EXPECT_EQ(rec.entries()[1].x, 2u);
  EXPECT_EQ(rec.entries()[1].y, 6u);
  EXPECT_EQ(rec.entries()[1].answer, Answer::No);
}

// Oracle memory (proofs-notes/oracle-independence.md): per-pair keeps the first answer to an
// unordered pair, and draws once per distinct pair -- exactly the draws a fresh oracle makes when
// no pair repeats.
TEST(RandomWeakMemory, PerPairRepeatsTheFirstAnswerAndDrawsOncePerPair) {
  for (std::uint64_t seed = 0; seed < 20; ++seed) {
    RandomWeakOracle fresh(kLabels, 0.5, Rng::stream(seed, {3}));
    RandomWeakOracle memo(kLabels, 0.5, Rng::stream(seed, {3}), OracleMemory::per_pair);
    std::vector<Answer> first;
    for (std::size_t a = 0; a < 7; ++a)
      for (std::size_t b = a + 1; b < 7; ++b) {
        const Answer f = fresh.query(a, b);
        EXPECT_EQ(memo.query(a, b), f);
        first.push_back(f);
      }
    std::size_t i = 0;
    for (std::size_t a = 0; a < 7; ++a)
      for (std::size_t b = a + 1; b < 7; ++b, ++i) {
        EXPECT_EQ(memo.query(b, a), first[i]);  // either order, any number of times
        EXPECT_EQ(memo.query(a, b), first[i]);
      }
  }
}

TEST(RandomWeakMemory, FreshDrawsAgainForARepeatedPair) {
  RandomWeakOracle fresh(kLabels, 0.5, Rng::stream(1, {3}));
  int not_sure = 0, answered = 0;
  for (int t = 0; t < 200; ++t)
    (fresh.query(0, 1) == Answer::NotSure ? not_sure : answered) += 1;
  // 200 fair draws: both outcomes occur except with probability 2^-199.
  EXPECT_GT(not_sure, 0);
  EXPECT_GT(answered, 0);
  EXPECT_STREQ(to_string(OracleMemory::per_pair), "per-pair");
}

// The correlated model on the hand-worked line: with rho = 0.9 the hard points are those with
// d(x, mu_i) > 0.9 r(C_i): all of C1 and C2 (every point at the radius) and 13.5 in C3
// (d = 13/6 = r); 10 (d = 4/3 < 0.9 * 13/6 = 1.95) and 10.5 (d = 5/6) are not hard.
TEST(CorrelatedWeak, ConfusedRunsAbstainOnEveryPairWithAHardPointAndNoOther) {
  const Matrix X = line();
  int confused = 0;
  for (std::uint64_t seed = 0; seed < 400; ++seed) {
    CorrelatedWeakOracle o(X, kLabels, 0.7, 0.9, Rng::stream(seed, {3}));
    for (std::size_t r : {0, 1, 2, 3, 6})
      EXPECT_TRUE(o.hard(r));
    EXPECT_FALSE(o.hard(4));
    EXPECT_FALSE(o.hard(5));
    confused += o.confused();
    for (std::size_t a = 0; a < 7; ++a)
      for (std::size_t b = 0; b < 7; ++b) {
        if (a == b) continue;
        const Answer truth = kLabels[a] == kLabels[b] ? Answer::Yes : Answer::No;
        const bool abstains = o.confused() && (o.hard(a) || o.hard(b));
        EXPECT_EQ(o.query(a, b), abstains ? Answer::NotSure : truth);
      }
  }
  // P(confused) = 1 - q = 0.3 exactly; 400 runs: the exact two-sided 1e-6 binomial interval.
  using boost::math::binomial_distribution;
  const double lo = binomial_distribution<>::find_lower_bound_on_p(400, confused, 0.5e-6);
  const double hi = binomial_distribution<>::find_upper_bound_on_p(400, confused, 0.5e-6);
  EXPECT_LE(lo, 0.3);
  EXPECT_GE(hi, 0.3);
}

TEST(CorrelatedWeak, RejectsParametersOutsideDefinition5AndItsHardSet) {
  const Matrix X = line();
  EXPECT_THROW(CorrelatedWeakOracle(X, kLabels, 0.0, 0.9, Rng(1)), ParameterError);
  EXPECT_THROW(CorrelatedWeakOracle(X, kLabels, 0.7, 1.5, Rng(1)), ParameterError);
}
