// SSAC (Algorithm 1 with Algorithms 2-4 and the plain search) on instances small enough to run
// by hand. Each expected label, radius and query count is derived in the comments.
#include <gtest/gtest.h>

#include <algorithm>
#include <deque>
#include <functional>
#include <limits>

#include "ssac/error.hpp"
#include "ssac/generator.hpp"
#include "ssac/metrics.hpp"
#include "ssac/ssac.hpp"

using namespace ssac;

namespace {

// Returns scripted positions; fails the test when the script runs out.
class ScriptedChooser : public Chooser {
 public:
  // strict: running out of script fails the test; otherwise position 0 is returned from then on.
  explicit ScriptedChooser(std::deque<std::size_t> script, bool strict = true)
      : script_(std::move(script)), strict_(strict) {}
  std::size_t choose(const std::vector<std::size_t>& pool, Draw) override {
    if (script_.empty()) {
      if (strict_) ADD_FAILURE() << "chooser script exhausted";
      return 0;
    }
    const std::size_t p = script_.front();
    script_.pop_front();
    EXPECT_LT(p, pool.size());
    return p;
  }
  bool done() const { return script_.empty(); }

 private:
  std::deque<std::size_t> script_;
  bool strict_;
};

// An oracle given by a function of the pair.
class FnOracle : public Oracle {
 public:
  explicit FnOracle(std::function<Answer(std::size_t, std::size_t)> f) : f_(std::move(f)) {}
  Answer query(std::size_t x, std::size_t y) override { return f_(x, y); }

 private:
  std::function<Answer(std::size_t, std::size_t)> f_;
};

// Rows 0..5 on a line: 0, 1, 2 (cluster 1) and 10, 11, 12 (cluster 2).
Matrix six_points() {
  Matrix X(6, 1);
  X << 0, 1, 2, 10, 11, 12;
  return X;
}
const std::vector<int> kSix = {1, 1, 1, 2, 2, 2};

}  // namespace

TEST(Ssac, HandWorkedUnifiedSearchWithPerfectOracle) {
  // k = 2, eta = 1: r = 2 draws per iteration.
  // Iteration 1, S = [0..5]. Draws at positions 1, 4 -> rows 1, 4.
  //   row 1: no cluster known -> opens cluster 1 (opener and anchor 1), no query.
  //   row 4: Q(4, 1) = no, 1 < k known -> opens cluster 2 (opener and anchor 4). 1 query.
  //   |Z_1| = |Z_2| = 1: tie -> p = 1 (earliest). mu' = x_1 = 1.
  //   sorted by |x - 1|, ties by row: rows 1 (0), 0 (1), 2 (1), 3 (9), 4 (10), 5 (11).
  //   search lo 0 hi 5: j 2 -> row 2, Q(1, 2) yes -> lo 3; j 4 -> row 4, Q(1, 4) no -> hi 3;
  //   j 3 -> row 3, Q(1, 3) no -> hi 2. j* = 3, r' = d(10, 1) = 9. C'_1 = rows 0, 1, 2.
  // Iteration 2, S = [3, 4, 5]. Draws at positions 0, 2 -> rows 3, 5.
  //   row 3: Q(3, 1) no, Q(3, 4) yes -> 2. row 5: Q(5, 1) no, Q(5, 4) yes -> 2. 4 queries.
  //   p = 2, Z_p = {3, 5}, mu' = 11. sorted: rows 4 (0), 3 (1), 5 (1). x_1 = row 4.
  //   lo 0 hi 2: j 1 -> row 3, Q(4, 3) yes -> lo 2; j 2 -> row 5, Q(4, 5) yes -> lo 3.
  //   j* = 3 = |S|: r' = +inf, all of S assigned.
  // Queries: phase 1 = 1 + 4 = 5, phase 2 = 3 + 2 = 5.
  const Matrix X = six_points();
  PerfectOracle oracle(kSix);
  ScriptedChooser chooser({1, 4, 0, 2});
  Params P;
  P.k = 2;
  P.eta = 1;
  P.beta = 1;
  const Result R = run_ssac(X, oracle, chooser, P);
  EXPECT_TRUE(chooser.done());
  EXPECT_EQ(R.labels, kSix);
  EXPECT_EQ(R.queries_phase1, 5u);
  EXPECT_EQ(R.queries_phase2, 5u);
  EXPECT_EQ(R.status, "ok");
  EXPECT_FALSE(R.failed);
  ASSERT_EQ(R.iterations.size(), 2u);
  const Iteration& a = R.iterations[0];
  EXPECT_EQ(a.sample, (std::vector<std::size_t>{1, 4}));
  EXPECT_EQ(a.assignment, (std::vector<int>{1, 2}));
  EXPECT_EQ(a.p, 1);
  EXPECT_EQ(a.center[0], 1.0);
  EXPECT_EQ(a.x1, 1u);
  ASSERT_EQ(a.steps.size(), 3u);
  EXPECT_EQ(a.steps[0].j, 2u);
  EXPECT_EQ(a.steps[1].j, 4u);
  EXPECT_EQ(a.steps[2].j, 3u);
  EXPECT_EQ(a.j_star, 3u);
  EXPECT_EQ(a.radius, 9.0);
  EXPECT_EQ(a.assigned, 3u);
  const Iteration& b = R.iterations[1];
  EXPECT_EQ(b.p, 2);
  EXPECT_EQ(b.center[0], 11.0);
  EXPECT_EQ(b.radius, std::numeric_limits<double>::infinity());
  EXPECT_EQ(R.recovery_order, (std::vector<int>{1, 2}));
  EXPECT_EQ(R.openers, (std::vector<std::size_t>{1, 4}));
  // The query log holds the pairs in the order asked.
  ASSERT_EQ(R.queries.size(), 10u);
  EXPECT_EQ(R.queries[0].x, 4u);
  EXPECT_EQ(R.queries[0].y, 1u);
  EXPECT_EQ(R.queries[1].purpose, Purpose::search_x1);
  EXPECT_EQ(R.queries[1].x, 1u);
  EXPECT_EQ(R.queries[1].y, 2u);
}

