// `ssac validate --check-oracle` (ssac/oracle_check.hpp) must catch answers that the oracle the
// trace names could not have given: Definition 6 (a) computed with max instead of min, and a
// random-weak oracle abstaining at 1 - q^2 instead of 1 - q; and it must pass the real oracles'
// traces (the negative controls of these tests). Each wrong answer is reported with the rule that
// decides it: the clause of Definition 6 or 7 with its inequality, or Definition 3 or 5.
#include <gtest/gtest.h>

#include <algorithm>
#include <boost/math/special_functions/beta.hpp>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "ssac/error.hpp"
#include "ssac/oracle.hpp"
#include "ssac/oracle_check.hpp"
#include "ssac/oracle_spec.hpp"
#include "ssac/ssac.hpp"
#include "ssac/trace.hpp"
#include "trace_events.hpp"

using namespace ssac;

namespace {

// Two clusters on a line, the first lopsided: d(x6, mu_1) = 3.75 but d(x10, mu_2) = 1, so for
// the pair (6, 10) at distance 4 and nu = 2.5, (nu - 1) min = 1.5 < 4 <= (nu - 1) max = 5.625.
Matrix lopsided() {
  Matrix X(7, 1);
  X << 0, 1, 2, 6, 10, 11, 12;
  return X;
}
const std::vector<int> kLopsided = {1, 1, 1, 1, 2, 2, 2};
const OracleSpec kLocal{OracleKind::local, 1.0, 2.5, 1.0};
// Seed 0 of AbstentionRateOfOneMinusQSquaredIsCaught, as `ssac validate --check-oracle` prints it.
const std::string kSeed0Verdict =
    "every definite answer of 354 is truthful; abstentions 173 of 354 = 0.4887, exact two-sided "
    "99.9% Clopper-Pearson interval [0.4009, 0.5770] excludes 1 - q = 0.3000: Definition 5 has "
    "each query abstain with probability 1 - q; this oracle abstains at another rate";

// Definition 6 (a) with max where the paper has min; (b) as in the paper (rho = 1).
class MaxLocalOracle : public Oracle {
 public:
  MaxLocalOracle(const Matrix& X, std::vector<int> labels, double nu)
      : X_(X), labels_(std::move(labels)), nu_(nu) {
    for (int c = 1; c <= 2; ++c) {
      double sum = 0, n = 0;
      for (std::size_t r = 0; r < labels_.size(); ++r)
        if (labels_[r] == c) sum += X_(static_cast<Eigen::Index>(r), 0), n += 1;
      mean_.push_back(sum / n);
    }
    for (std::size_t r = 0; r < labels_.size(); ++r)
      own_.push_back(std::fabs(X_(static_cast<Eigen::Index>(r), 0) -
                               mean_[static_cast<std::size_t>(labels_[r] - 1)]));
    for (int c = 1; c <= 2; ++c) {
      double m = 0;
      for (std::size_t r = 0; r < labels_.size(); ++r)
        if (labels_[r] == c) m = std::max(m, own_[r]);
      radius_.push_back(m);
    }
  }
  Answer query(std::size_t x, std::size_t y) override {
    const double d = distance(X_, x, y);
    if (labels_[x] == labels_[y])
      return d > 2.0 * radius_[static_cast<std::size_t>(labels_[x] - 1)] ? Answer::NotSure
                                                                         : Answer::Yes;
    return d < (nu_ - 1.0) * std::max(own_[x], own_[y]) ? Answer::NotSure : Answer::No;
  }

 private:
  const Matrix& X_;
  std::vector<int> labels_;
  double nu_;
  std::vector<double> mean_, own_, radius_;
};

// The trace of a run with `oracle`, its header naming `spec` (none: no `oracle` field).
std::string trace_of(const Matrix& X, Oracle& oracle, const Params& P,
                     const std::optional<OracleSpec>& spec, std::uint64_t seed) {
  TraceHeader h;
  h.params = P;
  h.oracle = spec;
  fixtures::TraceText t(X, h);
  run_ssac(X, oracle, P, seed, t.writer.get());
  return t.text;
}

}  // namespace

