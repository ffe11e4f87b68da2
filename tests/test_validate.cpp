// `ssac validate` must catch the mistakes real implementations make. Each test takes correct
// reference traces and introduces one mistake -- either by running the reference with one of its
// negative-control faults (lib/testing/) or, for mistakes the reference cannot make, by editing
// the trace at the first event the faulty implementation would write differently (its trace
// agrees with the correct one up to there, because it gets the same draws and answers) -- and
// checks that the replay rejects the trace at that step with a message naming it.
// (Over 400 lines: one test per mistake, each short, sharing the run and edit helpers above them.)
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <string>

#include "ssac/oracle.hpp"
#include "ssac/ssac.hpp"
#include "ssac/testing/negative_controls.hpp"
#include "ssac/trace.hpp"
#include "trace_events.hpp"
#include "trace_fixture.hpp"

using namespace ssac;
using json = nlohmann::ordered_json;

namespace {

using fixtures::square_params;
using fixtures::squares;
using ssac::testing::Fault;
const std::vector<int>& kLabels = fixtures::kSquareLabels;

// A run of the (possibly faulty) reference, written as a trace that claims the correct algorithm.
// `self_pairs` false runs under self-pairs=off (S4's former rule), which the header then names.
std::vector<json> run(Search s, std::uint64_t seed, Fault f = Fault::none, double q = 0.6,
                      bool self_pairs = true) {
  RandomWeakOracle oracle(kLabels, q, Rng::stream(seed, {kStreamOracle}));
  TraceHeader h;
  h.params = square_params(s);
  h.params.rules.self_pairs = self_pairs;
  fixtures::TraceText t(squares(), h);
  ssac::testing::run_ssac_with_fault(squares(), oracle, h.params, seed, f, t.writer.get());
  return fixtures::events_of(t.text);
}

ValidationReport check(const std::vector<json>& ev) {
  return fixtures::check_on_squares(ev);
}

std::string at(std::size_t line, int iteration, int phase) {
  return "event " + std::to_string(line) + " (iteration " + std::to_string(iteration) + ", phase " +
         std::to_string(phase);
}

}  // namespace

TEST(Validate, OffByOneInTheBinarySearchIsCaughtAtJStar) {
  // Fault: j* + 1, i.e. the radius of the next point in the order.
  const auto ev = run(Search::unified, 1, Fault::off_by_one_search);
  const auto rep = check(ev);
  ASSERT_FALSE(rep.conforms);
  EXPECT_EQ(ev[rep.divergence->event - 1]["event"], "outcome");
  EXPECT_EQ(rep.divergence->what, "j_star");
  EXPECT_EQ(rep.divergence->phase, 2);
  EXPECT_NE(rep.divergence->message.find(at(rep.divergence->event, rep.divergence->iteration, 2)),
            std::string::npos);
}

TEST(Validate, WrongX1IsCaughtAtTheClusterEvent) {
  // Fault::wrong_x1: Algorithms 3/4 take the point farthest from mu'_p as x_1.
  const auto ev = run(Search::distance, 2, Fault::wrong_x1);
  const auto rep = check(ev);
  ASSERT_FALSE(rep.conforms);
  EXPECT_EQ(rep.divergence->what, "x1");
  EXPECT_EQ(rep.divergence->iteration, 1);
  EXPECT_NE(rep.divergence->message.find("x_1 is the point of S_i closest to mu'_p"),
            std::string::npos)
      << rep.divergence->message;
}

TEST(Validate, MeanOverAllSampledPointsIsCaughtAtTheCenter) {
  // Needs an iteration whose Z holds points outside Z_p, or the two means agree.
  for (std::uint64_t seed = 0; seed < 50; ++seed) {
    const auto rep = check(run(Search::unified, seed, Fault::mean_over_all_samples));
    if (rep.conforms) continue;
    EXPECT_EQ(rep.divergence->what.rfind("center[", 0), 0u) << rep.divergence->message;
    EXPECT_EQ(rep.divergence->phase, 1);
    return;
  }
  FAIL() << "no seed gave Z != Z_p";
}

