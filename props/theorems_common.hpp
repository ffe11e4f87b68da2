// Shared by the three theorem suites: run SSAC `runs` times on one instance with fresh seeds and
// count the runs that do not output the oracle's clustering.
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
