#include "ssac/generator.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <numeric>
#include <optional>
#include <string>
#include <vector>

#include "ssac/error.hpp"
#include "ssac/ranges.hpp"
#include "ssac/rng.hpp"

namespace ssac {

void GeneratorParams::check() const {
  range::check_points(static_cast<long long>(n));
  range::check_dimension(static_cast<long long>(m));
  range::check_k(k, n);
  if (!(sigma > 0.0) || !std::isfinite(sigma)) throw_out_of_range("std", sigma, "(0, inf)");
  // A coordinate is a center plus sigma times a Gaussian draw, and a mean sums up to
  // range::kMaxPoints (1e8) of them; the window test keeps squared distances, summed over up to
  // range::kMaxDimension (1e5) coordinates. Up to 1e150 every such sum stays finite, so the data
  // can be tested, written and read back.
  if (sigma > 1e150) throw_out_of_range("std", sigma, "(0, 1e150] (the data must stay finite)");
  if (!(gamma_min >= 0.0) || !std::isfinite(gamma_min))
    throw_out_of_range("gamma-min", gamma_min, "[0, inf)");
  if (!(gamma_max > gamma_min))
    throw_out_of_range("gamma-max", gamma_max,
                       "(gamma-min, inf] = (" + format_double(gamma_min) + ", inf]");
  if (!(box > 0.0) || !std::isfinite(box) || box > 1e150)
    throw_out_of_range("box", box, "(0, 1e150]");
  if (max_draws < 1 || max_draws > kMaxDraws)
    throw ParameterError("max-draws = " + std::to_string(max_draws) +
                         " is outside its admissible range [1, 1e9]");
}

std::string to_string(GaussianMethod g) {
  switch (g) {
    case GaussianMethod::polar:
      return "polar";
    case GaussianMethod::ziggurat:
      return "ziggurat";
    case GaussianMethod::polar_clusters:
      return "polar-clusters";
    case GaussianMethod::ziggurat_clusters:
      return "ziggurat-clusters";
  }
  return "polar";
}

const std::vector<std::string>& gaussian_method_names() {
  static const std::vector<std::string> names = {
      to_string(GaussianMethod::polar), to_string(GaussianMethod::ziggurat),
      to_string(GaussianMethod::polar_clusters), to_string(GaussianMethod::ziggurat_clusters)};
  return names;
}

GaussianMethod parse_gaussian_method(const std::string& option, const std::string& name) {
  for (GaussianMethod g : {GaussianMethod::polar, GaussianMethod::ziggurat,
                           GaussianMethod::polar_clusters, GaussianMethod::ziggurat_clusters})
    if (name == to_string(g)) return g;
  std::string all;
  for (const std::string& n : gaussian_method_names())
    all += (all.empty() ? "" : " | ") + n;
  throw ParameterError(option + ": '" + name + "' is not a Gaussian method (" + all + ")");
}

namespace {

// Versions 3 and 4: the stream for the Gaussians of cluster i (0-based) of draw d.
Rng cluster_stream(const GeneratorParams& p, std::uint64_t d, std::size_t i) {
  return Rng::stream(p.seed, {kStreamGenerator, d, static_cast<std::uint64_t>(i) + 1});
}

}  // namespace

Dataset draw_dataset(const GeneratorParams& p, std::uint64_t draw_index) {
  Rng rng = Rng::stream(p.seed, {kStreamGenerator, draw_index});
  const auto k = static_cast<std::size_t>(p.k);
  Matrix centers(static_cast<Eigen::Index>(k), static_cast<Eigen::Index>(p.m));
  for (Eigen::Index i = 0; i < centers.rows(); ++i)
    for (Eigen::Index c = 0; c < centers.cols(); ++c)
      centers(i, c) = -p.box + 2.0 * p.box * rng.uniform01();
  Dataset d;
  d.points.resize(static_cast<Eigen::Index>(p.n), static_cast<Eigen::Index>(p.m));
  d.labels.resize(p.n);
  for (std::size_t c = 0; c < p.m; ++c)
    d.column_names.push_back("x" + std::to_string(c + 1));
  std::size_t row = 0;
  for (std::size_t i = 0; i < k; ++i) {
    const std::size_t size = p.n / k + (i < p.n % k ? 1 : 0);
    Rng own = cluster_stream(p, draw_index, i);
    Rng& noise = per_cluster(p.gaussians) ? own : rng;
    for (std::size_t j = 0; j < size; ++j, ++row) {
      for (Eigen::Index c = 0; c < centers.cols(); ++c)
        d.points(static_cast<Eigen::Index>(row), c) =
            centers(static_cast<Eigen::Index>(i), c) +
            p.sigma * (by_ziggurat(p.gaussians) ? noise.gaussian_ziggurat() : noise.gaussian());
      d.labels[row] = static_cast<int>(i + 1);
    }
  }
  return d;
}

// The hull rule (versions 3 and 4, the plane, gamma_min >= 1). Let y be an outsider of cluster i
// lying in the convex hull of some points q_1..q_r of C_i: y = sum_j l_j q_j with l_j >= 0, sum_j
// l_j = 1. For any point c, sum_j l_j |q_j - c|^2 = |y - c|^2 + s with s = sum_j l_j |q_j - y|^2,
// so
//   |y - c|^2 = sum_j l_j |q_j - c|^2 - s <= max_j |q_j - c|^2 - s.
// Take for c the computed mean of C_i, whatever its rounding: the nearest outsider of C_i is no
// farther from it than its farthest member, so r(C_i)'s ratio, and gamma (Definition 2), is at most
// 1 <= gamma_min and the draw will be rejected, however its remaining points fall. The rule thus
// never changes which draw is accepted, only how many points a rejected one costs.
//
// In floating point: a computed squared distance in the plane is within a factor 1 +- eps of the
// exact one, eps = (1 + u)^4 - 1 < 8u (two subtractions, two squares, one addition; u = 2^-53).
// The computed outsider distance o2 and radius r2 satisfy o2 <= (1 + eps)(A - s) and
// r2 >= (1 - eps) A, with A = max_j |q_j - c|^2, so o2 <= r2 once s (1 + eps) >= 2 eps A; then
// sqrt and the division, correctly rounded and monotone, give a computed ratio of at most 1.
// A is bounded in advance by the draws' reach:
// - a polar variate has |z| <= sqrt(-2 ln s) (|u| <= sqrt(s)) for its s = u^2 + v^2 > 0, a
//   double, so s >= 2^-1074 and |z| < 38.6 up to the few ulps of its computation (the polar
//   method's multiples of 2^-52 give |z| <= 12.2 in fact, but the rule need not rest on that); a
//   ziggurat variate is below x_0 < 4 in its layers and R - log(U) / R < 13.8 in the tail (U is at
//   least 2^-53, R = 3.654); Z = 64 covers both;
// - a coordinate is fl(center + fl(sigma z)), so within w = sigma Z (1 + 4u) + 4u (box + sigma Z)
//   of its center; the computed mean, a recursive sum of n such values divided by n, within
//   w + delta, delta = 2 (n + 2) u (box + w) (the sum's error bound, (n - 1) u / (1 - (n - 1) u)
//   times the sum of magnitudes, with room);
// - so |q_j - c| <= 2w + delta per coordinate and A <= 2 (2w + delta)^2.
// The witnesses' own squared distances to y are computed with the same eps, so requiring each to
// exceed slack = 4 eps A_max (twice what is needed) certifies s (1 + eps) > 2 eps A.
std::optional<double> hull_rule_slack(const GeneratorParams& p) {
  if (!per_cluster(p.gaussians) || p.m != 2 || p.k < 2 || !(p.gamma_min >= 1.0))
    return std::nullopt;
  constexpr double u = 0x1p-53;
  constexpr double z_max = 64.0;
  const double n = static_cast<double>(p.n);
  const double w = p.sigma * z_max * (1.0 + 4.0 * u) + 4.0 * u * (p.box + p.sigma * z_max);
  const double delta = 2.0 * (n + 2.0) * u * (p.box + w);
  const double reach = 2.0 * w + delta;
  const double a_max = 2.0 * reach * reach;
  const double slack = 4.0 * (8.0 * u) * a_max;
  // A slack below 2^-960 would let a witness's squared distance lose its relative accuracy to
  // underflow; one that overflowed would certify nothing: then the rule stays off.
  if (!std::isfinite(slack) || !(slack >= 0x1p-960)) return std::nullopt;
  return slack;
}

// The quadrants' test: P's witnesses on both sides of y in both coordinates. The signs of the
// computed differences are exact (a difference of doubles rounds to 0 only when they are equal),
// so the four open quadrants around y each hold a point of P. Then y is strictly inside the hull:
// were it not, a line through y would leave P in one closed half-plane {a . (x - y) >= 0}, and the
// quadrant whose signs are opposite to a's would lie strictly on the other side.
bool quadrant_certificate(const double* P, std::size_t count, const double* y, double slack) {
  unsigned seen = 0;
  for (std::size_t j = 0; j < count; ++j) {
    const double dx = P[2 * j] - y[0];
    const double dy = P[2 * j + 1] - y[1];
    const bool far = dx * dx + dy * dy > slack;
    const unsigned quadrant = static_cast<unsigned>((dx > 0.0) & (dy > 0.0)) |
                              static_cast<unsigned>((dx < 0.0) & (dy > 0.0)) << 1 |
                              static_cast<unsigned>((dx < 0.0) & (dy < 0.0)) << 2 |
                              static_cast<unsigned>((dx > 0.0) & (dy < 0.0)) << 3;
    seen |= far ? quadrant : 0u;
    if (seen == 15u) return true;
  }
  return false;
}

// The triangle inequality, with room for rounding. Let mu_i, mu_t be two points (computed means),
// r_t the computed radius of cluster t about mu_t (fl(sqrt) of the largest computed squared
// distance) and r_i > 0 that of cluster i. A squared distance over m <= 1e5 coordinates is
// computed within a factor 1 +- (m + 2) u / (1 - (m + 2) u) < 1 + 2^-36 of the exact one (u =
// 2^-53; the differences' and squares' roundings, then a recursive sum of nonnegative terms), and
// its square root within 1 +- eta, eta = 2^-30, with ample room. So the exact radius R_t <= r_t
// (1 + 2 eta) and the exact distance D = |mu_i - mu_t| >= D~ (1 - eta), and every y of cluster t
// has |y - mu_i| >= D - R_t >= L = D~ (1 - eta) - r_t (1 + 2 eta). Its computed distance to mu_i is
// then at least L (1 - eta), and the computed ratio fl(that / r_i) at least L (1 - eta) (1 - u) /
// r_i. The test below rounds each of its few operations, against that bound, by at most a few u,
// which the factors 1 -+ 4 eta more than cover: when it holds, cluster i's computed ratio with
// any point of cluster t as its nearest outsider exceeds gamma.
bool outsiders_beyond(const double* mu_i, const double* mu_t, std::size_t m, double r_t, double r_i,
                      double gamma) {
  constexpr double eta = 0x1p-30;
  double d2 = 0.0;
  for (std::size_t c = 0; c < m; ++c) {
    const double d = mu_i[c] - mu_t[c];
    d2 += d * d;
  }
  const double lower = std::sqrt(d2) * (1.0 - 4.0 * eta) - r_t * (1.0 + 4.0 * eta);
  return std::isfinite(lower) && lower * (1.0 - 4.0 * eta) > gamma * r_i * (1.0 + 4.0 * eta);
}

namespace {

// d(a, b)^2 summed coordinate by coordinate in index order: squared_distance (ssac/data.hpp)
// itself, here where the compiler can inline it.
inline double squared(const double* a, const double* b, std::size_t m) {
  double s = 0.0;
  for (std::size_t c = 0; c < m; ++c) {
    const double d = a[c] - b[c];
    s += d * d;
  }
  return s;
}

// The least (Take::min) or greatest (Take::max) of `init` and d(x, mu)^2 over rows [first, last)
// of X. Each squared distance is summed coordinate by coordinate in index order, as squared()
// sums it, but eight rows at a time in eight separate sums: the additions of one sum depend on
// each other, those of different rows do not, so the eight overlap instead of waiting in turn.
// Each of the eight rows keeps its own running extreme too, merged at the end: one running
// extreme for all waited on each of its eight comparisons in turn. min and max are exact and do
// not depend on the order they are taken in (no distance is NaN: every coordinate is finite).
enum class Take { min, max };
template <Take take>
double extreme_squared(const Matrix& X, std::size_t first, std::size_t last, const double* mu,
                       double init) {
  const auto m = static_cast<std::size_t>(X.cols());
  const double* base = X.data();  // row-major: row r starts at base + r m
  auto pick = [](double a, double b) {
    return take == Take::min ? std::min(a, b) : std::max(a, b);
  };
  constexpr std::size_t kLanes = 8;
  double best[kLanes];
  for (double& b : best)
    b = init;
  std::size_t r = first;
  if (m == 2) {
    // The plane: each row's sum written out ((0 + d0^2) + d1^2 = d0^2 + d1^2 exactly) with the
    // center in locals, so that the compiler subtracts and squares both coordinates of a row in one
    // packed operation each, where the loop over a run-time count of coordinates took one at a
    // time.
    const double mu0 = mu[0], mu1 = mu[1];
    for (; r + kLanes <= last; r += kLanes) {
      const double* x = base + 2 * r;
      for (std::size_t b = 0; b < kLanes; ++b) {
        const double d0 = x[2 * b] - mu0;
        const double d1 = x[2 * b + 1] - mu1;
        best[b] = pick(best[b], d0 * d0 + d1 * d1);
      }
    }
  }
  for (; r + kLanes <= last; r += kLanes) {
    double acc[kLanes] = {};
    const double* x = base + r * m;
    for (std::size_t c = 0; c < m; ++c)
      for (std::size_t b = 0; b < kLanes; ++b) {
        const double d = x[b * m + c] - mu[c];
        acc[b] += d * d;
      }
    for (std::size_t b = 0; b < kLanes; ++b)
      best[b] = pick(best[b], acc[b]);
  }
  for (; r < last; ++r)
    best[0] = pick(best[0], squared(base + r * m, mu, m));
  for (std::size_t b = 1; b < kLanes; ++b)
    best[0] = pick(best[0], best[b]);
  return best[0];
}

// One draw with the window test folded into the drawing, so that a draw whose gamma is already
// known to be at most gamma_min is abandoned before its remaining points are drawn.
//
// Why this is exact (the accepted draws, and so the datasets, equal those of draw_dataset followed
// by cluster_stats; tests/test_generator_fast.cpp compares both on many seeds):
// - the Rng calls are the ones draw_dataset makes, in the same order on each stream, up to the
//   point of stopping (Rng::gaussians gives exactly the values of as many Rng::gaussian calls,
//   and gaussians_ziggurat as many gaussian_ziggurat calls); each draw has its own stream, so
//   abandoning one never shifts another. Under versions 3 and 4 each cluster has a stream of its
//   own, so the hull rule's turns, which draw every cluster's first points before completing any,
//   give the same points;
// - the hull rule (hull_rule_slack, quadrant_certificate) abandons a draw only when gamma is
//   certainly at most gamma_min;
// - once cluster i is complete its mean mu_i and radius r(C_i) are final and computed as
//   cluster_stats does (mean_of_rows over its rows in increasing order, the same sums of squares);
// - distances are kept squared: sqrt is correctly rounded and so monotone, hence the square root of
//   the largest (smallest) squared distance is the largest (smallest) distance, bit for bit;
// - every point of another cluster seen so far is an outsider of C_i, so the running minimum
//   out_i of d(y, mu_i) over them is at least the final nearest-outsider distance, and
//   fl(out_i / r_i) at least that cluster's final ratio (rounding is monotone); so is it with r_i
//   the largest distance over some of C_i's points only, at most the final radius. The final gamma
//   is the minimum of those ratios (Definition 2), so out_i / r_i <= gamma_min proves
//   gamma <= gamma_min: the draw would be rejected anyway. The ratio only decreases as points
//   arrive, so testing it after each block of points rejects exactly the draws that testing it
//   after each point rejects;
// - when every cluster is complete, out_i is the exact minimum over all outsiders, and gamma is
//   formed exactly as cluster_stats forms it;
// - when the last cluster completes, every other cluster's ratio is already final; if each exceeds
//   gamma_max and outsiders_beyond shows that the last one's will too, gamma > gamma_max and the
//   draw would be rejected anyway: its pass over the last cluster's outsiders is skipped.
// Too large a gamma cannot be known before the last point: a ratio only ever decreases as
// outsiders arrive.
class Drawer {
 public:
  explicit Drawer(const GeneratorParams& p)
      : p_(p),
        k_(static_cast<std::size_t>(p.k)),
        X_(static_cast<Eigen::Index>(p.n), static_cast<Eigen::Index>(p.m)),
        centers_(static_cast<Eigen::Index>(k_), static_cast<Eigen::Index>(p.m)),
        means_(k_),
        slack_(hull_rule_slack(p)),
        box_(k_) {
    for (std::size_t i = 0, row = 0; i < k_; ++i) {
      first_.push_back(row);
      size_.push_back(p.n / k_ + (i < p.n % k_ ? 1 : 0));
      row += size_.back();
    }
  }

