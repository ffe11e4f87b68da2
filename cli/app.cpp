// The `ssac` program's parser and dispatcher (main.cpp calls run_app; fuzz/fuzz_cli.cpp drives the
// same parser). Exit status (docs/conventions.md):
//   0  success
//   1  bad data: a file that cannot be read or written, or whose content the format does not
//      allow; a generator window that cannot be reached
//   2  usage: an unknown option, a missing argument, a parameter outside its admissible range
//   3  internal error: an exception no check anticipated (a bug), reported on one line
//   4  a verdict, not an error: `ssac gof` judged the outcomes not to fit the law
#include <iostream>
#include <vector>

#include "app.hpp"
#include "commands/commands.hpp"
#include "options/option_checks.hpp"
#include "ssac/error.hpp"
#include "ssac/numbers.hpp"
#include "ssac/version.hpp"

namespace ssac::cli {

namespace {

// std::cerr through a buffer that remembers the last character, so that an error printed while a
// prompt of the interactive oracle is open starts on its own line.
class LastCharBuf : public std::streambuf {
 public:
  explicit LastCharBuf(std::streambuf* inner) : inner_(inner) {}
  bool at_line_start() const { return last_ == '\n'; }

 protected:
  int overflow(int c) override {
    if (c == traits_type::eof()) return inner_->pubsync() == 0 ? 0 : c;
    last_ = static_cast<char>(c);
    return inner_->sputc(static_cast<char>(c));
  }
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    if (n > 0) last_ = s[n - 1];
    return inner_->sputn(s, n);
  }
  int sync() override { return inner_->pubsync(); }

 private:
  std::streambuf* inner_;
  char last_ = '\n';
};

struct CerrGuard {
  LastCharBuf buf{std::cerr.rdbuf()};
  std::ios::iostate state = std::cerr.rdstate();  // rdbuf() clears it: kept (fuzz/ silences)
  std::streambuf* old = std::cerr.rdbuf(&buf);
  CerrGuard() { std::cerr.setstate(state); }
  ~CerrGuard() {
    std::cerr.rdbuf(old);
    std::cerr.setstate(state);
  }
  // The start of an error line.
  std::ostream& error() {
    if (!buf.at_line_start()) std::cerr << '\n';
    return std::cerr;
  }
};

}  // namespace

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
                                   add_exact(app),       add_gof(app),    add_choices(app),
                                   add_harden(app),      add_label(app),  add_smallscope(app)};
  exact_numbers(&app);
  CerrGuard err;
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
      std::cerr << "ssac: error: unknown command '" << number::printable(name)
                << "' (commands: " << list << "; see --help)\n";
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
    err.error() << where << ": error: " << number::printable(msg, 4096) << " (see --help)\n";
    return 2;
  } catch (const ParameterError& e) {
    err.error() << where << ": error: " << number::printable(e.what(), 4096) << "\n";
    return 2;
  } catch (const DataError& e) {
    err.error() << where << ": error: " << number::printable(e.what(), 4096) << "\n";
    return 1;
  } catch (const std::bad_alloc&) {
    err.error() << where << ": error: out of memory\n";
    return 1;
  } catch (const std::exception& e) {
    // Not an error the user can fix: a bug. Still one line and a documented status, not a crash.
    err.error() << where << ": internal error: " << number::printable(e.what(), 4096)
                << " (please report it)\n";
    return 3;
  }
  return 2;
}

}  // namespace ssac::cli
