// Phase 1 by counts (ExactOptions::Engine::counts, proofs-notes/exact.md, "Phase 1 by counts")
// against the states engine: on every instance of a generated family, the same law, outcome for
// outcome, with the same expected query counts and tied pairs; where the product form does not
// hold the engine falls back, and without its check it would give another law.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "exact_family.hpp"
#include "ssac/error.hpp"
#include "ssac/exact.hpp"
#include "ssac/oracle_spec.hpp"
#include "ssac/rules.hpp"

namespace ssac {
namespace {

using exact_family::law_of;
using exact_family::OracleCase;
using exact_family::rules_of;

struct Shape {
  std::vector<std::vector<double>> points;
  std::vector<int> truth;
};

Matrix matrix(const Shape& s) {
  Matrix X(static_cast<Eigen::Index>(s.points.size()),
           static_cast<Eigen::Index>(s.points[0].size()));
  for (std::size_t i = 0; i < s.points.size(); ++i)
    for (std::size_t c = 0; c < s.points[i].size(); ++c)
      X(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(c)) = s.points[i][c];
  return X;
}

// Small point sets of the kind the small-scope sweeps run (lattices in one and two dimensions,
// k <= 3), a repeated coordinate (ties in line 10's order), and one off the lattice whose draw
// order moves the left-to-right sum of Z_p.
const std::vector<Shape>& shapes() {
  static const std::vector<Shape> s = {
      {{{0}, {1}, {3}, {4}}, {1, 1, 2, 2}},
      {{{0}, {1}, {2}, {4}, {5}}, {1, 1, 1, 2, 2}},
      {{{0}, {0}, {1}, {4}}, {1, 1, 1, 2}},
      {{{0}, {2}, {3}, {5}, {6}}, {1, 2, 2, 3, 3}},
      {{{0, 0}, {0, 1}, {2, 2}, {2, 1}}, {1, 1, 2, 2}},
      {{{0, 0}, {1, 0}, {0, 2}, {2, 2}, {1, 1}}, {1, 1, 2, 2, 1}},
      {{{0.1}, {0.2}, {0.7}, {3}}, {1, 1, 2, 2}},
  };
  return s;
}

const std::vector<OracleCase>& oracles() {
  static const std::vector<OracleCase> o = {
      {OracleKind::perfect, OracleMemory::fresh, 1},
      {OracleKind::random, OracleMemory::fresh, Rational(7, 10)},
      {OracleKind::random, OracleMemory::fresh, Rational(1, 3)},
      {OracleKind::random, OracleMemory::per_pair, Rational(7, 10)},
      {OracleKind::correlated, OracleMemory::fresh, Rational(3, 5)},
      {OracleKind::local, OracleMemory::fresh, 1},
      {OracleKind::global, OracleMemory::fresh, 1},
  };
  return o;
}

Params params_of(int k, double eta, int beta, Search search, const Rules& rules) {
  Params P;
  P.k = k;
  P.eta = eta;
  P.beta = beta;
  P.search = search;
  P.oracle_clusters = k;
  P.rules = rules;
  return P;
}

ExactOracle oracle_of(const OracleCase& oc, bool coin_flip) {
  ExactOracle o;
  o.spec.kind = oc.kind;
  o.spec.memory = oc.memory;
  o.spec.nu = 2.5;
  o.spec.rho = 0.5;
  o.q = oc.q;
  o.coin_flip = coin_flip;
  return o;
}

// Every combination of shape, oracle, search and eta (r up to 6 draws at k = 2), the rules by
// turns; the states engine is capped so that the family runs in seconds, and the instances it
// refuses are counted, not compared.
TEST(ExactCounts, SameLawAsTheStatesEngineOnAGeneratedFamily) {
  const Search searches[] = {Search::random, Search::distance, Search::unified, Search::plain};
  const double etas[] = {1, 2, 3};
  int compared = 0, by_counts = 0, beyond = 0, turn = 0;
  std::uint64_t states_branches = 0, counts_branches = 0;
  for (const Shape& sh : shapes())
    for (const OracleCase& oc : oracles())
      for (Search search : searches)
        for (double eta : etas) {
          ++turn;
          const int k = *std::max_element(sh.truth.begin(), sh.truth.end());
          const Params P = params_of(k, eta, 1 + turn % 3, search, rules_of(turn));
          const ExactOracle o = oracle_of(oc, search == Search::plain);
          ExactOptions states, counts;
          states.max_branches = counts.max_branches = 4'000;
          counts.engine = ExactOptions::Engine::counts;
          ExactResult a;
          try {
            a = exact_distribution(matrix(sh), sh.truth, o, P, states);
          } catch (const ParameterError&) {
            ++beyond;
            continue;
          }
          const ExactResult b = exact_distribution(matrix(sh), sh.truth, o, P, counts);
          const std::string what = "case " + std::to_string(turn);
          EXPECT_EQ(b.total, 1) << what;
          EXPECT_EQ(law_of(a), law_of(b)) << what;
          EXPECT_EQ(a.p_failure, b.p_failure) << what;
          EXPECT_EQ(a.p_exact_recovery, b.p_exact_recovery) << what;
          EXPECT_EQ(a.expected_queries_phase1, b.expected_queries_phase1) << what;
          EXPECT_EQ(a.expected_queries_phase2, b.expected_queries_phase2) << what;
          EXPECT_EQ(a.expected_accuracy_pct, b.expected_accuracy_pct) << what;
          EXPECT_EQ(a.tied_pairs, b.tied_pairs) << what;
          ++compared;
          by_counts += b.phase1_by_counts ? 1 : 0;
          states_branches += a.branches;
          counts_branches += b.branches;
        }
  std::printf(
      "compared %d instances (%d by counts, %d beyond the states cap); re-executions: states "
      "%llu, counts %llu\n",
      compared, by_counts, beyond, static_cast<unsigned long long>(states_branches),
      static_cast<unsigned long long>(counts_branches));
  EXPECT_GE(compared, 200);
  EXPECT_GE(by_counts, 120);
}

// Under self-pairs=off a draw that is its cluster's anchor is placed without a query, the others
// with probability q, and once all k clusters are known also by elimination: the row weights into
// a cluster are not proportional across configurations, so the engine falls back; without the
// check the product form is wrong here (the negative control of the check).
TEST(ExactCounts, TheProductFormIsCheckedAndLoadBearing) {
  const Shape sh{{{0}, {1}, {2}, {5}}, {1, 1, 1, 2}};
  Rules rules;
  rules.self_pairs = false;
  const Params P = params_of(2, 2, 2, Search::random, rules);
  const ExactOracle o = oracle_of({OracleKind::random, OracleMemory::fresh, Rational(1, 2)}, false);
  ExactOptions states, counts, unchecked;
  counts.engine = unchecked.engine = ExactOptions::Engine::counts;
  unchecked.check_product_form = false;
  const ExactResult a = exact_distribution(matrix(sh), sh.truth, o, P, states);
  const ExactResult b = exact_distribution(matrix(sh), sh.truth, o, P, counts);
  const ExactResult c = exact_distribution(matrix(sh), sh.truth, o, P, unchecked);
  EXPECT_FALSE(b.phase1_by_counts);
  EXPECT_EQ(law_of(a), law_of(b));
  EXPECT_TRUE(c.phase1_by_counts);
  EXPECT_NE(law_of(a), law_of(c));
}

// The law of `sh` at k = 2, beta = 1, Algorithm 3 (distance search) under a fresh random-weak
// oracle with q = 1/2 and `rules`, by the counts engine (which must run Phase 1 by counts),
// required equal to the states engine's with the same P(failure) and expected query counts.
exact_family::Law half_weak_law_by_both(const Shape& sh, const Rules& rules, double eta) {
  const Params P = params_of(2, eta, 1, Search::distance, rules);
  const ExactOracle o = oracle_of({OracleKind::random, OracleMemory::fresh, Rational(1, 2)}, false);
  ExactOptions states, counts;
  counts.engine = ExactOptions::Engine::counts;
  const ExactResult a = exact_distribution(matrix(sh), sh.truth, o, P, states);
  const ExactResult b = exact_distribution(matrix(sh), sh.truth, o, P, counts);
  EXPECT_TRUE(b.phase1_by_counts);
  EXPECT_EQ(law_of(a), law_of(b));
  EXPECT_EQ(a.p_failure, b.p_failure);
  EXPECT_EQ(a.expected_queries_phase1, b.expected_queries_phase1);
  EXPECT_EQ(a.expected_queries_phase2, b.expected_queries_phase2);
  return law_of(b);
}

// Under empty-recovers=on a cluster whose Phase 2 labels no row is marked recovered and leaves no
// label: two starts of iteration 2 that differ only in that mark (cluster 1 or cluster 2 recovered
// empty in iteration 1, both known with the same openers, S_2 = X, no label) reach the same
// states at line 8, and only the start's key keeps them apart (proofs-notes/exact.md, "Phase 1 by
// counts", the sampled mutants). Rows 0 and 10, k = 2, r = 3, q = 1/2, Algorithm 3: the search
// labels nothing exactly when Q(x_1, x_1) is not sure (1/2); iteration 1 ends with p = 1 and one
// known cluster, p = 1 and two, p = 2 and two with 9/16, 11/32, 3/32, from which iteration 2's
// line 8 chooses the other cluster with 85/256, 99/256, 153/256. So labels (0, 0) with both
// clusters recovered has (1/2)(1/2)(9/16 85/256 + 11/32 99/256 + 3/32 153/256) = 1539/16384;
// merging the ends on the configuration alone gives 729/8192.
TEST(ExactCounts, StartsThatDifferOnlyInARecoveredMarkStayApart) {
  const Shape sh{{{0}, {10}}, {1, 2}};
  Rules rules;
  rules.empty_recovers = true;
  const exact_family::Law law = half_weak_law_by_both(sh, rules, 1.5);
  const auto both = law.find({{0, 0}, 2});
  ASSERT_NE(both, law.end());
  EXPECT_EQ(both->second, Rational(1539, 16384));
}

// Under overwrite=on an opener is labelled at once, so the labels do not show S_i, and an end
// where line 8 chooses no cluster is keyed by its configuration alone. Rows 0 and 10, k = 2,
// r = 2, q = 1/2, Algorithm 3. Labels (0, 1) with no cluster recovered: row 1 opens cluster 1
// (1/2), the second draw places row 1 or is not sure (3/4; row 0 answered no would open and label
// cluster 2), and Phase 2 labels nothing (Q(1, 1) not sure, 1/2): 3/16, with S_2 = X. Iteration 2
// keeps that when both draws are unplaced (1/4), or when one places row 1, none opens a cluster
// (5/16) and Phase 2 labels nothing (1/2): 13/32. So 3/16 13/32 = 39/512. Where row 1 was
// recovered instead (S_2 = {0}, the same labels and configuration), two unplaced draws end with
// the same key but for the start's: merged without it, the mass 3/64 of the first start's goes
// to one cluster recovered, 15/512.
TEST(ExactCounts, StartsThatDifferOnlyInSiStayApartWhereNoClusterIsChosen) {
  const Shape sh{{{0}, {10}}, {1, 2}};
  Rules rules;
  rules.overwrite = true;
  const exact_family::Law law = half_weak_law_by_both(sh, rules, 1);
  const auto none = law.find({{0, 1}, 0});
  ASSERT_NE(none, law.end());
  EXPECT_EQ(none->second, Rational(39, 512));
}

// A Phase 1 of r = 40 draws on n = 5 rows at k = 2 and q < 1 completes (the states engine needs
// about 10^7 re-executions at r = 20 here), with its probabilities summing to exactly 1.
TEST(ExactCounts, ReachesFortyDraws) {
  const Shape sh{{{0}, {1}, {2}, {4}, {5}}, {1, 1, 1, 2, 2}};
  const Params P = params_of(2, 20, 2, Search::random, Rules{});
  const ExactOracle o =
      oracle_of({OracleKind::random, OracleMemory::fresh, Rational(9, 10)}, false);
  ExactOptions counts;
  counts.engine = ExactOptions::Engine::counts;
  counts.max_branches = 100'000;
  const ExactResult r = exact_distribution(matrix(sh), sh.truth, o, P, counts);
  EXPECT_TRUE(r.phase1_by_counts);
  EXPECT_EQ(r.total, 1);
  EXPECT_GT(r.p_exact_recovery, Rational(95, 100));
}

// The committed joint law of n = 6, k = 2, eta = 2 (r = 4), beta = 3, random-weak q = 7/10,
// Algorithm 4 (tests/data/six-generated-eta2.json, written by the paths engine with
// 2,234,904 re-executions): Phase 1 by counts gives its margin over the query counts, outcome for
// outcome, and its mean query counts.
TEST(ExactCounts, TheCommittedSixPointLawByCounts) {
  const std::string dir = SSAC_TEST_DATA_DIR;
  std::ifstream csv(dir + "/six-generated.csv");
  std::string line;
  std::getline(csv, line);  // x1,x2,label
  Shape sh;
  while (std::getline(csv, line)) {
    std::stringstream row(line);
    std::string a, b, l;
    std::getline(row, a, ',');
    std::getline(row, b, ',');
    std::getline(row, l, ',');
    sh.points.push_back({std::stod(a), std::stod(b)});
    sh.truth.push_back(std::stoi(l));
  }
  ASSERT_EQ(sh.points.size(), 6U);
  std::ifstream in(dir + "/six-generated-eta2.json");
  const nlohmann::json want = nlohmann::json::parse(in);
  std::map<std::vector<int>, Rational> labels;
  Rational q1 = 0, q2 = 0;
  for (const auto& o : want["outcomes"]) {
    const std::string text = o["outcome"].get<std::string>();
    std::stringstream parts(text);
    std::string lab, a, b;
    std::getline(parts, lab, ';');
    std::getline(parts, a, ';');
    std::getline(parts, b, ';');
    std::vector<int> v;
    std::stringstream ls(lab);
    for (std::string x; std::getline(ls, x, ',');)
      v.push_back(std::stoi(x));
    const Rational p(o["probability"].get<std::string>());
    labels[v] += p;
    q1 += p * std::stoi(a);
    q2 += p * std::stoi(b);
  }
  const Params P = params_of(2, 2, 3, Search::unified, Rules{});
  const ExactOracle o =
      oracle_of({OracleKind::random, OracleMemory::fresh, Rational(7, 10)}, false);
  ExactOptions counts;
  counts.engine = ExactOptions::Engine::counts;
  const ExactResult r = exact_distribution(matrix(sh), sh.truth, o, P, counts);
  EXPECT_TRUE(r.phase1_by_counts);
  std::map<std::vector<int>, Rational> got;
  for (const auto& e : r.outcomes)
    got[e.labels] += e.probability;
  EXPECT_EQ(got, labels);
  EXPECT_EQ(r.expected_queries_phase1, q1);
  EXPECT_EQ(r.expected_queries_phase2, q2);
}

}  // namespace
}  // namespace ssac