TEST(Ssac, RandomSearchFailsWhenAllBetaAnswersAreNotSure) {
  // Algorithm 2 with an oracle that answers Phase 1 truthfully and is not-sure for every query
  // whose second row is 2. Iteration 1 as above up to the search: Z_1 = {1}, sorted rows
  // 1, 0, 2, 3, 4, 5. lo 0 hi 5: j 2 -> row 2; beta = 3 draws from Z_1 = {1} -> Q(1, 2) three
  // times, all not-sure -> fail. Iteration 2 starts again from S = [0..5]: draws rows 3, 5 -> Q(3,
  // 1) no, Q(3, 4) yes; Q(5, 1) no, Q(5, 4) yes -> p = 2, Z_2 = {3, 5}, mu' = 11, sorted rows 4, 3,
  // 5, 2, 1, 0; j 2 -> row 5: B = rows 3, 5, 3 (positions 0, 1, 0 of Z_2): Q(3, 5) yes, Q(5, 5) a
  // self-pair, asked like any pair (S4): yes, Q(3, 5) yes -> in, lo 3; j 4 -> row 1: B = 3, 3, 3:
  // three no -> out, hi 3; j 3 -> row 2: Q(3, 2) x3 not-sure -> fail.
  const Matrix X = six_points();
  FnOracle oracle([](std::size_t x, std::size_t y) {
    if (y == 2) return Answer::NotSure;
    return kSix[x] == kSix[y] ? Answer::Yes : Answer::No;
  });
  ScriptedChooser chooser({1, 4, 0, 0, 0, 3, 5, 0, 1, 0, 0, 0, 0, 0, 0, 0});
  Params P;
  P.k = 2;
  P.eta = 1;
  P.beta = 3;
  P.search = Search::random;
  const Result R = run_ssac(X, oracle, chooser, P);
  EXPECT_TRUE(chooser.done());
  ASSERT_EQ(R.iterations.size(), 2u);
  EXPECT_EQ(R.iterations[0].outcome, Outcome::search_failed);
  EXPECT_EQ(R.iterations[1].outcome, Outcome::search_failed);
  ASSERT_EQ(R.iterations[1].steps.size(), 3u);
  EXPECT_EQ(R.iterations[1].steps[0].sample, (std::vector<std::size_t>{3, 5, 3}));
  EXPECT_EQ(R.iterations[1].steps[0].decision, Decision::in);
  EXPECT_EQ(R.iterations[1].steps[1].decision, Decision::out);
  EXPECT_TRUE(R.failed);
  EXPECT_EQ(R.labels, std::vector<int>(6, 0));
  EXPECT_EQ(R.status,
            "iteration 1: search_failed; iteration 2: search_failed; fewer than k clusters "
            "recovered (0 of 2)");
  // Phase 2 queries: 3 (iteration 1) + 3 + 3 + 3 (iteration 2, the self-pair Q(5, 5) among them).
  EXPECT_EQ(R.queries_phase2, 12u);
  EXPECT_EQ(std::count_if(R.queries.begin(), R.queries.end(),
                          [](const QueryRecord& q) { return q.x == 5 && q.y == 5; }),
            1);
  EXPECT_EQ(R.queries_phase1, 1u + 4u);
}

