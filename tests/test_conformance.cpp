// The committed corpus conformance/ is exactly what `ssac conformance` writes today, byte for byte,
// and every trace in it replays as conforming.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "ssac/error.hpp"
#include "ssac/trace.hpp"

namespace fs = std::filesystem;

namespace {

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

using json = nlohmann::ordered_json;

// A group's data set as the matrix the reference replays on.
ssac::Matrix points_of(const json& g) {
  ssac::Matrix X(g["n"].get<long>(), g["m"].get<long>());
  for (std::size_t i = 0; i < g["points"].size(); ++i)
    for (std::size_t c = 0; c < g["points"][i].size(); ++c)
      X(static_cast<long>(i), static_cast<long>(c)) = g["points"][i][c].get<double>();
  return X;
}

// Calls f(file, X, test) for every test of the four committed vector files.
template <class F>
void for_each_test(F f) {
  const fs::path dir(SSAC_CONFORMANCE_DIR);
  for (const char* file : {"ssac_random_search_test.json", "ssac_distance_search_test.json",
                           "ssac_unified_search_test.json", "ssac_plain_search_test.json"}) {
    const json vectors = json::parse(slurp(dir / file));
    for (const json& g : vectors["testGroups"]) {
      const ssac::Matrix X = points_of(g);
      for (const json& t : g["tests"])
        f(std::string(file), X, t);
    }
  }
}

bool has_flag(const json& t, const char* flag) {
  const auto& flags = t["flags"];
  return std::find(flags.begin(), flags.end(), flag) != flags.end();
}

// The test's trace as JSON Lines, its header event passed through edit(json&) first.
template <class Edit>
std::string trace_with_header(const json& t, Edit edit) {
  std::string trace;
  for (const json& e : t["trace"]) {
    json ev = e;
    if (ev["event"] == "header") edit(ev);
    trace += ev.dump() + "\n";
  }
  return trace;
}

}  // namespace

TEST(Conformance, RegeneratingGivesTheCommittedBytes) {
  const fs::path out =
      fs::temp_directory_path() / ("ssac-conformance-" + std::to_string(::getpid()));
  fs::remove_all(out);
  const std::string cmd =
      std::string(SSAC_CLI) + " conformance --out " + out.string() + " >/dev/null";
  ASSERT_EQ(std::system(cmd.c_str()), 0);
  std::size_t files = 0;
  for (const auto& e : fs::directory_iterator(out)) {
    const fs::path committed = fs::path(SSAC_CONFORMANCE_DIR) / e.path().filename();
    ASSERT_TRUE(fs::exists(committed)) << committed;
    EXPECT_EQ(slurp(e.path()), slurp(committed)) << e.path().filename() << " differs";
    ++files;
  }
  std::size_t committed_files = 0;
  for (const auto& e : fs::directory_iterator(SSAC_CONFORMANCE_DIR))
    committed_files += e.path().extension() == ".json";
  EXPECT_EQ(files, committed_files);
  EXPECT_EQ(files, 5u);
  fs::remove_all(out);
}

TEST(Conformance, ManifestHashesMatchAndEveryTraceConforms) {
  const fs::path dir(SSAC_CONFORMANCE_DIR);
  const json manifest = json::parse(slurp(dir / "manifest.json"));
  std::size_t traces = 0;
  for (const json& f : manifest["files"]) {
    const std::string text = slurp(dir / f["file"].get<std::string>());
    EXPECT_EQ(ssac::sha256_hex(text), f["sha256"]) << f["file"];
    const json vectors = json::parse(text);
    for (const json& g : vectors["testGroups"]) {
      const ssac::Matrix X = points_of(g);
      EXPECT_EQ(ssac::points_fingerprint(X), g["fingerprint"]);
      for (const json& t : g["tests"]) {
        if (!t.contains("trace")) continue;
        const auto rep =
            ssac::validate_trace(X, trace_with_header(t, [](json&) {}), "tcId " + t["tcId"].dump());
        EXPECT_TRUE(rep.conforms) << f["file"] << " tcId " << t["tcId"] << ": "
                                  << (rep.divergence ? rep.divergence->message : "");
        ++traces;
      }
    }
  }
  EXPECT_GE(traces, 40u);
}

