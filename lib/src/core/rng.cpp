#include "ssac/rng.hpp"

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

static inline std::uint64_t rotl(std::uint64_t x, int k) {
  return (x << k) | (x >> (64 - k));
}

std::uint64_t Rng::next_u64() {
  const std::uint64_t result = rotl(s_[1] * 5, 7) * 9;
  const std::uint64_t t = s_[1] << 17;
  s_[2] ^= s_[0];
  s_[3] ^= s_[1];
  s_[1] ^= s_[2];
  s_[0] ^= s_[3];
  s_[2] ^= t;
  s_[3] = rotl(s_[3], 45);
  return result;
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

double portable_log(double x) {
  // x = f * 2^e with f in [sqrt(1/2), sqrt(2)); log f = 2 atanh(t), t = (f-1)/(f+1), |t| < 0.1716,
  // summed as 2 (t + t^3/3 + ... + t^29/29): the next term is below 2^-75 relative.
  int e = 0;
  double f = std::frexp(x, &e);  // f in [0.5, 1)
  if (f < 0.70710678118654752440) {
    f *= 2.0;
    e -= 1;
  }
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

}  // namespace ssac