  // Draws draw `d`; returns its gamma if it completed, or a value <= gamma_min once the draw is
  // known to be rejected (then X_ holds a partial draw), or +inf when its last cluster's bound
  // shows gamma > gamma_max (ratios_exceed_window).
  double draw(std::uint64_t d) {
    Rng rng = Rng::stream(p_.seed, {kStreamGenerator, d});
    const Eigen::Index m = X_.cols();
    const auto mm = static_cast<std::size_t>(m);
    for (Eigen::Index i = 0; i < centers_.rows(); ++i)
      for (Eigen::Index c = 0; c < m; ++c)
        centers_(i, c) = -p_.box + 2.0 * p_.box * rng.uniform01();
    streams_.clear();
    if (per_cluster(p_.gaussians))
      for (std::size_t i = 0; i < k_; ++i)
        streams_.push_back(cluster_stream(p_, d, i));
    const double inf = std::numeric_limits<double>::infinity();
    radius_.assign(k_, 0.0);
    outsider_.assign(k_, inf);
    outsider2_.assign(k_, inf);
    drawn_.assign(k_, 0);
    boxed_.assign(k_, 0);
    sums_.assign(k_ * mm, 0.0);
    order_.resize(k_);
    std::iota(order_.begin(), order_.end(), std::size_t{0});
    complete_.assign(k_, false);
    if (slack_) {
      if (turns_prove_rejection()) return p_.gamma_min;
      order_by_nearest_outsider();
    }
    for (const std::size_t i : order_) {
      const std::size_t first = first_[i];
      const std::size_t end = first + size_[i];
      std::size_t row = first + drawn_[i];
      // The rest of cluster i a block at a time: their Gaussians drawn together (row by row,
      // coordinate by coordinate, as draw_dataset draws them), then the block as outsiders of
      // every completed cluster. (Points the turns drew were tested when each cluster completed.)
      while (row < end) {
        const std::size_t rows = std::min(kBlockRows, end - row);
        draw_rows(i, row, rows, rng);
        drawn_[i] += rows;
        if (outsiders_prove(row, rows)) return p_.gamma_min;
        row += rows;
      }
      // Cluster i is complete: its mean and radius are final.
      means_[i] = mean_of_block(i);
      const double* mu = means_[i].data();
      const bool last = i == order_.back();
      if (last) {
        // The last cluster to complete: every other cluster's ratio is final, and if they and a
        // lower bound on this one's all exceed gamma_max, so does gamma: rejected without the
        // pass over this cluster's outsiders.
        radius_[i] = std::sqrt(extreme_squared<Take::max>(X_, first, row, mu, 0.0));
        if (ratios_exceed_window(i)) return inf;
      }
      // Every point drawn so far in another cluster is an outsider of cluster i.
      double o2 = inf;
      for (std::size_t t = 0; t < k_; ++t)
        if (t != i) o2 = extreme_squared<Take::min>(X_, first_[t], first_[t] + drawn_[t], mu, o2);
      if (!last) {
        // The radius kRadiusRows rows at a time, the ratio tested after each: the radius so far is
        // at most the final one, so a ratio at most gamma_min rejects as the final one would.
        const double o = std::sqrt(o2);
        double r2 = 0.0;
        for (std::size_t r = first; r < row; r += kRadiusRows) {
          r2 = extreme_squared<Take::max>(X_, r, std::min(r + kRadiusRows, row), mu, r2);
          const double radius = std::sqrt(r2);
          if (radius > 0.0 && o / radius <= p_.gamma_min) return p_.gamma_min;
        }
        radius_[i] = std::sqrt(r2);
      }
      complete_[i] = true;
      outsider2_[i] = o2;
      outsider_[i] = std::sqrt(o2);
      if (radius_[i] > 0.0 && outsider_[i] / radius_[i] <= p_.gamma_min) return p_.gamma_min;
    }
    double gamma = inf;
    for (std::size_t i = 0; i < k_; ++i)
      gamma = std::min(gamma, cluster_ratio(radius_[i], outsider_[i]));
    return gamma;
  }

