// The exact enumerator (ssac/exact.hpp). proofs-notes/exact.md explains the merging. One file of
// about 460 lines: the walk, the branching policies, the state key and the driver share private
// types (Branches, Progress, the replay observer) that are not worth a header of their own.
#include "ssac/exact.hpp"

#include <algorithm>
#include <cstring>
#include <memory>
#include <optional>
#include <stdexcept>
#include <tuple>
#include <utility>

#include "ssac/error.hpp"
#include "ssac/metrics.hpp"
#include "ssac/observer.hpp"

namespace ssac {

namespace mp = boost::multiprecision;

// ---------------------------------------------------------------------------------------------
// The depth-first walk.

std::size_t Branches::decide(const std::vector<Rational>& probabilities) {
  if (pos_ < prefix_.size()) return prefix_[pos_++];
  const std::size_t d = pos_ - prefix_.size();
  if (d == path_.size()) {
    path_.push_back(0);
    options_.push_back(static_cast<std::uint32_t>(probabilities.size()));
  } else if (options_[d] != probabilities.size()) {
    // The reference is deterministic given its decisions, so a replay meets the same events.
    throw std::logic_error("exact enumeration: a replay met a different random event");
  }
  ++pos_;
  probability_ *= probabilities[path_[d]];
  return path_[d];
}

std::vector<std::uint32_t> Branches::taken() const {
  std::vector<std::uint32_t> all(
      prefix_.begin(),
      prefix_.begin() + static_cast<std::ptrdiff_t>(std::min(pos_, prefix_.size())));
  const std::size_t used = pos_ > prefix_.size() ? pos_ - prefix_.size() : 0;
  all.insert(all.end(), path_.begin(), path_.begin() + static_cast<std::ptrdiff_t>(used));
  return all;
}

void Branches::restart() {
  pos_ = 0;
  probability_ = 1;
}

bool Branches::next() {
  const std::size_t used = pos_ > prefix_.size() ? pos_ - prefix_.size() : 0;
  path_.resize(std::min(used, path_.size()));
  options_.resize(path_.size());
  while (!path_.empty()) {
    if (path_.back() + 1 < options_.back()) {
      ++path_.back();
      return true;
    }
    path_.pop_back();
    options_.pop_back();
  }
  return false;
}

std::size_t BranchingChooser::choose(const std::vector<std::size_t>& pool, Draw) {
  // Distinct rows in order of first position, each with its count.
  std::vector<std::size_t> first, count;
  for (std::size_t i = 0; i < pool.size(); ++i) {
    std::size_t f = 0;
    while (f < first.size() && pool[first[f]] != pool[i])
      ++f;
    if (f == first.size()) {
      first.push_back(i);
      count.push_back(0);
    }
    ++count[f];
  }
  std::vector<Rational> w;
  w.reserve(first.size());
  for (std::size_t c : count)
    w.emplace_back(static_cast<long long>(c), static_cast<long long>(pool.size()));
  return first[b_.decide(w)];
}

namespace {

// ---------------------------------------------------------------------------------------------
// The branching oracle: the random-weak oracle's Bernoulli(q) per query (or per pair), the
// correlated oracle with its one draw decided by the caller, the deterministic oracles as they
// are; then the baseline's coin flip on a not-sure.

class BranchingOracle : public Oracle {
 public:
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

  // The oracle's part of the state: the remembered answers (per-pair memory only) on the pairs
  // of rows marked in `live` (the rows that may still be asked about).
  void append_state(std::string& key, const std::vector<char>& live) const {
    for (const auto& [pair, a] : memo_) {
      if (!live[pair.first] || !live[pair.second]) continue;
      key += std::to_string(pair.first) + ',' + std::to_string(pair.second) + ',' +
             std::to_string(static_cast<int>(a)) + ';';
    }
  }

