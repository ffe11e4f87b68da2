// Each subcommand of `ssac` lives in its own cmd_*.cpp and registers itself here. `run` is called
// after the whole command line has been parsed, so that parsing errors are reported before any
// work starts or any file is written.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <initializer_list>
#include <string>

namespace ssac::cli {

// Parses the command line and runs the chosen command (app.cpp); returns the exit status. With
// parse_only the command is not run: only the parser and its checks are exercised (fuzz/).
int run_app(int argc, char** argv, bool parse_only);

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
Command add_label(CLI::App& root);  // label/cmd_label.cpp

// Checked conversion of a command-line integer to a size: a negative value is a usage error
// naming the parameter and its range.
std::size_t to_size(const char* name, long long value, long long lo, long long hi);
// "LO..HI", a whole-number range as the help texts write it (the bounds of ssac/ranges.hpp).
std::string range_help(long long lo, long long hi);

// --seed for every command: a whole number in 0..2^64-1. CLI11 alone would let "-1" wrap around
// to 2^64-1, so the text is checked before it is converted.
CLI::Option* add_seed_option(CLI::App* app, unsigned long long& seed);

// The options of `app` that name a file or a directory: an empty path is refused when the command
// line is parsed ("--NAME: the path is empty"), rather than taken for "not given" or reported
// later without a name.
void path_options(CLI::App* app, std::initializer_list<const char*> names);

}  // namespace ssac::cli
