// The two ways Phase 2 can find positions of its order (Algorithm 1, line 10; the library's
// lib/src/algorithm/order.hpp): by selection, the library's default, or by sorting all of S_i, the
// readable reference. Only tests and benchmarks choose; run_ssac always selects. Not installed.
#pragma once

#include "ssac/observer.hpp"
#include "ssac/ssac.hpp"

namespace ssac::testing {

enum class Phase2Order { sort, select };
const char* to_string(Phase2Order o);  // "sort", "select"

// run_ssac with Phase 2's order found by `order`.
Result run_ssac_ordered(const Matrix& X, Oracle& oracle, Chooser& chooser, const Params& params,
                        Phase2Order order, RunObserver* observer = nullptr);
// The same with the reference's own choices for `seed` (see run_ssac).
Result run_ssac_ordered(const Matrix& X, Oracle& oracle, const Params& params, std::uint64_t seed,
                        Phase2Order order, RunObserver* observer = nullptr);

}  // namespace ssac::testing
