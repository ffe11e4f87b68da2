// Writing a trace: an observer of the run that writes each event the moment the run reports it.
#include <utility>

#include "trace/events.hpp"

namespace ssac {

namespace {

class TraceWriter : public trace::EventBuilder {
 public:
  TraceWriter(const Matrix& X, const TraceHeader& header, TraceLine line)
      : EventBuilder(header.params.search), line_(std::move(line)) {
    line_(trace::header_event(X, header).dump());
  }

 private:
  void emit(trace::json event, const trace::Where&) override { line_(event.dump()); }

  TraceLine line_;
};

}  // namespace

std::unique_ptr<RunObserver> trace_writer(const Matrix& X, const TraceHeader& header,
                                          TraceLine line) {
  return std::make_unique<TraceWriter>(X, header, std::move(line));
}

}  // namespace ssac
