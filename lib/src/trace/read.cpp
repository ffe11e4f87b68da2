// Reading a trace: every line one JSON object whose fields have the types of docs/trace-format.md
// (the hand-written counterpart of schemas/ssac-trace-v4.schema.json, of -v3, -v2 and -v1 for
// traces of versions 3, 2 and 1; tests/schema_test.py holds them against each other), and the run's
// parameters from its header. A version-1 trace is checked against version 1's fields, then its
// events are renamed to version 2's, so that the replay meets one vocabulary. (About 480 lines:
// both versions' field tables, the type checks of one line and the header's reading share this
// file's Field, T and Reading types; the tables are most of it.)
#include <algorithm>
#include <cctype>
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
  radius,
  oracle
};

// A step's own answer is named by the search (x1_answer, or z_answer in the plain search).
enum class Only { any, weak, plain };

struct Field {
  const char* name;
  T type;
  bool required = true;
  Only only = Only::any;
};

using Spec = std::map<std::string, std::vector<Field>>;

// Version 3, the version written, and version 2, which has the same fields (a header without
// "rules" means another rule set: read_header).
const Spec& event_spec_v2() {
  static const Spec spec = {
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
        {"oracle", T::oracle, false},
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
        {"x1", T::row}}},
      {"step",
       {{"iteration", T::uint},
        {"step", T::uint},
        {"lo", T::int_},
        {"hi", T::int_},
        {"j", T::uint},
        {"row", T::row},
        {"x1_answer", T::ans_or_null, true, Only::weak},
        {"z_answer", T::ans_or_null, true, Only::plain},
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

// Version 4: version 3's events and the `anchor` event, one per anchor drawn under a random anchor
// rule (Definition 4; ssac/rules.hpp, draws_anchors).
const Spec& event_spec_v4() {
  static const Spec spec = [] {
    Spec v4 = event_spec_v2();
    v4["anchor"] = {{"iteration", T::uint},
                    {"x", T::row},
                    {"cluster", T::uint},
                    {"candidates", T::rows},
                    {"row", T::row}};
    return v4;
  }();
  return spec;
}

// Version 1: the step's own answer was `anchor_answer` in every search, x_1 was `cluster.anchor`,
// and the oracle was free text.
const Spec& event_spec_v1() {
  static const Spec spec = [] {
    Spec v1 = event_spec_v2();
    for (Field& f : v1["header"])
      if (std::string(f.name) == "oracle") f.type = T::str;
    for (Field& f : v1["cluster"])
      if (std::string(f.name) == "x1") f.name = "anchor";
    auto& step = v1["step"];
    std::erase_if(step, [](const Field& f) { return std::string(f.name) == "z_answer"; });
    for (Field& f : step)
      if (std::string(f.name) == "x1_answer") f = {"anchor_answer", T::ans_or_null};
    return v1;
  }();
  return spec;
}

using Enums = std::map<std::string, std::set<std::string>>;

const Enums& enum_spec_v2() {
  static const Enums spec = {
      {"algorithm", {"weak", "original"}},
      {"search", {"random", "distance", "unified", "plain"}},
      {"assignment", {"paper", "code"}},
      {"semantics", {"paper", "authors-code", "custom"}},  // profile_name (ssac/rules.hpp)
      {"oracle_memory", {"fresh", "per-pair"}},            // to_string(OracleMemory)
      {"purpose", {"assignment", "search_x1", "search_z", "search_sample"}},
      {"decision", {"in", "out", "fail"}},
      {"outcome",
       {"recovered", "empty_cluster", "phase1_all_not_sure", "search_failed", "empty_remainder"}},
  };
  return spec;
}

const Enums& enum_spec_v1() {
  static const Enums spec = [] {
    Enums v1 = enum_spec_v2();
    v1["purpose"] = {"assignment", "search_anchor", "search_sample"};
    return v1;
  }();
  return spec;
}

// Why the header's `oracle` object (version 2) is malformed, as the end of a message that begins
// `field "oracle"`, or "" when it is not: a string "kind" naming an oracle, and exactly the
// parameters that kind uses (OracleSpec::uses_q and the like), each a number in its range.
std::string oracle_error(const json& v) {
  if (!v.is_object() || !v.contains("kind") || !v["kind"].is_string())
    return " must be an object with a string \"kind\" and the parameters of that kind";
  const auto kind = oracle_kind_from_string(v["kind"].get<std::string>());
  if (!kind)
    return ": \"kind\" = " + v["kind"].dump() +
           " is not one of perfect, random, local, global, correlated, interactive";
  OracleSpec o;
  o.kind = *kind;
  const std::string of_kind = "an oracle of kind " + std::string(to_string(o.kind));
  const std::pair<const char*, bool> params[] = {
      {"q", o.uses_q()}, {"nu", o.uses_nu()}, {"rho", o.uses_rho()}};
  for (const auto& item : v.items()) {
    // A named key rather than a structured binding: C++17 lambdas cannot capture bindings.
    const std::string& key = item.key();
    const auto& value = item.value();
    if (key == "kind") continue;
    const auto p = std::find_if(std::begin(params), std::end(params),
                                [&](const auto& x) { return key == x.first; });
    if (p == std::end(params) || !p->second)
      return ": \"" + key + "\" is not a parameter of " + of_kind;
    if (!value.is_number()) return ": \"" + key + "\" = " + value.dump() + " is not a number";
  }
  for (const auto& [key, used] : params)
    if (used && !v.contains(key))
      return ": \"" + std::string(key) + "\" is missing (" + of_kind + " has it)";
  try {
    oracle_spec_of(v).check();
  } catch (const ParameterError& e) {
    return std::string(": ") + e.what();
  }
  return "";
}

bool is_answer(const json& v) {
  return v.is_string() && (v == "yes" || v == "no" || v == "not-sure");
}

// Why `v` is not of type t (rows must be below n), or "" when it is.
std::string type_error(const json& v, T t, std::size_t n) {
  auto row_ok = [&](const json& x) { return x.is_number_unsigned() && x.get<std::size_t>() < n; };
  // Row n, one past the last, is the mark of rows numbered from 1, as Julia, R and MATLAB number
  // them; said so, since the replay cannot guess it. A row written as a float (3.0) is named too.
  auto rows_error = [&](const json& x, const std::string& what) {
    std::string s = what + " in [0, " + std::to_string(n) + ")";
    if (x.is_number_unsigned() && x.get<std::size_t>() == n)
      s += " (found " + std::to_string(n) +
           ": rows are numbered from 0, so a program that numbers them from 1 writes each row "
           "minus 1)";
    else if (x.is_number_float())
      s += " (found " + x.dump() + ": a row is an integer, written without a decimal point)";
    return s;
  };
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
      return row_ok(v) ? "" : rows_error(v, "a row index");
    case T::rows:
      if (!v.is_array()) return "an array of row indices";
      for (const json& x : v)
        if (!row_ok(x)) return rows_error(x, "an array of row indices");
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
    case T::oracle:
      break;  // oracle_error, which words its own message
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

// A version-1 event with version 2's names (docs/trace-format.md, "Version 1"): cluster.anchor is
// x1; a step's anchor_answer is x1_answer, or z_answer in the plain search; the purpose
// search_anchor is search_x1, or search_z in the plain search. Values are unchanged.
void rename_v1(json& j, bool plain) {
  const std::string kind = j["event"].get<std::string>();  // a copy: the values move below
  json out;
  for (auto& [key, value] : j.items()) {
    std::string name = key;
    if (kind == "cluster" && key == "anchor") name = "x1";
    if (kind == "step" && key == "anchor_answer") name = plain ? "z_answer" : "x1_answer";
    if (kind == "query" && key == "purpose" && value == "search_anchor")
      value = plain ? "search_z" : "search_x1";
    out[name] = std::move(value);
  }
  j = std::move(out);
}

}  // namespace

OracleSpec oracle_spec_of(const json& o) {
  OracleSpec spec;
  spec.kind = *oracle_kind_from_string(o["kind"].get<std::string>());
  if (spec.uses_q()) spec.q = o["q"].get<double>();
  if (spec.uses_nu()) spec.nu = o["nu"].get<double>();
  if (spec.uses_rho()) spec.rho = o["rho"].get<double>();
  return spec;
}

// The hint for a parse error at an unquoted Infinity, NaN or inf (the word around byte `byte`, as
// nlohmann counts from 1): JSON has no such numbers, but Python's json.dumps writes them.
std::string nonfinite_hint(const std::string& line, std::size_t byte) {
  auto letter = [&](std::size_t i) {
    return std::isalpha(static_cast<unsigned char>(line[i])) != 0;
  };
  std::size_t from = std::min(byte, line.size()), to = from;
  while (from > 0 && letter(from - 1))
    --from;
  while (to < line.size() && letter(to))
    ++to;
  static const std::set<std::string> words = {"Infinity", "NaN", "Inf", "inf", "nan"};
  if (!words.count(line.substr(from, to - from))) return "";
  return " (JSON has no infinite or NaN numbers: an infinite radius is the string \"inf\"; "
         "Python's json.dumps writes Infinity and NaN unless given allow_nan=False)";
}

json parse_event(const std::string& line, const std::string& at, bool first, Reading& r) {
  if (line.empty()) throw DataError(at + ": empty line (one JSON object per line)");
  json j;
  try {
    j = json::parse(line);
  } catch (const json::parse_error& e) {
    throw DataError(at + ":" + std::to_string(e.byte) +
                    ": not JSON: " + short_parse_message(e.what()) + nonfinite_hint(line, e.byte));
  } catch (const json::exception& e) {
    // Found by fuzz/fuzz_trace: a number too large for a double ("2e3799") is reported by
    // nlohmann as out_of_range, not as a parse error.
    throw DataError(at + ": not usable JSON: " + short_parse_message(e.what()));
  }
  if (!j.is_object() || !j.contains("event") || !j["event"].is_string())
    throw DataError(at + ": not an event (a JSON object with a string field \"event\")");
  const std::string kind = j["event"].get<std::string>();
  if (first != (kind == "header")) {
    if (!event_spec_v4().count(kind)) throw DataError(at + ": unknown event \"" + kind + "\"");
    throw DataError(at + (first ? ": the first event must be the header" : ": a second header"));
  }
  if (kind == "header") {
    // Rows are checked against the trace's own n; a different n is reported later by name. The
    // version and the search decide the names of the fields of every later line.
    if (j.contains("n") && j["n"].is_number_unsigned()) r.n = j["n"].get<std::size_t>();
    r.version = !j.contains("version") ? kTraceVersion
                : j["version"] == 1    ? 1
                : j["version"] == 2    ? 2
                : j["version"] == 3    ? 3
                                       : kTraceVersion;
    r.plain = j.contains("search") && j["search"] == "plain";
  }
  const Spec& specs = r.version == 1   ? event_spec_v1()
                      : r.version == 4 ? event_spec_v4()
                                       : event_spec_v2();
  const Enums& enums = r.version == 1 ? enum_spec_v1() : enum_spec_v2();
  const auto spec = specs.find(kind);
  if (spec == specs.end()) throw DataError(at + ": unknown event \"" + kind + "\"");
  const Only other = r.plain ? Only::weak : Only::plain;
  // A field of the other search's (a step's x1_answer in the plain search, z_answer in the weak
  // ones) is named as such before the field in its place is missed.
  for (const Field& f : spec->second)
    if (f.only == other && j.contains(f.name))
      throw DataError(at + ": \"" + kind + "\" event: field \"" + f.name + "\" is not " +
                      (r.plain ? "in a step of the plain search, which has \"z_answer\""
                               : "in a step of the weak searches, which has \"x1_answer\""));
  std::set<std::string> known = {"event"};
  for (const Field& f : spec->second) {
    if (f.only == other) continue;
    known.insert(f.name);
    if (!j.contains(f.name)) {
      if (f.required)
        throw DataError(at + ": \"" + kind + "\" event: missing field \"" + f.name + "\"");
      continue;
    }
    if (f.type == T::oracle) {
      const std::string bad = oracle_error(j[f.name]);
      if (!bad.empty())
        throw DataError(at + ": \"" + kind + "\" event: field \"" + f.name + "\"" + bad);
      continue;
    }
    const std::string want = type_error(j[f.name], f.type, r.n);
    if (!want.empty())
      throw DataError(at + ": \"" + kind + "\" event: field \"" + f.name + "\" must be " + want);
    const auto en = enums.find(f.name);
    if (en != enums.end() && j[f.name].is_string() &&
        !en->second.count(j[f.name].get<std::string>()))
      throw DataError(at + ": \"" + kind + "\" event: \"" + f.name + "\" = " + j[f.name].dump() +
                      " is not one of the format's values");
  }
  for (const auto& [key, value] : j.items())
    if (!known.count(key))
      throw DataError(at + ": \"" + kind + "\" event: unknown field \"" + key + "\"");
  if (kind == "query" && j["phase"] != 1 && j["phase"] != 2)
    throw DataError(at + ": \"query\" event: field \"phase\" must be 1 or 2");
  if (r.version == 1) rename_v1(j, r.plain);
  return j;
}

Scan scan_trace(TraceLines& lines, std::size_t n_data, std::size_t m_data,
                const std::function<void(const json&)>& each) {
  Scan scan;
  Reading r{n_data};
  std::size_t first_final = 0;  // line of the first "final" event, 0 before one
  bool last_final = false;
  lines.set_cap(line_cap(n_data, m_data, 0));
  for (std::string line; lines.next(line);) {
    const std::size_t line_no = lines.line_no();
    const std::string at = lines.name() + ":" + std::to_string(line_no);
    json j = parse_event(line, at, line_no == 1, r);
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
  scan.reading = r;
  return scan;
}

TraceHeader read_header(const json& h, const Matrix& X, const std::string& name, int label_clusters,
                        const std::optional<Profile>& given) {
  const std::size_t n = static_cast<std::size_t>(X.rows());
  const std::string at1 = name + ":1: ";
  if (h["format"] != kTraceFormat)
    throw DataError(at1 + "format " + h["format"].dump() + " is not \"" + kTraceFormat + "\"");
  if (h["version"] != kTraceVersion && h["version"] != 3 && h["version"] != 2 && h["version"] != 1)
    throw DataError(at1 + "format version " + h["version"].dump() +
                    " is not supported (this program reads versions 1 to " +
                    std::to_string(kTraceVersion) + ")");
  if (h["n"] != n || h["m"] != static_cast<std::size_t>(X.cols()))
    throw DataError(at1 + "the trace is for n = " + h["n"].dump() + ", m = " + h["m"].dump() +
                    " but the data has n = " + std::to_string(n) +
                    ", m = " + std::to_string(X.cols()));
  const std::string fp = points_fingerprint(X);
  const std::string written = h["fingerprint"].get<std::string>();
  // An implementation computing the fingerprint itself gets the form checked first: a wrong
  // form is its mistake, another value is other points (or the points read otherwise).
  const bool form = written.size() == fp.size() && written.rfind("sha256:", 0) == 0 &&
                    written.find_first_not_of("0123456789abcdef", 7) == std::string::npos;
  if (!form)
    throw DataError(at1 + "fingerprint \"" + written +
                    "\" is not \"sha256:\" and 64 lower-case hex digits (docs/trace-format.md, "
                    "\"Fingerprint\"); the data's is " +
                    fp);
  if (written != fp)
    throw DataError(at1 + "fingerprint " + written + " does not match the data's " + fp +
                    " (the trace is for other points)");
  TraceHeader H;
  H.algorithm = h["algorithm"].get<std::string>();
  const std::string search = h["search"].get<std::string>();
  H.params.search = parse_search(search).value_or(Search::plain);  // one of the four (schema)
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
  // Elimination (S2, rule 5) applies only when k is the oracle's number of clusters. With labelled
  // data that number is known: a header without the field is replayed with it, and one that names
  // another is for other data.
  if (label_clusters > 0) {
    if (H.params.oracle_clusters != 0 && H.params.oracle_clusters != label_clusters)
      throw DataError(at1 + "oracle_clusters = " + std::to_string(H.params.oracle_clusters) +
                      " but the data's labels have " + std::to_string(label_clusters) +
                      " clusters (the trace is for other labels)");
    H.params.oracle_clusters = label_clusters;
  }
  // A trace of version 1 or 2 that names no rules was made under the paper's rules of then, which
  // did not ask self-pairs (S4); from version 3 on, none named means the paper's rules of now.
  Profile profile{{}, H.params.elimination};
  if (h["version"] == 1 || h["version"] == 2) profile.rules = former_paper_profile().rules;
  bool named = false;
  if (h.contains("rules")) {
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
    if (profile.rules.b_first && (h["version"] == 1 || h["version"] == 2))
      throw DataError(at1 + "b-order=b-first is a rule of trace versions 3 and 4; a version " +
                      h["version"].dump() + " header cannot name it");
    // One spelling, the schema's: every rule once, in describe()'s order, so that a rule left out
    // is never silently the paper's.
    if (h["rules"] != describe(profile))
      throw DataError(at1 + "\"rules\" = " + h["rules"].dump() + " is not in the format's form \"" +
                      describe(profile) +
                      "\" (every rule once, in this order: docs/trace-format.md, \"Header\")");
    named = true;
  } else if (h.contains("semantics")) {
    // A profile named alone is the whole profile (proofs-notes/semantics.md, S9).
    if (h["semantics"] == "custom")
      throw DataError(at1 +
                      "\"semantics\" = \"custom\" names no rules; spell them out in \"rules\"");
    profile = profile_named(h["semantics"].get<std::string>());
    profile.rows = std::nullopt;  // a trace's rows are given
    if (profile.elimination != H.params.elimination)
      throw DataError(at1 + "\"semantics\" = " + h["semantics"].dump() +
                      " has elimination=" + (profile.elimination ? "on" : "off") +
                      " but \"assignment\" is " + h["assignment"].dump());
    named = true;
  }
  if (given) {
    Profile g = *given;
    g.rows = std::nullopt;
    if (named && !(g.rules == profile.rules && g.elimination == profile.elimination))
      throw ParameterError(at1 + "the header names the rules \"" + describe(profile) +
                           "\" but --semantics/--rule give \"" + describe(g) +
                           "\"; give neither, or the same");
    if (!named && g.elimination != H.params.elimination)
      throw ParameterError(
          at1 + "\"assignment\" is " + h["assignment"].dump() +
          " but --semantics/--rule give elimination=" + (g.elimination ? "on" : "off"));
    profile = g;
  }
  // Only version 4 records the anchor draws (its `anchor` events).
  if (draws_anchors(profile.rules.anchor) && h["version"] != kTraceVersion)
    throw DataError(at1 + "anchor=" + to_string(profile.rules.anchor) +
                    " draws anchors the trace does not record; such a run cannot be replayed");
  H.params.rules = profile.rules;
  // Named for the verdict when the header or the caller chose the rules; "" for the version's
  // default (the paper's).
  if (named || given) {
    H.profile = profile_name(profile);
    if (H.profile == "custom") H.profile += " rules " + describe(profile);
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
  // The oracle is information only; version 1 wrote it as text (OracleSpec::describe()), which
  // is read when it is such a description.
  if (h.contains("oracle"))
    H.oracle = h["oracle"].is_string() ? parse_oracle_spec(h["oracle"].get<std::string>())
                                       : std::optional<OracleSpec>(oracle_spec_of(h["oracle"]));
  if (h.contains("seed")) H.seed = h["seed"].get<std::uint64_t>();
  if (h.contains("oracle_memory") && h["oracle_memory"] == "per-pair")
    H.memory = OracleMemory::per_pair;
  return H;
}

}  // namespace ssac::trace
