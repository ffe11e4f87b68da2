// The small-scope sweep (ssac/theory/smallscope.hpp): its enumeration, its exact margin and gamma,
// and a small sweep that must find, by itself, Theorem 1's violation with the paper's beta
// (proofs-notes/smallscope.md) and none with beta_union, while a deliberately too small beta is
// caught.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "ssac/error.hpp"
#include "ssac/exact.hpp"
#include "ssac/theory/smallscope.hpp"

namespace {

namespace ss = ssac::theory::smallscope;
using ssac::decimal_string;
using ssac::fraction_string;
using ssac::Rational;
using ssac::theory::Decimal;

ss::Instance one_d(std::vector<int> xs, std::vector<int> labels) {
  ss::Instance in;
  in.m = 1;
  for (int x : xs)
    in.points.push_back({x});
  in.labels = std::move(labels);
  return in;
}

TEST(SmallScope, EnumerationDeduplicatesTranslationReflectionAndRelabelling) {
  ss::Grid g;
  g.dims = {1};
  g.side1 = 3;
  g.min_n = 2;
  g.max_n = 3;
  g.max_k = 3;
  std::size_t before = 0;
  const auto all = ss::enumerate(g, &before);
  // n = 2: sets {0,1}, {0,2} (touching 0) x 2 partitions; n = 3: {0,1,2} x 5 partitions.
  EXPECT_EQ(before, 4u + 5u);
  // {0,2} is {0,1} scaled by 2; the reflection x -> 2 - x maps {0,1,2} labelled 1 1 2 onto
  // 1 2 2: one of the two is kept.
  ASSERT_EQ(all.size(), 2u + 4u);
  std::vector<std::string> seen;
  for (const auto& in : all)
    seen.push_back(ss::instance_csv(in));
  EXPECT_EQ(seen[0], "x,label\n0,1\n1,1\n");
  EXPECT_EQ(seen[1], "x,label\n0,1\n1,2\n");
  EXPECT_EQ(seen[2], "x,label\n0,1\n1,1\n2,1\n");
  EXPECT_EQ(seen[3], "x,label\n0,1\n1,1\n2,2\n");
  EXPECT_EQ(seen[4], "x,label\n0,1\n1,2\n2,1\n");
  EXPECT_EQ(seen[5], "x,label\n0,1\n1,2\n2,3\n");
  // m = 2: the square's eight symmetries; a 2 x 2 grid with n = 2 has the side and the diagonal.
  g.dims = {2};
  g.side2 = 2;
  g.max_n = 2;
  const auto sq = ss::enumerate(g, &before);
  // {(0,0),(0,1)}, {(0,0),(1,0)}, {(0,0),(1,1)}, {(0,1),(1,0)} touch both axes; the first two
  // are one side up to the symmetries, the last two one diagonal.
  EXPECT_EQ(before, 4u * 2u);
  ASSERT_EQ(sq.size(), 2u * 2u);
  EXPECT_EQ(ss::instance_csv(sq[0]), "x,y,label\n0,0,1\n0,1,1\n");
  EXPECT_EQ(ss::instance_csv(sq[3]), "x,y,label\n0,0,1\n1,1,2\n");
}

TEST(SmallScope, HypothesesAreExact) {
  std::optional<Rational> m2;
  // 0 1 | 3: mean 1/2, radius 1/2, outsider 5/2: margin 5; the singleton constrains nothing.
  EXPECT_EQ(ss::hypotheses(one_d({0, 1, 3}, {1, 1, 2}), &m2), "");
  ASSERT_TRUE(m2);
  EXPECT_EQ(fraction_string(*m2), "25/1");
  EXPECT_EQ(ss::gamma_below(m2).str(), "4.99");
  // 0 2 | 3: means 1 and 3; x = 2 is as far from the other mean as from its own: Definition 1's
  // strict nearest mean fails at row 2.
  EXPECT_EQ(ss::hypotheses(one_d({0, 2, 3}, {1, 1, 2}), &m2),
            "Definition 1 (row 2 not strictly nearest its mean)");
  // 0 2 | 5 6: means 1 and 11/2, radii 1 and 1/2; nearest outsiders 4 (from 1) and 7/2 (from
  // 11/2): margin min(4, 7) = 4... squared 16.
  EXPECT_EQ(ss::hypotheses(one_d({0, 2, 5, 6}, {1, 1, 2, 2}), &m2), "");
  EXPECT_EQ(fraction_string(*m2), "16/1");
  EXPECT_EQ(ss::gamma_below(m2).str(), "3.99");  // strictly below the margin 4
  // One cluster: no outsider, infinite margin, gamma 100.
  EXPECT_EQ(ss::hypotheses(one_d({0, 2}, {1, 1}), &m2), "");
  EXPECT_FALSE(m2);
  EXPECT_EQ(ss::gamma_below(m2).str(), "100");
  // A margin just above 1 needs a finer step: 1.01 exactly -> 1.009; sqrt(2) -> 1.41.
  EXPECT_EQ(ss::gamma_below(Rational(10201, 10000)).str(), "1.009");
  EXPECT_EQ(ss::gamma_below(Rational(2)).str(), "1.41");
  // sqrt(1 + 10^-8) = 1.000000004999...: the first step that stays above 1 is 10^-9.
  EXPECT_EQ(ss::gamma_below(Rational(100000001, 100000000)).str(), "1.000000004");
}

ss::Options referee_sweep() {
  ss::Options o;
  o.grid.dims = {1};
  o.grid.side1 = 3;
  o.grid.min_n = 2;
  o.grid.max_n = 2;
  o.grid.max_k = 2;
  o.grid.q = {Decimal("0.93"), Decimal("0.964")};
  o.grid.delta = {Decimal("0.1")};
  o.grid.threshold_levels = 0;
  o.claims = {ss::Claim::theorem1, ss::Claim::appendix_c};
  o.betas = {ss::BetaKind::paper, ss::BetaKind::union_bound, ss::BetaKind::union_minus_one,
             ss::BetaKind::paper_log2};
  return o;
}

// The checks of one (claim, beta) on instance `csv` at q, and their exact probabilities.
const ss::Check* find(const ss::Report& r, const std::string& csv, const std::string& q,
                      ss::Claim claim, ss::BetaKind b) {
  for (const auto& c : r.checks)
    if (ss::instance_csv(r.instances[c.instance]) == csv && c.q.str() == q && c.claim == claim &&
        c.beta_kind == b)
      return &c;
  return nullptr;
}

TEST(SmallScope, FindsTheRefereesInstancesAndBetaUnionHolds) {
  const ss::Report r = ss::sweep(referee_sweep());
  const std::string a = "x,label\n0,1\n1,1\n", b = "x,label\n0,1\n1,2\n";
  // (a) one cluster, q = 0.93: beta_random = 0.98... -> 1, two search steps each failing with
  // 7/100: 1 - (93/100)^2, for both searches; exact's P(failure) (fewer than k) is 0.
  for (ss::Claim claim : {ss::Claim::theorem1, ss::Claim::appendix_c}) {
    const ss::Check* c = find(r, a, "0.93", claim, ss::BetaKind::paper);
    ASSERT_NE(c, nullptr);
    EXPECT_EQ(c->r, 1u);
    EXPECT_EQ(c->beta, 1u);
    const ss::Run& run = r.runs[c->run];
    ASSERT_TRUE(run.done);
    EXPECT_EQ(fraction_string(run.p_not_recovered), "1351/10000");
    // exact's P(failure), fewer than k clusters: Algorithm 2's failed step leaves the cluster
    // unrecovered; Algorithm 4 reads all not-sure as "out" and can end with the cluster
    // recovered but too small (one step fails: 7/100), which only the theorem's event counts.
    EXPECT_EQ(fraction_string(run.p_failure),
              claim == ss::Claim::theorem1 ? "1351/10000" : "7/100");
    // beta_union = log(2 * 2 / 0.1) / log(1/0.07) = 1.39 -> 2: 1 - (1 - 0.07^2)^2.
    const ss::Check* u = find(r, a, "0.93", claim, ss::BetaKind::union_bound);
    ASSERT_NE(u, nullptr);
    EXPECT_EQ(u->beta, 2u);
    EXPECT_EQ(fraction_string(r.runs[u->run].p_not_recovered), "977599/100000000");
  }
  // The log2 reading of the paper's log n: log(2 / 0.1) / log(1/0.07) = 2.99573 / 2.65926 -> 2 at n
  // = 2.
  const ss::Check* l2 = find(r, a, "0.93", ss::Claim::theorem1, ss::BetaKind::paper_log2);
  ASSERT_NE(l2, nullptr);
  EXPECT_EQ(l2->beta, 2u);
  EXPECT_EQ(ssac::theory::to_string(l2->beta_value, 6), "1.126529e+00");
  // (b) two clusters, q = 0.964, Algorithm 2: beta 1 against 2.
  const ss::Check* pb = find(r, b, "0.964", ss::Claim::theorem1, ss::BetaKind::paper);
  ASSERT_NE(pb, nullptr);
  EXPECT_EQ(pb->beta, 1u);
  EXPECT_EQ(pb->r, 3u);
  EXPECT_EQ(decimal_string(r.runs[pb->run].p_not_recovered, 5), "0.10417");
  const ss::Check* ub = find(r, b, "0.964", ss::Claim::theorem1, ss::BetaKind::union_bound);
  ASSERT_NE(ub, nullptr);
  EXPECT_EQ(ub->beta, 2u);
  EXPECT_EQ(decimal_string(r.runs[ub->run].p_not_recovered, 4), "0.0039");

  // Over the sweep: the paper's beta is caught, beta_union never, beta_union - 1 is.
  std::size_t paper = 0, uni = 0, minus = 0, run_all = 0;
  for (const auto& c : r.checks) {
    const ss::Run& run = r.runs[c.run];
    if (!run.done) continue;
    ++run_all;
    const bool bad = run.p_not_recovered > Rational(1, 10);
    paper += bad && c.beta_kind == ss::BetaKind::paper;
    uni += bad && c.beta_kind == ss::BetaKind::union_bound;
    minus += bad && c.beta_kind == ss::BetaKind::union_minus_one;
  }
  EXPECT_EQ(run_all, r.checks.size());
  // The paper's beta: (a) under both searches, (b) under Algorithm 2 (Algorithm 4 holds at
  // 0.964 with beta 1). beta_union - 1 adds (a) and (b) at q = 0.93 (r = 4, beta 1).
  EXPECT_EQ(paper, 3u);
  EXPECT_EQ(uni, 0u);
  EXPECT_EQ(minus, 5u);
}

TEST(SmallScope, SameResultsWhateverTheThreads) {
  ss::Options o = referee_sweep();
  o.rules = {"paper", "self-pairs=off"};
  const ss::Report one = ss::sweep(o);
  o.threads = 3;
  const ss::Report three = ss::sweep(o);
  ASSERT_EQ(one.runs.size(), three.runs.size());
  for (std::size_t i = 0; i < one.runs.size(); ++i) {
    EXPECT_EQ(one.runs[i].p_not_recovered, three.runs[i].p_not_recovered);
    EXPECT_EQ(one.runs[i].branches, three.runs[i].branches);
  }
}

TEST(SmallScope, BudgetsAreEnforced) {
  ss::Options o = referee_sweep();
  o.max_runs = 3;
  try {
    ss::sweep(o);
    FAIL() << "no error";
  } catch (const ssac::ParameterError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("--max-runs = 3 is too small: this sweep needs ", 0), 0u)
        << e.what();
  }
  o.max_runs = 1000;
  o.max_branches = 1;  // every run needs more than one re-execution: all beyond reach
  const ss::Report r = ss::sweep(o);
  for (const auto& run : r.runs) {
    EXPECT_FALSE(run.done);
    EXPECT_EQ(run.beyond, ss::Run::Beyond::reexecutions);
  }
  // The count arithmetic's budget is the other one a run can exceed, and it is told apart.
  o.max_branches = 20000;
  o.max_states = 1;
  const ss::Report s = ss::sweep(o);
  std::size_t over_states = 0;
  for (const auto& run : s.runs) {
    EXPECT_EQ(run.beyond, run.done ? ss::Run::Beyond::no : ss::Run::Beyond::states);
    over_states += run.beyond == ss::Run::Beyond::states;
  }
  EXPECT_GT(over_states, 0u);
  EXPECT_THROW(ss::rule_profile("self-pairs=maybe"), ssac::ParameterError);
}

}  // namespace

