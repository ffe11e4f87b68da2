// Shared by the unit tests of theory/: independent references (the paper's expressions written
// naively, evaluated at 200 or 500 decimal digits) and the check of a ParameterError's message.
#pragma once

#include <gtest/gtest.h>

#include <boost/multiprecision/cpp_bin_float.hpp>
#include <functional>
#include <string>

#include "ssac/error.hpp"
#include "ssac/theory/bounds.hpp"

namespace theory_test {

namespace mp = boost::multiprecision;
using namespace ssac::theory;
using Ref = mp::number<mp::cpp_bin_float<200>, mp::et_off>;
using Ref500 = mp::number<mp::cpp_bin_float<500>, mp::et_off>;

// ---- Independent references: the paper's expressions written naively, evaluated at 200 digits.
// At 200 digits 1 - qa (1 - e^{-c}) keeps more than 70 digits for every point of test_bounds.cpp's
// grid (qa (1 - e^{-c}) >= 1.25e-127 at q = 1e-12, k = 10, gamma = 1+1e-9), so the naive form is
// exact to far beyond the 50 digits compared.
template <class T = Ref>
T ref_eta_random(long long k, long long m, double delta, double gamma, double q, T h = -1) {
  // (log(2k) + log(m+1) + log(1/delta)) / log(1/(1 - q^(k-1) + q^(k-1) e^{-(gamma-1)^2/8}))
  const T H = h < 0 ? T(m + 1) : h;
  const T qa = pow(T(q), k - 1);
  const T g = T(gamma) - 1;
  return (log(T(2 * k)) + log(H) + log(1 / T(delta))) / log(1 / (1 - qa + qa * exp(-g * g / 8)));
}
inline Ref ref_eta_perfect(long long k, long long m, double delta, double gamma, Ref h = -1) {
  // 8 (log k + log(m+1) + log(1/delta)) / (gamma-1)^2
  const Ref H = h < 0 ? Ref(m + 1) : h;
  const Ref g = Ref(gamma) - 1;
  return 8 * (log(Ref(k)) + log(H) + log(1 / Ref(delta))) / (g * g);
}
inline Ref ref_beta(long long k, Ref steps, double delta, double q) {
  // (log(2k) + log(steps) + log(1/delta)) / log(1/(1-q)); steps = log n for Theorem 1
  return (log(Ref(2 * k)) + log(steps) + log(1 / Ref(delta))) / log(1 / (1 - Ref(q)));
}

inline double rel(const Ref& a, const Ref& b) {
  return static_cast<double>(abs(a - b) / abs(b));
}

inline void expect_error(const std::function<void()>& f, const std::string& name,
                         const std::string& range) {
  try {
    f();
    ADD_FAILURE() << "no error for " << name;
  } catch (const ssac::ParameterError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find(name + " = "), std::string::npos) << msg;
    EXPECT_NE(msg.find(range), std::string::npos) << msg;
  }
}

}  // namespace theory_test
