// The progress bar of `ssac experiment` (progress_bar.hpp): one redrawn line on stderr.
#include "output/progress_bar.hpp"

#include <cstdio>
#include <string>

namespace ssac::cli {

ProgressBar::ProgressBar(std::uint64_t total, bool enabled)
    : total_(total), enabled_(enabled), start_(std::chrono::steady_clock::now()) {}

void ProgressBar::update(std::uint64_t done) {
  if (!enabled_) return;
  const double t = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  const double rate = t > 0 ? static_cast<double>(done) / t : 0.0;
  const int width = 30;
  const int filled = static_cast<int>(static_cast<double>(width) * static_cast<double>(done) /
                                      static_cast<double>(total_));
  std::string bar(static_cast<std::size_t>(filled), '#');
  bar += std::string(static_cast<std::size_t>(width - filled), '.');
  char eta[32] = "--";
  if (rate > 0) std::snprintf(eta, sizeof eta, "%.0fs", static_cast<double>(total_ - done) / rate);
  std::fprintf(stderr, "\r[%s] %llu/%llu reps  %.0f reps/s  ETA %s   ", bar.c_str(),
               static_cast<unsigned long long>(done), static_cast<unsigned long long>(total_), rate,
               eta);
  std::fflush(stderr);
  drawn_ = true;
}

void ProgressBar::finish() {
  if (drawn_) std::fprintf(stderr, "\n");
}

}  // namespace ssac::cli
