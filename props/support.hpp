// Shared pieces of the property suites (props/): instance generators that stress the paper's
// statements, exact Clopper-Pearson checks of Monte Carlo rates, and the margins table.
#pragma once

#include <rapidcheck.h>
#include <rapidcheck/GenerationFailure.h>

#include <exception>

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
  // The hypotheses (theory::to_string(HypothesisId) names, ssac/theory/hypotheses.hpp) this
  // instance is pinned as violating, e.g. "distinct" for one with repeated points; empty for every
  // generated instance, which must meet them all (proofs-notes/hypotheses.md).
  std::vector<std::string> violates;
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
// too many cases were discarded (RC_PRE) found nothing, and a case that threw an exception (which
// RapidCheck reports as a failure) says the harness or the library broke, not that the statement
// is false: neither may count as a counterexample.
enum class CheckOutcome { passed, failed, gave_up, error };
const char* to_string(CheckOutcome o);
std::ostream& operator<<(std::ostream& os, CheckOutcome o);

struct CheckReport {
  CheckOutcome outcome = CheckOutcome::error;
  // RapidCheck's count of cases that held (non-discarded, not failing) before the run ended: on a
  // failure, the counterexample was the case after these.
  int num_success = 0;
  // Cases that threw (the first failing case and any shrink candidate); the first one's message.
  int exceptions = 0;
  std::string first_exception;
  explicit operator bool() const { return outcome == CheckOutcome::failed; }
};

// The stream of a falsification whose counterexample is part of its claim: RapidCheck's seed and
// case count, fixed here whatever RC_PARAMS and SSAC_THOROUGH say (RapidCheck's case sizes depend
// on the case count, so both fix the cases), so that the case at which it is found is asserted.
struct Stream {
  std::uint64_t seed = 0;
  int max_success = 0;
};

namespace detail {
// One call of a property, classified: a RapidCheck verdict (RC_ASSERT, RC_PRE, a generator giving
// up) passes through; any other exception is counted and rethrown (RapidCheck then reports the
// case as failed, and run_check turns that into an error).
template <typename Property>
auto guarded(Property& property, int& exceptions, std::string& first) {
  return [&property, &exceptions, &first] {
    try {
      property();
    } catch (const rc::detail::CaseResult&) {
      throw;
    } catch (const rc::GenerationFailure&) {
      throw;
    } catch (const std::exception& e) {
      if (exceptions++ == 0) first = e.what();
      throw;
    } catch (...) {
      if (exceptions++ == 0) first = "an exception not derived from std::exception";
      throw;
    }
  };
}
}  // namespace detail

// `stream.max_success` > 0 replaces the suite's case count (RC_PARAMS) for this one run, and
// `stream.seed` its seed when the case count is replaced.
template <typename Property>
CheckReport run_check(const std::string& what, Property&& property, Stream stream = {}) {
  using namespace rc::detail;
  TestMetadata metadata;
  metadata.id = what;
  metadata.description = what;
  TestParams params = configuration().testParams;
  if (stream.max_success > 0) {
    params.maxSuccess = stream.max_success;
    params.seed = stream.seed;
  }
  CheckReport report;
  const TestResult result = checkTestable(
      detail::guarded(property, report.exceptions, report.first_exception), metadata, params);
  printResultMessage(result, std::cout);
  std::cout << "\n";
  if (result.template is<SuccessResult>()) {
    report.outcome = CheckOutcome::passed;
    report.num_success = result.template get<SuccessResult>().numSuccess;
  } else if (result.template is<FailureResult>()) {
    report.outcome = report.exceptions > 0 ? CheckOutcome::error : CheckOutcome::failed;
    report.num_success = result.template get<FailureResult>().numSuccess;
  } else if (result.template is<GaveUpResult>()) {
    report.outcome = CheckOutcome::gave_up;
    report.num_success = result.template get<GaveUpResult>().numSuccess;
  }
  if (report.outcome == CheckOutcome::gave_up)
    std::cout << "[check] " << what
              << ": RapidCheck gave up (too many discarded cases); that is not a counterexample\n";
  if (report.exceptions > 0)
    std::cout << "[check] " << what << ": " << report.exceptions
              << " case(s) threw, the first with \"" << report.first_exception
              << "\"; an exception is an error, not a counterexample\n";
  return report;
}

// Converts to true iff the property failed on a generated case by its own assertion: a genuine
// counterexample. Giving up (every case discarded) and an exception are reported and convert to
// false, so a falsification cannot pass vacuously. A falsification that claims a counterexample
// also asserts the report's num_success on its pinned `stream`.
template <typename Property>
CheckReport expect_caught(const std::string& what, Property&& property, Stream stream = {}) {
  NegativeControl guard;
  std::cout << "[negative control] " << what
            << ": the broken variant must be caught; a falsifying case below is expected.\n";
  return run_check(what, std::forward<Property>(property), stream);
}

// True iff the property held on every generated case (a positive control: the harness of a
// falsified statement passing where the statement must hold). Giving up, or an exception, is not
// passing. `stream`, when given, fixes the cases (the falsification's own, for instance).
template <typename Property>
bool expect_holds(const std::string& what, Property&& property, Stream stream = {}) {
  std::cout << "[positive control] " << what << ": must hold on every case.\n";
  return run_check(what, std::forward<Property>(property), stream).outcome == CheckOutcome::passed;
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
