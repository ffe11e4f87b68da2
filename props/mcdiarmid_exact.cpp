// McDiarmid's inequality as eta_mcdiarmid uses it, exactly, beside its sampled check
// (mcdiarmid.cpp): for the mean Ybar of l i.i.d. draws of a law on R^m with mean mu and
// ||Y - mu|| <= rho, P(||Ybar - mu|| >= rho/sqrt(l) + u) <= exp(-l u^2 / (2 rho^2)) for u > 0
// (proofs-notes/bounds.md, "eta_mcdiarmid"; proved as coq/MeanTail.v, `uniform_mean_tail`).
//
// The laws are uniform on a short list of points (repeats count twice, as in the Coq statement),
// small enough that the law of ||S||^2, S the sum of the l draws, is enumerated exactly: an integer
// count of the base^l equally likely draw sequences for each value, which is an integer too (or
// twice one). P(||Ybar - mu|| >= t) only changes at the attained values of ||Ybar - mu||, and the
// bound decreases in u, so checking it at every attained value above rho/sqrt(l) checks it for
// every u > 0: each (law, l) below is verified completely, not sampled.
//
// The probability is an exact rational; the bound is transcendental (e^{-x} for an algebraic
// x != 0, by Lindemann-Weierstrass), so P = bound never happens and only the comparison's precision
// matters. It is evaluated as g = ln P + l u^2 / (2 rho^2) in 50 decimal digits (Boost's
// cpp_bin_float_50: the count's and the denominator's conversions, one division, one log, one
// square root, each within a few units of 1e-50 relative, so |g|'s error is below 1e-45 for the
// exponents here, at most a few hundred); the bound holds where g <= -1e-30, fails where
// g >= 1e-30, and anything between is reported as undecided, a failure. The smallest |g| is
// printed: 0.61 for the inequality (two-point law, l = 2: P = 1/2 against 0.918), 9.9e-4 for its
// halved constant (two-point law, l = 186), 26 orders above the tolerance.
// Note: proofs-notes/mcdiarmid.md, "Checked exactly".
#include <gtest/gtest.h>

#include <algorithm>
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

// The law of K = scale * ||S||^2: count[K] of the `total` equally likely draw sequences.
struct SumLaw {
  std::map<long long, cpp_int> count;
  cpp_int total;
};

// C(l, 0..l).
std::vector<cpp_int> binomial_row(int l) {
  std::vector<cpp_int> row(static_cast<std::size_t>(l) + 1);
  row[0] = 1;
  for (int k = 0; k < l; ++k)
    row[static_cast<std::size_t>(k) + 1] = row[static_cast<std::size_t>(k)] * (l - k) / (k + 1);
  return row;
}
const cpp_int& at(const std::vector<cpp_int>& row, int k) {
  return row[static_cast<std::size_t>(k)];
}

// {-1, 1} (m = 1, rho = 1): S = 2i - l with i ~ Bin(l, 1/2).
SumLaw two_point(int l) {
  SumLaw s;
  const auto row = binomial_row(l);
  for (int i = 0; i <= l; ++i)
    s.count[static_cast<long long>(2 * i - l) * (2 * i - l)] += at(row, i);
  s.total = cpp_int(1) << l;
  return s;
}

// {-1, 0, 1} (m = 1, rho = 1): a draws of -1, c of 1.
SumLaw three_point(int l) {
  SumLaw s;
  const auto row = binomial_row(l);
  for (int a = 0; a <= l; ++a) {
    const auto rest = binomial_row(l - a);
    for (int c = 0; a + c <= l; ++c)
      s.count[static_cast<long long>(c - a) * (c - a)] += at(row, a) * at(rest, c);
  }
  s.total = boost::multiprecision::pow(cpp_int(3), static_cast<unsigned>(l));
  return s;
}

// {-1, -1, 2} (m = 1, mean 0, rho = 2, skewed: only the rarer atom reaches rho): S = 3c - l with c
// draws of 2, each of the C(l, c) placements with 2^(l - c) choices of the -1 among two.
SumLaw skewed(int l) {
  SumLaw s;
  const auto row = binomial_row(l);
  for (int c = 0; c <= l; ++c)
    s.count[static_cast<long long>(3 * c - l) * (3 * c - l)] += at(row, c) << (l - c);
  s.total = boost::multiprecision::pow(cpp_int(3), static_cast<unsigned>(l));
  return s;
}

