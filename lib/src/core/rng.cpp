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
// then f < sqrt(1/2) moves to [sqrt(1/2), 1) as 2f, 2^(e-1) (a select, so that a loop over many x
// vectorises). The same f, e and operations as portable_log, hence the same bits.
inline double log_of_normal(double x) {
  const auto bits = std::bit_cast<std::uint64_t>(x);
  const auto exponent = static_cast<std::int64_t>((bits >> 52) & 0x7ff);
  const double f0 = std::bit_cast<double>((bits & 0x000fffffffffffffULL) | (1022ULL << 52));
  const bool low = f0 < 0.70710678118654752440;
  const double f = low ? f0 * 2.0 : f0;
  const double e = static_cast<double>(exponent - 1022 - (low ? 1 : 0));
  return log_of_parts(f, e);
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
    for (std::size_t b = 0; b < pairs; ++b) {
      for (;;) {
        u[b] = 2.0 * uniform01() - 1.0;
        v[b] = 2.0 * uniform01() - 1.0;
        s[b] = u[b] * u[b] + v[b] * v[b];
        if (s[b] > 0.0 && s[b] < 1.0) break;
      }
    }
    // s >= 2^-106 (u and v are multiples of 2^-52), so s is normal.
    for (std::size_t b = 0; b < pairs; ++b)
      f[b] = std::sqrt(-2.0 * log_of_normal(s[b]) / s[b]);
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
