// Algorithm 1 of the paper with the cluster-assignment query of Definition 4 and the Phase-2
// searches of Algorithms 2, 3 and 4 (and the original SSAC's plain search), as the member
// functions of Run in the order of the paper's lines. About 500 lines, one file on purpose: a
// reader follows one run from line 1 to line 13 here; the rules of the authors' code
// (rules.cpp) and the order of S_i by distance (order.cpp) live beside it.
#include "ssac/ssac.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <numeric>

#include "algorithm/run.hpp"
#include "ssac/error.hpp"
#include "ssac/ranges.hpp"

namespace ssac {

const char* to_string(Purpose p) {
  switch (p) {
    case Purpose::assignment:
      return "assignment";
    case Purpose::search_x1:
      return "search_x1";
    case Purpose::search_z:
      return "search_z";
    case Purpose::search_sample:
      break;
  }
  return "search_sample";
}

const char* to_string(Decision d) {
  switch (d) {
    case Decision::in:
      return "in";
    case Decision::out:
      return "out";
    case Decision::fail:
      break;
  }
  return "fail";
}

const char* to_string(Outcome o) {
  switch (o) {
    case Outcome::recovered:
      return "recovered";
    case Outcome::empty_cluster:
      return "empty_cluster";
    case Outcome::phase1_all_not_sure:
      return "phase1_all_not_sure";
    case Outcome::search_failed:
      return "search_failed";
    case Outcome::empty_remainder:
      break;
  }
  return "empty_remainder";
}

std::uint64_t Params::sample_size() const {
  // r = ceil(k * eta) of the exact real product. fl(k * eta) may round the product down onto an
  // integer; fma recovers the rounding error exactly, so the ceiling is never one too small.
  const double kd = static_cast<double>(k);
  const double prod = kd * eta;
  double c = std::ceil(prod);
  if (c == prod && std::fma(kd, eta, -prod) > 0.0) c += 1.0;
  return static_cast<std::uint64_t>(c);
}

void Params::check(std::size_t n) const {
  range::check_k(k, n);
  range::check_eta(eta, k);
  range::check_beta(beta);
}

namespace detail {

// Vectors whose final length is known are reserved up to this many entries at once (a hint only:
// the records are the same either way).
constexpr std::size_t kReserveCap = std::size_t{1} << 16;

// A run's Scratch is this thread's spare one for as long as the run lasts: swapped in at the start
// and back at the end, so that consecutive runs on a thread (the fits of an experiment) reuse one
// set of buffers. A run nested in another on the same thread finds the spare empty and allocates.
template <class S>
class ScratchLoan {
 public:
  explicit ScratchLoan(S& s) : s_(s) { std::swap(s_, spare()); }
  ~ScratchLoan() { std::swap(s_, spare()); }
  ScratchLoan(const ScratchLoan&) = delete;
  ScratchLoan& operator=(const ScratchLoan&) = delete;

