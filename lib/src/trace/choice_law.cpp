// The exact law of a replayed run's random choices, pooled over traces (ssac/choice_law.hpp).
#include "ssac/choice_law.hpp"

#include <algorithm>
#include <boost/math/distributions/binomial.hpp>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <tuple>
#include <utility>

#include "ssac/error.hpp"
#include "ssac/rng.hpp"

namespace ssac {

namespace {

constexpr std::uint64_t kStreamChoiceLaw = 0x63686f696365;  // "choice"

enum KindIndex {
  kPhase1,
  kB,
  kAnswer,
  kAnchor,
  kPhase1Pair,
  kBPair,
  kBProbePair,
  kAnswerPair,
  kAgreement,
  kKinds
};
bool is_pair(int k) {
  return k >= kPhase1Pair && k <= kAnswerPair;
}

// The KS statistic is bounded below on the edges of this many equal cells of [0, 1).
constexpr std::size_t kFine = 4096;

struct Choice {
  KindIndex kind;
  double u;          // the randomized probability integral transform, Uniform(0, 1) under the law
  bool hit = false;  // a repeat within the sample (draws), a not-sure (answers), an agreement
  double p_hit = 0;  // its conditional probability under the law
  double u2 = -1;    // a pair kind's second value
  double v = -1;     // a draw's transform in pool order (below), for the KS test; else u
};

// Pairs the values of one context (a sample, a search, an iteration) 1 and 2, 3 and 4, ...: each
// value in at most one pair, so that pairs of independent uniforms are independent.
class Pairer {
 public:
  Pairer(KindIndex kind, std::vector<Choice>& out) : kind_(kind), out_(out) {}
  void reset() { pending_ = -1; }
  void add(double u) {
    if (pending_ < 0) {
      pending_ = u;
      return;
    }
    out_.push_back({kind_, pending_, false, 0.0, u});
    pending_ = -1;
  }

 private:
  KindIndex kind_;
  std::vector<Choice>& out_;
  double pending_ = -1;
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
    if (what == Draw::anchor) return anchor_drawn(pool, position);
    if (block != block_) {
      for (std::size_t r : block_rows_)
        seen_[r] = 0;
      block_rows_.clear();
      block_ = block;
      // A Phase-1 sample opens an iteration (Algorithm 1, line 4) and ends the previous search.
      if (what == Draw::phase1_sample) {
        close_b();
        first_b_.clear();
        phase1_pairs_.reset();
        b_pairs_.reset();
        answer_pairs_.reset();
      } else {
        close_b();
      }
    }
    const std::size_t row = pool[position];
    for (std::size_t r : pool)
      ++count_[r];
    const std::size_t first =
        static_cast<std::size_t>(std::find(pool.begin(), pool.end(), row) - pool.begin());
    const bool repeat = seen_[row] != 0;
    const std::uint64_t mass = count_[row];
    const auto target = std::make_tuple(repeat ? 0 : 1, -static_cast<std::int64_t>(mass), first);
    std::uint64_t before = 0, repeat_mass = 0, before_in_pool = 0;
    for (std::size_t i = 0; i < pool.size(); ++i) {
      const std::size_t r = pool[i];
      if (count_[r] == 0) continue;  // not this row's first position
      if (seen_[r]) repeat_mass += count_[r];
      // (group, larger multiplicity, first position) before the drawn row's.
      const auto key = std::make_tuple(seen_[r] ? 0 : 1, -static_cast<std::int64_t>(count_[r]), i);
      if (key < target) before += count_[r];
      if (i < first) before_in_pool += count_[r];
      count_[r] = 0;
    }
    // The same draw transformed twice, with one offset V: in the order above (the bins test: a
    // draw without replacement empties the bottom bins) and in pool order, the distinct rows by
    // first position (the KS test: a bias toward one end of the pool moves the whole CDF, which
    // the grouping above would scatter over the bins).
    const double N = static_cast<double>(pool.size());
    const double V = rng_.uniform01() * static_cast<double>(mass);
    Choice c{what == Draw::phase1_sample ? kPhase1 : kB, (static_cast<double>(before) + V) / N,
             repeat, static_cast<double>(repeat_mass) / N};
    c.v = (static_cast<double>(before_in_pool) + V) / N;
    choices.push_back(c);
    if (what == Draw::phase1_sample) {
      phase1_pairs_.add(c.u);
    } else {
      b_pairs_.add(c.u);
      current_b_.push_back(c.u);
    }
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
    const double u = not_sure ? v * abstain : abstain + v * q_;
    choices.push_back({kAnswer, u, not_sure, abstain});
    answer_pairs_.add(u);
    if (per_pair_) return;
    // Definition 5 with fresh memory: two asks of one pair are independent, so the second agrees
    // with the first (both not-sure or both answered) with probability 1 - q after a not-sure and
    // q after an answer. Not q^2 + (1 - q)^2: whether a pair is asked again depends on its first
    // answer (a not-sure leaves a point unplaced, to be asked again), so the law is taken given the
    // first ask, as every law here is given the past. Agreement first.
    const auto key = std::make_pair(std::min(x, y), std::max(x, y));
    const auto pending = pending_ask_.find(key);
    if (pending == pending_ask_.end()) {
      pending_ask_.emplace(key, not_sure);
      return;
    }
    const bool first_not_sure = pending->second;  // read before the erase frees the node
    pending_ask_.erase(pending);
    const bool agree = first_not_sure == not_sure;
    const double agree_p = first_not_sure ? abstain : q_;
    const double w = rng_.uniform01();
    choices.push_back(
        {kAgreement, agree ? w * agree_p : agree_p + w * (1.0 - agree_p), agree, agree_p});
  }

