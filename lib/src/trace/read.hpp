// Private to lib/src/trace/: the trace reader (read.cpp), which the replay uses.
#pragma once

#include <cstddef>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "ssac/trace.hpp"
#include "trace/lines.hpp"

namespace ssac::trace {

using json = nlohmann::ordered_json;

// One line of a trace (`at` = "NAME:LINE" in messages; `first` for line 1) checked against the
// format: a JSON object, a known event with its fields of their types, the header first and only
// first, row indices below n (updated to the header's n when the header has one). Throws
// DataError "NAME:LINE: message" when the line breaks the format.
json parse_event(const std::string& line, const std::string& at, bool first, std::size_t& n);

struct Scan {
  json header;             // the header event (line 1)
  std::size_t events = 0;  // events = lines in the trace
  std::size_t n = 0;       // the bound on row indices (the header's n, else the data's)
};

// Reads every line of `lines` once (a trace for data of n_data points in m_data coordinates,
// lines capped by line_cap), checks it with parse_event and hands each event to `each` in order;
// then checks that the trace is not empty and that the final event is last and only last. Memory
// is that of one line at a time. Throws DataError "NAME:LINE: message" at the first line that
// breaks the format.
Scan scan_trace(TraceLines& lines, std::size_t n_data, std::size_t m_data,
                const std::function<void(const json&)>& each);

// The run's parameters from the header event `h` of a trace for the points X. Throws DataError
// "NAME:1: message" when the trace was written for other data (format, version, n, m,
// fingerprint) or its parameters cannot be replayed.
TraceHeader read_header(const json& h, const Matrix& X, const std::string& name);

}  // namespace ssac::trace
