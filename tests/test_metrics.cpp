#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

#include "ssac/metrics.hpp"
#include "ssac/rng.hpp"

using namespace ssac;

namespace {
// A Result with the given labels and estimated centers (1-D), recovered in `order`.
Result fake(std::vector<int> labels, std::vector<std::pair<int, double>> centers) {
  Result R;
  R.labels = std::move(labels);
  for (auto [p, c] : centers) {
    R.recovery_order.push_back(p);
    R.centers[p] = Vector::Constant(1, c);
  }
  R.clusters_recovered = static_cast<int>(centers.size());
  return R;
}
}  // namespace

TEST(Evaluate, GreedyMatchingInRecoveryOrderIgnoresLabelNumbering) {
  // True clusters: 1 = {0, 1} (mean 0.5), 2 = {10, 11} (mean 10.5), 3 = {20, 21} (mean 20.5).
  Matrix X(6, 1);
  X << 0, 1, 10, 11, 20, 21;
  const std::vector<int> truth = {1, 1, 2, 2, 3, 3};
  // Estimated labels are a renaming: estimated 1 = true 3, 2 = true 1, 3 = true 2.
  const Result R = fake({2, 2, 3, 3, 1, 1}, {{1, 20.4}, {2, 0.7}, {3, 10.0}});
  const Evaluation ev = evaluate(X, truth, R);
  EXPECT_EQ(ev.accuracy_pct, 100.0);
  EXPECT_EQ(ev.optimal_accuracy_pct, 100.0);
  EXPECT_EQ(ev.greedy_map, (std::vector<int>{0, 3, 1, 2}));
  EXPECT_EQ(ev.per_cluster_accuracy_pct, (std::vector<double>{100, 100, 100}));
}

TEST(Evaluate, GreedyCanBeWorseThanOptimalAndUnassignedPointsCountAsWrong) {
  // Estimated cluster 1 recovered first with its center nearest true 2, so greedy maps 1 -> 2
  // although it holds true cluster 1's points. Estimated 2 then takes the nearest remaining,
  // true 1. Greedy: rows 0, 1 (est 1 -> 2, truth 1) wrong; rows 2, 3 (est 2 -> 1, truth 2) wrong;
  // rows 4, 5 unassigned. 0 of 6 correct. Optimal renaming 1 -> 1, 2 -> 2: 4 of 6 correct.
  Matrix X(6, 1);
  X << 0, 1, 10, 11, 20, 21;
  const std::vector<int> truth = {1, 1, 2, 2, 3, 3};
  const Result R = fake({1, 1, 2, 2, 0, 0}, {{1, 9.0}, {2, 12.0}});
  const Evaluation ev = evaluate(X, truth, R);
  EXPECT_EQ(ev.accuracy_pct, 0.0);
  EXPECT_NEAR(ev.optimal_accuracy_pct, 100.0 * 4 / 6, 1e-12);
  EXPECT_EQ(ev.unassigned, 2);
}

TEST(MaxWeightAssignment, AgreesWithBruteForceOnRandomMatrices) {
  // Differential test of the Hungarian algorithm against enumerating every permutation.
  Rng rng(17);
  for (int trial = 0; trial < 300; ++trial) {
    const int N = 1 + static_cast<int>(rng.uniform_index(6));
    std::vector<std::vector<double>> w(N, std::vector<double>(N));
    for (auto& row : w)
      for (auto& x : row)
        x = static_cast<double>(rng.uniform_index(20));  // many ties
    std::vector<int> perm(N);
    std::iota(perm.begin(), perm.end(), 0);
    double best = -1;
    do {
      double s = 0;
      for (int i = 0; i < N; ++i)
        s += w[i][perm[i]];
      best = std::max(best, s);
    } while (std::next_permutation(perm.begin(), perm.end()));
    const auto col = max_weight_assignment(w);
    std::vector<int> sorted = col;
    std::sort(sorted.begin(), sorted.end());
    for (int i = 0; i < N; ++i)
      ASSERT_EQ(sorted[i], i);  // a permutation
    double got = 0;
    for (int i = 0; i < N; ++i)
      got += w[i][col[i]];
    EXPECT_EQ(got, best);
  }
}

TEST(Evaluate, CountsAgreeWithAPlainCountPointByPoint) {
  // evaluate takes its figures from a table of (estimated, true) label counts; here they are
  // counted point by point as Section 5.2 states them, on random labellings with unassigned
  // points, more estimated labels than true ones and labels never recovered.
  Rng rng(23);
  int unassigned_seen = 0;
  for (int trial = 0; trial < 400; ++trial) {
    const int K = 1 + static_cast<int>(rng.uniform_index(5));
    const int E = static_cast<int>(rng.uniform_index(7));
    const std::size_t n = static_cast<std::size_t>(K) + rng.uniform_index(60);
    Matrix X(static_cast<Eigen::Index>(n), 1);
    std::vector<int> truth(n), labels(n);
    for (std::size_t x = 0; x < n; ++x) {
      truth[x] = 1 + static_cast<int>(x % static_cast<std::size_t>(K));  // every true label used
      labels[x] = static_cast<int>(rng.uniform_index(static_cast<std::uint64_t>(E) + 1));
      X(static_cast<Eigen::Index>(x), 0) = 10.0 * truth[x] + rng.uniform01();
    }
    std::vector<std::pair<int, double>> centers;
    for (int p = 1; p <= E; ++p)
      if (rng.bernoulli(0.7)) centers.emplace_back(p, 10.0 * (1 + rng.uniform_index(K)));
    const Evaluation ev = evaluate(X, truth, fake(labels, centers));
    std::size_t correct = 0;
    int unassigned = 0;
    std::vector<std::size_t> per(static_cast<std::size_t>(K), 0), size(per);
    for (std::size_t x = 0; x < n; ++x) {
      ++size[static_cast<std::size_t>(truth[x] - 1)];
      if (labels[x] == 0) {
        ++unassigned;
      } else if (ev.greedy_map[static_cast<std::size_t>(labels[x])] == truth[x]) {
        ++correct;
        ++per[static_cast<std::size_t>(truth[x] - 1)];
      }
    }
    unassigned_seen += unassigned > 0;
    ASSERT_EQ(ev.correct, correct) << "trial " << trial;
    ASSERT_EQ(ev.unassigned, unassigned) << "trial " << trial;
    ASSERT_EQ(ev.accuracy_pct, 100.0 * static_cast<double>(correct) / static_cast<double>(n));
    for (int t = 0; t < K; ++t)
      ASSERT_EQ(ev.per_cluster_accuracy_pct[static_cast<std::size_t>(t)],
                100.0 * static_cast<double>(per[static_cast<std::size_t>(t)]) /
                    static_cast<double>(size[static_cast<std::size_t>(t)]));
  }
  EXPECT_GT(unassigned_seen, 200);  // the unassigned count was exercised
}
