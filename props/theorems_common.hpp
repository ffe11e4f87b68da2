// Shared by the three theorem suites: run SSAC `runs` times on one instance with fresh seeds and
// count the runs that do not output the oracle's clustering.
//
// Runs per case: with no failure in 1000 runs the Clopper-Pearson upper bound at alpha = 1e-8 is
// about 0.018, so delta = 0.1 is resolved with a factor of five to spare (the false-alarm rate of
// each theorem's property is 1e-6, split over its cases by per_case_alpha()).
inline constexpr std::uint64_t kTheoremRuns = 1000;
#pragma once

#include <functional>
#include <memory>

#include "support.hpp"

namespace ssac::props {

inline std::uint64_t count_failures(
    const Instance& inst, const Params& P,
    const std::function<std::unique_ptr<Oracle>(std::uint64_t)>& oracle, std::uint64_t seed,
    std::uint64_t runs) {
  std::uint64_t failures = 0;
  for (std::uint64_t r = 0; r < runs; ++r) {
    auto O = oracle(seed + r);
    const Result R = run_ssac(inst.X, *O, P, seed + r);
    failures += !recovered_exactly(R.labels, inst.labels);
  }
  return failures;
}

}  // namespace ssac::props
