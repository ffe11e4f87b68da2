// Shared by the suites of the corrected Theorems 2' and 3' and Appendix C'
// (proofs-notes/distance-weak-corrected.md): Algorithm 1 whose Definition-4 anchors are one fixed
// row per cluster of the oracle's clustering, in G_i(c) (ssac::testing::run_ssac_with_seeds), at
// the corrected statements' eta: Theorem 1's McDiarmid eta at q = 1 with gamma' = 1 + 2 eps
// (eta_mcdiarmid, certified; its inversion is coq/BoundsMcDiarmid.v).
#pragma once

#include <cmath>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "ssac/testing/seeded_anchors.hpp"
#include "theorems_common.hpp"

namespace ssac::props {

using testing::run_ssac_with_seeds;
using testing::SeededAnchors;

// Which row of each cluster is its anchor: the corrected statements' (the row nearest the
// cluster's mean, the best x*, which lies in G_i(c) whenever the x* condition holds) or, as a
// negative control, the row farthest from it (outside G_i(c) on every instance with c < 1).
enum class SeedChoice { nearest_mean, farthest };

inline std::vector<std::size_t> seed_rows(const Instance& inst, SeedChoice choice) {
  const auto k = static_cast<std::size_t>(inst.k());
  std::vector<std::size_t> rows(k, inst.labels.size());
  std::vector<double> best(k);
  for (std::size_t x = 0; x < inst.labels.size(); ++x) {
    const auto i = static_cast<std::size_t>(inst.labels[x] - 1);
    const Vector d = inst.X.row(static_cast<Eigen::Index>(x)).transpose() - inst.stats.means[i];
    const double dist = d.norm();
    const bool better = choice == SeedChoice::nearest_mean ? dist < best[i] : dist > best[i];
    if (rows[i] == inst.labels.size() || better) {
      rows[i] = x;
      best[i] = dist;
    }
  }
  return rows;
}

// eta_McD(k, delta, gamma', q = 1) with gamma' = 1 + 2 eps (eps the report's, the largest the
// hypotheses admit): the certified ceiling theory/ computes beside the paper's eta
// (DistanceWeakReport::eta_corrected; `ssac bounds --data` prints it as eta').
inline double corrected_eta(const theory::DistanceWeakReport& rep) {
  return static_cast<double>(rep.eta_corrected->ceil->convert_to<long long>());
}

struct CorrectedRun {
  bool global = false;
  double nu = 1, rho = 1, delta = 0.1;
  Search search = Search::distance;
  int beta = 1;
  // The corrected statement's algorithm (seeds), or the reference's own anchor rule `anchor`
  // (the uncorrected statement, run at the corrected eta: its counterexamples must still fail).
  bool seeded = true;
  SeedChoice choice = SeedChoice::nearest_mean;
  AnchorRule anchor = AnchorRule::random_known_row;
  double eta = 0;  // 0: corrected_eta
};

// The failures (runs not outputting the oracle's clustering) of `runs` runs with seeds seed, seed
// + 1, ...; empty when the instance does not meet the uncorrected theorem's hypotheses (those of
// the corrected one but the anchors, with the paper's gamma <= nu), apart from those it is pinned
// as violating.
inline std::optional<std::uint64_t> corrected_failures(const Instance& inst, const CorrectedRun& c,
                                                       std::uint64_t seed, std::uint64_t runs,
                                                       double* eta_used = nullptr,
                                                       bool* not_sure_possible = nullptr) {
  const Dataset data = as_dataset(inst);
  const auto rep = c.global ? theory::distance_weak_global(data, c.rho, c.delta)
                            : theory::distance_weak_local(data, c.nu, c.rho, c.delta);
  if (!rep.satisfied || !rep.eta.has_value() || !rep.eta_corrected.has_value()) return std::nullopt;
  if (violated(theory::check_distance_weak(data, rep, static_cast<std::size_t>(inst.k()))) !=
      inst.violates)
    return std::nullopt;
  Params P;
  P.k = inst.k();
  P.eta = c.eta > 0 ? c.eta : corrected_eta(rep);
  P.beta = c.beta;
  P.search = c.search;
  P.rules.anchor = c.anchor;
  P.oracle_clusters = inst.k();
  if (eta_used) *eta_used = P.eta;
  if (not_sure_possible) *not_sure_possible = rep.q_d < 1;
  const SeededAnchors seeds{seed_rows(inst, c.choice), inst.labels,
                            /*seeds_asked=*/c.global};
  std::uint64_t failures = 0;
  for (std::uint64_t r = 0; r < runs; ++r) {
    DistanceWeakOracle O = c.global ? DistanceWeakOracle::global(inst.X, inst.labels, c.rho)
                                    : DistanceWeakOracle::local(inst.X, inst.labels, c.nu, c.rho);
    const Result R = c.seeded ? run_ssac_with_seeds(inst.X, O, P, seed + r, seeds)
                              : run_ssac_with_fault(inst.X, O, P, seed + r, Fault::none);
    failures += !recovered_exactly(R.labels, inst.labels);
  }
  return failures;
}

// The corrected statement on one instance: at most delta of the runs fail (Clopper-Pearson at the
// property's per-case alpha).
inline void check_corrected(const char* property, const Instance& inst, const CorrectedRun& c,
                            std::uint64_t seed, std::uint64_t runs) {
  double eta = 0;
  bool not_sure = false;
  const std::optional<std::uint64_t> failures =
      corrected_failures(inst, c, seed, runs, &eta, &not_sure);
  RC_PRE(failures.has_value());
  RC_CLASSIFY(not_sure, "q_d < 1 (not-sure answers possible)");
  const std::uint64_t f = *failures;
  std::ostringstream os;
  os << describe(inst) << " nu=" << c.nu << " rho=" << c.rho << " delta=" << c.delta
     << " eta=" << eta << " beta=" << c.beta << " search=" << to_string(c.search)
     << (c.seeded ? (c.choice == SeedChoice::nearest_mean ? " anchors=seeds in G"
                                                          : " anchors=farthest rows")
                  : std::string(" anchor=") + to_string(c.anchor))
     << " seed=" << seed;
  RC_ASSERT(rate_at_most(property, os.str(), f, runs, c.delta, "delta"));
}

// The generated case: an instance with a point at each mean (the x*), rho in [0.55, 1] and nu in
// [gamma, gamma + 0.9] (so c = min{2 rho - 1, gamma - nu + 1} >= 0.1 and not-sure answers are
// common), delta in {0.1, 0.3}. Algorithm 4 draws beta in [1, 12].
inline void check_generated_corrected(const char* property, bool global, Search search,
                                      SeedChoice choice, std::uint64_t runs) {
  const Instance inst = with_center_points(*gen_instance({2, 4, 3, 25, 1.3, 3.0}));
  RC_PRE(inst.stats.gamma > 1.0 && std::isfinite(inst.stats.gamma));
  CorrectedRun c;
  c.global = global;
  c.rho = 0.55 + *rc::gen::inRange(0, 451) / 1000.0;
  c.nu = inst.stats.gamma + *rc::gen::inRange(0, 901) / 1000.0;
  c.delta = *rc::gen::elementOf(std::vector<double>{0.1, 0.3});
  c.search = search;
  c.beta = search == Search::unified ? *rc::gen::inRange(1, 13) : 1;
  c.choice = choice;
  check_corrected(property, inst, c, *rc::gen::arbitrary<std::uint64_t>(), runs);
}

// A pinned instance under the corrected algorithm or the reference's anchor rule, with its verdict
// decided by exact Clopper-Pearson bounds at alpha (as check_pinned_per_rule decides the
// uncorrected ones): `expect_falsified` asks the lower bound on the failure rate to exceed delta,
// otherwise the upper bound to stay below it.
inline void check_corrected_pinned(const char* name, const Instance& inst, const CorrectedRun& c,
                                   std::uint64_t runs, bool expect_falsified, double alpha,
                                   std::uint64_t seed = 0) {
  double eta = 0;
  const std::optional<std::uint64_t> failures = corrected_failures(inst, c, seed, runs, &eta);
  ASSERT_TRUE(failures.has_value()) << name << ": outside the theorem's hypotheses";
  const double lo = cp_lower(*failures, runs, alpha), hi = cp_upper(*failures, runs, alpha);
  std::ostringstream line;
  line << "[pinned] " << name << " eta=" << eta << ": " << *failures << " of " << runs
       << " runs fail, Clopper-Pearson [" << lo << ", " << hi << "] at alpha " << alpha
       << " against delta = " << c.delta << "\n";
  std::cout << line.str();
  if (expect_falsified)
    EXPECT_GT(lo, c.delta) << name << " was pinned as failing";
  else
    EXPECT_LT(hi, c.delta) << name << " was pinned as holding";
}

}  // namespace ssac::props
