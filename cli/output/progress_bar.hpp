// The progress bar of `ssac experiment`: one line on stderr, redrawn about ten times a second
// (run_experiment's progress callback), with the rate and an estimate of the time left.
#pragma once

#include <chrono>
#include <cstdint>

namespace ssac::cli {

class ProgressBar {
 public:
  // Draws nothing unless `enabled` (the command enables it only when stderr is a terminal).
  ProgressBar(std::uint64_t total, bool enabled);
  void update(std::uint64_t done);
  // Ends the bar's line, if one was drawn.
  void finish();

 private:
  std::uint64_t total_;
  bool enabled_, drawn_ = false;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace ssac::cli
