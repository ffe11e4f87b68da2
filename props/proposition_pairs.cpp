// Appendix, Proposition "bound_given": for a gamma-margin clustering,
// (a) d(x, y) > (gamma - 1) max{d(x, mu_i), d(y, mu_j)} for x in C_i, y in C_j, i != j;
// (b) d(x, y) <= 2 r(C_i) for x, y in C_i. Deterministic, every pair.
// Note: proofs-notes/proposition-pairs.md.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cmath>

#include "support.hpp"

namespace ssac::props {
namespace {

// (a) at the strict gamma (1e-6 of gamma - 1 below the supremum, see lemma5_close_center.cpp);
// (b) with a relative rounding allowance of 1e-12: the triangle inequality holds for the real
// distances, and the three computed distances each carry a few ulp of rounding.
void check_pairs(const Instance& inst, double a_factor, double b_factor) {
  const auto& st = inst.stats;
  const double g = std::isinf(st.gamma) ? 3.0 : st.gamma - 1e-6 * (st.gamma - 1.0);
  const auto n = static_cast<std::size_t>(inst.X.rows());
  std::vector<double> dmu(n);
  for (std::size_t x = 0; x < n; ++x)
    dmu[x] = distance(inst.X, x, st.means[static_cast<std::size_t>(inst.labels[x] - 1)]);
  std::size_t cross = 0;
  for (std::size_t x = 0; x < n; ++x)
    for (std::size_t y = x + 1; y < n; ++y) {
      const double d = distance(inst.X, x, y);
      if (inst.labels[x] != inst.labels[y]) {
        ++cross;
        RC_ASSERT(d > a_factor * (g - 1.0) * std::max(dmu[x], dmu[y]));
      } else {
        const double r = st.radii[static_cast<std::size_t>(inst.labels[x] - 1)];
        RC_ASSERT(d <= b_factor * 2.0 * r * (1.0 + 1e-12));
      }
    }
  RC_CLASSIFY(cross > 0, "has cross-cluster pairs");
  RC_CLASSIFY(st.gamma < 1.05, "gamma < 1.05");
}

}  // namespace

RC_GTEST_PROP(PropositionPairs, EveryPair, ()) {
  check_pairs(*gen_instance({1, 20, 100, 30, 1.0005, 3.0}), 1.0, 1.0);
}

// Negative controls: (a) with gamma in place of gamma - 1, (b) with r(C_i) in place of 2 r(C_i).
TEST(PropositionPairs_Negative, GammaInsteadOfGammaMinusOneIsCaught) {
  EXPECT_TRUE(expect_caught("Proposition (a) with factor gamma", [] {
    const Instance inst = *gen_instance({2, 20, 100, 30, 1.0005, 3.0});
    const auto& st = inst.stats;
    const double g = st.gamma;
    check_pairs(inst, g / (g - 1.0), 1.0);
  }));
}

TEST(PropositionPairs_Negative, RadiusInsteadOfDiameterIsCaught) {
  EXPECT_TRUE(expect_caught("Proposition (b) with r(C_i)", [] {
    check_pairs(*gen_instance({1, 20, 100, 30, 1.0005, 3.0}), 1.0, 0.5);
  }));
}

}  // namespace ssac::props
