// Theorems 2 and 3 on a labelled dataset: q_d (q_d'), the x* condition and the epsilon that
// remains. proofs-notes/bounds.md, "Distance-weak oracles", states the readings taken here.
// nu and rho are exact decimals and the data's distances and radii are exact doubles, so c and
// every comparison with c are exact (proofs-notes/bounds.md, "Exact decimal inputs").
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "bounds_impl.hpp"

namespace ssac::theory {

namespace {

// d < c r for doubles d, r >= 0 and the decimal c, whose 50-digit value c50 * r is passed as cr50.
// cr50 is within a relative 1e-49 of c r, so a larger gap decides at 50 digits; closer cases
// (a ratio d/r that equals c, such as 1/2 at c = 0.5) are decided with exact decimals.
bool below(double d, double r, const Decimal& c, const Real50& cr50) {
  using std::abs;
  static const Real50 margin("1e-45");
  const Real50 gap = Real50(d) - cr50;
  if (abs(gap) > abs(cr50) * margin) return gap < 0;
  return Decimal(d) < c * Decimal(r);
}

DistanceWeakReport evaluate(const Dataset& data, bool global, const Decimal& nu, const Decimal& rho,
                            const Decimal& delta) {
  if (!data.has_labels())
    throw ParameterError("data has no labels; Theorems 2 and 3 need the oracle's clustering");
  check_rho(rho);
  if (!global) check_nu(nu);
  check_delta(delta);
  const ClusterStats st = cluster_stats(data.points, data.labels);
  const Decimal one(1.0);
  DistanceWeakReport r;
  r.global = global;
  r.nu = nu;
  r.rho = rho;
  r.gamma = st.gamma;
  // Proof of Theorem 2: c = min{2rho-1, gamma-nu+1}; proof of Theorem 3: G_i(2rho-1). A dataset
  // without a finite margin leaves 2rho-1.
  const bool finite_gamma = std::isfinite(st.gamma);
  r.c_exact = rho + rho - one;
  if (!global && finite_gamma) r.c_exact = std::min(r.c_exact, Decimal(st.gamma) - nu + one);
  r.c = r.c_exact.to_double();
  r.nu_in_range =
      global || (finite_gamma && Decimal(st.gamma) <= nu && nu <= Decimal(st.gamma) + one);
  const Real50 c50 = r.c_exact.to<Real50>();
  const bool c_positive = r.c_exact > Decimal();
  const std::size_t K = st.sizes.size();
  // Per cluster: |G_i(c)|, the smallest d(x, mu_i) (where the ratio to r(C_i) is smallest) and
  // the 50-digit c r(C_i).
  struct Scan {
    std::size_t good = 0;
    double nearest = std::numeric_limits<double>::infinity();
    Real50 cr50;
  };
  std::vector<Scan> scan(K);
  for (std::size_t i = 0; i < K; ++i)
    scan[i].cr50 = c50 * Real50(st.radii[i]);
  for (std::size_t row = 0; row < data.n(); ++row) {
    const std::size_t i = static_cast<std::size_t>(data.labels[row] - 1);
    const double d = distance(data.points, row, st.means[i]);
    scan[i].nearest = std::min(scan[i].nearest, d);
    // A cluster with r(C_i) = 0 has every point at its mean: ratio 0, inside every G_i(c), c > 0.
    if (st.radii[i] > 0 ? below(d, st.radii[i], r.c_exact, scan[i].cr50) : c_positive)
      ++scan[i].good;
  }
  // q_d = min_i |G_i| / |C_i|, compared exactly as fractions (cross-multiplied counts).
  std::size_t w = 0;
  for (std::size_t i = 1; i < K; ++i)
    if (scan[i].good * st.sizes[w] < scan[w].good * st.sizes[i]) w = i;
  r.worst_cluster = w + 1;
  r.good = scan[w].good;
  r.size = st.sizes[w];
  r.q_d = Real50(r.good) / Real50(r.size);
  r.q = global ? r.q_d * r.q_d : 1 - (1 - r.q_d) * (1 - r.q_d);
  // t_max = max_i nearest_i / r(C_i) (0 for a radius-0 cluster); the cross products of doubles
  // are exact at 50 digits, so the maximum is found exactly.
  std::size_t t = 0;
  auto ratio_zero = [&](std::size_t i) { return !(st.radii[i] > 0); };
  for (std::size_t i = 1; i < K; ++i) {
    if (ratio_zero(i)) continue;
    if (ratio_zero(t) || Real50(scan[i].nearest) * Real50(st.radii[t]) >
                             Real50(scan[t].nearest) * Real50(st.radii[i]))
      t = i;
  }
  const bool t_zero = ratio_zero(t);
  const double nearest = scan[t].nearest;
  r.t_max = t_zero ? 0.0 : nearest / st.radii[t];
  // x* exists in every cluster iff t_max < c; the epsilon left is (c - t_max)/2 =
  // (c r - nearest) / (2 r), whose numerator is formed exactly.
  r.x_star = t_zero ? c_positive : below(nearest, st.radii[t], r.c_exact, scan[t].cr50);
  const Real50 half_gap =
      t_zero ? Real50(c50 / 2)
             : Real50((r.c_exact * Decimal(st.radii[t]) - Decimal(nearest)).to<Real50>() /
                      (2 * Real50(st.radii[t])));
  const Real50 g = Real50(st.gamma) - 1;
  r.epsilon = std::min(Real50(g / 2), half_gap);
  r.satisfied = st.gamma > 1 && finite_gamma && r.nu_in_range && r.x_star && r.good > 0;
  if (r.satisfied)
    r.eta = certified_eta_distance_weak(static_cast<long long>(K), static_cast<long long>(data.m()),
                                        delta, r.epsilon, r.q);
  // gamma' = 1 + 2 eps rounded down to a double (eta_mcdiarmid decreases in gamma, so the eta of
  // the rounded gamma' is at least the one the corrected statements need); eps = (gamma-1)/2
  // gives the data's gamma exactly.
  if (r.satisfied) {
    const Real50 exact = 1 + 2 * r.epsilon;
    double gp = static_cast<double>(exact);
    if (Real50(gp) > exact) gp = std::nextafter(gp, 1.0);
    if (gp > 1) {
      Inputs in;
      in.k = static_cast<long long>(K);
      in.m = static_cast<long long>(data.m());
      in.n = static_cast<long long>(std::max<std::size_t>(data.n(), 2));
      in.delta = delta;
      in.gamma = Decimal(gp);
      in.q = Decimal(1.0);
      r.gamma_corrected = gp;
      r.eta_corrected = certified_eta_mcdiarmid(in);
    }
  }
  return r;
}

}  // namespace

DistanceWeakReport distance_weak_local(const Dataset& data, const Decimal& nu, const Decimal& rho,
                                       const Decimal& delta) {
  return evaluate(data, false, nu, rho, delta);
}

DistanceWeakReport distance_weak_global(const Dataset& data, const Decimal& rho,
                                        const Decimal& delta) {
  return evaluate(data, true, Decimal(), rho, delta);
}

}  // namespace ssac::theory
