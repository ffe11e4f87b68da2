// The trace format (docs/trace-format.md): SHA-256 against FIPS 180-4's examples, the canonical
// point bytes, a written trace replaying as conforming, malformed traces giving one FILE:LINE
// error each, version 2's words and oracle fields, and version 1 still read.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

#include "ssac/error.hpp"
#include "ssac/oracle.hpp"
#include "ssac/ssac.hpp"
#include "ssac/trace.hpp"
#include "trace_events.hpp"

using namespace ssac;

namespace {

using fixtures::error_of;
using fixtures::squares;
const std::vector<int>& kLabels = fixtures::kSquareLabels;

// `self_pairs` false: under the former rule (S4), as every trace of version 1 or 2 was made.
std::string trace_of(Search s, std::uint64_t seed, double q = 0.6, bool self_pairs = true) {
  const Matrix X = squares();
  RandomWeakOracle oracle(kLabels, q, Rng::stream(seed, {kStreamOracle}));
  TraceHeader h;
  h.params.rules.self_pairs = self_pairs;
  h.params.k = 3;
  h.params.eta = 3;
  h.params.beta = 3;
  h.params.search = s;
  h.algorithm = s == Search::plain ? "original" : "weak";
  fixtures::TraceText t(X, h);
  run_ssac(X, oracle, h.params, seed, t.writer.get());
  return t.text;
}

}  // namespace