TEST(Validate, BSampledFromAllOfZIsCaughtAtTheQuery) {
  // The faulty implementation draws y from Z: the first draw of B outside Z_p changes the query
  // it asks; everything before it is what the correct implementation writes.
  for (std::uint64_t seed = 0; seed < 50; ++seed) {
    auto ev = run(Search::random, seed);
    for (std::size_t e = 2; e + 2 < ev.size(); ++e) {
      // An assignment event followed by a cluster event and the first query of B.
      if (ev[e]["event"] != "assignment" || ev[e + 1]["event"] != "cluster" ||
          ev[e + 2]["event"] != "query" || ev[e + 2]["purpose"] != "search_sample")
        continue;
      std::size_t s = e;
      while (ev[s]["event"] != "sample")
        --s;
      const json& rows = ev[s]["rows"];
      const json& clusters = ev[e]["clusters"];
      const json p = ev[e + 1]["p"];
      std::optional<std::size_t> outside;  // a point of Z \ Z_p
      for (std::size_t d = 0; d < rows.size() && !outside; ++d)
        if (clusters[d] != p && rows[d] != ev[e + 2]["y"]) outside = rows[d].get<std::size_t>();
      if (!outside) continue;
      ev[e + 2]["x"] = *outside;  // Q(y, x_j) with y drawn from all of Z
      const auto rep = check(ev);
      ASSERT_FALSE(rep.conforms);
      EXPECT_EQ(rep.divergence->event, e + 3);
      EXPECT_EQ(rep.divergence->what, "query");
      EXPECT_NE(rep.divergence->message.find("step 1"), std::string::npos);
      EXPECT_EQ(rep.divergence->phase, 2);
      return;
    }
  }
  FAIL() << "no seed gave a first draw of B with a point of Z outside Z_p available";
}

TEST(Validate, NonStrictInequalityInCpIsCaughtAtTheAssignedRows) {
  auto ev = run(Search::unified, 0, Fault::none, 1.0);
  for (std::size_t e = 0; e < ev.size(); ++e) {
    if (ev[e]["event"] != "outcome" || !ev[e]["radius"].is_number()) continue;
    // d(x, mu'_p) <= r'_i also takes x_{j*} itself: the point probed last and judged out.
    std::size_t s = e;
    while (ev[s]["event"] != "step")
      --s;
    auto rows = ev[e]["assigned"].get<std::vector<std::size_t>>();
    std::size_t xj = 0;
    for (std::size_t t = s;; --t)
      if (ev[t]["event"] == "step" && ev[t]["decision"] == "out") {
        xj = ev[t]["row"].get<std::size_t>();
        break;
      }
    rows.push_back(xj);
    std::sort(rows.begin(), rows.end());
    ev[e]["assigned"] = rows;
    const auto rep = check(ev);
    ASSERT_FALSE(rep.conforms);
    EXPECT_EQ(rep.divergence->event, e + 1);
    EXPECT_EQ(rep.divergence->what, "assigned");
    EXPECT_FALSE(rep.divergence->near_tie);
    EXPECT_NE(rep.divergence->message.find("is strict"), std::string::npos)
        << rep.divergence->message;
    return;
  }
  FAIL() << "no finite radius in the trace";
}

TEST(Validate, NotSureTreatedAsYesIsCaughtAtTheDecision) {
  for (std::uint64_t seed = 0; seed < 50; ++seed) {
    auto ev = run(Search::distance, seed, Fault::none, 0.5);
    for (std::size_t e = 0; e < ev.size(); ++e) {
      if (ev[e]["event"] != "step" || ev[e]["x1_answer"] != "not-sure") continue;
      ev[e]["decision"] = "in";  // Algorithm 3 line 5: only Q(x_1, x_j) = 1 means in
      const auto rep = check(ev);
      ASSERT_FALSE(rep.conforms);
      EXPECT_EQ(rep.divergence->event, e + 1);
      EXPECT_EQ(rep.divergence->what, "decision");
      EXPECT_NE(rep.divergence->message.find("expected \"out\", found \"in\"; Q(x_1, x_j) = "
                                             "not-sure"),
                std::string::npos)
          << rep.divergence->message;
      return;
    }
  }
  FAIL() << "no step with a not-sure Q(x_1, x_j)";
}

