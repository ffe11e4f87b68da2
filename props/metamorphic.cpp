// Metamorphic relations of Algorithm 1 (with any of Algorithms 2-4 and any oracle):
// (1) scaling the data by a power of two changes no rounding (every operation on the coordinates
//     scales exactly, and sqrt(4^j s) = 2^j sqrt(s) exactly), so the labels are identical bit for
//     bit for the same seed -- on any data;
// (2) translation, rotation and arbitrary uniform scaling change the rounding of mu'_p and of the
//     distances, so labels are identical only where no decision sits within rounding of a tie:
//     we claim it, with a perfect oracle, for runs in which every iteration's mu'_p separates
//     C_p cap S_i from the rest of S_i by a relative gap of at least 1e-9 (Lemma close_center);
// (3) renaming the oracle's clusters leaves the output unchanged (the algorithm numbers clusters
//     by discovery and the oracle's answers depend only on label equality).
// Note: proofs-notes/algorithm-facts.md.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <Eigen/QR>
#include <cmath>
#include <limits>
#include <numeric>

#include "support.hpp"

namespace ssac::props {
namespace {

struct RunSpec {
  Search search;
  double q;  // 1 = perfect oracle
  double eta;
  std::uint64_t seed;
};

rc::Gen<RunSpec> gen_run(bool perfect) {
  return rc::gen::exec([perfect] {
    RunSpec r;
    r.search = *rc::gen::elementOf(
        std::vector<Search>{Search::random, Search::distance, Search::unified, Search::plain});
    r.q = perfect ? 1.0 : *rc::gen::inRange(50, 101) / 100.0;
    r.eta = *rc::gen::inRange(1, 40);
    r.seed = *rc::gen::arbitrary<std::uint64_t>();
    return r;
  });
}

Result run(const Matrix& X, const std::vector<int>& labels, int k, const RunSpec& r) {
  Params P;
  P.k = k;
  P.eta = r.eta;
  P.beta = 3;
  P.search = r.search;
  if (r.q >= 1.0) {
    PerfectOracle O(labels);
    return run_ssac(X, O, P, r.seed);
  }
  RandomWeakOracle O(labels, r.q, Rng::stream(r.seed, {kStreamOracle}));
  return run_ssac(X, O, P, r.seed);
}

// Every iteration's center separates the true cluster of Z_p from the rest of S_i with margin.
bool robust(const Instance& inst, const Result& R) {
  std::vector<char> removed(inst.labels.size(), 0);
  for (const auto& it : R.iterations) {
    if (it.p == 0) continue;
    int tp = 0;
    for (std::size_t s = 0; s < it.sample.size(); ++s)
      if (it.assignment[s] == it.p) tp = inst.labels[it.sample[s]];
    double max_in = 0, min_out = std::numeric_limits<double>::infinity();
    for (std::size_t x = 0; x < inst.labels.size(); ++x) {
      if (removed[x]) continue;
      const double d = distance(inst.X, x, it.center);
      (inst.labels[x] == tp ? max_in : min_out) =
          inst.labels[x] == tp ? std::max(max_in, d) : std::min(min_out, d);
    }
    if (!(max_in < min_out * (1 - 1e-9))) return false;
    for (std::size_t x = 0; x < inst.labels.size(); ++x)
      if (!removed[x] && distance(inst.X, x, it.center) < it.radius) removed[x] = 1;
  }
  return true;
}

enum class Transform { power_of_two, similarity, anisotropic };

void check_transform(Transform tr) {
  const Instance inst = *gen_instance({1, 8, 10, 30, 1.05, 3.0});
  const auto r = *gen_run(tr == Transform::power_of_two ? false : true);
  const auto m = inst.X.cols();
  Matrix Y = inst.X;
  if (tr == Transform::power_of_two) {
    const int j = *rc::gen::inRange(-20, 21);
    Y = inst.X * std::ldexp(1.0, j);
  } else {
    Rng rng(*rc::gen::arbitrary<std::uint64_t>());
    Eigen::MatrixXd G(m, m);
    for (Eigen::Index a = 0; a < m; ++a)
      for (Eigen::Index b = 0; b < m; ++b)
        G(a, b) = rng.gaussian();
    const Eigen::MatrixXd Qm = Eigen::HouseholderQR<Eigen::MatrixXd>(G).householderQ();
    Vector shift(m);
    for (Eigen::Index a = 0; a < m; ++a)
      shift(a) = 100.0 * rng.gaussian();
    double scale = 0.1 + 10.0 * rng.uniform01();
    Eigen::MatrixXd A = scale * Qm;
    if (tr == Transform::anisotropic) A.col(0) *= 3.0;  // broken: not a similarity
    Y = (inst.X * A.transpose()).rowwise() + shift.transpose();
  }
  const Result R1 = run(inst.X, inst.labels, inst.k(), r);
  const Result R2 = run(Y, inst.labels, inst.k(), r);
  if (tr == Transform::power_of_two) {
    RC_ASSERT(R1.labels == R2.labels);
    RC_ASSERT(R1.queries.size() == R2.queries.size());
    return;
  }
  RC_TAG(to_string(r.search));
  const bool rob = robust(inst, R1);
  RC_CLASSIFY(rob, "every center separates with margin");
  RC_PRE(rob || tr == Transform::anisotropic);
  RC_ASSERT(R1.labels == R2.labels);
}

}  // namespace

RC_GTEST_PROP(Metamorphic, PowerOfTwoScalingIsBitExact, ()) {
  check_transform(Transform::power_of_two);
}

RC_GTEST_PROP(Metamorphic, SimilarityKeepsLabelsWhenCentersSeparate, ()) {
  check_transform(Transform::similarity);
}

RC_GTEST_PROP(Metamorphic, RenamingTheOraclesClustersKeepsTheOutput, ()) {
  const Instance inst = *gen_instance({1, 20, 10, 30, 1.0005, 3.0});
  const auto r = *gen_run(false);
  std::vector<int> perm(static_cast<std::size_t>(inst.k()));
  std::iota(perm.begin(), perm.end(), 1);
  perm = *rc::gen::just(perm);
  Rng rng(r.seed ^ 0x9e3779b97f4a7c15ULL);
  for (std::size_t i = perm.size(); i > 1; --i)
    std::swap(perm[i - 1], perm[rng.uniform_index(i)]);
  std::vector<int> renamed(inst.labels.size());
  for (std::size_t x = 0; x < renamed.size(); ++x)
    renamed[x] = perm[static_cast<std::size_t>(inst.labels[x] - 1)];
  RC_ASSERT(run(inst.X, inst.labels, inst.k(), r).labels ==
            run(inst.X, renamed, inst.k(), r).labels);
}

// Negative controls: an anisotropic scaling (not a similarity) changes labels; "renaming" with a
// map that merges two clusters changes the output.
TEST(Metamorphic_Negative, AnisotropicScalingIsCaught) {
  EXPECT_TRUE(
      expect_caught("anisotropic scaling", [] { check_transform(Transform::anisotropic); }));
}

TEST(Metamorphic_Negative, MergingRenameIsCaught) {
  EXPECT_TRUE(expect_caught("renaming that merges clusters 1 and 2", [] {
    const Instance inst = *gen_instance({2, 20, 10, 30, 1.0005, 3.0});
    const auto r = *gen_run(false);
    std::vector<int> renamed = inst.labels;
    for (auto& l : renamed)
      if (l == 2) l = 1;
    RC_ASSERT(run(inst.X, inst.labels, inst.k(), r).labels ==
              run(inst.X, renamed, inst.k(), r).labels);
  }));
}

}  // namespace ssac::props
