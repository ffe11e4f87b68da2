// The committed corpus conformance/ is exactly what `ssac conformance` writes today, byte for byte,
// and every trace in it replays as conforming.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "ssac/rules.hpp"
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

// Every rule of the authors-code profile that changes what a run does has a vector (flags name
// the situation), and the vector depends on its rule: the same trace with that rule set back to
// the paper's value in the header does not replay.
TEST(Conformance, EachAuthorsCodeVectorNeedsItsRule) {
  using json = nlohmann::ordered_json;
  const std::map<std::string, std::string> rule_of = {
      {"CapturedOpener", "overwrite=off"},   {"ErasedCluster", "overwrite=off"},
      {"ReusedNumber", "overwrite=off"},     {"MovingAnchor", "anchor=opener"},
      {"SelfPairNotSure", "self-pairs=off"}, {"PrefixNotRadius", "phase2=radius"},
      {"SampleCap", "sample-cap=off"},       {"EmptyClusterRecovers", "empty-recovers=off"}};
  std::map<std::string, int> vectors;
  const fs::path dir(SSAC_CONFORMANCE_DIR);
  for (const char* file : {"ssac_random_search_test.json", "ssac_distance_search_test.json",
                           "ssac_unified_search_test.json"}) {
    const json vectors_file = json::parse(slurp(dir / file));
    for (const json& g : vectors_file["testGroups"]) {
      ssac::Matrix X(g["n"].get<long>(), g["m"].get<long>());
      for (std::size_t i = 0; i < g["points"].size(); ++i)
        for (std::size_t c = 0; c < g["points"][i].size(); ++c)
          X(static_cast<long>(i), static_cast<long>(c)) = g["points"][i][c].get<double>();
      for (const json& t : g["tests"])
        for (const json& flag : t["flags"]) {
          const auto r = rule_of.find(flag.get<std::string>());
          if (r == rule_of.end()) continue;
          json trace = t["trace"];
          ASSERT_EQ(trace[0]["semantics"], "authors-code") << file << " tcId " << t["tcId"];
          ssac::Profile p = ssac::authors_code_profile();
          ssac::set_rule(p, r->second);
          trace[0]["rules"] = ssac::describe(p);
          trace[0]["semantics"] = ssac::profile_name(p);
          std::string text;
          for (const json& e : trace)
            text += e.dump() + "\n";
          EXPECT_FALSE(ssac::validate_trace(X, text, "flipped").conforms)
              << file << " tcId " << t["tcId"] << " replays with " << r->second;
          ++vectors[r->first];
        }
    }
  }
  for (const auto& [flag, rule] : rule_of)
    EXPECT_GE(vectors[flag], 1) << "no vector flagged " << flag;
}
