// The results of the paper's evaluation as files: summary.json (the configuration and each cell's
// Section 5.2 metrics with the integer totals behind them) and gamma.csv (each rep's dataset),
// read back and merged across slices of one run (docs/experiment.md, "Determinism, slices and
// merging"). Tables and figures are the command line's (cli/).
#pragma once

#include <string>
#include <vector>

#include "ssac/experiment.hpp"

namespace ssac {

// summary.json: the configuration and per-cell results; deterministic (no timings).
std::string summary_json(const ExperimentResult& r);
// gamma.csv: "rep,gamma,draws", one line per rep.
std::string gamma_csv(const ExperimentResult& r);
// Reads summary.json and gamma.csv from `dir` (an output directory of `ssac experiment`). Throws
// DataError naming the file on malformed content. The result has no scatter data.
ExperimentResult read_experiment(const std::string& dir);
// Combines slices of one run (same configuration, disjoint and together contiguous rep ranges)
// into the result of running their union at once, timings aside. Its first rep is the first
// slice's, so it keeps that slice's scatter data, if it has any. Throws DataError naming the
// mismatch.
ExperimentResult merge_experiments(std::vector<ExperimentResult> parts,
                                   const std::vector<std::string>& names);

}  // namespace ssac
