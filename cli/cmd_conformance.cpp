// ssac conformance: writes the conformance corpus (docs/conformance.md) -- deterministic test
// vectors in the style of Project Wycheproof. One file per Phase-2 search; each test is a complete
// trace (docs/trace-format.md) of the reference on a small data set, with the random choices and
// oracle answers that produced it, so that another implementation can replay the same choices and
// answers and compare every query, decision, radius and label. The generator owns the test ids:
// the cases below are enumerated in a fixed order, and each case's seed is the smallest seed in
// [0, kMaxSeed) whose run exercises the situation the case's flags name (the generator refuses to
// write a case that does not).
#include <filesystem>
#include <functional>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>

#include "commands.hpp"
#include "output_file.hpp"
#include "ssac/data.hpp"
#include "ssac/error.hpp"
#include "ssac/oracle.hpp"
#include "ssac/oracle_spec.hpp"
#include "ssac/ssac.hpp"
#include "ssac/trace.hpp"

namespace ssac::cli {

namespace {

using json = nlohmann::ordered_json;

constexpr std::uint64_t kMaxSeed = 20000;

struct Data {
  std::string name, description;
  Matrix X;
  std::vector<int> labels;
};

Data make_data(std::string name, std::string description,
               const std::vector<std::vector<double>>& pts, std::vector<int> labels) {
  Data d{std::move(name), std::move(description), Matrix(pts.size(), pts.front().size()),
         std::move(labels)};
  for (std::size_t i = 0; i < pts.size(); ++i)
    for (std::size_t c = 0; c < pts[i].size(); ++c)
      d.X(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(c)) = pts[i][c];
  return d;
}

// The data sets: integer coordinates, so that every mean of a few points and every distance is
// computed exactly or with one correctly rounded square root, on any IEEE-754 machine.
std::vector<Data> datasets() {
  return {
      make_data("three_squares", "three unit squares 10 apart, 4 points each",
                {{0, 0},
                 {1, 0},
                 {0, 1},
                 {1, 1},
                 {10, 0},
                 {11, 0},
                 {10, 1},
                 {11, 1},
                 {0, 10},
                 {1, 10},
                 {0, 11},
                 {1, 11}},
                {1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3}),
      make_data("two_lines", "two clusters on a line, 0..3 and 20..22",
                {{0}, {1}, {2}, {3}, {20}, {21}, {22}}, {1, 1, 1, 1, 2, 2, 2}),
      make_data(
          "symmetric", "points placed symmetrically, so distances to a mean tie",
          {{-2, 0}, {2, 0}, {0, -2}, {0, 2}, {-1, 0}, {1, 0}, {20, 0}, {22, 0}, {21, 1}, {21, -1}},
          {1, 1, 1, 1, 1, 1, 2, 2, 2, 2}),
      make_data("duplicates", "repeated points inside and across draws",
                {{0, 0}, {0, 0}, {0, 0}, {1, 1}, {1, 1}, {9, 9}, {9, 9}, {10, 10}},
                {1, 1, 1, 1, 1, 2, 2, 2}),
      make_data("five_points", "five points, fewer than one iteration's draws",
                {{0, 0}, {1, 0}, {2, 0}, {10, 0}, {11, 0}}, {1, 1, 1, 2, 2}),
      // Data sets added later come last, so that the ids of the earlier vectors do not move.
      make_data("three_lines", "three clusters on a line, 0..3, 10..13 and 20..23",
                {{0}, {1}, {2}, {3}, {10}, {11}, {12}, {13}, {20}, {21}, {22}, {23}},
                {1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3}),
  };
}

// The oracle of a vector, as the corpus writes it: {"model": kind, and the parameters it uses}.
json oracle_json(const OracleSpec& o) {
  json j;
  j["model"] = to_string(o.kind);
  if (o.uses_q()) j["q"] = o.q;
  if (o.uses_nu()) j["nu"] = o.nu;
  if (o.uses_rho()) j["rho"] = o.rho;
  return j;
}

struct Case {
  std::string data;  // a dataset name
  std::string comment;
  std::vector<std::string> flags;
  int k = 2;
  double eta = 2.0;
  int beta = 3;
  bool elimination = true;
  OracleSpec oracle;
  std::function<bool(const Result&, const Data&, const Params&)> exercises;
  bool acceptable = false;
  bool needs_abstention = false;  // the weak oracle must have said not-sure at least once
};

bool any_outcome(const Result& R, Outcome o) {
  for (const auto& it : R.iterations)
    if (it.outcome == o) return true;
  return false;
}
// A probed point x_j of the binary search at exactly the same distance from mu'_p as another
// point of S_i: the order between them is the reference's tie rule (by row, semantics S6).
bool distance_tie(const Result& R, const Data& d) {
  std::vector<char> gone(d.labels.size(), 0);
  for (const auto& it : R.iterations) {
    for (const auto& st : it.steps)
      for (std::size_t x = 0; x < d.labels.size(); ++x)
        if (!gone[x] && x != st.row &&
            distance(d.X, x, it.center) == distance(d.X, st.row, it.center))
          return true;
    for (std::size_t x : it.members)
      gone[x] = 1;
  }
  return false;
}

std::vector<Case> cases(Search s) {
  const bool plain = s == Search::plain;
  std::vector<Case> c;
  auto ok = [](const Result& R, const Data&, const Params&) { return R.status == "ok"; };
  // Checked by run_case on the weak oracle's own answers (before any coin flip, CoinFlip).
  auto with_not_sure = [](const Result&, const Data&, const Params&) { return true; };
  const OracleSpec perfect, random07{OracleKind::random, 0.7},
      local{OracleKind::local, 1.0, 1.5, 0.5}, global{OracleKind::global, 1.0, 1.0, 0.5},
      random03{OracleKind::random, 0.3}, random05{OracleKind::random, 0.5};
  c.push_back({"three_squares",
               "perfect oracle, every cluster recovered",
               {"PerfectOracle"},
               3,
               2.0,
               3,
               true,
               perfect,
               ok});
  c.push_back({"three_squares",
               "random-weak oracle (Definition 5) with not-sure answers",
               {"RandomWeakOracle"},
               3,
               3.0,
               3,
               true,
               random07,
               with_not_sure});
  c.push_back({"three_squares",
               "local distance-weak oracle (Definition 6) with not-sure answers",
               {"LocalDistanceWeakOracle"},
               3,
               3.0,
               3,
               true,
               local,
               with_not_sure});
  c.push_back({"three_squares",
               "global distance-weak oracle (Definition 7) with not-sure answers",
               {"GlobalDistanceWeakOracle"},
               3,
               3.0,
               3,
               true,
               global,
               with_not_sure});
  c.push_back({"three_squares",
               "authors' cluster-assignment rule (no elimination, semantics S2)",
               {"AssignmentRuleCode", "RandomWeakOracle"},
               3,
               3.0,
               3,
               false,
               random07,
               with_not_sure});
  c.push_back({"two_lines",
               "k = 1: one iteration, every point is one cluster",
               {"KEqualsOne"},
               1,
               3.0,
               2,
               true,
               perfect,
               ok});
  c.push_back({"duplicates",
               "duplicate points: equal distances and repeated draws",
               {"DuplicatePoints"},
               2,
               3.0,
               2,
               true,
               perfect,
               ok});
  Case tie{"symmetric",
           "a binary-search probe at a distance shared with another point",
           {"DistanceTie"},
           2,
           2.0,
           2,
           true,
           perfect,
           [](const Result& R, const Data& d, const Params&) { return distance_tie(R, d); }};
  tie.acceptable = true;
  c.push_back(tie);
  c.push_back({"five_points",
               "r = ceil(k eta) = 8 draws from |S_1| = 5 points",
               {"SampleLargerThanRemainder"},
               2,
               4.0,
               2,
               true,
               perfect,
               [](const Result& R, const Data&, const Params& P) {
                 return P.sample_size() > R.iterations.front().remaining;
               }});
  c.push_back({"two_lines",
               "k = 3 > 2 oracle clusters: S_3 is empty, iteration 3 is skipped",
               {"SEmptiedEarly", "FewerThanK"},
               3,
               2.0,
               2,
               true,
               perfect,
               [](const Result& R, const Data&, const Params&) {
                 return any_outcome(R, Outcome::empty_remainder);
               }});
  c.push_back({"three_squares",
               "Phase 1 of an iteration gets only not-sure answers",
               {"Phase1AllNotSure", "FewerThanK"},
               3,
               1.0,
               2,
               true,
               OracleSpec{OracleKind::random, 0.1},
               [](const Result& R, const Data&, const Params&) {
                 return any_outcome(R, Outcome::phase1_all_not_sure);
               }});
  // With a truthful oracle Algorithm 2 never recovers part of a cluster (a definite answer is
  // correct, all not-sure is fail), so only the other searches can revisit p.
  if (s != Search::random)
    c.push_back({"three_squares",
                 "a cluster chosen again after a partial recovery",
                 {"RevisitedCluster"},
                 3,
                 2.0,
                 2,
                 true,
                 plain ? random05 : random03,
                 [](const Result& R, const Data&, const Params&) {
                   for (const auto& it : R.iterations)
                     if (it.revisited) return true;
                   return false;
                 }});
  if (s == Search::random)
    c.push_back({"three_squares",
                 "Algorithm 2 returns fail: all beta answers not-sure",
                 {"BetaFail", "FewerThanK"},
                 3,
                 3.0,
                 1,
                 true,
                 random03,
                 [](const Result& R, const Data&, const Params&) {
                   return any_outcome(R, Outcome::search_failed);
                 }});
  for (auto& x : c)
    x.needs_abstention = x.comment.find("with not-sure") != std::string::npos ||
                         x.flags.front() == "AssignmentRuleCode";
  for (auto& x : c)
    if (plain && x.oracle.kind != OracleKind::perfect) x.flags.push_back("CoinFlip");
  // k = 2 below the oracle's 3 clusters: a point of the third cluster that answers no to one
  // anchor and not-sure to the other is not eliminated into the not-sure one (Params::eliminates).
  // The original SSAC never sees a not-sure (coin flips), so it has no such case.
  if (!plain)
    c.push_back({"three_lines",
                 "k below the oracle's clusters: elimination does not apply",
                 {"KBelowOracleClusters", "RandomWeakOracle"},
                 2,
                 3.0,
                 3,
                 true,
                 random05,
                 [](const Result& R, const Data& d, const Params&) {
                   std::vector<QueryRecord> q;
                   for (const auto& r : R.queries)
                     if (r.phase == 1 && r.iteration >= 2) q.push_back(r);
                   for (std::size_t i = 0; i + 1 < q.size(); ++i)
                     if (q[i].x == q[i + 1].x && d.labels[q[i].x] == 3 &&
                         ((q[i].answer == Answer::No && q[i + 1].answer == Answer::NotSure) ||
                          (q[i].answer == Answer::NotSure && q[i + 1].answer == Answer::No)))
                       return true;
                   return false;
                 }});
  return c;
}

const char* file_stem(Search s) {
  switch (s) {
    case Search::random:
      return "ssac_random_search_test.json";
    case Search::distance:
      return "ssac_distance_search_test.json";
    case Search::unified:
      return "ssac_unified_search_test.json";
    case Search::plain:
      break;
  }
  return "ssac_plain_search_test.json";
}

// The first seed whose run exercises the case; the trace of that run.
json run_case(const Case& c, const Data& d, Search s, std::uint64_t& seed_out) {
  Params P;
  P.k = c.k;
  P.eta = c.eta;
  P.beta = c.beta;
  P.search = s;
  P.elimination = c.elimination;
  P.oracle_clusters = *std::max_element(d.labels.begin(), d.labels.end());  // labels are 1..K
  for (std::uint64_t seed = 0; seed < kMaxSeed; ++seed) {
    const auto base = make_oracle(c.oracle, d.X, d.labels, Rng::stream(seed, {kStreamOracle}));
    RecordingOracle recorded(*base);
    AskedOracle oracle(recorded, s == Search::plain, Rng::stream(seed, {kStreamCoinFlip}));
    const Result R = run_ssac(d.X, oracle.get(), P, seed);
    if (!c.exercises(R, d, P)) continue;
    if (c.needs_abstention &&
        std::none_of(recorded.entries().begin(), recorded.entries().end(),
                     [](const RecordingOracle::Entry& e) { return e.answer == Answer::NotSure; }))
      continue;
    seed_out = seed;
    TraceHeader th;
    th.params = P;
    th.algorithm = s == Search::plain ? "original" : "weak";
    th.oracle = c.oracle.describe() + (s == Search::plain ? " with coin flips" : "");
    th.seed = seed;
    json events = json::array();
    std::istringstream lines(format_trace(d.X, th, R));
    for (std::string line; std::getline(lines, line);)
      events.push_back(json::parse(line));
    return events;
  }
  throw DataError(std::string(file_stem(s)) + ": no seed below " + std::to_string(kMaxSeed) +
                  " exercises the case \"" + c.comment + "\"");
}

json notes() {
  json n;
  auto add = [&](const char* flag, const char* text) { n[flag] = {{"description", text}}; };
  add("PerfectOracle", "The oracle answers every query correctly and never abstains.");
  add("RandomWeakOracle",
      "Definition 5: each query is not-sure with probability 1 - q, otherwise correct.");
  add("LocalDistanceWeakOracle",
      "Definition 6: not-sure for close pairs of different clusters or far pairs of one cluster.");
  add("GlobalDistanceWeakOracle",
      "Definition 7: not-sure for pairs relative to the global radius.");
  add("CoinFlip",
      "The original SSAC assumes a yes/no oracle: every not-sure of the weak oracle was replaced "
      "by a fair coin before the algorithm saw it; the trace holds the answers after the flip.");
  add("AssignmentRuleCode",
      "Cluster-assignment without elimination (the authors' code, semantics S2): only a yes, or "
      "a no from every known anchor, assigns a point.");
  add("KEqualsOne", "k = 1: a single iteration.");
  add("KBelowOracleClusters",
      "k is below the number of the oracle's clusters (the header's oracle_clusters): the "
      "elimination rule does not apply, since the point's cluster need not be among the k "
      "(semantics S2); k-1 no and one not-sure leave the point unassigned.");
  add("DuplicatePoints", "The data holds repeated points; they tie in every distance order.");
  add("DistanceTie",
      "A probed point shares its distance from mu'_p with another point of S_i. The reference "
      "orders ties by row (semantics S6); an implementation with another documented tie rule may "
      "differ here, hence the result 'acceptable'.");
  add("SampleLargerThanRemainder",
      "r = ceil(k eta) exceeds |S_i|: Phase 1 draws with replacement (semantics S1).");
  add("SEmptiedEarly",
      "S_i is empty before iteration k; the remaining iterations are skipped (semantics S8).");
  add("Phase1AllNotSure",
      "Every cluster-assignment query of an iteration's Phase 1 was not-sure: no p exists and "
      "the iteration recovers nothing.");
  add("BetaFail", "Algorithm 2 returned fail: all beta answers of a search step were not-sure.");
  add("FewerThanK", "The run recovers fewer than k clusters (the paper's #Failure).");
  add("RevisitedCluster",
      "Phase 1 chooses a cluster p that an earlier iteration already recovered in part "
      "(semantics S7).");
  add("InvalidParameter",
      "A parameter outside its admissible range: an implementation must refuse to run.");
  return n;
}

// Wycheproof-like layout: objects one key per line, arrays of scalars and trace events on one
// line each, so that a diff of two corpora shows the changed event.
void pretty(const json& v, std::string& out, int depth) {
  const std::string ind(static_cast<std::size_t>(2 * depth), ' ');
  const std::string ind2(static_cast<std::size_t>(2 * depth + 2), ' ');
  if (v.is_object() && !v.contains("event") && !v.empty()) {
    out += "{\n";
    std::size_t i = 0;
    for (const auto& [key, val] : v.items()) {
      out += ind2 + json(key).dump() + ": ";
      pretty(val, out, depth + 1);
      out += ++i < v.size() ? ",\n" : "\n";
    }
    out += ind + "}";
  } else if (v.is_array() && !v.empty() && (v.front().is_object() || v.front().is_array())) {
    out += "[\n";
    for (std::size_t i = 0; i < v.size(); ++i) {
      out += ind2;
      pretty(v[i], out, depth + 1);
      out += i + 1 < v.size() ? ",\n" : "\n";
    }
    out += ind + "]";
  } else {
    out += v.dump();
  }
}

std::string corpus_file(Search s) {
  const std::vector<Data> all = datasets();
  json groups = json::array();
  int tc = 0;
  const std::vector<Case> cs = cases(s);
  for (const Data& d : all) {
    json tests = json::array();
    for (const Case& c : cs) {
      if (c.data != d.name) continue;
      std::uint64_t seed = 0;
      json trace = run_case(c, d, s, seed);
      json t;
      t["tcId"] = ++tc;
      t["comment"] = c.comment;
      t["flags"] = c.flags;
      t["params"] = {{"k", c.k},
                     {"eta", c.eta},
                     {"beta", c.beta},
                     {"assignment", c.elimination ? "paper" : "code"}};
      t["oracle"] = oracle_json(c.oracle);
      t["seed"] = seed;
      t["result"] = c.acceptable ? "acceptable" : "valid";
      t["trace"] = trace;
      tests.push_back(t);
    }
    // Parameters outside their ranges (Params::check); one per parameter, on the first data set.
    if (&d == &all.front()) {
      const std::size_t n = d.labels.size();
      struct Bad {
        const char* param;
        int k;
        double eta;
        int beta;
        const char* comment;
      };
      const Bad bad[] = {{"k", 0, 2.0, 2, "k = 0"},
                         {"k", static_cast<int>(n) + 1, 2.0, 2, "k = n + 1"},
                         {"eta", 2, 0.0, 2, "eta = 0"},
                         {"beta", 2, 2.0, 0, "beta = 0"}};
      for (const Bad& b : bad) {
        Params P;
        P.k = b.k;
        P.eta = b.eta;
        P.beta = b.beta;
        P.search = s;
        bool refused = false;
        try {
          P.check(n);
        } catch (const ParameterError&) {
          refused = true;
        }
        if (!refused) throw DataError(std::string("conformance: ") + b.comment + " was accepted");
        json t;
        t["tcId"] = ++tc;
        t["comment"] = std::string(b.comment) + ": the implementation must refuse to run";
        t["flags"] = {"InvalidParameter"};
        t["params"] = {{"k", b.k}, {"eta", b.eta}, {"beta", b.beta}, {"assignment", "paper"}};
        t["oracle"] = oracle_json(OracleSpec{});
        t["result"] = "invalid";
        t["error"] = {{"parameter", b.param}};
        tests.push_back(t);
      }
    }
    if (tests.empty()) continue;
    json g;
    g["type"] = "SsacRun";
    g["dataset"] = d.name;
    g["description"] = d.description;
    g["n"] = d.labels.size();
    g["m"] = d.X.cols();
    std::vector<std::vector<double>> pts;
    for (Eigen::Index i = 0; i < d.X.rows(); ++i)
      pts.emplace_back(d.X.row(i).data(), d.X.row(i).data() + d.X.cols());
    g["points"] = pts;
    g["labels"] = d.labels;
    g["fingerprint"] = points_fingerprint(d.X);
    g["tests"] = tests;
    groups.push_back(g);
  }
  json f;
  f["algorithm"] = "SSAC";
  f["schema"] = "ssac-conformance-v1.schema.json";
  f["generatorVersion"] = "ssac 0.1.0";
  f["traceFormat"] = std::string(kTraceFormat) + "/" + std::to_string(kTraceVersion);
  f["search"] = to_string(s);
  f["numberOfTests"] = tc;
  f["header"] = {
      "Test vectors for SSAC with weak oracles (Kim & Ghosh), one Phase-2 search per file.",
      "Each test's trace holds the random choices and oracle answers of one reference run;",
      "replaying them must reproduce every query, decision, radius and label "
      "(docs/conformance.md)."};
  f["notes"] = notes();
  f["testGroups"] = groups;
  std::string out;
  pretty(f, out, 0);
  return out + "\n";
}

int run_conformance(const std::string& dir) {
  OutputFiles outputs;  // replaced as a whole (an earlier corpus holds manifest.json)
  outputs.directory("--out", dir, "manifest.json");
  // Everything is generated before anything is written, so a failure leaves no partial corpus.
  std::vector<std::pair<std::string, std::string>> files;
  for (Search s : {Search::random, Search::distance, Search::unified, Search::plain})
    files.emplace_back(file_stem(s), corpus_file(s));
  json manifest;
  manifest["schema"] = "ssac-conformance-manifest-v1.schema.json";
  manifest["hash"] = "sha256";
  json entries = json::array();
  for (const auto& [name, text] : files)
    entries.push_back({{"file", name}, {"bytes", text.size()}, {"sha256", sha256_hex(text)}});
  manifest["files"] = entries;
  std::string mtext;
  pretty(manifest, mtext, 0);
  files.emplace_back("manifest.json", mtext + "\n");
  std::size_t bytes = 0;
  for (const auto& [name, text] : files) {
    outputs.stage_in(dir, name, text);
    bytes += text.size();
  }
  outputs.commit();
  std::cout << "wrote " << files.size() << " files (" << bytes << " bytes) to " << dir << "\n";
  return 0;
}

}  // namespace

Command add_conformance(CLI::App& root) {
  auto* app = root.add_subcommand(
      "conformance",
      "Write the conformance corpus: deterministic test vectors (one JSON file per Phase-2 "
      "search, each test a reference trace) and a SHA-256 manifest; docs/conformance.md.");
  auto dir = std::make_shared<std::string>();
  app->add_option("--out", *dir, "directory to write (created if missing)")->required();
  return {app, [dir]() { return run_conformance(*dir); }};
}

}  // namespace ssac::cli
