// Standard normal draws by the ziggurat method (Marsaglia and Tsang, "The Ziggurat Method for
// Generating Random Variables", J. Stat. Softw. 5(8), 2000), the generator's Gaussian stream
// version 2 (ssac/rng.hpp, proofs-notes/semantics.md "Random numbers").
//
// The half density f(x) = exp(-x^2/2), x >= 0, is covered by 256 layers of equal area V: layer 0
// is the rectangle [0, x_0] x [0, f(R)] of area V (the part beyond R stands for the tail), and
// layer i = 1..255 the rectangle [0, x_i] x [f(x_i), f(x_{i+1})], with x_1 = R, x_256 = 0 and
//   x_{i+1} = sqrt(-2 log(V / x_i + f(x_i))),  i = 1..254.
// R and V are the 256-layer constants (R = 3.6541528853610088; V = R f(R) + the tail's area,
// V = 0.004928673233974658); with them the top layer's area x_255 (1 - f(x_255)) equals V to
// 1.4e-13 relative (tests/test_rng.cpp checks this). The tables are computed here once, with
// portable_log, portable_exp and IEEE sqrt only, so they are the same bits on every platform.
//
// One draw: a 64-bit word w gives the layer i = w mod 256 (bits 0-7), the sign (bit 8) and a
// magnitude a = (floor(w / 2^12) + 1/2) 2^-52 in (0, 1) from bits 12-63 (disjoint bits, so the
// layer and the value are independent; the half-step keeps a symmetric and away from 0). Then
// x = a x_i, and
// - a < x_{i+1} / x_i: x lies under the next layer's edge, so inside the density: accept;
// - i = 0: x in the tail beyond R: Marsaglia's tail method (draw s = -log(U1) / R and
//   t = -log(U2) with U in (0, 1] until 2t > s^2, return R + s);
// - otherwise the wedge: accept if f(x_i) + U (f(x_{i+1}) - f(x_i)) < f(x), else start over with
//   a fresh word. f(x) is portable_exp's value, computed only when a squeeze (wedge_bounds) does
//   not decide the comparison: the same decisions, so the same draws.
// A word takes the first branch with probability 0.985 (the mean of x_{i+1} / x_i over the 256
// layers): one word, one multiply, one compare.
#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <optional>

#include "ssac/rng.hpp"

