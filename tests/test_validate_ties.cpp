// `ssac validate` on what an outside implementation does differently without breaking the paper:
// exact ties in Phase 2's distance order broken otherwise than by row (S6's choice, which the
// paper leaves free) are followed, and the verdict counts them; a "tie" at unequal distances is
// still a divergence. And the messages after a divergence: the argument order of B's queries
// (b-order, S5/S9), the iteration whose Z_p a stray draw of B is checked against, no notes on
// draws the reference takes after the run has left the trace, the phase of cluster.x1, and a
// search_x1 query that differs by a tied or near-tied point.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>

#include "algorithm/run.hpp"
#include "ssac/error.hpp"
#include "ssac/oracle.hpp"
#include "ssac/rules.hpp"
#include "ssac/ssac.hpp"
#include "ssac/trace.hpp"
#include "trace_events.hpp"
#include "trace_fixture.hpp"

using namespace ssac;
using json = nlohmann::ordered_json;

namespace {

using fixtures::squares;
const std::vector<int>& kLabels = fixtures::kSquareLabels;

Params unified(double eta = 3, int beta = 3) {
  Params P;
  P.k = 3;
  P.eta = eta;
  P.beta = beta;
  P.search = Search::unified;
  return P;
}

// The trace of the reference's run on the squares with equal distances ordered by `ties`.
std::string trace_of(const Params& P, std::uint64_t seed, double q, detail::TieOrder ties) {
  RandomWeakOracle oracle(kLabels, q, Rng::stream(seed, {kStreamOracle}));
  UniformChooser chooser(Rng::stream(seed, {kStreamAlgorithm}));
  TraceHeader h;
  h.params = P;
  static const Matrix X = squares();  // the run keeps a reference to its points
  fixtures::TraceText t(X, h);
  detail::Run run(X, oracle, chooser, P, *t.writer);
  run.set_tie_order(ties);
  run.run();
  return t.text;
}

std::string text_of(const std::vector<json>& ev) {
  std::string s;
  for (const json& e : ev)
    s += e.dump() + "\n";
  return s;
}

}  // namespace

// The squares' integer corners put many points of S_i at exactly equal distances from mu'_p. A
// trace made with those ties broken by decreasing row differs from the reference's (S6: by row)
// and is still the paper's algorithm: it conforms, with the ties counted. Without following ties
// the same trace diverges (the negative control: the count is not decoration).
TEST(ValidateTies, ExactTiesBrokenTheOtherWayConformAndAreCounted) {
  const Params P = unified();
  int found = 0;
  for (std::uint64_t seed = 0; seed < 200 && found < 3; ++seed) {
    const std::string other = trace_of(P, seed, 0.6, detail::TieOrder::by_row_reversed);
    if (other == trace_of(P, seed, 0.6, detail::TieOrder::by_row)) continue;
    ++found;
    const ValidationReport rep = validate_trace(squares(), other, "t.jsonl");
    ASSERT_TRUE(rep.conforms) << "seed " << seed << ": " << rep.divergence->message;
    EXPECT_GE(rep.ties, 1u) << "seed " << seed;
    ReplayOptions strict;
    strict.follow_ties = false;
    const ValidationReport no = validate_trace(squares(), other, "t.jsonl", strict);
    ASSERT_FALSE(no.conforms) << "seed " << seed;
    EXPECT_EQ(no.ties, 0u);
    // The reference's own trace has no tie to follow.
    EXPECT_EQ(
        validate_trace(squares(), trace_of(P, seed, 0.6, detail::TieOrder::by_row), "t.jsonl").ties,
        0u);
  }
  EXPECT_EQ(found, 3) << "fewer than 3 seeds below 200 where the tie order changes the trace";
}

