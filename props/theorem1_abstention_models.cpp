// Theorem 1 under the readings of Definition 5 that the definition leaves open
// (proofs-notes/oracle-independence.md): abstentions drawn afresh at every query (the reference's
// random-weak oracle, and the model the proof computes with), remembered per pair, and correlated
// across pairs (CorrelatedWeakOracle: every pair's not-sure probability is still 0 or 1 - q).
//
// Each model is run with Theorem 1's own eta and beta on a pinned instance. The fresh model is the
// positive control: the same harness must pass there. The other two must fail it, with the exact
// Clopper-Pearson lower bound on the failure rate above delta at the suite's 1e-6 false-alarm rate.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cmath>
#include <sstream>

#include "pinned_instances.hpp"
#include "ssac/oracle_spec.hpp"
#include "ssac/rng.hpp"
#include "ssac/theory/bounds.hpp"
#include "theorems_common.hpp"

namespace ssac::props {
namespace {

constexpr double kQ = 0.7, kDelta = 0.1;
constexpr std::uint64_t kRuns = 4000;

// Algorithm 1 with Algorithm 2 at Theorem 1's eta and beta for (k, m, delta, gamma, q).
Params theorem1_params(const Instance& inst) {
  const int k = inst.k();
  const auto n = static_cast<long long>(inst.X.rows());
  Params P;
  P.k = k;
  P.eta = theory::eta_random<double>(k, inst.X.cols(), kDelta, inst.stats.gamma, kQ);
  P.beta = static_cast<int>(std::ceil(theory::beta_random<double>(k, n, kDelta, kQ)));
  P.search = Search::random;
  return P;
}

std::uint64_t failures_under(const Instance& inst, const OracleSpec& spec) {
  return count_failures(
      inst, theorem1_params(inst),
      [&](std::uint64_t s) {
        return make_oracle(spec, inst.X, inst.labels, Rng::stream(s, {kStreamOracle}));
      },
      /*seed=*/0, kRuns);
}

std::string label(const Instance& inst, const OracleSpec& spec) {
  const Params P = theorem1_params(inst);
  std::ostringstream os;
  os << describe(inst) << " " << spec.describe() << " delta=" << kDelta << " eta=" << P.eta
     << " beta=" << P.beta;
  return os.str();
}

// "Theorem 1 fails here": the lower confidence bound on the failure rate exceeds delta.
bool fails_theorem1(const Instance& inst, const OracleSpec& spec) {
  const std::uint64_t failures = failures_under(inst, spec);
  const double lower = cp_lower(failures, kRuns, per_case_alpha());
  std::cout << "[Theorem 1, " << label(inst, spec) << "] " << failures << " of " << kRuns
            << " runs fail; Clopper-Pearson lower bound " << lower << " vs delta " << kDelta
            << "\n";
  return lower > kDelta;
}

OracleSpec random_weak(OracleMemory memory) {
  OracleSpec s;
  s.kind = OracleKind::random;
  s.q = kQ;
  s.memory = memory;
  return s;
}

}  // namespace

// Positive controls: with abstentions drawn afresh (the proof's model) both pinned instances meet
// the theorem, through the same harness that the other models fail.
TEST(Theorem1AbstentionModels, FreshAbstentionsMeetTheTheoremOnBothInstances) {
  for (const Instance& inst : {two_pairs(), two_segments()}) {
    const OracleSpec spec = random_weak(OracleMemory::fresh);
    const std::uint64_t failures = failures_under(inst, spec);
    std::cout << "[Theorem 1, " << label(inst, spec) << "] " << failures << " of " << kRuns
              << " runs fail\n";
    EXPECT_TRUE(rate_at_most("theorem1_fresh", label(inst, spec), failures, kRuns, kDelta, "delta"))
        << failures << " of " << kRuns;
  }
}

// A remembered pair is asked again for nothing: on two_pairs, B's beta draws from Z_p ask at most
// two distinct pairs per probe, so a probe outside C_p fails with probability (1-q)^2 rather than
// the (1-q)^beta of the proof's union bound.
TEST(Theorem1AbstentionModels, PerPairMemoryBreaksTheTheorem) {
  EXPECT_TRUE(fails_theorem1(two_pairs(), random_weak(OracleMemory::per_pair)));
}

// Correlated abstentions: with probability 1 - q = 0.3 every pair with an end point of a segment is
// not-sure, and Algorithm 2 must probe the cluster's far end, so the search fails whatever beta is.
TEST(Theorem1AbstentionModels, CorrelatedAbstentionsBreakTheTheorem) {
  OracleSpec s;
  s.kind = OracleKind::correlated;
  s.q = kQ;
  s.rho = 0.9;
  EXPECT_TRUE(fails_theorem1(two_segments(), s));
}

}  // namespace ssac::props
