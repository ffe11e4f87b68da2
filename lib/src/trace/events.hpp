// Private to lib/src/trace/: a trace's events as JSON objects, built as the run reports them. The
// writer (write.cpp) and the replay (replay.cpp) are the two observers built on EventBuilder.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>

#include "ssac/observer.hpp"
#include "ssac/trace.hpp"

namespace ssac::trace {

using json = nlohmann::ordered_json;

// Where an event sits in the run, for divergence messages.
struct Where {
  int iteration = 0, phase = 0;
  std::size_t step = 0;  // 1-based step of the binary search, 0 outside one
};

// The header event (line 1): the run's parameters and the data's fingerprint.
json header_event(const Matrix& X, const TraceHeader& h);
// The header's `oracle` object: {"kind": ..., and the parameters the kind uses}.
json oracle_event_field(const OracleSpec& o);

// Turns every report of a run into its trace event (docs/trace-format.md, "Events") and hands the
// events to emit() in the order of the reports, which is the order of the trace: each iteration's
// `iteration`, `sample`, Phase-1 `anchor` (version 4) and `query` events, `assignment`, `cluster`,
// per binary-search step its `query` events then its `step`, `outcome`; `final` at the end. The
// header is not among them (header_event).
class EventBuilder : public RunObserver {
 public:
  // The search decides the name of a step's own answer (x1_answer, or z_answer in the plain
  // search).
  explicit EventBuilder(Search search) : search_(search) {}
  void iteration_started(const Iteration& it) override;
  void sample_drawn(const Iteration& it) override;
  void anchor_drawn(const AnchorDraw& d) override;
  void queried(const QueryRecord& q) override;
  void assigned(const Iteration& it) override;
  void cluster_chosen(const Iteration& it) override;
  void step_taken(const Iteration& it, const SearchStep& step) override;
  void iteration_ended(const Iteration& it) override;
  void finished(const Result& R) override;

 protected:
  virtual void emit(json event, const Where& where) = 0;

 private:
  Search search_;
  std::size_t steps_ = 0;  // steps of the current iteration's binary search reported so far
};

}  // namespace ssac::trace
