// The theorems' hypotheses on a labelled dataset (ssac/theory/hypotheses.hpp). The distances are
// the library's (ssac::distance, the same doubles the algorithm and cluster_stats use); the
// oracle's conditions and x* come from the DistanceWeakReport, which decides them exactly.
#include "ssac/theory/hypotheses.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <numeric>

#include "ssac/error.hpp"

namespace ssac::theory {

namespace {

std::string num(double x) {
  if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.9g", x);
  return buf;
}

std::string row_text(std::size_t row0) {
  return "row " + std::to_string(row0 + 1);
}

// Records an offending row (0-based in, 1-based kept), counting every one.
void offend(Hypothesis& h, std::size_t row0) {
  if (h.rows.size() < kMaxOffendingRows) h.rows.push_back(row0 + 1);
  ++h.offending;
}

// No two rows with the same coordinates (Definition 1's X is a set of n points). Rows sorted by
// their coordinates, neighbours compared: O(n log n) comparisons of m doubles.
Hypothesis distinct_points(const Matrix& X) {
  Hypothesis h{HypothesisId::distinct, "Definition 1 (X is a set of n points)", true, "", {}, 0};
  const auto n = static_cast<std::size_t>(X.rows());
  const auto m = static_cast<Eigen::Index>(X.cols());
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), std::size_t{0});
  auto less = [&](std::size_t a, std::size_t b) {
    for (Eigen::Index j = 0; j < m; ++j) {
      const double x = X(static_cast<Eigen::Index>(a), j), y = X(static_cast<Eigen::Index>(b), j);
      if (x != y) return x < y;
    }
    return a < b;
  };
  std::sort(order.begin(), order.end(), less);
  std::string first;
  for (std::size_t i = 1; i < n; ++i) {
    const std::size_t a = order[i - 1], b = order[i];
    bool same = true;
    for (Eigen::Index j = 0; j < m && same; ++j)
      same = X(static_cast<Eigen::Index>(a), j) == X(static_cast<Eigen::Index>(b), j);
    if (!same) continue;
    if (first.empty()) first = row_text(std::min(a, b)) + " and " + row_text(std::max(a, b));
    offend(h, b);
  }
  if (h.offending == 0) {
    h.detail = std::to_string(n) + " distinct points";
  } else {
    h.holds = false;
    std::sort(h.rows.begin(), h.rows.end());
    h.detail = std::to_string(h.offending) + " row(s) repeat an earlier point, first " + first +
               " coincide";
  }
  return h;
}

// Definition 1 with mu_i the mean of C_i (Section 2.1): every x in C_i has i as the unique argmin
// of d(x, mu_j). A tie breaks the "unique", so d(x, mu_j) <= d(x, mu_i) for some j != i offends.
Hypothesis center_based(const Dataset& data, const ClusterStats& st) {
  Hypothesis h{HypothesisId::center_based,
               "Definition 1 with the clusters' means as centers",
               true,
               "",
               {},
               0};
  const std::size_t K = st.means.size();
  std::string first;
  double worst = std::numeric_limits<double>::infinity();  // min over x of d(x, other)/d(x, own)
  for (std::size_t row = 0; row < data.n(); ++row) {
    const auto i = static_cast<std::size_t>(data.labels[row] - 1);
    const double own = distance(data.points, row, st.means[i]);
    bool bad = false;
    for (std::size_t j = 0; j < K; ++j) {
      if (j == i) continue;
      const double other = distance(data.points, row, st.means[j]);
      if (own > 0) worst = std::min(worst, other / own);
      if (other <= own && !bad) {
        bad = true;
        if (first.empty())
          first = row_text(row) + " of C_" + std::to_string(i + 1) + ": d(x, mu_" +
                  std::to_string(i + 1) + ") = " + num(own) + " >= d(x, mu_" +
                  std::to_string(j + 1) + ") = " + num(other);
      }
    }
    if (bad) offend(h, row);
  }
  if (h.offending == 0) {
    h.detail = K < 2 ? "one cluster"
                     : "every point nearer its own cluster's mean (smallest ratio d(x, mu_j) / "
                       "d(x, mu_i) = " +
                           num(worst) + ")";
  } else {
    h.holds = false;
    h.detail = std::to_string(h.offending) + " point(s) not nearest their own mean, first " + first;
  }
  return h;
}

