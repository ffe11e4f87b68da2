// `ssac validate` replays a trace under the rules its header names (proofs-notes/semantics.md S9):
// it accepts a trace of the authors-code profile, and a copy with any one rule flipped in the
// header is rejected. One trace serves every rule: the run is chosen (the first seed) for showing
// each rule acting, a situation read from the run itself, in which the flipped rule must make the
// replay differ somewhere:
//   anchor          a Phase-1 query asks a row that opened no cluster (opener: it asks the opener)
//   phase2          C'_p holds a row at distance r' (radius, strict: it leaves that row out)
//   overwrite       a row that opened a cluster is in no C'_p (off: it ends unlabelled)
//   sample-cap      a sample of fewer than ceil(k eta) draws (off: ceil(k eta) draws)
//   self-pairs      Q(x, x) was asked (off: it is never asked)
//   empty-recovers  C'_p was empty for a p not recovered before and recovered at the end (off: p
//                   is not recovered then, so the count or a later `revisited` differs)
//   elimination     k-1 no and one not-sure left a draw unassigned (on: it is assigned)
//   b-order         Algorithm 4 drew B (xj-first: its queries are Q(x_j, y), not Q(y, x_j))
// The choice reads the run, never the verdicts; a replay that ignored a rule would accept the
// flipped trace and fail here.
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "ssac/oracle.hpp"
#include "ssac/rules.hpp"
#include "ssac/ssac.hpp"
#include "ssac/trace.hpp"
#include "trace_fixture.hpp"

using namespace ssac;
using json = nlohmann::ordered_json;