  // Called when cluster i, the last, is complete (means_ and radius_ hold every cluster's, and
  // outsider_ every other cluster's final nearest outsider): true when gamma > gamma_max is
  // certain. Cluster j != i: its ratio as the end computes it. Cluster i: outsiders_beyond for
  // each other cluster.
  bool ratios_exceed_window(std::size_t i) const {
    const double gamma_max = p_.gamma_max;
    if (!(gamma_max < std::numeric_limits<double>::infinity()) || !(radius_[i] > 0.0)) return false;
    const auto m = static_cast<std::size_t>(X_.cols());
    for (std::size_t t = 0; t < k_; ++t)
      if (t != i && (!(cluster_ratio(radius_[t], outsider_[t]) > gamma_max) ||
                     !outsiders_beyond(means_[i].data(), means_[t].data(), m, radius_[t],
                                       radius_[i], gamma_max)))
        return false;
    return true;
  }

  // Rows [row, row + rows) of cluster i: Gaussians from the cluster's stream (versions 3, 4) or the
  // draw's, the coordinates, and their sums.
  void draw_rows(std::size_t i, std::size_t row, std::size_t rows, Rng& rng) {
    const auto mm = static_cast<std::size_t>(X_.cols());
    Rng& noise = streams_.empty() ? rng : streams_[i];
    noise_.resize(rows * mm);
    if (by_ziggurat(p_.gaussians))
      noise.gaussians_ziggurat(noise_.data(), rows * mm);
    else
      noise.gaussians(noise_.data(), rows * mm);
    // The block's rows are contiguous (row-major) and so is its noise: one loop over both, with
    // sigma in a local (a load from p_ at every point otherwise, as a store to X_ might change it
    // for all the compiler knows).
    const double sigma = p_.sigma;
    const double* center = centers_.row(static_cast<Eigen::Index>(i)).data();
    double* x = X_.row(static_cast<Eigen::Index>(row)).data();
    const double* z = noise_.data();
    if (mm == 2) {
      // The plane (the presets but one): a row's two coordinates in one pass, the center in
      // locals, which the compiler does as one packed multiply and add per row (the same IEEE
      // operations on each coordinate, so the same values) instead of a loop of two per row.
      const double c0 = center[0], c1 = center[1];
      for (std::size_t b = 0; b < rows; ++b) {
        x[2 * b] = c0 + sigma * z[2 * b];
        x[2 * b + 1] = c1 + sigma * z[2 * b + 1];
      }
    } else {
      for (std::size_t b = 0; b < rows; ++b, x += mm, z += mm)
        for (std::size_t c = 0; c < mm; ++c)
          x[c] = center[c] + sigma * z[c];
    }
    add_rows(i, row, rows);
    points_ += rows;
  }

