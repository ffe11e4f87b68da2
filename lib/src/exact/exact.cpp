// The exact enumerator (ssac/exact.hpp). proofs-notes/exact.md explains the merging and the three
// engines. One file of about 890 lines: the branching oracle, the state key, the snapshots the
// states engine resumes from and the driver of every engine share private types (Progress,
// KeyRules, the replay observer, the nodes) that are not worth a header of their own; the walk
// and the branching chooser are in branches.cpp, Phase 1 by counts in counts.cpp.
#include "ssac/exact.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <optional>
#include <set>
#include <stdexcept>
#include <tuple>
#include <utility>

#include "algorithm/run.hpp"
#include "counts.hpp"
#include "ssac/data.hpp"
#include "ssac/error.hpp"
#include "ssac/metrics.hpp"
#include "ssac/observer.hpp"

namespace ssac {

namespace mp = boost::multiprecision;

namespace exact_internal {

void put_int(std::string& key, std::uint64_t v) {
  while (v >= 0x80) {
    key += static_cast<char>((v & 0x7f) | 0x80);
    v >>= 7;
  }
  key += static_cast<char>(v);
}

void put_signed(std::string& key, std::int64_t v) {
  put_int(key, v < 0 ? ~(static_cast<std::uint64_t>(v) << 1) : static_cast<std::uint64_t>(v) << 1);
}

void put_bits(std::string& key, double x) {
  std::uint64_t bits = 0;
  std::memcpy(&bits, &x, sizeof bits);
  put_int(key, bits);
}

}  // namespace exact_internal

namespace {

using namespace exact_internal;

// ---------------------------------------------------------------------------------------------
// The branching oracle: the random-weak oracle's Bernoulli(q) per query (or per pair), the
// correlated oracle with its one draw decided by the caller, the deterministic oracles as they
// are; then the baseline's coin flip on a not-sure.

class BranchingOracle : public Oracle {
 public:
  using Memo = exact_internal::Memo;
  BranchingOracle(Branches& b, Oracle& base, bool random, bool per_pair, const Rational& q,
                  bool coin_flip)
      : b_(b), base_(base), random_(random), per_pair_(per_pair), coin_flip_(coin_flip) {
    if (random_) {
      // Option 0 is the truth (probability q), option 1 not-sure (1 - q); a zero one is left out.
      if (q > 0) {
        w_.push_back(q);
        answers_.push_back(true);
      }
      if (q < 1) {
        w_.push_back(1 - q);
        answers_.push_back(false);
      }
    }
  }

  Answer query(std::size_t x, std::size_t y) override {
    Answer a = Answer::NotSure;
    if (!random_) {
      a = base_.query(x, y);
    } else {
      const auto key = std::make_pair(std::min(x, y), std::max(x, y));
      const auto it = per_pair_ ? memo_.find(key) : memo_.end();
      if (it != memo_.end()) {
        a = it->second;
      } else {
        a = answers_[b_.decide(w_)] ? base_.query(x, y) : Answer::NotSure;
        if (per_pair_) memo_.emplace(key, a);
      }
    }
    if (coin_flip_ && a == Answer::NotSure) {
      static const std::vector<Rational> half = {Rational(1, 2), Rational(1, 2)};
      a = b_.decide(half) == 0 ? Answer::Yes : Answer::No;
    }
    return a;
  }

  // The remembered answers (per-pair memory), to be restored in a run resumed from a state.
  const Memo& memo() const { return memo_; }
  void restore(const Memo& m) { memo_ = m; }

  // The oracle's part of the state: the remembered answers (per-pair memory only) on the pairs
  // of rows marked in `live` (the rows that may still be asked about).
  void append_state(std::string& key, const std::vector<char>& live) const {
    std::vector<std::size_t> kept;  // (x, y, answer) of each pair kept
    for (const auto& [pair, a] : memo_)
      if (live[pair.first] && live[pair.second])
        kept.insert(kept.end(), {pair.first, pair.second, static_cast<std::size_t>(a)});
    put(key, kept);
  }

