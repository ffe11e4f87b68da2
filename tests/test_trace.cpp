// The trace format (docs/trace-format.md): SHA-256 against FIPS 180-4's examples, the canonical
// point bytes, a written trace replaying as conforming, and malformed traces giving one
// FILE:LINE error each.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "ssac/error.hpp"
#include "ssac/oracle.hpp"
#include "ssac/ssac.hpp"
#include "ssac/trace.hpp"
#include "trace_fixture.hpp"

using namespace ssac;

namespace {

using fixtures::squares;
const std::vector<int>& kLabels = fixtures::kSquareLabels;

std::string trace_of(Search s, std::uint64_t seed, double q = 0.6) {
  const Matrix X = squares();
  RandomWeakOracle oracle(kLabels, q, Rng::stream(seed, {kStreamOracle}));
  TraceHeader h;
  h.params.k = 3;
  h.params.eta = 3;
  h.params.beta = 3;
  h.params.search = s;
  h.algorithm = s == Search::plain ? "original" : "weak";
  fixtures::TraceText t(X, h);
  run_ssac(X, oracle, h.params, seed, t.writer.get());
  return t.text;
}

std::string error_of(const std::string& text) {
  try {
    validate_trace(squares(), text, "t.jsonl");
  } catch (const DataError& e) {
    return e.what();
  }
  return "";
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
  EXPECT_EQ(t.rfind("{\"event\":\"header\",\"format\":\"ssac-trace\",\"version\":1,", 0), 0u);
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
  EXPECT_EQ(error_of(header + "{\"event\":\"sample\",\"iteration\":1,\"rows\":[12]}\n"),
            "t.jsonl:2: \"sample\" event: field \"rows\" must be an array of row indices in [0, "
            "12)");
  EXPECT_EQ(error_of(header + "{\"event\":\"bogus\"}\n"), "t.jsonl:2: unknown event \"bogus\"");
  EXPECT_NE(error_of(good.substr(0, good.rfind('\n', good.size() - 2) + 1)).find("truncated"),
            std::string::npos);
  // A trace for other points: the fingerprint names both.
  std::string other = good;
  const auto fp = other.find("sha256:") + 7;
  other[fp] = other[fp] == '0' ? '1' : '0';
  EXPECT_NE(error_of(other).find("t.jsonl:1: fingerprint sha256:"), std::string::npos);
  std::string version = good;
  version.replace(version.find("\"version\":1"), 11, "\"version\":2");
  EXPECT_EQ(error_of(version),
            "t.jsonl:1: format version 2 is not supported (this program reads version 1)");
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