  // Definition 4 under a random anchor rule (proofs-notes/anchor-rules.md): the anchor is drawn
  // uniformly from the rows known to be in the cluster (the reference's pool: distinct rows in
  // increasing order), afresh at each query, whatever was drawn before. Its transform is in pool
  // order, so a bias toward the low rows (or the opener) moves the whole CDF; its hit is the
  // first candidate, drawn with probability 1 / |pool|.
  void anchor_drawn(const std::vector<std::size_t>& pool, std::size_t position) {
    const double N = static_cast<double>(pool.size());
    const double u = (static_cast<double>(position) + rng_.uniform01()) / N;
    choices.push_back({kAnchor, u, position == 0, 1.0 / N});
  }

  // The trace's last B, once the replay is over.
  void finish() { close_b(); }

 private:
  std::vector<char> seen_;            // per row: drawn in the current sample
  std::vector<std::uint64_t> count_;  // per row: multiplicity in the pool, 0 outside a draw
  std::vector<std::size_t> block_rows_;
  std::size_t block_ = static_cast<std::size_t>(-1);
  Rng rng_;
  bool random_answers_ = false, per_pair_ = false;
  double q_ = 1.0;
  std::set<std::pair<std::size_t, std::size_t>> asked_;
  std::map<std::pair<std::size_t, std::size_t>, bool> pending_ask_;  // first ask: not-sure?
  Pairer phase1_pairs_{kPhase1Pair, choices}, b_pairs_{kBPair, choices},
      answer_pairs_{kAnswerPair, choices};
  std::vector<double> current_b_, first_b_;  // the u of the B being drawn, of an unpaired B

  // B's end: the first B of a pair of probes waits; the second is paired with it draw by draw.
  void close_b() {
    if (current_b_.empty()) return;
    if (first_b_.empty()) {
      first_b_.swap(current_b_);
    } else {
      for (std::size_t j = 0; j < std::min(first_b_.size(), current_b_.size()); ++j)
        choices.push_back({kBProbePair, first_b_[j], false, 0.0, current_b_[j]});
      first_b_.clear();
    }
    current_b_.clear();
  }
};

const char* const kNames[kKinds] = {"phase1_draw",  "b_draw",          "abstention",
                                    "anchor_draw",  "phase1_pair",     "b_pair",
                                    "b_probe_pair", "abstention_pair", "repeat_agreement"};
const char* const kLaws[kKinds] = {
    "uniform over S_i, with replacement (Algorithm 1, line 4; S1)",
    "uniform over the positions of Z_p, with replacement (Algorithms 2 and 4; S5)",
    "not-sure with probability 1 - q, independently (Definition 5)",
    ("uniform over the rows known to be in the cluster, afresh at each query (Definition 4 under "
     "a random anchor rule)"),
    "draws 2t-1, 2t of one sample independent (S1)",
    "draws 2t-1, 2t of the B of one search independent (S5)",
    "draw j of probes 2t-1, 2t of one search independent: a fresh B per probe (S5)",
    "answers 2t-1, 2t of one iteration independent (Definition 5)",
    ("asks 2t-1, 2t of one pair agree w.p. 1-q after a not-sure, q after an answer (Definition 5, "
     "fresh memory)")};

// Exact two-sided binomial p-value of each cell's count, times the cells (Bonferroni): the
// smallest, and its cell. The counts are `rows` rows of equal length: each cell's count is
// Binomial(its row's total, 1 / row length). One row: the bins of a value. A grid of pairs: given
// the first value's row, the second value is uniform, so its column is. Not Binomial(N, 1/cells):
// whether a pair is formed at all (a second answer in the iteration, another probe in the search)
// may depend on the first value, which biases the rows, never the columns given the row.
std::pair<double, int> cell_test(const std::vector<std::uint64_t>& counts, std::size_t rows) {
  const std::size_t width = counts.size() / rows;
  std::pair<double, int> worst{1.0, -1};
  for (std::size_t i = 0; i < rows; ++i) {
    std::uint64_t total = 0;
    for (std::size_t j = 0; j < width; ++j)
      total += counts[i * width + j];
    if (total == 0) continue;
    const boost::math::binomial_distribution<> B(static_cast<double>(total),
                                                 1.0 / static_cast<double>(width));
    for (std::size_t j = 0; j < width; ++j) {
      const auto x = static_cast<double>(counts[i * width + j]);
      const double lower = boost::math::cdf(B, x);
      const double upper = x > 0 ? boost::math::cdf(boost::math::complement(B, x - 1)) : 1.0;
      const double p =
          std::min(1.0, 2.0 * std::min(lower, upper) * static_cast<double>(counts.size()));
      if (p < worst.first) worst = {p, static_cast<int>(i * width + j)};
    }
  }
  return worst;
}

// The KS distance on the histogram's edges: at edge b/H the empirical CDF is known exactly, so the
// largest |F_n(b/H) - b/H| is at most the distance of the values themselves.
double ks_on_edges(const std::vector<std::uint64_t>& fine, std::uint64_t n) {
  double d = 0.0;
  std::uint64_t below = 0;
  for (std::size_t b = 1; b < fine.size(); ++b) {
    below += fine[b - 1];
    const double gap = static_cast<double>(below) / static_cast<double>(n) -
                       static_cast<double>(b) / static_cast<double>(fine.size());
    d = std::max(d, std::abs(gap));
  }
  return d;
}

}  // namespace

