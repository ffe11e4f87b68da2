// `ssac validate` must catch the mistakes real implementations make. Each test takes correct
// reference traces and introduces one mistake -- either by running the reference with one of its
// negative-control faults (lib/testing/) or, for mistakes the reference cannot make, by editing
// the trace at the first event the faulty implementation would write differently (its trace
// agrees with the correct one up to there, because it gets the same draws and answers) -- and
// checks that the replay rejects the trace at that step with a message naming it.
#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <string>

#include "ssac/oracle.hpp"
#include "ssac/rules.hpp"
#include "ssac/ssac.hpp"
#include "ssac/testing/negative_controls.hpp"
#include "ssac/trace.hpp"
#include "trace_fixture.hpp"

using namespace ssac;
using json = nlohmann::ordered_json;

namespace {

using fixtures::squares;
using ssac::testing::Fault;
const std::vector<int>& kLabels = fixtures::kSquareLabels;

Params params(Search s) {
  Params P;
  P.k = 3;
  P.eta = 3;
  P.beta = 3;
  P.search = s;
  return P;
}

// A run of the (possibly faulty) reference, written as a trace that claims the correct algorithm.
std::vector<json> run(Search s, std::uint64_t seed, Fault f = Fault::none, double q = 0.6) {
  RandomWeakOracle oracle(kLabels, q, Rng::stream(seed, {kStreamOracle}));
  const Result R = ssac::testing::run_ssac_with_fault(squares(), oracle, params(s), seed, f);
  TraceHeader h;
  h.params = params(s);
  std::istringstream in(format_trace(squares(), h, R));
  std::vector<json> ev;
  for (std::string line; std::getline(in, line);)
    ev.push_back(json::parse(line));
  return ev;
}

ValidationReport check(const std::vector<json>& ev) {
  std::string text;
  for (const json& e : ev)
    text += e.dump() + "\n";
  return validate_trace(squares(), text, "t.jsonl");
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

TEST(Validate, WrongAnchorIsCaughtAtTheClusterEvent) {
  const auto ev = run(Search::distance, 2, Fault::wrong_anchor);
  const auto rep = check(ev);
  ASSERT_FALSE(rep.conforms);
  EXPECT_EQ(rep.divergence->what, "anchor");
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
      if (ev[e]["event"] != "step" || ev[e]["anchor_answer"] != "not-sure") continue;
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
  FAIL() << "no step with a not-sure anchor answer";
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
  const Result R = run_ssac(X, oracle, h.params, 7);
  std::istringstream in(format_trace(X, h, R));
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

namespace {

// Ten points on a line in three clusters with narrow gaps and the rows interleaved, as the
// authors' shuffled data has them (tests/test_rules.cpp works each rule by hand).
Matrix interleaved() {
  Matrix X(10, 1);
  X << 8, 0, 14, 2, 10, 16, 4, 12, 18, 6;
  return X;
}
const std::vector<int> kInterleavedLabels = {2, 1, 3, 1, 2, 3, 1, 2, 3, 1};

std::string authors_code_trace(std::uint64_t seed, double q) {
  Params P;
  P.k = 3;
  P.eta = 2;
  P.beta = 2;
  P.search = Search::unified;
  const Profile a = authors_code_profile();
  P.rules = a.rules;
  P.elimination = a.elimination;
  RandomWeakOracle oracle(kInterleavedLabels, q, Rng::stream(seed, {kStreamOracle}));
  TraceHeader h;
  h.params = P;
  return format_trace(interleaved(), h, run_ssac(interleaved(), oracle, P, seed));
}

// The header's "rules" with NAME set back to the paper's value (and "assignment" with it for
// elimination, which the header states twice).
std::string flipped(const std::string& trace, const std::string& name) {
  std::istringstream in(trace);
  std::string first, rest, line;
  std::getline(in, first);
  for (; std::getline(in, line);)
    rest += line + "\n";
  json h = json::parse(first);
  Profile p = authors_code_profile();
  const std::string paper_value = [&] {
    const std::string all = describe(paper_profile());
    const auto at = all.find(name + "=");
    return all.substr(at, all.find(' ', at) - at);
  }();
  set_rule(p, paper_value);
  h["rules"] = describe(p);
  h["semantics"] = profile_name(p);
  if (name == "elimination") h["assignment"] = "paper";
  return h.dump() + "\n" + rest;
}

}  // namespace

TEST(Validate, AuthorsCodeTraceConformsAndEachRuleFlippedIsRejected) {
  const std::string header = authors_code_trace(0, 0.6).substr(0, 400);
  EXPECT_NE(header.find("\"semantics\":\"authors-code\""), std::string::npos) << header;
  for (const std::string rule : {"anchor", "phase2", "overwrite", "sample-cap", "self-pairs",
                                 "empty-recovers", "elimination"}) {
    bool caught = false;
    for (std::uint64_t seed = 0; seed < 400 && !caught; ++seed) {
      const std::string trace = authors_code_trace(seed, 0.6);
      const auto rep = validate_trace(interleaved(), trace, "t.jsonl");
      ASSERT_TRUE(rep.conforms) << "seed " << seed << ": " << rep.divergence->message;
      caught = !validate_trace(interleaved(), flipped(trace, rule), "t.jsonl").conforms;
    }
    EXPECT_TRUE(caught) << "no seed below 400 on which " << rule
                        << " set back to the paper's value changes the replay";
  }
}

TEST(Validate, PerPairMemoryIsReplayed) {
  // A run of the oracle with per-pair memory conforms under a header that says so. A run of a
  // fresh oracle that answered a repeated pair differently conforms under its own header and is
  // rejected, at the second answer, under a header that claims per-pair memory.
  Params P = params(Search::random);
  P.beta = 4;
  auto trace = [&](std::uint64_t seed, OracleMemory run_memory, OracleMemory header_memory) {
    RandomWeakOracle oracle(kLabels, 0.5, Rng::stream(seed, {kStreamOracle}), run_memory);
    TraceHeader h;
    h.params = P;
    h.memory = header_memory;
    std::istringstream in(format_trace(squares(), h, run_ssac(squares(), oracle, P, seed)));
    std::vector<json> ev;
    for (std::string line; std::getline(in, line);)
      ev.push_back(json::parse(line));
    return ev;
  };
  const auto remembered = trace(0, OracleMemory::per_pair, OracleMemory::per_pair);
  EXPECT_EQ(remembered.front()["oracle_memory"], "per-pair");
  EXPECT_TRUE(check(remembered).conforms);
  for (std::uint64_t seed = 0; seed < 100; ++seed) {
    const auto fresh = trace(seed, OracleMemory::fresh, OracleMemory::fresh);
    EXPECT_FALSE(fresh.front().contains("oracle_memory"));
    ASSERT_TRUE(check(fresh).conforms);
    std::map<std::pair<std::size_t, std::size_t>, json> first;
    std::optional<std::size_t> differs;  // the event of the first repeated pair answered anew
    for (std::size_t e = 1; e < fresh.size() && !differs; ++e) {
      if (fresh[e]["event"] != "query") continue;
      const auto key =
          std::minmax(fresh[e]["x"].get<std::size_t>(), fresh[e]["y"].get<std::size_t>());
      const auto [f, added] = first.emplace(key, fresh[e]["answer"]);
      if (!added && f->second != fresh[e]["answer"]) differs = e;
    }
    if (!differs) continue;
    const auto claimed = trace(seed, OracleMemory::fresh, OracleMemory::per_pair);
    const auto rep = check(claimed);
    ASSERT_FALSE(rep.conforms);
    EXPECT_EQ(rep.divergence->event, *differs + 1);
    EXPECT_EQ(rep.divergence->what, "answer");
    EXPECT_NE(rep.divergence->message.find("oracle_memory is per-pair"), std::string::npos)
        << rep.divergence->message;
    return;
  }
  FAIL() << "no seed below 100 gave a fresh oracle answering a repeated pair anew";
}
