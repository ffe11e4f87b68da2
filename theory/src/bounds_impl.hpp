// Template definitions behind ssac/theory/bounds.hpp. Included by bounds.cpp (explicit
// instantiations for double and Real50) and certify.cpp (which also evaluates at 150 and 500
// digits to certify ceilings). The stable forms are derived in proofs-notes/bounds.md,
// "Numerically stable forms".
#pragma once

#include <boost/math/special_functions/expm1.hpp>
#include <boost/math/special_functions/log1p.hpp>
#include <cmath>
#include <string>

#include "ssac/error.hpp"
#include "ssac/theory/bounds.hpp"

namespace ssac::theory::detail {

// Range checks on the real type itself: converting first to double could turn an admissible
// 50-digit value such as 1 - 1e-30 into an inadmissible 1.0.
template <class Real>
void check_open_unit(const char* name, const Real& x) {
  if (!(x > 0 && x < 1)) throw_out_of_range(name, static_cast<double>(x), "(0, 1)");
}
template <class Real>
void check_half_open_unit(const char* name, const Real& x) {
  if (!(x > 0 && x <= 1)) throw_out_of_range(name, static_cast<double>(x), "(0, 1]");
}
template <class Real>
void check_gamma(const Real& gamma) {
  using boost::multiprecision::isfinite;
  using std::isfinite;
  if (!(gamma > 1) || !isfinite(gamma))
    throw_out_of_range("gamma", static_cast<double>(gamma), "(1, inf)");
}

// -log(1 - qa (1 - e^{-c})) for qa = e^{log_qa} in (0, 1] and c > 0: the denominator
// log(1 / (1 - qa + qa e^{-c})) of Lemma distance_ran. Neither branch subtracts nearly equal
// numbers: 1 - e^{-c} is expm1, and when qa (1 - e^{-c}) > 1/2 both qa and 1 - e^{-c} exceed 1/2,
// so 1 - qa + qa e^{-c} is a sum of two nonnegative terms with 1 - qa = -expm1(log_qa).
template <class Real>
Real log_inv_mixture(const Real& log_qa, const Real& c) {
  using std::exp;
  using std::expm1;
  using std::log;
  using std::log1p;
  const Real qa = exp(log_qa);
  const Real a = -expm1(-c);
  const Real x = qa * a;
  if (x <= Real(0.5)) return -log1p(-x);
  const Real one_minus_qa = -expm1(log_qa);
  return -log(one_minus_qa + qa * exp(-c));
}

// (gamma - 1)^2 / 8 = epsilon^2 / 2 at epsilon = (gamma - 1)/2 (Lemma 5 of Ashtiani et al., used
// in the proof of Lemma distance_ran). gamma - 1 is exact for a double gamma in [1, 2] and for
// every double gamma in the 50-digit type.
template <class Real>
Real half_eps_squared(const Real& gamma) {
  const Real g = gamma - 1;
  return g * g / 8;
}

template <class Real>
Real log_q_assign_lower(long long k, const Real& q) {
  using std::log;
  return Real(k - 1) * log(q);
}

}  // namespace ssac::theory::detail