namespace ssac {

namespace {

constexpr int kLayers = 256;
constexpr double kR = 3.6541528853610088;
constexpr double kV = 0.004928673233974658;

struct Tables {
  std::array<double, kLayers + 1> x{};  // x_0 .. x_256, decreasing; x_256 = 0
  std::array<double, kLayers + 1> f{};  // f(x_i), increasing; f_256 = 1
  std::array<double, kLayers> ratio{};  // x_{i+1} / x_i: below it a draw is accepted at once
  // wedge_bounds's, for layers 1..255: 1 / (x_i - x_{i+1}), and the bound M_i / 2 on |f''| / 2
  // over the layer where f may lie below its chord (below) and above it (above), else 0.
  std::array<double, kLayers> inverse_width{}, below{}, above{};
};

Tables make_tables() {
  Tables t;
  const double f_r = portable_exp(-0.5 * kR * kR);
  t.x[0] = kV / f_r;
  t.x[1] = kR;
  for (int i = 1; i < kLayers - 1; ++i) {
    const auto u = static_cast<std::size_t>(i);
    t.x[u + 1] = std::sqrt(-2.0 * portable_log(kV / t.x[u] + portable_exp(-0.5 * t.x[u] * t.x[u])));
  }
  t.x[kLayers] = 0.0;
  for (std::size_t i = 0; i <= kLayers; ++i)
    t.f[i] = portable_exp(-0.5 * t.x[i] * t.x[i]);
  t.f[0] = f_r;  // layer 0's height is f(R), not f(x_0): its rectangle stands for the tail
  for (std::size_t i = 0; i < kLayers; ++i)
    t.ratio[i] = t.x[i + 1] / t.x[i];
  for (std::size_t i = 1; i < kLayers; ++i) {
    const double lo = t.x[i + 1], hi = t.x[i];
    t.inverse_width[i] = 1.0 / (hi - lo);
    // f''(x) = (x^2 - 1) f(x): x^2 - 1 is monotone on [lo, hi], so |x^2 - 1| is at most its
    // larger end, and f(x) <= f(lo).
    const double half_m =
        0.5 * std::max(std::fabs(lo * lo - 1.0), std::fabs(hi * hi - 1.0)) * t.f[i + 1];
    t.below[i] = hi > 1.0 ? half_m : 0.0;  // f'' > 0 somewhere: f dips below its chord there
    t.above[i] = lo < 1.0 ? half_m : 0.0;  // f'' < 0 somewhere: f rises above it
  }
  return t;
}

const Tables& tables() {
  static const Tables t = make_tables();
  return t;
}

// Uniform on (0, 1]: (floor(w / 2^11) + 1) 2^-53, exact.
inline double open_closed(std::uint64_t w) {
  return static_cast<double>((w >> 11) + 1) * 0x1.0p-53;
}

// The wedge test's squeeze: for layer i = 1..255 and x = fl(a x_i) with a >= x_{i+1} / x_i,
// bounds lo <= E <= hi on E = portable_exp(-0.5 * x * x), so that y < lo accepts and y >= hi
// rejects exactly as y < E would; only between them is E computed. Certified as follows (f is the
// exact exp(-x^2/2), C the exact chord of f through x_{i+1} and x_i, w = x_i - x_{i+1}):
// - linear interpolation's error: f(x) - C(x) = f''(xi) / 2 (x - x_{i+1}) (x - x_i) for some xi in
//   the layer, so C - below_i p <= f <= C + above_i p with p = (x - x_{i+1}) (x_i - x) >= 0, where
//   below_i (above_i) is M_i / 2, M_i = max(|x_{i+1}^2 - 1|, |x_i^2 - 1|) f(x_{i+1}) >= |f''| on
//   the layer (f'' = (x^2 - 1) f, x^2 - 1 monotone, f decreasing), if f'' > 0 (f'' < 0) somewhere
//   on it, else 0: convex layers lie under their chord, concave ones over it;
// - the computed values, all at most 1 in size: E is within 2^-46 of f(x) (portable_exp's Horner
//   sum of degree 14 on |r| <= ln(2) / 2 loses at most some 60 ulps, the argument's rounding 7
//   more); the table's f_i within the same of f(x_i), so the computed chord f_i + t (f_{i+1} -
//   f_i), t = (x_i - x) / w, within 2^-45 of C (t's few ulps of relative error move it by a few
//   ulps of f_{i+1} - f_i); the computed band within 2^-50 of M_i / 2 p (M_i <= 1 and p <= 0.012,
//   the squares' rounding is at most 14 u, the table's f_{i+1} within 2^-46); and an x an ulp below
//   x_{i+1} (a rounded at the layer's edge) makes p negative by less than 2^-50.
// The errors sum to less than 2^-43, so lo and hi, widened by kSqueezeSlack = 2^-40, still bound
// E. One word in 70 reaches the wedge; the squeeze leaves E to one wedge draw in 20 (paper-main's
// generation), where the exponential had taken a tenth of the generator's time.
constexpr double kSqueezeSlack = 0x1p-40;

inline ZigguratWedge wedge_bounds(const Tables& t, std::size_t i, double a) {
  const double x = a * t.x[i];
  const double p = (x - t.x[i + 1]) * (t.x[i] - x);
  const double chord = t.f[i] + (t.x[i] - x) * t.inverse_width[i] * (t.f[i + 1] - t.f[i]);
  return {x, chord - t.below[i] * p - kSqueezeSlack, chord + t.above[i] * p + kSqueezeSlack};
}

}  // namespace

ZigguratWedge ziggurat_wedge(std::size_t layer, double a) {
  return wedge_bounds(tables(), layer, a);
}

// The branches after the first, for layer i and the word's magnitude a and sign: the tail for
// i = 0, else the wedge test; nullopt means "start over with a fresh word".
std::optional<double> Rng::ziggurat_slow(std::size_t i, double a, bool negative) {
  const Tables& t = tables();
  if (i == 0) {
    // The tail beyond R (Marsaglia and Tsang 2000, Section 3; Marsaglia 1964).
    for (;;) {
      const double s = -portable_log(open_closed(next_u64())) / kR;
      const double u = -portable_log(open_closed(next_u64()));
      if (u + u > s * s) return negative ? -(kR + s) : kR + s;
    }
  }
  const ZigguratWedge b = wedge_bounds(t, i, a);
  const double y = t.f[i] + uniform01() * (t.f[i + 1] - t.f[i]);
  if (y < b.lo || (y < b.hi && y < portable_exp(-0.5 * b.x * b.x))) return negative ? -b.x : b.x;
  return std::nullopt;
}

double Rng::gaussian_ziggurat() {
  double z;
  gaussians_ziggurat(&z, 1);
  return z;
}

void Rng::gaussians_ziggurat(double* out, std::size_t count) {
  const Tables& t = tables();
  for (std::size_t j = 0; j < count;) {
    const std::uint64_t w = next_u64();
    const auto i = static_cast<std::size_t>(w & 0xff);
    const bool negative = ((w >> 8) & 1) != 0;
    const double a = (static_cast<double>(w >> 12) + 0.5) * 0x1.0p-52;
    if (a < t.ratio[i]) {
      // -x is x with its sign bit flipped, so bit 8 moved to bit 63 gives it without a branch on
      // the sign, which a random bit would mispredict half of the time.
      const double x = a * t.x[i];
      out[j++] = std::bit_cast<double>(std::bit_cast<std::uint64_t>(x) ^ ((w & 0x100) << 55));
    } else if (const auto z = ziggurat_slow(i, a, negative)) {
      out[j++] = *z;
    }
  }
}

// exp(x) for x <= 0 from IEEE-754 basic operations and ldexp (exact): x = n ln 2 + r with
// n = round(x / ln 2) and |r| <= ln(2)/2 (ln 2 in two parts, so that n ln2_hi is exact), then
// exp(r) by its Taylor polynomial of degree 14 in Horner form (the next term, r^15/15!, is below
// 2^-61 relative) and 2^n. The coefficients 1/k! are folded at compile time, each step a
// correctly rounded division, so they are the same bits under every compiler.
double portable_exp(double x) {
  if (std::isnan(x)) return x;
  if (x > 709.0) return HUGE_VAL;
  if (x < -745.2) return 0.0;
  constexpr int kDegree = 14;
  constexpr std::array<double, kDegree + 1> c = [] {
    std::array<double, kDegree + 1> a{};
    a[0] = 1.0;
    for (std::size_t k = 1; k <= kDegree; ++k)
      a[k] = a[k - 1] / static_cast<double>(k);
    return a;
  }();
  constexpr double ln2_hi = 6.93147180369123816490e-01;
  constexpr double ln2_lo = 1.90821492927058770002e-10;
  const double n = std::nearbyint(x * 1.44269504088896338700e+00);
  const double r = (x - n * ln2_hi) - n * ln2_lo;
  double sum = c[kDegree];
  for (std::size_t k = kDegree; k-- > 0;)
    sum = sum * r + c[k];
  return std::ldexp(sum, static_cast<int>(n));
}

}  // namespace ssac