TEST(Conformance, RIsTheCeilingOfTheExactProductNotOfTheRoundedOne) {
  // The vectors flagged KEtaRoundsToInteger: an implementation that takes ceil(fl(k * eta)) writes
  // r one too small, and validation rejects its header naming the rule.
  std::size_t checked = 0;
  for_each_test([&](const std::string& file, const ssac::Matrix& X, const json& t) {
    if (!has_flag(t, "KEtaRoundsToInteger")) return;
    const double k = t["params"]["k"].get<double>(), eta = t["params"]["eta"].get<double>();
    const auto rounded = static_cast<std::uint64_t>(std::ceil(k * eta));
    const std::string trace = trace_with_header(t, [&](json& ev) {
      EXPECT_EQ(ev["r"].get<std::uint64_t>(), rounded + 1) << file;
      ev["r"] = rounded;
    });
    const auto rep = ssac::validate_trace(X, trace, "t.jsonl");
    ASSERT_FALSE(rep.conforms) << file;
    EXPECT_EQ(rep.divergence->message,
              "event 1 (header): r: expected " + std::to_string(rounded + 1) +
                  " = ceil(k eta), found " + std::to_string(rounded) +
                  "; Algorithm 1, line 1 draws r = ceil(k eta) of the exact product k eta, which "
                  "exceeds the rounded double product fl(k eta) = " +
                  std::to_string(rounded) + ": " + std::to_string(rounded) + " = ceil(fl(k eta))");
    ++checked;
  });
  EXPECT_EQ(checked, 4u);
}

TEST(Conformance, EachAuthorsCodeVectorDivergesWithItsRuleFlipped) {
  // docs/conformance.md, "Profiles": every vector of the authors-code profile names its profile as
  // its trace's header does, and carries the flag of the one rule it shows acting; the trace with
  // that rule flipped alone in its header does not replay.
  const std::map<std::string, std::pair<std::string, std::string>> rule_of = {
      {"CapturedOpener", {"overwrite=on", "overwrite=off"}},
      {"ErasedCluster", {"overwrite=on", "overwrite=off"}},
      {"MovingAnchor", {"anchor=lowest-labelled-row", "anchor=opener"}},
      {"SelfPairNotSure", {"self-pairs=on", "self-pairs=off"}},
      {"PrefixAssignment", {"phase2=prefix", "phase2=radius"}},
      {"SampleCap", {"sample-cap=on", "sample-cap=off"}},
      {"EmptyClusterRecovers", {"empty-recovers=on", "empty-recovers=off"}},
      {"AssignmentRuleCode", {"elimination=off", "elimination=on"}},
      // b-order=xj-first, the paper's, is the absence of b-order=b-first in `rules`.
      {"BFirstOrder", {" b-order=b-first", ""}}};
  std::size_t checked = 0;
  for_each_test([&](const std::string& file, const ssac::Matrix& X, const json& t) {
    if (!t["params"].contains("semantics")) return;
    const json& flags = t["flags"];
    ASSERT_EQ(flags.front(), "AuthorsCodeProfile") << file << " tcId " << t["tcId"];
    EXPECT_EQ(t["params"]["semantics"], "authors-code");
    EXPECT_EQ(t["trace"].front()["semantics"], t["params"]["semantics"]);
    EXPECT_EQ(t["trace"].front()["rules"], t["params"]["rules"]);
    ASSERT_TRUE(flags.size() >= 2 && rule_of.count(flags[1].get<std::string>()))
        << file << " tcId " << t["tcId"] << ": no rule flag";
    const auto& [from, to] = rule_of.at(flags[1].get<std::string>());
    const std::string trace = trace_with_header(t, [&, &from = from, &to = to](json& ev) {
      std::string rules = ev["rules"].get<std::string>();
      const auto at = rules.find(from);
      ASSERT_NE(at, std::string::npos) << rules;
      ev["rules"] = rules.replace(at, from.size(), to);
      if (from.rfind("elimination", 0) == 0) ev["assignment"] = "paper";
    });
    EXPECT_FALSE(ssac::validate_trace(X, trace, "t.jsonl").conforms)
        << file << " tcId " << t["tcId"] << ": " << to << " replays too";
    ++checked;
  });
  EXPECT_EQ(checked, 28u);  // nine vectors (seven rules) per weak search, and BFirstOrder
}

