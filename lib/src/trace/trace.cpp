#include "ssac/trace.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstring>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <utility>

#include "ssac/error.hpp"
#include "ssac/ranges.hpp"

namespace ssac {

using json = nlohmann::ordered_json;

// ---------------------------------------------------------------------------------------------
// SHA-256, FIPS 180-4 section 6.2. Small enough to own; tests/test_trace.cpp checks the FIPS
// examples (one block, two blocks, a million 'a').

namespace {

constexpr std::array<std::uint32_t, 64> kSha256K = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

void sha256_block(std::array<std::uint32_t, 8>& h, const unsigned char* p) {
  std::array<std::uint32_t, 64> w{};
  for (int t = 0; t < 16; ++t)
    w[t] = (std::uint32_t{p[4 * t]} << 24) | (std::uint32_t{p[4 * t + 1]} << 16) |
           (std::uint32_t{p[4 * t + 2]} << 8) | std::uint32_t{p[4 * t + 3]};
  for (int t = 16; t < 64; ++t) {
    const std::uint32_t s0 = std::rotr(w[t - 15], 7) ^ std::rotr(w[t - 15], 18) ^ (w[t - 15] >> 3);
    const std::uint32_t s1 = std::rotr(w[t - 2], 17) ^ std::rotr(w[t - 2], 19) ^ (w[t - 2] >> 10);
    w[t] = w[t - 16] + s0 + w[t - 7] + s1;
  }
  std::uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
  for (int t = 0; t < 64; ++t) {
    const std::uint32_t S1 = std::rotr(e, 6) ^ std::rotr(e, 11) ^ std::rotr(e, 25);
    const std::uint32_t ch = (e & f) ^ (~e & g);
    const std::uint32_t t1 = hh + S1 + ch + kSha256K[t] + w[t];
    const std::uint32_t S0 = std::rotr(a, 2) ^ std::rotr(a, 13) ^ std::rotr(a, 22);
    const std::uint32_t maj = (a & b) ^ (a & c) ^ (b & c);
    const std::uint32_t t2 = S0 + maj;
    hh = g;
    g = f;
    f = e;
    e = d + t1;
    d = c;
    c = b;
    b = a;
    a = t1 + t2;
  }
  h[0] += a;
  h[1] += b;
  h[2] += c;
  h[3] += d;
  h[4] += e;
  h[5] += f;
  h[6] += g;
  h[7] += hh;
}

void put_u64_le(std::string& out, std::uint64_t v) {
  for (int b = 0; b < 8; ++b)
    out.push_back(static_cast<char>((v >> (8 * b)) & 0xff));
}

}  // namespace

std::string sha256_hex(std::string_view bytes) {
  std::array<std::uint32_t, 8> h = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                    0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
  const auto* data = reinterpret_cast<const unsigned char*>(bytes.data());
  const std::size_t full = bytes.size() / 64;
  for (std::size_t b = 0; b < full; ++b)
    sha256_block(h, data + 64 * b);
  // Padding: 0x80, zeros, and the message length in bits as a 64-bit big-endian integer.
  std::array<unsigned char, 128> tail{};
  const std::size_t rem = bytes.size() % 64;
  if (rem > 0) std::memcpy(tail.data(), data + 64 * full, rem);
  tail[rem] = 0x80;
  const std::size_t tail_len = rem + 9 <= 64 ? 64 : 128;
  const std::uint64_t bits = static_cast<std::uint64_t>(bytes.size()) * 8;
  for (std::size_t b = 0; b < 8; ++b)
    tail[tail_len - 1 - b] = static_cast<unsigned char>((bits >> (8 * b)) & 0xff);
  for (std::size_t off = 0; off < tail_len; off += 64)
    sha256_block(h, tail.data() + off);
  static const char* hex = "0123456789abcdef";
  std::string out;
  for (std::uint32_t v : h)
    for (int s = 28; s >= 0; s -= 4)
      out.push_back(hex[(v >> s) & 0xf]);
  return out;
}

std::string canonical_points(const Matrix& X) {
  std::string out = "ssac-points-v1\n";
  put_u64_le(out, static_cast<std::uint64_t>(X.rows()));
  put_u64_le(out, static_cast<std::uint64_t>(X.cols()));
  for (Eigen::Index i = 0; i < X.rows(); ++i)
    for (Eigen::Index c = 0; c < X.cols(); ++c) {
      const double v = X(i, c) == 0.0 ? 0.0 : X(i, c);  // -0.0 and +0.0 are the same point
      put_u64_le(out, std::bit_cast<std::uint64_t>(v));
    }
  return out;
}

std::string points_fingerprint(const Matrix& X) {
  return "sha256:" + sha256_hex(canonical_points(X));
}

// ---------------------------------------------------------------------------------------------
// Writing. The events follow the reference's order of work (docs/trace-format.md, "Events").

namespace {

// Where an event sits in the run, for divergence messages.
struct Where {
  int iteration = 0, phase = 0;
  std::size_t step = 0;  // 1-based step of the binary search, 0 outside one
};

struct Events {
  std::vector<json> ev;
  std::vector<Where> at;
  void add(json j, Where w) {
    ev.push_back(std::move(j));
    at.push_back(w);
  }
};

json rows_json(const std::vector<std::size_t>& rows) {
  json a = json::array();
  for (std::size_t r : rows)
    a.push_back(r);
  return a;
}

json header_json(const Matrix& X, const TraceHeader& h) {
  json j;
  j["event"] = "header";
  j["format"] = kTraceFormat;
  j["version"] = kTraceVersion;
  j["algorithm"] = h.algorithm;
  j["search"] = to_string(h.params.search);
  j["assignment"] = h.params.elimination ? "paper" : "code";
  j["n"] = X.rows();
  j["m"] = X.cols();
  j["k"] = h.params.k;
  j["eta"] = h.params.eta;
  j["beta"] = h.params.beta;
  j["r"] = h.params.sample_size();
  j["fingerprint"] = points_fingerprint(X);
  if (!h.oracle.empty()) j["oracle"] = h.oracle;
  if (h.seed) j["seed"] = *h.seed;
  // The oracle's number of clusters when it is known and is not k: elimination does not apply
  // then (Params::eliminates), and a replay must know it.
  if (h.params.oracle_clusters != 0 && h.params.oracle_clusters != h.params.k)
    j["oracle_clusters"] = h.params.oracle_clusters;
  // The rules a run was made under, when they are not the paper's (ssac/rules.hpp); a trace of the
  // paper profile has no such field. The elimination rule stays in "assignment".
  const Profile profile{h.params.rules, h.params.elimination};
  if (h.params.rules != Rules{}) {
    j["semantics"] = profile_name(profile);
    j["rules"] = describe(profile);
  }
  if (h.memory != OracleMemory::fresh) j["oracle_memory"] = to_string(h.memory);
  return j;
}

Events trace_events(const Matrix& X, const TraceHeader& h, const Result& R) {
  Events E;
  E.add(header_json(X, h), {});
  std::size_t qi = 0;
  auto query = [&](Where w) {
    const QueryRecord& q = R.queries[qi++];
    json j;
    j["event"] = "query";
    j["iteration"] = q.iteration;
    j["phase"] = q.phase;
    j["purpose"] = to_string(q.purpose);
    j["x"] = q.x;
    j["y"] = q.y;
    j["answer"] = to_string(q.answer);
    E.add(std::move(j), w);
  };
  for (const Iteration& it : R.iterations) {
    const int i = it.index;
    E.add(json{{"event", "iteration"}, {"iteration", i}, {"remaining", it.remaining}}, {i, 0, 0});
    if (it.outcome != Outcome::empty_remainder) {
      E.add(json{{"event", "sample"}, {"iteration", i}, {"rows", rows_json(it.sample)}}, {i, 1, 0});
      while (qi < R.queries.size() && R.queries[qi].iteration == i && R.queries[qi].phase == 1)
        query({i, 1, 0});
      E.add(json{{"event", "assignment"}, {"iteration", i}, {"clusters", it.assignment}},
            {i, 1, 0});
    }
    if (it.p > 0) {
      json c;
      c["event"] = "cluster";
      c["iteration"] = i;
      c["p"] = it.p;
      c["zp_size"] = it.zp_size;
      c["revisited"] = it.revisited;
      c["center"] = std::vector<double>(it.center.data(), it.center.data() + it.center.size());
      c["anchor"] = it.anchor;
      E.add(std::move(c), {i, 1, 0});
      for (std::size_t s = 0; s < it.steps.size(); ++s) {
        const SearchStep& st = it.steps[s];
        const Where w{i, 2, s + 1};
        // The step's queries: Q(x_1, x_j) when asked, then one per draw of B that was asked (not
        // x_j itself, unless self-pairs are asked: S4).
        for (std::size_t a = 0; a < st.queries && qi < R.queries.size(); ++a)
          query(w);
        json j;
        j["event"] = "step";
        j["iteration"] = i;
        j["step"] = s + 1;
        j["lo"] = st.lo;
        j["hi"] = st.hi;
        j["j"] = st.j;
        j["row"] = st.row;
        j["anchor_answer"] = st.anchor_asked ? json(to_string(st.anchor_answer)) : json(nullptr);
        j["sample"] = rows_json(st.sample);
        json answers = json::array();
        for (Answer a : st.sample_answers)
          answers.push_back(to_string(a));
        j["sample_answers"] = answers;
        j["decision"] = to_string(st.decision);
        E.add(std::move(j), w);
      }
    }
    // Queries the steps did not account for (a Result built by another implementation may hold
    // them) are kept, so that nothing recorded is lost from the trace.
    while (qi < R.queries.size() && R.queries[qi].iteration == i)
      query({i, R.queries[qi].phase, 0});
    json o;
    o["event"] = "outcome";
    o["iteration"] = i;
    o["outcome"] = to_string(it.outcome);
    const bool searched = it.outcome == Outcome::recovered || it.outcome == Outcome::empty_cluster;
    o["j_star"] = searched ? json(it.j_star) : json(nullptr);
    o["radius"] = !searched                  ? json(nullptr)
                  : std::isfinite(it.radius) ? json(it.radius)
                                             : json("inf");
    o["assigned"] = rows_json(it.members);
    E.add(std::move(o), {i, 2, 0});
  }
  while (qi < R.queries.size())
    query({R.queries[qi].iteration, R.queries[qi].phase, 0});
  json f;
  f["event"] = "final";
  f["labels"] = R.labels;
  f["status"] = R.status;
  f["clusters_recovered"] = R.clusters_recovered;
  f["failed"] = R.failed;
  f["queries_phase1"] = R.queries_phase1;
  f["queries_phase2"] = R.queries_phase2;
  E.add(std::move(f), {});
  return E;
}

}  // namespace

std::string format_trace(const Matrix& X, const TraceHeader& header, const Result& R) {
  std::string out;
  for (const json& j : trace_events(X, header, R).ev)
    out += j.dump() + "\n";
  return out;
}

// ---------------------------------------------------------------------------------------------
// Reading: every line one JSON object whose fields have the types of docs/trace-format.md.

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
      {"oracle_memory", {"fresh", "per-pair"}},
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

std::vector<json> parse_trace(const std::string& text, const std::string& name,
                              std::size_t n_data) {
  std::vector<json> events;
  std::size_t line_no = 0, pos = 0;
  std::size_t n = n_data;
  while (pos < text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(pos, end - pos);
    pos = end + 1;
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    const std::string at = name + ":" + std::to_string(line_no);
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
    if ((line_no == 1) != (kind == "header"))
      throw DataError(
          at + (line_no == 1 ? ": the first event must be the header" : ": a second header"));
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
    events.push_back(std::move(j));
  }
  if (events.empty()) throw DataError(name + ": empty trace (no header)");
  if (events.back()["event"] != "final")
    throw DataError(name + ":" + std::to_string(events.size()) +
                    ": the trace does not end with a \"final\" event (truncated?)");
  for (std::size_t e = 1; e + 1 < events.size(); ++e)
    if (events[e]["event"] == "final")
      throw DataError(name + ":" + std::to_string(e + 1) + ": \"final\" event before the end");
  return events;
}

// ---------------------------------------------------------------------------------------------
// Replay: the recorded choices and answers, handed to the reference in the order it asks.

struct Note {
  int iteration;
  std::string text;
};

class ReplayChooser : public Chooser {
 public:
  struct Draw_ {
    std::size_t row;
    int iteration;
  };
  std::vector<Draw_> phase1, search;
  std::size_t next1 = 0, next2 = 0;
  std::vector<Note> notes;

