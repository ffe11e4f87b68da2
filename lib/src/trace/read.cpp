// Reading a trace: every line one JSON object whose fields have the types of docs/trace-format.md
// (the hand-written counterpart of schemas/ssac-trace-v1.schema.json; tests/schema_test.py holds
// the two against each other), and the run's parameters from its header.
#include <algorithm>
#include <cstdint>
#include <map>
#include <set>
#include <sstream>
#include <utility>

#include "ssac/error.hpp"
#include "ssac/ranges.hpp"
#include "trace/read.hpp"

namespace ssac::trace {

namespace {

enum class T {
  str,
  uint,
  int_,
  num,
  boolean,
  row,
  rows,
  ints,
  nums,
  ans,
  ans_or_null,
  answers,
  uint_or_null,
  radius
};

struct Field {
  const char* name;
  T type;
  bool required = true;
};

const std::map<std::string, std::vector<Field>>& event_spec() {
  static const std::map<std::string, std::vector<Field>> spec = {
      {"header",
       {{"format", T::str},
        {"version", T::uint},
        {"algorithm", T::str},
        {"search", T::str},
        {"assignment", T::str},
        {"n", T::uint},
        {"m", T::uint},
        {"k", T::uint},
        {"eta", T::num},
        {"beta", T::uint},
        {"r", T::uint},
        {"fingerprint", T::str},
        {"oracle", T::str, false},
        {"seed", T::uint, false},
        {"oracle_clusters", T::uint, false},
        {"semantics", T::str, false},
        {"rules", T::str, false},
        {"oracle_memory", T::str, false}}},
      {"iteration", {{"iteration", T::uint}, {"remaining", T::uint}}},
      {"sample", {{"iteration", T::uint}, {"rows", T::rows}}},
      {"query",
       {{"iteration", T::uint},
        {"phase", T::uint},
        {"purpose", T::str},
        {"x", T::row},
        {"y", T::row},
        {"answer", T::ans}}},
      {"assignment", {{"iteration", T::uint}, {"clusters", T::ints}}},
      {"cluster",
       {{"iteration", T::uint},
        {"p", T::uint},
        {"zp_size", T::uint},
        {"revisited", T::boolean},
        {"center", T::nums},
        {"anchor", T::row}}},
      {"step",
       {{"iteration", T::uint},
        {"step", T::uint},
        {"lo", T::int_},
        {"hi", T::int_},
        {"j", T::uint},
        {"row", T::row},
        {"anchor_answer", T::ans_or_null},
        {"sample", T::rows},
        {"sample_answers", T::answers},
        {"decision", T::str}}},
      {"outcome",
       {{"iteration", T::uint},
        {"outcome", T::str},
        {"j_star", T::uint_or_null},
        {"radius", T::radius},
        {"assigned", T::rows}}},
      {"final",
       {{"labels", T::ints},
        {"status", T::str},
        {"clusters_recovered", T::uint},
        {"failed", T::boolean},
        {"queries_phase1", T::uint},
        {"queries_phase2", T::uint}}},
  };
  return spec;
}

const std::map<std::string, std::set<std::string>>& enum_spec() {
  static const std::map<std::string, std::set<std::string>> spec = {
      {"algorithm", {"weak", "original"}},
      {"search", {"random", "distance", "unified", "plain"}},
      {"assignment", {"paper", "code"}},
      {"semantics", {"paper", "authors-code", "custom"}},  // profile_name (ssac/rules.hpp)
      {"oracle_memory", {"fresh", "per-pair"}},            // to_string(OracleMemory)
      {"purpose", {"assignment", "search_anchor", "search_sample"}},
      {"decision", {"in", "out", "fail"}},
      {"outcome",
       {"recovered", "empty_cluster", "phase1_all_not_sure", "search_failed", "empty_remainder"}},
  };
  return spec;
}

bool is_answer(const json& v) {
  return v.is_string() && (v == "yes" || v == "no" || v == "not-sure");
}

// Why `v` is not of type t (rows must be below n), or "" when it is.
std::string type_error(const json& v, T t, std::size_t n) {
  auto row_ok = [&](const json& x) { return x.is_number_unsigned() && x.get<std::size_t>() < n; };
  const std::string rows = "a row index in [0, " + std::to_string(n) + ")";
  switch (t) {
    case T::str:
      return v.is_string() ? "" : "a string";
    case T::uint:
      return v.is_number_unsigned() ? "" : "a non-negative integer";
    case T::int_:
      return v.is_number_integer() ? "" : "an integer";
    case T::num:
      return v.is_number() ? "" : "a number";
    case T::boolean:
      return v.is_boolean() ? "" : "true or false";
    case T::row:
      return row_ok(v) ? "" : rows;
    case T::rows:
      if (!v.is_array()) return "an array of row indices";
      for (const json& x : v)
        if (!row_ok(x)) return "an array of row indices in [0, " + std::to_string(n) + ")";
      return "";
    case T::ints:
      if (!v.is_array()) return "an array of non-negative integers";
      for (const json& x : v)
        if (!x.is_number_unsigned()) return "an array of non-negative integers";
      return "";
    case T::nums:
      if (!v.is_array()) return "an array of numbers";
      for (const json& x : v)
        if (!x.is_number()) return "an array of numbers";
      return "";
    case T::ans:
      return is_answer(v) ? "" : "\"yes\", \"no\" or \"not-sure\"";
    case T::ans_or_null:
      return v.is_null() || is_answer(v) ? "" : "null, \"yes\", \"no\" or \"not-sure\"";
    case T::answers:
      if (!v.is_array()) return "an array of answers";
      for (const json& x : v)
        if (!is_answer(x)) return "an array of \"yes\", \"no\" or \"not-sure\"";
      return "";
    case T::uint_or_null:
      return v.is_null() || v.is_number_unsigned() ? "" : "null or a non-negative integer";
    case T::radius:
      return v.is_null() || v.is_number() || v == "inf" ? "" : "a number, \"inf\" or null";
  }
  return "";
}

// Strips nlohmann's "[json.exception.parse_error.101] parse error at line 1, column 5: " prefix.
std::string short_parse_message(const std::string& what) {
  std::string s = what;
  if (!s.empty() && s.front() == '[' && s.find("] ") != std::string::npos)
    s = s.substr(s.find("] ") + 2);  // drop nlohmann's "[json.exception.…]" tag
  const auto colon = s.find(": ", s.find("column"));
  if (colon != std::string::npos) s = s.substr(colon + 2);
  return s;
}

}  // namespace

json parse_event(const std::string& line, const std::string& at, bool first, std::size_t& n) {
  if (line.empty()) throw DataError(at + ": empty line (one JSON object per line)");
  json j;
  try {
    j = json::parse(line);
  } catch (const json::parse_error& e) {
    throw DataError(at + ":" + std::to_string(e.byte) +
                    ": not JSON: " + short_parse_message(e.what()));
  } catch (const json::exception& e) {
    // Found by fuzz/fuzz_trace: a number too large for a double ("2e3799") is reported by
    // nlohmann as out_of_range, not as a parse error.
    throw DataError(at + ": not usable JSON: " + short_parse_message(e.what()));
  }
  if (!j.is_object() || !j.contains("event") || !j["event"].is_string())
    throw DataError(at + ": not an event (a JSON object with a string field \"event\")");
  const std::string kind = j["event"].get<std::string>();
  const auto spec = event_spec().find(kind);
  if (spec == event_spec().end()) throw DataError(at + ": unknown event \"" + kind + "\"");
  if (first != (kind == "header"))
    throw DataError(at + (first ? ": the first event must be the header" : ": a second header"));
  if (kind == "header") {
    // Rows are checked against the trace's own n; a different n is reported later by name.
    if (j.contains("n") && j["n"].is_number_unsigned()) n = j["n"].get<std::size_t>();
  }
  std::set<std::string> known = {"event"};
  for (const Field& f : spec->second) {
    known.insert(f.name);
    if (!j.contains(f.name)) {
      if (f.required)
        throw DataError(at + ": \"" + kind + "\" event: missing field \"" + f.name + "\"");
      continue;
    }
    const std::string want = type_error(j[f.name], f.type, n);
    if (!want.empty())
      throw DataError(at + ": \"" + kind + "\" event: field \"" + f.name + "\" must be " + want);
    const auto en = enum_spec().find(f.name);
    if (en != enum_spec().end() && j[f.name].is_string() &&
        !en->second.count(j[f.name].get<std::string>()))
      throw DataError(at + ": \"" + kind + "\" event: \"" + f.name + "\" = " + j[f.name].dump() +
                      " is not one of the format's values");
  }
  for (const auto& [key, value] : j.items())
    if (!known.count(key))
      throw DataError(at + ": \"" + kind + "\" event: unknown field \"" + key + "\"");
  if (kind == "query" && j["phase"] != 1 && j["phase"] != 2)
    throw DataError(at + ": \"query\" event: field \"phase\" must be 1 or 2");
  return j;
}

Scan scan_trace(TraceLines& lines, std::size_t n_data, std::size_t m_data,
                const std::function<void(const json&)>& each) {
  Scan scan;
  std::size_t n = n_data;
  std::size_t first_final = 0;  // line of the first "final" event, 0 before one
  bool last_final = false;
  lines.set_cap(line_cap(n_data, m_data, 0));
  for (std::string line; lines.next(line);) {
    const std::size_t line_no = lines.line_no();
    const std::string at = lines.name() + ":" + std::to_string(line_no);
    json j = parse_event(line, at, line_no == 1, n);
    if (line_no == 1) {
      // A Phase-1 sample lists up to r rows; r above what a run may draw is refused later.
      const std::uint64_t r = j["r"].is_number_unsigned() ? j["r"].get<std::uint64_t>() : 0;
      lines.set_cap(line_cap(n_data, m_data, std::min(r, range::kMaxSampleSize)));
    }
    last_final = j["event"] == "final";
    if (last_final && first_final == 0) first_final = line_no;
    each(j);
    if (line_no == 1) scan.header = std::move(j);
    scan.events = line_no;
  }
  const std::string& name = lines.name();
  if (scan.events == 0) throw DataError(name + ": empty trace (no header)");
  if (!last_final)
    throw DataError(name + ":" + std::to_string(scan.events) +
                    ": the trace does not end with a \"final\" event (truncated?)");
  if (first_final != scan.events)
    throw DataError(name + ":" + std::to_string(first_final) + ": \"final\" event before the end");
  scan.n = n;
  return scan;
}

TraceHeader read_header(const json& h, const Matrix& X, const std::string& name) {
  const std::size_t n = static_cast<std::size_t>(X.rows());
  const std::string at1 = name + ":1: ";
  if (h["format"] != kTraceFormat)
    throw DataError(at1 + "format " + h["format"].dump() + " is not \"" + kTraceFormat + "\"");
  if (h["version"] != kTraceVersion)
    throw DataError(at1 + "format version " + h["version"].dump() +
                    " is not supported (this program reads version " +
                    std::to_string(kTraceVersion) + ")");
  if (h["n"] != n || h["m"] != static_cast<std::size_t>(X.cols()))
    throw DataError(at1 + "the trace is for n = " + h["n"].dump() + ", m = " + h["m"].dump() +
                    " but the data has n = " + std::to_string(n) +
                    ", m = " + std::to_string(X.cols()));
  const std::string fp = points_fingerprint(X);
  if (h["fingerprint"] != fp)
    throw DataError(at1 + "fingerprint " + h["fingerprint"].get<std::string>() +
                    " does not match the data's " + fp + " (the trace is for other points)");
  TraceHeader H;
  H.algorithm = h["algorithm"].get<std::string>();
  const std::string search = h["search"].get<std::string>();
  H.params.search = search == "random"     ? Search::random
                    : search == "distance" ? Search::distance
                    : search == "unified"  ? Search::unified
                                           : Search::plain;
  if ((H.algorithm == "original") != (H.params.search == Search::plain))
    throw DataError(at1 + "algorithm \"" + H.algorithm + "\" does not go with search \"" + search +
                    "\" (the original SSAC uses the plain search, and only it)");
  H.params.elimination = h["assignment"] == "paper";
  if (h.contains("oracle_clusters")) {
    if (h["oracle_clusters"].get<std::uint64_t>() > n)
      throw DataError(at1 + "oracle_clusters = " + h["oracle_clusters"].dump() +
                      " is outside [1, n]");
    H.params.oracle_clusters = h["oracle_clusters"].get<int>();
  }
  if (h.contains("rules")) {
    Profile profile{{}, H.params.elimination};
    try {
      std::istringstream words(h["rules"].get<std::string>());
      for (std::string w; words >> w;)
        set_rule_given_rows(profile, w);
    } catch (const ParameterError& e) {
      throw DataError(at1 + e.what());
    }
    if (profile.elimination != H.params.elimination)
      throw DataError(at1 + "\"rules\" says elimination=" + (profile.elimination ? "on" : "off") +
                      " but \"assignment\" is " + h["assignment"].dump());
    if (draws_anchors(profile.rules.anchor))
      throw DataError(at1 + "anchor=" + to_string(profile.rules.anchor) +
                      " draws anchors the trace does not record; such a run cannot be replayed");
    H.params.rules = profile.rules;
  }
  if (h["k"].get<std::uint64_t>() > n)
    throw DataError(at1 + "k = " + h["k"].dump() + " is outside [1, n]");
  H.params.k = h["k"].get<int>();
  H.params.eta = h["eta"].get<double>();
  if (h["beta"].get<std::uint64_t>() > static_cast<std::uint64_t>(range::kMaxBeta))
    throw DataError(at1 + "beta = " + h["beta"].dump() + " is outside [1, " +
                    std::to_string(range::kMaxBeta) + "]");
  H.params.beta = h["beta"].get<int>();
  try {
    H.params.check(n);
  } catch (const ParameterError& e) {
    throw DataError(at1 + e.what());
  }
  if (h.contains("oracle")) H.oracle = h["oracle"].get<std::string>();
  if (h.contains("seed")) H.seed = h["seed"].get<std::uint64_t>();
  if (h.contains("oracle_memory") && h["oracle_memory"] == "per-pair")
    H.memory = OracleMemory::per_pair;
  return H;
}

}  // namespace ssac::trace