namespace {

// Three clusters on a line whose ranges overlap (A = 0, 2, ..., 8 holds B's 5 and C's 9), rows in
// shuffled order: over-long radii capture other clusters' rows, and a cluster's lowest labelled
// row need not be its own (the conformance corpus's overlap_shuffled).
Matrix overlap() {
  Matrix X(13, 1);
  X << 20, 4, 40, 5, 0, 42, 8, 22, 2, 9, 44, 6, 24;
  return X;
}
const std::vector<int> kTruth = {2, 1, 3, 2, 1, 3, 1, 2, 1, 3, 3, 1, 2};

Params authors_params() {
  const Profile a = authors_code_profile();
  Params P;
  P.k = 3;
  P.eta = 2;  // r = 6
  P.beta = 2;
  P.search = Search::unified;
  P.rules = a.rules;
  P.elimination = a.elimination;
  P.oracle_clusters = 3;
  return P;
}

bool contains(const std::vector<std::size_t>& v, std::size_t x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

// The situations of the file's comment, rule by rule, read from the run.
std::vector<std::string> rules_acting(const Result& R, const Params& P) {
  const Matrix X = overlap();
  std::vector<std::string> acting;
  std::vector<std::size_t> labelled;  // rows in some C'_p
  bool tie = false, capped = false, empty = false;
  for (const auto& it : R.iterations) {
    for (std::size_t x : it.members) {
      labelled.push_back(x);
      tie |= !(distance(X, x, it.center) < it.radius);
    }
    capped |= !it.sample.empty() && it.sample.size() < P.sample_size();
    empty |=
        it.outcome == Outcome::empty_cluster && !it.revisited &&
        std::find(R.recovery_order.begin(), R.recovery_order.end(), it.p) != R.recovery_order.end();
  }
  const auto& q = R.queries;
  if (std::any_of(q.begin(), q.end(),
                  [&](const QueryRecord& r) { return r.phase == 1 && !contains(R.openers, r.y); }))
    acting.push_back("anchor");
  if (tie) acting.push_back("phase2");
  if (std::any_of(R.openers.begin(), R.openers.end(),
                  [&](std::size_t x) { return !contains(labelled, x); }))
    acting.push_back("overwrite");
  if (capped) acting.push_back("sample-cap");
  if (std::any_of(q.begin(), q.end(), [](const QueryRecord& r) { return r.x == r.y; }))
    acting.push_back("self-pairs");
  if (empty) acting.push_back("empty-recovers");
  const bool b_drawn = std::any_of(q.begin(), q.end(), [](const QueryRecord& r) {
    return r.purpose == Purpose::search_sample && r.x != r.y;
  });
  // The queries of one draw are consecutive, with the same x; all k clusters known: k of them.
  for (std::size_t a = 0, b = 0; a < q.size(); a = std::max(b, a + 1)) {
    for (b = a;
         b < q.size() && q[b].phase == 1 && q[b].iteration == q[a].iteration && q[b].x == q[a].x;
         ++b) {
    }
    const auto first = q.begin() + static_cast<std::ptrdiff_t>(a),
               last = q.begin() + static_cast<std::ptrdiff_t>(b);
    if (b - a == static_cast<std::size_t>(P.k) &&
        std::count_if(first, last, [](const QueryRecord& r) { return r.answer == Answer::No; }) ==
            P.k - 1 &&
        std::count_if(first, last,
                      [](const QueryRecord& r) { return r.answer == Answer::NotSure; }) == 1) {
      acting.push_back("elimination");
      break;
    }
  }
  if (b_drawn) acting.push_back("b-order");
  return acting;
}

// The trace with only rule `name` flipped in its header (elimination: "assignment" too).
std::string flipped(const std::string& text, const std::string& name) {
  std::istringstream in(text);
  std::string first, rest, line;
  std::getline(in, first);
  while (std::getline(in, line))
    rest += line + "\n";
  json h = json::parse(first);
  const std::string rules = h["rules"].get<std::string>();
  const std::size_t at = rules.find(name + "=");
  EXPECT_NE(at, std::string::npos) << name;
  const std::size_t from = at + name.size() + 1, to = std::min(rules.find(' ', from), rules.size());
  const std::string v = rules.substr(from, to - from);
  // The paper's b-order is written by leaving the rule out (describe(), ssac/rules.hpp).
  if (name == "b-order") {
    h["rules"] = rules.substr(0, at - 1) + rules.substr(to);
    return h.dump() + "\n" + rest;
  }
  const std::string w = v == "on"                    ? "off"
                        : v == "off"                 ? "on"
                        : v == "prefix"              ? "radius"
                        : v == "lowest-labelled-row" ? "opener"
                                                     : "?";
  EXPECT_NE(w, "?") << name << "=" << v;
  h["rules"] = rules.substr(0, from) + w + rules.substr(to);
  if (name == "elimination") h["assignment"] = w == "on" ? "paper" : "code";
  return h.dump() + "\n" + rest;
}

}  // namespace

TEST(Validate, AuthorsCodeTraceConformsAndEachRuleFlippedIsRejected) {
  const Matrix X = overlap();
  const Params P = authors_params();
  const std::vector<std::string> all = {"anchor",     "phase2",         "overwrite",   "sample-cap",
                                        "self-pairs", "empty-recovers", "elimination", "b-order"};
  for (std::uint64_t seed = 0; seed < 20000; ++seed) {
    RandomWeakOracle probe(kTruth, 0.5, Rng::stream(seed, {kStreamOracle}));
    if (rules_acting(run_ssac(X, probe, P, seed), P) != all) continue;
    RandomWeakOracle oracle(kTruth, 0.5, Rng::stream(seed, {kStreamOracle}));
    TraceHeader h;
    h.params = P;
    h.seed = seed;
    fixtures::TraceText t(X, h);
    run_ssac(X, oracle, P, seed, t.writer.get());
    ASSERT_NE(t.text.find("\"semantics\":\"authors-code\""), std::string::npos);
    const ValidationReport ok = validate_trace(X, t.text, "authors.jsonl");
    ASSERT_TRUE(ok.conforms) << (ok.divergence ? ok.divergence->message : "");
    for (const std::string& rule : all) {
      const ValidationReport rep = validate_trace(X, flipped(t.text, rule), "flipped.jsonl");
      EXPECT_FALSE(rep.conforms) << "seed " << seed << ": " << rule << " flipped was accepted";
    }
    return;
  }
  FAIL() << "no seed below 20000 shows every rule of the authors-code profile acting";
}

// The negative control of the flip: flipping a rule to the value the trace was made under (the
// trace's own header, written anew) changes nothing, and the copy conforms.
TEST(Validate, AuthorsCodeTraceWithItsOwnRulesRewrittenConforms) {
  const Matrix X = overlap();
  const Params P = authors_params();
  RandomWeakOracle oracle(kTruth, 0.5, Rng::stream(1, {kStreamOracle}));
  TraceHeader h;
  h.params = P;
  fixtures::TraceText t(X, h);
  run_ssac(X, oracle, P, 1, t.writer.get());
  const std::string twice = flipped(flipped(t.text, "overwrite"), "overwrite");
  EXPECT_TRUE(validate_trace(X, twice, "twice.jsonl").conforms);
  EXPECT_FALSE(validate_trace(X, flipped(t.text, "self-pairs"), "once.jsonl").conforms);
}
