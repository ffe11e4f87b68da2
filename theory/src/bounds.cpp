// Argument checks, the integer helpers, the 50-digit bounds of exact inputs and the explicit
// instantiations of the real-valued bounds for double and Real50 (the templates live in
// bounds_impl.hpp).
#include <bit>
#include <ios>
#include <limits>

#include "bounds_impl.hpp"

namespace ssac::theory {

namespace {
// Counts are carried as long long and converted to the real type; up to 2^53 the conversion to
// double is exact, so every instantiation sees the same integer.
constexpr long long kMaxCount = 9007199254740992LL;  // 2^53
const char* const kCountRange = "9007199254740992]";

[[noreturn]] void throw_decimal_out_of_range(const char* name, const Decimal& value,
                                             const char* range) {
  throw ParameterError(std::string(name) + " = " + value.str() +
                       " is outside its admissible range " + range);
}
// Comparisons with NaN are false, so NaN fails every check below.
const Decimal kZero(0.0), kOne(1.0);
}  // namespace

void check_k(long long k) {
  if (k < 1 || k > kMaxCount) throw_out_of_range("k", k, std::string("[1, ") + kCountRange);
}
void check_m(long long m) {
  if (m < 1 || m > kMaxCount) throw_out_of_range("m", m, std::string("[1, ") + kCountRange);
}
void check_n(long long n) {
  if (n < 2 || n > kMaxCount) throw_out_of_range("n", n, std::string("[2, ") + kCountRange);
}
void check_delta(double delta) {
  detail::check_open_unit("delta", delta);
}
void check_gamma(double gamma) {
  detail::check_gamma(gamma);
}
void check_q(double q) {
  detail::check_half_open_unit("q", q);
}
void check_delta(const Decimal& delta) {
  if (!(delta > kZero && delta < kOne)) throw_decimal_out_of_range("delta", delta, kDeltaRange);
}
void check_gamma(const Decimal& gamma) {
  if (!(gamma > kOne && gamma.is_finite())) throw_decimal_out_of_range("gamma", gamma, kGammaRange);
}
void check_q(const Decimal& q) {
  if (!(q > kZero && q <= kOne)) throw_decimal_out_of_range("q", q, kQRange);
}
void check_nu(const Decimal& nu) {
  if (!(nu >= kOne && nu.is_finite())) throw_decimal_out_of_range("nu", nu, kNuRange);
}
void check_rho(const Decimal& rho) {
  if (!(rho > kZero && rho <= kOne)) throw_decimal_out_of_range("rho", rho, kRhoRange);
}
void check_q_assign(double q_assign) {
  detail::check_half_open_unit("q_assign", q_assign);
}

void check(const Inputs& in) {
  check_k(in.k);
  check_m(in.m);
  check_n(in.n);
  check_delta(in.delta);
  check_gamma(in.gamma);
  check_q(in.q);
}

long long search_steps(long long n) {
  check_n(n);
  // lib/src/algorithm/ssac.cpp, Run::binary_search: the probe j = floor((lo+hi)/2) leaves at most
  // floor(N/2) of N candidate positions, so a search over |S_i| <= n positions takes at most
  // bit_width(n) steps.
  return static_cast<long long>(std::bit_width(static_cast<unsigned long long>(n)));
}

Real50 dim_threshold_log10(const Inputs& in) {
  check(in);
  const detail::ExactTerms<Real50> t(in);
  return detail::dim_threshold_log10(in.k, t.log_delta, t.g);
}

Real50 corollary1_expression(const Inputs& in) {
  check(in);
  const detail::ExactTerms<Real50> t(in);
  return detail::corollary1_expression(in.k, in.m, in.n, t.log_delta, t.g, t.log_q, t.log_1mq,
                                       t.q_is_one);
}

Corollary1Counts corollary1_counts(long long k, long long m, long long n, const BigInt& eta,
                                   const BigInt& beta) {
  check_k(k);
  check_m(m);
  check_n(n);
  if (eta < 0)
    throw ParameterError("eta = " + eta.str() + " is outside its admissible range [0, inf)");
  if (beta < 0)
    throw ParameterError("beta = " + beta.str() + " is outside its admissible range [0, inf)");
  const BigInt K = k, N = n, M = m;
  Corollary1Counts c;
  // Algorithm 1, line 1: r = ceil(k eta) = k eta for an integer eta; each cluster-assignment
  // query asks at most one same-cluster query per known anchor, and at most k are known.
  c.queries = K * (K * (K * eta) + beta * BigInt(search_steps(n)));
  c.distance_evaluations = K * N;
  c.flops = K * N * (3 * M);
  c.sorts = k;
  return c;
}

std::string to_string(const Real50& x, int digits) {
  using boost::multiprecision::isinf;
  using boost::multiprecision::isnan;
  if (isnan(x)) return "nan";
  if (isinf(x)) return x > 0 ? "inf" : "-inf";
  return x.str(digits, std::ios_base::scientific);
}

#define SSAC_THEORY_INSTANTIATE(R)                                                         \
  template R assign_success_exact<R>(long long, const R&);                                 \
  template R assign_success_paper<R>(long long, const R&);                                 \
  template R assign_success_lower<R>(long long, const R&);                                 \
  template R eta_perfect<R>(long long, long long, const R&, const R&);                     \
  template R eta_assign<R>(long long, long long, const R&, const R&, const R&);            \
  template R eta_random<R>(long long, long long, const R&, const R&, const R&);            \
  template R eta_perfect_pinelis<R>(long long, const R&, const R&);                        \
  template R eta_random_pinelis<R>(long long, const R&, const R&, const R&);               \
  template R eta_mcdiarmid<R>(long long, const R&, const R&, const R&);                    \
  template R mcdiarmid_tail<R>(long long, const R&, const R&, const R&, const R&);         \
  template R eta_distance_weak<R>(long long, long long, const R&, const R&, const R&);     \
  template R beta_random<R>(long long, long long, const R&, const R&);                     \
  template R beta_union<R>(long long, long long, const R&, const R&);                      \
  template R dim_threshold_log10<R>(long long, const R&, const R&);                        \
  template R corollary1_expression<R>(long long, long long, long long, const R&, const R&, \
                                      const R&);

SSAC_THEORY_INSTANTIATE(double)
SSAC_THEORY_INSTANTIATE(Real50)
#undef SSAC_THEORY_INSTANTIATE

}  // namespace ssac::theory
