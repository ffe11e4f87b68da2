// Private to lib/src/trace/: which rule of the paper a trace most likely broke where it parts from
// the reference's run, for the divergence message of `ssac validate` (replay.cpp).
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "ssac/ssac.hpp"

namespace ssac::trace {

using json = nlohmann::ordered_json;

// A hint "; ..." naming the rule, or "" when none fits. `tr` is the trace, `index` the trace's
// event at the reference's position (it may be past the end), `ref` the reference's event there,
// `key` the first differing field ("" when the events differ in kind or the query differs), `R`
// the reference's finished run and `P` its parameters.
std::string rule_hint(const std::vector<json>& tr, std::size_t index, const json& ref,
                      const std::string& key, const Result& R, const Params& P);

}  // namespace ssac::trace
