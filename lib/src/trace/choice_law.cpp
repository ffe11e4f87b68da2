// The exact law of a replayed run's random choices, pooled over traces (ssac/choice_law.hpp).
#include "ssac/choice_law.hpp"

#include <algorithm>
#include <boost/math/distributions/binomial.hpp>
#include <cmath>
#include <set>
#include <tuple>
#include <utility>

#include "ssac/error.hpp"
#include "ssac/rng.hpp"

namespace ssac {

namespace {

constexpr std::uint64_t kStreamChoiceLaw = 0x63686f696365;  // "choice"

enum KindIndex { kPhase1 = 0, kB = 1, kAnswer = 2, kKinds = 3 };

struct Choice {
  KindIndex kind;
  double u;          // the randomized probability integral transform, Uniform(0, 1) under the law
  bool hit = false;  // a repeat within the sample (draws), a not-sure (answers)
  double p_hit = 0;  // its conditional probability under the law
};

// One trace's choices as the replay reports them, kept apart until the trace is known to conform.
class Collector : public ChoiceSink {
 public:
  Collector(std::size_t n, Rng offsets) : seen_(n, 0), count_(n, 0), rng_(offsets) {}

  std::vector<Choice> choices;
  std::uint64_t not_checked = 0;
  std::uint64_t impossible = 0;

  void header(const TraceHeader& h) override {
    // Only the weak algorithm's answers are the oracle's own; the original SSAC's trace holds them
    // after its coin flips. Only the random-weak oracle's abstentions are independent draws.
    random_answers_ = h.algorithm == "weak" && h.oracle && h.oracle->kind == OracleKind::random;
    if (random_answers_) q_ = h.oracle->q;
    per_pair_ = h.memory == OracleMemory::per_pair;
  }

  // Semantics S1 (Phase 1) and S5 (B): each draw uniform over the pool's positions, with
  // replacement. The outcomes are the pool's distinct rows, each with its multiplicity over |pool|,
  // ordered: rows already drawn in this sample first, then the rest; within each, rows of larger
  // multiplicity first (a draw over distinct rows gives them too little), then by first position.
  void drawn(Draw what, const std::vector<std::size_t>& pool, std::size_t position,
             std::size_t block) override {
    if (block != block_) {
      for (std::size_t r : block_rows_)
        seen_[r] = 0;
      block_rows_.clear();
      block_ = block;
    }
    const std::size_t row = pool[position];
    for (std::size_t r : pool)
      ++count_[r];
    const std::size_t first =
        static_cast<std::size_t>(std::find(pool.begin(), pool.end(), row) - pool.begin());
    const bool repeat = seen_[row] != 0;
    const std::uint64_t mass = count_[row];
    const auto target = std::make_tuple(repeat ? 0 : 1, -static_cast<std::int64_t>(mass), first);
    std::uint64_t before = 0, repeat_mass = 0;
    for (std::size_t i = 0; i < pool.size(); ++i) {
      const std::size_t r = pool[i];
      if (count_[r] == 0) continue;  // not this row's first position
      if (seen_[r]) repeat_mass += count_[r];
      // (group, larger multiplicity, first position) before the drawn row's.
      const auto key = std::make_tuple(seen_[r] ? 0 : 1, -static_cast<std::int64_t>(count_[r]), i);
      if (key < target) before += count_[r];
      count_[r] = 0;
    }
    const double N = static_cast<double>(pool.size());
    Choice c{what == Draw::phase1_sample ? kPhase1 : kB,
             (static_cast<double>(before) + rng_.uniform01() * static_cast<double>(mass)) / N,
             repeat, static_cast<double>(repeat_mass) / N};
    choices.push_back(c);
    if (!seen_[row]) {
      seen_[row] = 1;
      block_rows_.push_back(row);
    }
  }

  // Definition 5: not-sure with probability 1 - q, independently (fresh memory); under per-pair
  // memory a repeated pair is not a draw.
  void answered(std::size_t x, std::size_t y, Answer a) override {
    if (!random_answers_) {
      ++not_checked;
      return;
    }
    if (per_pair_ && !asked_.insert({std::min(x, y), std::max(x, y)}).second) return;
    const double abstain = 1.0 - q_;
    const bool not_sure = a == Answer::NotSure;
    if (not_sure && abstain <= 0.0) ++impossible;  // q = 1 never abstains
    const double v = rng_.uniform01();
    choices.push_back({kAnswer, not_sure ? v * abstain : abstain + v * q_, not_sure, abstain});
  }

