// `ssac validate --check-oracle` (ssac/oracle_check.hpp) must catch answers that the oracle the
// trace names could not have given: Definition 6 (a) computed with max instead of min, and a
// random-weak oracle abstaining at 1 - q^2 instead of 1 - q; and it must pass the real oracles'
// traces (the negative controls of these tests).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "ssac/error.hpp"
#include "ssac/oracle.hpp"
#include "ssac/oracle_check.hpp"
#include "ssac/oracle_spec.hpp"
#include "ssac/ssac.hpp"
#include "ssac/trace.hpp"
#include "trace_fixture.hpp"

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

std::string trace_of(const Matrix& X, Oracle& oracle, const Params& P, const std::string& name,
                     std::uint64_t seed) {
  TraceHeader h;
  h.params = P;
  h.oracle = name;
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
    const auto ok = check_oracle_answers(
        X, kLopsided, trace_of(X, right, P, "local nu=2.5 rho=1", seed), "t.jsonl", std::nullopt);
    EXPECT_TRUE(ok.spec_from_header);
    EXPECT_TRUE(ok.passes()) << "seed " << seed << ": event " << ok.wrong->event;
    MaxLocalOracle wrong(X, kLopsided, 2.5);
    const auto bad = check_oracle_answers(
        X, kLopsided, trace_of(X, wrong, P, "local nu=2.5 rho=1", seed), "t.jsonl", std::nullopt);
    if (bad.passes()) continue;
    ++caught;
    EXPECT_NE(kLopsided[bad.wrong->x], kLopsided[bad.wrong->y]);
    EXPECT_EQ(bad.wrong->expected, "no");
    EXPECT_EQ(bad.wrong->found, "not-sure");
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
  for (std::uint64_t seed = 0; seed < 10; ++seed) {
    // The right rate passes (false-alarm rate 1e-3 per run, at the seeds fixed here).
    RandomWeakOracle right(labels, q, Rng::stream(seed, {kStreamOracle}));
    const auto ok = check_oracle_answers(X, labels, trace_of(X, right, P, "random q=0.7", seed),
                                         "t.jsonl", std::nullopt);
    EXPECT_TRUE(ok.passes()) << "seed " << seed << ": [" << ok.rate_lo << ", " << ok.rate_hi << "]";
    RandomWeakOracle squared(labels, q * q, Rng::stream(seed, {kStreamOracle}));
    const auto bad = check_oracle_answers(X, labels, trace_of(X, squared, P, "random q=0.7", seed),
                                          "t.jsonl", std::nullopt);
    EXPECT_GE(bad.trials, 200u);
    EXPECT_FALSE(bad.wrong.has_value());  // every definite answer is still the truth
    EXPECT_FALSE(bad.rate_consistent)
        << "seed " << seed << ": " << bad.abstentions << " of " << bad.trials << ", ["
        << bad.rate_lo << ", " << bad.rate_hi << "]";
    EXPECT_GT(bad.rate_lo, 1.0 - q);
  }
}

TEST(OracleCheck, TheHeadersOracleTextReadsBackAndAFallbackIsNeededOtherwise) {
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
  const std::string t = trace_of(X, perfect, P, "python callable", 1);
  EXPECT_THROW(check_oracle_answers(X, kLopsided, t, "t.jsonl", std::nullopt), ParameterError);
  const auto c = check_oracle_answers(X, kLopsided, t, "t.jsonl", OracleSpec{});
  EXPECT_FALSE(c.spec_from_header);
  EXPECT_TRUE(c.passes());
  EXPECT_GT(c.queries, 0u);
}
