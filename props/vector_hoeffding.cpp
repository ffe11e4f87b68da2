// Appendix, Theorem "Vector Hoeffding's Inequality": for i.i.d. zero-mean Y_i in R^m with
// ||Y_i|| <= r, P(||(1/s) sum Y_i|| > t) <= (m+1) exp(-t^2 / 2 sigma^2), sigma^2 = r^2 / s.
// Also the transpose-dilation identity its proof rests on. Note: proofs-notes/vector-hoeffding.md.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <Eigen/Eigenvalues>
#include <cmath>
#include <functional>
#include <sstream>

#include "ssac/rng.hpp"
#include "support.hpp"

namespace ssac::props {
namespace {

// A bounded zero-mean distribution on R^m (radius r = 1; the statement is scale-free).
struct Law {
  int kind = 0;  // 0 symmetric two-point +-u, 1 skewed two-point, 2 uniform on the sphere, 3 +-e_j
  int m = 1;
  double skew = 0.5;  // P(first atom) for kind 1
  std::uint64_t seed = 0;
};
const char* kKinds[] = {"two-point", "skewed", "sphere", "axis"};

struct Case {
  Law law;
  int s = 1;          // sample size
  double target = 0;  // the claimed bound's value at the chosen t
};

rc::Gen<Case> gen_case() {
  return rc::gen::exec([] {
    Case c;
    // rc::gen::inRange only reaches its upper end at large sizes; resize(100) makes the law and
    // the bound's value uniform over every case, as their comments say.
    c.law.kind = *rc::gen::resize(100, rc::gen::inRange(0, 4));
    c.law.m = *rc::gen::elementOf(std::vector<int>{1, 1, 1, 2, 3, 10, 100});
    c.law.skew = *rc::gen::inRange(1, 20) / 20.0;
    c.law.seed = *rc::gen::arbitrary<std::uint64_t>();
    // m = 100 only with s <= 20, so that every case affords at least 20000 trials.
    c.s = c.law.m >= 100 ? *rc::gen::elementOf(std::vector<int>{1, 2, 5, 20})
                         : *rc::gen::elementOf(std::vector<int>{1, 2, 5, 20, 50, 100});
    // The bound's value, log-uniform in [0.01, 0.3]: t is chosen so that the claim is neither
    // trivial (bound >= 1) nor below what the trials can resolve (with 20000 trials and no event
    // the Clopper-Pearson upper bound is about 1e-3 at alpha = 5e-9).
    c.target = std::pow(10.0, -2.0 + (*rc::gen::resize(100, rc::gen::inRange(0, 1001))) / 1000.0 *
                                         std::log10(30.0));
    return c;
  });
}

void draw(const Law& L, Rng& rng, Vector& y) {
  const int m = L.m;
  y.setZero(m);
  switch (L.kind) {
    case 0:
      y(0) = rng.bernoulli(0.5) ? 1.0 : -1.0;
      break;
    case 1:  // atoms (1 - p) e_1 w.p. p and -p e_1 w.p. 1 - p: mean zero, norms <= 1
      y(0) = rng.bernoulli(L.skew) ? 1.0 - L.skew : -L.skew;
      break;
    case 2:
      for (int d = 0; d < m; ++d)
        y(d) = rng.gaussian();
      y /= y.norm();
      break;
    default:
      y(static_cast<Eigen::Index>(rng.uniform_index(static_cast<std::uint64_t>(m)))) =
          rng.bernoulli(0.5) ? 1.0 : -1.0;
  }
}

// The claimed tail bound as a function of (m, t, sigma^2); the reference is the paper's.
using Bound = std::function<double(int, double, double)>;
double paper_bound(int m, double t, double sigma2) {
  return (m + 1) * std::exp(-t * t / (2.0 * sigma2));
}

// t for which `bound` equals c.target (bisection: every bound here decreases in t).
double t_for(const Bound& bound, int m, double sigma2, double target) {
  double lo = 0.0, hi = 1.0;
  while (bound(m, hi, sigma2) > target)
    hi *= 2.0;
  for (int i = 0; i < 200; ++i) {
    const double mid = 0.5 * (lo + hi);
    (bound(m, mid, sigma2) > target ? lo : hi) = mid;
  }
  return hi;
}

void check_tail(const Case& c, const Bound& bound) {
  const double sigma2 = 1.0 / c.s;  // (1/s^2) sum r_i^2 with r_i = 1
  const double t = t_for(bound, c.law.m, sigma2, c.target);
  const double claimed = bound(c.law.m, t, sigma2);
  // Trials: 2e7 draws' worth, between 20000 and 200000 (resolves the 0.01 end of the target
  // range by a factor of ten; the false-alarm rate is 1e-6 per property, per_case_alpha()).
  const double work = static_cast<double>(c.s) * c.law.m;
  const auto trials = static_cast<std::uint64_t>(std::clamp(2e7 / work, 20000.0, 200000.0));
  Rng rng(c.law.seed);
  Vector y(c.law.m), sum(c.law.m);
  std::uint64_t events = 0;
  for (std::uint64_t n = 0; n < trials; ++n) {
    sum.setZero();
    for (int i = 0; i < c.s; ++i) {
      draw(c.law, rng, y);
      sum += y;
    }
    if ((sum / c.s).norm() > t) ++events;
  }
  RC_CLASSIFY(c.law.m == 1, "m=1");
  RC_CLASSIFY(c.law.m >= 10, "m>=10");
  RC_CLASSIFY(events > 0, "tail event observed");
  RC_CLASSIFY(claimed < 0.03, "bound < 0.03");
  RC_CLASSIFY(claimed > 0.1, "bound > 0.1");
  RC_TAG(kKinds[c.law.kind]);
  std::ostringstream inst;
  inst << kKinds[c.law.kind] << " m=" << c.law.m << " s=" << c.s << " t=" << t
       << " seed=" << c.law.seed;
  RC_ASSERT(rate_at_most("vector_hoeffding_tail", inst.str(), events, trials, claimed,
                         "(m+1)exp(-t^2/2sigma^2)"));
}

Eigen::MatrixXd dilation(const Eigen::MatrixXd& A) {  // Definition "Transpose Dilation"
  const auto d1 = A.rows(), d2 = A.cols();
  Eigen::MatrixXd D = Eigen::MatrixXd::Zero(d1 + d2, d1 + d2);
  D.topRightCorner(d1, d2) = A;
  D.bottomLeftCorner(d2, d1) = A.transpose();
  return D;
}

// The proof's chain ||(1/s) sum Y_i|| = lambda_max(sum X_i), X_i = D_T(Y_i / s), and
// X_i^2 = blockdiag(Y Y^T, ||Y||^2) / s^2. With small-integer coordinates and s a power of two
// every entry is exact in binary floating point, so the algebraic identities are compared with ==;
// only the eigenvalue (from an iterative solver) gets a relative tolerance of 1e-12.
void check_dilation(const std::vector<std::vector<int>>& ys, int m,
                    const std::function<Eigen::MatrixXd(const Eigen::MatrixXd&)>& dil) {
  const double s = 4.0;
  Eigen::MatrixXd sum_dil = Eigen::MatrixXd::Zero(m + 1, m + 1);
  Eigen::VectorXd sum = Eigen::VectorXd::Zero(m);
  for (const auto& yi : ys) {
    Eigen::VectorXd y(m);
    for (int d = 0; d < m; ++d)
      y(d) = yi[static_cast<std::size_t>(d)];
    const Eigen::MatrixXd X = dil(y / s);
    Eigen::MatrixXd sq = Eigen::MatrixXd::Zero(m + 1, m + 1);
    sq.topLeftCorner(m, m) = y * y.transpose() / (s * s);
    sq(m, m) = y.squaredNorm() / (s * s);
    RC_ASSERT(X * X == sq);  // the proof's X_i^2
    sum_dil += X;
    sum += y / s;
  }
  RC_ASSERT(sum_dil == dil(sum));  // sum of dilations = dilation of the sum (linearity)
  Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> es(sum_dil, Eigen::EigenvaluesOnly);
  const double lmax = es.eigenvalues().maxCoeff();
  RC_ASSERT(std::abs(lmax - sum.norm()) <= 1e-12 * std::max(1.0, sum.norm()));
}

rc::Gen<std::pair<int, std::vector<std::vector<int>>>> gen_vectors() {
  return rc::gen::exec([] {
    const int m = *rc::gen::inRange(1, 9);
    const auto ys =
        *rc::gen::container<std::vector<std::vector<int>>>(rc::gen::container<std::vector<int>>(
            static_cast<std::size_t>(m), rc::gen::inRange(-50, 51)));
    return std::make_pair(m, ys);
  });
}

}  // namespace

RC_GTEST_PROP(VectorHoeffding, TailBelowBound, ()) {
  check_tail(*gen_case(), paper_bound);
}

RC_GTEST_PROP(VectorHoeffding, TransposeDilationIdentity, ()) {
  const auto [m, ys] = *gen_vectors();
  check_dilation(ys, m, [](const Eigen::MatrixXd& A) { return dilation(A); });
}

// Negative controls: the exponent t^2/sigma^2 (a constant 2 too large, stronger than the Gaussian
// tail) must be caught on the same generated distributions; a "dilation" without the transpose
// block (only the upper-right block) breaks the identity.
TEST(VectorHoeffding_Negative, WrongExponentIsCaught) {
  EXPECT_TRUE(expect_caught("vector Hoeffding with exp(-t^2/sigma^2)", [] {
    check_tail(*gen_case(),
               [](int m, double t, double s2) { return (m + 1) * std::exp(-t * t / s2); });
  }));
}

TEST(VectorHoeffding_Negative, OneSidedDilationIsCaught) {
  EXPECT_TRUE(expect_caught("dilation without its transpose block", [] {
    const auto [m, ys] = *gen_vectors();
    check_dilation(ys, m, [](const Eigen::MatrixXd& A) {
      Eigen::MatrixXd D = dilation(A);
      D.bottomLeftCorner(A.cols(), A.rows()).setZero();
      return D;
    });
  }));
}

}  // namespace ssac::props