 private:
  Branches& b_;
  Oracle& base_;
  bool random_, per_pair_, coin_flip_;
  std::vector<Rational> w_;
  std::vector<bool> answers_;
  std::map<std::pair<std::size_t, std::size_t>, Answer> memo_;
};

struct StopAtBoundary {};

// Where a run is: (iteration, stage, step) with stage 0 once p is chosen, 1 after search step
// `step`, 2 at the iteration's end. It increases strictly along every run.
struct Progress {
  int iteration = 0, stage = 0, step = 0;
  auto operator<=>(const Progress&) const = default;
};

template <class V>
void put(std::string& key, const V& v) {
  for (const auto& e : v)
    key += std::to_string(static_cast<long long>(e)) + ',';
  key += '|';
}

// Replays a branch up to its start state (`start`; none for the root), counts the queries asked
// after it, and stops the run at the next boundary, recording the state reached there.
class Replay : public RunObserver {
 public:
  // `counted` (joint law only): the queries of each phase asked before the start state; they join
  // the key so that only branches with equal counts so far merge.
  Replay(std::optional<Progress> start, const Params& params, const BranchingOracle& oracle,
         int confused, std::optional<std::pair<std::uint64_t, std::uint64_t>> counted)
      : start_(start),
        active_(!start),
        k_(params.k),
        openers_only_(params.rules.anchor == AnchorRule::opener),
        known_rows_(params.rules.anchor == AnchorRule::random_known_row),
        oracle_(oracle),
        confused_(confused),
        counted_(counted) {}

  void queried(const QueryRecord& q) override {
    if (active_) ++(q.phase == 1 ? phase1 : phase2);
  }

  void run_state(const RunState& s) override {
    const bool chosen = s.stage == RunState::Stage::cluster_chosen;
    if (!chosen && s.iteration >= k_) return;  // the last iteration's end: the run finishes
    // The rows the rest of the run may ask about: S_i and the anchors, which are the openers
    // under AnchorRule::opener (a cluster opened later is opened by a row of S_i), any row else.
    live_.assign(s.labels.size(), openers_only_ ? 0 : 1);
    for (std::size_t x : s.remaining)
      live_[x] = 1;
    for (int t : s.known)
      live_[s.openers[static_cast<std::size_t>(t)]] = 1;
    std::string key;
    put(key, s.remaining);
    put(key, s.labels);
    put(key, s.known);
    std::vector<std::size_t> openers;  // the openers of the known clusters only
    for (int t : s.known)
      openers.push_back(s.openers[static_cast<std::size_t>(t)]);
    put(key, openers);
    // placed_ is read only by AnchorRule::random_known_row (Run::known_rows).
    if (known_rows_) put(key, s.placed);
    put(key, s.recovered);
    put(key, s.recovery_order);
    if (chosen) {
      // What Phase 2 reads besides: p, mu'_p (its exact bits), Z_p as a multiset (every draw of
      // B reads a row, BranchingChooser) and its first row (the plain search's z).
      key += std::to_string(chosen_p_) + '|';
      for (Eigen::Index d = 0; d < center_.size(); ++d) {
        const double c = center_(d);
        std::uint64_t bits = 0;
        std::memcpy(&bits, &c, sizeof bits);
        key += std::to_string(bits) + ',';
      }
      key += '|';
      put(key, zp_sorted_);
      key += std::to_string(zp_front_) + '|';
      phase1_key_ = key;
      boundary({s.iteration, 0, 0}, std::move(key));
    } else {
      boundary({s.iteration, 2, 0}, std::move(key));
    }
  }

  void cluster_chosen(const Iteration& it) override {
    chosen_p_ = it.p;
    center_ = it.center;
    zp_sorted_.clear();
    for (std::size_t s = 0; s < it.sample.size(); ++s)
      if (it.assignment[s] == it.p) zp_sorted_.push_back(it.sample[s]);
    zp_front_ = zp_sorted_.front();
    std::sort(zp_sorted_.begin(), zp_sorted_.end());
  }

  // After a search step the search's own state is (lo, hi), or over on a fail.
  void step_taken(const Iteration& it, const SearchStep& step) override {
    std::ptrdiff_t lo = step.lo, hi = step.hi;
    const auto j = static_cast<std::ptrdiff_t>(step.j);
    if (step.decision == Decision::in) lo = j + 1;
    if (step.decision == Decision::out) hi = j - 1;
    std::string key = phase1_key_;
    key += std::to_string(lo) + ',' + std::to_string(hi) + ',' +
           std::to_string(static_cast<int>(step.decision)) + '|';
    boundary({it.index, 1, static_cast<int>(it.steps.size()) + 1}, std::move(key));
  }

  bool active() const { return active_; }
  std::uint64_t phase1 = 0, phase2 = 0;
  Progress reached;
  std::string key;

