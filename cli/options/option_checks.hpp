// The checks the commands put on their options, so that a bad value is refused while the command
// line is parsed -- one line naming the option and the values it admits -- before any work starts.
#pragma once

#include <CLI/CLI.hpp>
#include <cstddef>
#include <initializer_list>
#include <string>

#include "ssac/generator.hpp"

namespace ssac::cli {

// `value` as a size if it lies in [lo, hi]; otherwise a usage error (ParameterError) that names
// `name` and the interval.
std::size_t to_size(const char* name, long long value, long long lo, long long hi);
// The help texts' form of a whole-number interval, "LO..HI" (bounds from ssac/ranges.hpp).
std::string range_help(long long lo, long long hi);

// Registers --seed on `app`. Its text must be a whole number in 0..2^64-1: "-1" is refused rather
// than wrapped around to 2^64-1 as CLI11's own conversion would.
CLI::Option* add_seed_option(CLI::App* app, unsigned long long& seed);

// Registers --gaussians, the generator's stream version (proofs-notes/semantics.md, "The
// generator's stream versions"), whose help names `default_method`: the command's default when
// the option is not given. The value is checked against gaussian_method_names() at parse time.
CLI::Option* add_gaussians_option(CLI::App* app, std::string& name, GaussianMethod default_method);

// Marks the named options of `app` as paths: an empty text is a usage error at parse time
// ("--NAME: the path is empty"), not a silent "not given" or a later error without the option.
void path_options(CLI::App* app, std::initializer_list<const char*> names);

// Puts ssac/numbers.hpp's exact reader in front of every numeric option of `app` and of its
// subcommands: CLI11 by itself takes "010" for octal and "0x10" for hexadecimal, and clamps or
// wraps what is out of range; here the text is checked, then handed to CLI11 in a canonical
// decimal form that converts exactly.
void exact_numbers(CLI::App* app);

}  // namespace ssac::cli