  // Rows [row, row + rows), points of a cluster not yet complete, as outsiders of every completed
  // cluster: true once one proves gamma <= gamma_min.
  bool outsiders_prove(std::size_t row, std::size_t rows) {
    for (std::size_t t = 0; t < k_; ++t) {
      if (!complete_[t]) continue;
      const double o2 =
          extreme_squared<Take::min>(X_, row, row + rows, means_[t].data(), outsider2_[t]);
      if (!(o2 < outsider2_[t])) continue;
      outsider2_[t] = o2;
      outsider_[t] = std::sqrt(o2);
      if (radius_[t] > 0.0 && outsider_[t] / radius_[t] <= p_.gamma_min) return true;
    }
    return false;
  }

  // The hull rule's turns (versions 3, 4 in the plane with gamma_min >= 1; hull_rule_slack says why
  // the rule is exact): the first 8, 16, 32 and then 64 points of every cluster, each from its own
  // stream, the rule tried after each round (some_outsider_inside). A rejected draw is usually
  // proved so within its first few dozen points of each cluster, where completing one cluster to
  // test its radius costs a third of the draw. Beyond 64 points a round's test costs more than the
  // points it saves: a round of 128 saved 1 % of paper-main's points and cost 7 % of its time
  // (96 after 64: 2 % and 4 %). Rounds past half the smallest cluster would cost, for small
  // clusters, more than completing one.
  bool turns_prove_rejection() {
    const std::size_t smallest = p_.n / k_;
    for (const std::size_t round : {8, 16, 32, 64}) {
      if (2 * round > smallest) break;
      for (std::size_t i = 0; i < k_; ++i) {
        const std::size_t target = std::min(round, size_[i]);
        if (drawn_[i] >= target) continue;
        draw_rows(i, first_[i] + drawn_[i], target - drawn_[i], streams_[i]);
        drawn_[i] = target;
      }
      if (some_outsider_inside()) return true;
    }
    return false;
  }