 private:
  Branches& b_;
  Oracle& base_;
  bool random_, per_pair_, coin_flip_;
  std::vector<Rational> w_;
  std::vector<bool> answers_;
  Memo memo_;
};

// Where a run is: (iteration, stage, step) with stage 0 after the cluster-assignment query of draw
// `step` of Z (lines 5-7), 1 once p is chosen, 2 after search step `step`, 3 at the iteration's
// end. It increases strictly along every run.
struct Progress {
  int iteration = 0, stage = 0, step = 0;
  auto operator<=>(const Progress&) const = default;
};

// What the merging may rely on (proofs-notes/exact.md, "Merging").
struct KeyRules {
  bool future = true;  // ExactOptions::Merging::future
  // A boundary after each draw's cluster-assignment query (future only), where that query may
  // branch: a random-weak oracle with q < 1, the baseline's coin flip, or an anchor drawn at
  // random. Elsewhere no random event lies between two draws' queries, and such a boundary would
  // merge nothing and cost one replay per state.
  bool per_draw = false;
  bool reads_b = false;  // Phase 2 draws B from Z_p (Algorithms 2 and 4)
  bool plain = false;    // Phase 2 reads the first row of Z_p (the plain search's z)
  // No sum of at most r rows can overflow, so mean_of_rows never takes its overflow path and
  // mu'_p is the left-to-right sum of Z_p divided by |Z_p|: a prefix of Z_p matters to it only
  // through its count and its partial sum.
  bool sums_decide = false;
  // Engine::states: each draw of Z is made just before its query (Run::resume), so a boundary
  // follows every draw's query but the last, and the states there and at an iteration's end are
  // snapshots that runs resume from.
  bool states = false;
  // Engine::states under a perfect or fresh random-weak oracle with self-pairs asked: the draws
  // of B are lumped by label (BranchingChooser), so Phase 2 reads Z_p's labels, not its rows.
  const std::vector<int>* lump_b = nullptr;
};

// Replays a branch up to its start state (`start`; none for the root), counts the queries asked
// after it, and stops the run at the next boundary, recording the state reached there.
class Replay : public RunObserver {
 public:
  // `counted` (joint law only): the queries of each phase asked before the start state; they join
  // the key so that only branches with equal counts so far merge.
  Replay(const Matrix& X, std::optional<Progress> start, const Params& params, KeyRules rules,
         const BranchingOracle& oracle, int confused,
         std::optional<std::pair<std::uint64_t, std::uint64_t>> counted)
      : X_(X),
        start_(start),
        active_(!start),
        k_(params.k),
        r_(params.sample_size()),
        sample_cap_(params.rules.sample_cap),
        openers_only_(params.rules.anchor == AnchorRule::opener),
        known_rows_(params.rules.anchor == AnchorRule::random_known_row),
        rules_(rules),
        oracle_(oracle),
        confused_(confused),
        counted_(counted) {}

  void queried(const QueryRecord& q) override {
    if (active_) ++(q.phase == 1 ? phase1 : phase2);
  }

  void run_state(const RunState& s) override {
    switch (s.stage) {
      case RunState::Stage::draw_assigned: {
        const Iteration& it = s.record;
        const std::size_t done = it.assignment.size();
        // After the last draw, p is chosen at once (or Phase 1 has failed and the iteration ends).
        if (rules_.states) {
          const std::uint64_t r =
              sample_cap_ ? std::min<std::uint64_t>(r_, s.remaining.size()) : r_;
          if (done >= r) return;
        } else if (!rules_.per_draw || done >= it.sample.size()) {
          return;
        }
        std::string key = run_key(s);
        // The draws still to be assigned, in order (they are asked in draw order; none is made
        // yet under Engine::states), and of the draws done only what line 8 and Phase 2 read:
        // each Z_t so far.
        if (!rules_.states)
          put(key, std::vector<std::size_t>(it.sample.begin() + static_cast<std::ptrdiff_t>(done),
                                            it.sample.end()));
        for (int t : s.known) {
          std::vector<std::size_t> zt;
          for (std::size_t d = 0; d < done; ++d)
            if (it.assignment[d] == t) zt.push_back(it.sample[d]);
          put_zt(key, zt);
        }
        boundary({s.iteration, 0, static_cast<int>(done)}, std::move(key), s);
        return;
      }
      case RunState::Stage::cluster_chosen: {
        std::string key = run_key(s);
        put_int(key, static_cast<std::uint64_t>(chosen_p_));
        order_by_distance(s.remaining);
        if (rules_.future)
          put_order(key);
        else
          put_center_bits(key);
        phase1_key_ = key;
        boundary({s.iteration, 1, 0}, std::move(key), s);
        return;
      }
      case RunState::Stage::iteration_ended:
        if (s.iteration >= k_) return;  // the last iteration's end: the run finishes
        boundary({s.iteration, 3, 0}, run_key(s), s);
        return;
    }
  }

  void cluster_chosen(const Iteration& it) override {
    chosen_p_ = it.p;
    center_ = it.center;
    x1_ = it.x1;
    zp_.clear();
    for (std::size_t s = 0; s < it.sample.size(); ++s)
      if (it.assignment[s] == it.p) zp_.push_back(it.sample[s]);
  }

  // After a search step the search's own state is (lo, hi), or over on a fail.
  void step_taken(const Iteration& it, const SearchStep& step) override {
    std::ptrdiff_t lo = step.lo, hi = step.hi;
    const auto j = static_cast<std::ptrdiff_t>(step.j);
    if (step.decision == Decision::in) lo = j + 1;
    if (step.decision == Decision::out) hi = j - 1;
    // A search that is over (lo > hi, or Algorithm 2's fail) leads to line 13 and the iteration's
    // end with no random event between: the state there merges as well and costs no replay.
    if (rules_.future && (lo > hi || step.decision == Decision::fail)) return;
    std::string key = phase1_key_;
    put_signed(key, lo);
    put_signed(key, hi);
    put_int(key, static_cast<std::uint64_t>(step.decision));
    boundary({it.index, 2, static_cast<int>(it.steps.size()) + 1}, std::move(key), std::nullopt);
  }

