// The output of `ssac experiment` and `ssac merge` (docs/experiment.md, "Output directory"): the
// summary files of the library (ssac/experiment_summary.hpp), the tables, and the figures.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "output/output_file.hpp"
#include "ssac/error.hpp"
#include "ssac/experiment.hpp"

namespace ssac::cli {

struct WriteOptions {
  bool plots = true;
  std::string gnuplot = "gnuplot";
};
// Registers `dir` as the command's output directory and checks, before the work starts, that it
// can be written (OutputFiles::directory, marker summary.json) and, with plots, that gnuplot is
// found.
void prepare_output(OutputFiles& outputs, const std::string& dir, const WriteOptions& opt);

// Writes summary.json, gamma.csv, the CSV tables, table.txt, timing.json (when the result has
// timings) and, with plots, the figures' inputs (gamma_hist.csv; scatter.csv and centers.csv when
// the result has scatter data; plots.gp and plot_values.gp) and the PNG files gnuplot draws from
// them, into `dir` (registered with prepare_output). Every file is first written into a staging
// directory beside `dir`, which replaces `dir` as a whole only when all were written, so a
// failure leaves no partial output and no file of an earlier run. Returns the names of the files
// written, sorted. The one exception is gnuplot failing on the figures (it was probed before the
// run, prepare_output): the results are kept, `dir` is written without the PNG files but with
// gnuplot.log, and PlotsFailed is thrown naming the failure.
struct PlotsFailed : DataError {
  PlotsFailed(const std::string& what, std::vector<std::string> written)
      : DataError(what), files(std::move(written)) {}
  std::vector<std::string> files;  // the files written, sorted
};
std::vector<std::string> write_experiment(const ExperimentResult& r, OutputFiles& outputs,
                                          const std::string& dir, const WriteOptions& opt);
// The same with its own OutputFiles.
std::vector<std::string> write_experiment(const ExperimentResult& r, const std::string& dir,
                                          const WriteOptions& opt);

// Writes the output directory, then (unless quiet) prints the tables, the timing and the files;
// a failure of the figures (PlotsFailed) is thrown as a DataError after that.
int report(const ExperimentResult& r, OutputFiles& outputs, const std::string& out, bool no_plots,
           bool quiet);

}  // namespace ssac::cli
