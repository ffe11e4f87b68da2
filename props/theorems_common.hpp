// Shared by the three theorem suites: run SSAC `runs` times on one instance with fresh seeds and
// count the runs that do not output the oracle's clustering.
//
// Runs per case: with no failure in 1000 runs the Clopper-Pearson upper bound at alpha = 1e-8 is
// about 0.018, so delta = 0.1 is resolved with a factor of five to spare (the false-alarm rate of
// each theorem's property is 1e-6, split over its cases by per_case_alpha()).
inline constexpr std::uint64_t kTheoremRuns = 1000;
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "ssac/theory/bounds.hpp"
#include "ssac/theory/hypotheses.hpp"
#include "support.hpp"

namespace ssac::props {

inline Dataset as_dataset(const Instance& inst) {
  Dataset data;
  data.points = inst.X;
  data.labels = inst.labels;
  return data;
}

// The names of the hypotheses the report finds violated, in HypothesisId order: what an
// instance's `violates` must equal.
inline std::vector<std::string> violated(const theory::HypothesisReport& r) {
  std::vector<std::string> out;
  for (const theory::Hypothesis& h : r.items)
    if (!h.holds) out.push_back(theory::to_string(h.id));
  return out;
}

inline std::uint64_t count_failures(
    const Instance& inst, const Params& P,
    const std::function<std::unique_ptr<Oracle>(std::uint64_t)>& oracle, std::uint64_t seed,
    std::uint64_t runs, Fault fault = Fault::none) {
  std::uint64_t failures = 0;
  for (std::uint64_t r = 0; r < runs; ++r) {
    auto O = oracle(seed + r);
    const Result R = run_ssac_with_fault(inst.X, *O, P, seed + r, fault);
    failures += !recovered_exactly(R.labels, inst.labels);
  }
  return failures;
}

// Theorems 2 (local, global = false) and 3 (global): on one instance, with eta at theory/'s
// minimum sufficient value for it (instances outside the theorem are discarded) and Algorithm 3,
// the failure rate over `runs` runs must stay at most delta; the margin goes to `property`.
// With `perfect_oracle` the same instance, eta and algorithm are run with a perfect oracle in
// place of the distance-weak one: the positive control, where the claim must hold. `anchor` is the
// anchor rule of Definition 4, which the paper leaves open (ssac/rules.hpp; S3 is the opener).
inline void check_distance_weak(const char* property, bool global, const Instance& inst, double nu,
                                double rho, double delta, std::uint64_t seed, Fault fault,
                                std::uint64_t runs, bool perfect_oracle = false,
                                AnchorRule anchor = AnchorRule::opener) {
  const Dataset data = as_dataset(inst);
  const auto rep = global ? theory::distance_weak_global(data, rho, delta)
                          : theory::distance_weak_local(data, nu, rho, delta);
  RC_PRE(rep.satisfied && rep.eta.has_value());
  // Every hypothesis of the theorem (distinct points, Definition 1 with respect to the means, the
  // margin, nu and x*, K = k), except those a pinned instance is pinned as violating: a generated
  // instance outside the theorem is discarded, not counted.
  RC_PRE(violated(theory::check_distance_weak(data, rep, static_cast<std::size_t>(inst.k()))) ==
         inst.violates);
  const double eta = static_cast<double>(rep.eta->value);
  RC_PRE(eta * inst.k() < 2e5);
  Params P;
  P.k = inst.k();
  P.eta = eta;
  P.beta = 1;
  P.search = Search::distance;
  P.rules.anchor = anchor;
  const auto failures = count_failures(
      inst, P,
      [&](std::uint64_t) -> std::unique_ptr<Oracle> {
        if (perfect_oracle) return std::make_unique<PerfectOracle>(inst.labels);
        return std::make_unique<DistanceWeakOracle>(
            global ? DistanceWeakOracle::global(inst.X, inst.labels, rho)
                   : DistanceWeakOracle::local(inst.X, inst.labels, nu, rho));
      },
      seed, runs, fault);
  std::ostringstream os;
  os << describe(inst) << " nu=" << nu << " rho=" << rho << " delta=" << delta << " eta=" << eta
     << " q_d=" << theory::to_string(rep.q_d, 6) << " anchor=" << to_string(anchor)
     << " seed=" << seed;
  RC_CLASSIFY(rep.q_d < 1, "q_d < 1 (not-sure answers possible)");
  RC_ASSERT(rate_at_most(property, os.str(), failures, runs, delta, "delta"));
}

// The generated case of Theorems 2 and 3: an instance with a point at each cluster's mean (so the
// x* condition can hold), rho in [0.75, 1], nu in [gamma, gamma + 0.5), delta in {0.1, 0.3}.
inline void check_generated_distance_weak(const char* property, bool global, Fault fault,
                                          std::uint64_t runs, bool perfect_oracle = false,
                                          AnchorRule anchor = AnchorRule::opener) {
  const Instance inst = with_center_points(*gen_instance({2, 4, 3, 25, 1.3, 3.0}));
  RC_PRE(inst.stats.gamma > 1.0);
  const double gamma = std::isinf(inst.stats.gamma) ? 3.0 : inst.stats.gamma;
  const double rho = 0.75 + *rc::gen::inRange(0, 251) / 1000.0;
  const double nu = gamma + *rc::gen::inRange(0, 500) / 1000.0;  // drawn for both: same cases
  const double delta = *rc::gen::elementOf(std::vector<double>{0.1, 0.3});
  const auto seed = *rc::gen::arbitrary<std::uint64_t>();
  check_distance_weak(property, global, inst, nu, rho, delta, seed, fault, runs, perfect_oracle,
                      anchor);
}

// A pinned instance of Theorem 2 or 3 run under each anchor rule of Definition 4
// (proofs-notes/anchor-rules.md): the verdict expected per rule, checked with exact
// Clopper-Pearson bounds. `falsified`: the lower bound on the failure rate exceeds delta (the
// statement is false for that rule); `holds`: the upper bound is below delta (no counterexample on
// this instance). The false-alarm budget is 1e-6 per pinned instance, split evenly over its rules:
// whichever way the true rate lies, a verdict is wrong with probability at most its share.
enum class Verdict { falsified, holds };
struct RuleVerdict {
  AnchorRule anchor;
  Verdict verdict;
  // Fault::anchor_by_placements (with random-known-row): the test-only reading of the anchor as a
  // draw from the placed draws Z_t (lib/testing; proofs-notes/anchor-rules.md).
  Fault variant = Fault::none;
};
inline std::string rule_name(const RuleVerdict& rv) {
  return std::string(to_string(rv.anchor)) +
         (rv.variant == Fault::anchor_by_placements ? " weighted by placements" : "");
}
struct PinnedInstance {
  const char* name;
  bool global;
  Instance inst;
  double nu, rho, delta;
  std::uint64_t runs;
  double eta = 0.0;  // 0: theory's minimum sufficient eta for the instance (its own gamma)
  // Algorithm 3 (the theorems'); Search::unified runs Appendix C's Algorithm 4 with `beta`.
  Search search = Search::distance;
  int beta = 1;
};
inline constexpr double kPinnedAlpha = 1e-6;

// The failures of `pin.runs` runs under `anchor`; the instance must meet the theorem's hypotheses.
inline std::uint64_t pinned_failures(const PinnedInstance& pin, AnchorRule anchor,
                                     std::uint64_t seed, Fault variant = Fault::none) {
  const Dataset data = as_dataset(pin.inst);
  const auto rep = pin.global ? theory::distance_weak_global(data, pin.rho, pin.delta)
                              : theory::distance_weak_local(data, pin.nu, pin.rho, pin.delta);
  EXPECT_TRUE(rep.satisfied && rep.eta.has_value()) << pin.name << ": outside the theorem";
  const auto hyp = theory::check_distance_weak(data, rep, static_cast<std::size_t>(pin.inst.k()));
  EXPECT_EQ(violated(hyp), pin.inst.violates) << pin.name << ": " << hyp.failures();
  if (!rep.satisfied || !rep.eta.has_value()) return 0;
  Params P;
  P.k = pin.inst.k();
  P.eta = pin.eta > 0 ? pin.eta : static_cast<double>(rep.eta->value);
  EXPECT_GE(P.eta, static_cast<double>(rep.eta->value)) << pin.name << ": eta below theory's";
  P.beta = pin.beta;
  P.search = pin.search;
  P.rules.anchor = anchor;
  const Instance& inst = pin.inst;
  return count_failures(
      inst, P,
      [&](std::uint64_t) -> std::unique_ptr<Oracle> {
        return std::make_unique<DistanceWeakOracle>(
            pin.global ? DistanceWeakOracle::global(inst.X, inst.labels, pin.rho)
                       : DistanceWeakOracle::local(inst.X, inst.labels, pin.nu, pin.rho));
      },
      seed, pin.runs, variant);
}

inline void check_pinned_per_rule(const PinnedInstance& pin, const std::vector<RuleVerdict>& rules,
                                  std::uint64_t seed = 0) {
  const double alpha = kPinnedAlpha / static_cast<double>(rules.size());
  for (const RuleVerdict& rv : rules) {
    const std::uint64_t f = pinned_failures(pin, rv.anchor, seed, rv.variant);
    const double lo = cp_lower(f, pin.runs, alpha), hi = cp_upper(f, pin.runs, alpha);
    std::ostringstream line;  // its own stream: RapidCheck may leave std::cout's format changed
    line << "[pinned] " << pin.name << " anchor=" << rule_name(rv) << ": " << f << " of "
         << pin.runs << " runs fail, Clopper-Pearson [" << lo << ", " << hi << "] at alpha "
         << alpha << " against delta = " << pin.delta << "\n";
    std::cout << line.str();
    if (rv.verdict == Verdict::falsified)
      EXPECT_GT(lo, pin.delta) << pin.name << " under " << rule_name(rv)
                               << " was pinned as a counterexample";
    else
      EXPECT_LT(hi, pin.delta) << pin.name << " under " << rule_name(rv)
                               << " was pinned as holding";
  }
}

}  // namespace ssac::props