// Definition 2 at the theorem's gamma. The cluster attaining the supremum and the outsider and
// radius rows that attain it are named when it fails.
Hypothesis margin(const Dataset& data, const ClusterStats& st, std::optional<Decimal> gamma,
                  bool need_finite) {
  Hypothesis h{HypothesisId::margin, "Definition 2 (gamma-margin), gamma > 1", true, "", {}, 0};
  const double g = st.gamma;
  bool ok = g > 1 && (!need_finite || std::isfinite(g));
  std::string why;
  if (gamma) {
    // The supremum reading: the property holds for every gamma' < g, so gamma <= g is admitted.
    const bool above_one = *gamma > Decimal(1.0);
    const bool below_sup = !std::isfinite(g) || *gamma <= Decimal(g);
    ok = above_one && below_sup;
    h.detail = "gamma = " + gamma->str() + ", the data's margin is " + num(g);
    if (!above_one) why = "gamma = " + gamma->str() + " <= 1";
    if (!below_sup) why = "gamma = " + gamma->str() + " exceeds the data's margin " + num(g);
  } else {
    h.detail = "the data's margin gamma = " + num(g);
    if (!(g > 1)) why = "gamma = " + num(g) + " <= 1";
    if (need_finite && !std::isfinite(g)) why = "gamma = inf: no finite margin";
  }
  if (ok) return h;
  h.holds = false;
  // The cluster i and the outsider y with d(y, mu_i) / r(C_i) = g, and the row at r(C_i).
  const std::size_t K = st.means.size();
  for (std::size_t i = 0; i < K; ++i) {
    if (cluster_ratio(st.radii[i], st.nearest_outsider[i]) != g) continue;
    std::size_t out = data.n(), far = data.n();
    for (std::size_t row = 0; row < data.n(); ++row) {
      const double d = distance(data.points, row, st.means[i]);
      if (static_cast<std::size_t>(data.labels[row] - 1) == i) {
        if (d == st.radii[i] && far == data.n()) far = row;
      } else if (d == st.nearest_outsider[i] && out == data.n()) {
        out = row;
      }
    }
    if (far < data.n()) offend(h, far);
    if (out < data.n()) offend(h, out);
    if (far < data.n() && out < data.n())
      why += " (cluster " + std::to_string(i + 1) + ": " + row_text(out) + " lies " +
             num(st.nearest_outsider[i]) + " from mu_" + std::to_string(i + 1) + ", " +
             row_text(far) + " of C_" + std::to_string(i + 1) + " at r = " + num(st.radii[i]) + ")";
    break;
  }
  std::sort(h.rows.begin(), h.rows.end());
  h.detail = why;
  return h;
}

Hypothesis k_matches(std::size_t K, std::size_t k) {
  Hypothesis h{HypothesisId::k_equals_K, "Algorithm 1's k = the oracle's K", true, "", {}, 0};
  const std::size_t kk = k == 0 ? K : k;
  h.holds = kk == K;
  h.detail = "k = " + std::to_string(kk) + ", K = " + std::to_string(K);
  return h;
}

// Theorem 2's gamma <= nu <= gamma + 1 (nu >= 1 and rho in (0, 1] were checked when the report
// was made); Theorem 3 has no condition on rho beyond Definition 7's range.
Hypothesis oracle_conditions(const DistanceWeakReport& dw) {
  Hypothesis h{HypothesisId::oracle,
               dw.global
                   ? "Definition 7: rho in (0, 1]"
                   : "Theorem 2: gamma <= nu <= gamma + 1; Definition 6: nu >= 1, rho in (0, 1]",
               dw.nu_in_range,
               "",
               {},
               0};
  h.detail = (dw.global ? "" : "nu = " + dw.nu.str() + ", ") + "rho = " + dw.rho.str() +
             ", c = " + num(dw.c);
  if (!dw.nu_in_range)
    h.detail = "nu = " + dw.nu.str() + " outside [gamma, gamma + 1] = [" + num(dw.gamma) + ", " +
               num(dw.gamma + 1) + "]";
  return h;
}

