// Evaluation of a run against the oracle's clustering (Section 5.2).
#pragma once

#include <vector>

#include "ssac/data.hpp"
#include "ssac/ssac.hpp"

namespace ssac {

struct Evaluation {
  // Section 5.2's Accuracy for one run: the share of points whose estimated label, renamed by
  // matching estimated centers to true centers, equals the true label. The matching is greedy
  // in the order clusters were recovered: each recovered cluster takes the nearest true center
  // not yet taken (ties to the smaller true id). Unassigned points (label 0) count as wrong.
  double accuracy_pct = 0.0;
  // The same share under the renaming that maximises it (an assignment problem on the
  // confusion matrix); never below accuracy_pct.
  double optimal_accuracy_pct = 0.0;
  // Per true cluster t (index t-1): the share of C_t labelled t under the greedy renaming.
  std::vector<double> per_cluster_accuracy_pct;
  // Estimated label -> true label, index = estimated label (0 .. the largest label), 0 unmatched;
  // a recovered cluster holding no point has no label and is not in it.
  std::vector<int> greedy_map;
  bool failed = false;  // fewer than k clusters recovered (#Failure)
  int unassigned = 0;   // points with label 0
  // The points accuracy_pct counts: labelled, and renamed by greedy_map to their true label.
  std::size_t correct = 0;
};

Evaluation evaluate(const Matrix& X, const std::vector<int>& truth, const Result& result);
// The same with the true clusters' statistics computed once by the caller (cluster_stats(X,
// truth)), for callers that evaluate many runs on one dataset.
Evaluation evaluate(const ClusterStats& truth_stats, const std::vector<int>& truth,
                    const Result& result);

// Maximum-weight perfect matching on a square matrix (Hungarian algorithm, O(N^3)); returns
// col[row]. Exposed for the differential test against brute force.
std::vector<int> max_weight_assignment(const std::vector<std::vector<double>>& w);

}  // namespace ssac