 private:
  void boundary(Progress at, std::string k) {
    if (!active_) {
      if (at == *start_) active_ = true;
      return;
    }
    k += std::to_string(confused_) + '|';
    oracle_.append_state(k, live_);
    if (counted_)
      k += '|' + std::to_string(counted_->first + phase1) + ',' +
           std::to_string(counted_->second + phase2) + '|';
    reached = at;
    key = std::move(k);
    throw StopAtBoundary{};
  }

  std::optional<Progress> start_;
  bool active_;
  int k_;
  bool openers_only_, known_rows_;
  std::vector<char> live_;
  const BranchingOracle& oracle_;
  int confused_;
  std::optional<std::pair<std::uint64_t, std::uint64_t>> counted_;
  int chosen_p_ = 0;
  Vector center_;
  std::vector<std::size_t> zp_sorted_;
  std::size_t zp_front_ = 0;
  std::string phase1_key_;
};

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

ExactResult exact_distribution(const Matrix& X, const std::vector<int>& labels,
                               const ExactOracle& oracle, const Params& params,
                               const ExactOptions& options) {
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

  ExactResult out;
  out.states.assign(static_cast<std::size_t>(params.k), 0);
  struct Node {
    std::vector<std::uint32_t> prefix;
    Rational p;
    std::uint64_t phase1 = 0, phase2 = 0;  // queries before this state (joint law only)
  };
  // The states still to explore, by where they are; a branch only reaches states further on, so
  // the first group is complete when it is taken (every branch into it has been explored).
  std::map<Progress, std::map<std::string, Node>> pending;
  std::map<std::pair<std::vector<int>, int>, Rational> outcomes;
  std::map<std::tuple<std::vector<int>, std::uint64_t, std::uint64_t, int>, Rational> joint;
  const std::size_t n = labels.size();
  auto explore = [&](std::optional<Progress> start, const Node& node) {
    Branches br(node.prefix);
    do {
      br.restart();
      if (++out.branches > options.max_branches)
        throw ParameterError("--max-branches = " + std::to_string(options.max_branches) +
                             " is too small: the exact enumeration needs more branches (raise "
                             "it, or choose a smaller instance)");
      int c = 0;
      if (correlated) c = static_cast<int>(br.decide(correlated_w));
      Oracle& base = correlated ? (c == 0 ? static_cast<Oracle&>(*calm) : *confused) : *fixed;
      BranchingOracle bo(br, base, random, spec.memory == OracleMemory::per_pair, oracle.q,
                         oracle.coin_flip);
      BranchingChooser chooser(br);
      Replay obs(start, params, bo, c,
                 options.joint_queries ? std::optional(std::pair(node.phase1, node.phase2))
                                       : std::nullopt);
      std::optional<Result> R;
      try {
        R.emplace(options.run ? options.run(X, bo, chooser, params, &obs)
                              : run_ssac(X, bo, chooser, params, &obs));
      } catch (const StopAtBoundary&) {
      }
      const Rational p = node.p * br.probability();
      out.expected_queries_phase1 += p * obs.phase1;
      out.expected_queries_phase2 += p * obs.phase2;
      if (!obs.active())  // the replay must pass through its start state
        throw std::logic_error("exact enumeration: a replay missed its start state");
      if (R) {
        outcomes[{R->labels, R->clusters_recovered}] += p;
        if (options.joint_queries)
          joint[{R->labels, node.phase1 + obs.phase1, node.phase2 + obs.phase2,
                 R->clusters_recovered}] += p;
        continue;
      }
      auto& group = pending[obs.reached];
      const auto [it, fresh] = group.try_emplace(std::move(obs.key));
      if (fresh) {
        it->second.prefix = br.taken();
        it->second.phase1 = node.phase1 + obs.phase1;
        it->second.phase2 = node.phase2 + obs.phase2;
        ++out.states[static_cast<std::size_t>(obs.reached.iteration - 1)];
      }
      it->second.p += p;
    } while (br.next());
  };
  explore(std::nullopt, {{}, Rational(1), 0, 0});
  while (!pending.empty()) {
    const Progress at = pending.begin()->first;
    const std::map<std::string, Node> group = std::move(pending.begin()->second);
    pending.erase(pending.begin());
    for (const auto& [key, node] : group)
      explore(at, node);
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
  return out;
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