  bool active() const { return active_; }
  // The last cluster_chosen event's p, mu'_p and Z_p (in draw order).
  int chosen_p() const { return chosen_p_; }
  const Vector& center() const { return center_; }
  const std::vector<std::size_t>& zp() const { return zp_; }
  std::uint64_t phase1 = 0, phase2 = 0;
  // Pairs of rows (smaller first) at exactly equal distance in a Phase 2 order of this replay.
  std::set<std::pair<std::size_t, std::size_t>> tied;
  Progress reached;
  std::string key;
  // Engine::states, at a boundary after a draw's query or at an iteration's end: the state
  // reached, to resume from.
  std::shared_ptr<const Snapshot> snapshot;
  std::size_t remaining = 0;  // |S_i| at the boundary reached (|S_{i+1}| at an iteration's end)

 private:
  // The run's own state: S_i (S_{i+1} at an iteration's end), the labels, the known clusters in
  // the order they are asked, their openers, the recovered marks and the recovery order, and the
  // Phase-1 placements when the anchor rule is random-known-row (their only reader). Also marks
  // the rows the rest of the run may ask about (live_).
  std::string run_key(const RunState& s) {
    // S_i and the anchors, which are the openers under AnchorRule::opener (a cluster opened later
    // is opened by a row of S_i), any row else.
    live_.assign(s.labels.size(), openers_only_ ? 0 : 1);
    for (std::size_t x : s.remaining)
      live_[x] = 1;
    for (int t : s.known)
      live_[s.openers[static_cast<std::size_t>(t)]] = 1;
    std::string key;
    put(key, s.remaining);
    put(key, s.labels);
    put(key, s.known);
    // The openers of the known clusters only; where the draws of B are lumped and the opener is
    // the anchor, only their labels (the oracle reads the opener's row only through them).
    std::vector<std::size_t> openers;
    for (int t : s.known) {
      const std::size_t o = s.openers[static_cast<std::size_t>(t)];
      openers.push_back(
          rules_.lump_b && openers_only_ ? static_cast<std::size_t>((*rules_.lump_b)[o]) : o);
    }
    put(key, openers);
    if (known_rows_) put(key, s.placed);
    put(key, s.recovered);
    put(key, s.recovery_order);
    return key;
  }

  // A Z_t before Phase 1 is over: what mu'_t, the draws of B and the plain search's z would read
  // of it if t were chosen, and its count (line 8).
  void put_zt(std::string& key, const std::vector<std::size_t>& zt) const {
    put_int(key, zt.size());
    if (rules_.sums_decide) {
      // mean_of_rows sums the rows left to right from zero (lib/src/data/data.cpp).
      for (Eigen::Index c = 0; c < X_.cols(); ++c) {
        double sum = 0.0;
        for (std::size_t x : zt)
          sum += X_(static_cast<Eigen::Index>(x), c);
        put_bits(key, sum);
      }
    } else {
      put(key, zt);  // the draw order itself
    }
    put_zp_reads(key, zt);
  }

  // What Phase 2 reads of Z_p besides mu'_p: the multiset (every draw of B reads a row,
  // BranchingChooser) and the first row (the plain search's z), each only where it is read.
  void put_zp_reads(std::string& key, std::vector<std::size_t> zp) const {
    if (rules_.plain) put_int(key, zp.empty() ? 0 : zp.front() + 1);
    if (rules_.reads_b) {
      if (rules_.lump_b)
        for (std::size_t& x : zp)
          x = static_cast<std::size_t>((*rules_.lump_b)[x]);
      std::sort(zp.begin(), zp.end());
      put(key, zp);
    }
  }

  // Line 10 reads mu'_p only through the order of S_i by distance to it (S6: ties by row), and
  // line 13 through which neighbours in that order are at equal distances (C'_p holds the rows
  // strictly closer than the row at j*). Two centres that induce the same order and ties give the
  // same rest of the iteration; x_1 and Z_p as Phase 2 reads it complete the state.
  void put_order(std::string& key) {
    // Each row of the order, doubled, plus one when the next row is at the same distance.
    for (std::size_t i = 0; i < order_.size(); ++i)
      put_int(key, 2 * order_[i].second +
                       (i + 1 < order_.size() && order_[i].first == order_[i + 1].first ? 1 : 0));
    put_int(key, x1_);
    put_zp_reads(key, zp_);
  }

  // Line 10's order of S_i = `rows` by distance to mu'_p, ties by row (S6), into order_; each
  // pair of rows at exactly equal distance joins `tied` (ExactResult::tied_pairs).
  void order_by_distance(const std::vector<std::size_t>& rows) {
    d_.resize(rows.size());
    distances(X_, rows, center_, d_.data());
    order_.resize(rows.size());
    for (std::size_t i = 0; i < rows.size(); ++i)
      order_[i] = {d_[i], rows[i]};
    std::sort(order_.begin(), order_.end());
    for (std::size_t i = 0; i < order_.size(); ++i)
      for (std::size_t j = i + 1; j < order_.size() && order_[j].first == order_[i].first; ++j)
        tied.emplace(order_[i].second, order_[j].second);
  }

