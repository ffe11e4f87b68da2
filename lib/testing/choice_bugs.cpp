#include "ssac/testing/choice_bugs.hpp"

#include <algorithm>
#include <utility>

#include "ssac/oracle.hpp"
#include "ssac/rng.hpp"
#include "ssac/trace.hpp"

namespace ssac::testing {

namespace {

class BuggyChooser : public Chooser {
 public:
  BuggyChooser(ChoiceBugSpec bug, Rng rng, std::size_t b_size)
      : bug_(bug.bug), strength_(bug.strength), rng_(rng), b_size_(b_size) {}

  std::size_t choose(const std::vector<std::size_t>& pool, Draw what) override {
    // A new sample: another kind of draw or another pool than the last draw's, or a B of b_size_
    // draws complete (the B of successive probes of one search share Z_p).
    const bool same_pool = what == last_ && pool == last_pool_;
    if (!same_pool || (what == Draw::search_sample && in_block_ == b_size_)) {
      previous_b_ = same_pool ? taken_ : std::vector<std::size_t>{};
      taken_.clear();
      in_block_ = 0;
    }
    last_ = what;
    last_pool_ = pool;
    const std::size_t at = pick(pool, what);
    ++in_block_;
    taken_.push_back(at);
    return at;
  }

 private:
  bool is(ChoiceBug b, Draw what, Draw of) const { return bug_ == b && what == of; }

  std::size_t pick(const std::vector<std::size_t>& pool, Draw what) {
    const std::size_t n = pool.size();
    if ((is(ChoiceBug::phase1_without_replacement, what, Draw::phase1_sample) ||
         is(ChoiceBug::b_without_replacement, what, Draw::search_sample)) &&
        taken_.size() < n) {
      std::size_t at;
      do
        at = rng_.uniform_index(n);
      while (std::find(taken_.begin(), taken_.end(), at) != taken_.end());
      return at;
    }
    if (is(ChoiceBug::b_from_distinct_rows, what, Draw::search_sample)) {
      std::vector<std::size_t> rows(pool);
      std::sort(rows.begin(), rows.end());
      rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
      const std::size_t row = rows[rng_.uniform_index(rows.size())];
      return static_cast<std::size_t>(std::find(pool.begin(), pool.end(), row) - pool.begin());
    }
    if (bug_ == ChoiceBug::never_last && n > 1) return rng_.uniform_index(n - 1);
    if (is(ChoiceBug::anchor_first, what, Draw::anchor)) return 0;
    if ((is(ChoiceBug::front_bias_phase1, what, Draw::phase1_sample) ||
         is(ChoiceBug::front_bias_b, what, Draw::search_sample) ||
         is(ChoiceBug::front_bias_anchor, what, Draw::anchor)) &&
        rng_.uniform01() < strength_)
      return rng_.uniform_index(std::max<std::size_t>(1, n / 2));
    if (is(ChoiceBug::b_reused_across_probes, what, Draw::search_sample) &&
        in_block_ < previous_b_.size())
      return previous_b_[in_block_];
    if (is(ChoiceBug::phase1_follows_previous, what, Draw::phase1_sample) && !taken_.empty() &&
        rng_.uniform01() < strength_)
      return (taken_.back() + 1) % n;
    return rng_.uniform_index(n);
  }

  ChoiceBug bug_;
  double strength_;
  Rng rng_;
  std::size_t b_size_;
  Draw last_ = Draw::anchor;
  std::vector<std::size_t> last_pool_;
  std::size_t in_block_ = 0;
  std::vector<std::size_t> taken_;       // positions drawn in the current sample
  std::vector<std::size_t> previous_b_;  // the previous B of the same search, if any
};

}  // namespace

std::vector<std::string> buggy_traces(const Matrix& X, const std::vector<int>& labels,
                                      const Params& params, double q, const ChoiceBugSpec& bug,
                                      std::uint64_t first_seed, int runs) {
  double oracle_q = q;
  if (bug.bug == ChoiceBug::abstention_q_squared) oracle_q = q * q;
  if (bug.bug == ChoiceBug::abstention_shift) oracle_q = std::clamp(q - bug.strength, 0.0, 1.0);
  const OracleMemory memory =
      bug.bug == ChoiceBug::oracle_repeats_answers ? OracleMemory::per_pair : OracleMemory::fresh;
  // Algorithm 2 draws beta rows per probe, Algorithm 4 beta - 1.
  const auto b_size =
      static_cast<std::size_t>(params.search == Search::unified ? params.beta - 1 : params.beta);
  std::vector<std::string> out;
  for (int i = 0; i < runs; ++i) {
    const std::uint64_t seed = first_seed + static_cast<std::uint64_t>(i);
    RandomWeakOracle oracle(labels, oracle_q, Rng::stream(seed, {kStreamOracle}), memory);
    BuggyChooser chooser(bug, Rng::stream(seed, {kStreamAlgorithm}), b_size);
    TraceHeader h;
    h.params = params;
    OracleSpec o;
    o.kind = OracleKind::random;
    o.q = q;  // what the implementation claims
    h.oracle = o;
    h.seed = seed;
    std::string text;
    const auto writer = trace_writer(X, h, [&](const std::string& line) { text += line + "\n"; });
    run_ssac(X, oracle, chooser, params, writer.get());
    out.push_back(std::move(text));
  }
  return out;
}

ChoiceInstance nine_points(AnchorRule anchor) {
  ChoiceInstance c;
  c.X.resize(9, 2);
  c.X << 0, 0, 1, 0, 0, 1, 10, 0, 11, 0, 10, 1, 0, 10, 1, 10, 0, 11;
  c.labels = {1, 1, 1, 2, 2, 2, 3, 3, 3};
  c.params.k = 3;
  c.params.eta = 2;
  c.params.beta = 3;
  c.params.search = Search::unified;
  c.params.rules.anchor = anchor;
  return c;
}

std::string to_string(ChoiceBug bug) {
  switch (bug) {
    case ChoiceBug::none:
      return "none";
    case ChoiceBug::phase1_without_replacement:
      return "phase1_without_replacement";
    case ChoiceBug::b_without_replacement:
      return "b_without_replacement";
    case ChoiceBug::b_from_distinct_rows:
      return "b_from_distinct_rows";
    case ChoiceBug::never_last:
      return "never_last";
    case ChoiceBug::abstention_q_squared:
      return "abstention_q_squared";
    case ChoiceBug::front_bias_phase1:
      return "front_bias_phase1";
    case ChoiceBug::front_bias_b:
      return "front_bias_b";
    case ChoiceBug::abstention_shift:
      return "abstention_shift";
    case ChoiceBug::anchor_first:
      return "anchor_first";
    case ChoiceBug::front_bias_anchor:
      return "front_bias_anchor";
    case ChoiceBug::b_reused_across_probes:
      return "b_reused_across_probes";
    case ChoiceBug::phase1_follows_previous:
      return "phase1_follows_previous";
    case ChoiceBug::oracle_repeats_answers:
      return "oracle_repeats_answers";
  }
  return "unknown";
}

}  // namespace ssac::testing
