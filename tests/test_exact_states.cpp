// The states engine of the exact enumerator (ExactOptions::Engine::states, proofs-notes/exact.md,
// "The states engine") against the paths engine, which re-executes every branch from the run's
// start: on every instance of a generated family that both reach, the two give the same law,
// outcome for outcome, with the same expected query counts and the same joint law.
#include <gtest/gtest.h>

#include <map>
#include <stdexcept>
#include <tuple>
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

Matrix line(const std::vector<double>& xs) {
  Matrix X(static_cast<Eigen::Index>(xs.size()), 1);
  for (std::size_t i = 0; i < xs.size(); ++i)
    X(static_cast<Eigen::Index>(i), 0) = xs[i];
  return X;
}

struct Shape {
  std::vector<double> xs;
  std::vector<int> truth;
};

// Point sets on a line: repeated coordinates (ties in line 10's order), a three-cluster set, and
// one whose draws of Z_p move mu'_p.
const std::vector<Shape>& shapes() {
  static const std::vector<Shape> s = {
      {{0, 1, 10}, {1, 1, 2}},
      {{0, 1, 2, 10}, {1, 1, 1, 2}},
      {{0, 0, 1, 5, 6}, {1, 1, 1, 2, 2}},
      {{0, 1, 10, 11}, {1, 1, 2, 2}},
      {{0, 3, 4, 9, 20}, {1, 1, 1, 2, 3}},
      {{0.1, 0.2, 0.7, 3}, {1, 1, 2, 2}},
  };
  return s;
}

const std::vector<OracleCase>& oracles() {
  static const std::vector<OracleCase> o = {
      {OracleKind::perfect, OracleMemory::fresh, 1},
      {OracleKind::random, OracleMemory::fresh, Rational(1, 2)},
      {OracleKind::random, OracleMemory::per_pair, Rational(7, 10)},
      {OracleKind::correlated, OracleMemory::fresh, Rational(3, 5)},
      {OracleKind::local, OracleMemory::fresh, 1},
      {OracleKind::global, OracleMemory::fresh, 1},
  };
  return o;
}

using Joint = std::map<std::tuple<std::vector<int>, std::uint64_t, std::uint64_t, int>, Rational>;

Joint joint_of(const ExactResult& r) {
  Joint j;
  for (const auto& o : r.joint)
    j[{o.labels, o.queries_phase1, o.queries_phase2, o.clusters_recovered}] += o.probability;
  return j;
}

// Every combination of shape, oracle, search, eta (r = 1 to 4 draws) and, by turns, rules; the
// paths engine is capped so that the family runs in seconds, and the instances it refuses are
// counted, not compared.
TEST(ExactStates, BothEnginesGiveTheSameLawOnAGeneratedFamily) {
  const Search searches[] = {Search::random, Search::distance, Search::unified, Search::plain};
  const double etas[] = {0.5, 1, 1.5, 2};
  int compared = 0, beyond = 0, turn = 0;
  std::uint64_t paths_branches = 0, states_branches = 0;
  for (const Shape& sh : shapes())
    for (const OracleCase& oc : oracles())
      for (Search search : searches)
        for (double eta : etas) {
          ++turn;
          const int k = *std::max_element(sh.truth.begin(), sh.truth.end());
          if (k == 3 && eta > 1) continue;  // r = 6 draws on 5 rows: beyond the paths cap
          Params P;
          P.k = k;
          P.eta = eta;
          P.beta = 1 + turn % 3;
          P.search = search;
          P.oracle_clusters = k;
          P.rules = rules_of(turn);
          ExactOracle o;
          o.spec.kind = oc.kind;
          o.spec.memory = oc.memory;
          o.spec.nu = 2.5;
          o.spec.rho = 0.5;
          o.q = oc.q;
          o.coin_flip = search == Search::plain;
          ExactOptions paths, states;
          paths.engine = ExactOptions::Engine::paths;
          paths.max_branches = 2'000;
          paths.joint_queries = states.joint_queries = turn % 2 == 0;
          ExactResult a;
          try {
            a = exact_distribution(line(sh.xs), sh.truth, o, P, paths);
          } catch (const ParameterError&) {
            ++beyond;
            continue;
          }
          const ExactResult b = exact_distribution(line(sh.xs), sh.truth, o, P, states);
          const std::string what = "case " + std::to_string(turn);
          EXPECT_EQ(b.total, 1) << what;
          EXPECT_EQ(law_of(a), law_of(b)) << what;
          EXPECT_EQ(a.p_failure, b.p_failure) << what;
          EXPECT_EQ(a.p_exact_recovery, b.p_exact_recovery) << what;
          EXPECT_EQ(a.expected_queries_phase1, b.expected_queries_phase1) << what;
          EXPECT_EQ(a.expected_queries_phase2, b.expected_queries_phase2) << what;
          EXPECT_EQ(a.expected_accuracy_pct, b.expected_accuracy_pct) << what;
          EXPECT_EQ(joint_of(a), joint_of(b)) << what;
          EXPECT_EQ(a.tied_pairs, b.tied_pairs) << what;
          ++compared;
          paths_branches += a.branches;
          states_branches += b.branches;
        }
  std::printf(
      "compared %d instances (%d beyond the paths cap); re-executions: paths %llu, "
      "states %llu\n",
      compared, beyond, static_cast<unsigned long long>(paths_branches),
      static_cast<unsigned long long>(states_branches));
  EXPECT_GE(compared, 200);
}

