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
  // rows[i]: the anchor of the oracle's cluster i + 1; labels: the oracle's clustering (1-based),
  // which tells the run, for a cluster it has opened, whose seed is its anchor.
  std::vector<std::size_t> rows;
  std::vector<int> labels;
  // false (Theorem 2'): clusters are discovered as Algorithm 1 discovers them (S3: a draw every
  // known anchor answers no opens one) and only the anchor is the seed instead of the opener.
  // true (Theorem 3', seeds-opened-first): before iteration 1 cluster i + 1 is opened at rows[i],
  // so all k are known from the start and each anchor is its seed. The statement proved in Coq
  // lets a cluster enter the discovery order at its first placed draw instead; the two place every
  // draw alike and differ only in line 8's ties (proofs-notes/distance-weak-corrected.md).
  bool known_from_start = false;
};

// run_ssac (with the reference's choices for `seed`) with Definition 4's anchors the seeds. The
// anchor rule of `params` is replaced: opener when the clusters are known from the start (the
// seeds are the openers), otherwise random-known-row restricted to the one seed row, so a run
// draws each anchor from a pool of one.
Result run_ssac_with_seeds(const Matrix& X, Oracle& oracle, const Params& params,
                           std::uint64_t seed, const SeededAnchors& seeds,
                           RunObserver* observer = nullptr);

}  // namespace ssac::testing
