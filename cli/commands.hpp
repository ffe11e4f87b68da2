// Each subcommand of `ssac` lives in its own cmd_*.cpp and registers itself here. `run` is called
// after the whole command line has been parsed, so that parsing errors are reported before any
// work starts or any file is written.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>

namespace ssac::cli {

struct Command {
  CLI::App* app = nullptr;
  std::function<int()> run;
};

Command add_generate(CLI::App& root);
Command add_gamma(CLI::App& root);
Command add_cluster(CLI::App& root);

// Checked conversion of a command-line integer to a size: a negative value is a usage error
// naming the parameter and its range.
std::size_t to_size(const char* name, long long value, long long lo, long long hi);

}  // namespace ssac::cli