// One case, seed 0, with its exact count and the strict replay's exact message: the trace asks
// Q(x_1, x_j) of row 5 where the reference's order has row 6, both at exactly sqrt(10)/4.
TEST(ValidateTies, TheCountAndTheStrictMessageOfOneCase) {
  const Params P = unified();
  const std::string other = trace_of(P, 0, 0.6, detail::TieOrder::by_row_reversed);
  const ValidationReport rep = validate_trace(squares(), other, "t.jsonl");
  ASSERT_TRUE(rep.conforms) << rep.divergence->message;
  EXPECT_EQ(rep.ties, 4u);
  ReplayOptions strict;
  strict.follow_ties = false;
  const ValidationReport no = validate_trace(squares(), other, "t.jsonl", strict);
  ASSERT_FALSE(no.conforms);
  EXPECT_TRUE(no.divergence->near_tie);
  EXPECT_EQ(
      no.divergence->message,
      "event 25 (iteration 1, phase 2, step 2): query: expected Q(7, 6) search_x1 in phase 2, "
      "found Q(7, 5) search_x1 in phase 2; exact tie in the distance order: d(x6, mu'_p) = "
      "0.7905694150420949 and d(x5, mu'_p) = 0.7905694150420949 are equal; the reference "
      "orders equal distances by row (S6)");
}

// A trace that puts at x_1 a point farther from mu'_p than the reference's x_1 is no tie: it is
// not followed, and the divergence is at cluster.x1, in Phase 2 (where x_1 belongs, although the
// cluster event is written as Phase 1 ends).
TEST(ValidateTies, AnUnequalDistanceIsNoTieAndIsReportedInPhase2) {
  const Params P = unified();
  auto ev = fixtures::events_of(trace_of(P, 1, 0.6, detail::TieOrder::by_row));
  json* cluster = nullptr;
  for (json& e : ev)
    if (e["event"] == "cluster") {
      cluster = &e;
      break;
    }
  ASSERT_NE(cluster, nullptr);
  const std::size_t x1 = (*cluster)["x1"].get<std::size_t>();
  // The opposite corner of the same square: sqrt(2) farther along the diagonal at most.
  (*cluster)["x1"] = x1 ^ 3u;
  const ValidationReport rep = validate_trace(squares(), text_of(ev), "t.jsonl");
  ASSERT_FALSE(rep.conforms);
  EXPECT_EQ(rep.ties, 0u);
  EXPECT_EQ(rep.divergence->phase, 2);
  EXPECT_FALSE(rep.divergence->near_tie);
  EXPECT_EQ(rep.divergence->message,
            "event 19 (iteration 1, phase 2): x1: expected 9, found 10; x_1 is the point of S_i "
            "closest to mu'_p (Algorithms 3 and 4): d(x9, mu'_p) = 0.4714045207910321, d(x10, "
            "mu'_p) = 0.9428090415820629");
}

