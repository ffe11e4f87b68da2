// The committed corpus conformance/ is exactly what `ssac conformance` writes today, byte for byte,
// and every trace in it replays as conforming.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "ssac/trace.hpp"

namespace fs = std::filesystem;

namespace {

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
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
  using json = nlohmann::ordered_json;
  const fs::path dir(SSAC_CONFORMANCE_DIR);
  const json manifest = json::parse(slurp(dir / "manifest.json"));
  std::size_t traces = 0;
  for (const json& f : manifest["files"]) {
    const std::string text = slurp(dir / f["file"].get<std::string>());
    EXPECT_EQ(ssac::sha256_hex(text), f["sha256"]) << f["file"];
    const json vectors = json::parse(text);
    for (const json& g : vectors["testGroups"]) {
      ssac::Matrix X(g["n"].get<long>(), g["m"].get<long>());
      for (std::size_t i = 0; i < g["points"].size(); ++i)
        for (std::size_t c = 0; c < g["points"][i].size(); ++c)
          X(static_cast<long>(i), static_cast<long>(c)) = g["points"][i][c].get<double>();
      EXPECT_EQ(ssac::points_fingerprint(X), g["fingerprint"]);
      for (const json& t : g["tests"]) {
        if (!t.contains("trace")) continue;
        std::string trace;
        for (const json& e : t["trace"])
          trace += e.dump() + "\n";
        const auto rep = ssac::validate_trace(X, trace, "tcId " + t["tcId"].dump());
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
  using json = nlohmann::ordered_json;
  const fs::path dir(SSAC_CONFORMANCE_DIR);
  std::size_t checked = 0;
  for (const char* file : {"ssac_random_search_test.json", "ssac_distance_search_test.json",
                           "ssac_unified_search_test.json", "ssac_plain_search_test.json"}) {
    const json vectors = json::parse(slurp(dir / file));
    for (const json& g : vectors["testGroups"]) {
      ssac::Matrix X(g["n"].get<long>(), g["m"].get<long>());
      for (std::size_t i = 0; i < g["points"].size(); ++i)
        for (std::size_t c = 0; c < g["points"][i].size(); ++c)
          X(static_cast<long>(i), static_cast<long>(c)) = g["points"][i][c].get<double>();
      for (const json& t : g["tests"]) {
        const auto& flags = t["flags"];
        if (std::find(flags.begin(), flags.end(), "KEtaRoundsToInteger") == flags.end()) continue;
        const double k = t["params"]["k"].get<double>(), eta = t["params"]["eta"].get<double>();
        const auto rounded = static_cast<std::uint64_t>(std::ceil(k * eta));
        std::string trace;
        for (const json& e : t["trace"]) {
          json ev = e;
          if (ev["event"] == "header") {
            EXPECT_EQ(ev["r"].get<std::uint64_t>(), rounded + 1) << file;
            ev["r"] = rounded;
          }
          trace += ev.dump() + "\n";
        }
        const auto rep = ssac::validate_trace(X, trace, "t.jsonl");
        ASSERT_FALSE(rep.conforms) << file;
        EXPECT_EQ(rep.divergence->message, "event 1 (header): r: expected " +
                                               std::to_string(rounded + 1) +
                                               " = ceil(k eta), found " + std::to_string(rounded));
        ++checked;
      }
    }
  }
  EXPECT_EQ(checked, 4u);
}

TEST(Conformance, OracleMemoryVectorsNameTheirMemoryAndAFreshRepeatIsRejectedUnderPerPair) {
  // OracleMemoryPerPair vectors carry the memory in the vector's oracle and in the trace header;
  // an OracleMemoryFresh vector answers a repeated pair two ways, so the same trace claiming
  // per-pair memory must not replay (docs/trace-format.md, "Oracle memory").
  using json = nlohmann::ordered_json;
  const fs::path dir(SSAC_CONFORMANCE_DIR);
  std::size_t per_pair = 0, fresh = 0;
  for (const char* file : {"ssac_random_search_test.json", "ssac_distance_search_test.json",
                           "ssac_unified_search_test.json", "ssac_plain_search_test.json"}) {
    const json vectors = json::parse(slurp(dir / file));
    for (const json& g : vectors["testGroups"]) {
      ssac::Matrix X(g["n"].get<long>(), g["m"].get<long>());
      for (std::size_t i = 0; i < g["points"].size(); ++i)
        for (std::size_t c = 0; c < g["points"][i].size(); ++c)
          X(static_cast<long>(i), static_cast<long>(c)) = g["points"][i][c].get<double>();
      for (const json& t : g["tests"]) {
        const auto& flags = t["flags"];
        const bool pp = std::find(flags.begin(), flags.end(), "OracleMemoryPerPair") != flags.end();
        const bool fr = std::find(flags.begin(), flags.end(), "OracleMemoryFresh") != flags.end();
        if (t.contains("trace")) {
          EXPECT_EQ(t["trace"][0].value("oracle_memory", "fresh"), pp ? "per-pair" : "fresh")
              << file << " tcId " << t["tcId"];
        }
        EXPECT_EQ(t["oracle"].value("memory", "fresh"), pp ? "per-pair" : "fresh") << file;
        per_pair += pp;
        if (!fr) continue;
        std::string trace;
        for (const json& e : t["trace"]) {
          json ev = e;
          if (ev["event"] == "header") ev["oracle_memory"] = "per-pair";
          trace += ev.dump() + "\n";
        }
        const auto rep = ssac::validate_trace(X, trace, "t.jsonl");
        ASSERT_FALSE(rep.conforms) << file;
        EXPECT_EQ(rep.divergence->what, "answer") << file;
        EXPECT_NE(rep.divergence->message.find("oracle_memory is per-pair, and line "),
                  std::string::npos)
            << rep.divergence->message;
        ++fresh;
      }
    }
  }
  EXPECT_EQ(per_pair, 7u);  // two per weak search, one in the original SSAC's file
  EXPECT_EQ(fresh, 3u);
}
