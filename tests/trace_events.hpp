// A trace's text as its events (one JSON object per line) and back, and the replay of edited
// events on the squares fixture: what the validation tests edit and check.
#pragma once

#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "ssac/trace.hpp"
#include "trace_fixture.hpp"

namespace ssac::fixtures {

// The run the validation tests trace on squares(): k = 3, eta = 3, beta = 3, the given search.
inline Params square_params(Search s) {
  Params P;
  P.k = 3;
  P.eta = 3;
  P.beta = 3;
  P.search = s;
  return P;
}

inline std::vector<nlohmann::ordered_json> events_of(const std::string& text) {
  std::istringstream in(text);
  std::vector<nlohmann::ordered_json> ev;
  for (std::string line; std::getline(in, line);)
    ev.push_back(nlohmann::ordered_json::parse(line));
  return ev;
}

inline std::string text_of(const std::vector<nlohmann::ordered_json>& ev) {
  std::string text;
  for (const auto& e : ev)
    text += e.dump() + "\n";
  return text;
}

// validate_trace of the events on squares(), the trace named "t.jsonl".
inline ValidationReport check_on_squares(const std::vector<nlohmann::ordered_json>& ev) {
  return validate_trace(squares(), text_of(ev), "t.jsonl");
}

}  // namespace ssac::fixtures
