// The hypotheses of the paper's Theorems 1-3, checked on a labelled dataset: each with its verdict
// and, when it fails, the offending rows or value. One place for every caller: the pinned and
// generated instances of props/ and `ssac bounds --data`. proofs-notes/hypotheses.md states what
// each check reads the paper as.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "ssac/data.hpp"
#include "ssac/theory/bounds.hpp"
#include "ssac/theory/decimal.hpp"

namespace ssac::theory {

// Which hypothesis: the paper's statement it comes from is in `Hypothesis::statement`.
enum class HypothesisId {
  distinct,      // X is a set (Definition 1: "X subset of R^m with |X| = n"): no repeated point
  center_based,  // Definition 1 with the clusters' means as centers (Section 2.1)
  margin,        // Definition 2 at the gamma the theorem is applied with, gamma > 1
  oracle,        // Theorem 2: gamma <= nu <= gamma + 1; Definitions 6/7: nu >= 1, rho in (0, 1]
  x_star,        // Theorems 2/3: an x* in every cluster with d(x*, mu_i) < (c - 2 eps) r(C_i)
  k_equals_K,    // Algorithm 1's k is the oracle's number of clusters
};
const char* to_string(HypothesisId id);  // "distinct", "center_based", ...

struct Hypothesis {
  HypothesisId id;
  std::string statement;  // the paper's statement, e.g. "Definition 1"
  bool holds = false;
  std::string detail;  // the figure that decides it; when it fails, the offending rows or value
  std::vector<std::size_t> rows;  // offending data rows, 1-based (at most kMaxOffendingRows)
  std::size_t offending = 0;      // how many rows (or pairs) offend in all
};
inline constexpr std::size_t kMaxOffendingRows = 5;

struct HypothesisReport {
  std::vector<Hypothesis> items;  // in HypothesisId order, the ones the theorem has
  bool all_hold() const;
  // The item, or nullptr when the theorem has no such hypothesis.
  const Hypothesis* find(HypothesisId id) const;
  // "distinct: ...; center_based: ..." for the items that fail; empty when all hold.
  std::string failures() const;
};

// Distinct points, Definition 1 with respect to the means, Definition 2 and K = k: the hypotheses
// every theorem shares. `k` is Algorithm 1's number of clusters (0: the data's K, so K = k holds by
// construction and is still listed). `gamma`, when given, is the margin the theorem is applied
// with (Theorem 1's bounds): it must satisfy 1 < gamma <= the data's supremum margin (Definition 2
// holds for every gamma' below the supremum; the bounds at the supremum are their limits,
// proofs-notes/bounds.md). Without it the data's own margin must exceed 1. The data must carry
// labels (ParameterError otherwise).
HypothesisReport check_clustering(const Dataset& data, std::size_t k = 0,
                                  std::optional<Decimal> gamma = std::nullopt);

// The clustering's hypotheses with Theorem 2's or 3's conditions on the oracle and on x*, taken
// from `dw` (theory::distance_weak_local / distance_weak_global on the same data), so that the
// verdict and the eta that `ssac bounds --data` prints come from one computation.
HypothesisReport check_distance_weak(const Dataset& data, const DistanceWeakReport& dw,
                                     std::size_t k = 0);

// Theorem 1 (random-weak oracle): check_clustering with the theorem's gamma.
inline HypothesisReport check_theorem1(const Dataset& data, std::size_t k,
                                       std::optional<Decimal> gamma = std::nullopt) {
  return check_clustering(data, k, gamma);
}
// Theorems 2 and 3: computes the DistanceWeakReport (nu >= 1, rho in (0, 1], delta in (0, 1) are
// checked there) and checks it with the clustering.
HypothesisReport check_theorem2(const Dataset& data, std::size_t k, const Decimal& nu,
                                const Decimal& rho, const Decimal& delta);
HypothesisReport check_theorem3(const Dataset& data, std::size_t k, const Decimal& rho,
                                const Decimal& delta);

}  // namespace ssac::theory
