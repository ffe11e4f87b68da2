// The law of the recorded choices (ssac/choice_law.hpp): traces of the reference conform, and
// traces of implementations whose draws or abstentions follow another law -- each of which
// `ssac validate` accepts trace by trace, since it replays whatever was recorded -- are caught.
// False alarm: every check runs at alpha = 1e-6 on a fixed set of seeds, so each test that
// expects a pass fails by chance with probability at most 1e-6.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "ssac/choice_law.hpp"
#include "ssac/error.hpp"
#include "ssac/testing/choice_bugs.hpp"
#include "ssac/trace.hpp"
#include "trace_fixture.hpp"

namespace ssac {
namespace {

using fixtures::squares;
const std::vector<int>& kLabels = fixtures::kSquareLabels;

using testing::ChoiceBug;
using Bug = testing::ChoiceBug;

constexpr double kQ = 0.7;

Params params() {
  Params p;
  p.k = 3;
  p.eta = 1.5;  // r = 5 draws from S_i: repeats are common, so sampling without them shows
  p.beta = 4;
  p.search = Search::unified;
  return p;
}

// `runs` traces of the implementation with `bug`, seeds 1..runs, random-weak oracle q = 0.7
// (lib/testing/choice_bugs.cpp).
std::vector<std::string> traces(Bug bug, int runs, double strength = 0.5) {
  return testing::buggy_traces(squares(), kLabels, params(), kQ, {bug, strength}, 1, runs);
}

ChoiceLawReport audit(const std::vector<std::string>& ts, std::uint64_t seed = 0) {
  ChoiceLawOptions o;
  o.seed = seed;
  ChoiceLaw law(o);
  for (std::size_t i = 0; i < ts.size(); ++i)
    law.add_text(squares(), ts[i], "trace " + std::to_string(i));
  return law.report();
}

const ChoiceKind& kind(const ChoiceLawReport& r, const std::string& name) {
  return *std::find_if(r.kinds.begin(), r.kinds.end(),
                       [&](const ChoiceKind& k) { return k.name == name; });
}

constexpr int kRuns = 400;

TEST(ChoiceLaw, TheReferencesTracesConform) {
  const auto ts = traces(Bug::none, kRuns);
  for (std::uint64_t seed : {0u, 1u, 2u}) {
    const ChoiceLawReport r = audit(ts, seed);
    EXPECT_TRUE(r.passes()) << "offset seed " << seed;
    EXPECT_EQ(r.traces, static_cast<std::size_t>(kRuns));
    EXPECT_EQ(r.checked(), 8);  // every kind, marginal and joint, has choices here
    EXPECT_EQ(r.impossible, 0u);
    // Enough choices of each kind for the negative controls below to mean something.
    EXPECT_GT(kind(r, "phase1_draw").choices, 2000u);
    EXPECT_GT(kind(r, "b_draw").choices, 300u);
    EXPECT_GT(kind(r, "abstention").choices, 2000u);
    EXPECT_GT(kind(r, "b_probe_pair").choices, 300u);
    EXPECT_GT(kind(r, "repeat_agreement").choices, 1000u);
  }
}

// Every trace of every bug replays as conforming: validation alone cannot see them.
TEST(ChoiceLaw, ReplayAcceptsEveryBuggyTrace) {
  for (Bug b : {Bug::phase1_without_replacement, Bug::b_without_replacement,
                Bug::b_from_distinct_rows, Bug::never_last, Bug::abstention_q_squared})
    for (const std::string& t : traces(b, 20))
      EXPECT_TRUE(validate_trace(squares(), t, "t").conforms) << static_cast<int>(b);
}

// With 4 times the runs of the conforming test: at 400 runs the two B bugs were caught only near
// the threshold.
void expect_caught(Bug bug, const std::string& kind_name, int runs = 4 * kRuns) {
  const ChoiceLawReport r = audit(traces(bug, runs));
  EXPECT_FALSE(r.passes());
  const ChoiceKind& k = kind(r, kind_name);
  EXPECT_LE(k.p, r.options.alpha / r.checked()) << kind_name << " p = " << k.p;
  std::printf("%s p = %g\n", kind_name.c_str(), k.p);
}

TEST(ChoiceLaw, CatchesPhase1WithoutReplacement) {
  expect_caught(Bug::phase1_without_replacement, "phase1_draw");
  const ChoiceLawReport r = audit(traces(Bug::phase1_without_replacement, kRuns));
  // Repeats happen only where |S_i| < r forces them.
  const ChoiceKind& k = kind(r, "phase1_draw");
  EXPECT_LT(static_cast<double>(k.repeats), 0.8 * k.expected_repeats)
      << k.repeats << " of " << k.expected_repeats;
}

TEST(ChoiceLaw, CatchesBWithoutReplacement) {
  expect_caught(Bug::b_without_replacement, "b_draw");
}

TEST(ChoiceLaw, CatchesBFromDistinctRows) {
  // Only a Z_p that holds a row twice tells the two laws apart.
  expect_caught(Bug::b_from_distinct_rows, "b_draw");
}

TEST(ChoiceLaw, CatchesAnIndexThatNeverReturnsTheLast) {
  expect_caught(Bug::never_last, "phase1_draw");
}

TEST(ChoiceLaw, CatchesAbstentionAtOneMinusQSquared) {
  expect_caught(Bug::abstention_q_squared, "abstention");
  const ChoiceLawReport r = audit(traces(Bug::abstention_q_squared, kRuns));
  const ChoiceKind& k = kind(r, "abstention");
  EXPECT_GT(static_cast<double>(k.not_sure), 1.5 * k.expected_not_sure);
}

TEST(ChoiceLaw, ANotSureWhereQIsOneIsImpossible) {
  // A trace that claims q = 1 but holds a not-sure answer.
  RandomWeakOracle oracle(kLabels, 0.5, Rng::stream(3, {kStreamOracle}));
  TraceHeader h;
  h.params = params();
  OracleSpec o;
  o.kind = OracleKind::random;
  o.q = 1.0;
  h.oracle = o;
  fixtures::TraceText t(squares(), h);
  run_ssac(squares(), oracle, h.params, 3, t.writer.get());
  ChoiceLaw law({});
  law.add_text(squares(), t.text, "t");
  EXPECT_GT(law.report().impossible, 0u);
  EXPECT_FALSE(law.report().passes());
}

// A perfect oracle's answers follow no random law: every one is counted as not checked, and none
// is an abstention choice.
TEST(ChoiceLaw, EveryAnswerOfAPerfectOracleIsCountedAsNotChecked) {
  PerfectOracle oracle(kLabels);
  TraceHeader h;
  h.params = params();
  OracleSpec o;
  o.kind = OracleKind::perfect;
  h.oracle = o;
  fixtures::TraceText t(squares(), h);
  const Result res = run_ssac(squares(), oracle, h.params, 5, t.writer.get());
  ChoiceLaw law({});
  law.add_text(squares(), t.text, "t");
  const ChoiceLawReport r = law.report();
  ASSERT_GT(res.queries.size(), 0u);
  EXPECT_EQ(r.answers_not_checked, res.queries.size());
  EXPECT_EQ(kind(r, "abstention").choices, 0u);
  EXPECT_EQ(kind(r, "repeat_agreement").choices, 0u);
}

// Under per-pair memory (proofs-notes/oracle-independence.md) only a pair's first ask is a draw:
// the abstention choices are the distinct unordered pairs asked, and no repeat is a choice.
TEST(ChoiceLaw, PerPairMemoryDrawsOncePerPair) {
  RandomWeakOracle oracle(kLabels, kQ, Rng::stream(7, {kStreamOracle}), OracleMemory::per_pair);
  TraceHeader h;
  h.params = params();
  OracleSpec o;
  o.kind = OracleKind::random;
  o.q = kQ;
  h.oracle = o;
  h.memory = OracleMemory::per_pair;
  fixtures::TraceText t(squares(), h);
  const Result res = run_ssac(squares(), oracle, h.params, 7, t.writer.get());
  std::vector<std::pair<std::size_t, std::size_t>> pairs;
  for (const QueryRecord& q : res.queries)
    pairs.emplace_back(std::min(q.x, q.y), std::max(q.x, q.y));
  std::sort(pairs.begin(), pairs.end());
  const auto distinct =
      static_cast<std::uint64_t>(std::unique(pairs.begin(), pairs.end()) - pairs.begin());
  ASSERT_LT(distinct, res.queries.size());  // the run asked some pair twice
  ChoiceLaw law({});
  law.add_text(squares(), t.text, "t");
  const ChoiceLawReport r = law.report();
  EXPECT_EQ(kind(r, "abstention").choices, distinct);
  EXPECT_EQ(kind(r, "repeat_agreement").choices, 0u);
  EXPECT_EQ(r.answers_not_checked, 0u);
}

TEST(ChoiceLaw, RefusesATraceThatDoesNotConform) {
  std::string t = traces(Bug::none, 1)[0];
  // The first Phase-1 draw's row moved to another: the replay diverges.
  const auto at = t.find("\"rows\":[");
  ASSERT_NE(at, std::string::npos);
  const auto digit = at + 8;
  t[digit] = t[digit] == '0' ? '1' : '0';
  ChoiceLaw law({});
  EXPECT_THROW(law.add_text(squares(), t, "bad"), DataError);
  EXPECT_EQ(law.report().traces, 0u);
}

TEST(ChoiceLaw, OptionsOutsideTheirRanges) {
  ChoiceLawOptions o;
  o.alpha = 0;
  EXPECT_THROW(ChoiceLaw{o}, ParameterError);
  o.alpha = 1e-6;
  o.bins = 1;
  EXPECT_THROW(ChoiceLaw{o}, ParameterError);
  o.bins = 10;
  o.grid = 33;
  EXPECT_THROW(ChoiceLaw{o}, ParameterError);
}

// The Kolmogorov-Smirnov tail: for one value D_1^+ = 1 - u, so P(D_1^+ >= d) = 1 - d exactly;
// for large n the Smirnov limit exp(-2 n d^2) (with its first correction, Stephens 1970: d scaled
// by sqrt(n) + 0.12 + 0.11 / sqrt(n)); and for n = 5 a simulation.
TEST(ChoiceLaw, KolmogorovSmirnovTail) {
  EXPECT_EQ(ks_p_value(1, 0.3), 1.0);  // 2 (1 - d), capped
  EXPECT_NEAR(ks_p_value(1, 0.8), 2 * 0.2, 1e-12);
  EXPECT_EQ(ks_p_value(100, 0.0), 1.0);
  EXPECT_EQ(ks_p_value(100, 1.0), 0.0);
  for (const double x : {1.0, 1.5, 2.0, 2.5}) {
    const double n = 1e5, d = x / std::sqrt(n);
    const double z = d * (std::sqrt(n) + 0.12 + 0.11 / std::sqrt(n));
    EXPECT_NEAR(ks_p_value(100000, d) / (2 * std::exp(-2 * z * z)), 1.0, 0.01) << x;
  }
  // n = 5, d = 0.4: the share of 200,000 simulated samples with D^+ >= d, within 5 standard errors.
  Rng rng(7);
  int over = 0;
  const int sims = 200000;
  for (int i = 0; i < sims; ++i) {
    std::vector<double> u(5);
    for (double& v : u)
      v = rng.uniform01();
    std::sort(u.begin(), u.end());
    double dplus = 0;
    for (std::size_t j = 0; j < u.size(); ++j)
      dplus = std::max(dplus, static_cast<double>(j + 1) / 5.0 - u[j]);
    over += dplus >= 0.4 ? 1 : 0;
  }
  const double share = over / double(sims);
  EXPECT_NEAR(ks_p_value(5, 0.4) / 2, share, 5 * std::sqrt(share * (1 - share) / sims));
}

// The 9-point instance of lib/testing (three clusters of three; k = 3, eta = 2, beta = 3,
// Algorithm 4, q = 0.7), the size of the smallest data sets people test on.
ChoiceLawReport nine_audit(Bug bug, int runs, std::uint64_t first_seed = 1, double strength = 0.5,
                           AnchorRule anchor = AnchorRule::opener) {
  const testing::ChoiceInstance c = testing::nine_points(anchor);
  const auto ts =
      testing::buggy_traces(c.X, c.labels, c.params, c.q, {bug, strength}, first_seed, runs);
  ChoiceLaw law({});
  for (std::size_t i = 0; i < ts.size(); ++i)
    law.add_text(c.X, ts[i], "trace " + std::to_string(i));
  return law.report();
}

// Clean traces on the 9-point instance pass at three disjoint seed ranges (false alarm at most
// 1e-6 each); the long run (3 x 1,000, and more) is scripts/choice_power.sh's.
TEST(ChoiceLaw, NinePointReferenceConforms) {
  for (std::uint64_t first : {1u, 100001u, 200001u}) {
    const ChoiceLawReport r = nine_audit(Bug::none, 300, first);
    EXPECT_TRUE(r.passes()) << "seeds from " << first;
    EXPECT_EQ(r.checked(), 8);
  }
}

void expect_nine_caught(Bug bug, int runs, const std::string& kind_name, double strength = 0.5) {
  const ChoiceLawReport r = nine_audit(bug, runs, 1, strength);
  EXPECT_FALSE(r.passes()) << testing::to_string(bug);
  const ChoiceKind& k = kind(r, kind_name);
  EXPECT_LE(k.p, r.options.alpha / r.checked()) << kind_name << " p = " << k.p;
  std::printf("%s at %d traces: %s p = %g (bins %g, KS %g)\n", testing::to_string(bug).c_str(),
              runs, kind_name.c_str(), k.p, k.p_bins, k.p_ks);
}

// A 10% front bias in Phase-1 draws (the front half of S_i drawn 1.1 times as often), caught at
// 500 traces: the Kolmogorov-Smirnov statistic sees a shift that ten bins spread thin.
TEST(ChoiceLaw, CatchesATenPercentFrontBiasAt500Traces) {
  expect_nine_caught(Bug::front_bias_phase1, 500, "phase1_draw", 0.1);
}

// Bugs of dependence: every value's own law is (nearly) right, two values together are not.
// Each is caught at 500 traces (docs/choice-power.md: the traces each needs).
TEST(ChoiceLaw, CatchesBReusedAcrossProbes) {
  expect_nine_caught(Bug::b_reused_across_probes, 500, "b_probe_pair");
}
TEST(ChoiceLaw, CatchesPhase1DrawsThatFollowThePrevious) {
  expect_nine_caught(Bug::phase1_follows_previous, 500, "phase1_pair");
}
TEST(ChoiceLaw, CatchesAnOracleThatRepeatsItsAnswers) {
  expect_nine_caught(Bug::oracle_repeats_answers, 500, "repeat_agreement");
}

// Anchor draws (Definition 4 under a random anchor rule; a trace of version 4 records them): the
// reference's traces under either random rule pass at three disjoint seed ranges, with the anchor
// kind checked beside the other eight (false alarm at most alpha = 1e-6 per range, so at most
// 6e-6 for the test); 300 traces per range, as the opener's test above.
TEST(ChoiceLaw, NinePointAnchorDrawsConformUnderBothRandomRules) {
  for (AnchorRule rule : {AnchorRule::random_labelled_row, AnchorRule::random_known_row})
    for (std::uint64_t first : {1u, 100001u, 200001u}) {
      const ChoiceLawReport r = nine_audit(Bug::none, 300, first, 0.5, rule);
      EXPECT_TRUE(r.passes()) << to_string(rule) << ", seeds from " << first;
      EXPECT_EQ(r.checked(), 9) << to_string(rule);
      const ChoiceKind& k = kind(r, "anchor_draw");
      // Pools of one row (a cluster known only by its opener) draw it with certainty: the hits
      // expected are then above choices / 3, the share of the smallest pool of more than one row.
      EXPECT_GT(k.choices, 1000u) << to_string(rule);
      EXPECT_GT(k.p, r.options.alpha / r.checked()) << to_string(rule);
    }
}

void expect_anchor_caught(Bug bug, int runs, AnchorRule rule, double strength = 0.5) {
  const ChoiceLawReport r = nine_audit(bug, runs, 1, strength, rule);
  EXPECT_FALSE(r.passes()) << testing::to_string(bug) << " under " << to_string(rule);
  const ChoiceKind& k = kind(r, "anchor_draw");
  EXPECT_LE(k.p, r.options.alpha / r.checked()) << "anchor_draw p = " << k.p;
  // Only the anchor's law is wrong: every other kind passes.
  for (const ChoiceKind& o : r.kinds) {
    if (o.name != "anchor_draw" && o.choices > 0) {
      EXPECT_GT(o.p, r.options.alpha / r.checked()) << o.name;
    }
  }
  std::printf("%s under %s at %d traces: anchor_draw p = %g (bins %g, KS %g)\n",
              testing::to_string(bug).c_str(), to_string(rule), runs, k.p, k.p_bins, k.p_ks);
}

// Negative controls of the anchor's law: an implementation whose anchor is always the lowest known
// row, and one that draws it from the front half of the known rows half of the time. `ssac
// validate` accepts each trace (every recorded anchor is a known row, tests/test_trace_anchor.cpp);
// the law of the anchor draws catches both within 1,000 traces (docs/conformance.md gives the
// traces each needs).
TEST(ChoiceLaw, CatchesAnAnchorThatIsAlwaysTheFirstCandidate) {
  expect_anchor_caught(Bug::anchor_first, 100, AnchorRule::random_known_row);
  expect_anchor_caught(Bug::anchor_first, 100, AnchorRule::random_labelled_row);
}
TEST(ChoiceLaw, CatchesAnAnchorBiasedToTheFront) {
  expect_anchor_caught(Bug::front_bias_anchor, 1000, AnchorRule::random_known_row, 0.5);
  expect_anchor_caught(Bug::front_bias_anchor, 1000, AnchorRule::random_labelled_row, 0.5);
}

}  // namespace
}  // namespace ssac