namespace {

// The header of `text` edited by `edit`.
std::string with_header(const std::string& text, const std::function<void(json&)>& edit) {
  auto ev = fixtures::events_of(text);
  edit(ev[0]);
  return text_of(ev);
}

std::string error_of(const std::string& text, const ReplayOptions& o = {}) {
  try {
    validate_trace(squares(), text, "t.jsonl", o);
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

// A run under the paper's rules with b-order=b-first alone, the B queries of Algorithm 4 asked as
// the authors' code asks them; seed 2 draws B (a not-sure Q(x_1, x_j)).
std::string b_first_trace() {
  Params P = unified();
  P.rules.b_first = true;
  return trace_of(P, 2, 0.5, detail::TieOrder::by_row);
}

}  // namespace

// Under the paper's rules a trace that asks B's queries as Q(y, x_j) fails at the first one, and
// the message says it is the same pair reversed, and which rule asks it so.
TEST(ValidateProfile, ReversedBUnderThePaperSaysSamePairReversed) {
  const std::string t = b_first_trace();
  ASSERT_NE(t.find("\"rules\":\"anchor=opener phase2=radius overwrite=off sample-cap=off "
                   "self-pairs=on empty-recovers=off elimination=on b-order=b-first\""),
            std::string::npos);
  ASSERT_TRUE(validate_trace(squares(), t, "t.jsonl").conforms);
  const std::string bare = with_header(t, [](json& h) {
    h.erase("semantics");
    h.erase("rules");
  });
  // The expected message, from the trace: its first query of B with x != y, and its step.
  const auto ev = fixtures::events_of(bare);
  std::size_t line = 0;
  int step = 1;
  for (std::size_t i = 0; i < ev.size() && !line; ++i) {
    if (ev[i]["event"] == "iteration") step = 1;
    if (ev[i]["event"] == "step") ++step;
    if (ev[i]["event"] == "query" && ev[i]["purpose"] == "search_sample" &&
        ev[i]["x"] != ev[i]["y"])
      line = i + 1;
  }
  ASSERT_GT(line, 0u);
  const json& q = ev[line - 1];
  const std::string x = q["x"].dump(), y = q["y"].dump();
  const ValidationReport rep = validate_trace(squares(), bare, "t.jsonl");
  ASSERT_FALSE(rep.conforms);
  EXPECT_EQ(rep.profile, "");
  EXPECT_EQ(rep.divergence->message,
            "event " + std::to_string(line) + " (iteration " + q["iteration"].dump() +
                ", phase 2, step " + std::to_string(step) + "): query: expected Q(" + y + ", " + x +
                ") search_sample in phase 2, found Q(" + x + ", " + y +
                ") search_sample in phase 2; same pair, reversed: Algorithm 4, line 10 asks "
                "Q(x_j, y) for y in B (S5); the authors' code asks Q(y, x_j), the rule "
                "b-order=b-first of the authors-code profile (the oracles are symmetric, but a "
                "trace is compared as asked)");
  // Given the rule on the command line (ssac validate --rule b-order=b-first), it conforms.
  ReplayOptions o;
  o.profile = paper_profile();
  o.profile->rules.b_first = true;
  const ValidationReport given = validate_trace(squares(), bare, "t.jsonl", o);
  EXPECT_TRUE(given.conforms);
  EXPECT_EQ(given.profile,
            "custom rules anchor=opener phase2=radius overwrite=off sample-cap=off self-pairs=on "
            "empty-recovers=off elimination=on b-order=b-first");
}

// A header that names a profile without rules is replayed under the whole profile, and says so.
TEST(ValidateProfile, SemanticsAloneIsTheWholeProfile) {
  const Profile a = authors_code_profile();
  Params P = unified();
  P.rules = a.rules;
  P.elimination = a.elimination;
  P.oracle_clusters = 3;
  const std::string t = trace_of(P, 2, 0.5, detail::TieOrder::by_row);
  ASSERT_NE(t.find("search_sample"), std::string::npos);
  const std::string named = with_header(t, [](json& h) { h.erase("rules"); });
  const ValidationReport rep = validate_trace(squares(), named, "t.jsonl");
  EXPECT_TRUE(rep.conforms) << rep.divergence->message;
  EXPECT_EQ(rep.profile, "authors-code");
  // Named nowhere, it is the paper's, which it is not.
  const std::string none = with_header(named, [](json& h) { h.erase("semantics"); });
  EXPECT_FALSE(validate_trace(squares(), none, "t.jsonl").conforms);
  ReplayOptions o;
  o.profile = a;  // the rows rule of the profile is not a trace's: it is dropped
  EXPECT_TRUE(validate_trace(squares(), none, "t.jsonl", o).conforms);
  // The flag and the header disagree: one line, naming both.
  ReplayOptions paper;
  paper.profile = paper_profile();
  EXPECT_EQ(error_of(named, paper),
            "t.jsonl:1: the header names the rules \"anchor=lowest-labelled-row phase2=prefix "
            "overwrite=on sample-cap=on self-pairs=on empty-recovers=on elimination=off "
            "b-order=b-first\" but --semantics/--rule give \"anchor=opener phase2=radius "
            "overwrite=off sample-cap=off self-pairs=on empty-recovers=off elimination=on\"; "
            "give neither, or the same");
  EXPECT_EQ(error_of(none, paper),
            "t.jsonl:1: \"assignment\" is \"code\" but --semantics/--rule give elimination=on");
  EXPECT_EQ(error_of(with_header(named, [](json& h) { h["assignment"] = "paper"; })),
            "t.jsonl:1: \"semantics\" = \"authors-code\" has elimination=off but \"assignment\" "
            "is \"paper\"");
  EXPECT_EQ(error_of(with_header(named, [](json& h) { h["semantics"] = "custom"; })),
            "t.jsonl:1: \"semantics\" = \"custom\" names no rules; spell them out in \"rules\"");
}

// "rules" has one spelling, the schema's: every rule once, in describe()'s order.
TEST(ValidateProfile, RulesMustBeInTheSchemasForm) {
  const std::string t = b_first_trace();
  EXPECT_EQ(error_of(with_header(t,
                                 [](json& h) {
                                   h["rules"] =
                                       "phase2=radius anchor=opener overwrite=off sample-cap=off "
                                       "self-pairs=on empty-recovers=off elimination=on "
                                       "b-order=b-first";
                                 })),
            "t.jsonl:1: \"rules\" = \"phase2=radius anchor=opener overwrite=off sample-cap=off "
            "self-pairs=on empty-recovers=off elimination=on b-order=b-first\" is not in the "
            "format's form \"anchor=opener phase2=radius overwrite=off sample-cap=off "
            "self-pairs=on empty-recovers=off elimination=on b-order=b-first\" (every rule once, "
            "in this order: docs/trace-format.md, \"Header\")");
  // A rule left out is not silently the paper's.
  EXPECT_NE(error_of(with_header(t, [](json& h) { h["rules"] = "anchor=opener b-order=b-first"; }))
                .find("is not in the format's form"),
            std::string::npos);
  // The paper's b-order is spelled by leaving it out.
  EXPECT_NE(error_of(with_header(t,
                                 [](json& h) {
                                   h["rules"] =
                                       "anchor=opener phase2=radius overwrite=off sample-cap=off "
                                       "self-pairs=on empty-recovers=off elimination=on "
                                       "b-order=xj-first";
                                 }))
                .find("is not in the format's form"),
            std::string::npos);
  EXPECT_EQ(error_of(with_header(t, [](json& h) { h["version"] = 2; })),
            "t.jsonl:1: b-order=b-first is a rule of trace versions 3 and 4; a version 2 header "
            "cannot name it");
}

// A draw of B that is not in Z_p is checked against the Z_p of the draw's own iteration.
TEST(ValidateMessages, AStrayDrawOfBNamesItsIterationsZp) {
  auto ev = fixtures::events_of(trace_of(unified(), 2, 0.5, detail::TieOrder::by_row));
  // Z_p of each iteration from the trace: the sample's rows whose cluster is p.
  std::map<int, std::set<std::size_t>> zp;
  std::map<int, json> sample, assignment;
  for (json& e : ev) {
    const std::string k = e["event"].get<std::string>();
    if (k == "sample") sample[e["iteration"].get<int>()] = e["rows"];
    if (k == "assignment") assignment[e["iteration"].get<int>()] = e["clusters"];
    if (k == "cluster") {
      const int i = e["iteration"].get<int>();
      for (std::size_t d = 0; d < sample[i].size(); ++d)
        if (assignment[i][d] == e["p"]) zp[i].insert(sample[i][d].get<std::size_t>());
    }
  }
  // The last iteration's first draw of B becomes a row outside its Z_p, in the query and the step.
  std::size_t qline = 0, sline = 0;
  for (std::size_t i = 0; i < ev.size(); ++i) {
    if (ev[i]["event"] == "query" && ev[i]["purpose"] == "search_sample" && !qline) qline = i;
    if (ev[i]["event"] == "step" && qline && !sline) sline = i;
  }
  ASSERT_GT(sline, 0u);
  const int it = ev[sline]["iteration"].get<int>();
  std::size_t stray = 0;
  while (zp[it].count(stray))
    ++stray;
  const std::size_t was = ev[sline]["sample"][0].get<std::size_t>();
  ev[sline]["sample"][0] = stray;
  ev[qline][ev[qline]["x"] == was ? "x" : "y"] = stray;
  std::string set;
  for (std::size_t r : zp[it])
    set += (set.empty() ? "" : ", ") + std::to_string(r);
  const ValidationReport rep = validate_trace(squares(), text_of(ev), "t.jsonl");
  ASSERT_FALSE(rep.conforms);
  const std::string note = "; note: row " + std::to_string(stray) + " drawn into B in iteration " +
                           std::to_string(it) + " is not in Z_p = {" + set +
                           "} (B is sampled from Z_p, Algorithms 2 and 4)";
  const std::string& m = rep.divergence->message;
  ASSERT_GE(m.size(), note.size());
  EXPECT_EQ(m.substr(m.size() - note.size()), note) << m;
  EXPECT_EQ(m.rfind("event " + std::to_string(qline + 1) + " (iteration " + std::to_string(it) +
                        ", phase 2, step ",
                    0),
            0u)
      << m;
}

// After the first divergence the reference no longer follows the trace: the draws it then takes
// (out of Z_p, or beyond the trace's last) say nothing about the trace, and are not noted.
TEST(ValidateMessages, NoNotesOnDrawsAfterTheDivergence) {
  int diverged = 0;
  for (std::uint64_t seed = 0; seed < 40; ++seed) {
    auto ev = fixtures::events_of(trace_of(unified(), seed, 0.5, detail::TieOrder::by_row));
    // The first Phase-1 query asks another anchor: the run parts there.
    for (json& e : ev)
      if (e["event"] == "query" && e["phase"] == 1) {
        e["y"] = (e["y"].get<std::size_t>() + 4) % 12;
        break;
      }
    const ValidationReport rep = validate_trace(squares(), text_of(ev), "t.jsonl");
    if (rep.conforms) continue;
    ++diverged;
    EXPECT_EQ(rep.divergence->message.find("note:"), std::string::npos)
        << "seed " << seed << ": " << rep.divergence->message;
  }
  EXPECT_GE(diverged, 30);
}

// A search_x1 query whose x_j differs from the reference's by a point at nearly the same distance
// is named a near-tie (the query comes before the step that would show the row).
TEST(ValidateMessages, ASearchX1QueryAtANearTieSaysSo) {
  Matrix X(4, 1);
  X << 0.0, 1.0, 1.0 + 1e-12, 10.0;
  PerfectOracle oracle({1, 1, 1, 2});
  TraceHeader h;
  h.params.k = 2;
  h.params.eta = 1;
  h.params.beta = 1;
  h.params.search = Search::distance;
  fixtures::TraceText t(X, h);
  run_ssac(X, oracle, h.params, 7, t.writer.get());
  auto ev = fixtures::events_of(t.text);
  bool swapped = false;
  for (json& e : ev) {
    const bool q = e["event"] == "query" && e["purpose"] == "search_x1";
    const char* f = q ? "y" : "row";
    if ((q || e["event"] == "step") && (e[f] == 1 || e[f] == 2) && (!swapped || !q)) {
      e[f] = e[f] == 1 ? 2 : 1;
      if (!q) break;
      swapped = true;
    }
  }
  ASSERT_TRUE(swapped);
  const ValidationReport rep = validate_trace(X, text_of(ev), "t.jsonl");
  ASSERT_FALSE(rep.conforms);
  EXPECT_TRUE(rep.divergence->near_tie);
  EXPECT_EQ(rep.divergence->message,
            "event 7 (iteration 1, phase 2, step 1): query: expected Q(3, 2) search_x1 in phase 2, "
            "found Q(3, 1) search_x1 in phase 2; near-tie in the distance order: d(x2, mu'_p) = "
            "8.999999999999 and d(x1, mu'_p) = 9 are within the tolerance; the reference orders "
            "S_i by distance, ties by row (S6)");
}

// At cluster.x1 an exact tie and a near tie get the words a query's row gets: the strict replay
// (ties not followed) of a trace with ties broken by decreasing row, on the first seed where x_1
// is where it diverges, says the distances are equal and that the reference orders them by row.
TEST(ValidateTies, AnExactTieAtX1IsNamedAsAtAQuery) {
  const Params P = unified();
  ReplayOptions strict;
  strict.follow_ties = false;
  for (std::uint64_t seed = 0; seed < 200; ++seed) {
    const std::string other = trace_of(P, seed, 0.6, detail::TieOrder::by_row_reversed);
    const ValidationReport rep = validate_trace(squares(), other, "t.jsonl", strict);
    if (rep.conforms || rep.divergence->what != "x1") continue;
    EXPECT_TRUE(rep.divergence->near_tie);
    EXPECT_EQ(rep.divergence->message,
              "event 102 (iteration 3, phase 2): x1: expected 6, found 7; exact tie in the "
              "distance order: d(x6, mu'_p) = 0.625 and d(x7, mu'_p) = 0.625 are equal; the "
              "reference orders equal distances by row (S6)");
    // Followed, the same trace conforms: the tie is the trace's to break.
    EXPECT_TRUE(validate_trace(squares(), other, "t.jsonl").conforms) << "seed " << seed;
    return;
  }
  FAIL() << "no seed below 200 whose strict replay diverges at x1";
}

// A trace written by a program that numbers from the other end: positions from 1 (lo, hi, j of
// every step one more), iterations from 0. The first divergence names the numbering; a lo off by
// one where the reference's is not 0 gets no such hint (it is no mark of numbering).
TEST(ValidateMessages, NumberingFromTheOtherEndIsNamed) {
  const std::string text = trace_of(unified(), 0, 0.6, detail::TieOrder::by_row);
  auto shifted = fixtures::events_of(text);
  for (json& e : shifted)
    if (e["event"] == "step")
      for (const char* f : {"lo", "hi", "j"})
        e[f] = e[f].get<std::size_t>() + 1;
  const ValidationReport pos = validate_trace(squares(), text_of(shifted), "t.jsonl");
  ASSERT_FALSE(pos.conforms);
  EXPECT_EQ(pos.divergence->what, "lo");
  const std::string& m = pos.divergence->message;
  EXPECT_NE(m.find(": lo: expected 0, found 1; positions in the order of S_i (lo, hi, j, j_star) "
                   "are numbered from 0"),
            std::string::npos)
      << m;
  auto from0 = fixtures::events_of(text);
  for (json& e : from0)
    if (e.contains("iteration")) e["iteration"] = e["iteration"].get<int>() - 1;
  const ValidationReport it = validate_trace(squares(), text_of(from0), "t.jsonl");
  ASSERT_FALSE(it.conforms);
  EXPECT_EQ(it.divergence->message,
            "event 2 (iteration 1): iteration: expected 1, found 0; iterations and steps are "
            "numbered from 1");
  // The control: a later step's lo one more than the reference's nonzero lo.
  auto later = fixtures::events_of(text);
  bool edited = false;
  for (json& e : later)
    if (e["event"] == "step" && e["lo"].get<std::size_t>() > 0) {
      e["lo"] = e["lo"].get<std::size_t>() + 1;
      edited = true;
      break;
    }
  ASSERT_TRUE(edited);
  const ValidationReport ctl = validate_trace(squares(), text_of(later), "t.jsonl");
  ASSERT_FALSE(ctl.conforms);
  EXPECT_EQ(ctl.divergence->message.find("numbered from"), std::string::npos)
      << ctl.divergence->message;
}
