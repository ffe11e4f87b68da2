// Pinelis's inequality as coq/Pinelis.v proves it, checked exactly: for independent mean-zero
// d_1, ..., d_l in R^m with ||d_j|| <= c_j, P(||d_1 + ... + d_l|| >= r) <= 2 exp(-r^2 / (2 V)),
// V = sum c_j^2 (`Pinelis.pinelis`; with d_j = Y_j - mu and c_j = rho it is `vector_pinelis`, the
// factor 2 of eta_random_pinelis).
//
// Each summand is uniform on a short list of integer points of Z^m with mean zero (repeats count
// twice, as in the Coq statement), and c_j^2 is the largest squared norm on its list, so the law of
// the sum S is enumerated exactly by convolution: an integer count of the equally likely draw
// sequences for each point of Z^m, and ||S||^2 is an integer. P(||S|| >= r) only changes at the
// attained values of ||S||, and the bound decreases in r, so checking it at every attained value
// r > 0 checks it for every r > 0 (at r = 0 it reads 1 <= 2): each (sequence of laws, l) below is
// verified completely, not sampled. Identical and alternating laws are both checked (the theorem
// allows a different law and bound per summand).
//
// The probability is an exact rational and the bound 2 e^{-x} with x = ||S||^2 / (2 V) a nonzero
// rational, transcendental (Lindemann-Weierstrass), so P = bound never happens and only the
// comparison's precision matters. It is evaluated as g = ln P + x - ln 2 in 50 decimal digits
// (Boost's cpp_bin_float_50: two conversions, one division, one log; |g|'s error is below 1e-45
// for the exponents here, at most a few hundred); the bound holds where g <= -1e-30, fails where
// g >= 1e-30, and anything between is reported as undecided, a failure. The output prints the
// smallest |g| and the largest P / bound.
// Note: proofs-notes/pinelis.md, "Checked exactly".
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <boost/multiprecision/cpp_bin_float.hpp>
#include <boost/multiprecision/cpp_int.hpp>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "ssac/exact.hpp"
#include "support.hpp"

