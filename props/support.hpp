// Shared pieces of the property suites (props/): instance generators that stress the paper's
// statements, exact Clopper-Pearson checks of Monte Carlo rates, and the margins table.
#pragma once

#include <rapidcheck.h>

#include <cstdint>
#include <iostream>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "ssac/data.hpp"
#include "ssac/testing/negative_controls.hpp"

namespace ssac::props {

// The negative controls (lib/testing/): a broken step run through the same property.
using ssac::testing::Fault;
using ssac::testing::run_ssac_with_fault;

// A clustering with the gamma-margin property (Definition 2). `stats` holds the true means, radii
// and the supremum gamma of the data; a property that needs the strict property at some gamma uses
// a value below stats.gamma.
struct Instance {
  Matrix X;
  std::vector<int> labels;  // 1..k
  ClusterStats stats;
  std::string shape;  // "blob", "ring", "line" or "mixed"
  int k() const { return static_cast<int>(stats.sizes.size()); }
};

struct InstanceSpec {
  int k_min = 1, k_max = 20;
  int m_max = 100;
  int size_max = 60;         // points per cluster, at most
  double gamma_lo = 1.0005;  // target margin window (exclusive of 1)
  double gamma_hi = 3.0;
};

// Clusters of log-uniform sizes (1..size_max) and radii (three decades), shaped as blobs, rings or
// segments of one line, laid out along a line and pulled together until the measured gamma sits
// at a target drawn from (gamma_lo, gamma_hi]: points lie on or next to the margin.
rc::Gen<Instance> gen_instance(InstanceSpec spec);
std::string describe(const Instance& inst);
void showValue(const Instance& inst, std::ostream& os);  // RapidCheck prints counterexamples

// Exact one-sided Clopper-Pearson bounds on a binomial p from `events` out of `trials`, each
// holding with probability at least 1 - alpha (Boost.Math).
double cp_lower(std::uint64_t events, std::uint64_t trials, double alpha);
double cp_upper(std::uint64_t events, std::uint64_t trials, double alpha);

// False-alarm rate of one Monte Carlo comparison: 1e-6 per property, split over the property's
// RapidCheck cases (union bound), so a correct statement fails a property with probability at most
// 1e-6 whatever the seed.
double per_case_alpha();

// SSAC_THOROUGH=1 multiplies the RapidCheck case counts (props/main.cpp) and the Monte Carlo trial
// counts that use this factor.
bool thorough();

// One row of the margins table per property: the case with the smallest relative slack between
// the claimed probability and the observed rate (and its Clopper-Pearson bound). Written by
// props/main.cpp to $SSAC_PROPS_MARGINS_DIR/<property>.md when the process ends.
struct MarginRow {
  std::string property, claim, instance;
  std::uint64_t trials = 0, events = 0;
  double observed = 0.0, bound = 0.0, claimed = 0.0;
  double slack = 0.0;  // how far the statement is from failing, as a ratio (>= 1 passes)
  std::uint64_t cases = 0;
};
void record_margin(MarginRow row);  // ignored while a NegativeControl is alive

// While alive, properties run a deliberately broken variant: margins are not recorded, and
// expect_caught() runs the property through rc::check and reports whether it failed.
class NegativeControl {
 public:
  NegativeControl();
  ~NegativeControl();
  NegativeControl(const NegativeControl&) = delete;
  NegativeControl& operator=(const NegativeControl&) = delete;
};
bool in_negative_control();

// How a RapidCheck run ended. rc::check folds these into one bool, but a run that gave up because
// too many cases were discarded (RC_PRE) found nothing: it must not count as a counterexample.
enum class CheckOutcome { passed, failed, gave_up, error };
// `max_success` > 0 replaces the suite's case count (RC_PARAMS) for this one run.
template <typename Property>
CheckOutcome run_check(const std::string& what, Property&& property, int max_success = 0) {
  using namespace rc::detail;
  TestMetadata metadata;
  metadata.id = what;
  metadata.description = what;
  TestParams params = configuration().testParams;
  if (max_success > 0) params.maxSuccess = max_success;
  const TestResult result = checkTestable(std::forward<Property>(property), metadata, params);
  printResultMessage(result, std::cout);
  std::cout << "\n";
  if (result.template is<SuccessResult>()) return CheckOutcome::passed;
  if (result.template is<FailureResult>()) return CheckOutcome::failed;
  if (result.template is<GaveUpResult>()) return CheckOutcome::gave_up;
  return CheckOutcome::error;
}

// True iff the property failed on a generated case: a genuine counterexample. Giving up (every
// case discarded) is reported and returns false, so a falsification cannot pass vacuously.
template <typename Property>
bool expect_caught(const std::string& what, Property&& property) {
  NegativeControl guard;
  std::cout << "[negative control] " << what
            << ": the broken variant must be caught; a falsifying case below is expected.\n";
  const CheckOutcome outcome = run_check(what, std::forward<Property>(property));
  if (outcome == CheckOutcome::gave_up)
    std::cout << "[negative control] " << what
              << ": RapidCheck gave up (too many discarded cases); that is not a counterexample\n";
  return outcome == CheckOutcome::failed;
}

// True iff the property held on every generated case (a positive control: the harness of a
// falsified statement passing where the statement must hold). Giving up is not passing.
template <typename Property>
bool expect_holds(const std::string& what, Property&& property, int max_success = 0) {
  std::cout << "[positive control] " << what << ": must hold on every case.\n";
  return run_check(what, std::forward<Property>(property), max_success) == CheckOutcome::passed;
}
void write_margins();

// "the upper bound on an event's probability holds": a one-sided check. Returns true iff the
// Clopper-Pearson lower bound on the event rate is at most `claimed`, records the margin, and
// prints the case on failure.
// `share` scales the per-case alpha: a two-sided check passes 0.5 to each side so that the
// property's false-alarm rate stays at 1e-6.
bool rate_at_most(const std::string& property, const std::string& instance, std::uint64_t events,
                  std::uint64_t trials, double claimed, const std::string& claim,
                  double share = 1.0);
// "the probability is at least claimed": the upper bound on the rate is at least `claimed`.
bool rate_at_least(const std::string& property, const std::string& instance, std::uint64_t events,
                   std::uint64_t trials, double claimed, const std::string& claim,
                   double share = 1.0);

}  // namespace ssac::props

#include "ssac/oracle.hpp"
#include "ssac/ssac.hpp"

namespace ssac::props {

// True iff every point is labelled and the estimated clusters are exactly the oracle's clusters
// up to renaming (the theorems' "outputs the oracle's clustering").
bool recovered_exactly(const std::vector<int>& estimated, const std::vector<int>& truth);

// The instance with one extra point at each cluster's mean: an x* with d(x*, mu_i) ~ 0 for the
// x* condition of Theorems 2 and 3 (the mean itself does not move).
Instance with_center_points(const Instance& inst);

}  // namespace ssac::props
