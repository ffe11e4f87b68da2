// The statistics of `ssac calibrate` (theory/include/ssac/theory/calibrate.hpp): exact
// Clopper-Pearson bounds, the rep plan, the conditional rise test and the grid scan.
#include "ssac/theory/calibrate.hpp"

#include <algorithm>
#include <boost/math/distributions/binomial.hpp>
#include <cmath>
#include <string>

#include "ssac/error.hpp"
#include "ssac/rng.hpp"

namespace ssac::theory {

namespace {

using boost::math::binomial_distribution;

void check_open_unit(const char* name, double x) {
  if (!(x > 0.0 && x < 1.0))
    throw ParameterError(std::string(name) + " = " + format_double(x) +
                         " is outside its admissible range (0, 1)");
}

double binomial_cdf(std::uint64_t x, std::uint64_t n, double p) {
  return boost::math::cdf(binomial_distribution<double>(static_cast<double>(n), p),
                          static_cast<double>(x));
}

}  // namespace

double clopper_pearson_upper(std::uint64_t failures, std::uint64_t trials, double alpha) {
  if (trials == 0) throw ParameterError("trials = 0: a bound needs at least one trial");
  if (failures > trials) throw ParameterError("failures exceed the trials");
  check_open_unit("alpha", alpha);
  if (failures == trials) return 1.0;
  return binomial_distribution<double>::find_upper_bound_on_p(static_cast<double>(trials),
                                                              static_cast<double>(failures), alpha);
}

RepPlan rep_plan(double delta, double alpha, double power, std::uint64_t max_reps) {
  check_open_unit("delta", delta);
  check_open_unit("alpha", alpha);
  check_open_unit("power", power);
  // c_N (the largest count whose bound is <= delta) does not decrease with N, since the bound for
  // a fixed count falls as N grows; so it is carried from one N to the next. c_N = -1 (nothing
  // passes) is held as `some = false`.
  std::uint64_t c = 0;
  bool some = false;
  for (std::uint64_t n = 1; n <= max_reps; ++n) {
    while ((some ? c + 1 : 0) <= n && clopper_pearson_upper(some ? c + 1 : 0, n, alpha) <= delta) {
      c = some ? c + 1 : 0;
      some = true;
    }
    if (!some) continue;
    const double pw = binomial_cdf(c, n, delta / 2);
    if (pw >= power) return {n, c, pw, binomial_cdf(c, n, delta)};
  }
  throw ParameterError("no number of reps up to " + std::to_string(max_reps) +
                       " reaches the power; raise delta or alpha");
}

double rise_p_value(std::uint64_t a, std::uint64_t b) {
  const std::uint64_t t = a + b;
  if (t == 0 || b == 0) return 1.0;
  // P(Bin(t, 1/2) >= b) = 1 - P(Bin(t, 1/2) <= b - 1).
  return boost::math::cdf(boost::math::complement(
      binomial_distribution<double>(static_cast<double>(t), 0.5), static_cast<double>(b - 1)));
}

std::uint64_t recheck_seed(std::uint64_t seed, std::uint64_t attempt) {
  return Rng::stream(seed, {kStreamRecheck, attempt}).next_u64();
}

Calibration calibrate(const std::vector<double>& grid, double delta, double alpha,
                      std::uint64_t seed, const Counter& counter, double power,
                      std::size_t max_rechecks) {
  if (grid.empty()) throw ParameterError("grid: the list is empty; give at least one value");
  for (std::size_t i = 1; i < grid.size(); ++i)
    if (!(grid[i - 1] < grid[i]))
      throw ParameterError("grid: the values must be strictly increasing");
  Calibration out;
  out.plan = rep_plan(delta, alpha, power);
  out.seed = seed;
  const std::uint64_t n = out.plan.reps;
  auto point = [&](double value, const Counts& counts) {
    GridPoint g;
    g.value = value;
    g.counts = counts;
    g.reps = n;
    g.upper = clopper_pearson_upper(counts.event, n, alpha);
    g.pass = g.upper <= delta;
    return g;
  };
  const std::vector<Counts> counts = counter(grid, seed, n);
  if (counts.size() != grid.size()) throw ParameterError("calibrate: the counter's result size");
  for (std::size_t i = 0; i < grid.size(); ++i)
    out.grid.push_back(point(grid[i], counts[i]));
  for (std::size_t i = 0; i < out.grid.size(); ++i) {
    if (out.grid[i].pass && !out.chosen) out.chosen = i;
    if (i + 1 < out.grid.size()) {
      const double p = rise_p_value(out.grid[i].counts.event, out.grid[i + 1].counts.event);
      if (p < alpha) out.rises.push_back({i, i + 1, p});
    }
    if (out.grid[i].pass)
      for (std::size_t j = i + 1; j < out.grid.size(); ++j)
        if (!out.grid[j].pass) {
          out.pass_then_fail.push_back(i);
          break;
        }
  }
  for (std::size_t i = 0; i < out.grid.size() && out.rechecks.size() < max_rechecks; ++i) {
    if (!out.grid[i].pass) continue;
    const std::uint64_t s = recheck_seed(seed, out.rechecks.size() + 1);
    const std::vector<Counts> again = counter({grid[i]}, s, n);
    if (again.size() != 1) throw ParameterError("calibrate: the counter's result size");
    out.rechecks.push_back(point(grid[i], again[0]));
    out.recheck_seeds.push_back(s);
    if (out.rechecks.back().pass) {
      out.confirmed = i;
      break;
    }
  }
  return out;
}

}  // namespace ssac::theory