TEST(Sha256, Fips180ExamplesOneAndTwoBlocks) {
  EXPECT_EQ(sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(sha256_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

TEST(Sha256, Fips180ExampleMillionA) {
  EXPECT_EQ(sha256_hex(std::string(1000000, 'a')),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(Sha256, PaddingBoundaries) {
  // 55 bytes fit one padded block, 56 need two: the two paths of the padding.
  EXPECT_EQ(sha256_hex(std::string(55, 'a')),
            "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318");
  EXPECT_EQ(sha256_hex(std::string(56, 'a')),
            "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a");
}

TEST(Fingerprint, CanonicalBytesAndSignedZero) {
  Matrix X(1, 2);
  X << -0.0, 1.0;
  const std::string b = canonical_points(X);
  ASSERT_EQ(b.size(), 15u + 16u + 16u);
  EXPECT_EQ(b.substr(0, 15), "ssac-points-v1\n");
  EXPECT_EQ(b[15], 1);                                                 // n = 1, little-endian
  EXPECT_EQ(b[23], 2);                                                 // m = 2
  EXPECT_EQ(b.substr(31, 8), std::string(8, '\0'));                    // -0.0 written as +0.0
  EXPECT_EQ(b.substr(39, 8), std::string("\0\0\0\0\0\0\xf0\x3f", 8));  // 1.0
  Matrix Y(1, 2);
  Y << 0.0, 1.0;
  EXPECT_EQ(points_fingerprint(X), points_fingerprint(Y));
  Y << 0.0, 2.0;
  EXPECT_NE(points_fingerprint(X), points_fingerprint(Y));
}

TEST(Trace, ReferenceTracesConformForEverySearch) {
  for (Search s : {Search::random, Search::distance, Search::unified, Search::plain})
    for (std::uint64_t seed = 0; seed < 20; ++seed) {
      const std::string t = trace_of(s, seed);
      const ValidationReport r = validate_trace(squares(), t, "t.jsonl");
      EXPECT_TRUE(r.conforms) << to_string(s) << " seed " << seed << ": "
                              << (r.divergence ? r.divergence->message : "");
      EXPECT_GT(r.queries, 0u);
    }
}

TEST(Trace, EveryLineIsOneEventEndingInFinal) {
  const std::string t = trace_of(Search::unified, 3);
  ASSERT_EQ(t.back(), '\n');
  EXPECT_EQ(t.rfind("{\"event\":\"header\",\"format\":\"ssac-trace\",\"version\":3,", 0), 0u);
  const auto last = t.rfind('\n', t.size() - 2);
  EXPECT_EQ(t.compare(last + 1, 17, "{\"event\":\"final\","), 0);
}

TEST(Trace, MalformedTracesGiveOneLineErrorsWithPosition) {
  const std::string good = trace_of(Search::unified, 1);
  const auto nl = good.find('\n');
  const std::string header = good.substr(0, nl + 1), rest = good.substr(nl + 1);
  EXPECT_EQ(error_of(""), "t.jsonl: empty trace (no header)");
  EXPECT_EQ(error_of(header + "{\"event\": tru}\n" + rest).rfind("t.jsonl:2:", 0), 0u);
  EXPECT_NE(error_of(header + "{\"event\": tru}\n").find("not JSON"), std::string::npos);
  EXPECT_EQ(error_of(rest), "t.jsonl:1: the first event must be the header");
  EXPECT_EQ(error_of(header + "{\"event\":\"iteration\",\"iteration\":1}\n" + rest),
            "t.jsonl:2: \"iteration\" event: missing field \"remaining\"");
  EXPECT_EQ(error_of(header + "{\"event\":\"iteration\",\"iteration\":1,\"remaining\":-1}\n"),
            "t.jsonl:2: \"iteration\" event: field \"remaining\" must be a non-negative integer");
  EXPECT_EQ(error_of(header + "{\"event\":\"sample\",\"iteration\":1,\"rows\":[13]}\n"),
            "t.jsonl:2: \"sample\" event: field \"rows\" must be an array of row indices in [0, "
            "12)");
  // Row n: rows numbered from 1, as a Julia or R program numbers them; the message says so.
  EXPECT_EQ(error_of(header + "{\"event\":\"sample\",\"iteration\":1,\"rows\":[3,12]}\n"),
            "t.jsonl:2: \"sample\" event: field \"rows\" must be an array of row indices in [0, "
            "12) (found 12: rows are numbered from 0, so a program that numbers them from 1 "
            "writes each row minus 1)");
  EXPECT_EQ(error_of(header + "{\"event\":\"sample\",\"iteration\":1,\"rows\":[3.0]}\n"),
            "t.jsonl:2: \"sample\" event: field \"rows\" must be an array of row indices in [0, "
            "12) (found 3.0: a row is an integer, written without a decimal point)");
  // JSON has no Infinity (Python's json.dumps writes it): the radius is "inf". A word that is
  // not a number's name gets no such hint.
  EXPECT_EQ(error_of(header + "{\"event\":\"outcome\",\"radius\":Infinity}\n"),
            "t.jsonl:2:29: not JSON: syntax error while parsing value - invalid literal; last "
            "read: '\"radius\":I' (JSON has no infinite or NaN numbers: an infinite radius is the "
            "string \"inf\"; Python's json.dumps writes Infinity and NaN unless given "
            "allow_nan=False)");
  EXPECT_EQ(error_of(header + "{\"event\":\"outcome\",\"radius\":Infinite}\n").find("(JSON has"),
            std::string::npos);
  EXPECT_EQ(error_of(header + "{\"event\":\"bogus\"}\n"), "t.jsonl:2: unknown event \"bogus\"");
  EXPECT_NE(error_of(good.substr(0, good.rfind('\n', good.size() - 2) + 1)).find("truncated"),
            std::string::npos);
  // A trace for other points: the fingerprint names both.
  std::string other = good;
  const auto fp = other.find("sha256:") + 7;
  other[fp] = other[fp] == '0' ? '1' : '0';
  EXPECT_NE(error_of(other).find("t.jsonl:1: fingerprint sha256:"), std::string::npos);
  EXPECT_NE(error_of(other).find("(the trace is for other points)"), std::string::npos);
  // A fingerprint not of the format's form (upper-case hex here) is named as such, with the data's.
  std::string upper = good;
  for (std::size_t i = upper.find("sha256:") + 7; i < upper.find("sha256:") + 71; ++i)
    upper[i] = static_cast<char>(std::toupper(static_cast<unsigned char>(upper[i])));
  const std::string form = error_of(upper);
  EXPECT_EQ(form.rfind("t.jsonl:1: fingerprint \"sha256:", 0), 0u) << form;
  EXPECT_NE(form.find("\" is not \"sha256:\" and 64 lower-case hex digits (docs/trace-format.md, "
                      "\"Fingerprint\"); the data's is sha256:"),
            std::string::npos)
      << form;
  std::string version = good;
  version.replace(version.find("\"version\":3"), 11, "\"version\":5");
  EXPECT_EQ(error_of(version),
            "t.jsonl:1: format version 5 is not supported (this program reads versions 1 to 4)");
}

// A line may hold 16384 + 32 max(n, m, r) bytes (docs/trace-format.md, "Reading a trace"): line 2
// padded with JSON whitespace to exactly the cap still conforms, one byte more is refused there.
TEST(Trace, LinesAreCappedAtTheLongestATraceForTheDataHolds) {
  const std::string good = trace_of(Search::unified, 1);
  const auto r_at = good.find("\"r\":") + 4;
  const std::size_t r = std::stoul(good.substr(r_at));
  const std::size_t cap = 16384 + 32 * std::max<std::size_t>(12, r);  // squares(): n = 12, m = 2
  const auto l1 = good.find('\n') + 1, l2 = good.find('\n', l1);
  auto padded = [&](std::size_t length) {
    std::string t = good;
    t.insert(l2 - 1, length - (l2 - l1), ' ');  // before the line's closing brace
    return t;
  };
  EXPECT_TRUE(validate_trace(squares(), padded(cap), "t.jsonl").conforms);
  EXPECT_EQ(error_of(padded(cap + 1)), "t.jsonl:2: line longer than " + std::to_string(cap) +
                                           " bytes, the longest a trace for this data holds");
}

// The writer is an observer: each event is written when the run reports it, not rebuilt from the
// finished result. When the oracle is asked its n-th question, the trace written so far ends just
// before that question's query event (the event follows the answer).
TEST(Trace, TheWriterWritesEachEventAsTheRunReportsIt) {
  const Matrix X = squares();
  TraceHeader h;
  h.params.k = 3;
  h.params.eta = 3;
  h.params.beta = 3;
  fixtures::TraceText t(X, h);
  class Watching : public Oracle {
   public:
    Watching(const std::string& text, std::uint64_t seed)
        : text_(text), inner_(kLabels, 0.6, Rng::stream(seed, {kStreamOracle})) {}
    Answer query(std::size_t x, std::size_t y) override {
      lines_when_asked.push_back(
          static_cast<std::size_t>(std::count(text_.begin(), text_.end(), '\n')));
      return inner_.query(x, y);
    }
    std::vector<std::size_t> lines_when_asked;

   private:
    const std::string& text_;
    RandomWeakOracle inner_;
  } oracle(t.text, 5);
  const Result R = run_ssac(X, oracle, h.params, 5, t.writer.get());
  std::vector<std::size_t> query_lines;  // 0-based line of each query event in the whole trace
  std::size_t line = 0;
  for (std::size_t pos = 0; pos < t.text.size(); pos = t.text.find('\n', pos) + 1, ++line)
    if (t.text.compare(pos, 17, "{\"event\":\"query\",") == 0) query_lines.push_back(line);
  ASSERT_EQ(query_lines.size(), R.queries.size());
  ASSERT_GT(query_lines.size(), 10u);
  EXPECT_EQ(oracle.lines_when_asked, query_lines);
}

// Version 2's words (docs/trace-format.md, "Words"): x_1 is cluster.x1 and the purpose search_x1
// with the step's x1_answer; the plain search's z asks search_z queries with the step's
// z_answer. No field or value of a version-2 trace says "anchor" about Phase 2.
TEST(TraceVersion2, EachPhase2WordNamesOneThing) {
  for (Search s : {Search::random, Search::distance, Search::unified, Search::plain}) {
    const auto ev = fixtures::events_of(trace_of(s, 4));
    const bool plain = s == Search::plain;
    std::size_t steps = 0, own = 0;
    for (const auto& e : ev) {
      EXPECT_EQ(e.dump().find("anchor"), std::string::npos) << e.dump();
      if (e["event"] == "cluster") {
        EXPECT_TRUE(e.contains("x1"));
      }
      if (e["event"] == "query" && e["phase"] == 2) {
        EXPECT_TRUE(e["purpose"] == "search_sample" ||
                    e["purpose"] == (plain ? "search_z" : "search_x1"))
            << e.dump();
      }
      if (e["event"] != "step") continue;
      ++steps;
      EXPECT_EQ(e.contains("z_answer"), plain) << e.dump();
      EXPECT_EQ(e.contains("x1_answer"), !plain) << e.dump();
      own += !e[plain ? "z_answer" : "x1_answer"].is_null();
    }
    EXPECT_GT(steps, 0u);
    if (s == Search::random) {
      EXPECT_EQ(own, 0u);  // Algorithm 2 asks no Q(x_1, x_j)
    } else {
      EXPECT_GT(own, 0u);
    }
  }
}

TEST(TraceVersion2, AStepWithTheOtherSearchsAnswerFieldIsRefused) {
  auto ev = fixtures::events_of(trace_of(Search::unified, 1));
  const auto step =
      std::find_if(ev.begin(), ev.end(), [](const auto& e) { return e["event"] == "step"; });
  ASSERT_NE(step, ev.end());
  const std::string line = std::to_string(step - ev.begin() + 1);
  (*step)["z_answer"] = (*step)["x1_answer"];
  step->erase("x1_answer");
  EXPECT_EQ(error_of(fixtures::text_of(ev)),
            "t.jsonl:" + line +
                ": \"step\" event: field \"z_answer\" is not in a step of the weak searches, which "
                "has \"x1_answer\"");
  step->erase("z_answer");
  EXPECT_EQ(error_of(fixtures::text_of(ev)),
            "t.jsonl:" + line + ": \"step\" event: missing field \"x1_answer\"");
}

TEST(TraceVersion2, TheOracleObjectIsCheckedAgainstItsKind) {
  auto ev = fixtures::events_of(trace_of(Search::unified, 1));
  auto with_oracle = [&](const nlohmann::ordered_json& o) {
    auto e = ev;
    e.front()["oracle"] = o;
    return error_of(fixtures::text_of(e));
  };
  const std::string at = "t.jsonl:1: \"header\" event: field \"oracle\"";
  EXPECT_EQ(with_oracle({{"kind", "random"}, {"q", 0.6}}), "");  // the control: it replays
  EXPECT_EQ(with_oracle("random q=0.6"),
            at + " must be an object with a string \"kind\" and the parameters of that kind");
  EXPECT_EQ(with_oracle({{"kind", "psychic"}}),
            at + ": \"kind\" = \"psychic\" is not one of perfect, random, local, global, "
                 "correlated, interactive");
  EXPECT_EQ(with_oracle({{"kind", "random"}}),
            at + ": \"q\" is missing (an oracle of kind random has it)");
  EXPECT_EQ(with_oracle({{"kind", "random"}, {"q", 0.6}, {"rho", 1}}),
            at + ": \"rho\" is not a parameter of an oracle of kind random");
  EXPECT_EQ(with_oracle({{"kind", "local"}, {"nu", "1.5"}, {"rho", 1}}),
            at + ": \"nu\" = \"1.5\" is not a number");
  EXPECT_EQ(with_oracle({{"kind", "local"}, {"nu", 0.5}, {"rho", 1}}),
            at + ": nu = 0.5 is outside its admissible range [1, inf)");
}

// Version 1 (docs/trace-format.md, "Version 1") is read with its own names: cluster.anchor,
// a step's anchor_answer, the purpose search_anchor, and the oracle as text. Each search's trace
// of the rules of then (self-pairs=off) written back as version 1 conforms, and its report says
// which version it read.
TEST(TraceVersion1, IsReadWithItsOwnFieldNames) {
  for (Search s : {Search::random, Search::distance, Search::unified, Search::plain}) {
    const auto ev = fixtures::events_of(trace_of(s, 4, 0.6, false));
    const auto v1 = fixtures::as_version_1(ev, "random q=0.6");
    const std::string text = fixtures::text_of(v1);
    EXPECT_NE(text.find(s == Search::random ? "\"anchor\":" : "\"search_anchor\""),
              std::string::npos);
    const auto rep = validate_trace(squares(), text, "t.jsonl");
    EXPECT_TRUE(rep.conforms) << to_string(s) << ": "
                              << (rep.divergence ? rep.divergence->message : "");
    EXPECT_EQ(rep.version, 1);
    EXPECT_EQ(validate_trace(squares(), fixtures::text_of(ev), "t.jsonl").version, 3);
    // A divergence in a version-1 trace is named with version 2's words.
    auto moved = v1;
    for (auto& e : moved)
      if (e["event"] == "cluster") {
        e["anchor"] = e["anchor"] == 0 ? 1 : 0;
        break;
      }
    const auto bad = validate_trace(squares(), fixtures::text_of(moved), "t.jsonl");
    ASSERT_FALSE(bad.conforms);
    EXPECT_EQ(bad.divergence->what, "x1");
  }
  // The names do not mix: version 2's in a version-1 trace, or version 1's in version 2, break the
  // format at that line.
  const auto ev = fixtures::events_of(trace_of(Search::unified, 1));
  auto v1 = fixtures::as_version_1(ev, "random q=0.6");
  const auto cluster =
      std::find_if(v1.begin(), v1.end(), [](const auto& e) { return e["event"] == "cluster"; });
  const std::string line = std::to_string(cluster - v1.begin() + 1);
  (*cluster)["x1"] = (*cluster)["anchor"];
  cluster->erase("anchor");
  EXPECT_EQ(error_of(fixtures::text_of(v1)),
            "t.jsonl:" + line + ": \"cluster\" event: missing field \"anchor\"");
  auto v2 = ev;
  v2[cluster - v1.begin()]["anchor"] = v2[cluster - v1.begin()]["x1"];
  v2[cluster - v1.begin()].erase("x1");
  EXPECT_EQ(error_of(fixtures::text_of(v2)),
            "t.jsonl:" + line + ": \"cluster\" event: missing field \"x1\"");
}
