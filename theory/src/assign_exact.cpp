// Definition 4's cluster-assignment success probabilities as exact decimals (appendix paragraph
// on the cluster-assignment query): for a decimal q each of q + (1-q) q^(k-1),
// k(1-q) q^(k-1) + q^k and q^(k-1) is a decimal. proofs-notes/bounds.md, "Exact decimal inputs",
// proves the digit counts used below to skip expansions that cannot be short.
#include <algorithm>
#include <stdexcept>
#include <string>

#include "bounds_impl.hpp"

namespace ssac::theory {

namespace {

// The value if it has at most max_digits significant digits.
std::optional<Decimal> if_short(const Decimal& d, std::size_t max_digits) {
  if (d.digits() > max_digits) return std::nullopt;
  return d;
}

}  // namespace

AssignSuccessDecimals assign_success_decimals(long long k, const Decimal& q,
                                              std::size_t max_digits) {
  check_k(k);
  check_q(q);
  const Decimal one(1.0);
  AssignSuccessDecimals out;
  if (k == 1 || q == one) {
    // All three are 1: no query can fail (k = 1), or none abstains (q = 1).
    out.exact = out.paper = out.lower = if_short(one, max_digits);
    return out;
  }
  // q = N 10^-e with N >= 1 free of trailing zeros and e >= 1 (q < 1); K1 = k - 1 >= 1.
  const Decimal::Int& N = q.coefficient();
  const long long e = -q.exponent();
  const auto K1 = static_cast<unsigned long long>(k - 1);
  const bool unit = N == 1;  // q = 10^-e: every power of q has one digit
  // A lower bound on log10 N for N >= 2 (log10 2 = 0.30103) and an upper bound on log10 k.
  const double log10_n = std::max(static_cast<double>(q.digits()) - 1, 0.301);
  const double log10_k = static_cast<double>(std::to_string(k).size());
  const double limit = static_cast<double>(max_digits) + 1;  // the +1 absorbs rounding
  try {
    // q^(k-1) = N^(k-1) 10^(-e(k-1)), and N^(k-1) has no trailing zero (N has none, so it lacks 2
    // or 5 as a factor): its digits are those of N^(k-1), more than (k-1) log10 N.
    std::optional<Decimal> power;  // q^(k-1), when small enough to expand
    if (unit || static_cast<double>(K1) * log10_n <= limit) power = q.pow(K1);
    if (power) out.lower = if_short(*power, max_digits);
    // q + (1-q) q^(k-1): its last digit sits at 10^(-ke) and its first at or above q's, 10^(-e),
    // so it has at least (k-1)e + 1 digits.
    if (K1 < max_digits && static_cast<unsigned long long>(e) * K1 + 1 <= max_digits && power)
      out.exact = if_short(q + (one - q) * *power, max_digits);
    // q^(k-1) (k - (k-1) q) = N^(k-1) C 10^(-ke), C = k 10^e - (k-1) N < k 10^e. Trailing zeros
    // of N^(k-1) C come from C's factors 2 or 5 alone, at most log2 C of them, so it has more
    // than (k-1) log10 N - (log2 10 - 1) log10 C digits; log2 10 - 1 < 2.33.
    const double cancellable = 2.33 * (log10_k + static_cast<double>(e));
    if (unit || static_cast<double>(K1) * log10_n - cancellable <= limit) {
      const Decimal pw = power ? *power : q.pow(K1);
      const Decimal kk(static_cast<double>(k)), k1(static_cast<double>(K1));  // exact: k <= 2^53
      out.paper = if_short(pw * (kk - k1 * q), max_digits);
    }
  } catch (const std::overflow_error&) {
    // A power whose decimal exponent leaves the 64-bit range: far from short, left empty.
  }
  return out;
}

}  // namespace ssac::theory
