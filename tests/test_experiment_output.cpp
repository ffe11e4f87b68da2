// The output directory of `ssac experiment` and `ssac merge` (cli/experiment/): the tables,
// the inputs of the committed gnuplot script, and the figures. A run split into slices and merged
// writes the same bytes as the run at once -- the figures included, whose first rep `ssac merge`
// runs again -- and a failure leaves no file behind.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "experiment/experiment_output.hpp"
#include "experiment/experiment_plots.hpp"
#include "experiment/experiment_tables.hpp"
#include "ssac/error.hpp"
#include "ssac/experiment.hpp"
#include "ssac/experiment_summary.hpp"

namespace fs = std::filesystem;

namespace {

ssac::ExperimentConfig small(std::uint64_t reps) {
  ssac::ExperimentConfig c = ssac::preset_config("paper-main");
  c.gen.n = 240;
  c.q = {0.7, 1.0};
  c.eta = {2, 10};
  c.reps = reps;
  c.seed = 11;
  return c;
}

std::string read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

struct TempDir {
  fs::path path;
  TempDir() {
    path = fs::temp_directory_path() /
           ("ssac_test_experiment_output_" + std::to_string(getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempDir() { fs::remove_all(path); }
};

std::vector<std::string> files_in(const fs::path& dir) {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir))
    names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

// A result with hand-made totals: one random-weak block, q in {0.7, 1}, eta in {2, 10}, 2 reps
// of n = 10 points (20 points per cell).
ssac::ExperimentResult hand_made() {
  ssac::ExperimentResult r;
  r.config = ssac::preset_config("paper-main");
  r.config.gen.n = 10;
  r.config.q = {0.7, 1.0};
  r.config.eta = {2, 10};
  r.config.reps = 2;
  r.cells = ssac::experiment_cells(r.config);
  r.totals.resize(4);
  const std::uint64_t correct[] = {15, 19, 20, 20}, failures[] = {1, 0, 0, 0};
  for (std::size_t i = 0; i < 4; ++i) {
    r.totals[i].correct = correct[i];
    r.totals[i].failures = failures[i];
  }
  r.gamma = {1.02, 1.08};
  r.draws = {1, 3};
  return r;
}

TEST(ExperimentOutput, TablesOfHandMadeTotals) {
  const auto r = hand_made();
  const ssac::ExperimentBlock b{ssac::OracleKind::random, false};
  EXPECT_EQ(ssac::cli::block_name(b), "random_weak");
  // Accuracy = correct points / (n * reps) in percent: 15/20 = 75 %.
  EXPECT_EQ(ssac::cli::block_csv(r, b, ssac::cli::Metric::accuracy),
            "q,2,10\n0.7,75,95\n1,100,100\n");
  EXPECT_EQ(ssac::cli::block_csv(r, b, ssac::cli::Metric::failures), "q,2,10\n0.7,1,0\n1,0,0\n");
  const std::string t = ssac::cli::format_tables(r);
  // Row keys padded to 7 characters ("q \ eta"), values right-aligned in 9.
  EXPECT_NE(t.find("  q \\ eta        2       10\n"
                   "  0.7       75.000   95.000\n"
                   "  1        100.000  100.000\n"),
            std::string::npos)
      << t;
  EXPECT_NE(t.find("  #Failure (of 2)\n"), std::string::npos) << t;
  EXPECT_THROW(
      ssac::cli::block_csv(r, {ssac::OracleKind::local, false}, ssac::cli::Metric::accuracy),
      ssac::ParameterError);
}

TEST(ExperimentOutput, GammaHistogramSharesOverTheWindowOrTheObservedRange) {
  auto r = hand_made();
  r.gamma = {1.0, 1.02, 1.05, 1.1};  // 1.0 lies below the window and counts in the first bin
  double lo = 0, hi = 0;
  const std::string h = ssac::cli::gamma_hist_csv(r, 2, lo, hi);
  EXPECT_EQ(lo, 1.0);
  EXPECT_EQ(hi, 1.1);
  EXPECT_EQ(h, "bin_low,bin_high,count,share\n1,1.05,2,0.5\n1.05,1.1,2,0.5\n");
  r.config.gen.gamma_min = 0;
  r.config.gen.gamma_max = std::numeric_limits<double>::infinity();
  r.gamma = {1.0, 3.0};
  ssac::cli::gamma_hist_csv(r, 2, lo, hi);
  EXPECT_EQ(lo, 0.0);
  EXPECT_EQ(hi, 3.0);
}

TEST(ExperimentOutput, ScatterAndCentersOfAHandMadeRep) {
  ssac::RepScatter s;
  s.rep = 7;
  s.gamma = 1.04;
  s.data.points.resize(2, 2);
  s.data.points << 0.5, -1, 2, 3.25;
  s.data.labels = {1, 2};
  s.fits.resize(2);  // one row, eta index 0 and 1
  s.fits[0].labels = {1, 0};
  s.fits[0].centers.push_back({1, ssac::Vector::Constant(2, 0.5)});
  s.fits[1].labels = {2, 1};
  s.fits[1].centers.push_back({0, (ssac::Vector(2) << 2, 3.25).finished()});
  EXPECT_EQ(ssac::cli::scatter_csv(s, 2), "x1,x2,truth,r0e0,r0e1\n0.5,-1,1,1,2\n2,3.25,2,0,1\n");
  EXPECT_EQ(ssac::cli::centers_csv(s, 2),
            "row,eta_index,cluster,x1,x2\n0,0,1,0.5,0.5\n0,1,0,2,3.25\n");
}

TEST(ExperimentOutput, PlotValuesNameEveryBlockAndRow) {
  auto r = hand_made();
  r.config.oracles = {ssac::OracleKind::local};
  r.config.nu = {1.5};
  r.config.rho = {0.7, 1};
  r.config.original = true;
  const std::string v = ssac::cli::plot_values(r, 1, 1.1);
  EXPECT_NE(v.find("where = \"n = 10, m = 2, k = 3, 1 < {/Symbol g} <= 1.1, 2 reps\"\n"),
            std::string::npos)
      << v;
  EXPECT_NE(v.find("array eta[2] = [2, 10]\n"), std::string::npos) << v;
  EXPECT_NE(v.find("array block_name[2] = [\"local_weak\", \"local_original\"]\n"),
            std::string::npos)
      << v;
  EXPECT_NE(v.find("array block_keys[2] = [2, 2]\n"), std::string::npos) << v;
  EXPECT_NE(v.find("array block_rows[2] = [2, 2]\n"), std::string::npos) << v;
  EXPECT_NE(v.find("array row_label[4] = [\"nu=1.5 rho=0.7\", \"nu=1.5 rho=1\", \"nu=1.5 "
                   "rho=0.7\", \"nu=1.5 rho=1\"]\n"),
            std::string::npos)
      << v;
  EXPECT_NE(v.find("hist_lo = 1\nhist_hi = 1.1\nscatter = 0\n"), std::string::npos) << v;
}

// The program writes the committed script, byte for byte.
TEST(ExperimentOutput, PlotsScriptIsTheCommittedOne) {
  const std::string committed = read(fs::path(SSAC_SOURCE_DIR) / "cli" / "experiment" / "plots.gp");
  ASSERT_FALSE(committed.empty());
  EXPECT_EQ(ssac::cli::plots_script(), committed);
}

// Slices written (one without figures), read and merged give the files of the single run,
// byte for byte; the figures come from gnuplot (Debian's gnuplot-nox, scripts/install-deps.sh).
TEST(ExperimentOutput, SlicesMergedWriteTheSingleRunsFilesFiguresIncluded) {
  TempDir tmp;
  auto c = small(5);
  c.original = true;
  ssac::cli::WriteOptions w;
  const auto whole_files =
      ssac::cli::write_experiment(ssac::run_experiment(c, 2), (tmp.path / "whole").string(), w);
  std::vector<ssac::ExperimentResult> parts;
  std::vector<std::string> names;
  for (auto [a, b] : {std::pair<int, int>{2, 5}, {0, 2}}) {
    auto s = c;
    s.rep_first = static_cast<std::uint64_t>(a);
    s.reps = static_cast<std::uint64_t>(b - a);
    const std::string dir = (tmp.path / ("slice" + std::to_string(a))).string();
    ssac::cli::WriteOptions ws;
    ws.plots = a != 0;  // the first slice has no scatter files to offer
    ssac::cli::write_experiment(ssac::run_experiment(s, 1), dir, ws);
    parts.push_back(ssac::read_experiment(dir));
    names.push_back(dir);
  }
  auto merged = ssac::merge_experiments(parts, names);
  ASSERT_FALSE(merged.scatter.has_value());
  merged.scatter = ssac::rep_scatter(merged.config, merged.config.rep_first);  // as ssac merge
  const auto merged_files = ssac::cli::write_experiment(merged, (tmp.path / "merged").string(), w);

  std::vector<std::string> expected = merged_files;
  expected.push_back("timing.json");  // only the single run has timings
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(whole_files, expected);
  EXPECT_EQ(files_in(tmp.path / "whole"), whole_files);  // no staging directory left behind
  for (const std::string f :
       {"summary.json", "gamma.csv", "table.txt", "accuracy_random_weak.csv",
        "failures_random_original.csv", "gamma_hist.csv", "scatter.csv", "centers.csv", "plots.gp",
        "plot_values.gp", "accuracy_random_original.png", "gamma_hist.png",
        "scatter_random_weak_q_0.7.png", "scatter_random_weak_q_1.png"}) {
    ASSERT_NE(std::find(merged_files.begin(), merged_files.end(), f), merged_files.end()) << f;
    const std::string whole = read(tmp.path / "whole" / f);
    EXPECT_FALSE(whole.empty()) << f;
    EXPECT_EQ(read(tmp.path / "merged" / f), whole) << f;
  }
}

// A gnuplot that cannot draw (here `false`, which exits 1) or is missing is found by
// prepare_output's probe before anything is written.
TEST(ExperimentOutput, AGnuplotThatCannotDrawIsFoundBeforeAnythingIsWritten) {
  TempDir tmp;
  const auto r = ssac::run_experiment(small(1), 1);
  ssac::cli::WriteOptions w;
  w.gnuplot = "false";
  const fs::path out = tmp.path / "out";
  try {
    ssac::cli::write_experiment(r, out.string(), w);
    FAIL() << "no error";
  } catch (const ssac::DataError& e) {
    EXPECT_NE(std::string(e.what()).find("false: cannot draw PNG files"), std::string::npos)
        << e.what();
  }
  EXPECT_FALSE(fs::exists(out));            // not even created
  EXPECT_TRUE(files_in(tmp.path).empty());  // and no staging directory beside it
  w.gnuplot = (tmp.path / "no-such-program").string();
  try {
    ssac::cli::write_experiment(r, out.string(), w);
    FAIL() << "no error";
  } catch (const ssac::DataError& e) {
    EXPECT_NE(std::string(e.what()).find("not found"), std::string::npos) << e.what();
  }
  EXPECT_FALSE(fs::exists(out));            // not even created
  EXPECT_TRUE(files_in(tmp.path).empty());  // and no staging directory beside it
}

// With more than one thread the figures are drawn by gnuplot processes side by side
// (plots_script_parts); every file is the one a lone gnuplot on plots.gp draws, byte for byte.
// The control: the same figure of another run differs, so the comparison sees a figure's content.
TEST(ExperimentOutput, FiguresDrawnSideBySideAreTheLoneRunsByteForByte) {
  TempDir tmp;
  auto c = small(2);
  c.q = {0.7, 0.85, 1.0};
  auto r = ssac::run_experiment(c, 2);
  ASSERT_EQ(r.threads, 2u);
  ASSERT_EQ(ssac::cli::plots_script_parts(3, 2).size(), 2u);
  ssac::cli::WriteOptions w;
  const auto side_by_side = ssac::cli::write_experiment(r, (tmp.path / "two").string(), w);
  r.threads = 1;
  const auto alone = ssac::cli::write_experiment(r, (tmp.path / "one").string(), w);
  EXPECT_EQ(side_by_side, alone);
  EXPECT_EQ(files_in(tmp.path / "two"), side_by_side);  // no part script or log left behind
  int figures = 0;
  for (const std::string& f : alone) {
    if (f == "timing.json") continue;  // it states the threads
    figures += fs::path(f).extension() == ".png";
    EXPECT_EQ(read(tmp.path / "two" / f), read(tmp.path / "one" / f)) << f;
  }
  EXPECT_EQ(figures, 6);  // Accuracy, #Failure, the histogram, three visualisations
  c.seed = 12;
  const auto other = ssac::run_experiment(c, 2);
  ssac::cli::write_experiment(other, (tmp.path / "other").string(), w);
  EXPECT_NE(read(tmp.path / "other" / "scatter_random_weak_q_0.85.png"),
            read(tmp.path / "two" / "scatter_random_weak_q_0.85.png"));
}

// A gnuplot that passes the probe and then fails on the script costs the figures only: the rest
// of the directory is written, PlotsFailed names the failure and lists the files.
TEST(ExperimentOutput, APlotterFailingAfterTheProbeKeepsTheResults) {
  TempDir tmp;
  const fs::path fake = tmp.path / "fake-gnuplot";
  {
    std::ofstream f(fake);
    f << "#!/bin/sh\n[ \"$1\" = -e ] && exit 0\necho 'plots.gp line 1: broken' >&2\nexit 1\n";
  }
  fs::permissions(fake, fs::perms::owner_all);
  const auto r = ssac::run_experiment(small(1), 1);
  ssac::cli::WriteOptions w;
  w.gnuplot = fake.string();
  const fs::path out = tmp.path / "out";
  try {
    ssac::cli::write_experiment(r, out.string(), w);
    FAIL() << "no error";
  } catch (const ssac::cli::PlotsFailed& e) {
    EXPECT_NE(std::string(e.what()).find("failed on plots.gp: plots.gp line 1: broken"),
              std::string::npos)
        << e.what();
    EXPECT_EQ(e.files, files_in(out));
  }
  EXPECT_EQ(read(out / "summary.json"), ssac::summary_json(r));
  for (const std::string& f : files_in(out))
    EXPECT_NE(fs::path(f).extension(), ".png") << f;
  EXPECT_TRUE(fs::exists(out / "gnuplot.log"));
  EXPECT_EQ(files_in(tmp.path), (std::vector<std::string>{"fake-gnuplot", "out"}));
}

}  // namespace
