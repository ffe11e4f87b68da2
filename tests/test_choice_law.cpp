// The law of the recorded choices (ssac/choice_law.hpp): traces of the reference conform, and
// traces of implementations whose draws or abstentions follow another law -- each of which
// `ssac validate` accepts trace by trace, since it replays whatever was recorded -- are caught.
// False alarm: every check runs at alpha = 1e-6 on a fixed set of seeds, so each test that
// expects a pass fails by chance with probability at most 1e-6.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <utility>
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

// A trace that does not conform is named with its divergence and left out of the pool; the
// others are pooled all the same, and the check fails.
TEST(ChoiceLaw, LeavesOutATraceThatDoesNotConformAndGoesOn) {
  const auto ts = traces(Bug::none, 3);
  std::string t = ts[1];
  // The first Phase-1 draw's row moved to another: the replay diverges.
  const auto at = t.find("\"rows\":[");
  ASSERT_NE(at, std::string::npos);
  const auto digit = at + 8;
  t[digit] = t[digit] == '0' ? '1' : '0';
  ChoiceLaw law({});
  EXPECT_TRUE(law.add_text(squares(), ts[0], "good 0"));
  EXPECT_FALSE(law.add_text(squares(), t, "bad"));
  EXPECT_TRUE(law.add_text(squares(), ts[2], "good 2"));
  const ChoiceLawReport r = law.report();
  EXPECT_EQ(r.traces, 2u);
  ASSERT_EQ(r.nonconforming.size(), 1u);
  EXPECT_EQ(
      r.nonconforming[0].rfind("bad: event 4 (iteration 1, phase 1): query: expected Q(3, 1)", 0),
      0u)
      << r.nonconforming[0];
  EXPECT_FALSE(r.passes());
  ChoiceLaw clean({});
  clean.add_text(squares(), ts[0], "good 0");
  clean.add_text(squares(), ts[2], "good 2");
  // The pool is the two conforming traces' choices, exactly.
  for (std::size_t k = 0; k < r.kinds.size(); ++k)
    EXPECT_EQ(r.kinds[k].counts, clean.report().kinds[k].counts) << r.kinds[k].name;
  EXPECT_TRUE(clean.report().passes());
  // A trace of other data is still an error: it says nothing about an implementation.
  EXPECT_THROW(law.add_text(testing::nine_points().X, ts[0], "other"), DataError);
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

// ---- The report's numbers recomputed from the trace text alone --------------------------------
// Every count the check reports (choices, hits, repeats, not-sure answers) and every expected
// number is a function of the recorded events: recomputed here from the JSON lines, with the laws
// of choice_law.hpp written out again, so that a slip in the tallies (a kind's hits never
// counted, a wrong conditional probability, pairs formed across the wrong boundary) is caught
// exactly, not only when it moves a p-value.
struct Tally {
  std::uint64_t choices = 0, hits = 0;
  double expected = 0.0;
};

std::map<std::string, Tally> recompute(const std::vector<std::string>& ts, double q, int grid) {
  using nlohmann::json;
  std::map<std::string, Tally> t;
  for (const std::string& text : ts) {
    std::istringstream in(text);
    std::string line;
    std::vector<std::size_t> sample;  // this iteration's Z
    std::vector<int> clusters;        // its assignment
    std::size_t remaining = 0;
    int p = 0;
    std::uint64_t answers_this_iteration = 0, b_draws_this_iteration = 0;
    std::vector<std::size_t> b_sizes;  // the sizes of this iteration's Bs with draws
    std::map<std::pair<std::size_t, std::size_t>, bool> pending;  // first ask not-sure?
    const auto close_iteration = [&] {
      t["abstention_pair"].choices += answers_this_iteration / 2;
      t["b_pair"].choices += b_draws_this_iteration / 2;
      for (std::size_t i = 0; i + 1 < b_sizes.size(); i += 2)
        t["b_probe_pair"].choices += std::min(b_sizes[i], b_sizes[i + 1]);
      answers_this_iteration = b_draws_this_iteration = 0;
      b_sizes.clear();
    };
    while (std::getline(in, line)) {
      const json e = json::parse(line);
      const std::string ev = e["event"];
      if (ev == "iteration") {
        close_iteration();
        remaining = e["remaining"];
      } else if (ev == "sample") {
        sample = e["rows"].get<std::vector<std::size_t>>();
        std::set<std::size_t> seen;
        for (std::size_t r : sample) {
          Tally& k = t["phase1_draw"];
          ++k.choices;
          k.hits += seen.count(r);
          k.expected += static_cast<double>(seen.size()) / static_cast<double>(remaining);
          seen.insert(r);
        }
        t["phase1_pair"].choices += sample.size() / 2;
      } else if (ev == "assignment") {
        clusters = e["clusters"].get<std::vector<int>>();
      } else if (ev == "cluster") {
        p = e["p"];
      } else if (ev == "anchor") {
        const auto c = e["candidates"].get<std::vector<std::size_t>>();
        Tally& k = t["anchor_draw"];
        ++k.choices;
        k.hits += e["row"] == c.front() ? 1 : 0;
        k.expected += 1.0 / static_cast<double>(c.size());
      } else if (ev == "query") {
        const bool not_sure = e["answer"] == "not-sure";
        Tally& a = t["abstention"];
        ++a.choices;
        a.hits += not_sure ? 1 : 0;
        a.expected += 1.0 - q;
        ++answers_this_iteration;
        const std::size_t x = e["x"], y = e["y"];
        const auto key = std::make_pair(std::min(x, y), std::max(x, y));
        const auto it = pending.find(key);
        if (it == pending.end()) {
          pending.emplace(key, not_sure);
        } else {
          Tally& g = t["repeat_agreement"];
          ++g.choices;
          g.hits += it->second == not_sure ? 1 : 0;
          g.expected += it->second ? 1.0 - q : q;
          pending.erase(it);
        }
      } else if (ev == "step") {
        const auto b = e["sample"].get<std::vector<std::size_t>>();
        if (b.empty()) continue;
        std::map<std::size_t, std::size_t> mult;  // Z_p's rows and their multiplicities
        std::size_t zp = 0;
        for (std::size_t i = 0; i < sample.size(); ++i)
          if (clusters[i] == p) {
            ++mult[sample[i]];
            ++zp;
          }
        std::set<std::size_t> seen;
        std::size_t seen_mass = 0;
        for (std::size_t r : b) {
          Tally& k = t["b_draw"];
          ++k.choices;
          k.hits += seen.count(r);
          k.expected += static_cast<double>(seen_mass) / static_cast<double>(zp);
          if (seen.insert(r).second) seen_mass += mult[r];
        }
        b_draws_this_iteration += b.size();
        b_sizes.push_back(b.size());
      }
    }
    close_iteration();
  }
  for (const char* pair : {"phase1_pair", "b_pair", "b_probe_pair", "abstention_pair"})
    t[pair].expected = static_cast<double>(t[pair].choices) / grid;
  return t;
}

// The exact two-sided binomial p-value of one cell, Bonferroni over all cells, written from the
// probability mass function (not Boost's cdf), to recompute the reported p_bins and its cell.
double two_sided(std::uint64_t x, std::uint64_t total, double p, std::size_t cells) {
  long double lower = 0, upper = 0;
  for (std::uint64_t j = 0; j <= total; ++j) {
    const long double lp = std::lgamma(total + 1.0L) - std::lgamma(j + 1.0L) -
                           std::lgamma(total - j + 1.0L) + j * std::log((long double)p) +
                           (total - j) * std::log1p(-(long double)p);
    const long double m = std::exp(lp);
    if (j <= x) lower += m;
    if (j >= x) upper += m;
  }
  return std::min(1.0, 2.0 * static_cast<double>(std::min(lower, upper)) * cells);
}

void expect_bins_recomputed(const ChoiceKind& k, int bins, int grid) {
  const std::size_t rows = k.pairs ? static_cast<std::size_t>(grid) : 1;
  const std::size_t width =
      k.pairs ? static_cast<std::size_t>(grid) : static_cast<std::size_t>(bins);
  ASSERT_EQ(k.counts.size(), rows * width) << k.name;
  double best = 1.0;
  int where = -1;
  for (std::size_t i = 0; i < rows; ++i) {
    std::uint64_t total = 0;
    for (std::size_t j = 0; j < width; ++j)
      total += k.counts[i * width + j];
    if (total == 0) continue;
    for (std::size_t j = 0; j < width; ++j) {
      const double pv = two_sided(k.counts[i * width + j], total, 1.0 / width, k.counts.size());
      if (pv < best * (1 - 1e-9)) {
        best = pv;
        where = static_cast<int>(i * width + j);
      }
    }
  }
  EXPECT_NEAR(k.p_bins, best, 1e-7 * std::max(best, 1e-300) + 1e-300) << k.name;
  // The reported cell is one where the smallest p is attained (equal counts in one row tie).
  if (best < 1.0) {
    ASSERT_GE(k.worst_bin, 0) << k.name;
    const auto w = static_cast<std::size_t>(k.worst_bin);
    std::uint64_t total = 0;
    for (std::size_t j = 0; j < width; ++j)
      total += k.counts[(w / width) * width + j];
    EXPECT_NEAR(two_sided(k.counts[w], total, 1.0 / width, k.counts.size()), best,
                1e-7 * best + 1e-300)
        << k.name << " cell " << w << " (first found " << where << ")";
  }
  EXPECT_DOUBLE_EQ(k.p, std::min(1.0, 2.0 * std::min(k.p_bins, k.p_ks))) << k.name;
}

ChoiceLawReport audit_with(const testing::ChoiceInstance& c, const std::vector<std::string>& ts,
                           ChoiceLawOptions o) {
  ChoiceLaw law(o);
  for (std::size_t i = 0; i < ts.size(); ++i)
    law.add_text(c.X, ts[i], "trace " + std::to_string(i));
  return law.report();
}

// Reference traces under the three anchor rules, and implementations whose tallies are far from
// their expectations (every anchor the first candidate; B without replacement: no repeats; a
// Phase-1 draw that follows the previous: the pair grid's diagonal off its own row).
TEST(ChoiceLaw, EveryTallyIsRecomputedFromTheTraces) {
  struct Case {
    Bug bug;
    AnchorRule rule;
  };
  for (const Case& cs :
       {Case{Bug::none, AnchorRule::opener}, Case{Bug::none, AnchorRule::random_known_row},
        Case{Bug::anchor_first, AnchorRule::random_labelled_row},
        Case{Bug::b_without_replacement, AnchorRule::opener},
        Case{Bug::phase1_follows_previous, AnchorRule::opener}}) {
    const testing::ChoiceInstance c = testing::nine_points(cs.rule);
    const auto ts = testing::buggy_traces(c.X, c.labels, c.params, c.q, {cs.bug, 0.5}, 11, 40);
    ChoiceLawOptions o;
    o.grid = 3;
    const ChoiceLawReport r = audit_with(c, ts, o);
    const auto want = recompute(ts, c.q, o.grid);
    const std::string where = testing::to_string(cs.bug) + " under " + to_string(cs.rule);
    for (const ChoiceKind& k : r.kinds) {
      const auto it = want.find(k.name);
      const Tally w = it == want.end() ? Tally{} : it->second;
      EXPECT_EQ(k.choices, w.choices) << k.name << ", " << where;
      EXPECT_NEAR(k.expected_hits, w.expected, 1e-9 * std::max(1.0, w.expected))
          << k.name << ", " << where;
      if (k.pairs) {
        std::uint64_t diagonal = 0;
        for (int i = 0; i < o.grid; ++i)
          diagonal += k.counts[static_cast<std::size_t>(i * o.grid + i)];
        EXPECT_EQ(k.hits, diagonal) << k.name << ", " << where;
      } else {
        EXPECT_EQ(k.hits, w.hits) << k.name << ", " << where;
      }
      std::uint64_t total = 0;
      for (std::uint64_t n : k.counts)
        total += n;
      EXPECT_EQ(total, k.choices) << k.name << ", " << where;
    }
    const ChoiceKind& p1 = kind(r, "phase1_draw");
    EXPECT_EQ(p1.repeats, p1.hits);
    EXPECT_DOUBLE_EQ(p1.expected_repeats, p1.expected_hits);
    const ChoiceKind& b = kind(r, "b_draw");
    EXPECT_EQ(b.repeats, b.hits);
    EXPECT_DOUBLE_EQ(b.expected_repeats, b.expected_hits);
    const ChoiceKind& a = kind(r, "abstention");
    EXPECT_EQ(a.not_sure, a.hits);
    EXPECT_DOUBLE_EQ(a.expected_not_sure, a.expected_hits);
    EXPECT_EQ(kind(r, "anchor_draw").repeats, 0u);
    EXPECT_EQ(kind(r, "repeat_agreement").not_sure, 0u);
    if (cs.rule != AnchorRule::opener) {
      EXPECT_GT(kind(r, "anchor_draw").choices, 0u) << where;
    }
    if (cs.bug == Bug::anchor_first) {
      const ChoiceKind& an = kind(r, "anchor_draw");
      EXPECT_EQ(an.hits, an.choices);
      EXPECT_LT(an.expected_hits, 0.9 * static_cast<double>(an.choices));
    }
    // Without replacement from Z_p's positions a row repeats only where Z_p holds it twice.
    if (cs.bug == Bug::b_without_replacement) {
      EXPECT_LT(static_cast<double>(b.hits), 0.8 * b.expected_hits);
    }
  }
}

// p_bins and its cell recomputed from the reported counts with the binomial law written from its
// mass function, at bin and grid sizes other than the defaults, on clean traces and on a bug that
// piles pairs on the diagonal (whose worst cells then lie in rows past the first).
TEST(ChoiceLaw, EveryBinTestIsRecomputedFromItsCounts) {
  int past_first_row = 0;
  for (Bug bug : {Bug::none, Bug::phase1_follows_previous, Bug::abstention_q_squared}) {
    const testing::ChoiceInstance c = testing::nine_points();
    const auto ts = testing::buggy_traces(c.X, c.labels, c.params, c.q, {bug, 0.5}, 21, 60);
    for (const auto& [bins, grid] : {std::pair{7, 5}, std::pair{2, 2}, std::pair{10, 4}}) {
      ChoiceLawOptions o;
      o.bins = bins;
      o.grid = grid;
      const ChoiceLawReport r = audit_with(c, ts, o);
      for (const ChoiceKind& k : r.kinds) {
        if (k.choices == 0) continue;
        expect_bins_recomputed(k, bins, grid);
        if (k.pairs && k.worst_bin >= grid) ++past_first_row;
      }
    }
  }
  // The grids' worst cells are not all in row 0 (else a test restricted to it would pass).
  EXPECT_GE(past_first_row, 3);
}

// Each option at both edges of its range is accepted, one step beyond each is refused.
TEST(ChoiceLaw, OptionsAtTheEdgesOfTheirRanges) {
  const auto ok = [](double alpha, int bins, int grid) {
    ChoiceLawOptions o;
    o.alpha = alpha;
    o.bins = bins;
    o.grid = grid;
    ChoiceLaw law(o);
    const ChoiceLawReport r = law.report();
    EXPECT_EQ(r.options.alpha, alpha);
    for (const ChoiceKind& k : r.kinds)
      EXPECT_EQ(k.counts.size(), static_cast<std::size_t>(k.pairs ? grid * grid : bins)) << k.name;
  };
  ok(0.5, 2, 2);
  ok(1e-300, 1000, 32);
  ok(std::nextafter(0.5, 0.0), 999, 31);
  const auto refused = [](double alpha, int bins, int grid, const std::string& name) {
    ChoiceLawOptions o;
    o.alpha = alpha;
    o.bins = bins;
    o.grid = grid;
    try {
      ChoiceLaw law(o);
      ADD_FAILURE() << name << " accepted";
    } catch (const ParameterError& e) {
      EXPECT_NE(std::string(e.what()).find(name), std::string::npos) << e.what();
    }
  };
  refused(std::nextafter(0.5, 1.0), 10, 4, "alpha");
  refused(0.0, 10, 4, "alpha");
  refused(-1e-9, 10, 4, "alpha");
  refused(std::nan(""), 10, 4, "alpha");
  refused(1e-6, 1, 4, "bins");
  refused(1e-6, 1001, 4, "bins");
  refused(1e-6, 10, 1, "grid");
  refused(1e-6, 10, 33, "grid");
}

}  // namespace
}  // namespace ssac
