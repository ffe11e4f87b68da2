// The empirical sampling number (`ssac calibrate`): the smallest value on a grid of eta (or beta)
// whose failure probability is at most delta with confidence 1 - alpha, measured by simulation
// and certified with the exact one-sided Clopper-Pearson bound; beside it the theorems' values.
// The statistics are here (exact binomial computations with Boost.Math); the simulation is a
// callback, so tests can pass a deterministic stand-in. docs/calibrate.md states the plan.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

namespace ssac::theory {

// The exact one-sided Clopper-Pearson upper bound on a binomial p at confidence 1 - alpha after
// `failures` in `trials` (boost::math::binomial_distribution::find_upper_bound_on_p): the p with
// P(Bin(trials, p) <= failures) = alpha; 1 when failures = trials.
double clopper_pearson_upper(std::uint64_t failures, std::uint64_t trials, double alpha);

// The number of reps N per grid value. A value passes when the Clopper-Pearson upper bound of its
// failure count is <= delta, i.e. when it has at most `max_failures` = c_N failures. N is the
// smallest number of trials with P(Bin(N, delta/2) <= c_N) >= power (0.95): a value whose true
// failure probability is delta/2 passes with probability `power_at_half` >= power. Whatever N,
// a value whose true failure probability is >= delta passes with probability at most
// `false_pass_at_delta` = P(Bin(N, delta) <= c_N) <= alpha (Clopper-Pearson is exact).
struct RepPlan {
  std::uint64_t reps = 0;
  std::uint64_t max_failures = 0;  // c_N; a value with more failures does not pass
  double power_at_half = 0.0;      // P(pass | p = delta/2)
  double false_pass_at_delta = 0.0;
};
// delta in (0, 1), alpha in (0, 1), power in (0, 1); throws ParameterError otherwise, and when no
// N <= max_reps reaches the power.
RepPlan rep_plan(double delta, double alpha, double power = 0.95,
                 std::uint64_t max_reps = 10000000);

// The one-sided exact conditional test that the failure probability at a larger grid value is
// higher than at a smaller one, both measured with the same number of reps: given t = a + b
// failures in total (a at the smaller value, b at the larger), b ~ Bin(t, 1/2) when the two
// probabilities are equal; the p-value is P(Bin(t, 1/2) >= b) (1 when t = 0). Under equal
// probabilities a rise is reported with probability at most alpha per pair (less when the larger
// value's probability is lower).
double rise_p_value(std::uint64_t a, std::uint64_t b);

// What one batch of reps measured at one grid value.
struct Counts {
  std::uint64_t event = 0;            // reps in which the tested failure event happened
  std::uint64_t paper_failures = 0;   // reps with fewer than k clusters (#Failure, Section 5.2)
  std::uint64_t search_failures = 0;  // reps in which a Phase-2 binary search returned fail
};
// Runs `reps` reps at every grid value with run seed `seed` and returns the counts per value.
using Counter = std::function<std::vector<Counts>(const std::vector<double>& values,
                                                  std::uint64_t seed, std::uint64_t reps)>;

struct GridPoint {
  double value = 0.0;
  Counts counts;
  std::uint64_t reps = 0;
  double upper = 0.0;  // Clopper-Pearson upper bound on the event's probability
  bool pass = false;   // upper <= delta
};
struct Rise {
  std::size_t from = 0, to = 0;  // consecutive grid indices, from < to
  double p_value = 0.0;          // rise_p_value; reported when < alpha
};
struct Calibration {
  RepPlan plan;
  std::vector<GridPoint> grid;        // every grid value, measured with `seed`
  std::optional<std::size_t> chosen;  // the smallest passing value's index
  // The re-checks, in order: passing grid values from the smallest up, each measured again with
  // its own fresh seed recheck_seed(seed, attempt), until one passes or `max_rechecks` are done.
  std::vector<GridPoint> rechecks;
  std::vector<std::uint64_t> recheck_seeds;
  std::optional<std::size_t> confirmed;  // index in `grid` of the value a re-check confirmed
  std::uint64_t seed = 0;
  std::vector<Rise> rises;                  // where the event's rate rises significantly
  std::vector<std::size_t> pass_then_fail;  // indices i passing with a larger value failing
};
// The fresh seed of re-check `attempt` (1, 2, ...): Rng::stream(seed, {kStreamRecheck, attempt}).
inline constexpr std::uint64_t kStreamRecheck = 71;
std::uint64_t recheck_seed(std::uint64_t seed, std::uint64_t attempt);

// Measures every grid value (ascending, distinct) with the plan's reps -- all of them, not only up
// to the first that passes, since the failure probability is not assumed to fall with the value --
// then re-checks the passing values from the smallest up, each on a fresh seed, until one passes
// its re-check. The reported bound is that independent re-check's. A value whose failure
// probability is >= delta is confirmed with probability at most alpha per re-check, so at most
// (number of re-checks) * alpha in all (union bound).
Calibration calibrate(const std::vector<double>& grid, double delta, double alpha,
                      std::uint64_t seed, const Counter& counter, double power = 0.95,
                      std::size_t max_rechecks = 3);

}  // namespace ssac::theory
