// `ssac merge`: combines the output directories of `ssac experiment --reps-range` slices of one
// run into the output of the whole run; summary.json is byte-for-byte the one a single run writes
// (its totals are integers, the gammas are kept per rep). Also the shared report code.
#include <cstdio>
#include <iostream>
#include <memory>

#include "commands.hpp"
#include "experiment_output.hpp"
#include "ssac/error.hpp"

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

int report(const ExperimentResult& r, const std::string& out, bool no_plots, bool quiet) {
  WriteOptions w;
  w.plots = !no_plots;
  const auto files = write_experiment(r, out, w);
  if (quiet) return 0;
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
  std::cout << "\n";
  return 0;
}

Command add_merge(CLI::App& root) {
  auto* app = root.add_subcommand(
      "merge",
      "Combine the output directories of `ssac experiment --reps-range A:B` slices of one run "
      "into the output of the whole run (same summary.json as running it at once).");
  struct Opts {
    std::vector<std::string> dirs;
    std::string out;
    bool quiet = false, no_plots = false;
  };
  auto o = std::make_shared<Opts>();
  app->add_option("DIR", o->dirs, "slice output directories, in any order")->required();
  app->add_option("--out", o->out, "output directory for the merged run")->required();
  app->add_flag("--quiet", o->quiet, "print nothing but errors");
  app->add_flag("--no-plots", o->no_plots, "skip the gnuplot figures");
  return {app, [o]() {
            std::vector<ExperimentResult> parts;
            for (const auto& d : o->dirs)
              parts.push_back(read_experiment(d));
            return report(merge_experiments(std::move(parts), o->dirs), o->out, o->no_plots,
                          o->quiet);
          }};
}

}  // namespace ssac::cli
