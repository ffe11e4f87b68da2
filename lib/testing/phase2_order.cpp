#include "ssac/testing/phase2_order.hpp"

#include "algorithm/run.hpp"

namespace ssac::testing {

const char* to_string(Phase2Order o) {
  return o == Phase2Order::sort ? "sort" : "select";
}

Result run_ssac_ordered(const Matrix& X, Oracle& oracle, Chooser& chooser, const Params& params,
                        Phase2Order order, RunObserver* observer) {
  RunObserver none;
  detail::Run run(X, oracle, chooser, params, observer ? *observer : none);
  run.set_order_method(order == Phase2Order::sort ? detail::OrderMethod::sort
                                                  : detail::OrderMethod::select);
  return run.run();
}

Result run_ssac_ordered(const Matrix& X, Oracle& oracle, const Params& params, std::uint64_t seed,
                        Phase2Order order, RunObserver* observer) {
  UniformChooser chooser(Rng::stream(seed, {kStreamAlgorithm}));
  return run_ssac_ordered(X, oracle, chooser, params, order, observer);
}

}  // namespace ssac::testing