 private:
  static S& spare() {
    thread_local S s;
    return s;
  }
  S& s_;
};

// ---------------------------------------------------------------------------------------------
// Algorithm 1.

Result Run::run_from(Result* reuse) {
  const std::size_t n = static_cast<std::size_t>(X_.rows());
  P_.check(n);
  const ScratchLoan loan(scratch_);
  if (reuse) recycle(*reuse);
  {
    // At most k iterations of r draws asking up to k anchors each, then bit_width(n) probes of at
    // most beta queries each: reserved at once rather than grown by copying.
    const double k = P_.k, most = k * (static_cast<double>(P_.sample_size()) * k +
                                       static_cast<double>(std::bit_width(n)) * P_.beta);
    R_.queries.reserve(static_cast<std::size_t>(std::min(most, double(kReserveCap))));
  }
  R_.labels.assign(n, 0);
  S_.resize(n);  // line 1: S_1 = X
  std::iota(S_.begin(), S_.end(), std::size_t{0});
  recovered_.assign(static_cast<std::size_t>(P_.k) + 1, 0);
  opener_.assign(static_cast<std::size_t>(P_.k) + 1, n);
  placed_.assign(n, 0);
  known_.clear();
  iterate(1, nullptr);
  finish();
  observer_.finished(R_);
  return std::move(R_);
}

Result Run::resume(const Resume& at) {
  P_.check(static_cast<std::size_t>(X_.rows()));
  const ScratchLoan loan(scratch_);
  interleave_ = true;
  R_.labels = at.labels;
  S_ = at.S;
  recovered_ = at.recovered;
  opener_ = at.opener;
  placed_ = at.placed;
  known_ = at.known;
  R_.recovery_order = at.recovery_order;
  iterate(at.iteration, at.sample.empty() ? nullptr : &at);
  finish();
  observer_.finished(R_);
  return std::move(R_);
}

void Run::iterate(int first, const Resume* within) {
  for (int i = first; i <= P_.k; ++i) {  // line 2
    iteration_ = i;
    Iteration it = fresh_iteration();
    it.index = i;
    it.remaining = S_.size();
    if (within && i == first) {
      it.sample = within->sample;
      it.assignment = within->assignment;
    } else {
      observer_.iteration_started(it);
      if (S_.empty()) {  // S8: nothing left to sample; the remaining iterations are skipped
        it.outcome = Outcome::empty_remainder;
        observer_.iteration_ended(it);
        R_.iterations.push_back(std::move(it));
        break;
      }
    }
    std::vector<std::size_t>& zp = scratch_.zp;
    zp.clear();
    if (phase1(it, zp)) phase2(it, zp);
    observer_.iteration_ended(it);
    R_.iterations.push_back(std::move(it));
    observer_.run_state({RunState::Stage::iteration_ended, i, S_, R_.labels, known_, opener_,
                         placed_, recovered_, R_.recovery_order, R_.iterations.back()});
  }
}

namespace {

// `to` takes the storage of `from`, emptied.
template <class V>
void take(V& to, V& from) {
  to = std::move(from);
  to.clear();
}

}  // namespace

// run_into's Result, taken apart for its storage: its records go to the spares, its vectors to
// R_, emptied (labels are overwritten in full below).
void Run::recycle(Result& old) {
  for (Iteration& it : old.iterations) {
    for (SearchStep& step : it.steps)
      scratch_.steps.push_back(std::move(step));
    scratch_.iterations.push_back(std::move(it));
  }
  take(R_.labels, old.labels);
  take(R_.iterations, old.iterations);
  take(R_.queries, old.queries);
  take(R_.recovery_order, old.recovery_order);
  take(R_.openers, old.openers);
  while (!old.centers.empty())
    scratch_.center_nodes.push_back(old.centers.extract(old.centers.begin()));
  while (!old.radii.empty())
    scratch_.radius_nodes.push_back(old.radii.extract(old.radii.begin()));
}

namespace {

// map[key] = value, in a node of `spare` when the key is new and a spare node is left (its
// storage reused: a centre of the same dimension is copied without allocating).
template <class Map>
void put(Map& map, std::vector<typename Map::node_type>& spare, int key,
         const typename Map::mapped_type& value) {
  if (const auto at = map.find(key); at != map.end()) {
    at->second = value;
    return;
  }
  if (spare.empty()) {
    map.emplace(key, value);
    return;
  }
  typename Map::node_type node = std::move(spare.back());
  spare.pop_back();
  node.key() = key;
  node.mapped() = value;
  map.insert(std::move(node));
}

}  // namespace

namespace {

// A default-constructed record whose vectors have taken (by take_vectors) the storage of the last
// of `spares`, which is dropped.
template <class Record, class F>
Record fresh(std::vector<Record>& spares, F take_vectors) {
  Record r;
  if (spares.empty()) return r;
  take_vectors(r, spares.back());
  spares.pop_back();
  return r;
}

}  // namespace

Iteration Run::fresh_iteration() {
  return fresh(scratch_.iterations, [](Iteration& it, Iteration& old) {
    take(it.sample, old.sample);
    take(it.assignment, old.assignment);
    take(it.steps, old.steps);
    take(it.members, old.members);
  });
}

SearchStep Run::fresh_step() {
  return fresh(scratch_.steps, [](SearchStep& step, SearchStep& old) {
    take(step.sample, old.sample);
    take(step.sample_answers, old.sample_answers);
  });
}

// Lines 3-8. Returns false when every cluster-assignment query was not-sure (no p, S8).
bool Run::phase1(Iteration& it, std::vector<std::size_t>& zp) {
  // Line 4: Z ~ Uniform(S_i, r), r = ceil(k eta) draws with replacement (line 1, S1), or at most
  // |S_i| of them under Rules::sample_cap.
  std::uint64_t r = P_.sample_size();
  if (P_.rules.sample_cap) r = std::min<std::uint64_t>(r, S_.size());
  it.sample.reserve(static_cast<std::size_t>(std::min<std::uint64_t>(r, kReserveCap)));
  it.assignment.reserve(it.sample.capacity());
  if (!interleave_) {
    for (std::uint64_t s = 0; s < r; ++s)
      it.sample.push_back(S_[chooser_.choose(S_, Draw::phase1_sample)]);
    observer_.sample_drawn(it);
  }
  // Lines 5-7: a cluster-assignment query for every draw, in draw order (from the first draw not
  // yet asked about, after a resume).
  for (std::size_t s = it.assignment.size(); s < r; ++s) {
    if (interleave_) it.sample.push_back(S_[chooser_.choose(S_, Draw::phase1_sample)]);
    const std::size_t x = it.sample[s];
    const int t = assign(x);
    it.assignment.push_back(t);
    if (t > 0) {
      placed_[x] = t;
      on_placed(x, t);
    }
    if (observed_)
      observer_.run_state({RunState::Stage::draw_assigned, iteration_, S_, R_.labels, known_,
                           opener_, placed_, recovered_, R_.recovery_order, it});
  }
  observer_.assigned(it);
  // Line 8: p and mu'_p; counts[i] = |Z_t| for the i-th known cluster t, counted by cluster
  // number (1..k) first: every t of the assignment is known by now.
  std::vector<std::size_t>& by_number = scratch_.by_number;
  by_number.assign(static_cast<std::size_t>(P_.k) + 1, 0);
  for (int t : it.assignment)
    ++by_number[static_cast<std::size_t>(t)];
  std::vector<std::size_t>& counts = scratch_.counts;
  counts.resize(known_.size());
  for (std::size_t i = 0; i < known_.size(); ++i)
    counts[i] = by_number[static_cast<std::size_t>(known_[i])];
  const int chosen = choose_cluster(counts);
  if (chosen == 0) {
    it.outcome = Outcome::phase1_all_not_sure;
    return false;
  }
  const int p = known_[static_cast<std::size_t>(chosen - 1)];
  for (std::size_t s = 0; s < it.sample.size(); ++s)  // Z_p as a multiset, in draw order
    if (it.assignment[s] == p) zp.push_back(it.sample[s]);
  it.p = p;
  it.zp_size = zp.size();
  it.revisited = recovered_[static_cast<std::size_t>(p)] != 0;
  it.center = estimate_center(zp, it);
  return true;
}

int Run::choose_cluster(const std::vector<std::size_t>& counts) const {
  return choose_by_counts(counts);
}

int Run::choose_by_counts(const std::vector<std::size_t>& counts) {
  // The position (1-based) in the known clusters; ties go to the earliest-discovered (S7).
  int p = 0;
  for (std::size_t t = 0; t < counts.size(); ++t)
    if (counts[t] > 0 && (p == 0 || counts[t] > counts[static_cast<std::size_t>(p - 1)]))
      p = static_cast<int>(t + 1);
  return p;
}

Vector Run::estimate_center(const std::vector<std::size_t>& zp, const Iteration&) const {
  return mean_of_rows(X_, zp);
}

// Lines 9-13.
void Run::phase2(Iteration& it, const std::vector<std::size_t>& zp) {
  DistanceOrder& order = order_by_distance(it.center);  // line 10
  it.x1 = reference_point(order);
  observer_.cluster_chosen(it);
  observer_.run_state({RunState::Stage::cluster_chosen, iteration_, S_, R_.labels, known_, opener_,
                       placed_, recovered_, R_.recovery_order, it});
  binary_search(it, order, zp);  // lines 11-12
  if (it.outcome != Outcome::search_failed) {
    it.radius = it.j_star < order.size() ? order.at(it.j_star).first
                                         : std::numeric_limits<double>::infinity();
    assign_cluster(it, order);  // line 13
  }
  R_.comparisons += order.comparisons();
}

// Line 10: S_i ordered by d(x, mu'_p), ties by row (S6). The distances, and the comparisons the
// order makes, are the Phase-2 cost Corollary 1 counts.
DistanceOrder& Run::order_by_distance(const Vector& center) {
  std::vector<double>& d = scratch_.distances;
  d.resize(S_.size());
  distances(X_, S_, center, d.data());
  R_.distance_evaluations += S_.size();
  // A replay that follows a trace's order among exactly equal distances (ReplayOptions) is
  // asked for its ranks; a run of its own has no hook and builds no pairs.
  const TieRanks* ranks = nullptr;
  if (tie_hook_) {
    std::vector<DistanceOrder::Entry> entries;
    entries.reserve(S_.size());
    for (std::size_t i = 0; i < S_.size(); ++i)
      entries.emplace_back(d[i], S_[i]);
    ranks = tie_hook_(iteration_, entries);
  }
  scratch_.order.assign(d.data(), S_.data(), S_.size(), order_method_, tie_order_, ranks);
  return scratch_.order;
}

// Line 13: C'_p = {x in S_i : d(x, mu'_p) < r'_i} (strict, S6), or the first j* rows of the
// order (Rules::assignment); S_{i+1} = S_i \ C'_p; C = C u {C'_p}. Either lies within the first j*
// positions of the order: r'_i is the distance at position j*.
void Run::assign_cluster(Iteration& it, DistanceOrder& order) {
  const int p = it.p;
  const bool prefix = P_.rules.assignment == Phase2Labels::prefix;
  std::vector<char>& in = scratch_.in;
  in.assign(static_cast<std::size_t>(X_.rows()), 0);
  const std::size_t j = std::min(it.j_star, order.size());
  std::size_t assigned = 0;
  order.for_prefix(j, [&](const DistanceOrder::Entry& e) {
    if (!prefix && !(e.first < it.radius)) return;
    in[e.second] = 1;
    ++assigned;
    R_.labels[e.second] = p;  // overwrites an opener's label only under Rules::overwrite
  });
  // S_i split into C'_p and S_{i+1}, both in increasing row order as S_i is kept. Their sizes are
  // known, so the rows are written through plain pointers: a vector's push_back would reload the
  // vector's end after every store through the char flags, which may alias it.
  std::vector<std::size_t>& rest = scratch_.rest;
  rest.resize(S_.size() - assigned);
  it.members.resize(assigned);
  it.assigned = assigned;
  const char* const flag = in.data();
  std::size_t* member = it.members.data();
  std::size_t* other = rest.data();
  for (std::size_t x : S_) {
    if (flag[x])
      *member++ = x;
    else
      *other++ = x;
  }
  S_.swap(rest);
  if (P_.rules.overwrite) forget_unlabelled_clusters();
  if (it.assigned == 0) {
    it.outcome = Outcome::empty_cluster;
    if (!P_.rules.empty_recovers) return;
  }
  if (!recovered_[static_cast<std::size_t>(p)]) R_.recovery_order.push_back(p);
  recovered_[static_cast<std::size_t>(p)] = 1;
  put(R_.centers, scratch_.center_nodes, p, it.center);
  put(R_.radii, scratch_.radius_nodes, p, it.radius);
}

// Rules::overwrite: a known cluster none of whose rows carries its label any more is forgotten:
// no longer known, not recovered, its centre dropped, its number free for the next opener.
void Run::forget_unlabelled_clusters() {
  std::vector<char> labelled(static_cast<std::size_t>(P_.k) + 1, 0);
  for (int l : R_.labels)
    if (l > 0) labelled[static_cast<std::size_t>(l)] = 1;
  std::vector<int> kept;
  for (int t : known_) {
    if (labelled[static_cast<std::size_t>(t)]) {
      kept.push_back(t);
      continue;
    }
    const auto ti = static_cast<std::size_t>(t);
    recovered_[ti] = 0;
    opener_[ti] = static_cast<std::size_t>(X_.rows());
    std::replace(placed_.begin(), placed_.end(), t, 0);
    std::erase(R_.recovery_order, t);
    R_.centers.erase(t);
    R_.radii.erase(t);
  }
  known_.swap(kept);
}

// #Failure of Section 5.2 (S8) and the run's status line.
void Run::finish() {
  R_.clusters_recovered = static_cast<int>(R_.recovery_order.size());
  R_.failed = R_.clusters_recovered < P_.k;
  std::string status;
  for (const auto& it : R_.iterations) {
    if (it.outcome == Outcome::recovered) continue;
    status += (status.empty() ? "" : "; ") + std::string("iteration ") + std::to_string(it.index) +
              ": " + to_string(it.outcome);
  }
  if (R_.failed)
    status += (status.empty() ? "" : "; ") + std::string("fewer than k clusters recovered (") +
              std::to_string(R_.clusters_recovered) + " of " + std::to_string(P_.k) + ")";
  R_.status = status.empty() ? "ok" : status;
}

// ---------------------------------------------------------------------------------------------
// Queries.

Answer Run::ask(std::size_t x, std::size_t y, int phase, Purpose purpose) {
  const Answer a = oracle_.query(x, y);
  R_.queries.push_back({iteration_, phase, purpose, x, y, a});
  (phase == 1 ? R_.queries_phase1 : R_.queries_phase2) += 1;
  if (observed_) observer_.queried(R_.queries.back());
  return a;
}

int Run::assign(std::size_t x) {
  const std::size_t known = known_.size();
  std::vector<std::size_t>& anchor = scratch_.anchor;
  anchor.resize(known);
  for (std::size_t i = 0; i < known; ++i)
    anchor[i] = anchor_of(known_[i], x);
  // Under self-pairs=off a point that is itself an anchor is assignment-known without a query;
  // by default (S4) it is asked like any other point, so whether a draw is placed depends on its
  // cluster and the known clusters, not on which point of its cluster it is (the probabilities
  // still differ between clusters when k >= 3: proofs-notes/lemma-distance-ran.md).
  if (!P_.rules.self_pairs)
    for (std::size_t i = 0; i < known; ++i)
      if (anchor[i] == x) return known_[i];
  // Definition 4: one weak same-cluster query per known cluster, asked in discovery order.
  int first_yes = 0, unsure_t = 0;
  std::size_t no_count = 0, unsure_count = 0;
  for (std::size_t i = 0; i < known; ++i) {
    // Tallied without a branch on the answer, which a weak oracle makes unpredictable.
    const Answer a = ask(x, anchor[i], 1, Purpose::assignment);
    const int t = known_[i];
    first_yes = a == Answer::Yes && first_yes == 0 ? t : first_yes;
    no_count += a == Answer::No;
    unsure_count += a == Answer::NotSure;
    unsure_t = a == Answer::NotSure ? t : unsure_t;
  }
  // A yes gives the cluster (an oracle that never lies says yes to at most one anchor; for one
  // that does, the first yes counts, S2).
  if (first_yes) return first_yes;
  // No from every known anchor while fewer than k clusters are known: x opens a cluster (S3).
  if (no_count == known && known < static_cast<std::size_t>(P_.k)) return open_cluster(x);
  // With all k clusters known, k-1 no answers identify the cluster: that of the one anchor that
  // answered not-sure (only if x's cluster is among the k: Params::eliminates).
  if (P_.eliminates() && known == static_cast<std::size_t>(P_.k) && unsure_count == 1 &&
      no_count == known - 1)
    return unsure_t;
  return unplaced(x);
}

int Run::open_cluster(std::size_t x) {
  int t = 1;
  while (std::find(known_.begin(), known_.end(), t) != known_.end())
    ++t;
  known_.push_back(t);
  opener_[static_cast<std::size_t>(t)] = x;
  R_.openers.push_back(x);
  if (P_.rules.overwrite) R_.labels[x] = t;  // the authors' code labels an opener at once
  return t;
}

std::vector<std::size_t> Run::known_rows(int t) const {
  std::vector<std::size_t> rows;
  const std::size_t opener = opener_[static_cast<std::size_t>(t)];
  // Under random-known-row the rows a Phase-1 query has placed in t count too: a yes (or an
  // elimination) makes a row known to be in t as surely as Phase 2's label does. Which reading of
  // "known" is taken decides Theorems 2 and 3 (proofs-notes/anchor-rules.md).
  const bool placed_count = P_.rules.anchor == AnchorRule::random_known_row;
  for (std::size_t x = 0; x < R_.labels.size(); ++x)
    if (R_.labels[x] == t || (!P_.rules.overwrite && x == opener) ||
        (placed_count && placed_[x] == t))
      rows.push_back(x);
  return rows;
}

std::size_t Run::anchor_of(int t, std::size_t x) {
  switch (P_.rules.anchor) {
    case AnchorRule::opener:
      return opener_[static_cast<std::size_t>(t)];
    case AnchorRule::lowest_labelled_row:
    case AnchorRule::random_labelled_row:
    case AnchorRule::random_known_row:
      break;
  }
  const std::vector<std::size_t>& rows = anchor_pool(t);
  // A known cluster always has a known row: its opener, until Phase 2 overwrites the opener's
  // label, and then forget_unlabelled_clusters removes the cluster if no other row has it.
  if (rows.empty()) return opener_[static_cast<std::size_t>(t)];
  if (P_.rules.anchor == AnchorRule::lowest_labelled_row) return rows.front();
  const std::size_t at = chooser_.choose(rows, Draw::anchor);
  // A trace records the draw (docs/trace-format.md, version 4), so that a replay can hand it back.
  observer_.anchor_drawn({iteration_, x, t, rows, at});
  return rows[at];
}

// ---------------------------------------------------------------------------------------------
// Phase 2: "Standard binary search" (Algorithms 2-4, line 1), S6: positions 0..|S_i|-1 of the
// sorted S_i, probe j = floor((lo + hi) / 2), "in C_p" moves lo to j + 1, otherwise hi to j - 1;
// the search ends when lo > hi, and j* = lo is the smallest position judged not in C_p.

std::size_t Run::reference_point(DistanceOrder& order) const {
  return order.at(0).second;
}

std::size_t Run::stop_position(std::size_t lo) const {
  return lo;
}

void Run::binary_search(Iteration& it, DistanceOrder& order, const std::vector<std::size_t>& zp) {
  const std::size_t x1 = it.x1;
  const std::size_t z = zp.front();  // the plain search's point: the first of Z_p (S6)
  std::ptrdiff_t lo = 0, hi = static_cast<std::ptrdiff_t>(order.size()) - 1;
  it.steps.reserve(static_cast<std::size_t>(std::bit_width(order.size())));  // at most that many
  while (lo <= hi) {
    SearchStep step = fresh_step();
    step.lo = lo;
    step.hi = hi;
    step.j = static_cast<std::size_t>(lo + (hi - lo) / 2);
    const std::size_t xj = order.at(step.j).second;
    step.row = xj;
    switch (P_.search) {
      case Search::random:
        step.decision = search_random_weak(xj, zp, step);
        break;
      case Search::distance:
        step.decision = search_distance_weak(x1, xj, step);
        break;
      case Search::unified:
        step.decision = search_unified(x1, xj, zp, step);
        break;
      case Search::plain:
        step.decision = search_plain(z, xj, step);
        break;
    }
    observer_.step_taken(it, step);
    const Decision d = step.decision;
    const std::size_t j = step.j;
    it.steps.push_back(std::move(step));
    if (d == Decision::fail) {
      it.outcome = Outcome::search_failed;
      return;
    }
    if (d == Decision::in)
      lo = static_cast<std::ptrdiff_t>(j) + 1;
    else
      hi = static_cast<std::ptrdiff_t>(j) - 1;
  }
  it.j_star = stop_position(static_cast<std::size_t>(lo));
}

// Algorithm 2, lines 3-7: beta queries Q(y, x_j), y in B; all not-sure returns fail.
Decision Run::search_random_weak(std::size_t xj, const std::vector<std::size_t>& zp,
                                 SearchStep& step) {
  return vote(xj, zp, static_cast<std::size_t>(P_.beta), false, step);
}

// Algorithm 3, lines 3-4: Q(x_1, x_j) = 1 means in; no and not-sure both mean out.
Decision Run::search_distance_weak(std::size_t x1, std::size_t xj, SearchStep& step) {
  if (!asks(x1, xj)) return Decision::in;  // self-pairs=off (S4): a point is in its own cluster
  step.x1_asked = true;
  ++step.queries;
  step.x1_answer = ask(x1, xj, 2, Purpose::search_x1);
  return step.x1_answer == Answer::Yes ? Decision::in : Decision::out;
}

// Algorithm 4, lines 4-15.
Decision Run::search_unified(std::size_t x1, std::size_t xj, const std::vector<std::size_t>& zp,
                             SearchStep& step) {
  if (!asks(x1, xj)) return Decision::in;  // self-pairs=off (S4)
  step.x1_asked = true;
  ++step.queries;
  step.x1_answer = ask(x1, xj, 2, Purpose::search_x1);
  if (step.x1_answer == Answer::Yes) return Decision::in;  // line 5
  if (step.x1_answer == Answer::No) return Decision::out;  // line 7
  // Lines 9-14: beta - 1 more queries Q(x_j, y), y in B (Q(y, x_j) under b-order=b-first); "in"
  // on a yes, otherwise out (the unified search never fails: all not-sure counts as out).
  const Decision d = vote(xj, zp, static_cast<std::size_t>(P_.beta - 1), !P_.rules.b_first, step);
  return d == Decision::fail ? Decision::out : d;
}

// Ashtiani et al.'s binary search: one query Q(z, x_j) with a point z of Z_p; a yes/no oracle is
// assumed, so anything but yes counts as no.
Decision Run::search_plain(std::size_t z, std::size_t xj, SearchStep& step) {
  if (!asks(z, xj)) return Decision::in;  // self-pairs=off (S4)
  step.z_asked = true;
  ++step.queries;
  step.z_answer = ask(z, xj, 2, Purpose::search_z);
  return step.z_answer == Answer::Yes ? Decision::in : Decision::out;
}

// B: `draws` points from Z_p, uniformly with replacement (S5); each gives one query, Q(x_j, y)
// when x_first, else Q(y, x_j). In on any yes, out on a no without a yes, fail when all not-sure.
Decision Run::vote(std::size_t xj, const std::vector<std::size_t>& zp, std::size_t draws,
                   bool x_first, SearchStep& step) {
  bool yes = false, no = false;
  step.sample.reserve(std::min(draws, kReserveCap));
  step.sample_answers.reserve(std::min(draws, kReserveCap));
  for (std::size_t b = 0; b < draws; ++b) {
    const std::size_t y = zp[chooser_.choose(zp, Draw::search_sample)];
    Answer a = Answer::Yes;  // y = x_j under self-pairs=off: taken as yes, no query (S4)
    if (asks(y, xj)) {
      a = x_first ? ask(xj, y, 2, Purpose::search_sample) : ask(y, xj, 2, Purpose::search_sample);
      ++step.queries;
    }
    step.sample.push_back(y);
    step.sample_answers.push_back(a);
    yes |= a == Answer::Yes;
    no |= a == Answer::No;
  }
  if (yes) return Decision::in;
  if (no) return Decision::out;
  return Decision::fail;
}

}  // namespace detail

Result run_ssac(const Matrix& X, Oracle& oracle, Chooser& chooser, const Params& params,
                RunObserver* observer) {
  RunObserver none;
  return detail::Run(X, oracle, chooser, params, observer ? *observer : none).run();
}

void run_ssac_into(Result& out, const Matrix& X, Oracle& oracle, Chooser& chooser,
                   const Params& params) {
  RunObserver none;
  detail::Run(X, oracle, chooser, params, none).run_into(out);
}

Result run_ssac(const Matrix& X, Oracle& oracle, const Params& params, std::uint64_t seed,
                RunObserver* observer) {
  UniformChooser chooser(Rng::stream(seed, {kStreamAlgorithm}));
  return run_ssac(X, oracle, chooser, params, observer);
}

}  // namespace ssac
