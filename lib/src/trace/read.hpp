// Private to lib/src/trace/: the trace reader (read.cpp), which the replay uses.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "ssac/trace.hpp"

namespace ssac::trace {

using json = nlohmann::ordered_json;

// The events of the trace `text` (named `name` in messages), each checked against the format:
// one JSON object per line, known events with their fields of their types, the header first and
// the final event last; row indices below the header's n (or n_data when it has none). Throws
// DataError "NAME:LINE: message" at the first line that breaks the format.
std::vector<json> parse_trace(const std::string& text, const std::string& name, std::size_t n_data);

// The run's parameters from the header event `h` of a trace for the points X. Throws DataError
// "NAME:1: message" when the trace was written for other data (format, version, n, m,
// fingerprint) or its parameters cannot be replayed.
TraceHeader read_header(const json& h, const Matrix& X, const std::string& name);

}  // namespace ssac::trace
