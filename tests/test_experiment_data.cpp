// `ssac experiment --data`: every rep runs the cells on one fixed labelled dataset. The totals are
// those of run_cell on that dataset under the documented streams (docs/experiment.md, "Runs on a
// fixed dataset"), the reps differ only in those streams, the data's gamma is recorded, slices
// merge byte for byte, and a generated run's summary.json carries no trace of the option.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <string>

#include "ssac/error.hpp"
#include "ssac/experiment.hpp"
#include "ssac/experiment_summary.hpp"

namespace fs = std::filesystem;

namespace {

ssac::Dataset fixed_data() {
  ssac::GeneratorParams g;
  g.n = 150;
  g.seed = 5;
  return ssac::generate(g).data;
}

ssac::ExperimentConfig on_data(const ssac::Dataset& d, std::uint64_t reps) {
  ssac::ExperimentConfig c = ssac::preset_config("paper-main");
  ssac::use_dataset(c, d, "fixed.csv");
  c.q = {0.7, 1.0};
  c.eta = {2, 5};
  c.reps = reps;
  c.seed = 3;
  return c;
}

struct TempDir {
  fs::path path;
  TempDir() {
    path = fs::temp_directory_path() /
           ("ssac_test_experiment_data_" + std::to_string(getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempDir() { fs::remove_all(path); }
};

TEST(ExperimentData, UseDatasetTakesNMKAndGammaFromTheData) {
  const ssac::Dataset d = fixed_data();
  const auto c = on_data(d, 1);
  EXPECT_EQ(c.gen.n, 150u);
  EXPECT_EQ(c.gen.m, 2u);
  EXPECT_EQ(c.gen.k, 3);
  EXPECT_EQ(c.data_gamma, ssac::cluster_stats(d.points, d.labels).gamma);
  ssac::Dataset unlabelled = d;
  unlabelled.labels.clear();
  ssac::ExperimentConfig u = ssac::preset_config("paper-main");
  EXPECT_THROW(ssac::use_dataset(u, unlabelled, "u.csv"), ssac::DataError);
  // Negative control: a configuration whose n disagrees with its dataset is refused.
  auto bad = c;
  bad.gen.n = 149;
  EXPECT_THROW(bad.check(), ssac::ParameterError);
}

TEST(ExperimentData, TotalsAreRunCellOnTheFixedDataUnderTheDocumentedStreams) {
  const ssac::Dataset d = fixed_data();
  const auto c = on_data(d, 6);
  const auto r = ssac::run_experiment(c, 2);
  const auto cells = ssac::experiment_cells(c);
  const ssac::ClusterStats truth = ssac::cluster_stats(d.points, d.labels);
  std::vector<std::uint64_t> q1(cells.size(), 0), q2(cells.size(), 0), fails(cells.size(), 0);
  std::set<std::uint64_t> per_rep_queries;
  for (std::uint64_t rep = 0; rep < c.reps; ++rep) {
    const std::uint64_t R = ssac::rep_seed(c.seed, rep);
    for (std::size_t i = 0; i < cells.size(); ++i) {
      const auto run = ssac::run_cell(c, cells[i], R, d, truth, nullptr);
      q1[i] += run.result.queries_phase1;
      q2[i] += run.result.queries_phase2;
      fails[i] += run.result.failed ? 1 : 0;
      if (i == 0) per_rep_queries.insert(run.result.queries_phase1 + run.result.queries_phase2);
    }
  }
  for (std::size_t i = 0; i < cells.size(); ++i) {
    EXPECT_EQ(r.totals[i].queries_phase1, q1[i]) << i;
    EXPECT_EQ(r.totals[i].queries_phase2, q2[i]) << i;
    EXPECT_EQ(r.totals[i].failures, fails[i]) << i;
  }
  // Every rep records the data's gamma and no generator draw.
  for (std::size_t i = 0; i < r.gamma.size(); ++i) {
    EXPECT_EQ(r.gamma[i], c.data_gamma);
    EXPECT_EQ(r.draws[i], 0u);
  }
  // The reps differ (their streams do): six reps at q = 0.7, eta = 2 do not all ask the same
  // number of queries.
  EXPECT_GT(per_rep_queries.size(), 1u);
  // The first rep's scatter data are of the fixed dataset itself.
  ASSERT_TRUE(r.scatter.has_value());
  EXPECT_EQ(r.scatter->data.points, d.points);
}

TEST(ExperimentData, SummaryNamesTheDataAndSlicesMergeByteForByte) {
  TempDir tmp;
  const ssac::Dataset d = fixed_data();
  const fs::path csv = tmp.path / "fixed.csv";
  std::ofstream(csv) << ssac::format_csv(d);
  auto c = on_data(d, 5);
  ssac::use_dataset(c, d, csv.string());
  const auto whole = ssac::run_experiment(c, 1);
  const std::string json = ssac::summary_json(whole);
  EXPECT_NE(json.find("\"data\": \"" + csv.string() + "\""), std::string::npos);
  EXPECT_NE(json.find("\"data_gamma\": "), std::string::npos);
  // The generator's parameters did not apply and are not written; a generated run has them (its
  // stream too, as the presets' version 4 is not version 1).
  ssac::ExperimentConfig generated = ssac::preset_config("paper-main");
  generated.gen.n = 150;
  generated.q = {1.0};
  generated.eta = {2};
  generated.reps = 1;
  const std::string generated_json = ssac::summary_json(ssac::run_experiment(generated, 1));
  for (const char* field : {"\"sigma\"", "\"gamma_min\"", "\"gamma_max\"", "\"box\"",
                            "\"max_draws\"", "\"gaussians\""}) {
    EXPECT_EQ(json.find(field), std::string::npos) << field;
    EXPECT_NE(generated_json.find(field), std::string::npos) << field;
  }

  auto a = c, b = c;
  a.reps = 2;
  b.rep_first = 2;
  b.reps = 3;
  std::vector<ssac::ExperimentResult> parts;
  for (const auto& [cfg, name] : {std::pair{a, "a"}, std::pair{b, "b"}}) {
    const fs::path dir = tmp.path / name;
    fs::create_directories(dir);
    const auto r = ssac::run_experiment(cfg, 2);
    std::ofstream(dir / "summary.json") << ssac::summary_json(r);
    std::ofstream(dir / "gamma.csv") << ssac::gamma_csv(r);
    parts.push_back(ssac::read_experiment(dir.string()));  // reads fixed.csv again
  }
  const auto merged = ssac::merge_experiments(parts, {"a", "b"});
  EXPECT_EQ(ssac::summary_json(merged), json);
  EXPECT_EQ(ssac::gamma_csv(merged), ssac::gamma_csv(whole));

  // A changed dataset is caught when the slice is read back (its gamma moved).
  ssac::Dataset moved = d;
  moved.points(0, 0) += 50.0;
  std::ofstream(csv, std::ios::trunc) << ssac::format_csv(moved);
  EXPECT_THROW(ssac::read_experiment((tmp.path / "a").string()), ssac::DataError);
}

// docs/experiment.md: the rep seed also seeds the generator, so a --data run on the dataset that
// rep 0 of a generated run drew reproduces that rep's cells exactly.
TEST(ExperimentData, ADataRunOnRepZerosDatasetReproducesRepZero) {
  ssac::ExperimentConfig gen = ssac::preset_config("paper-main");
  gen.gen.n = 120;
  gen.q = {0.7};
  gen.eta = {2, 5};
  gen.reps = 1;
  gen.seed = 9;
  const auto generated = ssac::run_experiment(gen, 1);
  ssac::GeneratorParams g = gen.gen;
  g.seed = ssac::rep_seed(gen.seed, 0);
  auto fixed = gen;
  ssac::use_dataset(fixed, ssac::generate(g).data, "rep0.csv");
  const auto on_data = ssac::run_experiment(fixed, 1);
  ASSERT_EQ(on_data.totals.size(), generated.totals.size());
  for (std::size_t i = 0; i < on_data.totals.size(); ++i) {
    EXPECT_EQ(on_data.totals[i].correct, generated.totals[i].correct);
    EXPECT_EQ(on_data.totals[i].queries_phase1, generated.totals[i].queries_phase1);
    EXPECT_EQ(on_data.totals[i].queries_phase2, generated.totals[i].queries_phase2);
  }
  EXPECT_EQ(on_data.gamma[0], generated.gamma[0]);
}

TEST(ExperimentData, GeneratedRunsWriteNoDataFields) {
  ssac::ExperimentConfig c = ssac::preset_config("paper-main");
  c.gen.n = 90;
  c.q = {1.0};
  c.eta = {2};
  c.reps = 1;
  const std::string json = ssac::summary_json(ssac::run_experiment(c, 1));
  EXPECT_EQ(json.find("\"data"), std::string::npos);
}

}  // namespace