TEST(Ssac, Phase1AllNotSureSkipsTheIteration) {
  // An oracle that is never sure; k = 2, eta = 0.5 (r = 1), beta = 1, unified search, under
  // self-pairs=off (S4's former rule; the default is below).
  // Iteration 1 draws row 0, which opens cluster 1 without a query; Z_1 = {0}, mu' = 0, sorted
  // rows 0..5, x_1 = row 0. Search lo 0 hi 5: j 2 -> Q(0, 2) not-sure and beta - 1 = 0 more
  // queries -> out, hi 1; j 0 is x_1 itself -> in, lo 1; j 1 -> Q(0, 1) not-sure -> out, hi 0.
  // j* = 1, r' = d(1, 0) = 1, C'_1 = {row 0}. Iteration 2: S = rows 1..5, position 2 = row 3;
  // Q(3, 0) not-sure with one of k = 2 clusters known -> not-sure: Phase 1 all not-sure.
  const Matrix X = six_points();
  FnOracle oracle([](std::size_t, std::size_t) { return Answer::NotSure; });
  ScriptedChooser chooser({0, 2});
  Params P;
  P.k = 2;
  P.eta = 0.5;
  P.beta = 1;
  P.rules.self_pairs = false;
  const Result R = run_ssac(X, oracle, chooser, P);
  EXPECT_TRUE(chooser.done());
  ASSERT_EQ(R.iterations.size(), 2u);
  EXPECT_EQ(R.iterations[0].outcome, Outcome::recovered);
  EXPECT_EQ(R.iterations[0].j_star, 1u);
  EXPECT_EQ(R.iterations[0].radius, 1.0);
  EXPECT_EQ(R.iterations[1].outcome, Outcome::phase1_all_not_sure);
  EXPECT_EQ(R.labels, (std::vector<int>{1, 0, 0, 0, 0, 0}));
  EXPECT_EQ(R.queries_phase1, 1u);
  EXPECT_EQ(R.queries_phase2, 2u);
  EXPECT_TRUE(R.failed);
  EXPECT_EQ(R.status, "iteration 2: phase1_all_not_sure; fewer than k clusters recovered (1 of 2)");
  // By default (S4) j 0 asks Q(0, 0), not-sure -> out, hi -1: j* = 0 and C'_1 is empty. Iteration 2
  // starts again from all six rows, draws position 2 = row 2: Q(2, 0) not-sure.
  P.rules.self_pairs = true;
  ScriptedChooser again({0, 2});
  const Result D = run_ssac(X, oracle, again, P);
  EXPECT_TRUE(again.done());
  ASSERT_EQ(D.iterations.size(), 2u);
  EXPECT_EQ(D.iterations[0].outcome, Outcome::empty_cluster);
  EXPECT_EQ(D.iterations[0].j_star, 0u);
  EXPECT_EQ(D.iterations[1].outcome, Outcome::phase1_all_not_sure);
  EXPECT_EQ(D.labels, std::vector<int>(6, 0));
  EXPECT_EQ(D.queries_phase2, 2u);
  EXPECT_EQ(D.status,
            "iteration 1: empty_cluster; iteration 2: phase1_all_not_sure; fewer than k clusters "
            "recovered (0 of 2)");
}