TEST(OracleCheck, Definition6aWithMaxInsteadOfMinIsCaught) {
  const Matrix X = lopsided();
  Params P;
  P.k = 2;
  P.eta = 3;
  P.beta = 3;
  P.search = Search::random;
  int caught = 0;
  for (std::uint64_t seed = 0; seed < 30; ++seed) {
    // The correct oracle's trace passes; the wrong one's is caught once it asks a pair on which
    // min and max differ.
    auto right = DistanceWeakOracle::local(X, kLopsided, 2.5, 1.0);
    const auto ok = check_oracle_answers(X, kLopsided, trace_of(X, right, P, kLocal, seed),
                                         "t.jsonl", std::nullopt);
    EXPECT_TRUE(ok.spec_from_header);
    EXPECT_TRUE(ok.passes()) << "seed " << seed << ": event " << ok.wrong->event;
    MaxLocalOracle wrong(X, kLopsided, 2.5);
    const auto bad = check_oracle_answers(X, kLopsided, trace_of(X, wrong, P, kLocal, seed),
                                          "t.jsonl", std::nullopt);
    if (bad.passes()) continue;
    ++caught;
    EXPECT_NE(kLopsided[bad.wrong->x], kLopsided[bad.wrong->y]);
    EXPECT_EQ(bad.wrong->expected, "no");
    EXPECT_EQ(bad.wrong->found, "not-sure");
    // The pairs min and max tell apart: row 3 (at 6, d(x, mu_1) = 3.75) with row 4 (at 10,
    // d = 1) or row 5 (at 11, d = 0); (nu - 1) min is 1.5 or 0, below d(x, y) = 4 or 5.
    const auto [lo, hi] = std::minmax(bad.wrong->x, bad.wrong->y);
    ASSERT_EQ(lo, 3u);
    const std::string clause = hi == 4 ? "d(x,y) = 4 >= (nu-1) min{d(x,mu_i), d(y,mu_j)} = 1.5"
                                       : "d(x,y) = 5 >= (nu-1) min{d(x,mu_i), d(y,mu_j)} = 0";
    EXPECT_EQ(bad.verdict(), "event " + std::to_string(bad.wrong->event) + ": Q(" +
                                 std::to_string(bad.wrong->x) + ", " +
                                 std::to_string(bad.wrong->y) + "): Definition 6(a): " + clause +
                                 ", so the oracle answers no; the trace has not-sure");
  }
  EXPECT_GT(caught, 0) << "no run asked a pair on which min and max differ";
}

TEST(OracleCheck, AbstentionRateOfOneMinusQSquaredIsCaught) {
  // Three clusters of 40 points; k = 3, eta = 10 (30 draws per iteration), beta = 5. Each run
  // asks at least 200 queries (asserted below; a few hundred in fact). With n >= 200 queries
  // abstaining at 1 - q^2 = 0.51, the 99.9% Clopper-Pearson interval includes 1 - q = 0.3 only if
  // the observed rate falls below about 0.39, 3.4 standard deviations low: probability < 1e-3 per
  // run. The correct oracle's interval misses 0.3 with probability at most 1e-3 per run. The
  // seeds are fixed, so the outcome is reproducible.
  Matrix X(120, 1);
  std::vector<int> labels(120);
  for (int i = 0; i < 120; ++i) {
    X(i, 0) = (i / 40) * 100 + i % 40;
    labels[static_cast<std::size_t>(i)] = i / 40 + 1;
  }
  Params P;
  P.k = 3;
  P.eta = 10;
  P.beta = 5;
  P.search = Search::random;
  const double q = 0.7;
  const OracleSpec named{OracleKind::random, q};
  for (std::uint64_t seed = 0; seed < 10; ++seed) {
    // The right rate passes (false-alarm rate 1e-3 per run, at the seeds fixed here).
    RandomWeakOracle right(labels, q, Rng::stream(seed, {kStreamOracle}));
    const auto ok = check_oracle_answers(X, labels, trace_of(X, right, P, named, seed), "t.jsonl",
                                         std::nullopt);
    EXPECT_TRUE(ok.passes()) << "seed " << seed << ": [" << ok.rate_lo << ", " << ok.rate_hi << "]";
    RandomWeakOracle squared(labels, q * q, Rng::stream(seed, {kStreamOracle}));
    const auto bad = check_oracle_answers(X, labels, trace_of(X, squared, P, named, seed),
                                          "t.jsonl", std::nullopt);
    EXPECT_GE(bad.trials, 200u);
    EXPECT_FALSE(bad.wrong.has_value());  // every definite answer is still the truth
    EXPECT_FALSE(bad.rate_consistent)
        << "seed " << seed << ": " << bad.abstentions << " of " << bad.trials << ", ["
        << bad.rate_lo << ", " << bad.rate_hi << "]";
    EXPECT_GT(bad.rate_lo, 1.0 - q);
    // The verdict names Definition 5's rate; the numbers are the check's own, to four places.
    EXPECT_NE(bad.verdict().find("excludes 1 - q = 0.3000: Definition 5 has each query abstain "
                                 "with probability 1 - q; this oracle abstains at another rate"),
              std::string::npos)
        << bad.verdict();
    if (seed == 0) {
      EXPECT_EQ(bad.verdict(), kSeed0Verdict);
    }
  }
}