namespace {

// The exact law of `in` as the sweep runs it (random-weak oracle, paper's rules), at r = 3 draws.
ssac::ExactResult law_of(const ss::Instance& in, ssac::Search search) {
  ssac::Matrix X(static_cast<Eigen::Index>(in.n()), in.m);
  for (std::size_t i = 0; i < in.n(); ++i)
    for (int d = 0; d < in.m; ++d)
      X(static_cast<Eigen::Index>(i), d) = in.points[i][d];
  ssac::ExactOracle eo;
  eo.spec.kind = ssac::OracleKind::random;
  eo.q = Rational(1, 2);
  ssac::Params P;
  P.k = in.clusters();
  P.eta = 1.5;  // r = ceil(k eta) = 3
  P.beta = 1;
  P.search = search;
  P.oracle_clusters = P.k;
  return ssac::exact_distribution(X, in.labels, eo, P);
}

TEST(SmallScope, DistinctOrdersAreOnePerOrderingOfTheReadPairs) {
  EXPECT_EQ(ss::distinct_orders(3, {}), (std::vector<std::vector<std::size_t>>{{0, 1, 2}}));
  // One pair read: the identity, then the first order (lexicographically) putting row 2 first.
  EXPECT_EQ(ss::distinct_orders(3, {{0, 2}}),
            (std::vector<std::vector<std::size_t>>{{0, 1, 2}, {1, 2, 0}}));
  EXPECT_EQ(ss::distinct_orders(4, {{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}}).size(), 24u);
  EXPECT_EQ(ss::instance_csv(ss::reordered(one_d({0, 1, 2}, {1, 1, 2}), {1, 2, 0})),
            "x,label\n1,1\n2,2\n0,1\n");
}

// The negative control of the row-order reduction: 0 1 | 2 (margin 3, so it meets the
// hypotheses) has an exact tie between 0 (in C_1) and 2 (outside) when Z_p = {1}, and one between
// 0 and 1 when Z_p = {0, 1}; S6 breaks them by row. Under Algorithm 4 the order putting 2 before 0
// gives another law (the search probes the outsider or the tied row of C_1 first); the order
// reversing only the tie inside C_1 gives the lexicographic law.
TEST(SmallScope, RowOrderChangesTheLawWhereATieIsBroken) {
  const ss::Instance in = one_d({0, 1, 2}, {1, 1, 2});
  const ssac::ExactResult lex = law_of(in, ssac::Search::unified);
  ASSERT_EQ(lex.tied_pairs, (std::vector<std::pair<std::size_t, std::size_t>>{{0, 1}, {0, 2}}));
  const auto orders = ss::distinct_orders(in.n(), lex.tied_pairs);
  ASSERT_EQ(orders,
            (std::vector<std::vector<std::size_t>>{{0, 1, 2}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}}));
  const ssac::ExactResult other = law_of(ss::reordered(in, orders[3]), ssac::Search::unified);
  EXPECT_EQ(fraction_string(lex.p_failure), "28991/36864");
  EXPECT_EQ(fraction_string(other.p_failure), "352457/442368");
  // The theorem's event is the same here: a tied row of C_1 is never in C'_1 (strictly closer).
  EXPECT_EQ(lex.p_exact_recovery, other.p_exact_recovery);
  const ssac::ExactResult same = law_of(ss::reordered(in, orders[1]), ssac::Search::unified);
  EXPECT_EQ(same.p_failure, lex.p_failure);
  EXPECT_EQ(same.outcomes.size(), lex.outcomes.size());
  // No tie at all: two single-point clusters (mu'_p is a data point), the same law either way.
  const ss::Instance pair = one_d({0, 1}, {1, 2});
  const ssac::ExactResult p = law_of(pair, ssac::Search::random);
  EXPECT_TRUE(p.tied_pairs.empty());
  EXPECT_EQ(law_of(ss::reordered(pair, {1, 0}), ssac::Search::random).p_failure, p.p_failure);
}