TEST(Validate, NearTieInTheDistanceOrderIsReportedAsSuch) {
  // Two points at distances from mu'_p that differ by far less than the tolerance; a trace that
  // orders them the other way diverges with a near-tie message, not a plain mismatch.
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
  std::istringstream in(t.text);
  std::vector<json> ev;
  for (std::string line; std::getline(in, line);)
    ev.push_back(json::parse(line));
  std::string text;
  bool swapped = false;
  for (json& e : ev) {
    if (!swapped && e["event"] == "step" && (e["row"] == 1 || e["row"] == 2)) {
      e["row"] = e["row"] == 1 ? 2 : 1;
      swapped = true;
    }
    text += e.dump() + "\n";
  }
  ASSERT_TRUE(swapped);
  // The query for the swapped step comes first when one was asked; use the step itself.
  const auto rep = validate_trace(X, text, "t.jsonl");
  ASSERT_FALSE(rep.conforms);
  if (rep.divergence->what == "row") {
    EXPECT_TRUE(rep.divergence->near_tie);
    EXPECT_NE(rep.divergence->message.find("near-tie in the distance order"), std::string::npos);
  } else {
    FAIL() << rep.divergence->message;
  }
}

// Structural mistakes: the replay names the rule an extra or missing query, or a Phase-1 choice,
// most likely broke. Each trace is a reference trace edited as the faulty implementation would
// have written it from the point where it parts from the reference.
namespace {

json query_event(const json& step, const char* purpose, const json& x, const json& y,
                 const json& answer) {
  json q;
  q["event"] = "query";
  q["iteration"] = step["iteration"];
  q["phase"] = 2;
  q["purpose"] = purpose;
  q["x"] = x;
  q["y"] = y;
  q["answer"] = answer;
  return q;
}

bool names(const ValidationReport& rep, const std::string& text) {
  return !rep.conforms && rep.divergence->message.find(text) != std::string::npos;
}

}  // namespace

TEST(ValidateDiagnosis, SelfPairAskedUnderSelfPairsOffIsNamed) {
  // Algorithm 2 with a draw of B equal to x_j under self-pairs=off: taken as yes without a query;
  // the faulty implementation asks Q(x_j, x_j) where the draw falls among the step's queries.
  for (std::uint64_t seed = 0; seed < 100; ++seed) {
    auto ev = run(Search::random, seed, Fault::none, 0.6, false);
    for (std::size_t e = 0; e < ev.size(); ++e) {
      if (ev[e]["event"] != "step") continue;
      const json& B = ev[e]["sample"];
      for (std::size_t s = 0; s < B.size(); ++s) {
        if (B[s] != ev[e]["row"]) continue;
        std::size_t later = 0;  // queries asked for draws after s
        for (std::size_t u = s + 1; u < B.size(); ++u)
          later += B[u] != ev[e]["row"];
        const std::size_t at_event = e - later;
        ev.insert(ev.begin() + static_cast<std::ptrdiff_t>(at_event),
                  query_event(ev[e], "search_sample", B[s], B[s], "yes"));
        const auto rep = check(ev);
        ASSERT_FALSE(rep.conforms);
        EXPECT_EQ(rep.divergence->event, at_event + 1);
        EXPECT_TRUE(names(rep, "under self-pairs=off a self-pair is taken as yes and never asked"))
            << rep.divergence->message;
        return;
      }
    }
  }
  FAIL() << "no draw of B equal to x_j";
}

TEST(ValidateDiagnosis, SelfPairNotAskedIsNamed) {
  // The default asks self-pairs (S4); an implementation of the former rule, which takes Q(x, x) as
  // yes without asking, writes no query where the reference asks one (here Phase 1's query of a
  // re-drawn anchor about itself, or a draw of B equal to x_j).
  for (std::uint64_t seed = 0; seed < 100; ++seed) {
    auto ev = run(Search::random, seed);
    for (std::size_t e = 0; e < ev.size(); ++e) {
      if (ev[e]["event"] != "query" || ev[e]["x"] != ev[e]["y"]) continue;
      ev.erase(ev.begin() + static_cast<std::ptrdiff_t>(e));
      const auto rep = check(ev);
      ASSERT_FALSE(rep.conforms);
      EXPECT_EQ(rep.divergence->event, e + 1);
      EXPECT_TRUE(names(rep, "self-pairs are asked like any pair (S4)")) << rep.divergence->message;
      return;
    }
  }
  FAIL() << "no self-pair asked";
}

