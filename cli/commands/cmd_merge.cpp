// `ssac merge`: combines the output directories of `ssac experiment --reps-range` slices of one
// run into the output of the whole run; summary.json is byte-for-byte the one a single run writes
// (its totals are integers, the gammas are kept per rep), and so are the tables and figures.
#include <memory>

#include "commands/commands.hpp"
#include "experiment/experiment_output.hpp"
#include "options/option_checks.hpp"
#include "ssac/experiment_summary.hpp"

namespace ssac::cli {

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
  path_options(app, {"DIR", "--out"});
  return {app, [o]() {
            OutputFiles outputs;  // checked, gnuplot included, before the slices are read
            for (const auto& d : o->dirs)
              outputs.input(d);
            WriteOptions w;
            w.plots = !o->no_plots;
            prepare_output(outputs, o->out, w);
            std::vector<ExperimentResult> parts;
            for (const auto& d : o->dirs) {
              parts.push_back(read_experiment(d));
              // A slice on fixed data reads the data again: it is an input too.
              if (parts.back().config.data) outputs.input(parts.back().config.data_path);
            }
            ExperimentResult merged = merge_experiments(std::move(parts), o->dirs);
            // The slices' summaries hold totals, not labels: the scatter figures' rep (the first
            // slice's first) is run once more, on the same streams, so they match a single run's.
            if (!o->no_plots && merged.config.gen.m == 2 && !merged.scatter)
              merged.scatter = rep_scatter(merged.config, merged.config.rep_first);
            return report(merged, outputs, o->out, o->no_plots, o->quiet);
          }};
}

}  // namespace ssac::cli