TEST(OracleCheck, TheHeadersOracleTextReadsBackAndAFallbackIsNeededOtherwise) {
  // Version 1 wrote the oracle as text; version 2 writes an object (OracleCheckHeader below).
  for (const char* text : {"perfect", "random q=0.7", "random q=0.5 memory=per-pair",
                           "local nu=1.5 rho=0.85", "global rho=0.7", "correlated q=0.8 rho=0.9"}) {
    const auto s = parse_oracle_spec(text);
    ASSERT_TRUE(s.has_value()) << text;
    EXPECT_EQ(s->describe(), text);
  }
  for (const char* text : {"", "local nu=1.5", "random q=2", "random q=0.7 rho=1", "random  q=0.7",
                           "perfect with coin flips", "global rho=x", "python callable"})
    EXPECT_FALSE(parse_oracle_spec(text).has_value()) << text;
  const Matrix X = lopsided();
  PerfectOracle perfect(kLopsided);
  Params P;
  P.k = 2;
  P.eta = 2;
  P.beta = 2;
  const std::string t = trace_of(X, perfect, P, std::nullopt, 1);  // a callable: no "oracle"
  EXPECT_THROW(check_oracle_answers(X, kLopsided, t, "t.jsonl", std::nullopt), ParameterError);
  const auto c = check_oracle_answers(X, kLopsided, t, "t.jsonl", OracleSpec{});
  EXPECT_FALSE(c.spec_from_header);
  EXPECT_TRUE(c.passes());
  EXPECT_GT(c.queries, 0u);
}

namespace {

// Three clusters of four on a line: 0..3, 10..13, 20..23 (mu_i = 1.5, 11.5, 21.5; r(C_i) = 1.5),
// the conformance corpus's three_lines. Every distance and bound below is exact in binary.
Matrix three_lines() {
  Matrix X(12, 1);
  X << 0, 1, 2, 3, 10, 11, 12, 13, 20, 21, 22, 23;
  return X;
}
const std::vector<int> kThreeLines = {1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3};

}  // namespace

TEST(OracleCheckRule, EachClauseOfDefinitions6And7IsNamedWithItsInequality) {
  const Matrix X = three_lines();
  // Definition 6 (a), nu = 6: rows 3 and 4 (at 3 and 10) are 7 apart, (nu - 1) min{1.5, 1.5} =
  // 7.5: not-sure. Rows 0 and 7 (at 0 and 13) are 13 apart: the oracle answers.
  const auto local = DistanceWeakOracle::local(X, kThreeLines, 6.0, 0.75);
  EXPECT_EQ(local.rule(3, 4),
            "Definition 6(a): d(x,y) = 7 < (nu-1) min{d(x,mu_i), d(y,mu_j)} = 7.5");
  EXPECT_EQ(local.rule(0, 7),
            "Definition 6(a): d(x,y) = 13 >= (nu-1) min{d(x,mu_i), d(y,mu_j)} = 7.5");
  // Definition 6 (b), rho = 0.75: 2 rho r(C_1) = 2.25; rows 0 and 3 are 3 apart, rows 0 and 1 one.
  EXPECT_EQ(local.rule(0, 3), "Definition 6(b): d(x,y) = 3 > 2 rho r(C_i) = 2.25");
  EXPECT_EQ(local.rule(0, 1), "Definition 6(b): d(x,y) = 1 <= 2 rho r(C_i) = 2.25");
  // Definition 7, rho = 0.5: rho r(C_i) = 0.75. Row 0 lies 1.5 from mu_1, row 5 (at 11) 0.5 from
  // mu_2; rows 1 and 5 both 0.5. (b): 2 rho r(C_1) = 1.5.
  const auto global = DistanceWeakOracle::global(X, kThreeLines, 0.5);
  EXPECT_EQ(global.rule(0, 5), "Definition 7(a): d(x,mu_i) = 1.5 > rho r(C_i) = 0.75");
  EXPECT_EQ(global.rule(5, 0), "Definition 7(a): d(y,mu_j) = 1.5 > rho r(C_j) = 0.75");
  EXPECT_EQ(global.rule(1, 5),
            "Definition 7(a): d(x,mu_i) = 0.5 <= rho r(C_i) = 0.75 and d(y,mu_j) = 0.5 <= rho "
            "r(C_j) = 0.75");
  EXPECT_EQ(global.rule(1, 2), "Definition 7(b): d(x,y) = 1 <= 2 rho r(C_i) = 1.5");
  EXPECT_EQ(global.rule(0, 3), "Definition 7(b): d(x,y) = 3 > 2 rho r(C_i) = 1.5");
}

