// The law of the recorded choices (ssac/choice_law.hpp): traces of the reference conform, and
// traces of implementations whose draws or abstentions follow another law -- each of which
// `ssac validate` accepts trace by trace, since it replays whatever was recorded -- are caught.
// False alarm: every check runs at alpha = 1e-6 on a fixed set of seeds, so each test that
// expects a pass fails by chance with probability at most 1e-6.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "ssac/choice_law.hpp"
#include "ssac/error.hpp"
#include "ssac/trace.hpp"
#include "trace_fixture.hpp"

namespace ssac {
namespace {

using fixtures::squares;
const std::vector<int>& kLabels = fixtures::kSquareLabels;

// How a buggy implementation draws. Each is a mistake an implementation of the paper could make;
// none changes what a trace records about the run's decisions, only how often each choice is made.
enum class Bug {
  none,
  phase1_without_replacement,  // Z drawn without replacement (S1 says with)
  b_without_replacement,       // B drawn without replacement from Z_p's positions (S5 says with)
  b_from_distinct_rows,        // B uniform over Z_p's distinct rows, not its positions
  never_last,                  // an index draw that never returns a pool's last element
  abstention_q_squared,        // not-sure with probability 1 - q^2 instead of 1 - q
};

class BuggyChooser : public Chooser {
 public:
  BuggyChooser(Bug bug, Rng rng, std::size_t b_size) : bug_(bug), rng_(rng), b_size_(b_size) {}
  std::size_t choose(const std::vector<std::size_t>& pool, Draw what) override {
    // A new sample: another kind of draw or another pool than the last draw's, or a B of b_size_
    // draws complete (the B of successive probes share Z_p).
    if (what != last_ || pool != last_pool_ ||
        (what == Draw::search_sample && in_block_ == b_size_)) {
      taken_.clear();
      in_block_ = 0;
    }
    last_ = what;
    last_pool_ = pool;
    ++in_block_;
    const bool without = (bug_ == Bug::phase1_without_replacement && what == Draw::phase1_sample) ||
                         (bug_ == Bug::b_without_replacement && what == Draw::search_sample);
    if (without && taken_.size() < pool.size()) {
      std::size_t at;
      do
        at = rng_.uniform_index(pool.size());
      while (std::find(taken_.begin(), taken_.end(), at) != taken_.end());
      taken_.push_back(at);
      return at;
    }
    if (bug_ == Bug::b_from_distinct_rows && what == Draw::search_sample) {
      std::vector<std::size_t> rows(pool);
      std::sort(rows.begin(), rows.end());
      rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
      const std::size_t row = rows[rng_.uniform_index(rows.size())];
      return static_cast<std::size_t>(std::find(pool.begin(), pool.end(), row) - pool.begin());
    }
    if (bug_ == Bug::never_last && pool.size() > 1) return rng_.uniform_index(pool.size() - 1);
    return rng_.uniform_index(pool.size());
  }

 private:
  Bug bug_;
  Rng rng_;
  std::size_t b_size_;
  Draw last_ = Draw::anchor;
  std::vector<std::size_t> last_pool_;
  std::size_t in_block_ = 0;
  std::vector<std::size_t> taken_;
};

constexpr double kQ = 0.7;

Params params() {
  Params p;
  p.k = 3;
  p.eta = 1.5;  // r = 5 draws from S_i: repeats are common, so sampling without them shows
  p.beta = 4;
  p.search = Search::unified;
  return p;
}

// `runs` traces of the implementation with `bug`, seeds 1..runs, random-weak oracle q = 0.7.
std::vector<std::string> traces(Bug bug, int runs) {
  std::vector<std::string> out;
  for (int s = 1; s <= runs; ++s) {
    const auto seed = static_cast<std::uint64_t>(s);
    const double q = bug == Bug::abstention_q_squared ? kQ * kQ : kQ;
    RandomWeakOracle oracle(kLabels, q, Rng::stream(seed, {kStreamOracle}));
    BuggyChooser chooser(bug, Rng::stream(seed, {kStreamAlgorithm}),
                         static_cast<std::size_t>(params().beta - 1));
    TraceHeader h;
    h.params = params();
    OracleSpec o;
    o.kind = OracleKind::random;
    o.q = kQ;  // what the implementation claims
    h.oracle = o;
    h.seed = seed;
    fixtures::TraceText t(squares(), h);
    run_ssac(squares(), oracle, chooser, h.params, t.writer.get());
    out.push_back(std::move(t.text));
  }
  return out;
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
    EXPECT_EQ(r.checked(), 3);
    EXPECT_EQ(r.impossible, 0u);
    // Enough choices of each kind for the negative controls below to mean something.
    EXPECT_GT(kind(r, "phase1_draw").choices, 2000u);
    EXPECT_GT(kind(r, "b_draw").choices, 300u);
    EXPECT_GT(kind(r, "abstention").choices, 2000u);
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
}

}  // namespace
}  // namespace ssac
