#include "ssac/rng.hpp"

#include <algorithm>
#include <bit>
#include <cmath>

namespace ssac {

std::uint64_t splitmix64_next(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

Rng::Rng(std::uint64_t seed) {
  std::uint64_t sm = seed;
  for (auto& word : s_)
    word = splitmix64_next(sm);
}

Rng Rng::stream(std::uint64_t seed, std::initializer_list<std::uint64_t> ids) {
  std::uint64_t h = seed;
  for (std::uint64_t id : ids) {
    std::uint64_t copy = h ^ id;
    h = splitmix64_next(copy);
  }
  return Rng(h);
}

Rng Rng::from_state(const std::array<std::uint64_t, 4>& state) {
  Rng r;
  for (int i = 0; i < 4; ++i)
    r.s_[i] = state[static_cast<std::size_t>(i)];
  return r;
}

std::uint64_t Rng::uniform_index(std::uint64_t n) {
  // 2^64 mod n computed in 64-bit arithmetic: (2^64 - n) mod n == (-n) mod n.
  const std::uint64_t reject_from = 0 - ((0 - n) % n);  // 2^64 - (2^64 mod n), 0 means "none"
  for (;;) {
    const std::uint64_t x = next_u64();
    if (reject_from == 0 || x < reject_from) return x % n;
  }
}

double Rng::uniform01() {
  return static_cast<double>(next_u64() >> 11) * 0x1.0p-53;
}

bool Rng::bernoulli(double p) {
  if (p >= 1.0) return true;
  if (p <= 0.0) return false;
  return uniform01() < p;
}

double Rng::gaussian() {
  if (has_spare_) {
    has_spare_ = false;
    return spare_;
  }
  for (;;) {
    const double u = 2.0 * uniform01() - 1.0;
    const double v = 2.0 * uniform01() - 1.0;
    const double s = u * u + v * v;
    if (s > 0.0 && s < 1.0) {
      const double f = std::sqrt(-2.0 * portable_log(s) / s);
      spare_ = v * f;
      has_spare_ = true;
      return u * f;
    }
  }
}

namespace {

// log(f * 2^e) for f in [sqrt(1/2), sqrt(2)): log f = 2 atanh(t), t = (f-1)/(f+1), |t| < 0.1716,
// summed as 2 (t + t^3/3 + ... + t^29/29): the next term is below 2^-75 relative.
inline double log_of_parts(double f, double e) {
  const double t = (f - 1.0) / (f + 1.0);
  const double t2 = t * t;
  double sum = 0.0;
#pragma GCC unroll 14  // a loop-free body lets a loop of logarithms vectorise
  for (int k = 29; k >= 3; k -= 2)
    sum = (sum + 1.0 / k) * t2;
  const double log_f = 2.0 * (t + t * sum);
  // ln 2 split so that e * ln2_hi is exact for |e| < 2^11.
  constexpr double ln2_hi = 6.93147180369123816490e-01;
  constexpr double ln2_lo = 1.90821492927058770002e-10;
  return (e * ln2_hi) + (log_f + e * ln2_lo);
}

// portable_log for a normal x > 0, with frexp's f and e read off the bits: x = 1.m * 2^(E-1023)
// = (0.5 + m/2) * 2^(E-1022), so f has x's mantissa under the exponent field 1022 and e = E - 1022;
// then f < sqrt(1/2) moves to [sqrt(1/2), 1) as 2f, 2^(e-1). The same f, e and operations as
// portable_log, hence the same bits. Integer operations only, so that a loop of logarithms
// vectorises (a packed int64 -> double conversion needs AVX-512, and a floating-point compare keeps
// a branch): E becomes a double as (2^52 + E) - 2^52, exactly; f < sqrt(1/2) compares f's mantissa
// bits with those of fl(sqrt(1/2)) = 0x3fe6a09e667f3bcd (positive doubles of one binade order as
// their bits); 2f is f with the exponent field raised by one; the shift of e is 1.0 or 0.0 by a
// mask.
inline double log_of_normal(double x) {
  const auto bits = std::bit_cast<std::uint64_t>(x);
  const double exponent =
      std::bit_cast<double>(((bits >> 52) & 0x7ff) | 0x4330000000000000ULL) - 0x1p52;
  const std::uint64_t mantissa = bits & 0x000fffffffffffffULL;
  const auto low = static_cast<std::uint64_t>(mantissa < 0x6a09e667f3bcdULL);
  const double f = std::bit_cast<double>(mantissa | ((1022ULL + low) << 52));
  const double e = exponent - 1022.0 - std::bit_cast<double>(0x3ff0000000000000ULL & (0 - low));
  return log_of_parts(f, e);
}

// f = sqrt(-2 log(s) / s) for a block of s, each s normal (Marsaglia's polar method). Lanes do
// not depend on each other, so the loop vectorises; the AVX2 clone runs four lanes at a time with
// the same IEEE operations (+, -, *, /, sqrt, correctly rounded, no contraction), hence the same
// bits as the default clone and as gaussian().
__attribute__((target_clones("avx2", "default"))) void polar_factors(const double* s, double* f,
                                                                     std::size_t count) {
  for (std::size_t b = 0; b < count; ++b)
    f[b] = std::sqrt(-2.0 * log_of_normal(s[b]) / s[b]);
}

}  // namespace

void Rng::gaussians(double* out, std::size_t count) {
  std::size_t i = 0;
  if (count > 0 && has_spare_) {
    has_spare_ = false;
    out[i++] = spare_;
  }
  // Pairs in blocks: first the rejection loop exactly as gaussian() runs it (it needs only u, v and
  // s), then the logarithms and square roots of the whole block, which do not depend on each other
  // and so overlap (and vectorise) instead of waiting one on the next.
  constexpr std::size_t kBlock = 64;
  double u[kBlock], v[kBlock], s[kBlock], f[kBlock];
  while (i < count) {
    const std::size_t pairs = std::min(kBlock, (count - i + 1) / 2);
    // The rejection loop without a branch on each candidate: a round draws one candidate (u, v)
    // per pair still missing, writes it to the next free slot and keeps the slot only if
    // 0 < s < 1. A candidate gives at most one pair, so no round draws past the last pair the
    // scalar loop would draw: the same draws in the same order, the same pairs kept.
    for (std::size_t b = 0; b < pairs;) {
      const std::size_t candidates = pairs - b;
      for (std::size_t c = 0; c < candidates; ++c) {
        const double uc = 2.0 * uniform01() - 1.0;
        const double vc = 2.0 * uniform01() - 1.0;
        const double sc = uc * uc + vc * vc;
        u[b] = uc;
        v[b] = vc;
        s[b] = sc;
        b += static_cast<std::size_t>((sc > 0.0) & (sc < 1.0));
      }
    }
    // s >= 2^-106 (u and v are multiples of 2^-52), so s is normal.
    polar_factors(s, f, pairs);
    for (std::size_t b = 0; b < pairs; ++b) {
      out[i++] = u[b] * f[b];
      if (i < count) {
        out[i++] = v[b] * f[b];
      } else {
        spare_ = v[b] * f[b];
        has_spare_ = true;
      }
    }
  }
}

double portable_log(double x) {
  if (std::isnormal(x) && x > 0.0) return log_of_normal(x);
  // x = f * 2^e with f in [0.5, 1), then in [sqrt(1/2), sqrt(2)).
  int e = 0;
  double f = std::frexp(x, &e);
  if (f < 0.70710678118654752440) {
    f *= 2.0;
    e -= 1;
  }
  return log_of_parts(f, static_cast<double>(e));
}

}  // namespace ssac