TEST(SmallScope, AllOrdersExtendTheLexicographicSweep) {
  ss::Options o;
  o.grid.dims = {1};
  o.grid.side1 = 3;
  o.grid.max_n = 3;
  o.grid.max_k = 2;
  o.grid.q = {Decimal("0.93")};
  o.grid.delta = {Decimal("0.1")};
  o.grid.threshold_levels = 0;
  o.orders = ss::Orders::lex;
  const ss::Report lex = ss::sweep(o);
  o.orders = ss::Orders::all;
  const ss::Report all = ss::sweep(o);
  o.threads = 3;
  const ss::Report all3 = ss::sweep(o);
  // The lexicographic runs come first, unchanged; then the other orders of those reading one.
  ASSERT_EQ(all.lex_runs, lex.runs.size());
  for (std::size_t i = 0; i < lex.runs.size(); ++i)
    EXPECT_EQ(all.runs[i].p_not_recovered, lex.runs[i].p_not_recovered);
  EXPECT_GT(all.order_sensitive_runs, 0u);
  ASSERT_GT(all.runs.size(), all.lex_runs);
  for (std::size_t i = all.lex_runs; i < all.runs.size(); ++i) {
    const ss::Run& run = all.runs[i];
    EXPECT_FALSE(run.order.empty());
    EXPECT_TRUE(run.done);
    // On this grid no order changes the law (the tie-prone instances are one cluster).
    EXPECT_EQ(run.p_not_recovered, all.runs[run.lex_run].p_not_recovered);
  }
  // Each run of another order is one or more checks (betas with the same integer share a run).
  EXPECT_GE(all.checks.size() - lex.checks.size(), all.runs.size() - all.lex_runs);
  ASSERT_EQ(all3.runs.size(), all.runs.size());
  for (std::size_t i = 0; i < all.runs.size(); ++i) {
    EXPECT_EQ(all3.runs[i].order, all.runs[i].order);
    EXPECT_EQ(all3.runs[i].p_not_recovered, all.runs[i].p_not_recovered);
  }
  o.grid.max_n = 8;
  EXPECT_THROW(ss::sweep(o), ssac::ParameterError);
}

}  // namespace

