#include "ssac/ranges.hpp"

#include <cmath>
#include <string>

#include "ssac/error.hpp"

namespace ssac::range {

void check_k(long long k, std::size_t n) {
  if (k < 1 || static_cast<unsigned long long>(k) > n)
    throw_out_of_range("k", k, "[1, n] = [1, " + std::to_string(n) + "]");
}

void check_eta(double eta, int k) {
  if (!(eta > 0.0) || !std::isfinite(eta)) throw_out_of_range("eta", eta, "(0, inf)");
  // The run draws r = ceil(k eta) of the exact product (Params::sample_size), and r <= kMax holds
  // iff the exact product is at most kMax. The double product may round down onto kMax (k = 11,
  // eta = 90909.09090909091: fl(k eta) = 1e6, the exact product a little more, r = 1000001); fma
  // gives the rounding error exactly, so the test is of the exact product.
  const double kd = static_cast<double>(k), prod = kd * eta,
               cap = static_cast<double>(kMaxSampleSize);
  if (prod > cap || (prod == cap && std::fma(kd, eta, -prod) > 0.0))
    throw_out_of_range("eta", eta,
                       "(0, 1e6 / k] (r = ceil(k eta) must stay at most 1e6 draws, which Phase 1 "
                       "keeps in about 120 MB)");
}

namespace {

// [lo, hi] of integers, written as every integer range is: "[2, 100000000]".
void check_closed(const char* name, long long v, long long lo, long long hi) {
  if (v < lo || v > hi)
    throw_out_of_range(name, v, "[" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
}

}  // namespace

void check_beta(long long beta) {
  check_closed("beta", beta, 1, kMaxBeta);
}

void check_points(long long n) {
  check_closed("n", n, kMinPoints, kMaxPoints);
}

void check_dimension(long long m) {
  check_closed("m", m, 1, kMaxDimension);
}

void check_clusters(long long k) {
  check_closed("k", k, 1, kMaxClusters);
}

void check_reps(long long reps) {
  check_closed("reps", reps, 1, kMaxReps);
}

void check_q(double q) {
  if (!(q > 0.0 && q <= 1.0)) throw_out_of_range("q", q, "(0, 1]");
}

void check_nu(double nu) {
  if (!(nu >= 1.0 && std::isfinite(nu))) throw_out_of_range("nu", nu, "[1, inf)");
}

void check_rho(double rho) {
  if (!(rho > 0.0 && rho <= 1.0)) throw_out_of_range("rho", rho, "(0, 1]");
}

}  // namespace ssac::range