TEST(OracleCheckRule, TheRuleTextAgreesWithTheAnswerOnEveryPair) {
  // The clause holds (the oracle abstains) exactly when its relation is strict: <, > (negated,
  // >=, <=). A rule text that disagreed with query() would misname a wrong answer.
  std::size_t pairs = 0, abstained = 0;
  for (const Matrix& X : {three_lines(), lopsided()}) {
    const std::vector<int>& labels = X.rows() == 12 ? kThreeLines : kLopsided;
    for (auto oracle :
         {DistanceWeakOracle::local(X, labels, 6.0, 0.75),
          DistanceWeakOracle::local(X, labels, 2.5, 1.0),
          DistanceWeakOracle::global(X, labels, 0.5), DistanceWeakOracle::global(X, labels, 0.9)})
      for (std::size_t x = 0; x < labels.size(); ++x)
        for (std::size_t y = 0; y < labels.size(); ++y) {
          if (x == y) continue;
          const std::string r = oracle.rule(x, y);
          const bool strict =
              r.find(" <= ") == std::string::npos && r.find(" >= ") == std::string::npos;
          EXPECT_EQ(strict, oracle.query(x, y) == Answer::NotSure) << x << ", " << y << ": " << r;
          ++pairs;
          abstained += strict;
        }
  }
  EXPECT_GT(abstained, 0u);  // both sides of the equivalence occur
  EXPECT_LT(abstained, pairs);
}

TEST(OracleCheck, AWrongAnswerIsReportedWithTheRuleThatDecidesIt) {
  const Matrix X = three_lines();
  Params P;
  P.k = 3;
  P.eta = 3;
  P.beta = 3;
  P.search = Search::distance;
  // The first query of each trace answered otherwise: the report names the first query, the
  // oracle's answer and its rule.
  auto flip_first = [](const std::string& text, std::size_t& event, std::string& was) {
    auto ev = fixtures::events_of(text);
    for (std::size_t e = 0; e < ev.size(); ++e)
      if (ev[e]["event"] == "query") {
        was = ev[e]["answer"].get<std::string>();
        ev[e]["answer"] = was == "yes" ? "no" : "yes";
        event = e + 1;
        return fixtures::text_of(ev);
      }
    return text;
  };
  for (const OracleSpec& spec : {OracleSpec{OracleKind::local, 1.0, 6.0, 0.75},
                                 OracleSpec{OracleKind::global, 1.0, 1.0, 0.5}}) {
    const auto oracle = spec.kind == OracleKind::local
                            ? DistanceWeakOracle::local(X, kThreeLines, spec.nu, spec.rho)
                            : DistanceWeakOracle::global(X, kThreeLines, spec.rho);
    auto asked = oracle;
    std::size_t event = 0;
    std::string was;
    const std::string bad = flip_first(trace_of(X, asked, P, spec, 2), event, was);
    const auto c = check_oracle_answers(X, kThreeLines, bad, "t.jsonl", std::nullopt);
    ASSERT_TRUE(c.wrong.has_value()) << spec.describe();
    EXPECT_EQ(c.wrong->event, event);
    EXPECT_EQ(c.wrong->expected, was);
    EXPECT_EQ(c.verdict(), "event " + std::to_string(event) + ": Q(" + std::to_string(c.wrong->x) +
                               ", " + std::to_string(c.wrong->y) + "): " +
                               oracle.rule(c.wrong->x, c.wrong->y) + ", so the oracle answers " +
                               was + "; the trace has " + (was == "yes" ? "no" : "yes"));
  }
  // The perfect oracle: Definition 3 without abstentions. The first query of the run at seed 2 is
  // Q(3, 0) (event 4), two rows of cluster 1: yes, turned into no.
  PerfectOracle perfect(kThreeLines);
  std::size_t event = 0;
  std::string was;
  const std::string bad = flip_first(trace_of(X, perfect, P, OracleSpec{}, 2), event, was);
  const auto c = check_oracle_answers(X, kThreeLines, bad, "t.jsonl", std::nullopt);
  ASSERT_TRUE(c.wrong.has_value());
  EXPECT_EQ(c.verdict(),
            "event 4: Q(3, 0): perfect oracle (Definition 3, never not-sure): x and y are in one "
            "cluster (labels 1 and 1), so the oracle answers yes; the trace has no");
}