  // The centroid of cluster i's points drawn so far in the plane, from its running sums.
  std::array<double, 2> centroid(std::size_t i) const {
    const auto count = static_cast<double>(drawn_[i]);
    return {sums_[2 * i] / count, sums_[2 * i + 1] / count};
  }

  // After the turns, the clusters in the order to complete them: first the one with another
  // cluster's point nearest its centroid, relative to its own points' spread, whose radius is then
  // the likeliest to reach an outsider. Any order gives the same points and the same gamma; this
  // one rejects sooner.
  void order_by_nearest_outsider() {
    score_.assign(k_, 0.0);
    for (std::size_t i = 0; i < k_; ++i) {
      const std::array<double, 2> c = centroid(i);
      double nearest = std::numeric_limits<double>::infinity();
      for (std::size_t t = 0; t < k_; ++t)
        if (t != i)
          nearest =
              extreme_squared<Take::min>(X_, first_[t], first_[t] + drawn_[t], c.data(), nearest);
      const double spread =
          extreme_squared<Take::max>(X_, first_[i], first_[i] + drawn_[i], c.data(), 0.0);
      // A cluster whose first points coincide has no spread yet: last, with a score that compares.
      score_[i] = spread > 0.0 ? nearest / spread : std::numeric_limits<double>::infinity();
    }
    std::stable_sort(order_.begin(), order_.end(),
                     [&](std::size_t a, std::size_t b) { return score_[a] < score_[b]; });
  }

