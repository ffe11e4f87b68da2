// Shared by `ssac experiment` and `ssac merge`: the progress bar and the final report.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

#include "ssac/experiment.hpp"

namespace ssac::cli {

// A one-line bar on stderr, redrawn at most ten times a second, with the rate and an ETA.
class ProgressBar {
 public:
  ProgressBar(std::uint64_t total, bool enabled);
  void update(std::uint64_t done);
  void finish();

 private:
  std::uint64_t total_;
  bool enabled_, drawn_ = false;
  std::chrono::steady_clock::time_point start_;
};

// Writes the output directory, then (unless quiet) prints the tables, the timing and the files.
int report(const ExperimentResult& r, const std::string& out, bool no_plots, bool quiet);

}  // namespace ssac::cli