TEST(ValidateDiagnosis, BetaInsteadOfBetaMinusOneDrawsInAlgorithm4IsNamed) {
  for (std::uint64_t seed = 0; seed < 100; ++seed) {
    auto ev = run(Search::unified, seed, Fault::none, 0.5);
    for (std::size_t e = 0; e < ev.size(); ++e) {
      if (ev[e]["event"] != "step" || ev[e]["x1_answer"] != "not-sure") continue;
      json& step = ev[e];
      std::optional<std::size_t> d;  // a draw of B other than x_j, asked again as the beta-th
      for (std::size_t s = 0; s < step["sample"].size() && !d; ++s)
        if (step["sample"][s] != step["row"]) d = s;
      if (!d) continue;
      const json y = step["sample"][*d], answer = step["sample_answers"][*d];
      step["sample"].push_back(y);
      step["sample_answers"].push_back(answer);
      ev.insert(ev.begin() + static_cast<std::ptrdiff_t>(e),
                query_event(step, "search_sample", step["row"], y, answer));
      const auto rep = check(ev);
      ASSERT_FALSE(rep.conforms);
      EXPECT_EQ(rep.divergence->event, e + 1);
      EXPECT_TRUE(names(rep,
                        "Algorithm 4, line 9 draws beta - 1 = 2 points of B after a "
                        "not-sure Q(x_1, x_j), the trace's step draws 3"))
          << rep.divergence->message;
      return;
    }
  }
  FAIL() << "no not-sure Q(x_1, x_j) with a draw of B other than x_j";
}

TEST(ValidateDiagnosis, StoppingAfterTheFirstYesInDefinition4IsNamed) {
  for (std::uint64_t seed = 0; seed < 100; ++seed) {
    auto ev = run(Search::random, seed);
    for (std::size_t e = 0; e + 1 < ev.size(); ++e) {
      const json& q = ev[e];
      if (q["event"] != "query" || q["purpose"] != "assignment" || q["answer"] != "yes" ||
          ev[e + 1]["event"] != "query" || ev[e + 1]["x"] != q["x"] || ev[e + 1]["y"] == q["y"])
        continue;
      // Drop the queries of this draw after the yes (at most k - 1 anchors follow).
      std::size_t end = e + 1;
      while (end < ev.size() && end < e + 3 && ev[end]["event"] == "query" &&
             ev[end]["purpose"] == "assignment" && ev[end]["x"] == q["x"] && ev[end]["y"] != q["y"])
        ++end;
      ev.erase(ev.begin() + static_cast<std::ptrdiff_t>(e + 1),
               ev.begin() + static_cast<std::ptrdiff_t>(end));
      const auto rep = check(ev);
      ASSERT_FALSE(rep.conforms);
      EXPECT_EQ(rep.divergence->event, e + 2);
      EXPECT_TRUE(names(rep,
                        "Definition 4 asks Q(x, y_t) of every known anchor y_t, also after "
                        "a yes (S2, rule 2)"))
          << rep.divergence->message;
      return;
    }
  }
  FAIL() << "no yes followed by a query of the same draw";
}

TEST(ValidateDiagnosis, MissingEliminationIsNamed) {
  // Walk each Phase 1 as the reference asks it (S2): a draw that is an anchor (under the paper's
  // rule the opener of its cluster) asks nothing, any other draw asks every known anchor. A draw
  // with k - 1 no and one not-sure among all k anchors is assigned by elimination; the faulty
  // implementation leaves it 0.
  for (std::uint64_t seed = 0; seed < 200; ++seed) {
    auto ev = run(Search::unified, seed, Fault::none, 0.6);
    std::vector<json> anchors;
    for (std::size_t e = 0; e < ev.size(); ++e) {
      if (ev[e]["event"] != "sample") continue;
      std::size_t qi = e + 1;  // the next Phase-1 query
      std::size_t a = e + 1;   // the assignment event
      while (ev[a]["event"] != "assignment")
        ++a;
      const json& rows = ev[e]["rows"];
      for (std::size_t d = 0; d < rows.size(); ++d) {
        if (std::find(anchors.begin(), anchors.end(), rows[d]) != anchors.end()) continue;
        const std::size_t known = anchors.size();
        int no = 0, unsure = 0;
        for (std::size_t t = 0; t < known; ++t, ++qi) {
          no += ev[qi]["answer"] == "no";
          unsure += ev[qi]["answer"] == "not-sure";
        }
        const int label = ev[a]["clusters"][d].get<int>();
        if (label == static_cast<int>(known) + 1) anchors.push_back(rows[d]);
        if (known == 3 && no == 2 && unsure == 1 && label != 0) {
          ev[a]["clusters"][d] = 0;
          const auto rep = check(ev);
          ASSERT_FALSE(rep.conforms);
          EXPECT_EQ(rep.divergence->event, a + 1);
          EXPECT_TRUE(names(rep, "elimination gives cluster " + std::to_string(label) +
                                     ", whose anchor answered not-sure (S2, rule 5)"))
              << rep.divergence->message;
          return;
        }
      }
    }
  }
  FAIL() << "no draw assigned by elimination";
}