TEST(OracleCheckHeader, TheHeadersOracleFieldsAreReadNotItsText) {
  const Matrix X = three_lines();
  Params P;
  P.k = 3;
  P.eta = 2;
  P.beta = 2;
  PerfectOracle perfect(kThreeLines);
  const std::pair<OracleSpec, const char*> specs[] = {
      {OracleSpec{}, R"({"kind":"perfect"})"},
      {OracleSpec{OracleKind::random, 0.7}, R"({"kind":"random","q":0.7})"},
      {OracleSpec{OracleKind::local, 1.0, 1.5, 0.85}, R"({"kind":"local","nu":1.5,"rho":0.85})"},
      {OracleSpec{OracleKind::global, 1.0, 1.0, 0.7}, R"({"kind":"global","rho":0.7})"},
      {OracleSpec{OracleKind::correlated, 0.8, 1.0, 0.9},
       R"({"kind":"correlated","q":0.8,"rho":0.9})"},
  };
  for (const auto& [spec, object] : specs) {
    const std::string t = trace_of(X, perfect, P, spec, 1);  // the answers are the truth
    const auto ev = fixtures::events_of(t);
    EXPECT_EQ(ev.front()["oracle"].dump(), object);
    const auto c = check_oracle_answers(X, kThreeLines, t, "t.jsonl", std::nullopt);
    EXPECT_TRUE(c.spec_from_header);
    EXPECT_EQ(c.spec.describe(), spec.describe());
    // The same trace in version 1 names its oracle by text, which is read there.
    const auto v1 = check_oracle_answers(
        X, kThreeLines, fixtures::text_of(fixtures::as_version_1(ev, spec.describe())), "t.jsonl",
        std::nullopt);
    EXPECT_TRUE(v1.spec_from_header);
    EXPECT_EQ(v1.spec.describe(), spec.describe());
    // Version 2 reads the fields only: a text in their place breaks the format.
    auto text_in_v2 = ev;
    text_in_v2.front()["oracle"] = spec.describe();
    EXPECT_THROW(check_oracle_answers(X, kThreeLines, fixtures::text_of(text_in_v2), "t.jsonl",
                                      std::nullopt),
                 DataError);
  }
}

namespace {

// `runs` traces of a random-weak oracle answering with q_true, headers naming q_named, on the
// lopsided line with k = 2, eta = 3, beta = 3 (Algorithm 2): a few dozen queries each.
std::vector<OracleCheck> batch_checks(double q_true, double q_named, int runs,
                                      std::uint64_t first_seed = 0) {
  const Matrix X = lopsided();
  Params P;
  P.k = 2;
  P.eta = 3;
  P.beta = 3;
  P.search = Search::random;
  std::vector<OracleCheck> out;
  for (int i = 0; i < runs; ++i) {
    const std::uint64_t seed = first_seed + static_cast<std::uint64_t>(i);
    RandomWeakOracle o(kLopsided, q_true, Rng::stream(seed, {kStreamOracle}));
    out.push_back(check_oracle_answers(
        X, kLopsided, trace_of(X, o, P, OracleSpec{OracleKind::random, q_named}, seed), "t",
        std::nullopt));
  }
  return out;
}

// The exact two-sided Clopper-Pearson interval from the beta quantiles (not Boost's binomial
// interval functions, which the check uses).
std::pair<double, double> cp(std::size_t n, std::size_t k, double confidence) {
  const double a = (1 - confidence) / 2;
  const double lo = k == 0 ? 0.0 : boost::math::ibeta_inv(double(k), double(n - k + 1), a);
  const double hi = k == n ? 1.0 : boost::math::ibeta_inv(double(k + 1), double(n - k), 1 - a);
  return {lo, hi};
}

}  // namespace

