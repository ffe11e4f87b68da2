// The paper's evaluation in the library (lib/src/experiment/): the totals are those of the public
// building blocks under the documented stream derivation, and they do not depend on the number of
// threads or on how the reps are split into slices and merged (byte-for-byte summary.json); the
// first rep's scatter data are that rep's fits. The output directory (tables, figures) is tested
// in test_experiment_output.cpp.
#include <gtest/gtest.h>

#include <unistd.h>
#include <atomic>
#include <bit>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

#include "ssac/error.hpp"
#include "ssac/experiment.hpp"
#include "ssac/experiment_summary.hpp"
#include "ssac/oracle.hpp"
#include "ssac/workers.hpp"

namespace fs = std::filesystem;

namespace {

// A quick configuration: the paper-main window, fewer points.
ssac::ExperimentConfig small(std::uint64_t reps) {
  ssac::ExperimentConfig c = ssac::preset_config("paper-main");
  c.gen.n = 240;
  c.q = {0.7, 1.0};
  c.eta = {2, 10};
  c.reps = reps;
  c.seed = 11;
  return c;
}

struct TempDir {
  fs::path path;
  TempDir() {
    path = fs::temp_directory_path() /
           ("ssac_test_experiment_" + std::to_string(getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempDir() { fs::remove_all(path); }
};

TEST(Experiment, PresetsMatchThePaper) {
  const auto main = ssac::preset_config("paper-main");
  EXPECT_EQ(main.gen.n, 1500u);
  EXPECT_EQ(main.gen.m, 2u);
  EXPECT_EQ(main.gen.k, 3);
  EXPECT_EQ(main.gen.sigma, 1.75);
  EXPECT_EQ(main.gen.gamma_min, 1.0);
  EXPECT_EQ(main.gen.gamma_max, 1.1);
  EXPECT_EQ(main.reps, 5000u);
  EXPECT_EQ(main.beta, 10);
  EXPECT_EQ(main.search, ssac::Search::unified);
  EXPECT_EQ(main.q, (std::vector<double>{0.7, 0.85, 1.0}));
  EXPECT_EQ(main.eta, (std::vector<double>{2, 5, 10, 20, 50}));
  const auto hd = ssac::preset_config("paper-highdim");
  EXPECT_EQ(hd.gen.n, 3000u);
  EXPECT_EQ(hd.gen.m, 10u);
  const auto ns = ssac::preset_config("paper-nonsep");
  EXPECT_EQ(ns.gen.gamma_min, 0.6);
  EXPECT_EQ(ns.gen.gamma_max, 1.0);
  // Every preset draws with stream version 4 (proofs-notes/semantics.md, "The generator's stream
  // versions"); the library's generator alone keeps version 1.
  for (const auto* c : {&main, &hd, &ns})
    EXPECT_EQ(c->gen.gaussians, ssac::GaussianMethod::ziggurat_clusters);
  EXPECT_EQ(ssac::GeneratorParams{}.gaussians, ssac::GaussianMethod::polar);
  EXPECT_THROW(ssac::preset_config("paper"), ssac::ParameterError);
}

TEST(Experiment, TotalsEqualIndependentRecomputationFromTheDocumentedStreams) {
  const auto c = small(4);
  const auto r = ssac::run_experiment(c, 2);
  const auto cells = ssac::experiment_cells(c);
  ASSERT_EQ(cells.size(), 4u);
  std::vector<std::uint64_t> correct(cells.size(), 0), failures(cells.size(), 0);
  for (std::uint64_t rep = 0; rep < c.reps; ++rep) {
    const std::uint64_t R = ssac::Rng::stream(c.seed, {ssac::kStreamExperimentRep, rep}).next_u64();
    ssac::GeneratorParams g = c.gen;
    g.seed = R;
    const ssac::Generated data = ssac::generate(g);
    EXPECT_EQ(r.gamma[rep], data.gamma);
    EXPECT_EQ(r.draws[rep], data.draws);
    for (std::size_t i = 0; i < cells.size(); ++i) {
      const auto& s = cells[i];
      auto key = [&](std::uint64_t purpose) {
        return ssac::Rng::stream(R, {purpose, 0, 0, std::bit_cast<std::uint64_t>(s.oracle.q), 0, 0,
                                     std::bit_cast<std::uint64_t>(s.eta)});
      };
      ssac::RandomWeakOracle oracle(data.data.labels, s.oracle.q, key(ssac::kStreamOracle));
      ssac::UniformChooser chooser(key(ssac::kStreamAlgorithm));
      ssac::Params P;
      P.k = 3;
      P.eta = s.eta;
      const ssac::Result res = ssac::run_ssac(data.data.points, oracle, chooser, P);
      const ssac::Evaluation ev = ssac::evaluate(data.data.points, data.data.labels, res);
      correct[i] += static_cast<std::uint64_t>(std::llround(ev.accuracy_pct * 240 / 100.0));
      failures[i] += res.failed;
    }
  }
  for (std::size_t i = 0; i < cells.size(); ++i) {
    EXPECT_EQ(r.totals[i].correct, correct[i]) << "cell " << i;
    EXPECT_EQ(r.totals[i].failures, failures[i]) << "cell " << i;
  }
}

TEST(Experiment, SummaryDoesNotDependOnThreads) {
  auto c = small(9);
  c.oracles = {ssac::OracleKind::random, ssac::OracleKind::local, ssac::OracleKind::global};
  c.original = true;
  c.nu = {1.0, 1.5};
  c.rho = {0.8};
  const std::string one = ssac::summary_json(ssac::run_experiment(c, 1));
  EXPECT_EQ(ssac::summary_json(ssac::run_experiment(c, 2)), one);
  EXPECT_EQ(ssac::summary_json(ssac::run_experiment(c, 5)), one);
}

TEST(Experiment, ACellsStreamsDependOnItsParametersNotItsPosition) {
  auto all = small(5);
  auto one = all;
  one.q = {1.0};
  one.eta = {10};
  const auto a = ssac::run_experiment(all, 2);
  const auto b = ssac::run_experiment(one, 2);
  // Cell (q = 1, eta = 10) is the last of `all`.
  EXPECT_EQ(a.totals.back().correct, b.totals[0].correct);
  EXPECT_EQ(a.totals.back().queries_phase1, b.totals[0].queries_phase1);
  EXPECT_EQ(a.totals.back().queries_phase2, b.totals[0].queries_phase2);
  EXPECT_EQ(a.gamma, b.gamma);
}

// summary.json and gamma.csv of each slice, as `ssac experiment --reps-range` writes them.
void write_summary(const ssac::ExperimentResult& r, const fs::path& dir) {
  fs::create_directories(dir);
  std::ofstream(dir / "summary.json", std::ios::binary) << ssac::summary_json(r);
  std::ofstream(dir / "gamma.csv", std::ios::binary) << ssac::gamma_csv(r);
}

TEST(Experiment, SlicesWrittenReadAndMergedGiveTheSameSummaryBytes) {
  TempDir tmp;
  auto c = small(10);
  c.original = true;
  const auto whole = ssac::run_experiment(c, 2);
  std::vector<ssac::ExperimentResult> parts;
  std::vector<std::string> names;
  // Slices given out of order, of unequal sizes.
  for (auto [a, b] : {std::pair<int, int>{6, 10}, {0, 3}, {3, 6}}) {
    auto s = c;
    s.rep_first = static_cast<std::uint64_t>(a);
    s.reps = static_cast<std::uint64_t>(b - a);
    const fs::path dir = tmp.path / ("slice" + std::to_string(a));
    write_summary(ssac::run_experiment(s, 1), dir);
    parts.push_back(ssac::read_experiment(dir.string()));
    names.push_back(dir.string());
  }
  const auto merged = ssac::merge_experiments(parts, names);
  EXPECT_EQ(ssac::summary_json(merged), ssac::summary_json(whole));
  EXPECT_EQ(ssac::gamma_csv(merged), ssac::gamma_csv(whole));
  EXPECT_EQ(merged.wall_seconds, 0.0);       // no timings: they would describe no single run
  EXPECT_FALSE(merged.scatter.has_value());  // summaries hold totals, not labels
}

// The appendix's visualisation reads the first rep's fits; the run keeps them as that rep runs.
TEST(Experiment, FirstRepScatterIsTheRunsOwnFirstRep) {
  auto c = small(1);
  c.rep_first = 4;
  c.original = true;
  const auto r = ssac::run_experiment(c, 1);
  ASSERT_TRUE(r.scatter.has_value());
  const ssac::RepScatter& s = *r.scatter;
  EXPECT_EQ(s.rep, 4u);
  EXPECT_EQ(s.gamma, r.gamma[0]);
  EXPECT_EQ(s.data.n(), c.gen.n);
  // The first block (random-weak, weak SSAC): q rows times eta columns.
  ASSERT_EQ(s.cells.size(), c.q.size() * c.eta.size());
  ASSERT_EQ(s.fits.size(), s.cells.size());
  for (std::size_t i = 0; i < s.fits.size(); ++i) {
    EXPECT_EQ(s.cells[i].eta, r.cells[i].eta);
    EXPECT_EQ(s.cells[i].oracle.q, r.cells[i].oracle.q);
    EXPECT_FALSE(s.cells[i].original);
    // With one rep, the cell's total of correctly labelled points is the fit's count of points
    // whose renamed label is the true one, and its Accuracy is that count over n.
    std::uint64_t correct = 0;
    for (std::size_t x = 0; x < s.data.n(); ++x)
      correct += s.fits[i].labels[x] != 0 && s.fits[i].labels[x] == s.data.labels[x];
    EXPECT_EQ(correct, r.totals[i].correct) << i;
    EXPECT_EQ(s.fits[i].accuracy_pct,
              100.0 * static_cast<double>(correct) / static_cast<double>(s.data.n()));
    EXPECT_FALSE(s.fits[i].centers.empty());
  }
  // Running that rep alone gives the same data and fits (same streams), which is what `ssac
  // merge` relies on.
  const ssac::RepScatter again = ssac::rep_scatter(c, 4);
  EXPECT_EQ(again.gamma, s.gamma);
  EXPECT_EQ(again.data.points, s.data.points);
  EXPECT_EQ(again.data.labels, s.data.labels);
  ASSERT_EQ(again.fits.size(), s.fits.size());
  for (std::size_t i = 0; i < s.fits.size(); ++i) {
    EXPECT_EQ(again.fits[i].labels, s.fits[i].labels);
    ASSERT_EQ(again.fits[i].centers.size(), s.fits[i].centers.size());
    for (std::size_t j = 0; j < s.fits[i].centers.size(); ++j) {
      EXPECT_EQ(again.fits[i].centers[j].cluster, s.fits[i].centers[j].cluster);
      EXPECT_EQ(again.fits[i].centers[j].mu, s.fits[i].centers[j].mu);
    }
  }
}

TEST(Experiment, ScatterOnlyForPlanarDataAndMergeKeepsTheFirstSlices) {
  auto c = small(3);
  auto first = c;
  first.reps = 1;
  auto rest = c;
  rest.rep_first = 1;
  rest.reps = 2;
  const auto a = ssac::run_experiment(first, 1), b = ssac::run_experiment(rest, 1);
  const auto merged = ssac::merge_experiments({b, a}, {"b", "a"});
  ASSERT_TRUE(merged.scatter.has_value());
  EXPECT_EQ(merged.scatter->rep, 0u);
  EXPECT_EQ(merged.scatter->fits[0].labels, a.scatter->fits[0].labels);
  auto highdim = small(1);
  highdim.gen.m = 3;
  EXPECT_FALSE(ssac::run_experiment(highdim, 1).scatter.has_value());
}

TEST(Experiment, MergeRejectsGapsOverlapsAndOtherRuns) {
  auto c = small(2);
  auto part = [&](std::uint64_t first, std::uint64_t reps, std::uint64_t seed) {
    auto s = c;
    s.rep_first = first;
    s.reps = reps;
    s.seed = seed;
    return ssac::run_experiment(s, 1);
  };
  EXPECT_THROW(ssac::merge_experiments({part(0, 2, 11), part(3, 1, 11)}, {"a", "b"}),
               ssac::DataError);
  EXPECT_THROW(ssac::merge_experiments({part(0, 2, 11), part(1, 2, 11)}, {"a", "b"}),
               ssac::DataError);
  EXPECT_THROW(ssac::merge_experiments({part(0, 2, 11), part(2, 1, 12)}, {"a", "b"}),
               ssac::DataError);
  EXPECT_NO_THROW(ssac::merge_experiments({part(2, 1, 11), part(0, 2, 11)}, {"a", "b"}));
}

TEST(Experiment, ReadRejectsMalformedSummaryWithPosition) {
  TempDir tmp;
  std::ofstream(tmp.path / "summary.json") << "{\n  \"preset\": oops\n}\n";
  try {
    ssac::read_experiment(tmp.path.string());
    FAIL() << "no error";
  } catch (const ssac::DataError& e) {
    EXPECT_NE(std::string(e.what()).find("summary.json:2:"), std::string::npos) << e.what();
  }
}

// gamma.csv is read as the CSV it is (ssac/csv.hpp): quoted fields are their text, a quoted comma
// or a doubled quote stays inside its field, and every message names the line and the column.
TEST(Experiment, ReadsGammaCsvAsRfc4180WithTheColumnInEveryMessage) {
  TempDir tmp;
  const auto r = ssac::run_experiment(small(2), 1);
  write_summary(r, tmp.path);
  const std::string gamma = ssac::gamma_csv(r);
  const std::size_t row2 = gamma.find('\n') + 1, row3 = gamma.find('\n', row2) + 1;
  const std::string first = gamma.substr(row2, row3 - row2 - 1);  // "0,GAMMA,DRAWS"
  const std::size_t a = first.find(','), b = first.rfind(',');
  const std::string g = first.substr(a + 1, b - a - 1), draws = first.substr(b + 1);
  auto read_with = [&](const std::string& row) {
    std::ofstream(tmp.path / "gamma.csv", std::ios::binary)
        << gamma.substr(0, row2) << row << "\r\n"
        << gamma.substr(row3);
    try {
      return ssac::gamma_csv(ssac::read_experiment(tmp.path.string())) == gamma
                 ? std::string("same")
                 : std::string("other");
    } catch (const ssac::DataError& e) {
      return std::string(e.what());
    }
  };
  const std::string file = (tmp.path / "gamma.csv").string();
  EXPECT_EQ(read_with("\"0\", \"" + g + "\" ," + draws), "same");
  EXPECT_EQ(read_with("0,\"" + g + "," + draws + "\""),
            file + ":2:1: expected 3 fields rep,gamma,draws, found 2");
  EXPECT_EQ(read_with("\"0,1\"," + g + "," + draws),
            file + ":2:1: column 1 (rep): '0,1' is not a whole number");
  EXPECT_EQ(read_with("0,\"1\"\"5\"," + draws),
            file + ":2:3: column 2 (gamma): '1\"5' is not a number");
  EXPECT_EQ(read_with("0," + g + ",x"),
            file + ":2:" + std::to_string(b + 2) + ": column 3 (draws): 'x' is not a whole number");
  EXPECT_EQ(read_with("1," + g + "," + draws), file + ":2:1: column 1 (rep): expected rep 0");
  EXPECT_EQ(read_with("0,-1," + draws), file +
                                            ":2:3: column 2 (gamma): -1 is outside the window (" +
                                            ssac::format_double(small(2).gen.gamma_min) + ", " +
                                            ssac::format_double(small(2).gen.gamma_max) + "]");
  std::ofstream(tmp.path / "gamma.csv", std::ios::binary) << "rep,\"gam,ma\",draws\n"
                                                          << gamma.substr(row2);
  try {
    ssac::read_experiment(tmp.path.string());
    ADD_FAILURE() << "a header with a quoted comma was accepted";
  } catch (const ssac::DataError& e) {
    EXPECT_EQ(std::string(e.what()),
              file + ":1:5: expected the header rep,gamma,draws (column 2 is 'gamma')");
  }
}

TEST(Experiment, ParametersOutOfRangeAreNamed) {
  auto c = small(1);
  c.q = {0.0};
  try {
    c.check();
    FAIL() << "no error";
  } catch (const ssac::ParameterError& e) {
    EXPECT_NE(std::string(e.what()).find("q"), std::string::npos);
  }
  c = small(1);
  c.eta = {};
  EXPECT_THROW(c.check(), ssac::ParameterError);
  // An eta list must increase: the tables and figures are in its order, and gnuplot would find a
  // descending one only after every rep had run.
  for (const std::vector<double>& eta :
       {std::vector<double>{50, 2}, std::vector<double>{2, 5, 5}}) {
    c = small(1);
    c.eta = eta;
    try {
      c.check();
      ADD_FAILURE() << "accepted";
    } catch (const ssac::ParameterError& e) {
      EXPECT_EQ(std::string(e.what()),
                "eta: the values must increase (the tables' columns and the figures' axis are in "
                "eta order): " +
                    ssac::format_double(eta[eta.size() - 2]) + " is followed by " +
                    ssac::format_double(eta.back()));
    }
  }
  c = small(1);
  c.eta = {2, 5};
  EXPECT_NO_THROW(c.check());
  c = small(1);
  c.oracles = {ssac::OracleKind::local};
  c.nu = {0.5};
  EXPECT_THROW(c.check(), ssac::ParameterError);
  c = small(1);
  c.reps = 0;
  EXPECT_THROW(c.check(), ssac::ParameterError);
}

TEST(Experiment, PerfectOraclesNeverFailOnSeparableData) {
  // With q = 1 (or a global oracle with rho = 1, which never abstains) the oracle is perfect, so
  // the coin flips of the original SSAC never fire; the data are separable (gamma > 1), so both
  // recover every cluster at eta = 10.
  auto c = small(6);
  c.q = {1.0};
  c.eta = {10};
  c.oracles = {ssac::OracleKind::random, ssac::OracleKind::global};
  c.rho = {1.0};
  c.original = true;
  const auto r = ssac::run_experiment(c, 2);
  ASSERT_EQ(r.cells.size(), 4u);
  for (std::size_t i = 0; i < r.cells.size(); ++i)
    EXPECT_EQ(r.totals[i].failures, 0u) << i;
  EXPECT_GT(r.totals[0].correct, 0u);
}

TEST(Experiment, CorrelatedOracleRunsEveryQWithEveryRhoAndReadsBack) {
  // Definition 5's marginal with correlated abstentions (CorrelatedWeakOracle): one row per
  // (q, rho). At q = 1 the oracle is never confused, so it is perfect and, the data being
  // separable, never fails at eta = 10; the summary reads back to the same bytes (ssac merge).
  TempDir tmp;
  auto c = small(6);
  c.oracles = {ssac::OracleKind::correlated};
  c.q = {0.7, 1.0};
  c.rho = {0.5, 0.9};
  c.eta = {10};
  const auto cells = ssac::experiment_cells(c);
  ASSERT_EQ(cells.size(), 4u);
  EXPECT_EQ(cells[1].row_label(), "q=0.7 rho=0.9");
  EXPECT_EQ(cells[2].row_label(), "q=1 rho=0.5");
  const auto r = ssac::run_experiment(c, 2);
  EXPECT_EQ(r.totals[2].failures, 0u);
  EXPECT_EQ(r.totals[3].failures, 0u);
  write_summary(r, tmp.path);
  EXPECT_EQ(ssac::summary_json(ssac::read_experiment(tmp.path.string())), ssac::summary_json(r));
  c.rho = {};
  EXPECT_THROW(c.check(), ssac::ParameterError);
}

}  // namespace

// The worker pool (ssac/workers.hpp) of the experiment, calibrate and harden: the first exception
// of a worker stops the others and is rethrown once all are joined; one that never throws runs
// every worker to its end. The negative control is the second call: nothing thrown.
TEST(Workers, TheFirstErrorStopsTheOthersAndIsRethrownAfterTheJoin) {
  std::atomic<int> started{0}, finished{0};
  std::atomic<bool> stop{false};
  auto work = [&] {
    const int me = started.fetch_add(1);
    if (me == 0) throw ssac::DataError("worker failed");
    while (!stop.load())
      std::this_thread::yield();
    finished.fetch_add(1);
  };
  try {
    ssac::run_workers(4, work, [&] { stop.store(true); });
    FAIL() << "no error";
  } catch (const ssac::DataError& e) {
    EXPECT_STREQ(e.what(), "worker failed");
  }
  EXPECT_EQ(started.load(), 4);
  EXPECT_EQ(finished.load(), 3);  // every other worker ended before the rethrow
  std::atomic<int> ran{0};
  ssac::run_workers(
      3, [&] { ran.fetch_add(1); }, [] {});
  EXPECT_EQ(ran.load(), 3);
}
