// Anchor draws in traces (docs/trace-format.md, version 4): under a random anchor rule (Definition
// 4; proofs-notes/anchor-rules.md) every anchor drawn is an `anchor` event with the rows it was
// drawn from and the row drawn; `ssac validate` replays the recorded row and rejects one the rule
// could not have drawn. A run that draws no anchor is still written as version 3, and traces of
// versions 1 to 3 are read as before.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "ssac/error.hpp"
#include "ssac/oracle.hpp"
#include "ssac/ssac.hpp"
#include "ssac/testing/choice_bugs.hpp"
#include "ssac/trace.hpp"
#include "trace_events.hpp"

using namespace ssac;

namespace {

using fixtures::check_on_squares;
using fixtures::error_of;
using fixtures::events_of;
using fixtures::squares;
using fixtures::text_of;
using json = nlohmann::ordered_json;
const std::vector<int>& kLabels = fixtures::kSquareLabels;

Params anchor_params(AnchorRule rule, Search s, bool self_pairs = true) {
  Params P = fixtures::square_params(s);
  P.rules.anchor = rule;
  P.rules.self_pairs = self_pairs;
  return P;
}

std::string trace_of(const Params& P, std::uint64_t seed, double q = 0.6) {
  const Matrix X = squares();
  RandomWeakOracle oracle(kLabels, q, Rng::stream(seed, {kStreamOracle}));
  TraceHeader h;
  h.params = P;
  h.algorithm = P.search == Search::plain ? "original" : "weak";
  OracleSpec o;
  o.kind = OracleKind::random;
  o.q = q;
  h.oracle = o;
  h.seed = seed;
  fixtures::TraceText t(X, h);
  run_ssac(X, oracle, P, seed, t.writer.get());
  return t.text;
}

std::size_t count_events(const std::vector<json>& ev, const std::string& kind) {
  return static_cast<std::size_t>(
      std::count_if(ev.begin(), ev.end(), [&](const json& e) { return e["event"] == kind; }));
}

// The index of the first anchor event drawn from more than one row.
std::size_t first_choice(const std::vector<json>& ev) {
  for (std::size_t i = 0; i < ev.size(); ++i)
    if (ev[i]["event"] == "anchor" && ev[i]["candidates"].size() > 1) return i;
  return ev.size();
}

const AnchorRule kRandomRules[] = {AnchorRule::random_labelled_row, AnchorRule::random_known_row};

}  // namespace

// Every search, both random rules, self-pairs asked or not: version 4, anchor events, and the
// replay conforms.
TEST(TraceAnchor, RandomRuleTracesAreVersion4AndConform) {
  for (AnchorRule rule : kRandomRules)
    for (Search s : {Search::random, Search::distance, Search::unified, Search::plain})
      for (bool self_pairs : {true, false}) {
        std::size_t anchors = 0;
        for (std::uint64_t seed = 0; seed < 10; ++seed) {
          const std::string t = trace_of(anchor_params(rule, s, self_pairs), seed);
          const auto ev = events_of(t);
          EXPECT_EQ(ev[0]["version"], 4);
          anchors += count_events(ev, "anchor");
          const ValidationReport r = validate_trace(squares(), t, "t.jsonl");
          EXPECT_TRUE(r.conforms) << to_string(rule) << " " << to_string(s) << " seed " << seed
                                  << ": " << (r.divergence ? r.divergence->message : "");
          EXPECT_EQ(r.version, 4);
        }
        EXPECT_GT(anchors, 0u) << to_string(rule) << " " << to_string(s);
      }
}

