// Algorithm facts (Algorithm 1, Algorithms 2-4, Lemma close_center): with a perfect oracle, every
// iteration whose mu'_p orders S_i as "C_p first" (Lemma 5's conclusion) returns the exact radius:
// j* = |C_p cap S_i|, r'_i = min_{y in S_i \ C_p} d(y, mu'_p), and C'_p = C_p cap S_i.
// Note: proofs-notes/algorithm-facts.md.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <limits>

#include "support.hpp"

namespace ssac::props {
namespace {

void check_exact_radius(Fault fault) {
  const Instance inst = *gen_instance({1, 20, 10, 40, 1.0005, 3.0});
  const auto search = *rc::gen::elementOf(
      std::vector<Search>{Search::random, Search::distance, Search::unified, Search::plain});
  const double eta = *rc::gen::inRange(1, 60);
  const auto seed = *rc::gen::arbitrary<std::uint64_t>();
  PerfectOracle oracle(inst.labels);
  Params P;
  P.k = inst.k();
  P.eta = eta;
  P.beta = 3;
  P.search = search;
  const Result R = run_ssac_with_fault(inst.X, oracle, P, seed, fault);
  // Rebuild S_i: C'_p = {x in S_i : d(x, mu'_p) < r'_i} leaves after each iteration.
  std::vector<char> removed(inst.labels.size(), 0);
  std::size_t good = 0;
  for (const auto& it : R.iterations) {
    if (it.p == 0 || it.outcome == Outcome::search_failed) continue;
    // True cluster of Z_p (a perfect oracle: Z_p lies in one oracle cluster).
    int tp = 0;
    for (std::size_t s = 0; s < it.sample.size(); ++s)
      if (it.assignment[s] == it.p) tp = inst.labels[it.sample[s]];
    double max_in = 0, min_out = std::numeric_limits<double>::infinity();
    std::size_t in_count = 0;
    for (std::size_t x = 0; x < inst.labels.size(); ++x) {
      if (removed[x]) continue;
      const double d = distance(inst.X, x, it.center);
      if (inst.labels[x] == tp) {
        max_in = std::max(max_in, d);
        ++in_count;
      } else {
        min_out = std::min(min_out, d);
      }
    }
    if (max_in < min_out) {
      ++good;
      RC_ASSERT(it.j_star == in_count);
      RC_ASSERT(it.radius == min_out);
      RC_ASSERT(it.assigned == in_count);
    }
    for (std::size_t x = 0; x < inst.labels.size(); ++x)
      if (!removed[x] && distance(inst.X, x, it.center) < it.radius) removed[x] = 1;
  }
  RC_CLASSIFY(good == R.iterations.size(), "every iteration had a good center");
  RC_CLASSIFY(good == 0, "no good center");
  RC_TAG(to_string(search));
}

}  // namespace

RC_GTEST_PROP(AlgorithmFacts, PerfectOracleGoodCenterGivesExactRadius, ()) {
  check_exact_radius(Fault::none);
}

TEST(AlgorithmFacts_Negative, OffByOneSearchIsCaught) {
  EXPECT_TRUE(expect_caught("binary search returning j* + 1",
                            [] { check_exact_radius(Fault::off_by_one_search); }));
}

}  // namespace ssac::props