// The tallies of every conforming trace's choices: memory does not grow with the number of
// traces, only one trace's choices are held at a time.
struct ChoiceLaw::State {
  ChoiceLawOptions options;
  std::size_t traces = 0;
  std::vector<std::string> nonconforming;
  std::uint64_t not_checked = 0, impossible = 0;
  ChoiceKind kinds[kKinds];
  std::vector<std::uint64_t> fine[kKinds];  // kFine cells of u (pair kinds: frac(u2 - u1))
};

ChoiceLaw::ChoiceLaw(ChoiceLawOptions options) : s_(std::make_unique<State>()) {
  if (!(options.alpha > 0.0 && options.alpha <= 0.5))
    throw_out_of_range("alpha", options.alpha, "(0, 0.5]");
  if (options.bins < 2 || options.bins > 1000)
    throw_out_of_range("bins", static_cast<long long>(options.bins), "2..1000");
  if (options.grid < 2 || options.grid > 32)
    throw_out_of_range("grid", static_cast<long long>(options.grid), "2..32");
  s_->options = options;
  for (int k = 0; k < kKinds; ++k) {
    s_->kinds[k].name = kNames[k];
    s_->kinds[k].law = kLaws[k];
    s_->kinds[k].pairs = is_pair(k);
    s_->kinds[k].counts.assign(
        static_cast<std::size_t>(is_pair(k) ? options.grid * options.grid : options.bins), 0);
    s_->fine[k].assign(kFine, 0);
  }
}

ChoiceLaw::~ChoiceLaw() = default;

bool ChoiceLaw::add(const Matrix& X, const std::string& name, ReplayOptions replay,
                    const std::function<ValidationReport(const ReplayOptions&)>& run) {
  State& s = *s_;
  // The transform's own stream per trace, keyed (seed, "choice", trace number) as rng.hpp's
  // streams are.
  Collector c(
      static_cast<std::size_t>(X.rows()),
      Rng::stream(s.options.seed, {kStreamChoiceLaw, static_cast<std::uint64_t>(s.traces)}));
  replay.choices = &c;
  const ValidationReport r = run(replay);
  c.finish();
  if (!r.conforms) {
    s.nonconforming.push_back(name + ": " +
                              (r.divergence ? r.divergence->message : std::string("divergence")));
    return false;
  }
  const auto bins = static_cast<std::size_t>(s.options.bins);
  const auto grid = static_cast<std::size_t>(s.options.grid);
  const auto cell = [](double u, std::size_t cells) {
    return std::min(cells - 1, static_cast<std::size_t>(u * static_cast<double>(cells)));
  };
  for (const Choice& x : c.choices) {
    ChoiceKind& K = s.kinds[x.kind];
    ++K.choices;
    if (is_pair(x.kind)) {
      const std::size_t i = cell(x.u, grid), j = cell(x.u2, grid);
      ++K.counts[i * grid + j];
      const double d = x.u2 - x.u;
      ++s.fine[x.kind][cell(d < 0 ? d + 1.0 : d, kFine)];
      K.hits += i == j ? 1 : 0;
      K.expected_hits += 1.0 / static_cast<double>(grid);
      continue;
    }
    ++K.counts[cell(x.u, bins)];
    ++s.fine[x.kind][cell(x.v < 0 ? x.u : x.v, kFine)];
    K.hits += x.hit ? 1 : 0;
    K.expected_hits += x.p_hit;
    if (x.kind == kAnswer) {
      K.not_sure += x.hit ? 1 : 0;
      K.expected_not_sure += x.p_hit;
    } else if (x.kind != kAgreement && x.kind != kAnchor) {
      K.repeats += x.hit ? 1 : 0;
      K.expected_repeats += x.p_hit;
    }
  }
  s.not_checked += c.not_checked;
  s.impossible += c.impossible;
  ++s.traces;
  return true;
}

