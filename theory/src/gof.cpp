// Goodness-of-fit statistics of `ssac gof` (theory/include/ssac/theory/gof.hpp).
#include "ssac/theory/gof.hpp"

#include <algorithm>
#include <boost/math/distributions/binomial.hpp>
#include <boost/math/special_functions/gamma.hpp>
#include <cmath>
#include <limits>
#include <string>

#include "ssac/error.hpp"

namespace ssac::theory {

namespace {

void check_law(const std::vector<double>& p, std::size_t counts) {
  if (p.size() != counts) throw ParameterError("goodness of fit: one count per outcome is needed");
  if (p.empty()) throw ParameterError("goodness of fit: no outcomes");
  double sum = 0;
  for (double x : p) {
    if (!(x > 0 && x <= 1)) throw ParameterError("goodness of fit: a probability outside (0, 1]");
    sum += x;
  }
  if (std::fabs(sum - 1) > 1e-9) throw ParameterError("goodness of fit: probabilities sum to 1");
}

}  // namespace

double multinomial_tables(std::uint64_t n, std::size_t K) {
  // C(n + K - 1, K - 1) = prod_{i=1}^{K-1} (n + i) / i, in logarithms past the largest double.
  if (K <= 1) return 1;
  const double lg = std::lgamma(static_cast<double>(n) + static_cast<double>(K)) -
                    std::lgamma(static_cast<double>(n) + 1) - std::lgamma(static_cast<double>(K));
  if (lg > 709) return std::numeric_limits<double>::infinity();
  return std::round(std::exp(lg));
}

double exact_multinomial_p(const std::vector<double>& p, const std::vector<std::uint64_t>& counts,
                           double max_tables) {
  check_law(p, counts.size());
  std::uint64_t n = 0;
  for (std::uint64_t c : counts)
    n += c;
  const double tables = multinomial_tables(n, p.size());
  if (tables > max_tables)
    throw ParameterError("the exact multinomial test would enumerate " + std::to_string(tables) +
                         " tables, more than " + std::to_string(max_tables));
  const std::size_t K = p.size();
  std::vector<double> logp(K);
  for (std::size_t i = 0; i < K; ++i)
    logp[i] = std::log(p[i]);
  // log P(y) = log n! + sum_i (y_i log p_i - log y_i!).
  const double log_nfact = std::lgamma(static_cast<double>(n) + 1);
  auto term = [&](std::size_t i, std::uint64_t y) {
    return static_cast<double>(y) * logp[i] - std::lgamma(static_cast<double>(y) + 1);
  };
  double observed = log_nfact;
  for (std::size_t i = 0; i < K; ++i)
    observed += term(i, counts[i]);
  const double cut = observed + 1e-9 * std::max(1.0, std::fabs(observed));
  double total = 0;
  // Depth-first over y_1..y_{K-1}; y_K takes the rest.
  auto walk = [&](auto&& self, std::size_t i, std::uint64_t left, double acc) -> void {
    if (i + 1 == K) {
      const double lp = acc + term(i, left);
      if (lp <= cut) total += std::exp(lp);
      return;
    }
    for (std::uint64_t y = 0; y <= left; ++y)
      self(self, i + 1, left - y, acc + term(i, y));
  };
  walk(walk, 0, n, log_nfact);
  return std::min(1.0, total);
}

GTest g_test(const std::vector<double>& p, const std::vector<std::uint64_t>& counts) {
  check_law(p, counts.size());
  if (p.size() < 2) throw ParameterError("the G-test needs at least two cells");
  std::uint64_t n = 0;
  for (std::uint64_t c : counts)
    n += c;
  if (n == 0) throw ParameterError("the G-test needs at least one observation");
  GTest t;
  for (std::size_t i = 0; i < p.size(); ++i)
    if (counts[i] > 0) {
      const double o = static_cast<double>(counts[i]);
      t.g += 2 * o * std::log(o / (static_cast<double>(n) * p[i]));
    }
  t.g = std::max(0.0, t.g);
  const auto K = static_cast<double>(p.size());
  t.df = K - 1;
  // Williams (1976): dividing G by q brings its null distribution closer to chi-square(K - 1).
  t.williams = 1 + (K + 1) / (6 * static_cast<double>(n));
  t.p_value = boost::math::gamma_q(t.df / 2, t.g / t.williams / 2);
  return t;
}

std::pair<std::vector<std::size_t>, std::size_t> pool_cells(const std::vector<double>& p,
                                                            std::uint64_t n, double min_expected) {
  const auto N = static_cast<double>(n);
  std::vector<std::size_t> cell(p.size());
  std::size_t cells = 0;
  double pooled = 0;
  bool any_pooled = false;
  const std::size_t none = static_cast<std::size_t>(-1);
  for (std::size_t i = 0; i < p.size(); ++i) {
    if (N * p[i] >= min_expected) {
      cell[i] = cells++;
    } else {
      cell[i] = none;
      pooled += N * p[i];
      any_pooled = true;
    }
  }
  if (!any_pooled) return {cell, cells};
  std::size_t target = cells;  // a cell of its own
  if (pooled < min_expected && cells > 0) {
    // The smallest other cell (the first of equals) takes the pooled outcomes.
    double smallest = std::numeric_limits<double>::infinity();
    for (std::size_t i = 0; i < p.size(); ++i)
      if (cell[i] != none && N * p[i] < smallest) {
        smallest = N * p[i];
        target = cell[i];
      }
  } else {
    ++cells;
  }
  for (std::size_t& c : cell)
    if (c == none) c = target;
  return {cell, cells};
}

std::pair<double, double> clopper_pearson(std::uint64_t x, std::uint64_t n, double alpha) {
  if (n == 0) throw ParameterError("trials = 0: an interval needs at least one trial");
  if (x > n) throw ParameterError("successes exceed the trials");
  if (!(alpha > 0 && alpha < 1))
    throw ParameterError("alpha = " + std::to_string(alpha) + " is outside (0, 1)");
  using boost::math::binomial_distribution;
  const auto N = static_cast<double>(n), X = static_cast<double>(x);
  const double lo =
      x == 0 ? 0.0 : binomial_distribution<double>::find_lower_bound_on_p(N, X, alpha / 2);
  const double hi =
      x == n ? 1.0 : binomial_distribution<double>::find_upper_bound_on_p(N, X, alpha / 2);
  return {lo, hi};
}

}  // namespace ssac::theory
