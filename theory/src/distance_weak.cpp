// Theorems 2 and 3 on a labelled dataset: q_d (q_d'), the x* condition and the epsilon that
// remains. proofs-notes/bounds.md, "Distance-weak oracles", states the readings taken here.
#include <algorithm>
#include <cmath>
#include <limits>

#include "bounds_impl.hpp"

namespace ssac::theory {

namespace {

DistanceWeakReport evaluate(const Dataset& data, bool global, double nu, double rho, double delta) {
  if (!data.has_labels())
    throw ParameterError("data has no labels; Theorems 2 and 3 need the oracle's clustering");
  if (!(rho > 0 && rho <= 1)) throw_out_of_range("rho", rho, "(0, 1]");
  if (!global && !(nu >= 1 && std::isfinite(nu))) throw_out_of_range("nu", nu, "[1, inf)");
  check_delta(delta);
  const ClusterStats st = cluster_stats(data.points, data.labels);
  DistanceWeakReport r;
  r.global = global;
  r.nu = nu;
  r.rho = rho;
  r.gamma = st.gamma;
  // Proof of Theorem 2: c = min{2rho-1, gamma-nu+1}; proof of Theorem 3: G_i(2rho-1).
  r.c = global ? 2 * rho - 1 : std::min(2 * rho - 1, st.gamma - nu + 1);
  r.nu_in_range = global || (st.gamma <= nu && nu <= st.gamma + 1);
  const std::size_t K = st.sizes.size();
  std::vector<std::size_t> good(K, 0);
  std::vector<double> best(K, std::numeric_limits<double>::infinity());
  for (std::size_t row = 0; row < data.n(); ++row) {
    const std::size_t i = static_cast<std::size_t>(data.labels[row] - 1);
    const double d = distance(data.points, row, st.means[i]);
    // A cluster with r(C_i) = 0 has every point at its mean: ratio 0, inside every G_i(c), c > 0.
    const double ratio = st.radii[i] > 0 ? d / st.radii[i] : 0.0;
    best[i] = std::min(best[i], ratio);
    if (st.radii[i] > 0 ? d < r.c * st.radii[i] : r.c > 0) ++good[i];
  }
  // q_d = min_i |G_i| / |C_i|, compared exactly as fractions (cross-multiplied counts).
  std::size_t w = 0;
  for (std::size_t i = 1; i < K; ++i)
    if (good[i] * st.sizes[w] < good[w] * st.sizes[i]) w = i;
  r.worst_cluster = w + 1;
  r.good = good[w];
  r.size = st.sizes[w];
  r.q_d = Real50(r.good) / Real50(r.size);
  r.q = global ? r.q_d * r.q_d : 1 - (1 - r.q_d) * (1 - r.q_d);
  r.t_max = *std::max_element(best.begin(), best.end());
  const Real50 g = Real50(st.gamma) - 1;
  r.epsilon = std::min(g / 2, (Real50(r.c) - Real50(r.t_max)) / 2);
  r.x_star = Real50(r.c) - Real50(r.t_max) > 0;
  r.satisfied = st.gamma > 1 && std::isfinite(st.gamma) && r.nu_in_range && r.x_star && r.good > 0;
  if (r.satisfied)
    r.eta = certified_eta_distance_weak(static_cast<long long>(K), static_cast<long long>(data.m()),
                                        delta, r.epsilon, r.q);
  return r;
}

}  // namespace

DistanceWeakReport distance_weak_local(const Dataset& data, double nu, double rho, double delta) {
  return evaluate(data, false, nu, rho, delta);
}

DistanceWeakReport distance_weak_global(const Dataset& data, double rho, double delta) {
  return evaluate(data, true, 0.0, rho, delta);
}

}  // namespace ssac::theory