TEST(Conformance, TheBOrderVectorsFailUnderTheOtherOrderAsTheSamePairReversed) {
  // docs/conformance.md, "Profiles": B's argument order in Algorithm 4 (b-order, S5 and S9) has a
  // vector under each order in the unified search's file. Each conforms as written; replayed under
  // the other order it diverges at its first query of B about two rows, and the message says that
  // the pair is reversed and which order asks it so. The expected message is built from the
  // vector's own events.
  const std::string b_first =
      "; same pair, reversed: under b-order=b-first the reference asks Q(y, x_j) for y in B, as "
      "the authors' code does; Algorithm 4, line 10 asks Q(x_j, y) (b-order=xj-first, S5) (the "
      "oracles are symmetric, but a trace is compared as asked)";
  const std::string xj_first =
      "; same pair, reversed: Algorithm 4, line 10 asks Q(x_j, y) for y in B (S5); the authors' "
      "code asks Q(y, x_j), the rule b-order=b-first of the authors-code profile (the oracles are "
      "symmetric, but a trace is compared as asked)";
  std::size_t checked = 0;
  for_each_test([&](const std::string& file, const ssac::Matrix& X, const json& t) {
    const bool authors = has_flag(t, "BFirstOrder"), paper = has_flag(t, "XjFirstOrder");
    if (!authors && !paper) return;
    const std::string at = file + " tcId " + t["tcId"].dump();
    ASSERT_EQ(file, "ssac_unified_search_test.json") << at;
    ASSERT_NE(authors, paper) << at;
    EXPECT_EQ(t["params"].contains("semantics"), authors) << at;
    // As written, and replayed under the named order: conforms.
    EXPECT_TRUE(ssac::validate_trace(X, trace_with_header(t, [](json&) {}), "t.jsonl").conforms)
        << at;
    // The first query of B about two rows, and its place (iteration, step).
    std::size_t line = 0, event = 0;
    int step = 0;
    json q;
    for (const json& ev : t["trace"]) {
      ++event;
      if (ev["event"] == "iteration") step = 1;
      if (ev["event"] == "step") ++step;
      if (ev["event"] == "query" && ev["purpose"] == "search_sample" && ev["x"] != ev["y"]) {
        line = event;
        q = ev;
        break;
      }
    }
    ASSERT_GT(line, 0u) << at << ": no query of B about two rows";
    // The other order: the paper's is the authors' rules without b-order=b-first, the authors'
    // code's is the paper's rules with it (a custom profile).
    const std::string flipped = trace_with_header(t, [&](json& ev) {
      if (authors) {
        std::string rules = ev["rules"].get<std::string>();
        const auto b = rules.find(" b-order=b-first");
        ASSERT_NE(b, std::string::npos) << rules;
        ev["rules"] = rules.erase(b);
      } else {
        ev["semantics"] = "custom";
        ev["rules"] =
            "anchor=opener phase2=radius overwrite=off sample-cap=off self-pairs=on "
            "empty-recovers=off elimination=on b-order=b-first";
      }
    });
    const auto rep = ssac::validate_trace(X, flipped, "t.jsonl");
    ASSERT_FALSE(rep.conforms) << at;
    const std::string x = q["x"].dump(), y = q["y"].dump();
    EXPECT_EQ(rep.divergence->message,
              "event " + std::to_string(line) + " (iteration " + q["iteration"].dump() +
                  ", phase 2, step " + std::to_string(step) + "): query: expected Q(" + y + ", " +
                  x + ") search_sample in phase 2, found Q(" + x + ", " + y +
                  ") search_sample in phase 2" + (authors ? xj_first : b_first))
        << at;
    ++checked;
  });
  EXPECT_EQ(checked, 2u);
}

TEST(Conformance, OracleMemoryVectorsNameTheirMemoryAndAFreshRepeatIsRejectedUnderPerPair) {
  // OracleMemoryPerPair vectors carry the memory in the vector's oracle and in the trace header;
  // an OracleMemoryFresh vector answers a repeated pair two ways, so the same trace claiming
  // per-pair memory must not replay (docs/trace-format.md, "Oracle memory").
  std::size_t per_pair = 0, fresh = 0;
  for_each_test([&](const std::string& file, const ssac::Matrix& X, const json& t) {
    const bool pp = has_flag(t, "OracleMemoryPerPair");
    if (t.contains("trace")) {
      EXPECT_EQ(t["trace"][0].value("oracle_memory", "fresh"), pp ? "per-pair" : "fresh")
          << file << " tcId " << t["tcId"];
    }
    EXPECT_EQ(t["oracle"].value("memory", "fresh"), pp ? "per-pair" : "fresh") << file;
    per_pair += pp;
    if (!has_flag(t, "OracleMemoryFresh")) return;
    const std::string trace =
        trace_with_header(t, [](json& ev) { ev["oracle_memory"] = "per-pair"; });
    const auto rep = ssac::validate_trace(X, trace, "t.jsonl");
    ASSERT_FALSE(rep.conforms) << file;
    EXPECT_EQ(rep.divergence->what, "answer") << file;
    EXPECT_NE(rep.divergence->message.find("oracle_memory is per-pair, and line "),
              std::string::npos)
        << rep.divergence->message;
    ++fresh;
  });
  EXPECT_EQ(per_pair, 7u);  // two per weak search, one in the original SSAC's file
  EXPECT_EQ(fresh, 3u);
}