bool ChoiceLaw::add_file(const Matrix& X, const std::string& path, const ReplayOptions& replay) {
  return add(X, path, replay,
             [&](const ReplayOptions& o) { return validate_trace_file(X, path, o); });
}

bool ChoiceLaw::add_text(const Matrix& X, const std::string& text, const std::string& name,
                         const ReplayOptions& replay) {
  return add(X, name, replay,
             [&](const ReplayOptions& o) { return validate_trace(X, text, name, o); });
}

int ChoiceLawReport::checked() const {
  return static_cast<int>(
      std::count_if(kinds.begin(), kinds.end(), [](const ChoiceKind& k) { return k.choices > 0; }));
}

bool ChoiceLawReport::passes() const {
  if (impossible > 0 || !nonconforming.empty()) return false;
  const int m = checked();
  return std::all_of(kinds.begin(), kinds.end(), [&](const ChoiceKind& k) {
    return k.choices == 0 || k.p > options.alpha / m;
  });
}

ChoiceLawReport ChoiceLaw::report() const {
  const State& s = *s_;
  ChoiceLawReport out;
  out.traces = s.traces;
  out.nonconforming = s.nonconforming;
  out.options = s.options;
  out.answers_not_checked = s.not_checked;
  out.impossible = s.impossible;
  for (int k = 0; k < kKinds; ++k) {
    ChoiceKind K = s.kinds[k];
    if (K.choices > 0) {
      // (a) each bin's (cell's) count is Binomial(N, 1/cells) under the law; (b) the exact KS
      // test; the kind's p is the Bonferroni combination of the two, and the kinds share alpha
      // in passes().
      std::tie(K.p_bins, K.worst_bin) =
          cell_test(K.counts, is_pair(k) ? static_cast<std::size_t>(s.options.grid) : 1);
      K.ks_d = ks_on_edges(s.fine[k], K.choices);
      K.p_ks = ks_p_value(K.choices, K.ks_d);
      K.p = std::min(1.0, 2.0 * std::min(K.p_bins, K.p_ks));
    }
    out.kinds.push_back(std::move(K));
  }
  return out;
}

double ks_p_value(std::uint64_t n, double d) {
  if (n == 0 || d <= 0.0) return 1.0;
  if (d >= 1.0) return 0.0;
  // Birnbaum and Tingey (1951): P(D_n^+ >= d) = d sum_{j=0}^{floor(n(1-d))} C(n, j)
  // (1 - d - j/n)^(n-j) (d + j/n)^(j-1). Every term is positive: summed in logarithms, scaled by
  // the largest so far.
  const double N = static_cast<double>(n);
  const auto last = static_cast<std::uint64_t>(std::floor(N * (1.0 - d)));
  double top = -std::numeric_limits<double>::infinity(), sum = 0.0;
  for (std::uint64_t j = 0; j <= last && j < n; ++j) {
    const double J = static_cast<double>(j);
    const double a = 1.0 - d - J / N;
    if (a <= 0.0) break;
    const double t = std::lgamma(N + 1) - std::lgamma(J + 1) - std::lgamma(N - J + 1) +
                     (N - J) * std::log(a) + (J - 1) * std::log(d + J / N);
    if (t > top) {
      sum = sum * std::exp(top - t) + 1.0;
      top = t;
    } else {
      sum += std::exp(t - top);
    }
  }
  if (sum == 0.0) return 0.0;
  return std::min(1.0, 2.0 * d * std::exp(top + std::log(sum)));
}

}  // namespace ssac
