// Writes the output directory of `ssac experiment` and `ssac merge` (experiment_output.hpp): the
// summary files, the tables and the figures staged together so that they appear together.
#include "experiment/experiment_output.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>

#include "experiment/experiment_plots.hpp"
#include "experiment/experiment_tables.hpp"
#include "plots/gnuplot.hpp"
#include "ssac/error.hpp"
#include "ssac/experiment_summary.hpp"

namespace ssac::cli {

namespace {

namespace fs = std::filesystem;

// The files of one output directory, written into its staging directory (OutputFiles).
struct Staged {
  OutputFiles& outputs;
  std::string dir;
  fs::path staging;
  std::vector<std::string> files;
  void put(const std::string& name, const std::string& content) {
    outputs.stage_in(dir, name, content);
    files.push_back(name);
  }
};

// Timings vary from run to run, so they are kept out of summary.json.
std::string timing_json(const ExperimentResult& r) {
  nlohmann::ordered_json t;
  t["wall_seconds"] = r.wall_seconds;
  t["threads"] = r.threads;
  t["generation_seconds"] = r.generation_seconds;
  t["fit_seconds"] = r.fit_seconds;
  t["generation_share"] = r.generation_seconds / (r.generation_seconds + r.fit_seconds);
  t["reps_per_second"] = static_cast<double>(r.config.reps) / r.wall_seconds;
  return t.dump(2) + "\n";
}

// The figures. gnuplot was probed before the run (check_gnuplot), so a failure here is rare; it
// costs the figures only: the PNG files it drew are dropped (the one it was drawing may be
// incomplete), the rest of the directory is written, and the failure is returned (empty when
// gnuplot succeeded) to be reported after it.
std::string write_plots(const ExperimentResult& r, const WriteOptions& opt, Staged& st) {
  const int bins = 40;
  double hist_lo = 0.0, hist_hi = 0.0;
  st.put("gamma_hist.csv", gamma_hist_csv(r, bins, hist_lo, hist_hi));
  if (r.scatter) {
    st.put("scatter.csv", scatter_csv(*r.scatter, r.config.eta.size()));
    st.put("centers.csv", centers_csv(*r.scatter, r.config.eta.size()));
  }
  st.put("plot_values.gp", plot_values(r, hist_lo, hist_hi));
  st.put("plots.gp", plots_script());
  std::string failure;
  // The visualisation's files take most of gnuplot's time and do not depend on each other: with
  // more than one thread they are shared among as many gnuplot processes side by side (no more,
  // as each pays gnuplot's start and fonts again). Should one fail, the whole script runs again
  // alone, which says what failed as a lone run would.
  const std::vector<std::string> parts =
      r.scatter && r.threads > 1 && !r.config.eta.empty()
          ? plots_script_parts(r.scatter->cells.size() / r.config.eta.size(), r.threads)
          : std::vector<std::string>{};
  bool drawn = false;
  if (!parts.empty()) {
    std::vector<std::string> names;
    for (std::size_t i = 0; i < parts.size(); ++i) {
      names.push_back(".plots-part-" + std::to_string(i) + ".gp");
      std::ofstream(st.staging / names.back()) << parts[i];
    }
    drawn = run_gnuplot_each(opt.gnuplot, st.staging, names, r.threads);
    std::error_code ec;
    for (const std::string& n : names) {
      fs::remove(st.staging / n, ec);
      fs::remove(st.staging / (n + ".log"), ec);
    }
    if (!drawn) {  // the lone run below starts from no figure, as it would have
      std::vector<fs::path> drawn_pngs;
      for (const auto& e : fs::directory_iterator(st.staging))
        if (e.path().extension() == ".png") drawn_pngs.push_back(e.path());
      for (const fs::path& p : drawn_pngs)
        fs::remove(p, ec);
    }
  }
  if (!drawn) {
    try {
      run_gnuplot(opt.gnuplot, st.staging);
    } catch (const DataError& e) {
      failure = e.what();
    }
  }
  std::vector<fs::path> pngs;
  for (const auto& e : fs::directory_iterator(st.staging))
    if (e.path().extension() == ".png") pngs.push_back(e.path());
  std::error_code ec;
  if (failure.empty()) {
    for (const fs::path& p : pngs)
      st.files.push_back(p.filename().string());
    fs::remove(st.staging / "gnuplot.log", ec);
    return failure;
  }
  // The figure being drawn is the file gnuplot opened last (`set output`), the newest.
  fs::path newest;
  fs::file_time_type newest_time{};
  for (const fs::path& p : pngs) {
    const auto t = fs::last_write_time(p, ec);
    if (!ec && (newest.empty() || t > newest_time)) {
      newest = p;
      newest_time = t;
    }
    fs::remove(p, ec);
  }
  st.files.push_back("gnuplot.log");
  return failure + (newest.empty() ? "" : " (drawing " + newest.filename().string() + ")") +
         "; every result but the figures is written to " + st.dir + "/, with gnuplot.log (cd " +
         st.dir + " && gnuplot plots.gp draws them)";
}

}  // namespace

void prepare_output(OutputFiles& outputs, const std::string& dir, const WriteOptions& opt) {
  outputs.directory("--out", dir, "summary.json");
  if (opt.plots) check_gnuplot(opt.gnuplot);
}

std::vector<std::string> write_experiment(const ExperimentResult& r, OutputFiles& outputs,
                                          const std::string& dir, const WriteOptions& opt) {
  Staged st{outputs, dir, outputs.staging(dir), {}};
  st.put("summary.json", summary_json(r));
  st.put("gamma.csv", gamma_csv(r));
  st.put("table.txt", format_tables(r));
  if (r.wall_seconds > 0.0) st.put("timing.json", timing_json(r));
  for (const ExperimentBlock& b : experiment_blocks(r.config))
    for (Metric m : {Metric::accuracy, Metric::failures})
      st.put(std::string(metric_name(m)) + "_" + block_name(b) + ".csv", block_csv(r, b, m));
  const std::string plot_failure = opt.plots ? write_plots(r, opt, st) : std::string();
  // Every file is complete: the directory replaces the earlier one as a whole.
  outputs.commit();
  std::sort(st.files.begin(), st.files.end());
  if (!plot_failure.empty()) throw PlotsFailed(plot_failure, st.files);
  return st.files;
}

std::vector<std::string> write_experiment(const ExperimentResult& r, const std::string& dir,
                                          const WriteOptions& opt) {
  OutputFiles outputs;
  prepare_output(outputs, dir, opt);
  return write_experiment(r, outputs, dir, opt);
}

int report(const ExperimentResult& r, OutputFiles& outputs, const std::string& out, bool no_plots,
           bool quiet) {
  WriteOptions w;
  w.plots = !no_plots;
  std::vector<std::string> files;
  std::string plot_failure;
  try {
    files = write_experiment(r, outputs, out, w);
  } catch (const PlotsFailed& e) {
    files = e.files;
    plot_failure = e.what();
  }
  if (quiet) {
    if (!plot_failure.empty()) throw DataError(plot_failure);
    return 0;
  }
  std::cout << format_tables(r) << "\n";
  if (r.wall_seconds > 0) {
    std::printf(
        "time: %.2f s wall on %u threads; data generation %.2f s, fits %.2f s (summed over "
        "threads); %.0f reps/s\n",
        r.wall_seconds, r.threads, r.generation_seconds, r.fit_seconds,
        static_cast<double>(r.config.reps) / r.wall_seconds);
    std::fflush(stdout);
  }
  std::cout << "wrote " << out << "/:";
  for (const auto& f : files)
    std::cout << " " << f;
  std::cout << "\n" << std::flush;
  if (!plot_failure.empty()) throw DataError(plot_failure);
  return 0;
}

}  // namespace ssac::cli
