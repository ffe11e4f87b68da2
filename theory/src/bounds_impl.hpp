// Template definitions behind ssac/theory/bounds.hpp. Included by bounds.cpp (explicit
// instantiations for double and Real50) and certify.cpp (which also evaluates at 150 and 500
// digits to certify ceilings). The stable forms are derived in proofs-notes/bounds.md,
// "Numerically stable forms".
//
// Every bound is written once, in namespace detail, on the quantities through which the inputs
// enter it: log delta, g = gamma - 1, log q and log(1 - q). The public templates form these from
// their real arguments exactly as before; ExactTerms forms them from exact decimals, subtracting
// before rounding (gamma - 1, 1 - q, 1 - delta), so that no input loses digits to cancellation.
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

// ---- The bounds on their terms; arguments are checked by the callers. -------------------------
// Remark after Theorem 1 (log_h = log(m+1)) and its Pinelis variant (log_h = log 2); every term
// of the numerator is >= 0, so no cancellation.
template <class Real>
Real eta_perfect(long long k, const Real& log_h, const Real& log_delta, const Real& g) {
  using std::log;
  return 8 * (log(Real(k)) + log_h - log_delta) / (g * g);
}

// Lemma distance_ran, last line of the proof (target delta/(2k)), with log q_assign given.
template <class Real>
Real eta_assign(long long k, const Real& log_h, const Real& log_delta, const Real& g,
                const Real& log_qa) {
  using std::log;
  const Real num = log(Real(2 * k)) + log_h - log_delta;
  return num / log_inv_mixture(log_qa, Real(g * g / 8));
}

// eta_mcdiarmid (proofs-notes/bounds.md, "eta_mcdiarmid"): Lemma 7 with McDiarmid's inequality in
// place of vector Hoeffding, target delta/(2k). With L = log(2k/delta) and w = sqrt(2L), the tail
// given l draws is at most e^{w/2} e^{-l c w/(1+w)}, c = (gamma-1)^2/8, and the binomial sum of
// Lemma 7's proof gives (L + w/2) / log(1/(1 - qa + qa e^{-c w/(1+w)})). L is a sum of two
// nonnegative terms; the denominator is log_inv_mixture's.
template <class Real>
Real eta_mcdiarmid(long long k, const Real& log_delta, const Real& g, const Real& log_qa) {
  using std::log;
  using std::sqrt;
  const Real L = log(Real(2 * k)) - log_delta;
  const Real w = sqrt(2 * L);
  return (L + w / 2) / log_inv_mixture(log_qa, Real(g * g / 8 * (w / (1 + w))));
}

// The tail eta_mcdiarmid inverts, e^{w/2} (1 - qa + qa e^{-c w/(1+w)})^s, at a real size s.
template <class Real>
Real mcdiarmid_tail(long long k, const Real& log_delta, const Real& g, const Real& log_qa,
                    const Real& s) {
  using std::exp;
  using std::log;
  using std::sqrt;
  const Real L = log(Real(2 * k)) - log_delta;
  const Real w = sqrt(2 * L);
  return exp(w / 2 - s * log_inv_mixture(log_qa, Real(g * g / 8 * (w / (1 + w)))));
}

// Theorem 1's union bound over the search: beta >= log(2k * steps / delta) / log(1/(1-q)), with
// log_steps = log of the number of search steps the bound pays for and log_1mq = log(1-q).
template <class Real>
Real beta(long long k, const Real& log_steps, const Real& log_delta, const Real& log_1mq,
          bool q_is_one) {
  using std::log;
  // Proof of Theorem 1: lim_{q -> 1} log(1/(1-q)) = inf and the condition becomes beta >= 0.
  if (q_is_one) return Real(0);
  return (log(Real(2 * k)) + log_steps - log_delta) / -log_1mq;
}

// Section 3.2: log10 (k/delta)^{1/(gamma-1)^2 - 1}. The exponent (1-g)(1+g)/g^2 avoids the
// cancellation of 1/g^2 - 1 near gamma = 2.
template <class Real>
Real dim_threshold_log10(long long k, const Real& log_delta, const Real& g) {
  using std::log;
  const Real exponent = (1 - g) * (1 + g) / (g * g);
  return exponent * (log(Real(k)) - log_delta) / log(Real(10));
}

// Corollary 1 as printed: e^{-(gamma-1)^2} (not /8) and log m (not log(m+1)).
template <class Real>
Real corollary1_expression(long long k, long long m, long long n, const Real& log_delta,
                           const Real& g, const Real& log_q, const Real& log_1mq, bool q_is_one) {
  using std::log;
  const Real eta_like = (log(Real(k)) + log(Real(m)) - log_delta) /
                        log_inv_mixture(Real(Real(k - 1) * log_q), Real(g * g));
  return beta(k, Real(log(log(Real(n)))), log_delta, log_1mq, q_is_one) * Real(k) * log(Real(n)) +
         Real(k) * Real(k) * eta_like;
}