  std::size_t choose(const std::vector<std::size_t>& pool, Draw what) override {
    const bool p1 = what == Draw::phase1_sample;
    auto& list = p1 ? phase1 : search;
    auto& next = p1 ? next1 : next2;
    if (next >= list.size()) {
      notes.push_back({list.empty() ? 0 : list.back().iteration + 1,
                       std::string("the trace has no more ") +
                           (p1 ? "Phase-1 draws" : "draws of B") + " where the reference draws"});
      return 0;
    }
    const Draw_ d = list[next++];
    if (p1) {
      // S_i is in increasing row order.
      const auto it = std::lower_bound(pool.begin(), pool.end(), d.row);
      if (it != pool.end() && *it == d.row) return static_cast<std::size_t>(it - pool.begin());
      notes.push_back({d.iteration, "row " + std::to_string(d.row) +
                                        " drawn in Phase 1 of iteration " +
                                        std::to_string(d.iteration) +
                                        " is not in S_i (it was assigned earlier)"});
      return 0;
    }
    const auto it = std::find(pool.begin(), pool.end(), d.row);
    if (it != pool.end()) return static_cast<std::size_t>(it - pool.begin());
    std::string zp;
    for (std::size_t r : std::set<std::size_t>(pool.begin(), pool.end()))
      zp += (zp.empty() ? "" : ", ") + std::to_string(r);
    notes.push_back({d.iteration, "row " + std::to_string(d.row) +
                                      " drawn into B is not in Z_p = {" + zp +
                                      "} (B is sampled from Z_p, Algorithms 2 and 4)"});
    return 0;
  }
};

class ReplayOracle : public Oracle {
 public:
  struct Q {
    std::size_t x, y;
    Answer a;
  };
  std::vector<Q> queries;
  std::map<std::pair<std::size_t, std::size_t>, Answer> by_pair;
  std::size_t next = 0;