TEST(ValidateDiagnosis, ATieInTheArgmaxBrokenTheOtherWayIsNamed) {
  for (std::uint64_t seed = 0; seed < 200; ++seed) {
    auto ev = run(Search::unified, seed, Fault::none, 0.6);
    for (std::size_t e = 1; e < ev.size(); ++e) {
      if (ev[e]["event"] != "cluster" || ev[e - 1]["event"] != "assignment") continue;
      std::map<int, int> size;
      for (const json& t : ev[e - 1]["clusters"])
        ++size[t.get<int>()];
      const int p = ev[e]["p"].get<int>();
      for (const auto& [t, c] : size) {
        if (t <= p || c != size[p]) continue;
        ev[e]["p"] = t;  // the later-discovered of two clusters of equal |Z_t|
        const auto rep = check(ev);
        ASSERT_FALSE(rep.conforms);
        EXPECT_EQ(rep.divergence->event, e + 1);
        EXPECT_EQ(rep.divergence->what, "p");
        EXPECT_TRUE(names(rep,
                          "tie: ties in p = argmax_t |Z_t| go to the earliest-discovered "
                          "cluster, the smallest number (S7)"))
            << rep.divergence->message;
        return;
      }
    }
  }
  FAIL() << "no tie in argmax |Z_t|";
}

// Algorithm 1, line 1 draws r = ceil(k eta). An implementation that takes floor(k eta) draws one
// point fewer whenever k eta is not an integer: here k = 3, eta = 2.5, k eta = 7.5, r = 8, and its
// run is the reference's run with 7 draws per iteration (made with eta = 2.25, ceil(6.75) = 7),
// under the header of eta = 2.5. Its trace says so either in the header's r or, with the header's
// r written correctly, in the length of every Phase-1 sample.
TEST(ValidateDiagnosis, FloorOfKEtaIsNamedInTheHeaderOrAtTheSample) {
  Matrix X(12, 1);
  X << 0, 1, 2, 3, 10, 11, 12, 13, 20, 21, 22, 23;
  const std::vector<int> labels = {1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3};
  PerfectOracle oracle(labels);
  TraceHeader h;
  h.params.k = 3;
  h.params.eta = 2.25;  // the floor implementation's 7 draws
  h.params.beta = 2;
  h.params.search = Search::unified;
  fixtures::TraceText t(X, h);
  run_ssac(X, oracle, h.params, 1, t.writer.get());
  auto ev = fixtures::events_of(t.text);
  ASSERT_EQ(ev[2]["event"], "sample");
  ASSERT_EQ(ev[2]["rows"].size(), 7u);
  ev[0]["eta"] = 2.5;
  // Its own r in the header: refused at event 1, naming the rounding.
  ev[0]["r"] = 7;
  auto rep = validate_trace(X, fixtures::text_of(ev), "t.jsonl");
  ASSERT_FALSE(rep.conforms);
  EXPECT_EQ(rep.divergence->message,
            "event 1 (header): r: expected 8 = ceil(k eta), found 7; Algorithm 1, line 1 draws "
            "r = ceil(k eta) = 8 points (k eta = 7.5): 7 = floor(k eta)");
  // The correct r in the header, 7 draws in the sample: the first sample is the divergence, and
  // the notes on draws that then run out or land elsewhere (consequences) are not given.
  ev[0]["r"] = 8;
  rep = validate_trace(X, fixtures::text_of(ev), "t.jsonl");
  ASSERT_FALSE(rep.conforms);
  EXPECT_EQ(rep.divergence->event, 3u);
  EXPECT_EQ(rep.divergence->what, "rows (length 8 vs 7)");
  EXPECT_TRUE(names(rep,
                    "; the sample has 7 draws; Algorithm 1 line 1 draws r = ceil(k eta) = 8 (k eta "
                    "= 7.5, and 7 = floor(k eta))"))
      << rep.divergence->message;
  EXPECT_FALSE(names(rep, "no more draws of B")) << rep.divergence->message;
  EXPECT_FALSE(names(rep, "note:")) << rep.divergence->message;
}
