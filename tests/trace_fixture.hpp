// The data the trace and validation tests share: three 2x2 squares of unit side, 10 apart, and
// their labels; small enough to read a trace of it by eye. And a trace writer that keeps the text.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "ssac/data.hpp"
#include "ssac/error.hpp"
#include "ssac/trace.hpp"

namespace ssac::fixtures {

inline Matrix squares() {
  Matrix X(12, 2);
  X << 0, 0, 1, 0, 0, 1, 1, 1, 10, 0, 11, 0, 10, 1, 11, 1, 0, 10, 1, 10, 0, 11, 1, 11;
  return X;
}
inline const std::vector<int> kSquareLabels = {1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3};

// Pass `writer.get()` to a run; `text` then holds its trace, one event per line.
struct TraceText {
  TraceText(const Matrix& X, const TraceHeader& h)
      : writer(trace_writer(X, h, [this](const std::string& line) { text += line + "\n"; })) {}
  TraceText(const TraceText&) = delete;
  TraceText& operator=(const TraceText&) = delete;
  std::string text;
  std::unique_ptr<RunObserver> writer;
};

// The one error line `validate_trace` gives a trace of squares() named t.jsonl, or "" when it
// reads (whether or not it conforms).
inline std::string error_of(const std::string& text) {
  try {
    validate_trace(squares(), text, "t.jsonl");
  } catch (const DataError& e) {
    return e.what();
  }
  return "";
}

}  // namespace ssac::fixtures