  // ExactOptions::Merging::boundaries: mu'_p by its bits, Z_p as a multiset and its first row.
  void put_center_bits(std::string& key) const {
    for (Eigen::Index d = 0; d < center_.size(); ++d)
      put_bits(key, center_(d));
    std::vector<std::size_t> sorted = zp_;
    std::sort(sorted.begin(), sorted.end());
    put(key, sorted);
    put_int(key, zp_.front());
  }

  void boundary(Progress at, std::string k,
                std::optional<std::reference_wrapper<const RunState>> s) {
    if (!active_) {
      if (at == *start_) active_ = true;
      return;
    }
    put_int(k, static_cast<std::uint64_t>(confused_));
    oracle_.append_state(k, live_);
    if (counted_) {
      put_int(k, counted_->first + phase1);
      put_int(k, counted_->second + phase2);
    }
    reached = at;
    key = std::move(k);
    if (s) remaining = s->get().remaining.size();
    if (rules_.states && s && (at.stage == 0 || at.stage == 3)) {
      const RunState& st = s->get();
      auto snap = std::make_shared<Snapshot>();
      detail::Run::Resume& r = snap->run;
      r.iteration = at.stage == 3 ? at.iteration + 1 : at.iteration;
      r.S = st.remaining;
      r.labels = st.labels;
      r.known = st.known;
      r.placed = st.placed;
      r.opener = st.openers;
      r.recovered = st.recovered;
      r.recovery_order = st.recovery_order;
      if (at.stage == 0) {
        r.sample = st.record.sample;
        r.assignment = st.record.assignment;
      }
      snap->memo = oracle_.memo();
      snap->confused = confused_;
      snapshot = std::move(snap);
    }
    throw StopAtBoundary{};
  }