// Every trace abstains a little too often (1 - q = 0.38 where the headers say 0.30): no trace's
// own test can see it on its few dozen queries at the corrected confidence, the pooled test sees
// it at once. The false alarm of each batch verdict is at most 1e-3 (the seeds are fixed).
TEST(OracleBatch, ARateOffALittleInEveryTraceIsCaughtPooled) {
  const int runs = 400;
  std::vector<OracleCheck> bad = batch_checks(0.62, 0.7, runs);
  const OracleBatch b = pool_oracle_checks(bad);
  EXPECT_TRUE(b.failing.empty()) << b.failing.size() << " traces fail alone";
  ASSERT_EQ(b.pools.size(), 1u);
  EXPECT_FALSE(b.pools[0].consistent);
  EXPECT_FALSE(b.passes());
  EXPECT_GT(b.pools[0].rate_lo, 0.3);
  // Positive control: the claimed rate itself passes, pooled and trace by trace.
  std::vector<OracleCheck> good = batch_checks(0.7, 0.7, runs);
  const OracleBatch g = pool_oracle_checks(good);
  EXPECT_TRUE(g.passes()) << g.pool_verdict(g.pools[0]);
}

// The pool's numbers: counts summed over its traces, the Bonferroni split over one test per pool
// and one per random-weak trace, each interval the exact one at the corrected confidence, every
// trace's own interval rewritten at it, and one pool per (q, memory) in order of appearance.
TEST(OracleBatch, PoolsCountsAndConfidencesAreExact) {
  std::vector<OracleCheck> checks = batch_checks(0.7, 0.7, 5);
  for (const OracleCheck& c : batch_checks(0.5, 0.5, 3, 100))
    checks.push_back(c);
  // A perfect oracle's trace in the batch: checked answer by answer, no rate test.
  PerfectOracle perfect(kLopsided);
  Params P;
  P.k = 2;
  P.eta = 3;
  P.beta = 3;
  checks.push_back(check_oracle_answers(
      lopsided(), kLopsided, trace_of(lopsided(), perfect, P, OracleSpec{}, 9), "t", std::nullopt));
  std::vector<OracleCheck> alone = checks;
  const OracleBatch b = pool_oracle_checks(checks, 0.99);
  ASSERT_EQ(b.pools.size(), 2u);
  EXPECT_EQ(b.pools[0].spec.q, 0.7);
  EXPECT_EQ(b.pools[1].spec.q, 0.5);
  EXPECT_EQ(b.pools[0].traces, 5u);
  EXPECT_EQ(b.pools[1].traces, 3u);
  EXPECT_EQ(b.tests, 2u + 8u);
  EXPECT_DOUBLE_EQ(b.test_confidence, 1 - 0.01 / 10);
  std::size_t trials = 0, abstentions = 0;
  for (std::size_t i = 0; i < 5; ++i) {
    trials += alone[i].trials;
    abstentions += alone[i].abstentions;
  }
  EXPECT_EQ(b.pools[0].trials, trials);
  EXPECT_EQ(b.pools[0].abstentions, abstentions);
  const auto [lo, hi] = cp(trials, abstentions, b.test_confidence);
  EXPECT_NEAR(b.pools[0].rate_lo, lo, 1e-9);
  EXPECT_NEAR(b.pools[0].rate_hi, hi, 1e-9);
  for (std::size_t i = 0; i < 8; ++i) {
    EXPECT_EQ(checks[i].confidence, b.test_confidence) << i;
    const auto [l, h] = cp(checks[i].trials, checks[i].abstentions, b.test_confidence);
    EXPECT_NEAR(checks[i].rate_lo, l, 1e-9) << i;
    EXPECT_NEAR(checks[i].rate_hi, h, 1e-9) << i;
    // Wider than the trace's own interval at 99.9%.
    EXPECT_LE(checks[i].rate_lo, alone[i].rate_lo) << i;
  }
  EXPECT_EQ(checks[8].confidence, alone[8].confidence);  // the perfect one: untouched
  const std::string v = b.pool_verdict(b.pools[0]);
  EXPECT_EQ(v.rfind("5 traces of random q=0.7: abstentions " + std::to_string(abstentions) +
                        " of " + std::to_string(trials) + " = ",
                    0),
            0u)
      << v;
  EXPECT_NE(v.find("exact two-sided 99.9% Clopper-Pearson interval ["), std::string::npos) << v;
  // A wrong answer in one trace names that trace (the oracle keeps a reference to the points).
  const Matrix line = lopsided();
  MaxLocalOracle wrong(line, kLopsided, 2.5);
  std::vector<OracleCheck> with_wrong = checks;
  for (std::uint64_t seed = 0; seed < 30; ++seed) {
    auto c = check_oracle_answers(line, kLopsided, trace_of(line, wrong, P, kLocal, seed), "t",
                                  std::nullopt);
    if (c.passes()) continue;
    with_wrong.push_back(c);
    break;
  }
  ASSERT_EQ(with_wrong.size(), checks.size() + 1);
  const OracleBatch w = pool_oracle_checks(with_wrong);
  ASSERT_EQ(w.failing.size(), 1u);
  EXPECT_EQ(w.failing[0], checks.size());
  EXPECT_FALSE(w.passes());
}

