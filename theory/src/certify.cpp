// Exact integer ceilings of the real bounds, and the binomial-sum eta of Lemma distance_ran's
// proof. proofs-notes/bounds.md, "Certified ceilings" and "Binomial sum", gives the argument.
#include <boost/math/distributions/binomial.hpp>
#include <cmath>
#include <stdexcept>
#include <utility>

#include "bounds_impl.hpp"

namespace ssac::theory {

namespace {

namespace mp = boost::multiprecision;
using Real150 = mp::number<mp::cpp_bin_float<150>, mp::et_off>;
using Real500 = mp::number<mp::cpp_bin_float<500>, mp::et_off>;

template <class R, int Digits>
struct Rung {
  using type = R;
  static constexpr int digits = Digits;
};

// An evaluation at one precision: the value and an error amplification A >= 1 such that the
// relative error of the value is at most A * 10^-(digits - 12) (proofs-notes/bounds.md: every
// operation is one of + * / log exp log1p expm1 on well-conditioned arguments, each within a few
// units in the last place; A carries the condition numbers that depend on the inputs).
template <class R>
struct Eval {
  R value;
  R amplification;
};

template <class R>
R pow10_neg(int e) {
  using std::pow;
  return pow(R(10), R(-e));
}

// Tries to fix ceil(v) at one rung. Succeeds when the value is at least `tol` away from every
// integer, where tol bounds its absolute error.
template <class Rg, class F>
bool try_rung(F& f, Certified& out) {
  using R = typename Rg::type;
  using std::abs;
  using std::floor;
  const Eval<R> e = f(Rg{});
  const R tol = abs(e.value) * e.amplification * pow10_neg<R>(Rg::digits - 12);
  if (!(tol < R(0.25))) return false;
  const R fl = floor(e.value);
  const R frac = e.value - fl;  // exact: v and floor(v) share the binary exponent range
  if (frac <= tol || 1 - frac <= tol) return false;
  out.ceil = fl.template convert_to<BigInt>() + 1;
  out.digits = Rg::digits;
  return true;
}

template <class F>
Certified certify(F f) {
  Certified out;
  const Eval<Real50> e50 = f(Rung<Real50, 50>{});
  out.value = e50.value;
  out.digits = 50;
  if (try_rung<Rung<Real50, 50>>(f, out)) return out;
  if (try_rung<Rung<Real150, 150>>(f, out)) return out;
  if (try_rung<Rung<Real500, 500>>(f, out)) return out;
  out.digits = 0;
  return out;
}

// beta's integer: the smallest integer >= 1 that is >= the value (Algorithm 2 samples |B| = beta
// points; with beta = 0 a search step would ask nothing and could not decide).
Certified at_least_one(Certified c) {
  if (c.value == 0) {
    c.ceil = BigInt(1);
    c.digits = 50;
  } else if (c.ceil && *c.ceil < 1) {
    c.ceil = BigInt(1);
  }
  return c;
}

// The eta bounds of Theorem 1 and the remark after it, with the Hoeffding factor H = m+1 or
// Pinelis's 2. Their inputs enter through ExactTerms: the relative error of each term is a few
// units in the last place, and (k-1) log q multiplies that of log q (the amplification).
Certified certify_eta_perfect(const Inputs& in, long long hoeffding) {
  check(in);
  return certify([&](auto rung) {
    using R = typename decltype(rung)::type;
    using std::log;
    const detail::ExactTerms<R> t(in);
    return Eval<R>{detail::eta_perfect(in.k, R(log(R(hoeffding))), t.log_delta, t.g), R(1)};
  });
}

Certified certify_eta_random(const Inputs& in, long long hoeffding) {
  check(in);
  return certify([&](auto rung) {
    using R = typename decltype(rung)::type;
    using std::abs;
    using std::log;
    const detail::ExactTerms<R> t(in);
    const R log_qa = R(in.k - 1) * t.log_q;
    return Eval<R>{detail::eta_assign(in.k, R(log(R(hoeffding))), t.log_delta, t.g, log_qa),
                   R(1 + abs(log_qa))};
  });
}

// eta_mcdiarmid: the operations of eta_random and one square root of L = log(2k/delta) >= log 2
// (condition number 1/2), so the same amplification.
Certified certify_eta_mcdiarmid(const Inputs& in) {
  check(in);
  return certify([&](auto rung) {
    using R = typename decltype(rung)::type;
    using std::abs;
    const detail::ExactTerms<R> t(in);
    const R log_qa = R(in.k - 1) * t.log_q;
    return Eval<R>{detail::eta_mcdiarmid(in.k, t.log_delta, t.g, log_qa), R(1 + abs(log_qa))};
  });
}

// The beta bounds: (log(2k) + log(L) - log(delta)) / -log(1-q) with L = log n or S. The
// numerator may cancel (log log 2 < 0); its condition number enters the amplification.
template <class R>
Eval<R> beta_eval(const Inputs& in, const R& L) {
  using std::abs;
  using std::log;
  const detail::ExactTerms<R> t(in);
  const R a = log(R(2 * in.k)), b = log(L), c = -t.log_delta;
  const R num = a + b + c;
  return {detail::beta(in.k, b, t.log_delta, t.log_1mq, t.q_is_one),
          t.q_is_one ? R(1) : R(1 + (abs(a) + abs(b) + abs(c)) / num)};
}

}  // namespace

Certified certified_eta_perfect(const Inputs& in) {
  return certify_eta_perfect(in, in.m + 1);
}

Certified certified_eta_random(const Inputs& in) {
  return certify_eta_random(in, in.m + 1);
}

Certified certified_sample_size_random(const Inputs& in) {
  check(in);
  return certify([&](auto rung) {
    using R = typename decltype(rung)::type;
    using std::abs;
    using std::log;
    const detail::ExactTerms<R> t(in);
    const R log_qa = R(in.k - 1) * t.log_q;
    // k times the eta of certify_eta_random: multiplying by the integer k adds one rounding.
    return Eval<R>{
        R(in.k) * detail::eta_assign(in.k, R(log(R(in.m + 1))), t.log_delta, t.g, log_qa),
        R(2 + abs(log_qa))};
  });
}

Certified certified_eta_perfect_pinelis(const Inputs& in) {
  return certify_eta_perfect(in, 2);
}

Certified certified_eta_random_pinelis(const Inputs& in) {
  return certify_eta_random(in, 2);
}

Certified certified_eta_mcdiarmid(const Inputs& in) {
  return certify_eta_mcdiarmid(in);
}

Certified certified_beta_random(const Inputs& in) {
  check(in);
  return at_least_one(certify([&](auto rung) {
    using R = typename decltype(rung)::type;
    using std::log;
    return beta_eval<R>(in, log(R(in.n)));
  }));
}

Certified certified_beta_union(const Inputs& in) {
  check(in);
  return at_least_one(certify([&](auto rung) {
    using R = typename decltype(rung)::type;
    return beta_eval<R>(in, R(search_steps(in.n)));
  }));
}

Certified certified_beta_log2(const Inputs& in) {
  check(in);
  return at_least_one(certify([&](auto rung) {
    using R = typename decltype(rung)::type;
    using std::log;
    return beta_eval<R>(in, R(log(R(in.n)) / log(R(2))));
  }));
}

Certified certified_eta_distance_weak(long long k, long long m, const Decimal& delta,
                                      const Real50& epsilon, const Real50& q) {
  // Evaluated at 50 digits only: epsilon and q come from a dataset as 50-digit numbers, so the
  // higher rungs would not add information about the inputs themselves.
  check_delta(delta);
  const Real50 v = eta_distance_weak<Real50>(k, m, delta.to<Real50>(), epsilon, q);
  Certified out;
  out.value = v;
  auto f = [&](auto) {
    using std::abs;
    return Eval<Real50>{v, 1 + abs(detail::log_q_assign_lower(k, q))};
  };
  if (try_rung<Rung<Real50, 50>>(f, out)) return out;
  out.digits = 0;
  return out;
}

namespace {
// The sum of binomial_tail with c = (gamma-1)^2/8 given; arguments already checked.
Real50 tail_at(const BigInt& s, const Real50& q_assign, const Real50& c,
               const Real50& hoeffding_factor) {
  using boost::math::binomial_distribution;
  using std::exp;
  using std::floor;
  using std::log;
  // Proof of Lemma distance_ran, with the ell = 0 term (no assignment-known sample: the mean is
  // undefined, counted as failure, min(1, H) = 1) and every term capped at 1.
  const Real50 S = s.convert_to<Real50>();
  // j0: the largest ell with H e^{-ell c} >= 1; terms ell <= j0 contribute their probability.
  const Real50 j0 = floor(log(hoeffding_factor) / c);
  if (j0 >= S) return Real50(1);
  const binomial_distribution<Real50> L(S, q_assign);
  const Real50 lower = cdf(L, j0);
  // Terms ell > j0: H e^{-c ell} C(s,ell) qa^ell (1-qa)^(s-ell) = H M^s C(s,ell) p^ell
  // (1-p)^(s-ell) with M = 1 - qa + qa e^{-c} and p = qa e^{-c} / M (exponential tilting), so their
  // sum is H M^s P(L' > j0) for L' ~ Bin(s, p).
  const Real50 log_m = -detail::log_inv_mixture(Real50(log(q_assign)), c);
  const Real50 p = q_assign * exp(-c - log_m);
  const binomial_distribution<Real50> Lp(S, p > 1 ? Real50(1) : p);
  const Real50 upper = hoeffding_factor * exp(S * log_m) * cdf(complement(Lp, j0));
  return lower + upper;
}
}  // namespace

Real50 binomial_tail(const BigInt& s, const Real50& q_assign, const Real50& gamma,
                     const Real50& hoeffding_factor) {
  if (s < 0) throw ParameterError("s = " + s.str() + " is outside its admissible range [0, inf)");
  detail::check_half_open_unit("q_assign", q_assign);
  detail::check_gamma(gamma);
  if (!(hoeffding_factor >= 1))
    throw_out_of_range("hoeffding_factor", static_cast<double>(hoeffding_factor), "[1, inf)");
  return tail_at(s, q_assign, detail::half_eps_squared(gamma), hoeffding_factor);
}

std::optional<BinomialEta> eta_random_binomial(const Inputs& in, bool pinelis) {
  using std::pow;
  check(in);
  const Certified closed = pinelis ? certified_eta_random_pinelis(in) : certified_eta_random(in);
  if (!closed.ceil || *closed.ceil > pow(BigInt(10), 40)) return std::nullopt;
  const detail::ExactTerms<Real50> t(in);
  const Real50 qa = pow(in.q.to<Real50>(), Real50(in.k - 1));
  const Real50 c = t.g * t.g / 8;
  const Real50 H = pinelis ? Real50(2) : Real50(in.m + 1);
  const Real50 target = in.delta.to<Real50>() / (2 * Real50(in.k));
  // A sample size counts only if its sum is below the target by a relative 1e-30, far more than
  // the error of a 50-digit evaluation: the result is then certified to satisfy the Lemma's
  // inequality, and it is the smallest such s unless the sum at s-1 lies within 1e-30 of the
  // target.
  const Real50 accept = target * (1 - Real50("1e-30"));
  // The sum is nonincreasing in s (Bin(s+1, qa) dominates Bin(s, qa) stochastically and the
  // capped Hoeffding term is nonincreasing in ell), it is 1 > target at s = 0, and the closed
  // form's ceiling satisfies the inequality because the sum is at most H M^s.
  // hi: a size whose bound H M^s is below `accept` (not just the target) by the closed form,
  // plus one for the rounding of the 50-digit evaluation.
  using std::floor;
  using std::log;
  const Real50 den = detail::log_inv_mixture(Real50(Real50(in.k - 1) * t.log_q), c);
  BigInt lo = 0;
  BigInt hi = floor(log(H / accept) / den).convert_to<BigInt>() + 2;
  Real50 tail_hi = tail_at(hi, qa, c, H);
  if (!(tail_hi <= accept))
    throw std::logic_error("eta_random_binomial: the closed-form size fails the binomial sum");
  Real50 tail_lo = 1;
  while (hi - lo > 1) {
    const BigInt mid = lo + (hi - lo) / 2;
    const Real50 tail = tail_at(mid, qa, c, H);
    if (tail <= accept) {
      hi = mid;
      tail_hi = tail;
    } else {
      lo = mid;
      tail_lo = tail;
    }
  }
  return BinomialEta{hi, tail_hi, tail_lo};
}

}  // namespace ssac::theory