  // Whether, for some pair of clusters, an outsider drawn so far passes quadrant_certificate
  // against the other cluster's points drawn so far.
  bool some_outsider_inside() {
    const double* base = X_.data();  // row-major, two columns
    // Each cluster's bounding box so far: four quadrants need y strictly inside P's box, so a pair
    // of clusters whose boxes do not overlap (the usual case in a draw that survives the turns)
    // is passed over without a test of its points.
    // Extended by the rows drawn since the last round (boxed_), in locals.
    for (std::size_t i = 0; i < k_; ++i) {
      const double* P = base + 2 * first_[i];
      Box b = boxed_[i] == 0 ? Box{{P[0], P[1]}, {P[0], P[1]}} : box_[i];
      for (std::size_t j = boxed_[i]; j < drawn_[i]; ++j) {
        b.lo[0] = std::min(b.lo[0], P[2 * j]);
        b.lo[1] = std::min(b.lo[1], P[2 * j + 1]);
        b.hi[0] = std::max(b.hi[0], P[2 * j]);
        b.hi[1] = std::max(b.hi[1], P[2 * j + 1]);
      }
      box_[i] = b;
      boxed_[i] = drawn_[i];
    }
    for (std::size_t i = 0; i < k_; ++i) {
      const double* P = base + 2 * first_[i];
      const Box& b = box_[i];
      if (drawn_[i] < 4) continue;
      for (std::size_t t = 0; t < k_; ++t) {
        const Box& o = box_[t];
        if (t == i ||
            !(o.lo[0] < b.hi[0] && b.lo[0] < o.hi[0] && o.lo[1] < b.hi[1] && b.lo[1] < o.hi[1]))
          continue;
        // One outsider per pair, the one nearest to P's centroid: the likeliest to be inside, and
        // finding it is a pass of t's points without branches, where testing every outsider in
        // the box cost a pass of P for each.
        const double* Y = base + 2 * first_[t];
        const std::array<double, 2> c = centroid(i);
        const double best =
            extreme_squared<Take::min>(X_, first_[t], first_[t] + drawn_[t], c.data(),
                                       std::numeric_limits<double>::infinity());
        // The row it came from: the same sums, so the same value.
        std::size_t nearest = 0;
        while (nearest + 1 < drawn_[t] && squared(Y + 2 * nearest, c.data(), 2) != best)
          ++nearest;
        const double* y = Y + 2 * nearest;
        if (b.lo[0] < y[0] && y[0] < b.hi[0] && b.lo[1] < y[1] && y[1] < b.hi[1] &&
            quadrant_certificate(P, drawn_[i], y, *slack_))
          return true;
      }
    }
    return false;
  }

