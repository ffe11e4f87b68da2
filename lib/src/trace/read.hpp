// Private to lib/src/trace/: the trace reader (read.cpp), which the replay uses.
#pragma once

#include <cstddef>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "ssac/trace.hpp"
#include "trace/lines.hpp"

namespace ssac::trace {

using json = nlohmann::ordered_json;

// What the check of a line needs from the lines before it, all taken from the header.
struct Reading {
  std::size_t n = 0;            // the bound on row indices (the header's n, else the data's)
  int version = kTraceVersion;  // the header's format version: 1 has its own field names
  bool plain = false;           // the header's search is the plain one (a step has z_answer)
};

// One line of a trace (`at` = "NAME:LINE" in messages; `first` for line 1) checked against the
// format: a JSON object, a known event with its fields of their types, the header first and only
// first, row indices below r.n. The header sets r (n when it has one, its version and search). A
// version-1 event is returned with version 2's field names (docs/trace-format.md, "Version 1").
// Throws DataError "NAME:LINE: message" when the line breaks the format.
json parse_event(const std::string& line, const std::string& at, bool first, Reading& r);

// The header's `oracle` object (version 2), checked by parse_event, as an OracleSpec (fresh memory:
// the header's oracle_memory says otherwise).
OracleSpec oracle_spec_of(const json& oracle);

struct Scan {
  json header;             // the header event (line 1)
  std::size_t events = 0;  // events = lines in the trace
  Reading reading;         // as the header set it
};

// Reads every line of `lines` once (a trace for data of n_data points in m_data coordinates,
// lines capped by line_cap), checks it with parse_event and hands each event to `each` in order;
// then checks that the trace is not empty and that the final event is last and only last. Memory
// is that of one line at a time. Throws DataError "NAME:LINE: message" at the first line that
// breaks the format.
Scan scan_trace(TraceLines& lines, std::size_t n_data, std::size_t m_data,
                const std::function<void(const json&)>& each);

// The run's parameters from the header event `h` of a trace for the points X whose labels have
// `label_clusters` clusters (0: no labels). Throws DataError "NAME:1: message" when the trace was
// written for other data (format, version, n, m, fingerprint, an oracle_clusters other than the
// labels') or its parameters cannot be replayed. The rules are the header's "rules" (which must be
// exactly describe()'s string), else the whole profile its "semantics" names, else `given` (ssac
// validate --semantics/--rule), else the paper's; a header that names rules other than `given`'s
// is refused with a ParameterError.
TraceHeader read_header(const json& h, const Matrix& X, const std::string& name,
                        int label_clusters = 0, const std::optional<Profile>& given = {});

}  // namespace ssac::trace