namespace {

// The q's a threshold level adds for each beta kind (Grid::threshold_levels): 1 - (delta /
// (2 k L))^(1/b) rounded up to 3 decimals, with L = ln n for the paper's beta, log2 n for
// paper-log2, and the binary search's step count for the union bounds. Recomputed here from the
// formula, per (k, n), against the q's of the checks a sweep makes.
std::string threshold_text(long double x, int b) {
  const long double q = 1.0L - std::pow(x, 1.0L / static_cast<long double>(b));
  const auto up = static_cast<long long>(std::ceil(q * 1000.0L - 1e-9L));
  char text[16];
  std::snprintf(text, sizeof text, "0.%03lld", up);
  return text;
}

TEST(SmallScope, ThresholdLevelsAddEachBetaKindsOwnQs) {
  struct Kind {
    ss::BetaKind kind;
    long double (*L)(long double n);
  };
  const Kind kinds[] = {
      {ss::BetaKind::paper, [](long double n) { return std::log(n); }},
      {ss::BetaKind::paper_log2, [](long double n) { return std::log2(n); }},
      // The binary search over n positions probes at most bit_width(n) times.
      {ss::BetaKind::union_bound,
       [](long double n) { return static_cast<long double>(std::bit_width(std::size_t(n))); }},
  };
  for (const Kind& kind : kinds) {
    ss::Options o;
    o.grid.dims = {1};
    o.grid.side1 = 4;
    o.grid.min_n = 3;
    o.grid.max_n = 4;
    o.grid.max_k = 2;
    o.grid.q = {Decimal("0.5")};
    o.grid.delta = {Decimal("0.1")};
    o.grid.threshold_levels = 2;
    o.betas = {kind.kind};
    o.claims = {ss::Claim::theorem1};
    o.orders = ss::Orders::lex;
    o.max_branches = 1;  // the checks are made; no exact run is needed here
    const ss::Report r = ss::sweep(o);
    std::map<std::pair<long long, long long>, std::set<std::string>> got;
    for (const auto& c : r.checks) {
      const ss::Instance& in = r.instances[c.instance];
      got[{in.clusters(), static_cast<long long>(in.n())}].insert(c.q.str());
    }
    ASSERT_FALSE(got.empty());
    for (const auto& [kn, qs] : got) {
      const auto [k, n] = kn;
      std::set<std::string> want = {"0.5"};
      for (int b = 1; b <= 2; ++b)
        want.insert(
            Decimal(threshold_text(0.1L / (2.0L * k * kind.L(static_cast<long double>(n))), b))
                .str());
      // Every q checked is a fixed one or one of this kind's thresholds (a q whose bounds'
      // ceilings cannot be certified has no check), and some threshold is checked.
      for (const std::string& q : qs)
        EXPECT_EQ(want.count(q), 1u) << ss::to_string(kind.kind) << " k = " << k << " n = " << n
                                     << ": q = " << q << " is no threshold of this kind";
      EXPECT_GE(qs.size(), 2u) << ss::to_string(kind.kind) << " k = " << k << " n = " << n;
    }
  }
}

}  // namespace
