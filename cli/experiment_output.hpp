// The output of `ssac experiment` and `ssac merge` (docs/experiment.md, "Output directory"): the
// summary files of the library (ssac/experiment_summary.hpp), the tables, and the figures.
#pragma once

#include <string>
#include <vector>

#include "ssac/experiment.hpp"

namespace ssac::cli {

struct WriteOptions {
  bool plots = true;
  std::string gnuplot = "gnuplot";
};
// Writes summary.json, gamma.csv, the CSV tables, table.txt, timing.json (when the result has
// timings) and, with plots, the figures' inputs (gamma_hist.csv; scatter.csv and centers.csv when
// the result has scatter data; plots.gp and plot_values.gp) and the PNG files gnuplot draws from
// them, into `dir` (created if missing). Every file is first written into a staging directory
// inside `dir` and renamed into place only when all were written, so a failure leaves no partial
// output. Returns the names of the files written, sorted.
std::vector<std::string> write_experiment(const ExperimentResult& r, const std::string& dir,
                                          const WriteOptions& opt);

// Writes the output directory, then (unless quiet) prints the tables, the timing and the files.
int report(const ExperimentResult& r, const std::string& out, bool no_plots, bool quiet);

}  // namespace ssac::cli