TEST(Ssac, EliminationIdentifiesTheClusterFromKMinusOneNoAnswers) {
  // Three clusters on a line. The first three draws, rows 0, 2, 4, open clusters 1, 2, 3 (each
  // gets "no" from every known anchor). The fourth draw, row 1 (cluster 1), is answered
  // Q(1, 0) not-sure, Q(1, 2) no, Q(1, 4) no: with all k = 3 anchors known, the appendix's rule
  // (k - 1 definite answers suffice) gives cluster 1; the authors'-code rule gives not-sure.
  Matrix X(6, 1);
  X << 0, 1, 10, 11, 20, 21;
  const std::vector<int> L = {1, 1, 2, 2, 3, 3};
  for (bool elim : {true, false}) {
    FnOracle oracle([&](std::size_t x, std::size_t y) {
      if (x == 1 && y == 0) return Answer::NotSure;
      return L[x] == L[y] ? Answer::Yes : Answer::No;
    });
    ScriptedChooser chooser({0, 2, 4, 1}, /*strict=*/false);
    Params P;
    P.k = 3;
    P.eta = 4.0 / 3.0;  // r = ceil(3 * 4/3) = 4
    P.beta = 1;
    P.elimination = elim;
    const Result R = run_ssac(X, oracle, chooser, P);
    EXPECT_EQ(R.iterations[0].assignment, (std::vector<int>{1, 2, 3, elim ? 1 : 0}));
    // Queries for the four draws: 0, 1, 2, then 3.
    std::size_t first_iteration = 0;
    for (const auto& q : R.queries)
      first_iteration += q.iteration == 1 && q.phase == 1;
    EXPECT_EQ(first_iteration, 6u);
  }
}

TEST(Ssac, SampleSizeIsTheExactCeiling) {
  Params P;
  P.k = 3;
  P.eta = 10;
  EXPECT_EQ(P.sample_size(), 30u);
  P.eta = 0.1;  // 3 * 0.1000000000000000055... = 0.30000000000000001665...: ceiling 1
  EXPECT_EQ(P.sample_size(), 1u);
  // eta just above 1/3: the exact product is 1 + 2^-53, which rounds to 1.0 in double; the
  // ceiling of the exact product is 2.
  P.eta = std::nextafter(1.0 / 3.0, 1.0);
  EXPECT_EQ(3.0 * P.eta, 1.0);
  EXPECT_EQ(P.sample_size(), 2u);
  P.eta = 1.0 / 3.0;  // exact product 1 - 2^-54: ceiling 1
  EXPECT_EQ(P.sample_size(), 1u);
}

TEST(Ssac, ParametersOutsideTheirRangeAreNamed) {
  Params P;
  P.k = 7;
  try {
    P.check(6);
    FAIL();
  } catch (const ParameterError& e) {
    EXPECT_EQ(std::string(e.what()), "k = 7 is outside its admissible range [1, n] = [1, 6]");
  }
  P.k = 2;
  P.eta = 0;
  EXPECT_THROW(P.check(6), ParameterError);
  P.eta = 1;
  P.beta = 0;
  EXPECT_THROW(P.check(6), ParameterError);
}

TEST(Ssac, PerfectOracleOnWellSeparatedDataRecoversEveryRun) {
  // Well-separated data (gamma > 1.3), eta = 20, a perfect oracle (Definition 3): every search
  // variant (Algorithms 2, 3, 4 and the plain search) recovers all k clusters.
  for (std::uint64_t seed = 0; seed < 60; ++seed) {
    GeneratorParams g;
    g.n = 600;
    g.k = 3 + static_cast<int>(seed % 3);
    g.m = 2 + seed % 4;
    g.sigma = 0.5;  // sigma 1.75 in [-10, 10]^2 rarely reaches gamma > 1.3 with k = 5
    g.gamma_min = 1.3;
    g.gamma_max = std::numeric_limits<double>::infinity();
    g.seed = seed;
    const Generated data = generate(g);
    for (Search s : {Search::random, Search::distance, Search::unified, Search::plain}) {
      PerfectOracle oracle(data.data.labels);
      Params P;
      P.k = g.k;
      P.eta = 20;
      P.search = s;
      const Result R = run_ssac(data.data.points, oracle, P, seed);
      const Evaluation ev = evaluate(data.data.points, data.data.labels, R);
      EXPECT_EQ(ev.accuracy_pct, 100.0) << "seed " << seed << " search " << to_string(s);
      EXPECT_EQ(R.status, "ok");
    }
  }
}

TEST(Ssac, SameSeedSameRun) {
  GeneratorParams g;
  g.n = 300;
  g.seed = 5;
  const Generated data = generate(g);
  Params P;
  P.eta = 5;
  auto run = [&](std::uint64_t seed) {
    RandomWeakOracle oracle(data.data.labels, 0.7, Rng::stream(seed, {kStreamOracle}));
    return run_ssac(data.data.points, oracle, P, seed);
  };
  const Result a = run(1), b = run(1), c = run(2);
  EXPECT_EQ(a.labels, b.labels);
  EXPECT_EQ(a.queries.size(), b.queries.size());
  EXPECT_EQ(a.iterations[0].sample, b.iterations[0].sample);
  EXPECT_NE(a.iterations[0].sample, c.iterations[0].sample);
}