// The terms of exact decimal inputs at the precision of Real. A probability p > 1/2 is taken
// through its exact complement: log p = log1p(-(1-p)) and log(1-p) = log(1-p), both to full
// relative precision however close p is to 1; p <= 1/2 through log p and log1p(-p).
template <class Real>
struct ExactTerms {
  Real log_delta, g, log_q, log_1mq;
  bool q_is_one = false;

  explicit ExactTerms(const Inputs& in) {
    using std::log;
    using std::log1p;
    const Decimal one(1.0), half(0.5);
    if (in.delta > half)
      log_delta = log1p(Real(-(one - in.delta).template to<Real>()));
    else
      log_delta = log(in.delta.template to<Real>());
    g = (in.gamma - one).template to<Real>();
    q_is_one = in.q == one;
    if (in.q > half) {
      const Real c = (one - in.q).template to<Real>();
      log_q = log1p(Real(-c));
      log_1mq = q_is_one ? Real(0) : Real(log(c));
    } else {
      const Real q = in.q.template to<Real>();
      log_q = log(q);
      log_1mq = log1p(-q);
    }
  }
};

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
  return detail::eta_perfect(k, Real(log(Real(m + 1))), Real(log(delta)), Real(gamma - 1));
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
  return detail::eta_assign(k, Real(log(Real(m + 1))), Real(log(delta)), Real(gamma - 1),
                            Real(log(q_assign)));
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
  return detail::eta_assign(k, Real(log(Real(m + 1))), Real(log(delta)), Real(gamma - 1),
                            detail::log_q_assign_lower(k, q));
}

template <class Real>
Real eta_perfect_pinelis(long long k, const Real& delta, const Real& gamma) {
  using std::log;
  check_k(k);
  detail::check_open_unit("delta", delta);
  detail::check_gamma(gamma);
  return detail::eta_perfect(k, Real(log(Real(2))), Real(log(delta)), Real(gamma - 1));
}

template <class Real>
Real eta_random_pinelis(long long k, const Real& delta, const Real& gamma, const Real& q) {
  using std::log;
  check_k(k);
  detail::check_open_unit("delta", delta);
  detail::check_gamma(gamma);
  detail::check_half_open_unit("q", q);
  return detail::eta_assign(k, Real(log(Real(2))), Real(log(delta)), Real(gamma - 1),
                            detail::log_q_assign_lower(k, q));
}

template <class Real>
Real eta_mcdiarmid(long long k, const Real& delta, const Real& gamma, const Real& q) {
  using std::log;
  check_k(k);
  detail::check_open_unit("delta", delta);
  detail::check_gamma(gamma);
  detail::check_half_open_unit("q", q);
  return detail::eta_mcdiarmid(k, Real(log(delta)), Real(gamma - 1),
                               detail::log_q_assign_lower(k, q));
}

template <class Real>
Real mcdiarmid_tail(long long k, const Real& delta, const Real& gamma, const Real& q,
                    const Real& s) {
  using std::log;
  check_k(k);
  detail::check_open_unit("delta", delta);
  detail::check_gamma(gamma);
  detail::check_half_open_unit("q", q);
  if (!(s >= 0)) throw_out_of_range("s", static_cast<double>(s), "[0, inf)");
  return detail::mcdiarmid_tail(k, Real(log(delta)), Real(gamma - 1),
                                detail::log_q_assign_lower(k, q), s);
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
// beta for real arguments, with `log_steps(n)` the log of the number of search steps; it is
// called only after the inputs are checked.
template <class Real, class LogSteps>
Real beta_for_steps(long long k, long long n, const Real& delta, const Real& q,
                    LogSteps log_steps) {
  using std::log;
  using std::log1p;
  check_k(k);
  check_n(n);
  check_open_unit("delta", delta);
  check_half_open_unit("q", q);
  const bool q_is_one = q == 1;
  return beta(k, Real(log_steps(n)), Real(log(delta)), q_is_one ? Real(0) : Real(log1p(-q)),
              q_is_one);
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
  return detail::dim_threshold_log10(k, Real(log(delta)), Real(gamma - 1));
}

template <class Real>
Real corollary1_expression(long long k, long long m, long long n, const Real& delta,
                           const Real& gamma, const Real& q) {
  using std::log;
  using std::log1p;
  check_k(k);
  check_m(m);
  check_n(n);
  detail::check_open_unit("delta", delta);
  detail::check_gamma(gamma);
  detail::check_half_open_unit("q", q);
  const bool q_is_one = q == 1;
  return detail::corollary1_expression(k, m, n, Real(log(delta)), Real(gamma - 1), Real(log(q)),
                                       q_is_one ? Real(0) : Real(log1p(-q)), q_is_one);
}

}  // namespace ssac::theory