// The n = 6, eta = 2 instance of docs/exact.md (r = 4): the paths engine's law took 2.2 million
// re-executions; the states engine's is checked against the paths engine's at eta = 1 here (the
// committed eta = 2 law is compared by scripts/exact_reach.sh).
TEST(ExactStates, RunVariantsAndBoundariesNeedThePathsEngine) {
  const Matrix X = line({0, 1, 10});
  Params P;
  P.k = 2;
  P.eta = 1;
  P.beta = 1;
  P.oracle_clusters = 2;
  ExactOptions opt;
  opt.merging = ExactOptions::Merging::boundaries;
  EXPECT_THROW(exact_distribution(X, {1, 1, 2}, ExactOracle{}, P, opt), std::invalid_argument);
  ExactOptions variant;
  variant.run = [](const Matrix& Xs, Oracle& oracle, Chooser& chooser, const Params& Ps,
                   RunObserver* obs) { return run_ssac(Xs, oracle, chooser, Ps, obs); };
  EXPECT_THROW(exact_distribution(X, {1, 1, 2}, ExactOracle{}, P, variant), std::invalid_argument);
  variant.engine = ExactOptions::Engine::paths;
  EXPECT_EQ(exact_distribution(X, {1, 1, 2}, ExactOracle{}, P, variant).total, 1);
}