namespace ssac::props {
namespace {

using boost::multiprecision::cpp_int;
using Float = boost::multiprecision::cpp_bin_float_50;
const Float kTolerance("1e-30");

using Point = std::array<long long, 3>;  // coordinates beyond m are 0

// One summand's law: uniform on `points` (integer, mean zero), c^2 the largest squared norm.
struct Summand {
  std::vector<Point> points;
};

long long norm2(const Point& p) {
  return p[0] * p[0] + p[1] * p[1] + p[2] * p[2];
}
long long bound2(const Summand& s) {
  long long c2 = 0;
  for (const Point& p : s.points)
    c2 = std::max(c2, norm2(p));
  return c2;
}

// A sequence of summands: `pattern` repeated (the j-th summand is pattern[j mod |pattern|]).
struct ExactCase {
  const char* name;
  int m;
  std::vector<Summand> pattern;
  int max_l;
};

// The law of ||S||^2 after l summands: count[K] of the `total` equally likely draw sequences.
struct SumLaw {
  std::map<long long, cpp_int> count;
  cpp_int total;
  long long variance_bound = 0;  // V = sum c_j^2
  Rational second_moment;        // sum E||d_j||^2, which E||S||^2 must equal
};

// The laws of S after 1, 2, ..., max_l summands, by convolution over the points of Z^m.
std::vector<SumLaw> sum_laws(const ExactCase& c) {
  std::vector<SumLaw> out;
  std::map<Point, cpp_int> law{{Point{0, 0, 0}, cpp_int(1)}};
  cpp_int total = 1;
  long long v = 0;
  Rational moment = 0;
  for (int l = 1; l <= c.max_l; ++l) {
    const Summand& s = c.pattern[static_cast<std::size_t>(l - 1) % c.pattern.size()];
    std::map<Point, cpp_int> next;
    for (const auto& [sum, count] : law)
      for (const Point& p : s.points)
        next[Point{sum[0] + p[0], sum[1] + p[1], sum[2] + p[2]}] += count;
    law = std::move(next);
    total *= static_cast<long long>(s.points.size());
    v += bound2(s);
    long long sq = 0;
    for (const Point& p : s.points)
      sq += norm2(p);
    moment += Rational(sq, static_cast<long long>(s.points.size()));
    SumLaw r;
    for (const auto& [sum, count] : law)
      r.count[norm2(sum)] += count;
    r.total = total;
    r.variance_bound = v;
    r.second_moment = moment;
    out.push_back(std::move(r));
  }
  return out;
}

Summand line(std::vector<long long> xs) {
  Summand s;
  for (long long x : xs)
    s.points.push_back(Point{x, 0, 0});
  return s;
}

std::vector<ExactCase> cases() {
  const Summand two_point = line({-1, 1});
  const Summand three_point = line({-1, 0, 1});
  const Summand skewed = line({-1, -1, 2});  // only the rarer atom reaches c
  const Summand axes2{{{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}}};
  const Summand skewed2{{{2, 0, 0}, {-1, 1, 0}, {-1, -1, 0}}};  // c^2 = 4, the others at 2
  const Summand axes3{{{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}}};
  const Summand tetrahedron{{{1, 1, 1}, {1, -1, -1}, {-1, 1, -1}, {-1, -1, 1}}};  // c^2 = 3
  const Summand skewed3{{{3, 0, 0}, {-1, 2, 0}, {-1, -1, 1}, {-1, -1, -1}}};      // c^2 = 9
  return {
      {"{-1, 1}", 1, {two_point}, 200},
      {"{-1, 0, 1}", 1, {three_point}, 150},
      {"{-1, -1, 2}", 1, {skewed}, 150},
      {"{-1, 1} and {-1, -1, 2} alternating", 1, {two_point, skewed}, 150},
      {"{+-e_1, +-e_2}", 2, {axes2}, 40},
      {"{(2, 0), (-1, 1), (-1, -1)}", 2, {skewed2}, 40},
      {"{+-e_1, +-e_2} and {(2, 0), (-1, 1), (-1, -1)} alternating", 2, {axes2, skewed2}, 40},
      {"{+-e_1, +-e_2, +-e_3}", 3, {axes3}, 16},
      {"the tetrahedron {(1, 1, 1), (1, -1, -1), (-1, 1, -1), (-1, -1, 1)}", 3, {tetrahedron}, 16},
      {"{(3, 0, 0), (-1, 2, 0), (-1, -1, 1), (-1, -1, -1)} and the tetrahedron alternating",
       3,
       {skewed3, tetrahedron},
       14}};
}

// The bound checked: factor * exp(-r^2 / (divisor V)); Pinelis's is factor 2, divisor 2.
struct Claim {
  int factor;
  int divisor;
};

struct Summary {
  long long thresholds = 0, held = 0, failed = 0, undecided = 0;
  Float nearest = 1e9;   // the smallest |g|: how far every verdict is from the tolerance
  Float largest = -1e9;  // the largest g where the bound held: ln of the largest P / bound
  std::string largest_text, first_failure;
};

void check(const ExactCase& c, int l, const SumLaw& s, Claim claim, Summary& out) {
  // The enumeration's own check: the counts sum to the number of draw sequences, and
  // E||S||^2 = sum E||d_j||^2 (independent mean-zero summands).
  cpp_int sequences = 0, moment = 0;
  for (const auto& [key, count] : s.count) {
    sequences += count;
    moment += key * count;
  }
  EXPECT_EQ(sequences, s.total) << c.name << ", l = " << l;
  EXPECT_EQ(Rational(moment, s.total), s.second_moment) << c.name << ", l = " << l;
  const Float total(s.total);
  const Float log_factor = boost::multiprecision::log(Float(claim.factor));
  cpp_int tail = 0;
  for (auto it = s.count.rbegin(); it != s.count.rend() && it->first > 0; ++it) {
    tail += it->second;
    const Float exponent = Float(it->first) / Float(claim.divisor * s.variance_bound);
    const Float g = boost::multiprecision::log(Float(tail) / total) + exponent - log_factor;
    ++out.thresholds;
    out.nearest = std::min(out.nearest, Float(abs(g)));
    const auto describe = [&] {
      std::ostringstream os;
      os << c.name << " (m = " << c.m << "), l = " << l << ", r^2 = ||S||^2 = " << it->first
         << ", V = " << s.variance_bound << ": P = " << fraction_string(Rational(tail, s.total))
         << " = " << decimal_string(Rational(tail, s.total), 12) << ", claimed " << claim.factor
         << " exp(-r^2/(" << (claim.divisor == 1 ? "" : "2 ")
         << "V)) = " << (claim.factor * exp(-exponent)).str(12)
         << ", ln(P / claimed) = " << g.str(6);
      return os.str();
    };
    if (g <= -kTolerance) {
      ++out.held;
      if (g > out.largest) {
        out.largest = g;
        out.largest_text = describe();
      }
    } else if (g >= kTolerance) {
      if (out.failed++ == 0) out.first_failure = describe();
    } else {
      ++out.undecided;
      ADD_FAILURE() << "undecided at 50 digits: " << describe();
    }
  }
}

Summary check_all(const ExactCase& c, Claim claim) {
  Summary out;
  const std::vector<SumLaw> laws = sum_laws(c);
  for (int l = 1; l <= c.max_l; ++l)
    check(c, l, laws[static_cast<std::size_t>(l - 1)], claim, out);
  std::cout << "[exact] " << c.name << ", l in 1.." << c.max_l << ", " << claim.factor
            << " exp(-r^2/(" << (claim.divisor == 1 ? "" : "2 ") << "V)): " << out.thresholds
            << " thresholds, " << out.failed
            << " where the bound fails, smallest |ln(P / claimed)| " << out.nearest.str(3);
  if (out.failed > 0) std::cout << ", first: " << out.first_failure;
  if (out.held > 0)
    std::cout << "; largest P / claimed where it holds " << exp(out.largest).str(4) << ": "
              << out.largest_text;
  std::cout << "\n";
  return out;
}

}  // namespace

TEST(PinelisExact, TailAtMostBoundAtEveryAttainedThreshold) {
  for (const ExactCase& c : cases()) {
    const Summary s = check_all(c, Claim{2, 2});
    EXPECT_EQ(s.failed, 0) << c.name << ": " << s.first_failure;
    EXPECT_EQ(s.undecided, 0) << c.name;
    EXPECT_GT(s.thresholds, 0) << c.name;
  }
}

// Negative control: the factor 2 replaced by 1, exp(-r^2 / (2 V)), must be caught. It is at l = 1
// already: a single fair sign has P(|S| >= 1) = 1 against e^{-1/2} = 0.61.
TEST(PinelisExact_Negative, FactorOneIsCaught) {
  NegativeControl guard;
  long long failed = 0;
  for (const ExactCase& c : cases())
    failed += check_all(c, Claim{1, 2}).failed;
  EXPECT_GT(failed, 0);
}

// Negative control: the 2 in the exponent replaced by 1, 2 exp(-r^2 / V), must be caught. It is at
// l = 1 too: a single fair sign has P(|S| >= 1) = 1 against 2 e^{-1} = 0.74, and at the atom
// |S| = l of l fair signs P = 2^{1-l} > 2 e^{-l} for every l.
TEST(PinelisExact_Negative, ExponentHalvedIsCaught) {
  NegativeControl guard;
  long long failed = 0;
  for (const ExactCase& c : cases())
    failed += check_all(c, Claim{2, 1}).failed;
  EXPECT_GT(failed, 0);
}

}  // namespace ssac::props
