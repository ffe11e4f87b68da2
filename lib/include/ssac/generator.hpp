// The synthetic data of the paper's Section 5.1: isotropic Gaussian clusters whose
// gamma-margin (Definition 2) falls in a window (gamma_min, gamma_max].
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ssac/data.hpp"
#include "ssac/rng.hpp"

namespace ssac {

// The most datasets one call draws before giving up (GeneratorParams::max_draws): a window the
// generator cannot reach ends after a bounded time, not never (2^64 - 1 draws).
inline constexpr std::uint64_t kMaxDraws = 1000000000;

struct GeneratorParams {
  std::size_t n = 1500;
  std::size_t m = 2;
  int k = 3;
  double sigma = 1.75;               // standard deviation of every coordinate
  double gamma_min = 1.0;            // exclusive
  double gamma_max = 1.1;            // inclusive; may be +inf
  double box = 10.0;                 // centers uniform in [-box, box]^m
  std::uint64_t max_draws = 100000;  // 1..kMaxDraws
  std::uint64_t seed = 0;
  // Rows in a uniformly random order (the authors' code's make_blobs shuffles them) instead of
  // cluster 1's rows first: an accepted dataset's rows are permuted by Fisher-Yates from the
  // stream Rng::stream(seed, {kStreamShuffle}). The points, gamma and draws are unchanged.
  bool shuffle = false;
  // The Gaussian stream (ssac/rng.hpp): version 1, the polar method; version 2, the ziggurat;
  // versions 3 and 4, the same with a stream per cluster. The same seed gives other datasets under
  // another version.
  GaussianMethod gaussians = GaussianMethod::polar;

  // Throws ParameterError naming the first field outside its range.
  void check() const;
};

// "polar" | "ziggurat" | "polar-clusters" | "ziggurat-clusters" (the --gaussians option,
// summary.json's "gaussians"); parse throws ParameterError naming `option` and the values.
std::string to_string(GaussianMethod g);
GaussianMethod parse_gaussian_method(const std::string& option, const std::string& name);
const std::vector<std::string>& gaussian_method_names();  // in the order of their versions

struct Generated {
  Dataset data;  // columns x1..xm, labels 1..k, cluster 1's rows first, then cluster 2's, ...
  double gamma = 0.0;
  std::uint64_t draws = 0;  // datasets drawn, the accepted one included
  // Points drawn over all the draws, the abandoned ones' partial draws included: what the early
  // rejection (generator.cpp) saved, for tests and benchmarks. Not part of any output.
  std::uint64_t points = 0;
};

// Draw d (d = 0, 1, ...) uses its own stream Rng::stream(seed, {kStreamGenerator, d}): k centers
// (coordinate by coordinate, -box + 2 box u), then the points of cluster 1, 2, ..., each
// coordinate center + sigma * N(0,1). Under versions 3 and 4 (per_cluster) the centers are the
// same, and the N(0,1) draws of cluster i (1-based) come from its own stream
// Rng::stream(seed, {kStreamGenerator, d, i}) instead, so that the clusters can be drawn in any
// order and give the same dataset. Cluster i (1-based) has floor(n/k) points, plus one when
// i <= n mod k. A draw is kept iff gamma_min < gamma <= gamma_max; after max_draws rejected draws
// a DataError says the window was not reached. A draw is abandoned as soon as its gamma is known
// to be at most gamma_min, or, when its last cluster completes, known to exceed gamma_max (see
// generator.cpp); the accepted dataset, its gamma and `draws` are
// exactly those of testing every complete draw_dataset() with cluster_stats().
Generated generate(const GeneratorParams& params);

// One draw, without the window test (exposed for tests and the experiment driver).
Dataset draw_dataset(const GeneratorParams& params, std::uint64_t draw_index);

// Versions 3 and 4's earlier rejection in the plane (generator.cpp, "The hull rule"), exposed for
// tests.
// hull_rule_slack: the least squared distance a witness must keep from an outsider, or nothing
// where the rule does not apply (version 1 or 2, m != 2, k < 2, gamma_min < 1, or a sigma or box
// outside the range its error bound covers).
std::optional<double> hull_rule_slack(const GeneratorParams& params);
// True when each of the four open quadrants around y (y[0], y[1]) holds a point of P (count rows,
// row-major, two columns) whose computed squared distance to y exceeds `slack`. Then y lies
// strictly inside the convex hull of P.
bool quadrant_certificate(const double* P, std::size_t count, const double* y, double slack);
// The bound that rejects a draw above the window when its last cluster completes (generator.cpp):
// true only when every point within r_t of mu_t (cluster t, its computed mean and radius) is, as
// computed, farther than gamma * r_i from mu_i, with room for the rounding of m <= 1e5
// coordinates. Exposed for tests.
bool outsiders_beyond(const double* mu_i, const double* mu_t, std::size_t m, double r_t, double r_i,
                      double gamma);

inline constexpr std::uint64_t kStreamGenerator = 1;
inline constexpr std::uint64_t kStreamShuffle = 6;

}  // namespace ssac