namespace {

// A random-weak trace's check as check_oracle_answers leaves it: its counts only.
OracleCheck counted(double q, OracleMemory memory, std::size_t trials, std::size_t abstentions) {
  OracleCheck c;
  c.spec = OracleSpec{OracleKind::random, q};
  c.spec.memory = memory;
  c.queries = c.trials = trials;
  c.abstentions = abstentions;
  return c;
}

}  // namespace

// The batch's edges on hand-made counts: a pool per (q, memory), not per q; a random-weak trace
// with no query is no test; a rate below 1 - q is refused as well as one above; 1 - q = 0 at the
// interval's closed lower end (q = 1, no abstention) is contained; the pool's line in full; and a
// batch with no rate test keeps the batch's confidence.
TEST(OracleBatch, PoolEdgesAndTheWholeVerdictLine) {
  std::vector<OracleCheck> checks = {
      counted(0.7, OracleMemory::fresh, 100, 30), counted(0.7, OracleMemory::per_pair, 100, 5),
      counted(0.7, OracleMemory::fresh, 0, 0), counted(1.0, OracleMemory::fresh, 50, 0)};
  const OracleBatch b = pool_oracle_checks(checks, 0.99);
  ASSERT_EQ(b.pools.size(), 3u);
  EXPECT_EQ(b.tests, 3u + 3u);
  EXPECT_DOUBLE_EQ(b.test_confidence, 1 - 0.01 / 6);
  EXPECT_EQ(b.pools[0].traces, 1u);
  EXPECT_EQ(b.pools[1].spec.memory, OracleMemory::per_pair);
  EXPECT_TRUE(b.pools[0].consistent);
  EXPECT_FALSE(b.pools[1].consistent);
  EXPECT_LT(b.pools[1].rate_hi, 0.3);
  EXPECT_EQ(b.pools[2].rate_lo, 0.0);
  EXPECT_TRUE(b.pools[2].consistent);
  EXPECT_EQ(b.failing, (std::vector<std::size_t>{1}));
  EXPECT_FALSE(b.passes());
  const auto line = [&](std::size_t i, const char* head, const char* verdict) {
    const OracleBatch::Pool& p = b.pools[i];
    const auto [lo, hi] = cp(p.trials, p.abstentions, b.test_confidence);
    char want[256];
    std::snprintf(want, sizeof want,
                  "%s = %.4f, exact two-sided 99.8333%% Clopper-Pearson interval [%.4f, %.4f] %s "
                  "1 - q = %.4f",
                  head, double(p.abstentions) / double(p.trials), lo, hi, verdict, 1 - p.spec.q);
    EXPECT_EQ(b.pool_verdict(p), want);
  };
  line(0, "1 trace of random q=0.7: abstentions 30 of 100", "contains");
  line(1, "1 trace of random q=0.7 memory=per-pair: abstentions 5 of 100", "excludes");
  std::vector<OracleCheck> none = {OracleCheck{}};  // a perfect oracle's: no rate test
  const OracleBatch e = pool_oracle_checks(none, 0.99);
  EXPECT_EQ(e.tests, 0u);
  EXPECT_EQ(e.test_confidence, 0.99);
  EXPECT_TRUE(e.passes());
}