// x* in every cluster: t_max < c leaves an epsilon > 0 (proofs-notes/bounds.md); the cluster whose
// best ratio is t_max is named when it fails.
Hypothesis x_star(const Dataset& data, const ClusterStats& st, const DistanceWeakReport& dw) {
  Hypothesis h{HypothesisId::x_star,
               dw.global ? "Theorem 3: x* with d(x*, mu_i) < (2rho - 1 - 2eps) r(C_i)"
                         : "Theorem 2: x* with d(x*, mu_i) < (min{2rho-1, gamma-nu+1} - 2eps) "
                           "r(C_i)",
               dw.x_star && dw.good > 0,
               "",
               {},
               0};
  const double half = (static_cast<double>(dw.gamma) - 1) / 2;
  if (h.holds) {
    h.detail = "t_max = " + num(dw.t_max) + " < c = " + num(dw.c) +
               ", eps = " + num(static_cast<double>(dw.epsilon));
    if (static_cast<double>(dw.epsilon) < half)
      h.detail += " (below (gamma-1)/2 = " + num(half) + ": proofs-notes/errata.md, E3)";
    return h;
  }
  // The cluster with the largest best ratio, and its point nearest the mean.
  std::size_t worst = 0, worst_row = 0;
  double worst_ratio = -1;
  for (std::size_t i = 0; i < st.means.size(); ++i) {
    double best = std::numeric_limits<double>::infinity();
    std::size_t best_row = 0;
    for (std::size_t row = 0; row < data.n(); ++row) {
      if (static_cast<std::size_t>(data.labels[row] - 1) != i) continue;
      const double d = distance(data.points, row, st.means[i]);
      const double t = st.radii[i] > 0 ? d / st.radii[i] : 0.0;
      if (t < best) best = t, best_row = row;
    }
    if (best > worst_ratio) worst_ratio = best, worst = i, worst_row = best_row;
  }
  offend(h, worst_row);
  h.detail = "no x* in C_" + std::to_string(worst + 1) + ": its point nearest the mean, " +
             row_text(worst_row) + ", lies at " + num(worst_ratio) + " r(C_" +
             std::to_string(worst + 1) + "), not below c = " + num(dw.c);
  return h;
}

ClusterStats labelled_stats(const Dataset& data) {
  if (!data.has_labels())
    throw ParameterError(
        "data has no labels; the theorems' hypotheses need the oracle's clustering");
  return cluster_stats(data.points, data.labels);
}

HypothesisReport clustering(const Dataset& data, const ClusterStats& st, std::size_t k,
                            std::optional<Decimal> gamma, bool need_finite) {
  HypothesisReport r;
  r.items.push_back(distinct_points(data.points));
  r.items.push_back(center_based(data, st));
  r.items.push_back(margin(data, st, gamma, need_finite));
  r.items.push_back(k_matches(st.sizes.size(), k));
  return r;
}

}  // namespace

const char* to_string(HypothesisId id) {
  switch (id) {
    case HypothesisId::distinct:
      return "distinct";
    case HypothesisId::center_based:
      return "center_based";
    case HypothesisId::margin:
      return "margin";
    case HypothesisId::oracle:
      return "oracle";
    case HypothesisId::x_star:
      return "x_star";
    case HypothesisId::k_equals_K:
      return "k_equals_K";
  }
  return "?";
}

bool HypothesisReport::all_hold() const {
  return std::all_of(items.begin(), items.end(), [](const Hypothesis& h) { return h.holds; });
}

const Hypothesis* HypothesisReport::find(HypothesisId id) const {
  for (const Hypothesis& h : items)
    if (h.id == id) return &h;
  return nullptr;
}

std::string HypothesisReport::failures() const {
  std::string out;
  for (const Hypothesis& h : items)
    if (!h.holds) out += (out.empty() ? "" : "; ") + std::string(to_string(h.id)) + ": " + h.detail;
  return out;
}

HypothesisReport check_clustering(const Dataset& data, std::size_t k,
                                  std::optional<Decimal> gamma) {
  const ClusterStats st = labelled_stats(data);
  return clustering(data, st, k, gamma, /*need_finite=*/false);
}

HypothesisReport check_distance_weak(const Dataset& data, const DistanceWeakReport& dw,
                                     std::size_t k) {
  const ClusterStats st = labelled_stats(data);
  HypothesisReport r = clustering(data, st, k, std::nullopt, /*need_finite=*/true);
  // In HypothesisId order: the oracle's and x*'s conditions before K = k.
  const Hypothesis k_item = r.items.back();
  r.items.pop_back();
  r.items.push_back(oracle_conditions(dw));
  r.items.push_back(x_star(data, st, dw));
  r.items.push_back(k_item);
  return r;
}

HypothesisReport check_theorem2(const Dataset& data, std::size_t k, const Decimal& nu,
                                const Decimal& rho, const Decimal& delta) {
  return check_distance_weak(data, distance_weak_local(data, nu, rho, delta), k);
}

HypothesisReport check_theorem3(const Dataset& data, std::size_t k, const Decimal& rho,
                                const Decimal& delta) {
  return check_distance_weak(data, distance_weak_global(data, rho, delta), k);
}

}  // namespace ssac::theory
