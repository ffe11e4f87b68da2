#include "ssac/generator.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
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
  return g == GaussianMethod::polar ? "polar" : "ziggurat";
}

GaussianMethod parse_gaussian_method(const std::string& option, const std::string& name) {
  for (GaussianMethod g : {GaussianMethod::polar, GaussianMethod::ziggurat})
    if (name == to_string(g)) return g;
  throw ParameterError(option + ": '" + name + "' is not a Gaussian method (" +
                       to_string(GaussianMethod::polar) + " | " +
                       to_string(GaussianMethod::ziggurat) + ")");
}

const std::vector<std::string>& gaussian_method_names() {
  static const std::vector<std::string> names = {to_string(GaussianMethod::polar),
                                                 to_string(GaussianMethod::ziggurat)};
  return names;
}

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
    for (std::size_t j = 0; j < size; ++j, ++row) {
      for (Eigen::Index c = 0; c < centers.cols(); ++c)
        d.points(static_cast<Eigen::Index>(row), c) =
            centers(static_cast<Eigen::Index>(i), c) +
            p.sigma *
                (p.gaussians == GaussianMethod::polar ? rng.gaussian() : rng.gaussian_ziggurat());
      d.labels[row] = static_cast<int>(i + 1);
    }
  }
  return d;
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
// min and max are exact and do not depend on the order they are taken in.
enum class Take { min, max };
template <Take take>
double extreme_squared(const Matrix& X, std::size_t first, std::size_t last, const double* mu,
                       double init) {
  const auto m = static_cast<std::size_t>(X.cols());
  const double* base = X.data();  // row-major: row r starts at base + r m
  auto pick = [](double a, double b) {
    return take == Take::min ? std::min(a, b) : std::max(a, b);
  };
  double best = init;
  constexpr std::size_t kLanes = 8;
  std::size_t r = first;
  for (; r + kLanes <= last; r += kLanes) {
    double acc[kLanes] = {};
    const double* x = base + r * m;
    for (std::size_t c = 0; c < m; ++c)
      for (std::size_t b = 0; b < kLanes; ++b) {
        const double d = x[b * m + c] - mu[c];
        acc[b] += d * d;
      }
    for (std::size_t b = 0; b < kLanes; ++b)
      best = pick(best, acc[b]);
  }
  for (; r < last; ++r)
    best = pick(best, squared(base + r * m, mu, m));
  return best;
}

// One draw with the window test folded into the drawing, so that a draw whose gamma is already
// known to be at most gamma_min is abandoned before its remaining points are drawn.
//
// Why this is exact (the accepted draws, and so the datasets, equal those of draw_dataset followed
// by cluster_stats; tests/test_generator_fast.cpp compares both on many seeds):
// - the Rng calls are the ones draw_dataset makes, in the same order, up to the point of stopping
//   (Rng::gaussians gives exactly the values of as many Rng::gaussian calls, and
//   gaussians_ziggurat as many gaussian_ziggurat calls); each draw has its
//   own stream, so abandoning one never shifts another;
// - once cluster i is complete its mean mu_i and radius r(C_i) are final and computed as
//   cluster_stats does (mean_of_rows over its rows in increasing order, the same sums of squares);
// - distances are kept squared: sqrt is correctly rounded and so monotone, hence the square root of
//   the largest (smallest) squared distance is the largest (smallest) distance, bit for bit;
// - every point of another cluster seen so far is an outsider of C_i, so the running minimum
//   out_i of d(y, mu_i) over them is at least the final nearest-outsider distance, and
//   fl(out_i / r_i) at least that cluster's final ratio (rounding is monotone). The final gamma
//   is the minimum of those ratios (Definition 2), so out_i / r_i <= gamma_min proves
//   gamma <= gamma_min: the draw would be rejected anyway. The ratio only decreases as points
//   arrive, so testing it after each block of points rejects exactly the draws that testing it
//   after each point rejects;
// - when every cluster is complete, out_i is the exact minimum over all outsiders, and gamma is
//   formed exactly as cluster_stats forms it.
// Too large a gamma cannot be known before the last point: a ratio only ever decreases as
// outsiders arrive.
class Drawer {
 public:
  explicit Drawer(const GeneratorParams& p)
      : p_(p),
        k_(static_cast<std::size_t>(p.k)),
        X_(static_cast<Eigen::Index>(p.n), static_cast<Eigen::Index>(p.m)),
        centers_(static_cast<Eigen::Index>(k_), static_cast<Eigen::Index>(p.m)) {}