// {e_1, -e_1, e_2, -e_2} (m = 2, rho = 1). In the coordinates (x + y, x - y) the four points are
// (+-1, +-1), so S's rotated coordinates A, B are two independent sums of l fair signs and
// 2 ||S||^2 = A^2 + B^2 (the key, scale 2).
SumLaw axes(int l) {
  SumLaw s;
  const auto row = binomial_row(l);
  for (int i = 0; i <= l; ++i)
    for (int j = 0; j <= l; ++j) {
      const long long a = 2 * i - l, b = 2 * j - l;
      s.count[a * a + b * b] += at(row, i) * at(row, j);
    }
  s.total = cpp_int(1) << (2 * l);
  return s;
}

// Three unit vectors at 120 degrees (m = 2, rho = 1, mean 0): with a, b, c draws of each and
// v_i . v_j = -1/2, ||S||^2 = a^2 + b^2 + c^2 - ab - bc - ca, an integer.
SumLaw triangle(int l) {
  SumLaw s;
  const auto row = binomial_row(l);
  for (long long a = 0; a <= l; ++a) {
    const auto rest = binomial_row(l - static_cast<int>(a));
    for (long long b = 0; a + b <= l; ++b) {
      const long long c = l - a - b;
      s.count[a * a + b * b + c * c - a * b - b * c - c * a] +=
          at(row, static_cast<int>(a)) * at(rest, static_cast<int>(b));
    }
  }
  s.total = boost::multiprecision::pow(cpp_int(3), static_cast<unsigned>(l));
  return s;
}

struct ExactLaw {
  const char* name;
  int m;
  long long scale;    // the key is scale * ||S||^2
  long long rho2;     // rho^2
  Rational variance;  // E||Y - mu||^2
  SumLaw (*sum_law)(int);
  std::vector<int> ls;
};

std::vector<int> range(int from, int to, std::vector<int> more = {}) {
  std::vector<int> v;
  for (int l = from; l <= to; ++l)
    v.push_back(l);
  v.insert(v.end(), more.begin(), more.end());
  return v;
}

// The 1-dimensional laws have l + 1 values of ||S||^2; the planar ones about l^2 / 2, enumerated
// from l^2 / 2 terms, hence their shorter ranges.
std::vector<ExactLaw> laws() {
  return {{"{-1, 1}", 1, 1, 1, 1, two_point, range(1, 300)},
          {"{-1, 0, 1}", 1, 1, 1, Rational(2, 3), three_point, range(1, 120, {200})},
          {"{-1, -1, 2}", 1, 1, 4, 2, skewed, range(1, 200)},
          {"{+-e_1, +-e_2}", 2, 2, 1, 1, axes, range(1, 40, {60, 100})},
          {"three unit vectors at 120 degrees", 2, 1, 1, 1, triangle, range(1, 40, {60, 100})}};
}

struct Summary {
  long long thresholds = 0, held = 0, failed = 0, undecided = 0;
  Float closest = -1e9;  // the largest g among the thresholds where the bound held
  Float nearest = 1e9;   // the smallest |g|: how far every verdict is from the tolerance
  std::string closest_text, first_failure;
};