// An anchor event precedes the queries of its draw x: its row is one of its candidates (distinct
// rows, increasing), and with self-pairs asked the k' queries of x ask the k' rows drawn, in order.
TEST(TraceAnchor, EachAnchorEventIsTheRowTheNextQueryAsks) {
  for (AnchorRule rule : kRandomRules)
    for (std::uint64_t seed = 0; seed < 10; ++seed) {
      const auto ev = events_of(trace_of(anchor_params(rule, Search::unified), seed));
      std::vector<std::size_t> pending;
      std::size_t matched = 0;
      for (const json& e : ev) {
        if (e["event"] == "anchor") {
          const auto& c = e["candidates"];
          EXPECT_TRUE(std::is_sorted(c.begin(), c.end()));
          EXPECT_EQ(std::adjacent_find(c.begin(), c.end()), c.end());
          EXPECT_NE(std::find(c.begin(), c.end(), e["row"]), c.end());
          pending.push_back(e["row"].get<std::size_t>());
        }
        if (e["event"] == "query" && e["purpose"] == "assignment") {
          ASSERT_FALSE(pending.empty()) << "seed " << seed;
          EXPECT_EQ(e["y"], pending.front());
          pending.erase(pending.begin());
          ++matched;
        }
        if (e["event"] == "assignment") {
          EXPECT_TRUE(pending.empty());
        }
      }
      EXPECT_GT(matched, 0u);
    }
}

// The rules that draw no anchor write exactly the version-3 trace they always did.
TEST(TraceAnchor, FixedAnchorRulesStillWriteVersion3) {
  for (AnchorRule rule : {AnchorRule::opener, AnchorRule::lowest_labelled_row}) {
    const auto ev = events_of(trace_of(anchor_params(rule, Search::unified), 3));
    EXPECT_EQ(ev[0]["version"], 3);
    EXPECT_EQ(count_events(ev, "anchor"), 0u);
  }
}

// A recorded anchor that is not a row known to be in its cluster is illegal: the replay rejects it
// at its own event, naming the rule and the rows it draws from.
TEST(TraceAnchor, AnAnchorOutsideTheRulesRowsIsRejected) {
  for (AnchorRule rule : kRandomRules) {
    auto ev = events_of(trace_of(anchor_params(rule, Search::unified), 5));
    const std::size_t i = first_choice(ev);
    ASSERT_LT(i, ev.size());
    json& a = ev[i];
    std::size_t bad = 0;
    while (std::find(a["candidates"].begin(), a["candidates"].end(), bad) != a["candidates"].end())
      ++bad;
    const std::string b = std::to_string(bad);
    a["row"] = bad;
    ValidationReport r = check_on_squares(ev);
    ASSERT_FALSE(r.conforms) << to_string(rule);
    const std::string& m = r.divergence->message;
    EXPECT_EQ(r.divergence->event, i + 1);
    EXPECT_EQ(r.divergence->what, "row");
    EXPECT_NE(m.find(", found " + b + "; note: row " + b + " drawn as the anchor of cluster " +
                     a["cluster"].dump() + " for row " + a["x"].dump()),
              std::string::npos)
        << m;
    EXPECT_NE(m.find("is not one the rule draws from: anchor=" + std::string(to_string(rule))),
              std::string::npos)
        << m;
    // The same row with the candidates forged to hold it: the candidates differ first.
    a["candidates"].push_back(bad);
    std::sort(a["candidates"].begin(), a["candidates"].end());
    r = check_on_squares(ev);
    ASSERT_FALSE(r.conforms);
    EXPECT_EQ(r.divergence->event, i + 1);
    EXPECT_EQ(r.divergence->what.rfind("candidates", 0), 0u) << r.divergence->message;
    EXPECT_NE(r.divergence->message.find("note: row " + b + " drawn as the anchor"),
              std::string::npos)
        << r.divergence->message;
  }
}

// Replay takes the recorded row: a legal anchor other than the one the reference's own generator
// would have drawn conforms (here an implementation whose anchor is always the first candidate,
// whose law `ssac choices` rejects instead: tests/test_choice_law.cpp), and its queries ask it.
TEST(TraceAnchor, ALegalAnchorIsReplayedAsRecorded) {
  for (AnchorRule rule : kRandomRules) {
    Params P = anchor_params(rule, Search::unified);
    const auto ts = ssac::testing::buggy_traces(
        squares(), kLabels, P, 0.7, {ssac::testing::ChoiceBug::anchor_first, 0.5}, 1, 20);
    std::size_t not_lowest = 0;
    for (const std::string& t : ts) {
      const ValidationReport r = validate_trace(squares(), t, "t.jsonl");
      EXPECT_TRUE(r.conforms) << (r.divergence ? r.divergence->message : "");
      for (const json& e : events_of(t))
        if (e["event"] == "anchor") {
          EXPECT_EQ(e["row"], e["candidates"][0]);
          not_lowest += e["candidates"].size() > 1 ? 1 : 0;
        }
    }
    EXPECT_GT(not_lowest, 0u);  // some draw had a choice, and took the first
  }
}