namespace ssac::theory {

template <class Real>
Real assign_success_exact(long long k, const Real& q) {
  using std::pow;
  check_k(k);
  detail::check_half_open_unit("q", q);
  if (k == 1) return Real(1);
  return q + (1 - q) * pow(q, Real(k - 1));
}

template <class Real>
Real assign_success_paper(long long k, const Real& q) {
  using std::pow;
  check_k(k);
  detail::check_half_open_unit("q", q);
  const Real qk1 = pow(q, Real(k - 1));
  return Real(k) * (1 - q) * qk1 + qk1 * q;
}

template <class Real>
Real assign_success_lower(long long k, const Real& q) {
  using std::pow;
  check_k(k);
  detail::check_half_open_unit("q", q);
  return pow(q, Real(k - 1));
}

template <class Real>
Real eta_perfect(long long k, long long m, const Real& delta, const Real& gamma) {
  using std::log;
  check_k(k);
  check_m(m);
  detail::check_open_unit("delta", delta);
  detail::check_gamma(gamma);
  // Remark after Theorem 1; every term of the numerator is >= 0, so no cancellation.
  const Real g = gamma - 1;
  return 8 * (log(Real(k)) + log(Real(m + 1)) - log(delta)) / (g * g);
}

template <class Real>
Real eta_assign(long long k, long long m, const Real& delta, const Real& gamma,
                const Real& q_assign) {
  using std::log;
  check_k(k);
  check_m(m);
  detail::check_open_unit("delta", delta);
  detail::check_gamma(gamma);
  detail::check_half_open_unit("q_assign", q_assign);
  // Lemma distance_ran, last line of the proof (target delta/(2k)).
  const Real num = log(Real(2 * k)) + log(Real(m + 1)) - log(delta);
  return num / detail::log_inv_mixture(Real(log(q_assign)), detail::half_eps_squared(gamma));
}

template <class Real>
Real eta_random(long long k, long long m, const Real& delta, const Real& gamma, const Real& q) {
  using std::log;
  check_k(k);
  check_m(m);
  detail::check_open_unit("delta", delta);
  detail::check_gamma(gamma);
  detail::check_half_open_unit("q", q);
  // Theorem 1: Lemma distance_ran with q_assign = q^(k-1), passed as its logarithm so that
  // q^(k-1) never underflows before the denominator is formed.
  const Real num = log(Real(2 * k)) + log(Real(m + 1)) - log(delta);
  return num /
         detail::log_inv_mixture(detail::log_q_assign_lower(k, q), detail::half_eps_squared(gamma));
}

template <class Real>
Real eta_perfect_pinelis(long long k, const Real& delta, const Real& gamma) {
  using std::log;
  check_k(k);
  detail::check_open_unit("delta", delta);
  detail::check_gamma(gamma);
  const Real g = gamma - 1;
  return 8 * (log(Real(k)) + log(Real(2)) - log(delta)) / (g * g);
}

template <class Real>
Real eta_random_pinelis(long long k, const Real& delta, const Real& gamma, const Real& q) {
  using std::log;
  check_k(k);
  detail::check_open_unit("delta", delta);
  detail::check_gamma(gamma);
  detail::check_half_open_unit("q", q);
  const Real num = log(Real(2 * k)) + log(Real(2)) - log(delta);
  return num /
         detail::log_inv_mixture(detail::log_q_assign_lower(k, q), detail::half_eps_squared(gamma));
}

template <class Real>
Real eta_distance_weak(long long k, long long m, const Real& delta, const Real& epsilon,
                       const Real& q) {
  using std::log;
  check_k(k);
  check_m(m);
  detail::check_open_unit("delta", delta);
  if (!(epsilon > 0)) throw_out_of_range("epsilon", static_cast<double>(epsilon), "(0, inf)");
  detail::check_half_open_unit("q", q);
  // Proof of Theorem 2: target delta/k (no budget for the binary search), hence log k.
  const Real num = log(Real(k)) + log(Real(m + 1)) - log(delta);
  return num / detail::log_inv_mixture(detail::log_q_assign_lower(k, q), epsilon * epsilon / 2);
}

namespace detail {
// Theorem 1's union bound over the search: beta >= log(2k * steps / delta) / log(1/(1-q)), where
// `log_steps(n)` is log of the number of search steps the bound pays for; it is called only after
// the inputs are checked.
template <class Real, class LogSteps>
Real beta_for_steps(long long k, long long n, const Real& delta, const Real& q,
                    LogSteps log_steps) {
  using std::log;
  using std::log1p;
  check_k(k);
  check_n(n);
  check_open_unit("delta", delta);
  check_half_open_unit("q", q);
  // Proof of Theorem 1: lim_{q -> 1} log(1/(1-q)) = inf and the condition becomes beta >= 0.
  if (q == 1) return Real(0);
  return (log(Real(2 * k)) + log_steps(n) - log(delta)) / -log1p(-q);
}
}  // namespace detail

template <class Real>
Real beta_random(long long k, long long n, const Real& delta, const Real& q) {
  using std::log;
  // The paper's log log n. log log n < 0 for n = 2, but the numerator is log(2k log n / delta) >
  // log(1.38) > 0.
  return detail::beta_for_steps(k, n, delta, q, [](long long v) { return log(log(Real(v))); });
}

template <class Real>
Real beta_union(long long k, long long n, const Real& delta, const Real& q) {
  using std::log;
  // The search's own step count, floor(log2 n) + 1.
  return detail::beta_for_steps(k, n, delta, q,
                                [](long long v) { return log(Real(search_steps(v))); });
}

template <class Real>
Real dim_threshold_log10(long long k, const Real& delta, const Real& gamma) {
  using std::log;
  check_k(k);
  detail::check_open_unit("delta", delta);
  detail::check_gamma(gamma);
  // Section 3.2: (k/delta)^{1/(gamma-1)^2 - 1}. The exponent (1-g)(1+g)/g^2 avoids the
  // cancellation of 1/g^2 - 1 near gamma = 2.
  const Real g = gamma - 1;
  const Real exponent = (1 - g) * (1 + g) / (g * g);
  return exponent * (log(Real(k)) - log(delta)) / log(Real(10));
}

template <class Real>
Real corollary1_expression(long long k, long long m, long long n, const Real& delta,
                           const Real& gamma, const Real& q) {
  using std::log;
  check_k(k);
  check_m(m);
  check_n(n);
  detail::check_open_unit("delta", delta);
  detail::check_gamma(gamma);
  detail::check_half_open_unit("q", q);
  // Corollary 1 as printed: e^{-(gamma-1)^2} (not /8) and log m (not log(m+1)).
  const Real g = gamma - 1;
  const Real eta_like = (log(Real(k)) + log(Real(m)) - log(delta)) /
                        detail::log_inv_mixture(detail::log_q_assign_lower(k, q), Real(g * g));
  return beta_random(k, n, delta, q) * Real(k) * log(Real(n)) + Real(k) * Real(k) * eta_like;
}

}  // namespace ssac::theory
