// The algorithm of the corrected Theorems 2' and 3' and Appendix C' (proofs-notes/
// distance-weak-corrected.md): Algorithm 1 whose cluster-assignment queries (Definition 4) ask, for
// each known cluster, a fixed row given in advance, one per cluster of the oracle's clustering (a
// labelled representative, chosen in G_i(c) by the caller). Not part of SSAC, which has no way to
// be told such rows: only tests and props/ link the ssac_testing library.
#pragma once

#include <cstdint>
#include <vector>

#include "ssac/observer.hpp"
#include "ssac/oracle.hpp"
#include "ssac/ssac.hpp"

namespace ssac::testing {

struct SeededAnchors {
  // rows[i]: the seed of the oracle's cluster i + 1; labels: the oracle's clustering (1-based),
  // which tells the run, for a cluster it has opened, whose seed is its anchor.
  std::vector<std::size_t> rows;
  std::vector<int> labels;
  // false (Theorem 2'): clusters are discovered as Algorithm 1 discovers them (S3: a draw every
  // known anchor answers no opens one) and only the anchor is the seed instead of the opener.
  // true (Theorem 3', as proved in Coq): a draw Definition 4 leaves unplaced is also asked about
  // the seeds of the clusters not yet known, in cluster order, and opens the cluster of the first
  // that answers yes; so a cluster enters the discovery order at its first placed draw.
  bool seeds_asked = false;
};

// run_ssac (with the reference's choices for `seed`) with Definition 4's anchors the seeds. The
// anchor rule of `params` is replaced by random-known-row restricted to the one seed row, so each
// anchor is drawn from a pool of one.
Result run_ssac_with_seeds(const Matrix& X, Oracle& oracle, const Params& params,
                           std::uint64_t seed, const SeededAnchors& seeds,
                           RunObserver* observer = nullptr);

}  // namespace ssac::testing
