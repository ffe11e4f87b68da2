// Appendix, Lemma "distance_ran": with s >= eta_random (theory::eta_random) draws from C_p, each
// assignment-known independently with probability q_assign >= q^{k-1}, the mean over the
// assignment-known draws misses mu_p by more than eps r(C_p), eps = (gamma-1)/2, with probability
// at most delta/(2k). Monte Carlo of exactly the lemma's model. Note:
// proofs-notes/lemma-distance-ran.md.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cmath>
#include <sstream>

#include "ssac/rng.hpp"
#include "ssac/theory/bounds.hpp"
#include "support.hpp"

namespace ssac::props {
namespace {

struct RanCase {
  Instance inst;
  int p;
  double q, delta;
  std::uint64_t seed;
};
rc::Gen<RanCase> gen_ran_case() {
  return rc::gen::exec([] {
    RanCase c;
    c.inst = *gen_instance({2, 6, 10, 30, 1.3, 3.0});
    c.p = *rc::gen::inRange(1, c.inst.k() + 1);
    c.q = *rc::gen::inRange(60, 101) / 100.0;
    c.delta = *rc::gen::elementOf(std::vector<double>{0.05, 0.2, 0.5});
    c.seed = *rc::gen::arbitrary<std::uint64_t>();
    return c;
  });
}

// `from_all`: the broken variant draws from every cluster and averages all draws (a mean over all
// sampled points instead of Z_p).
void check_lemma(const RanCase& c, bool from_all) {
  const auto& st = c.inst.stats;
  const auto pi = static_cast<std::size_t>(c.p - 1);
  const int k = c.inst.k();
  const auto m = c.inst.X.cols();
  const double gamma = std::isinf(st.gamma) ? 3.0 : st.gamma;
  const double eta = theory::eta_random<double>(k, m, c.delta, gamma, c.q);
  const auto s = static_cast<std::uint64_t>(std::ceil(eta));
  const double qa = theory::assign_success_lower<double>(k, c.q);
  const double eps = (gamma - 1) / 2;
  std::vector<std::size_t> pool;
  for (std::size_t x = 0; x < c.inst.labels.size(); ++x)
    if (from_all || c.inst.labels[x] == c.p) pool.push_back(x);
  RC_PRE(st.radii[pi] > 0.0);
  Rng rng(c.seed);
  // 20000 trials whatever s m costs: with no miss the Clopper-Pearson upper bound is about 1e-3
  // at alpha = 1e-6 / cases (per_case_alpha(): 1e-6 false alarms per property), below the
  // smallest claim delta / (2k) = 0.05 / 12 ~ 4.2e-3 the generator produces.
  const std::uint64_t trials = 20000;
  std::uint64_t misses = 0;
  Vector sum(m);
  for (std::uint64_t t = 0; t < trials; ++t) {
    sum.setZero();
    std::uint64_t kept = 0;
    for (std::uint64_t i = 0; i < s; ++i) {
      const std::size_t x = pool[rng.uniform_index(pool.size())];
      if (!rng.bernoulli(qa)) continue;
      sum += c.inst.X.row(static_cast<Eigen::Index>(x)).transpose();
      ++kept;
    }
    if (kept == 0 || (sum / static_cast<double>(kept) - st.means[pi]).norm() > eps * st.radii[pi])
      ++misses;
  }
  std::ostringstream os;
  os << describe(c.inst) << " p=" << c.p << " q=" << c.q << " delta=" << c.delta << " s=" << s
     << " seed=" << c.seed;
  RC_CLASSIFY(misses > 0, "misses observed");
  RC_CLASSIFY(qa < 0.5, "q_assign < 1/2");
  RC_TAG(c.inst.shape);
  RC_ASSERT(rate_at_most("lemma_distance_ran", os.str(), misses, trials, c.delta / (2.0 * k),
                         "delta/(2k)"));
}

}  // namespace

RC_GTEST_PROP(LemmaDistanceRan, MeanWithinEpsRadius, ()) {
  check_lemma(*gen_ran_case(), false);
}

TEST(LemmaDistanceRan_Negative, MeanOverAllSamplesIsCaught) {
  EXPECT_TRUE(
      expect_caught("mean over all sampled points", [] { check_lemma(*gen_ran_case(), true); }));
}

}  // namespace ssac::props