  const Matrix& X_;
  std::optional<Progress> start_;
  bool active_;
  int k_;
  std::uint64_t r_;
  bool sample_cap_;
  bool openers_only_, known_rows_;
  KeyRules rules_;
  std::vector<char> live_;
  const BranchingOracle& oracle_;
  int confused_;
  std::optional<std::pair<std::uint64_t, std::uint64_t>> counted_;
  int chosen_p_ = 0;
  std::size_t x1_ = 0;
  Vector center_;
  std::vector<std::size_t> zp_;  // Z_p in draw order
  std::string phase1_key_;
  std::vector<double> d_;
  std::vector<std::pair<double, std::size_t>> order_;
};

// A count that may be too large for an integer type, as a whole number or in e-notation.
std::string count_text(long double v) {
  if (v < 1e15L) return std::to_string(static_cast<unsigned long long>(v));
  char text[64];
  std::snprintf(text, sizeof text, "%.3Le", v);
  return text;
}

// Points correctly labelled under the best renaming of the labels (a bijection between label
// values; label 0 matches nothing), and whether the labels' partition is the truth's.
std::pair<std::size_t, bool> score(const std::vector<int>& labels, const std::vector<int>& truth) {
  int kl = 0, kt = 0;
  for (std::size_t i = 0; i < labels.size(); ++i) {
    kl = std::max(kl, labels[i]);
    kt = std::max(kt, truth[i]);
  }
  const std::size_t m = static_cast<std::size_t>(std::max(kl, kt));
  std::vector<std::vector<double>> w(m, std::vector<double>(m, 0.0));
  bool all_assigned = true;
  for (std::size_t i = 0; i < labels.size(); ++i) {
    if (labels[i] == 0) {
      all_assigned = false;
      continue;
    }
    w[static_cast<std::size_t>(labels[i] - 1)][static_cast<std::size_t>(truth[i] - 1)] += 1.0;
  }
  const std::vector<int> col = max_weight_assignment(w);
  double correct = 0;
  for (std::size_t r = 0; r < m; ++r)
    correct += w[r][static_cast<std::size_t>(col[r])];
  const auto c = static_cast<std::size_t>(correct);  // a sum of small integers, exact
  return {c, all_assigned && c == labels.size()};
}

}  // namespace

namespace {

ExactResult enumerate(const Matrix& X, const std::vector<int>& labels, const ExactOracle& oracle,
                      const Params& params, const ExactOptions& options) {
  const OracleSpec& spec = oracle.spec;
  if (!spec.simulated())
    throw ParameterError("the exact enumeration needs a simulated oracle, not 'interactive'");
  const bool random = spec.kind == OracleKind::random;
  const bool correlated = spec.kind == OracleKind::correlated;
  if ((random || correlated) && (oracle.q <= 0 || oracle.q > 1))
    throw ParameterError("q = " + fraction_string(oracle.q) + " is outside (0, 1]");
  params.check(static_cast<std::size_t>(X.rows()));
  // The deterministic base oracle: the truth for the random-weak one, the spec's otherwise (the
  // correlated one is built per branch).
  std::unique_ptr<Oracle> fixed;
  if (random)
    fixed = std::make_unique<PerfectOracle>(labels);
  else if (!correlated)
    fixed = make_oracle(spec, X, labels, Rng(0));
  std::optional<CorrelatedWeakOracle> calm, confused;
  if (correlated) {
    calm.emplace(X, labels, spec.rho, false);
    confused.emplace(X, labels, spec.rho, true);
  }
  std::vector<Rational> correlated_w;  // not confused (q), confused (1 - q); zero ones left out
  if (correlated) {
    correlated_w.push_back(oracle.q);
    if (oracle.q < 1) correlated_w.push_back(1 - oracle.q);
  }

  const bool by_counts = options.engine == ExactOptions::Engine::counts;
  const bool states = options.engine != ExactOptions::Engine::paths;
  if (states && options.run)
    throw std::invalid_argument("exact_distribution: a run variant needs Engine::paths");
  if (options.stop_after_phase1 && !states)
    throw std::invalid_argument("exact_distribution: stop_after_phase1 needs Engine::states");
  if (states && options.merging != ExactOptions::Merging::future)
    throw std::invalid_argument("exact_distribution: Merging::boundaries needs Engine::paths");
  ExactResult out;
  out.states.assign(static_cast<std::size_t>(params.k), 0);
  struct Node {
    // Engine::states: the state the replays start from, and whether it is this node's own (else
    // the node's state lies `prefix` decisions after it, within line 8 and Phase 2).
    std::shared_ptr<const Snapshot> snap;
    bool own = false;
    std::vector<std::uint32_t> prefix;
    Rational p;
    std::uint64_t phase1 = 0, phase2 = 0;  // queries before this state (joint law only)
    // Merging::future with the joint law: the law of the numbers of queries of each phase asked
    // before this state, over the branches merged into it (their probabilities sum to p).
    std::map<std::pair<std::uint64_t, std::uint64_t>, Rational> before;
    std::size_t remaining = 0;  // |S| there
    int expect_p = 0;           // Engine::counts, at line 8: the p the reference must choose
  };
  KeyRules rules;
  rules.states = states;
  rules.future = states || options.merging == ExactOptions::Merging::future;
  rules.per_draw = rules.future && ((random && oracle.q < 1) || oracle.coin_flip ||
                                    params.rules.anchor == AnchorRule::random_labelled_row ||
                                    params.rules.anchor == AnchorRule::random_known_row);
  rules.reads_b = params.search == Search::random || params.search == Search::unified;
  // The answer to Q(x_j, y) depends on y only through whether y's label is x_j's: the truth, or
  // for the fresh random-weak oracle the truth or not-sure by an independent coin. Under
  // self-pairs=off, y = x_j is not asked (S4), so y's identity matters: no lumping there.
  if (states && params.rules.self_pairs &&
      (spec.kind == OracleKind::perfect || (random && spec.memory == OracleMemory::fresh)))
    rules.lump_b = &labels;
  rules.plain = params.search == Search::plain;
  // Phase 1 draws r rows of S_i, at most |S_i| under Rules::sample_cap.
  const auto draws = [&](std::size_t size) {
    const std::uint64_t r = params.sample_size();
    return params.rules.sample_cap ? std::min<std::uint64_t>(r, size) : r;
  };
  double largest = 0.0;
  for (Eigen::Index i = 0; i < X.rows(); ++i)
    for (Eigen::Index c = 0; c < X.cols(); ++c)
      largest = std::max(largest, std::abs(X(i, c)));
  // Each partial sum of at most r rows is within r * largest * (1 + r * 2^-52) of zero.
  rules.sums_decide =
      std::isfinite(largest * 2.0 * static_cast<double>(draws(static_cast<std::size_t>(X.rows()))));
  // A lower bound on the re-executions still needed, to refuse an instance out of reach before
  // enumerating it: Phase 1 of an iteration draws all of its r rows before any query, so its
  // |S|^r draw sequences from a state are each one re-execution at least, whatever merges later.
  const auto refuse = [&](const std::string& what) {
    throw ParameterError("--max-branches = " + std::to_string(options.max_branches) +
                         " is too small: " + what + " (raise it, or choose a smaller instance)");
  };
  const auto refuse_if_beyond = [&](long double needed, const std::string& what) {
    if (static_cast<long double>(out.branches) + needed >
        static_cast<long double>(options.max_branches))
      refuse(what);
  };
  const auto sequences = [&](std::size_t size) {
    return exact_phase1_cost(options.engine, size, draws(size));
  };
  const auto cost_from = [&](const std::vector<std::size_t>& rows) {
    return exact_phase1_cost(options.engine, X, rows, draws(rows.size()),
                             static_cast<long double>(options.max_branches));
  };
  const std::string at_least = states ? " (an estimate)" : " at least";
  {
    const std::size_t rows = labels.size();
    std::vector<std::size_t> all(rows);
    for (std::size_t x = 0; x < rows; ++x)
      all[x] = x;
    const long double needed = cost_from(all);
    refuse_if_beyond(needed, "the " + std::to_string(draws(rows)) + " draws of Z from " +
                                 std::to_string(rows) + " rows in iteration 1 alone need " +
                                 count_text(needed) + " re-executions" + at_least);
  }
  // The states still to explore, by where they are; a branch only reaches states further on, so
  // the first group is complete when it is taken (every branch into it has been explored).
  std::map<Progress, std::map<std::string, Node>> pending;
  std::map<std::pair<std::vector<int>, int>, Rational> outcomes;
  std::map<std::tuple<std::vector<int>, std::uint64_t, std::uint64_t, int>, Rational> joint;
  std::set<std::pair<std::size_t, std::size_t>> tied;
  std::map<std::tuple<int, std::vector<double>, std::vector<std::size_t>>, Rational> phase1_law;
  const std::size_t n = labels.size();
  auto explore = [&](std::optional<Progress> start, const Node& node) {
    Branches br(node.prefix);
    // The sums over this node's branches of their probabilities (from the node on), multiplied
    // by the node's probability once at the end: the same sums, with far smaller fractions to
    // add.
    Rational queries1 = 0, queries2 = 0;
    std::map<Node*, Rational> into;
    std::map<std::pair<std::vector<int>, int>, Rational> finished;
    std::map<std::tuple<int, std::vector<double>, std::vector<std::size_t>>, Rational> phase1_ends;
    do {
      br.restart();
      if (++out.branches > options.max_branches)
        refuse("the exact enumeration needs more re-executions");
      int c = 0;
      if (node.snap && node.snap->confused >= 0)
        c = node.snap->confused;
      else if (correlated)
        c = static_cast<int>(br.decide(correlated_w));
      Oracle& base = correlated ? (c == 0 ? static_cast<Oracle&>(*calm) : *confused) : *fixed;
      BranchingOracle bo(br, base, random, spec.memory == OracleMemory::per_pair, oracle.q,
                         oracle.coin_flip);
      if (node.snap) bo.restore(node.snap->memo);
      BranchingChooser chooser(br, rules.lump_b);
      Replay obs(X, start, params, rules, bo, c,
                 options.joint_queries && !rules.future
                     ? std::optional(std::pair(node.phase1, node.phase2))
                     : std::nullopt);
      std::optional<Result> R;
      try {
        if (node.snap) {
          detail::Run run(X, bo, chooser, params, obs);
          R.emplace(run.resume(node.snap->run));
        } else {
          R.emplace(options.run ? options.run(X, bo, chooser, params, &obs)
                                : run_ssac(X, bo, chooser, params, &obs));
        }
      } catch (const StopAtBoundary&) {
      }
      const Rational branch = br.probability();
      tied.insert(obs.tied.begin(), obs.tied.end());
      if (obs.phase1) queries1 += branch * obs.phase1;
      if (obs.phase2) queries2 += branch * obs.phase2;
      if (!obs.active())  // the replay must pass through its start state
        throw std::logic_error("exact enumeration: a replay missed its start state");
      if (node.expect_p != 0 && obs.chosen_p() != node.expect_p)
        throw std::logic_error("exact enumeration (counts): line 8 chose another cluster");
      if (R && options.stop_after_phase1) {  // k = 1 and no p: the run ended in iteration 1
        phase1_ends[{}] += branch;
        continue;
      }
      if (R) {
        finished[{R->labels, R->clusters_recovered}] += branch;
        if (options.joint_queries && rules.future) {
          for (const auto& [c, pc] : node.before)
            joint[{R->labels, c.first + obs.phase1, c.second + obs.phase2,
                   R->clusters_recovered}] += pc * branch;
        } else if (options.joint_queries) {
          joint[{R->labels, node.phase1 + obs.phase1, node.phase2 + obs.phase2,
                 R->clusters_recovered}] += node.p * branch;
        }
        continue;
      }
      if (options.stop_after_phase1 && obs.reached.iteration == 1 &&
          (obs.reached.stage == 1 || obs.reached.stage == 3)) {
        std::tuple<int, std::vector<double>, std::vector<std::size_t>> at;
        if (obs.reached.stage == 1) {
          std::get<0>(at) = obs.chosen_p();
          std::get<1>(at).assign(obs.center().data(), obs.center().data() + obs.center().size());
          std::get<2>(at) = obs.zp();
          std::sort(std::get<2>(at).begin(), std::get<2>(at).end());
        }
        phase1_ends[at] += branch;
        continue;
      }
      auto& group = pending[obs.reached];
      const auto [it, fresh] = group.try_emplace(std::move(obs.key));
      if (!fresh) ++out.merged;
      if (fresh && obs.snapshot) {
        it->second.snap = std::move(obs.snapshot);
        it->second.own = true;
      } else if (fresh) {
        it->second.snap = node.snap;
        it->second.prefix = br.taken();
      }
      if (fresh) {
        it->second.phase1 = node.phase1 + obs.phase1;
        it->second.phase2 = node.phase2 + obs.phase2;
        it->second.remaining = obs.remaining;
        ++out.states[static_cast<std::size_t>(obs.reached.iteration - 1)];
      }
      into[&it->second] += branch;
      if (options.joint_queries && rules.future)
        for (const auto& [c, pc] : node.before)
          it->second.before[{c.first + obs.phase1, c.second + obs.phase2}] += pc * branch;
    } while (br.next());
    out.expected_queries_phase1 += node.p * queries1;
    out.expected_queries_phase2 += node.p * queries2;
    for (const auto& [target, sum] : into)
      target->p += node.p * sum;
    for (const auto& [labels_recovered, sum] : finished)
      outcomes[labels_recovered] += node.p * sum;
    for (const auto& [at, sum] : phase1_ends)
      phase1_law[at] += node.p * sum;
  };
  // With the joint law, Merging::future carries each state's law of the queries asked so far
  // (proofs-notes/exact.md, "The joint law"); Merging::boundaries keys the states on them.
  Node root;
  root.p = 1;
  root.before[{0, 0}] = 1;
  if (states) {  // the run's start (Algorithm 1, line 1), as run_ssac sets it
    auto snap = std::make_shared<Snapshot>();
    detail::Run::Resume& r = snap->run;
    r.S.resize(n);
    for (std::size_t x = 0; x < n; ++x)
      r.S[x] = x;
    r.labels.assign(n, 0);
    r.placed.assign(n, 0);
    r.opener.assign(static_cast<std::size_t>(params.k) + 1, n);
    r.recovered.assign(static_cast<std::size_t>(params.k) + 1, 0);
    root.snap = std::move(snap);
    root.own = true;
  }
  // Engine::counts: Phase 1 from a state at an iteration's start (counts.hpp), its states at line
  // 8 pending as states after the iteration's last draw. The others, as the states engine does.
  const bool lumpable = by_counts && !options.joint_queries && !options.stop_after_phase1 &&
                        !correlated && !(random && spec.memory == OracleMemory::per_pair) &&
                        params.rules.anchor != AnchorRule::random_known_row && rules.sums_decide;
  std::uint64_t count_states = 0;
  const std::shared_ptr<LawCache> law_cache = lumpable ? make_law_cache() : nullptr;
  const auto phase1_by_counts = [&](const std::string& start_key, const Node& node) {
    if (!lumpable || !node.own || !node.snap || !node.snap->run.sample.empty() ||
        node.snap->run.S.empty())
      return false;
    const Snapshot& at = *node.snap;
    CountsSetup setup(X, draws(at.run.S.size()));
    setup.reads_b = rules.reads_b;
    setup.plain = rules.plain;
    setup.lump = rules.lump_b;
    setup.check = options.check_product_form;
    setup.laws = law_cache.get();
    setup.replay = [&](Branches& br, const Snapshot& from, RunObserver& obs) {
      BranchingOracle bo(br, *fixed, random, false, oracle.q, oracle.coin_flip);
      BranchingChooser chooser(br, rules.lump_b);
      detail::Run run(X, bo, chooser, params, obs);
      run.resume(from.run);
    };
    setup.count_states = [&](std::size_t held) {
      count_states += held;
      if (count_states > options.max_states)
        throw ParameterError("--max-states = " + std::to_string(options.max_states) +
                             " is too small: Phase 1's count arithmetic needs more states (raise "
                             "it, or choose a smaller instance)");
    };
    setup.count_replay = [&] {
      if (++out.branches > options.max_branches)
        refuse("the exact enumeration needs more re-executions");
    };
    const CountsResult res = exact_internal::phase1_by_counts(setup, at);
    out.phase1_by_counts = true;
    out.expected_queries_phase1 += node.p * res.queries_phase1;
    const auto i = static_cast<std::size_t>(at.run.iteration - 1);
    out.states[i] += res.states;
    auto& group = pending[{at.run.iteration, 0, static_cast<int>(setup.draws)}];
    // An end's key holds the state at line 8 but for what its representative keeps of the start
    // state, which the start's key holds: the recovered marks (under empty-recovers=on the labels
    // do not show them) and, where no cluster is chosen, S_i (under overwrite the labels do not
    // show it). The rest of the run reads both (proofs-notes/exact.md, "Phase 1 by counts").
    for (const CountsEnd& e : res.ends) {
      auto [it, fresh] = group.try_emplace(start_key + e.key);
      if (fresh) {
        it->second.snap = e.snapshot;
        it->second.own = true;
        it->second.remaining = at.run.S.size();
        it->second.expect_p = e.p;
        ++out.states[i];
      }
      it->second.p += node.p * e.probability;
    }
    return true;
  };
  if (!phase1_by_counts("", root)) explore(std::nullopt, root);
  while (!pending.empty()) {
    const Progress at = pending.begin()->first;
    std::map<std::string, Node> group = std::move(pending.begin()->second);
    pending.erase(pending.begin());
    if (at.stage == 3) {  // the states at the end of iteration i, where iteration i + 1 starts
      long double needed = 0;
      for (const auto& entry : group)
        needed += entry.second.snap ? cost_from(entry.second.snap->run.S)
                                    : sequences(entry.second.remaining);
      refuse_if_beyond(needed, "the draws of Z in iteration " + std::to_string(at.iteration + 1) +
                                   " alone need " + count_text(needed) + " more re-executions" +
                                   at_least + ", from " + std::to_string(group.size()) + " states");
    }
    for (const auto& [key, node] : group)
      if (!phase1_by_counts(key, node)) explore(node.own ? std::nullopt : std::optional(at), node);
  }

  for (const auto& [at, p] : phase1_law) {
    out.phase1.push_back({std::get<0>(at), std::get<1>(at), std::get<2>(at), p});
    out.total += p;
  }
  for (const auto& [key, p] : outcomes) {
    const auto& [lab, recovered] = key;
    out.total += p;
    out.clusters_recovered[recovered] += p;
    if (recovered < params.k) out.p_failure += p;
    const auto [correct, exact] = score(lab, labels);
    out.expected_correct += p * static_cast<long long>(correct);
    if (exact) out.p_exact_recovery += p;
    out.outcomes.push_back({lab, recovered, p});
  }
  for (const auto& [key, p] : joint) {
    const auto& [lab, q1, q2, recovered] = key;
    out.joint.push_back({lab, recovered, q1, q2, p});
  }
  out.expected_accuracy_pct = out.expected_correct * 100 / static_cast<long long>(n);
  std::stable_sort(
      out.outcomes.begin(), out.outcomes.end(),
      [](const ExactLabeling& a, const ExactLabeling& b) { return a.probability > b.probability; });
  out.tied_pairs.assign(tied.begin(), tied.end());
  return out;
}

}  // namespace

ExactResult exact_distribution(const Matrix& X, const std::vector<int>& labels,
                               const ExactOracle& oracle, const Params& params,
                               const ExactOptions& options) {
  if (options.engine != ExactOptions::Engine::counts)
    return enumerate(X, labels, oracle, params, options);
  try {
    return enumerate(X, labels, oracle, params, options);
  } catch (const exact_internal::NotLumpable&) {
    // Not a product form here: the states engine, whose law this is too.
    ExactOptions states = options;
    states.engine = ExactOptions::Engine::states;
    return enumerate(X, labels, oracle, params, states);
  }
}

long double exact_phase1_cost(ExactOptions::Engine engine, std::size_t rows, std::uint64_t draws) {
  const auto m = static_cast<long double>(rows);
  if (engine == ExactOptions::Engine::paths) return std::pow(m, static_cast<long double>(draws));
  // Engine::counts: one re-execution per row from the start's configuration at least (where
  // Phase 1 is run by counts; else the states engine's cost, which this does not bound).
  if (engine == ExactOptions::Engine::counts) return draws > 0 ? m : 0;
  // Sum over s < draws of min(rows^s, C(s + rows - 1, s)) states, each with `rows` re-executions.
  long double total = 0, multisets = 1, sequences = 1;
  for (std::uint64_t s = 0; s < draws && std::isfinite(total); ++s) {
    if (s > 0) {
      multisets = multisets * (static_cast<long double>(s) + m - 1) / static_cast<long double>(s);
      sequences *= m;
    }
    total += std::min(multisets, sequences) * m;
  }
  return total;
}

long double exact_phase1_cost(ExactOptions::Engine engine, const Matrix& X,
                              const std::vector<std::size_t>& rows, std::uint64_t draws,
                              long double cap) {
  if (engine != ExactOptions::Engine::states) return exact_phase1_cost(engine, rows.size(), draws);
  const auto m = static_cast<long double>(rows.size());
  std::set<std::vector<double>> sums = {std::vector<double>(static_cast<std::size_t>(X.cols()))};
  long double total = 0, multisets = 1, sequences = 1;
  bool counted = true;
  for (std::uint64_t s = 0; s < draws && total <= cap; ++s) {
    if (s > 0) {
      multisets = multisets * (static_cast<long double>(s) + m - 1) / static_cast<long double>(s);
      sequences *= m;
      // Counted while cheap (a few hundred thousand sums); beyond that, not bounded by them.
      if (counted && sums.size() * rows.size() > 200'000) counted = false;
      if (counted) {
        std::set<std::vector<double>> next;
        for (const auto& a : sums)
          for (std::size_t x : rows) {
            std::vector<double> b = a;
            for (Eigen::Index c = 0; c < X.cols(); ++c)
              b[static_cast<std::size_t>(c)] += X(static_cast<Eigen::Index>(x), c);
            next.insert(std::move(b));
          }
        sums = std::move(next);
      }
    }
    const long double distinct_sums = counted ? static_cast<long double>(sums.size()) : multisets;
    total += std::min({multisets, sequences, distinct_sums}) * m;
  }
  return total;
}

std::string decimal_string(const Rational& x, int places) {
  using Int = mp::cpp_int;
  const bool neg = x < 0;
  const Rational a = neg ? Rational(-x) : x;
  const Int scale = mp::pow(Int(10), static_cast<unsigned>(places));
  // round(a * 10^places), half away from zero: floor((2 a 10^places + 1) / 2).
  const Rational scaled = a * scale;
  const Int num = mp::numerator(scaled), den = mp::denominator(scaled);
  const Int r = (2 * num + den) / (2 * den);
  std::string digits = r.str();
  if (digits.size() <= static_cast<std::size_t>(places))
    digits.insert(0, static_cast<std::size_t>(places) + 1 - digits.size(), '0');
  std::string s = digits.substr(0, digits.size() - static_cast<std::size_t>(places));
  if (places > 0) s += "." + digits.substr(digits.size() - static_cast<std::size_t>(places));
  return (neg && r != 0 ? "-" : "") + s;
}

std::string fraction_string(const Rational& x) {
  return mp::numerator(x).str() + "/" + mp::denominator(x).str();
}

}  // namespace ssac
