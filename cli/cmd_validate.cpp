// ssac validate: replays a trace (docs/trace-format.md) through the reference algorithm and
// reports whether it conforms. Exit status: 0 the trace conforms; 1 it does not (the first
// divergence is printed), or the data or the trace cannot be read, does not parse, or is for
// other data; 2 usage.
#include <chrono>
#include <iostream>
#include <new>

#include "commands.hpp"
#include "ssac/data.hpp"
#include "ssac/error.hpp"
#include "ssac/trace.hpp"

namespace ssac::cli {

namespace {

struct Opts {
  std::string data, trace;
  bool quiet = false;
};

int run_validate(const Opts& o) {
  const Dataset data = read_csv(o.data);
  const auto t0 = std::chrono::steady_clock::now();
  ValidationReport rep;
  try {
    rep = validate_trace_file(data.points, o.trace);
  } catch (const std::bad_alloc&) {
    throw DataError(o.trace + ": not enough memory to replay the trace");
  }
  const double ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  if (!rep.conforms) {
    std::cout << o.trace << ": does not conform: " << rep.divergence->message << "\n";
    return 1;
  }
  if (!o.quiet) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f", ms);
    std::cout << o.trace << ": conforms (" << rep.events << " events, " << rep.queries
              << " queries replayed in " << buf << " ms)\n";
  }
  return 0;
}

}  // namespace

Command add_validate(CLI::App& root) {
  auto* app = root.add_subcommand(
      "validate",
      "Replay a trace (ssac cluster --trace, or another implementation's) through the reference "
      "with the trace's random choices and oracle answers; exit 0 if every query, decision, "
      "radius and label agrees, 1 with the first divergence.");
  auto o = std::make_shared<Opts>();
  app->add_option("--data", o->data, "CSV data the trace was written for")->required();
  app->add_option("--trace", o->trace, "trace in the ssac-trace JSON Lines format")->required();
  app->add_flag("--quiet", o->quiet, "print nothing when the trace conforms");
  return {app, [o]() { return run_validate(*o); }};
}

}  // namespace ssac::cli
