// The figures of `ssac experiment` and `ssac merge`, drawn by gnuplot from the committed script
// cli/experiment/plots.gp (compiled into the program and written beside the data as plots.gp). This
// file writes what the script reads -- the histogram's bins, the scatter data and plot_values.gp,
// the run's values; gnuplot.hpp runs gnuplot on it. The Accuracy and #Failure tables the script
// also reads are experiment_tables.hpp's CSV files.
#pragma once

#include <string>
#include <vector>

#include "ssac/experiment.hpp"

namespace ssac::cli {

// The script, as committed in cli/experiment/plots.gp.
const std::string& plots_script();
// The same figures as min(parts, scatter_rows) scripts that gnuplot can run at the same time,
// when that is at least 2 (empty otherwise; scatter_rows is the number of the visualisation's
// files): the first draws what plots.gp draws up to the end of its share of the visualisation's
// files, each other one its share. Each draws its files as plots.gp draws them, byte for byte
// (tests/test_experiment_output.cpp compares them).
std::vector<std::string> plots_script_parts(std::size_t scatter_rows, std::size_t parts);

// gamma_hist.csv: "bin_low,bin_high,count,share", `bins` equal bins over the gamma window (or up
// to the largest gamma seen when the window is open); share = count / reps, the paper's
// normalisation. Sets lo and hi to the histogram's range.
std::string gamma_hist_csv(const ExperimentResult& r, int bins, double& lo, double& hi);

// scatter.csv: "x1,x2,truth" and one column "rRIeEI" per fit of the first block (row RI, eta
// index EI), the recovered labels renamed by the greedy matching; one line per point.
std::string scatter_csv(const RepScatter& s, std::size_t etas);
// centers.csv: "row,eta_index,cluster,x1,x2", the estimated centers mu'_p of every fit.
std::string centers_csv(const RepScatter& s, std::size_t etas);

// plot_values.gp: the run's values that plots.gp documents at its top (titles, eta, blocks and
// their rows, the histogram's range, the scatter's rep, gamma and accuracies).
std::string plot_values(const ExperimentResult& r, double hist_lo, double hist_hi);

}  // namespace ssac::cli