// An anchor draw missing from the trace, or one where the reference draws none, is a divergence.
TEST(TraceAnchor, AMissingOrAnExtraAnchorEventDiverges) {
  auto ev = events_of(trace_of(anchor_params(AnchorRule::random_known_row, Search::unified), 5));
  const std::size_t i = first_choice(ev);
  ASSERT_LT(i, ev.size());
  auto missing = ev;
  missing.erase(missing.begin() + static_cast<std::ptrdiff_t>(i));
  ValidationReport r = check_on_squares(missing);
  ASSERT_FALSE(r.conforms);
  EXPECT_EQ(r.divergence->event, i + 1);
  EXPECT_NE(r.divergence->message.find("expected a \"anchor\" event"), std::string::npos)
      << r.divergence->message;
  // The opener draws no anchor: the same event in its trace (read as version 4) is extra.
  auto opener = events_of(trace_of(anchor_params(AnchorRule::opener, Search::unified), 5));
  opener[0]["version"] = 4;
  EXPECT_TRUE(check_on_squares(opener).conforms);
  std::size_t q = 0;
  while (!(opener[q]["event"] == "query" && opener[q]["purpose"] == "assignment"))
    ++q;
  json extra = ev[i];
  extra["x"] = opener[q]["x"];
  extra["iteration"] = opener[q]["iteration"];
  opener.insert(opener.begin() + static_cast<std::ptrdiff_t>(q), extra);
  r = check_on_squares(opener);
  ASSERT_FALSE(r.conforms);
  EXPECT_EQ(r.divergence->event, q + 1);
  EXPECT_NE(r.divergence->message.find("found a \"anchor\" event"), std::string::npos)
      << r.divergence->message;
}

// Versions 1 to 3 are read as before: an `anchor` event is not theirs, and a header of theirs that
// names a random anchor rule is refused, since such a trace cannot hold the draws.
TEST(TraceAnchor, EarlierVersionsAreReadAsBefore) {
  auto ev = events_of(trace_of(anchor_params(AnchorRule::random_known_row, Search::unified), 5));
  std::size_t first_anchor = 0;
  while (ev[first_anchor]["event"] != "anchor")
    ++first_anchor;
  for (int v : {1, 2, 3}) {
    // Version 1 with its own words (docs/trace-format.md, "Version 1").
    auto old = v == 1 ? fixtures::as_version_1(ev, "random q=0.6") : ev;
    old[0]["version"] = v;
    EXPECT_EQ(error_of(text_of(old)),
              "t.jsonl:" + std::to_string(first_anchor + 1) + ": unknown event \"anchor\"")
        << v;
    std::erase_if(old, [](const json& e) { return e["event"] == "anchor"; });
    EXPECT_EQ(error_of(text_of(old)),
              "t.jsonl:1: anchor=random-known-row draws anchors the trace does not record; such a "
              "run cannot be replayed")
        << v;
  }
}

// An anchor event is checked against the format like any other: one FILE:LINE error.
TEST(TraceAnchor, AMalformedAnchorEventIsOneError) {
  auto ev = events_of(trace_of(anchor_params(AnchorRule::random_labelled_row, Search::unified), 5));
  std::size_t i = 0;
  while (ev[i]["event"] != "anchor")
    ++i;
  const std::string at = "t.jsonl:" + std::to_string(i + 1) + ": \"anchor\" event: ";
  auto bad = ev;
  bad[i].erase("candidates");
  EXPECT_EQ(error_of(text_of(bad)), at + "missing field \"candidates\"");
  bad = ev;
  bad[i]["row"] = 13;
  EXPECT_EQ(error_of(text_of(bad)), at + "field \"row\" must be a row index in [0, 12)");
  bad[i]["row"] = 12;
  EXPECT_EQ(error_of(text_of(bad)),
            at + "field \"row\" must be a row index in [0, 12) (found 12: rows are numbered from "
                 "0, so a program that numbers them from 1 writes each row minus 1)");
  bad = ev;
  bad[i]["weight"] = 1;
  EXPECT_EQ(error_of(text_of(bad)), at + "unknown field \"weight\"");
}