TEST(Conformance, TheVectorsThatDependOnTheTieRuleOfS6AreFlagged) {
  // docs/conformance.md, "Ties": a vector is flagged TieOrderS6 exactly when its replay with equal
  // distances ordered by decreasing row (the opposite of S6) diverges. Independently of that
  // replay, every flagged vector has two rows of some S_i at exactly the same distance from that
  // iteration's mu'_p (no tie, no dependence on the tie rule), and the DistanceTie vectors, built
  // to put a tie at a probe, are among them.
  std::size_t flagged = 0, unflagged = 0;
  for_each_test([&](const std::string& file, const ssac::Matrix& X, const json& t) {
    if (!t.contains("trace")) return;
    const std::string at = file + " tcId " + t["tcId"].dump();
    const bool flag = has_flag(t, "TieOrderS6");
    ssac::ReplayOptions reversed;
    reversed.reversed_ties = true;
    const std::string trace = trace_with_header(t, [](json&) {});
    EXPECT_EQ(!ssac::validate_trace(X, trace, "t.jsonl", reversed).conforms, flag) << at;
    if (has_flag(t, "DistanceTie")) {
      EXPECT_TRUE(flag) << at;
    }
    flagged += flag;
    unflagged += !flag;
    if (!flag) return;
    // S_i: the rows not yet assigned; a tie is two of them at one distance from the cluster's
    // mu'_p.
    std::vector<char> gone(static_cast<std::size_t>(X.rows()), 0);
    bool tie = false;
    for (const json& ev : t["trace"]) {
      if (ev["event"] == "cluster") {
        ssac::Vector c(X.cols());
        for (Eigen::Index i = 0; i < X.cols(); ++i)
          c[i] = ev["center"][static_cast<std::size_t>(i)].get<double>();
        std::map<double, int> at_distance;
        for (std::size_t x = 0; x < gone.size(); ++x)
          if (!gone[x]) tie |= ++at_distance[ssac::distance(X, x, c)] > 1;
      }
      if (ev["event"] == "outcome")
        for (const json& r : ev["assigned"])
          gone[r.get<std::size_t>()] = 1;
    }
    EXPECT_TRUE(tie) << at << ": flagged TieOrderS6 without a tie in distance";
  });
  EXPECT_GT(flagged, 4u);  // more than the DistanceTie vectors: ties are common here
  EXPECT_GT(unflagged, 0u);
}

TEST(Conformance, LabelledDataGiveTheOracleClustersAHeaderOmits) {
  // S2, rule 5: elimination applies only when k is the oracle's number of clusters. The vectors
  // flagged KBelowOracleClusters run k = 2 on three clusters, so their headers say
  // oracle_clusters = 3. Another implementation's trace may omit the field: with the data's labels
  // (3 clusters) the replay still knows it and the trace conforms; without them it replays with
  // elimination and diverges where a draw answered no and not-sure. A header naming another number
  // than the labels' is refused.
  std::size_t checked = 0;
  for_each_test([&](const std::string& file, const ssac::Matrix& X, const json& t) {
    if (!has_flag(t, "KBelowOracleClusters")) return;
    ASSERT_EQ(t["trace"].front()["oracle_clusters"], 3) << file;
    const std::string omitted = trace_with_header(t, [](json& ev) { ev.erase("oracle_clusters"); });
    ssac::ReplayOptions labelled;
    labelled.label_clusters = 3;
    EXPECT_TRUE(ssac::validate_trace(X, omitted, "t.jsonl", labelled).conforms) << file;
    const auto without = ssac::validate_trace(X, omitted, "t.jsonl");
    ASSERT_FALSE(without.conforms) << file;
    EXPECT_EQ(without.divergence->what.rfind("clusters", 0), 0u) << without.divergence->message;
    const std::string other = trace_with_header(t, [](json& ev) { ev["oracle_clusters"] = 4; });
    try {
      ssac::validate_trace(X, other, "t.jsonl", labelled);
      ADD_FAILURE() << file << ": oracle_clusters = 4 was accepted for data of 3 labels";
    } catch (const ssac::DataError& e) {
      EXPECT_STREQ(e.what(),
                   "t.jsonl:1: oracle_clusters = 4 but the data's labels have 3 clusters (the "
                   "trace is for other labels)");
    }
    ++checked;
  });
  EXPECT_EQ(checked, 3u);  // one per weak search
}
