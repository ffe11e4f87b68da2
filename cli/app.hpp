// The entry point of the `ssac` program as a function, so that main.cpp and the parser's fuzz
// target (fuzz/fuzz_cli.cpp) run the same code.
#pragma once

namespace ssac::cli {

// Parses the command line and runs the chosen command (app.cpp); returns the exit status. With
// parse_only the command is not run: only the parser and its checks are exercised (fuzz/).
int run_app(int argc, char** argv, bool parse_only);

}  // namespace ssac::cli