 private:
  std::vector<char> seen_;            // per row: drawn in the current sample
  std::vector<std::uint64_t> count_;  // per row: multiplicity in the pool, 0 outside a draw
  std::vector<std::size_t> block_rows_;
  std::size_t block_ = static_cast<std::size_t>(-1);
  Rng rng_;
  bool random_answers_ = false, per_pair_ = false;
  double q_ = 1.0;
  std::set<std::pair<std::size_t, std::size_t>> asked_;
};

const char* const kNames[kKinds] = {"phase1_draw", "b_draw", "abstention"};
const char* const kLaws[kKinds] = {
    "uniform over S_i, with replacement (Algorithm 1, line 4; S1)",
    "uniform over the positions of Z_p, with replacement (Algorithms 2 and 4; S5)",
    "not-sure with probability 1 - q, independently (Definition 5)"};

}  // namespace

// The tallies of every conforming trace's choices: memory does not grow with the number of
// traces, only one trace's choices are held at a time.
struct ChoiceLaw::State {
  ChoiceLawOptions options;
  std::size_t traces = 0;
  std::uint64_t not_checked = 0, impossible = 0;
  ChoiceKind kinds[kKinds];
};

ChoiceLaw::ChoiceLaw(ChoiceLawOptions options) : s_(std::make_unique<State>()) {
  if (!(options.alpha > 0.0 && options.alpha <= 0.5))
    throw_out_of_range("alpha", options.alpha, "(0, 0.5]");
  if (options.bins < 2 || options.bins > 1000)
    throw_out_of_range("bins", static_cast<long long>(options.bins), "2..1000");
  s_->options = options;
  for (int k = 0; k < kKinds; ++k) {
    s_->kinds[k].name = kNames[k];
    s_->kinds[k].law = kLaws[k];
    s_->kinds[k].counts.assign(static_cast<std::size_t>(options.bins), 0);
  }
}

ChoiceLaw::~ChoiceLaw() = default;

void ChoiceLaw::add(const Matrix& X, const std::string& name, ReplayOptions replay,
                    const std::function<ValidationReport(const ReplayOptions&)>& run) {
  State& s = *s_;
  // The transform's own stream per trace, keyed (seed, "choice", trace number) as rng.hpp's
  // streams are.
  Collector c(
      static_cast<std::size_t>(X.rows()),
      Rng::stream(s.options.seed, {kStreamChoiceLaw, static_cast<std::uint64_t>(s.traces)}));
  replay.choices = &c;
  const ValidationReport r = run(replay);
  if (!r.conforms)
    throw DataError(name + ": the trace does not conform to the reference, so the law of its " +
                    "choices is not the reference's; validate it first (" +
                    (r.divergence ? r.divergence->message : std::string("divergence")) + ")");
  const auto bins = static_cast<std::size_t>(s.options.bins);
  for (const Choice& x : c.choices) {
    ChoiceKind& K = s.kinds[x.kind];
    ++K.choices;
    ++K.counts[std::min(bins - 1, static_cast<std::size_t>(x.u * static_cast<double>(bins)))];
    (x.kind == kAnswer ? K.not_sure : K.repeats) += x.hit ? 1 : 0;
    (x.kind == kAnswer ? K.expected_not_sure : K.expected_repeats) += x.p_hit;
  }
  s.not_checked += c.not_checked;
  s.impossible += c.impossible;
  ++s.traces;
}

void ChoiceLaw::add_file(const Matrix& X, const std::string& path, const ReplayOptions& replay) {
  add(X, path, replay, [&](const ReplayOptions& o) { return validate_trace_file(X, path, o); });
}

void ChoiceLaw::add_text(const Matrix& X, const std::string& text, const std::string& name,
                         const ReplayOptions& replay) {
  add(X, name, replay, [&](const ReplayOptions& o) { return validate_trace(X, text, name, o); });
}

int ChoiceLawReport::checked() const {
  return static_cast<int>(
      std::count_if(kinds.begin(), kinds.end(), [](const ChoiceKind& k) { return k.choices > 0; }));
}

bool ChoiceLawReport::passes() const {
  if (impossible > 0) return false;
  const int m = checked();
  return std::all_of(kinds.begin(), kinds.end(), [&](const ChoiceKind& k) {
    return k.choices == 0 || k.p > options.alpha / m;
  });
}

ChoiceLawReport ChoiceLaw::report() const {
  const State& s = *s_;
  ChoiceLawReport out;
  out.traces = s.traces;
  out.options = s.options;
  out.answers_not_checked = s.not_checked;
  out.impossible = s.impossible;
  const auto bins = static_cast<std::size_t>(s.options.bins);
  for (int k = 0; k < kKinds; ++k) {
    ChoiceKind K = s.kinds[k];
    // Each bin's count is Binomial(N, 1/bins) under the law: exact two-sided tail, times the
    // number of bins (Bonferroni); the kinds share alpha in passes().
    if (K.choices > 0) {
      const boost::math::binomial_distribution<> B(static_cast<double>(K.choices),
                                                   1.0 / static_cast<double>(bins));
      for (std::size_t b = 0; b < bins; ++b) {
        const auto x = static_cast<double>(K.counts[b]);
        const double lower = boost::math::cdf(B, x);
        const double upper = x > 0 ? boost::math::cdf(boost::math::complement(B, x - 1)) : 1.0;
        const double p = std::min(1.0, 2.0 * std::min(lower, upper) * static_cast<double>(bins));
        if (p < K.p) {
          K.p = p;
          K.worst_bin = static_cast<int>(b);
        }
      }
    }
    out.kinds.push_back(std::move(K));
  }
  return out;
}

}  // namespace ssac
