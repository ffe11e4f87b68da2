// The project's one random generator, and the only derivations of uniform, Bernoulli and
// Gaussian draws that may influence a result.
//
// Why not <random>: the engines are portable but std::uniform_int_distribution,
// std::bernoulli_distribution and std::normal_distribution are not -- libstdc++, libc++ and
// MSVC produce different values from the same engine. A reference implementation must give the
// same bytes everywhere, so every derivation is written out here and documented in
// proofs-notes/semantics.md ("Random numbers"). Test vectors pinning the outputs live in
// tests/test_rng.cpp.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <optional>

namespace ssac {

// SplitMix64 (Steele, Lea, Flood 2014): used only to expand a 64-bit seed into generator
// state and to mix stream identifiers.
std::uint64_t splitmix64_next(std::uint64_t& state);

// xoshiro256** 1.0 (Blackman and Vigna 2018). State is seeded from SplitMix64 so that no
// seed, including 0, yields the forbidden all-zero state.
class Rng {
 public:
  // Seeds state words s[0..3] with four successive SplitMix64 outputs starting from `seed`.
  explicit Rng(std::uint64_t seed);

  // An independent stream for (seed, ids...): the key is folded as
  //   h = seed; for each id: h = splitmix64_next(h ^ id)   (splitmix64 advances a copy)
  // and the stream is Rng(h). Each part of a run (the algorithm's choices, the oracle, the data
  // generator, repetition r of an experiment) draws from its own stream, so changing one part's
  // consumption never shifts another part's draws.
  static Rng stream(std::uint64_t seed, std::initializer_list<std::uint64_t> ids);

  // A generator in the given state (not all zero), for checking the published test vectors.
  static Rng from_state(const std::array<std::uint64_t, 4>& state);

  // Defined below, inline: the ziggurat spends most of its time here.
  std::uint64_t next_u64();

  // Uniform on [0, n) for n >= 1, exactly: draw x until x < 2^64 - (2^64 mod n), return x mod n.
  std::uint64_t uniform_index(std::uint64_t n);

  // Uniform on [0, 1) with 53 random bits: (next_u64() >> 11) * 2^-53.
  double uniform01();

  // Bernoulli(p): uniform01() < p. Exactly false for p <= 0 and true for p >= 1.
  bool bernoulli(double p);

  // Standard normal by Marsaglia's polar method, using portable_log and IEEE sqrt only. Each
  // accepted pair (u, v) yields two variates: the call that draws the pair returns u * f and the
  // next call returns v * f (f = sqrt(-2 log(s) / s)), which halves the logarithms per variate.
  double gaussian();
  // out[0..count) = the next `count` gaussian() values, bit for bit, with the same draws and the
  // same spare left over; the pairs' logarithms are computed a block at a time (faster).
  void gaussians(double* out, std::size_t count);

  // Standard normal by the ziggurat method (Marsaglia and Tsang 2000) with 256 layers, tables
  // computed from portable_log and portable_exp; lib/src/core/ziggurat.cpp documents each step.
  // The Gaussian stream of generator versions 2 and 4 (GaussianMethod::ziggurat,
  // ziggurat_clusters): different values from gaussian(), and cheaper than a block of gaussians()
  // (docs/benchmarks.md, "Streams per cluster"; bench/ BM_Gaussians).
  double gaussian_ziggurat();
  // out[0..count) = the next `count` gaussian_ziggurat() values.
  void gaussians_ziggurat(double* out, std::size_t count);

 private:
  Rng() = default;
  std::optional<double> ziggurat_slow(std::size_t layer, double a, bool negative);
  std::uint64_t s_[4];
  bool has_spare_ = false;  // gaussian(): the pair's second variate is waiting in spare_
  double spare_ = 0.0;
};

inline std::uint64_t Rng::next_u64() {
  const auto rotl = [](std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); };
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

// Natural logarithm for finite x > 0 from IEEE-754 basic operations only (+, -, *, /, frexp),
// so that it yields the same bits on every platform when compiled without FMA contraction.
// Accurate to a few ulp; used where a result must be reproducible (Gaussian draws), never for
// the bounds in theory/, which use Boost.Math.
double portable_log(double x);

// exp(x) from IEEE-754 basic operations and ldexp, reproducible in the same way; accurate to a
// few ulp for x <= 0 (the ziggurat's only use), 0 below -745.2 and +inf above 709.
double portable_exp(double x);

// The ziggurat's wedge test for layer i = 1..255 and a word's magnitude a >= x_{i+1} / x_i:
// x = a x_i and bounds lo <= portable_exp(-x^2 / 2) <= hi, which decide the test without the
// exponential unless its uniform falls between them (lib/src/core/ziggurat.cpp says why they
// hold). Exposed for tests.
struct ZigguratWedge {
  double x, lo, hi;
};
ZigguratWedge ziggurat_wedge(std::size_t layer, double a);

// How the data generator draws its Gaussians, named by the generator's stream version: 1 = the
// polar method (Rng::gaussian) from the draw's one stream, 2 = the ziggurat
// (Rng::gaussian_ziggurat) from it; 3 and 4 = the polar method and the ziggurat with each
// cluster's Gaussians from a stream of its own (ssac/generator.hpp). The same seed gives other
// datasets under another version; every output that depends on generated data names it.
enum class GaussianMethod { polar = 1, ziggurat = 2, polar_clusters = 3, ziggurat_clusters = 4 };

// Versions 2 and 4 draw by the ziggurat; versions 3 and 4 draw each cluster from its own stream.
constexpr bool by_ziggurat(GaussianMethod g) {
  return g == GaussianMethod::ziggurat || g == GaussianMethod::ziggurat_clusters;
}
constexpr bool per_cluster(GaussianMethod g) {
  return g == GaussianMethod::polar_clusters || g == GaussianMethod::ziggurat_clusters;
}

}  // namespace ssac
