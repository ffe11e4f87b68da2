// A trace's text as its events (one JSON object per line) and back, and the replay of edited
// events on the squares fixture: what the validation tests edit and check.
#pragma once

#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "ssac/rules.hpp"
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

// The events of a version-3 trace as version 1 wrote them (docs/trace-format.md, "Version 1"):
// cluster.x1 was "anchor", a step's x1_answer or z_answer was "anchor_answer", the purposes
// search_x1 and search_z were "search_anchor", and the oracle was the text OracleSpec::describe()
// writes (`oracle_text`, or none). A run of the paper's rules of then (self-pairs=off, S4) named no
// rules in version 1, so its "semantics" and "rules" are left out.
inline std::vector<nlohmann::ordered_json> as_version_1(
    const std::vector<nlohmann::ordered_json>& ev, const std::string& oracle_text) {
  const std::string former = describe(former_paper_profile());
  std::vector<nlohmann::ordered_json> out;
  for (const auto& e : ev) {
    nlohmann::ordered_json v;
    for (const auto& [key, value] : e.items()) {
      std::string name = key;
      nlohmann::ordered_json x = value;
      if (e["event"] == "header" && (key == "semantics" || key == "rules") &&
          e.value("rules", "") == former)
        continue;
      if (e["event"] == "header" && key == "version") x = 1;
      if (e["event"] == "header" && key == "oracle") {
        if (oracle_text.empty()) continue;
        x = oracle_text;
      }
      if (e["event"] == "cluster" && key == "x1") name = "anchor";
      if (e["event"] == "step" && (key == "x1_answer" || key == "z_answer")) name = "anchor_answer";
      if (e["event"] == "query" && key == "purpose" && (x == "search_x1" || x == "search_z"))
        x = "search_anchor";
      v[name] = x;
    }
    out.push_back(v);
  }
  return out;
}

// validate_trace of the events on squares(), the trace named "t.jsonl".
inline ValidationReport check_on_squares(const std::vector<nlohmann::ordered_json>& ev) {
  return validate_trace(squares(), text_of(ev), "t.jsonl");
}

}  // namespace ssac::fixtures
