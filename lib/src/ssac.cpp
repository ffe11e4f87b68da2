#include "ssac/ssac.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "ssac/error.hpp"

namespace ssac {

const char* to_string(Search s) {
  switch (s) {
    case Search::random:
      return "random";
    case Search::distance:
      return "distance";
    case Search::unified:
      return "unified";
    case Search::plain:
      break;
  }
  return "plain";
}

const char* to_string(Purpose p) {
  switch (p) {
    case Purpose::assignment:
      return "assignment";
    case Purpose::search_anchor:
      return "search_anchor";
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

// Upper limit on r = ceil(k eta): Phase 1 stores its r draws, and a larger sample is no longer a
// sampling number but a typo.
static constexpr std::uint64_t kMaxSampleSize = 100000000;

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
  if (k < 1 || static_cast<std::size_t>(k) > n)
    throw_out_of_range("k", static_cast<long long>(k), "[1, n] = [1, " + std::to_string(n) + "]");
  if (!(eta > 0.0) || !std::isfinite(eta)) throw_out_of_range("eta", eta, "(0, inf)");
  if (static_cast<double>(k) * eta > static_cast<double>(kMaxSampleSize))
    throw_out_of_range("eta", eta, "(0, 1e8 / k] (r = ceil(k eta) must stay at most 1e8 samples)");
  if (beta < 1 || beta > 1000000)
    throw_out_of_range("beta", static_cast<long long>(beta), "[1, 1000000]");
}

namespace {

// One run's state; the member functions follow the paper's algorithms line by line.
class Run {
 public:
  Run(const Matrix& X, Oracle& oracle, Chooser& chooser, const Params& params)
      : X_(X), oracle_(oracle), chooser_(chooser), P_(params) {}

  Result run();

 private:
  Answer ask(std::size_t x, std::size_t y, int phase, Purpose purpose);
  int assign(std::size_t x);  // Definition 4 and the appendix paragraph
  void search(Iteration& it, const std::vector<std::size_t>& sorted,
              const std::vector<std::size_t>& zp);
  Decision vote(std::size_t xj, const std::vector<std::size_t>& zp, std::size_t draws, bool x_first,
                SearchStep& step);

  const Matrix& X_;
  Oracle& oracle_;
  Chooser& chooser_;
  const Params& P_;
  Result R_;
  int iteration_ = 0;
};

Answer Run::ask(std::size_t x, std::size_t y, int phase, Purpose purpose) {
  const Answer a = oracle_.query(x, y);
  R_.queries.push_back({iteration_, phase, purpose, x, y, a});
  (phase == 1 ? R_.queries_phase1 : R_.queries_phase2) += 1;
  return a;
}

int Run::assign(std::size_t x) {
  auto& anchors = R_.anchors;
  const int known = static_cast<int>(anchors.size());
  // A point that is itself an anchor is assignment-known: no query (S4, self-pairs).
  for (int t = 1; t <= known; ++t)
    if (anchors[static_cast<std::size_t>(t - 1)] == x) return t;
  // Definition 4: one weak same-cluster query per known cluster, asked in discovery order.
  int first_yes = 0, no_count = 0, unsure_t = 0, unsure_count = 0;
  for (int t = 1; t <= known; ++t) {
    const Answer a = ask(x, anchors[static_cast<std::size_t>(t - 1)], 1, Purpose::assignment);
    if (a == Answer::Yes && first_yes == 0) first_yes = t;
    if (a == Answer::No) ++no_count;
    if (a == Answer::NotSure) {
      ++unsure_count;
      unsure_t = t;
    }
  }
  // A yes gives the cluster (an oracle that never lies says yes to at most one anchor; for one
  // that does, the first yes counts, S2).
  if (first_yes) return first_yes;
  // No from every known anchor while fewer than k clusters are known: x opens cluster known+1
  // and becomes its anchor (S3).
  if (no_count == known && known < P_.k) {
    anchors.push_back(x);
    return known + 1;
  }
  // With all k clusters known, k-1 definite answers identify the cluster: the one not-sure anchor.
  if (P_.elimination && known == P_.k && unsure_count == 1 && no_count == known - 1)
    return unsure_t;
  return 0;
}

Decision Run::vote(std::size_t xj, const std::vector<std::size_t>& zp, std::size_t draws,
                   bool x_first, SearchStep& step) {
  // B: `draws` points from Z_p, uniformly with replacement (S5); each gives one query.
  bool yes = false, no = false;
  for (std::size_t b = 0; b < draws; ++b) {
    const std::size_t y = zp[chooser_.choose(zp, Draw::search_sample)];
    Answer a = Answer::Yes;  // y = x_j: a point is in its own cluster, no query (S4)
    if (y != xj)
      a = x_first ? ask(xj, y, 2, Purpose::search_sample) : ask(y, xj, 2, Purpose::search_sample);
    step.sample.push_back(y);
    step.sample_answers.push_back(a);
    yes |= a == Answer::Yes;
    no |= a == Answer::No;
  }
  if (yes) return Decision::in;
  if (no) return Decision::out;
  return Decision::fail;
}

void Run::search(Iteration& it, const std::vector<std::size_t>& sorted,
                 const std::vector<std::size_t>& zp) {
  // "Standard binary search" (Algorithms 2-4, line 1), S6: positions 0..|S_i|-1 of the sorted
  // S_i, probe j = floor((lo + hi) / 2), "in C_p" moves lo to j + 1, otherwise hi to j - 1; the
  // search ends when lo > hi and j* = lo is the smallest position judged not in C_p.
  std::size_t x1 = sorted.front();  // Algorithm 3 line 1, Algorithm 4 line 3: closest point
  if (P_.fault == Fault::wrong_anchor) x1 = sorted.back();  // negative control (props/)
  const std::size_t z = zp.front();  // plain search: the first point of Z_p (S6)
  it.anchor = x1;
  std::ptrdiff_t lo = 0, hi = static_cast<std::ptrdiff_t>(sorted.size()) - 1;
  while (lo <= hi) {
    SearchStep step;
    step.lo = lo;
    step.hi = hi;
    step.j = static_cast<std::size_t>(lo + (hi - lo) / 2);
    const std::size_t xj = sorted[step.j];
    step.row = xj;
    Decision d = Decision::out;
    switch (P_.search) {
      case Search::random:
        // Algorithm 2, lines 3-7: beta queries Q(y, x_j), y in B; all not-sure returns fail.
        d = vote(xj, zp, static_cast<std::size_t>(P_.beta), false, step);
        break;
      case Search::distance:
        // Algorithm 3, lines 3-4: Q(x_1, x_j) = 1 means in; no and not-sure both mean out.
        if (xj == x1) {
          d = Decision::in;
        } else {
          step.anchor_asked = true;
          step.anchor_answer = ask(x1, xj, 2, Purpose::search_anchor);
          d = step.anchor_answer == Answer::Yes ? Decision::in : Decision::out;
        }
        break;
      case Search::unified:
        // Algorithm 4, lines 4-15.
        if (xj == x1) {
          d = Decision::in;
          break;
        }
        step.anchor_asked = true;
        step.anchor_answer = ask(x1, xj, 2, Purpose::search_anchor);
        if (step.anchor_answer == Answer::Yes) {
          d = Decision::in;  // line 5
        } else if (step.anchor_answer == Answer::No) {
          d = Decision::out;  // line 7
        } else {
          // Lines 9-14: beta - 1 more queries Q(x_j, y), y in B; "in" on a yes, otherwise out
          // (the unified search never fails: all not-sure counts as out).
          d = vote(xj, zp, static_cast<std::size_t>(P_.beta - 1), true, step);
          if (d == Decision::fail) d = Decision::out;
        }
        break;
      case Search::plain:
        // Ashtiani et al.'s binary search: one query with a point of Z_p.
        if (xj == z) {
          d = Decision::in;
        } else {
          step.anchor_asked = true;
          step.anchor_answer = ask(z, xj, 2, Purpose::search_anchor);
          d = step.anchor_answer == Answer::Yes ? Decision::in : Decision::out;
        }
        break;
    }
    step.decision = d;
    it.steps.push_back(std::move(step));
    if (d == Decision::fail) {
      it.outcome = Outcome::search_failed;
      return;
    }
    if (d == Decision::in)
      lo = static_cast<std::ptrdiff_t>(it.steps.back().j) + 1;
    else
      hi = static_cast<std::ptrdiff_t>(it.steps.back().j) - 1;
  }
  it.j_star = static_cast<std::size_t>(lo);
  if (P_.fault == Fault::off_by_one_search) ++it.j_star;  // negative control (props/)
}

Result Run::run() {
  const std::size_t n = static_cast<std::size_t>(X_.rows());
  P_.check(n);
  R_.labels.assign(n, 0);
  std::vector<std::size_t> S(n);  // S_1 = X, kept in increasing row order
  std::iota(S.begin(), S.end(), std::size_t{0});
  std::vector<char> recovered(static_cast<std::size_t>(P_.k) + 1, 0);
  const std::uint64_t r = P_.sample_size();  // Algorithm 1, line 1

  for (int i = 1; i <= P_.k; ++i) {  // line 2
    iteration_ = i;
    Iteration it;
    it.index = i;
    it.remaining = S.size();
    if (S.empty()) {  // S8: nothing left to sample; the remaining iterations are skipped
      it.outcome = Outcome::empty_remainder;
      R_.iterations.push_back(std::move(it));
      break;
    }
    // Phase 1, line 4: Z ~ Uniform(S_i, r), r draws with replacement (S1).
    for (std::uint64_t s = 0; s < r; ++s)
      it.sample.push_back(S[chooser_.choose(S, Draw::phase1_sample)]);
    // Lines 5-7: a cluster-assignment query for every draw, in draw order.
    std::vector<std::size_t> counts;
    for (std::size_t x : it.sample) {
      const int t = assign(x);
      it.assignment.push_back(t);
      if (t > 0) {
        if (counts.size() < static_cast<std::size_t>(t))
          counts.resize(static_cast<std::size_t>(t), 0);
        ++counts[static_cast<std::size_t>(t - 1)];
      }
    }
    // Line 8: p = argmax_t |Z_t|, ties to the earliest-discovered cluster (S7).
    int p = 0;
    for (std::size_t t = 0; t < counts.size(); ++t)
      if (counts[t] > 0 && (p == 0 || counts[t] > counts[static_cast<std::size_t>(p - 1)]))
        p = static_cast<int>(t + 1);
    if (P_.fault == Fault::p_not_argmax)  // negative control (props/): the smallest non-empty Z_t
      for (std::size_t t = 0; t < counts.size(); ++t)
        if (counts[t] > 0 && counts[t] < counts[static_cast<std::size_t>(p - 1)])
          p = static_cast<int>(t + 1);
    if (p == 0) {
      it.outcome = Outcome::phase1_all_not_sure;
      R_.iterations.push_back(std::move(it));
      continue;
    }
    std::vector<std::size_t> zp;  // Z_p as a multiset, in draw order
    for (std::size_t s = 0; s < it.sample.size(); ++s)
      if (it.assignment[s] == p) zp.push_back(it.sample[s]);
    it.p = p;
    it.zp_size = zp.size();
    it.revisited = recovered[static_cast<std::size_t>(p)] != 0;
    it.center = mean_of_rows(X_, zp);              // mu'_p
    if (P_.fault == Fault::mean_over_all_samples)  // negative control (props/)
      it.center = mean_of_rows(X_, it.sample);

    // Phase 2, line 10: S_i sorted by d(x, mu'_p), ties by row (S6): (distance, row) pairs in
    // lexicographic order, sorted in place (a sort of indices into a distance table costs twice as
    // much for the same order).
    std::vector<std::pair<double, std::size_t>> order;
    order.reserve(S.size());
    for (std::size_t x : S)
      order.emplace_back(distance(X_, x, it.center), x);
    R_.distance_evaluations += S.size();
    std::uint64_t comparisons = 0;
    std::sort(order.begin(), order.end(), [&](const auto& a, const auto& b) {
      ++comparisons;
      return a < b;
    });
    R_.comparisons += comparisons;
    std::vector<std::size_t> sorted(order.size());
    for (std::size_t j = 0; j < order.size(); ++j)
      sorted[j] = order[j].second;

    // Lines 11-12: the search chosen by the oracle model.
    search(it, sorted, zp);
    if (it.outcome == Outcome::search_failed) {
      R_.iterations.push_back(std::move(it));
      continue;
    }
    it.radius =
        it.j_star < order.size() ? order[it.j_star].first : std::numeric_limits<double>::infinity();
    // Line 13: C'_p = {x in S_i : d(x, mu'_p) < r'_i} (strict, S6); S_{i+1} = S_i \ C'_p.
    // The points with d < r' are a prefix of the sorted order; every row of S_i is still
    // unassigned (label 0), so the ones labelled p below are exactly C'_p.
    for (const auto& [d, x] : order) {
      if (!(d < it.radius)) break;
      R_.labels[x] = p;
    }
    std::vector<std::size_t> rest;
    for (std::size_t x : S) {
      if (R_.labels[x] == p) {
        ++it.assigned;
        it.members.push_back(x);  // increasing row order, as S_i is kept
      } else {
        rest.push_back(x);
      }
    }
    S.swap(rest);
    if (it.assigned == 0) {
      it.outcome = Outcome::empty_cluster;
    } else {
      if (!recovered[static_cast<std::size_t>(p)]) R_.recovery_order.push_back(p);
      recovered[static_cast<std::size_t>(p)] = 1;
      R_.centers[p] = it.center;
      R_.radii[p] = it.radius;
    }
    R_.iterations.push_back(std::move(it));
  }

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
  return std::move(R_);
}

}  // namespace

Result run_ssac(const Matrix& X, Oracle& oracle, Chooser& chooser, const Params& params) {
  return Run(X, oracle, chooser, params).run();
}

Result run_ssac(const Matrix& X, Oracle& oracle, const Params& params, std::uint64_t seed) {
  UniformChooser chooser(Rng::stream(seed, {kStreamAlgorithm}));
  return run_ssac(X, oracle, chooser, params);
}

}  // namespace ssac