  Answer query(std::size_t x, std::size_t y) override {
    // The recorded answer when the reference asks what the trace asked next. Otherwise the run
    // has already diverged (the comparison reports it); any answer the trace gave for the pair
    // keeps the replay close to the trace, not-sure when it gave none.
    const std::size_t i = next++;
    if (i < queries.size() && queries[i].x == x && queries[i].y == y) return queries[i].a;
    const auto f = by_pair.find({std::min(x, y), std::max(x, y)});
    return f == by_pair.end() ? Answer::NotSure : f->second;
  }
};

Answer parse_answer(const json& v) {
  return v == "yes" ? Answer::Yes : v == "no" ? Answer::No : Answer::NotSure;
}

bool close(double a, double b) {
  if (a == b) return true;
  if (!std::isfinite(a) || !std::isfinite(b)) return false;
  return std::fabs(a - b) <= kTraceTolerance * std::max({1.0, std::fabs(a), std::fabs(b)});
}

// Equality of two JSON values, numbers within the tolerance; on a difference `path` names the
// first differing element ("[3]").
bool same(const json& a, const json& b, std::string& path) {
  if (a.is_number() && b.is_number()) {
    if (a.is_number_float() || b.is_number_float()) return close(a.get<double>(), b.get<double>());
    return a == b;
  }
  if (a.is_array() && b.is_array()) {
    for (std::size_t i = 0; i < std::min(a.size(), b.size()); ++i)
      if (!same(a[i], b[i], path)) {
        path = "[" + std::to_string(i) + "]" + path;
        return false;
      }
    if (a.size() != b.size()) {
      path = " (length " + std::to_string(a.size()) + " vs " + std::to_string(b.size()) + ")";
      return false;
    }
    return true;
  }
  return a == b;
}

std::string context(std::size_t event, const Where& w, const json& ref) {
  std::string s = "event " + std::to_string(event);
  if (w.iteration == 0) return s + (ref["event"] == "final" ? " (final)" : " (header)");
  s += " (iteration " + std::to_string(w.iteration);
  if (w.phase) s += ", phase " + std::to_string(w.phase);
  if (w.step) s += ", step " + std::to_string(w.step);
  return s + ")";
}

std::string qstr(const json& q) {
  return "Q(" + q["x"].dump() + ", " + q["y"].dump() + ") " + q["purpose"].get<std::string>() +
         " in phase " + q["phase"].dump();
}

}  // namespace

