#include "ssac/metrics.hpp"

#include <algorithm>
#include <limits>

namespace ssac {

namespace {

// The working storage of the assignment and of evaluate(), kept per thread: the experiment scores
// every fit, and these tables were otherwise allocated about twenty times a score.
struct Workspace {
  std::vector<double> u, v, minv, weights;
  std::vector<int> p, way, col;
  std::vector<char> used, taken;
  std::vector<std::size_t> tables, correct_per;
};

// max_weight_assignment on the N x N weights w[i * N + j]; col[row] is left in ws.col.
void assign_max_weight(const double* w, int N, Workspace& ws) {
  // Shortest augmenting paths with potentials on cost = -weight (Kuhn-Munkres), 1-based inside.
  const double inf = std::numeric_limits<double>::infinity();
  const auto size = static_cast<std::size_t>(N) + 1;
  std::vector<double>&u = ws.u, &v = ws.v, &minv = ws.minv;
  std::vector<int>&p = ws.p, &way = ws.way;
  std::vector<char>& used = ws.used;
  u.assign(size, 0.0);
  v.assign(size, 0.0);
  p.assign(size, 0);
  way.assign(size, 0);
  for (int i = 1; i <= N; ++i) {
    p[0] = i;
    int j0 = 0;
    minv.assign(size, inf);
    used.assign(size, 0);
    do {
      used[j0] = 1;
      const int i0 = p[j0];
      double delta = inf;
      int j1 = 0;
      for (int j = 1; j <= N; ++j) {
        if (used[j]) continue;
        const double cur = -w[(i0 - 1) * N + (j - 1)] - u[i0] - v[j];
        if (cur < minv[j]) {
          minv[j] = cur;
          way[j] = j0;
        }
        if (minv[j] < delta) {
          delta = minv[j];
          j1 = j;
        }
      }
      for (int j = 0; j <= N; ++j) {
        if (used[j]) {
          u[p[j]] += delta;
          v[j] -= delta;
        } else {
          minv[j] -= delta;
        }
      }
      j0 = j1;
    } while (p[j0] != 0);
    do {
      const int j1 = way[j0];
      p[j0] = p[j1];
      j0 = j1;
    } while (j0);
  }
  ws.col.assign(static_cast<std::size_t>(N), 0);
  for (int j = 1; j <= N; ++j)
    if (p[j]) ws.col[p[j] - 1] = j - 1;
}

Workspace& thread_workspace() {
  thread_local Workspace ws;
  return ws;
}

}  // namespace

std::vector<int> max_weight_assignment(const std::vector<std::vector<double>>& w) {
  Workspace ws;
  const int N = static_cast<int>(w.size());
  for (const auto& row : w)
    ws.weights.insert(ws.weights.end(), row.begin(), row.end());
  assign_max_weight(ws.weights.data(), N, ws);
  return ws.col;
}

Evaluation evaluate(const Matrix& X, const std::vector<int>& truth, const Result& result) {
  return evaluate(cluster_stats(X, truth), truth, result);
}

Evaluation evaluate(const ClusterStats& st, const std::vector<int>& truth, const Result& result) {
  Evaluation ev;
  Workspace& ws = thread_workspace();
  const int K = static_cast<int>(st.means.size());
  int E = 0;
  for (int l : result.labels)
    E = std::max(E, l);
  ev.greedy_map.assign(static_cast<std::size_t>(E) + 1, 0);
  std::vector<char>& taken = ws.taken;
  taken.assign(static_cast<std::size_t>(K) + 1, 0);
  for (int p : result.recovery_order) {
    const Vector& c = result.centers.at(p);
    int best = 0;
    double best_d = std::numeric_limits<double>::infinity();
    for (int t = 1; t <= K; ++t) {
      if (taken[static_cast<std::size_t>(t)]) continue;
      const double d = distance(st.means[static_cast<std::size_t>(t - 1)].data(), c.data(),
                                static_cast<std::size_t>(c.size()));
      if (d < best_d) {
        best_d = d;
        best = t;
      }
    }
    if (best) {
      taken[static_cast<std::size_t>(best)] = 1;
      // A recovered cluster that holds no point (its C'_p empty) still takes its true cluster in
      // the greedy matching, but has no label to rename: its number can exceed every label.
      if (p <= E) ev.greedy_map[static_cast<std::size_t>(p)] = best;
    }
  }
  const std::size_t n = truth.size();
  const int N = std::max(E, K);
  // The counts of (estimated label l, true label t), l = 0 (unassigned) .. E, t = 1 .. N, in
  // integers, four tables taken in turn: consecutive points often fall in the same cell, and one
  // table would make each count wait for the last one's store. Every other figure follows from
  // the counts, whose sums do not depend on the order they are taken in.
  constexpr std::size_t kTables = 4;
  const auto W = static_cast<std::size_t>(N) + 1;
  const std::size_t cells = (static_cast<std::size_t>(E) + 1) * W;
  std::vector<std::size_t>& tables = ws.tables;
  tables.assign(kTables * cells, 0);
  const int* const label = result.labels.data();
  const int* const true_label = truth.data();
  const auto cell = [&](std::size_t x) {
    return static_cast<std::size_t>(label[x]) * W + static_cast<std::size_t>(true_label[x]);
  };
  std::size_t x = 0;
  for (; x + kTables <= n; x += kTables)  // point x in table x % kTables
    for (std::size_t i = 0; i < kTables; ++i)
      ++tables[i * cells + cell(x + i)];
  for (; x < n; ++x)
    ++tables[(x % kTables) * cells + cell(x)];
  for (std::size_t i = 1; i < kTables; ++i)
    for (std::size_t c = 0; c < cells; ++c)
      tables[c] += tables[i * cells + c];
  const auto count = [&](int l, int t) {
    return tables[static_cast<std::size_t>(l) * W + static_cast<std::size_t>(t)];
  };
  for (int t = 1; t <= N; ++t)
    ev.unassigned += static_cast<int>(count(0, t));
  std::vector<std::size_t>& correct_per = ws.correct_per;
  correct_per.assign(static_cast<std::size_t>(K), 0);
  // The confusion matrix, row l - 1 for estimated label l, column t - 1 for true label t.
  std::vector<double>& confusion = ws.weights;
  const auto NN = static_cast<std::size_t>(N);
  confusion.assign(NN * NN, 0.0);
  for (int l = 1; l <= E; ++l) {
    for (int t = 1; t <= N; ++t)
      confusion[static_cast<std::size_t>(l - 1) * NN + static_cast<std::size_t>(t - 1)] =
          static_cast<double>(count(l, t));
    const int g = ev.greedy_map[static_cast<std::size_t>(l)];
    if (g > 0) {  // the points labelled l whose true label is the one l is renamed to
      ev.correct += count(l, g);
      correct_per[static_cast<std::size_t>(g - 1)] += count(l, g);
    }
  }
  const std::size_t correct = ev.correct;
  ev.accuracy_pct = 100.0 * static_cast<double>(correct) / static_cast<double>(n);
  double best = 0;
  if (N > 0) {
    assign_max_weight(confusion.data(), N, ws);
    for (std::size_t e = 0; e < NN; ++e)
      best += confusion[e * NN + static_cast<std::size_t>(ws.col[e])];
  }
  ev.optimal_accuracy_pct = 100.0 * best / static_cast<double>(n);
  ev.per_cluster_accuracy_pct.reserve(static_cast<std::size_t>(K));
  for (int t = 0; t < K; ++t)
    ev.per_cluster_accuracy_pct.push_back(
        100.0 * static_cast<double>(correct_per[static_cast<std::size_t>(t)]) /
        static_cast<double>(st.sizes[static_cast<std::size_t>(t)]));
  ev.failed = result.failed;
  return ev;
}

}  // namespace ssac
