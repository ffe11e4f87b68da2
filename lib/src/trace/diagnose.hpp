// Private to lib/src/trace/: which rule of the paper a trace most likely broke where it parts from
// the reference's run, for the divergence message of `ssac validate` (replay.cpp).
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>

#include "ssac/ssac.hpp"

namespace ssac::trace {

using json = nlohmann::ordered_json;

// A hint "; ..." naming the rule, or "" when none fits. `cur` is the trace's event at the
// reference's position (null past its end), `prev` the trace's event before it (null at the
// start), `next_step` the trace's next "step" event at or after `cur` when `cur` is a query (else
// null), `ref` the reference's event there, `key` the first differing field ("" when the events
// differ in kind or the query differs), `R` the reference's finished run and `P` its parameters.
// The replay reads a trace in a streaming pass (docs/trace-format.md, "Reading a trace"), so
// these three events are all it keeps of the trace around a divergence.
std::string rule_hint(const json& prev, const json& cur, const json& next_step, const json& ref,
                      const std::string& key, const Result& R, const Params& P);

}  // namespace ssac::trace