ValidationReport validate_trace(const Matrix& X, const std::string& text, const std::string& name) {
  const std::size_t n = static_cast<std::size_t>(X.rows());
  const std::vector<json> tr = parse_trace(text, name, n);
  const json& h = tr.front();
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
        set_rule(profile, w);
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

  ValidationReport report;
  report.events = tr.size();
  auto diverge = [&](std::size_t e, const Where& w, const json& ref, std::string what,
                     std::string expected, std::string found, std::string extra, bool tie) {
    Divergence d;
    d.event = e;
    d.iteration = w.iteration;
    d.phase = w.phase;
    d.what = std::move(what);
    d.expected = std::move(expected);
    d.found = std::move(found);
    d.near_tie = tie;
    d.message = context(e, w, ref) + ": " + d.what + ": expected " + d.expected + ", found " +
                d.found + extra;
    report.conforms = false;
    report.divergence = std::move(d);
    return report;
  };

  // Algorithm 1 line 1: r = ceil(k eta); an implementation that rounds otherwise draws another
  // number of points, so this is checked before the run.
  if (h["r"] != H.params.sample_size())
    return diverge(1, {}, h, "r", std::to_string(H.params.sample_size()) + " = ceil(k eta)",
                   h["r"].dump(), "", false);

  ReplayChooser chooser;
  ReplayOracle oracle;
  for (const json& e : tr) {
    const std::string kind = e["event"].get<std::string>();
    if (kind == "sample")
      for (const json& r : e["rows"])
        chooser.phase1.push_back({r.get<std::size_t>(), e["iteration"].get<int>()});
    if (kind == "step")
      for (const json& r : e["sample"])
        chooser.search.push_back({r.get<std::size_t>(), e["iteration"].get<int>()});
    if (kind == "query") {
      const std::size_t x = e["x"].get<std::size_t>(), y = e["y"].get<std::size_t>();
      const Answer a = parse_answer(e["answer"]);
      oracle.queries.push_back({x, y, a});
      oracle.by_pair.emplace(std::make_pair(std::min(x, y), std::max(x, y)), a);
    }
  }
  const Result R = run_ssac(X, oracle, chooser, H.params);
  const Events ref = trace_events(X, H, R);

  auto note_for = [&](int iteration) -> std::string {
    for (const Note& nt : chooser.notes)
      if (nt.iteration <= iteration || iteration == 0) return "; note: " + nt.text;
    return "";
  };
  auto center_of = [&](int iteration) -> const Vector& {
    return R.iterations[static_cast<std::size_t>(iteration - 1)].center;
  };

  for (std::size_t e = 1; e < std::max(ref.ev.size(), tr.size()); ++e) {
    const std::size_t num = e + 1;
    if (e >= tr.size() - 1 && e < ref.ev.size() - 1)
      return diverge(tr.size(), ref.at[e], ref.ev[e], "event",
                     "a \"" + ref.ev[e]["event"].get<std::string>() + "\" event",
                     "the \"final\" event", note_for(ref.at[e].iteration), false);
    if (e >= ref.ev.size() - 1 && e < tr.size() - 1)
      return diverge(
          num, ref.at.back(), ref.ev.back(), "event", "the \"final\" event",
          "a \"" + tr[e]["event"].get<std::string>() + "\" event (the reference run has ended)",
          note_for(ref.at.back().iteration), false);
    const json& a = ref.ev[e];
    const json& b = tr[e];
    const Where& w = ref.at[e];
    const std::string kind = a["event"].get<std::string>();
    if (b["event"] != kind) {
      std::string extra = note_for(w.iteration);
      return diverge(num, w, a, "event", "a \"" + kind + "\" event",
                     "a \"" + b["event"].get<std::string>() + "\" event", extra, false);
    }
    if (kind == "query") {
      ++report.queries;
      if (a["x"] != b["x"] || a["y"] != b["y"] || a["purpose"] != b["purpose"] ||
          a["phase"] != b["phase"] || a["iteration"] != b["iteration"]) {
        std::string extra;
        // In a search step, say which probe the trace's query belongs to.
        if (w.step) {
          for (std::size_t f = e + 1; f < tr.size(); ++f)
            if (tr[f]["event"] == "step") {
              const SearchStep& rs =
                  R.iterations[static_cast<std::size_t>(w.iteration - 1)].steps[w.step - 1];
              if (tr[f]["j"] != rs.j || tr[f]["lo"] != rs.lo || tr[f]["hi"] != rs.hi)
                extra = "; the trace's step probes j = " + tr[f]["j"].dump() +
                        " (lo = " + tr[f]["lo"].dump() + ", hi = " + tr[f]["hi"].dump() +
                        "), the reference j = floor((lo + hi) / 2) = " + std::to_string(rs.j) +
                        " (lo = " + std::to_string(rs.lo) + ", hi = " + std::to_string(rs.hi) + ")";
              break;
            }
        }
        return diverge(num, w, a, "query", qstr(a), qstr(b), extra + note_for(w.iteration), false);
      }
      continue;
    }
    for (const auto& [key, av] : a.items()) {
      static const json missing;
      const json& bv = b.contains(key) ? b[key] : missing;
      std::string path;
      if (same(av, bv, path)) continue;
      std::string what = key + path;
      std::string extra;
      bool tie = false;
      auto dist = [&](const json& row) {
        return distance(X, row.get<std::size_t>(), center_of(w.iteration));
      };
      if ((kind == "step" && key == "row") || (kind == "cluster" && key == "anchor")) {
        const double da = dist(av), db = dist(bv);
        if (close(da, db)) {
          tie = true;
          extra = "; near-tie in the distance order: d(x" + av.dump() +
                  ", mu'_p) = " + format_double(da) + " and d(x" + bv.dump() +
                  ", mu'_p) = " + format_double(db) +
                  " are within the tolerance; the reference orders S_i by distance, ties by row";
        } else if (kind == "cluster") {
          extra = "; x_1 is the point of S_i closest to mu'_p (Algorithms 3 and 4): d(x" +
                  av.dump() + ", mu'_p) = " + format_double(da) + ", d(x" + bv.dump() +
                  ", mu'_p) = " + format_double(db);
        } else {
          extra = "; d(x" + av.dump() + ", mu'_p) = " + format_double(da) + ", d(x" + bv.dump() +
                  ", mu'_p) = " + format_double(db);
        }
      } else if (kind == "step" && key == "decision") {
        extra = "; Q(x_1, x_j) = " +
                (a["anchor_answer"].is_null() ? std::string("not asked")
                                              : a["anchor_answer"].get<std::string>()) +
                ", answers from B = " + a["sample_answers"].dump();
      } else if (kind == "outcome" && key == "assigned") {
        const Iteration& it = R.iterations[static_cast<std::size_t>(w.iteration - 1)];
        std::set<std::size_t> sa, sb;
        for (const json& r : av)
          sa.insert(r.get<std::size_t>());
        for (const json& r : bv)
          sb.insert(r.get<std::size_t>());
        std::vector<std::size_t> diff;
        std::set_symmetric_difference(sa.begin(), sa.end(), sb.begin(), sb.end(),
                                      std::back_inserter(diff));
        if (!diff.empty() && it.p > 0) {
          const std::size_t x = diff.front();
          const double d = distance(X, x, it.center);
          what = "assigned";
          extra = "; row " + std::to_string(x) + " is " + (sa.count(x) ? "in" : "not in") +
                  " the reference's C'_p, d(x" + std::to_string(x) +
                  ", mu'_p) = " + format_double(d) + ", r'_i = " + format_double(it.radius);
          if (d == it.radius)
            extra += "; C'_p = {x in S_i : d(x, mu'_p) < r'_i} is strict (Algorithm 1, line 13)";
          else if (close(d, it.radius)) {
            tie = true;
            extra += "; near-tie at the radius: the distance is within the tolerance of r'_i";
          }
        }
      }
      return diverge(num, w, a, what, av.dump(), b.contains(key) ? bv.dump() : "nothing",
                     extra + note_for(w.iteration), tie);
    }
  }
  // The oracle's memory: the replay takes the recorded answers, so what per-pair memory demands
  // of them is checked once the events agree: a pair asked again, in either order, gets the
  // answer it got first.
  if (H.memory == OracleMemory::per_pair) {
    std::map<std::pair<std::size_t, std::size_t>, std::pair<json, std::size_t>> first;
    for (std::size_t e = 1; e < tr.size(); ++e) {
      if (tr[e]["event"] != "query") continue;
      const std::size_t x = tr[e]["x"].get<std::size_t>(), y = tr[e]["y"].get<std::size_t>();
      const auto [f, added] = first.emplace(std::minmax(x, y), std::make_pair(tr[e]["answer"], e));
      if (added || f->second.first == tr[e]["answer"]) continue;
      return diverge(e + 1, ref.at[e], ref.ev[e], "answer", f->second.first.dump(),
                     tr[e]["answer"].dump(),
                     "; oracle_memory is per-pair and event " +
                         std::to_string(f->second.second + 1) + " asked the same pair",
                     false);
    }
  }
  return report;
}

}  // namespace ssac