// The refusal before any work: the states engine's estimate for the Phase 1 of iteration 1 is one
// re-execution per row from each multiset of the draws so far (at most rows^s of them).
TEST(ExactStates, PhaseOneCostEstimate) {
  using E = ExactOptions::Engine;
  EXPECT_EQ(exact_phase1_cost(E::paths, 6, 4), 1296.0L);
  // s = 0..3 draws of 6 rows: 1 + 6 + 21 + 56 multisets, 6 re-executions each.
  EXPECT_EQ(exact_phase1_cost(E::states, 6, 4), 6.0L * (1 + 6 + 21 + 56));
  // Two rows: min(2^s, s + 1) = 1, 2, 3.
  EXPECT_EQ(exact_phase1_cost(E::states, 2, 3), 2.0L * (1 + 2 + 3));
  // One row: one state after every number of draws.
  EXPECT_EQ(exact_phase1_cost(E::states, 1, 5), 5.0L);
  // On a lattice the sums merge: rows at 0, 1, 2 give 1, 3, 5, 7 distinct sums of 0..3 draws
  // (multisets: 1, 3, 6, 10), 3 re-executions each.
  EXPECT_EQ(exact_phase1_cost(E::states, line({0, 1, 2}), {0, 1, 2}, 4, 1e9), 3.0L * 16);
  EXPECT_EQ(exact_phase1_cost(E::paths, line({0, 1, 2}), {0, 1, 2}, 4, 1e9), 81.0L);
  // The budget refuses before any work, naming the estimate.
  const Matrix X = line({0, 1, 2, 3, 4, 5});
  Params P;
  P.k = 2;
  P.eta = 40;
  P.beta = 1;
  P.oracle_clusters = 2;
  ExactOptions opt;
  opt.max_branches = 1000;
  try {
    exact_distribution(X, {1, 1, 1, 2, 2, 2}, ExactOracle{}, P, opt);
    ADD_FAILURE() << "not refused";
  } catch (const ParameterError& e) {
    EXPECT_NE(std::string(e.what()).find("(an estimate)"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("--max-branches = 1000"), std::string::npos) << e.what();
  }
}

// Under the anchor rules other than the opener, the anchor of cluster t is chosen from its known
// rows, and with overwrite=off those are the rows labelled t and t's opener (Run::known_rows): the
// opener's row, not only its label, decides which rows are anchors, so the states engine's key
// keeps the openers by row there (only under anchor=opener, where the opener is the anchor, are
// they lumped by label). Each instance below, under a perfect oracle, gives a different law when
// the openers are lumped by label under its rule. The pinned fractions are the paths engine's,
// which re-executes every branch from the run's start and merges no openers by label.
TEST(ExactStates, OpenersKeptByRowUnderTheOtherAnchorRules) {
  struct Case {
    const char* what;
    Shape shape;
    AnchorRule anchor;
    double eta;
    int beta;
    Search search;
  };
  // lowest-labelled-row: the Phase-1 draws (row 0, row 2) and (row 2, row 0) of iteration 1 give
  // the same Z_1 and mu'_1 = 3, and Phase 2 labels only row 1 (x = 4, the nearest, of the other
  // cluster) with 1. In iteration 2 the anchor of cluster 1 is the lower of row 1 and the opener:
  // row 0 after the first order, so rows 0 and 2 are placed in cluster 1 (labels 1 1 1), row 1
  // after the second, so they open cluster 2 (labels 2 1 2, exact recovery).
  // random-labelled-row and random-known-row: the anchor is drawn from the known rows, and the
  // opener adds a row to them only when it is not labelled t, so two openers of one label, one
  // labelled t and one not, can leave pools of different sizes under the same labels.
  const Case cases[] = {
      {"lowest-labelled-row",
       {{0, 4, 6}, {2, 1, 2}},
       AnchorRule::lowest_labelled_row,
       1,
       2,
       Search::unified},
      {"random-labelled-row",
       {{5, 1, 0, 6}, {2, 2, 1, 1}},
       AnchorRule::random_labelled_row,
       1.5,
       2,
       Search::random},
      {"random-known-row",
       {{5, 4, 5, 2}, {2, 1, 2, 2}},
       AnchorRule::random_known_row,
       1.5,
       1,
       Search::unified},
  };
  std::vector<ExactResult> states;
  for (const Case& c : cases) {
    Params P;
    P.k = 2;
    P.eta = c.eta;
    P.beta = c.beta;
    P.search = c.search;
    P.oracle_clusters = 2;
    P.rules.anchor = c.anchor;
    ExactOptions paths;
    paths.engine = ExactOptions::Engine::paths;
    const Matrix X = line(c.shape.xs);
    const ExactResult a = exact_distribution(X, c.shape.truth, ExactOracle{}, P, paths);
    const ExactResult b = exact_distribution(X, c.shape.truth, ExactOracle{}, P, ExactOptions{});
    EXPECT_EQ(law_of(a), law_of(b)) << c.what;
    EXPECT_EQ(a.p_failure, b.p_failure) << c.what;
    EXPECT_EQ(a.p_exact_recovery, b.p_exact_recovery) << c.what;
    states.push_back(b);
  }
  // The paths engine's values (the states engine's equal them above); lumping the openers by
  // label gives 1/3, 10747/27648 and 5525/27648 instead.
  EXPECT_EQ(states[0].p_exact_recovery, Rational(4, 9));
  EXPECT_EQ(states[1].p_failure, Rational(2689, 6912));
  EXPECT_EQ(states[2].p_exact_recovery, Rational(16493, 82944));
}

}  // namespace
}  // namespace ssac