  // Adds rows [first, first + rows) to sums_, row by row (the order of mean_of_rows's sums),
  // eight coordinates at a time in locals: sums kept in memory would be stored and reloaded at
  // every row (the compiler cannot rule out that they alias the rows). Called on each block as it
  // is drawn, so that these additions, one waiting on the last, overlap the next block's drawing
  // instead of making a chain of their own when the cluster is complete. The number of lanes is a
  // template argument: with a count known only at run time the locals lived on the stack, and
  // each row's addition waited on a store and a reload as well as on the last addition.
  void add_rows(std::size_t i, std::size_t first, std::size_t rows) {
    const auto m = static_cast<std::size_t>(X_.cols());
    for (std::size_t c0 = 0; c0 < m; c0 += kLanes) {
      const double* x = X_.data() + first * m + c0;  // row-major
      double* sums = sums_.data() + i * m + c0;
      kAddLanes[std::min(kLanes, m - c0)](x, m, rows, sums);
    }
  }

  // sums[c] += x[j m + c] for j = 0..rows-1 in turn, c < L, each sum in a local.
  template <std::size_t L>
  static void add_lanes(const double* x, std::size_t m, std::size_t rows, double* sums) {
    double acc[L];
    for (std::size_t c = 0; c < L; ++c)
      acc[c] = sums[c];
    for (std::size_t j = 0; j < rows; ++j, x += m)
      for (std::size_t c = 0; c < L; ++c)
        acc[c] += x[c];
    for (std::size_t c = 0; c < L; ++c)
      sums[c] = acc[c];
  }

