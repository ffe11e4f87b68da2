// The `ssac` program's parser and dispatcher (main.cpp calls run_app; fuzz/fuzz_cli.cpp drives the
// same parser). Exit status (README, "Commands"):
//   0  success
//   1  bad data: a file that cannot be read or written, or whose content the format does not
//      allow; a generator window that cannot be reached
//   2  usage: an unknown option, a missing argument, a parameter outside its admissible range
//   3  internal error: an exception no check anticipated (a bug), reported on one line
#include <iostream>
#include <vector>

#include "commands.hpp"
#include "ssac/error.hpp"
#include "ssac/version.hpp"

namespace ssac::cli {

std::size_t to_size(const char* name, long long value, long long lo, long long hi) {
  if (value < lo || value > hi)
    throw_out_of_range(name, value, "[" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
  return static_cast<std::size_t>(value);
}

CLI::Option* add_seed_option(CLI::App* app, unsigned long long& seed) {
  return app->add_option("--seed", seed, "random seed, a whole number in 0..2^64-1")
      ->check(CLI::Validator(
          [](const std::string& s) -> std::string {
            if (s.empty() || s.find_first_not_of("0123456789") != std::string::npos)
              return "--seed = " + s + " is outside its admissible range 0..2^64-1 (whole numbers)";
            return {};
          },
          "0..2^64-1", "seed"))
      ->capture_default_str();
}

int run_app(int argc, char** argv, bool parse_only) {
  CLI::App app{
      "ssac: reference implementation of Semi-Supervised Active Clustering with Weak Oracles "
      "(Kim & Ghosh), extending SSAC (Ashtiani et al. 2016).",
      "ssac"};
  app.require_subcommand(1);
  // The version is project()'s in the top-level CMakeLists.txt (ssac/version.hpp).
  const std::string version = std::string("ssac ") + kVersion;
  app.set_version_flag("--version", version);
  std::vector<Command> commands = {add_generate(app),    add_gamma(app),  add_cluster(app),
                                   add_experiment(app),  add_merge(app),  add_validate(app),
                                   add_conformance(app), add_bounds(app), add_calibrate(app),
                                   add_exact(app)};
  std::string where = "ssac";
  // CLI11 reports an unknown command only as "a subcommand is required"; name it instead.
  if (argc > 1 && argv[1][0] != '-') {
    const std::string name = argv[1];
    bool known = false;
    std::string list;
    for (auto& c : commands) {
      known |= c.app->get_name() == name;
      list += (list.empty() ? "" : ", ") + c.app->get_name();
    }
    if (!known) {
      std::cerr << "ssac: error: unknown command '" << name << "' (commands: " << list
                << "; see --help)\n";
      return 2;
    }
    where = "ssac " + name;
  }
  try {
    app.parse(argc, argv);
    if (parse_only) return 0;
    for (auto& c : commands)
      if (c.app->parsed()) return c.run();
  } catch (const CLI::CallForHelp&) {
    std::cout << app.help();
    return 0;
  } catch (const CLI::CallForAllHelp&) {
    std::cout << app.help("", CLI::AppFormatMode::All);
    return 0;
  } catch (const CLI::CallForVersion&) {
    std::cout << version << "\n";
    return 0;
  } catch (const CLI::ParseError& e) {
    // Help requested on a subcommand arrives here too, as a success.
    if (e.get_exit_code() == 0) return app.exit(e);
    std::string msg = e.what();
    for (auto& ch : msg)
      if (ch == '\n') ch = ' ';
    std::cerr << where << ": error: " << msg << " (see --help)\n";
    return 2;
  } catch (const ParameterError& e) {
    std::cerr << where << ": error: " << e.what() << "\n";
    return 2;
  } catch (const DataError& e) {
    std::cerr << where << ": error: " << e.what() << "\n";
    return 1;
  } catch (const std::bad_alloc&) {
    std::cerr << where << ": error: out of memory\n";
    return 1;
  } catch (const std::exception& e) {
    // Not an error the user can fix: a bug. Still one line and a documented status, not a crash.
    std::cerr << where << ": internal error: " << e.what() << " (please report it)\n";
    return 3;
  }
  return 2;
}

}  // namespace ssac::cli