// Every attained threshold of `law` at l, against exp(-l u^2 / (divisor rho^2)) (divisor 2: the
// inequality; 1: its constant halved).
void check(const ExactLaw& law, int l, int divisor, Summary& out) {
  const SumLaw s = law.sum_law(l);
  // The enumeration's own check: the counts sum to the number of draw sequences, and
  // E||S||^2 = l E||Y - mu||^2 (independent mean-zero summands, coq/MeanTail.v's second_moment).
  cpp_int sequences = 0, moment = 0;
  for (const auto& [key, count] : s.count) {
    sequences += count;
    moment += key * count;
  }
  EXPECT_EQ(sequences, s.total) << law.name << ", l = " << l;
  EXPECT_EQ(Rational(moment, s.total * law.scale), l * law.variance) << law.name << ", l = " << l;
  const long long above = law.scale * law.rho2 * l;  // key at ||Ybar - mu|| = rho/sqrt(l), u = 0
  const Float total(s.total);
  cpp_int tail = 0;
  for (auto it = s.count.rbegin(); it != s.count.rend() && it->first > above; ++it) {
    tail += it->second;
    // l u^2 / rho^2 = (sqrt(||S||^2 / (l rho^2)) - 1)^2 at ||Ybar - mu|| = ||S|| / l.
    const Float root = boost::multiprecision::sqrt(Float(it->first) / Float(above)) - 1;
    const Float exponent = root * root / divisor;
    const Float g = boost::multiprecision::log(Float(tail) / total) + exponent;
    ++out.thresholds;
    out.nearest = std::min(out.nearest, Float(abs(g)));
    const auto describe = [&] {
      std::ostringstream os;
      const Float rho = boost::multiprecision::sqrt(Float(law.rho2));
      const Float u = boost::multiprecision::sqrt(Float(it->first) / Float(law.scale)) / l -
                      rho / boost::multiprecision::sqrt(Float(l));
      os << law.name << " (m = " << law.m << "), l = " << l << ", ||Ybar - mu||^2 = " << it->first
         << "/" << law.scale * l * l << ", u = " << u.str(6)
         << ": P = " << fraction_string(Rational(tail, s.total)) << " = "
         << decimal_string(Rational(tail, s.total), 12) << ", claimed exp(-l u^2/("
         << (divisor == 2 ? "2 " : "") << "rho^2)) = " << exp(-exponent).str(12)
         << ", ln(P / claimed) = " << g.str(6);
      return os.str();
    };
    if (g <= -kTolerance) {
      ++out.held;
      if (g > out.closest) {
        out.closest = g;
        out.closest_text = describe();
      }
    } else if (g >= kTolerance) {
      if (out.failed++ == 0) out.first_failure = describe();
    } else {
      ++out.undecided;
      ADD_FAILURE() << "undecided at 50 digits: " << describe();
    }
  }
}

Summary check_all(const ExactLaw& law, int divisor) {
  Summary out;
  for (int l : law.ls)
    check(law, l, divisor, out);
  std::cout << "[exact] " << law.name << ", l in " << law.ls.front() << ".." << law.ls.back()
            << " (" << law.ls.size() << " values), divisor " << divisor << ": " << out.thresholds
            << " thresholds, " << out.failed
            << " where the bound fails, smallest |ln(P / claimed)| " << out.nearest.str(3);
  if (out.failed > 0) std::cout << ", first: " << out.first_failure;
  if (out.held > 0) std::cout << "; closest where it holds: " << out.closest_text;
  std::cout << "\n";
  return out;
}

}  // namespace

TEST(McDiarmidExact, TailAtMostBoundAtEveryAttainedThreshold) {
  for (const ExactLaw& law : laws()) {
    const Summary s = check_all(law, 2);
    EXPECT_EQ(s.failed, 0) << law.name << ": " << s.first_failure;
    EXPECT_EQ(s.undecided, 0) << law.name;
    EXPECT_GT(s.thresholds, 0) << law.name;
  }
}

// Negative control: the constant halved, exp(-l u^2 / rho^2), must be caught by the same check.
// The two-point law catches it, first at l = 29 one step below its atom (|S| = 27: P = 15/2^27 =
// 1.12e-7 against 1.01e-7), then at 15319 of its 20980 thresholds up to l = 300. Its
// P(||Ybar - mu|| = rho) = 2^{1-l} is the most any law with ||Y - mu|| <= rho allows (a point at
// distance rho from the mean has mass at most 1/2), against e^{-(sqrt(l) - 1)^2}, and its Gaussian
// limit's 2 Phi(-(1 + a)) exceeds e^{-a^2} for a > 3.342 (a = u sqrt(l) / rho). The other four laws
// stay below even the halved bound at their l (proofs-notes/mcdiarmid.md, "Checked exactly").
TEST(McDiarmidExact_Negative, HalvedConstantIsCaught) {
  NegativeControl guard;
  long long failed = 0;
  for (const ExactLaw& law : laws())
    failed += check_all(law, 1).failed;
  EXPECT_GT(failed, 0);
}

}  // namespace ssac::props
