#include "ssac/generator.hpp"

#include <cmath>
#include <string>

#include "ssac/error.hpp"
#include "ssac/rng.hpp"

namespace ssac {

void GeneratorParams::check() const {
  if (n < 2 || n > 100000000) throw_out_of_range("n", static_cast<long long>(n), "[2, 1e8]");
  if (m < 1 || m > 100000) throw_out_of_range("m", static_cast<long long>(m), "[1, 100000]");
  if (k < 1 || static_cast<std::size_t>(k) > n)
    throw_out_of_range("k", static_cast<long long>(k), "[1, n] = [1, " + std::to_string(n) + "]");
  if (!(sigma > 0.0) || !std::isfinite(sigma)) throw_out_of_range("std", sigma, "(0, inf)");
  if (!(gamma_min >= 0.0) || !std::isfinite(gamma_min))
    throw_out_of_range("gamma-min", gamma_min, "[0, inf)");
  if (!(gamma_max > gamma_min))
    throw_out_of_range("gamma-max", gamma_max,
                       "(gamma-min, inf] = (" + format_double(gamma_min) + ", inf]");
  if (!(box > 0.0) || !std::isfinite(box)) throw_out_of_range("box", box, "(0, inf)");
  if (max_draws < 1) throw_out_of_range("max-draws", static_cast<long long>(max_draws), "[1, inf)");
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
            centers(static_cast<Eigen::Index>(i), c) + p.sigma * rng.gaussian();
      d.labels[row] = static_cast<int>(i + 1);
    }
  }
  return d;
}

Generated generate(const GeneratorParams& p) {
  p.check();
  for (std::uint64_t d = 0; d < p.max_draws; ++d) {
    Dataset data = draw_dataset(p, d);
    const double g = cluster_stats(data.points, data.labels).gamma;
    if (g > p.gamma_min && g <= p.gamma_max) return Generated{std::move(data), g, d + 1};
  }
  throw DataError("generator: no draw in " + std::to_string(p.max_draws) +
                  " had its gamma-margin in (" + format_double(p.gamma_min) + ", " +
                  format_double(p.gamma_max) + "]; widen the window, change --std or raise " +
                  "--max-draws");
}

}  // namespace ssac