  // mean_of_rows(X_, {first, ..., first + size - 1}), bit for bit, from sums_ (add_rows): the
  // same sums in the same order (row by row, each coordinate from 0.0) and the same division; a
  // sum that overflowed goes to mean_of_rows itself for its other path.
  Vector mean_of_block(std::size_t i) {
    const auto m = static_cast<std::size_t>(X_.cols());
    const std::size_t first = first_[i], size = size_[i];
    const double* sums = sums_.data() + i * m;
    for (std::size_t c = 0; c < m; ++c)
      if (std::isinf(sums[c])) {
        rows_.resize(size);
        for (std::size_t r = 0; r < size; ++r)
          rows_[r] = first + r;
        return mean_of_rows(X_, rows_);
      }
    Vector mu(X_.cols());
    const double count = static_cast<double>(size);
    for (std::size_t c = 0; c < m; ++c)
      mu[static_cast<Eigen::Index>(c)] = sums[c] / count;
    return mu;
  }

  std::uint64_t points() const { return points_; }

  Dataset take() {
    Dataset data;
    data.points = std::move(X_);
    data.labels.resize(p_.n);
    std::size_t row = 0;
    for (std::size_t i = 0; i < k_; ++i)
      for (std::size_t j = 0; j < p_.n / k_ + (i < p_.n % k_ ? 1 : 0); ++j)
        data.labels[row++] = static_cast<int>(i + 1);
    for (std::size_t c = 0; c < p_.m; ++c)
      data.column_names.push_back("x" + std::to_string(c + 1));
    return data;
  }

 private:
  const GeneratorParams& p_;
  std::size_t k_;
  Matrix X_, centers_;
  std::vector<Vector> means_;
  std::vector<double> radius_, outsider_;
  std::vector<double> outsider2_;  // outsider_ squared, the running minimum of squared distances
  std::vector<double> noise_;      // one block's N(0, 1) draws
  std::vector<double> sums_;       // each cluster's coordinate sums so far (add_rows), k x m
  std::vector<std::size_t> first_, size_;  // each cluster's first row and number of rows
  std::vector<std::size_t> drawn_;         // each cluster's rows drawn so far in this draw
  std::vector<Rng> streams_;               // versions 3, 4: each cluster's Gaussian stream
  std::optional<double> slack_;            // hull_rule_slack: the rule applies
  std::vector<std::size_t> order_;         // the order in which clusters are completed
  std::vector<bool> complete_;             // cluster i's mean and radius are final
  std::vector<double> score_;              // order_by_nearest_outsider's scores
  struct Box {
    double lo[2], hi[2];
  };
  std::vector<Box> box_;            // some_outsider_inside: each cluster's bounding box so far,
  std::vector<std::size_t> boxed_;  // of its first boxed_[i] rows
  std::uint64_t points_ = 0;        // rows drawn over all draws (Generated::points)
  std::vector<std::size_t> rows_;   // mean_of_block's rows, when it needs mean_of_rows
  static constexpr std::size_t kBlockRows = 32;
  // A completing cluster's radius between tests of its ratio: the pass over its points stops at
  // the first block whose radius so far proves rejection (paper-main: 1.5 % of its time).
  static constexpr std::size_t kRadiusRows = 64;
  static constexpr std::size_t kLanes = 8;  // add_rows's coordinates at a time
  // add_lanes<L> for L = 1..kLanes, indexed by L.
  static constexpr void (*kAddLanes[kLanes + 1])(const double*, std::size_t, std::size_t,
                                                 double*) = {
      nullptr,       &add_lanes<1>, &add_lanes<2>, &add_lanes<3>, &add_lanes<4>,
      &add_lanes<5>, &add_lanes<6>, &add_lanes<7>, &add_lanes<8>};
};

// Fisher-Yates from the last row down: row i swaps with a uniform row of 0..i.
void shuffle_rows(Dataset& d, Rng rng) {
  for (std::size_t i = d.n(); i-- > 1;) {
    const auto j = static_cast<std::size_t>(rng.uniform_index(i + 1));
    d.points.row(static_cast<Eigen::Index>(i)).swap(d.points.row(static_cast<Eigen::Index>(j)));
    std::swap(d.labels[i], d.labels[j]);
  }
}

}  // namespace

Generated generate(const GeneratorParams& p) {
  p.check();
  Drawer drawer(p);
  for (std::uint64_t d = 0; d < p.max_draws; ++d) {
    const double g = drawer.draw(d);
    if (g > p.gamma_min && g <= p.gamma_max) {
      const std::uint64_t points = drawer.points();
      Generated out{drawer.take(), g, d + 1, points};
      if (p.shuffle) shuffle_rows(out.data, Rng::stream(p.seed, {kStreamShuffle}));
      return out;
    }
  }
  throw DataError("generator: no draw in " + std::to_string(p.max_draws) +
                  " had its gamma-margin in (" + format_double(p.gamma_min) + ", " +
                  format_double(p.gamma_max) + "]; widen the window, change --std or raise " +
                  "--max-draws");
}

}  // namespace ssac
