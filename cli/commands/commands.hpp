// Each subcommand of `ssac` lives in its own cmd_*.cpp and registers itself here. `run` is called
// after the whole command line has been parsed, so that parsing errors are reported before any
// work starts or any file is written.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <string>

namespace ssac::cli {

struct Command {
  CLI::App* app = nullptr;
  std::function<int()> run;
};

Command add_generate(CLI::App& root);
Command add_gamma(CLI::App& root);
Command add_cluster(CLI::App& root);
Command add_experiment(CLI::App& root);
Command add_merge(CLI::App& root);
Command add_validate(CLI::App& root);
Command add_conformance(CLI::App& root);
Command add_bounds(CLI::App& root);
Command add_calibrate(CLI::App& root);
Command add_exact(CLI::App& root);
Command add_gof(CLI::App& root);
Command add_choices(CLI::App& root);
Command add_harden(CLI::App& root);
Command add_smallscope(CLI::App& root);
Command add_label(CLI::App& root);  // label/cmd_label.cpp

}  // namespace ssac::cli