  // Draws draw `d`; returns its gamma if it completed, or a value <= gamma_min once the draw is
  // known to be rejected (then X_ holds a partial draw).
  double draw(std::uint64_t d) {
    Rng rng = Rng::stream(p_.seed, {kStreamGenerator, d});
    const Eigen::Index m = X_.cols();
    const auto mm = static_cast<std::size_t>(m);
    for (Eigen::Index i = 0; i < centers_.rows(); ++i)
      for (Eigen::Index c = 0; c < m; ++c)
        centers_(i, c) = -p_.box + 2.0 * p_.box * rng.uniform01();
    const double inf = std::numeric_limits<double>::infinity();
    means_.clear();
    radius_.assign(k_, 0.0);
    outsider_.assign(k_, inf);
    outsider2_.assign(k_, inf);
    std::size_t row = 0;
    for (std::size_t i = 0; i < k_; ++i) {
      const std::size_t first = row;
      sums_.assign(mm, 0.0);
      const std::size_t size = p_.n / k_ + (i < p_.n % k_ ? 1 : 0);
      const double* center = centers_.row(static_cast<Eigen::Index>(i)).data();
      // The points of cluster i a block at a time: their Gaussians drawn together (row by row,
      // coordinate by coordinate, as draw_dataset draws them), then the block as outsiders of
      // every completed cluster.
      while (row < first + size) {
        const std::size_t rows = std::min(kBlockRows, first + size - row);
        noise_.resize(rows * mm);
        if (p_.gaussians == GaussianMethod::polar)
          rng.gaussians(noise_.data(), rows * mm);
        else
          rng.gaussians_ziggurat(noise_.data(), rows * mm);
        // The block's rows are contiguous (row-major) and so is its noise: one loop over both,
        // with sigma in a local (a load from p_ at every point otherwise, as a store to X_ might
        // change it for all the compiler knows).
        const double sigma = p_.sigma;
        double* x = X_.row(static_cast<Eigen::Index>(row)).data();
        const double* z = noise_.data();
        for (std::size_t b = 0; b < rows; ++b, x += mm, z += mm)
          for (std::size_t c = 0; c < mm; ++c)
            x[c] = center[c] + sigma * z[c];
        add_rows(row, rows);
        for (std::size_t t = 0; t < i; ++t) {
          const double o2 =
              extreme_squared<Take::min>(X_, row, row + rows, means_[t].data(), outsider2_[t]);
          if (!(o2 < outsider2_[t])) continue;
          outsider2_[t] = o2;
          outsider_[t] = std::sqrt(o2);
          if (radius_[t] > 0.0 && outsider_[t] / radius_[t] <= p_.gamma_min) return p_.gamma_min;
        }
        row += rows;
      }
      // Cluster i is complete: its mean and radius are final.
      means_.push_back(mean_of_block(first, size));
      const double* mu = means_[i].data();
      radius_[i] = std::sqrt(extreme_squared<Take::max>(X_, first, row, mu, 0.0));
      // Every earlier point is an outsider of cluster i.
      const double o2 = extreme_squared<Take::min>(X_, 0, first, mu, inf);
      outsider2_[i] = o2;
      outsider_[i] = std::sqrt(o2);
      if (radius_[i] > 0.0 && outsider_[i] / radius_[i] <= p_.gamma_min) return p_.gamma_min;
    }
    double gamma = inf;
    for (std::size_t i = 0; i < k_; ++i)
      gamma = std::min(gamma, cluster_ratio(radius_[i], outsider_[i]));
    return gamma;
  }

  // Adds rows [first, first + rows) to sums_, row by row (the order of mean_of_rows's sums),
  // eight coordinates at a time in locals: sums kept in memory would be stored and reloaded at
  // every row (the compiler cannot rule out that they alias the rows). Called on each block as it
  // is drawn, so that these additions, one waiting on the last, overlap the next block's drawing
  // instead of making a chain of their own when the cluster is complete. The number of lanes is a
  // template argument: with a count known only at run time the locals lived on the stack, and
  // each row's addition waited on a store and a reload as well as on the last addition.
  void add_rows(std::size_t first, std::size_t rows) {
    const auto m = static_cast<std::size_t>(X_.cols());
    for (std::size_t c0 = 0; c0 < m; c0 += kLanes) {
      const double* x = X_.data() + first * m + c0;  // row-major
      double* sums = sums_.data() + c0;
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
  Vector mean_of_block(std::size_t first, std::size_t size) {
    const auto m = static_cast<std::size_t>(X_.cols());
    for (std::size_t c = 0; c < m; ++c)
      if (std::isinf(sums_[c])) {
        rows_.resize(size);
        for (std::size_t r = 0; r < size; ++r)
          rows_[r] = first + r;
        return mean_of_rows(X_, rows_);
      }
    Vector mu(X_.cols());
    const double count = static_cast<double>(size);
    for (std::size_t c = 0; c < m; ++c)
      mu[static_cast<Eigen::Index>(c)] = sums_[c] / count;
    return mu;
  }

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
  std::vector<double> sums_;       // the current cluster's coordinate sums so far (add_rows)
  std::vector<std::size_t> rows_;  // mean_of_block's rows, when it needs mean_of_rows
  static constexpr std::size_t kBlockRows = 32;
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
      Generated out{drawer.take(), g, d + 1};
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
