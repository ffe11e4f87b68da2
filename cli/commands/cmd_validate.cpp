// ssac validate: replays a trace (docs/trace-format.md) through the reference algorithm and
// reports whether it conforms; with --check-oracle, also whether its answers could have come from
// its oracle. Several traces (of one data set) are replayed one by one, and their oracle answers
// checked together: each trace's, and the abstentions pooled per oracle parameter, with the false
// alarm of the whole batch at most 0.001 (ssac/oracle_check.hpp, OracleBatch). Exit status: 0
// every trace conforms (and the answers pass the check); 1 one does not (its first divergence is
// printed) or the answers fail the check, or the data or a trace cannot be read, does not parse,
// or is for other data; 2 usage.
#include <chrono>
#include <cstdio>
#include <iostream>
#include <new>
#include <optional>
#include <vector>

#include "commands/commands.hpp"
#include "options/option_checks.hpp"
#include "output/table.hpp"
#include "ssac/data.hpp"
#include "ssac/error.hpp"
#include "ssac/input.hpp"
#include "ssac/oracle_check.hpp"
#include "ssac/rules.hpp"
#include "ssac/trace.hpp"

namespace ssac::cli {

namespace {

struct Opts {
  std::string data;
  std::vector<std::string> traces;
  bool quiet = false, check_oracle = false;
  std::string oracle;
  double q = 1.0, nu = 1.0, rho = 1.0;
  std::string semantics;           // --semantics, for a trace whose header names no rules
  std::vector<std::string> rules;  // --rule NAME=VALUE on top of it
  CLI::Option *oracle_opt = nullptr, *q_opt = nullptr, *nu_opt = nullptr, *rho_opt = nullptr;
};

// The whole trace for the oracle check (ssac/input.hpp: a regular file or a pipe, capped as the
// replay's copy of a piped trace is).
std::string read_all(const std::string& path) {
  static const InputKind kind{"cannot open for reading", "is a directory", std::uint64_t{16} << 30,
                              "longer than 16 GiB, the most a trace read whole may hold"};
  return read_input(path, kind);
}

std::string fixed(double x, int digits) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.*f", digits, x);
  return buf;
}

// The oracle given by --oracle/--q/--nu/--rho, checked; nullopt without --oracle.
std::optional<OracleSpec> flag_spec(const Opts& o) {
  if (!o.oracle_opt->count()) {
    if (o.q_opt->count() || o.nu_opt->count() || o.rho_opt->count())
      throw ParameterError("--q, --nu and --rho describe the oracle of --oracle; give --oracle");
    return std::nullopt;
  }
  OracleSpec s;
  s.kind = *oracle_kind_from_string(o.oracle);  // CLI11 admits only the four names
  s.q = o.q;
  s.nu = o.nu;
  s.rho = o.rho;
  if (o.q_opt->count() && !s.uses_q()) throw ParameterError("--q applies only to --oracle random");
  if (o.nu_opt->count() && !s.uses_nu())
    throw ParameterError("--nu applies only to --oracle local");
  if (o.rho_opt->count() && !s.uses_rho())
    throw ParameterError("--rho applies only to --oracle local or global");
  s.check();
  return s;
}

// Prints the oracle check's verdict (ssac/oracle_check.hpp); true when the answers pass.
bool report_oracle(const Opts& o, const std::string& trace, const OracleCheck& c) {
  if (o.quiet && c.passes()) return true;
  std::cout << trace << ": oracle answers (" << c.spec.describe()
            << (c.spec_from_header ? ", from the trace's header" : ", from --oracle")
            << "): " << c.verdict() << "\n";
  return c.passes();
}

// One trace: its replay and, with --check-oracle, its oracle check.
struct Checked {
  ValidationReport rep;
  double ms = 0.0;
  std::optional<OracleCheck> oc;
};

Checked check_one(const Opts& o, const Dataset& data, const std::string& trace,
                  const std::optional<OracleSpec>& flags) {
  Checked c;
  const auto t0 = std::chrono::steady_clock::now();
  // With labels, the oracle's number of clusters is theirs (elimination, S2 rule 5, needs it).
  ReplayOptions options;
  options.label_clusters = data.has_labels() ? data.num_labels() : 0;
  options.profile = replay_profile(o.semantics, o.rules);
  try {
    c.rep = validate_trace_file(data.points, trace, options);
  } catch (const std::bad_alloc&) {
    throw DataError(trace + ": not enough memory to replay the trace");
  }
  c.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  // The oracle check reads the whole trace text (its memory grows with the trace, unlike the
  // replay's: docs/trace-format.md, "Reading a trace").
  if (o.check_oracle)
    c.oc = check_oracle_answers(data.points, data.labels, read_all(trace), trace, flags);
  return c;
}

int run_validate(const Opts& o) {
  const std::optional<OracleSpec> flags = flag_spec(o);
  if (!o.check_oracle && flags)
    throw ParameterError("--oracle describes the oracle for --check-oracle; give --check-oracle");
  const Dataset data = read_csv(o.data);
  if (o.check_oracle && !data.has_labels())
    throw DataError(o.data + ": no 'label' column; --check-oracle recomputes the answers from it");
  // Every trace is replayed and checked before anything is printed, so that a refusal leaves no
  // partial output.
  std::vector<Checked> all;
  for (const std::string& t : o.traces)
    all.push_back(check_one(o, data, t, flags));
  std::optional<OracleBatch> batch;
  if (o.check_oracle && all.size() > 1) {
    std::vector<OracleCheck> checks;
    for (const Checked& c : all)
      checks.push_back(*c.oc);
    batch = pool_oracle_checks(checks);
    for (std::size_t i = 0; i < all.size(); ++i)
      all[i].oc = checks[i];
  }
  bool ok = true;
  for (std::size_t i = 0; i < all.size(); ++i) {
    const std::string& trace = o.traces[i];
    const Checked& c = all[i];
    const bool passes = c.rep.conforms && (!c.oc || c.oc->passes());
    ok = ok && passes;
    const bool silent = o.quiet && passes;
    // A trace of version 1 is read with that version's field names (docs/trace-format.md,
    // "Version 1"); said once the trace has been read, so that an error stays the one line.
    if (c.rep.version == 1 && !silent)
      std::cerr << "note: " << trace
                << " is a version 1 trace (read with the version 1 field names)\n";
    // The rules, when the header or the options chose them: never silently the paper's.
    const std::string under = c.rep.profile.empty() ? "" : " under " + c.rep.profile;
    if (!c.rep.conforms) {
      std::cout << trace << ": does not conform" << under << ": " << c.rep.divergence->message
                << "\n";
      if (c.oc) report_oracle(o, trace, *c.oc);
      continue;
    }
    if (!o.quiet)
      std::cout << trace << ": conforms" << under
                << (c.rep.ties == 0
                        ? ""
                        : "; " + std::to_string(c.rep.ties) + " exact tie" +
                              (c.rep.ties == 1 ? "" : "s") + " resolved as the trace did")
                << " (" << c.rep.events << " events, " << c.rep.queries << " queries replayed in "
                << fixed(c.ms, 1) << " ms)\n";
    // In a batch a trace's oracle line is printed only when it fails; the pooled lines follow.
    if (c.oc && (!batch || !c.oc->passes())) report_oracle(o, trace, *c.oc);
  }
  if (batch) {
    for (const OracleBatch::Pool& p : batch->pools)
      if (!o.quiet || !p.consistent)
        std::cout << "oracle answers pooled: " << batch->pool_verdict(p)
                  << (p.consistent ? ""
                                   : ": Definition 5 has each query abstain with "
                                     "probability 1 - q; these traces' oracle abstains at "
                                     "another rate")
                  << "\n";
    if (!o.quiet || !batch->passes())
      std::cout << "oracle answers of " << all.size()
                << " traces: " << (batch->passes() ? "pass" : "fail") << " (" << batch->tests
                << " rate tests, one per trace and one per pool, each at "
                << printf_text("%.6g", batch->test_confidence * 100)
                << "%: Bonferroni, so that the batch's false alarm is at most 0.1%)\n";
    ok = ok && batch->passes();
  }
  return ok ? 0 : 1;
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
  app->add_option("--trace", o->traces,
                  "trace in the ssac-trace JSON Lines format; several (one --trace each, or "
                  "several after one) are replayed one by one and their oracle answers checked "
                  "together")
      ->required();
  app->add_flag("--quiet", o->quiet, "print nothing when the trace conforms");
  app->add_flag("--check-oracle", o->check_oracle,
                "also check the answers against the oracle (the header's, else --oracle): "
                "recomputed from the data's labels for perfect, local and global; for random, "
                "definite answers truthful and the abstention rate consistent with 1 - q");
  o->oracle_opt =
      app->add_option("--oracle", o->oracle,
                      "with --check-oracle, when the header's oracle text is not readable: "
                      "perfect | random | local | global")
          ->check(CLI::IsMember(oracle_kind_names(
              {OracleKind::perfect, OracleKind::random, OracleKind::local, OracleKind::global})));
  o->q_opt = app->add_option("--q", o->q, "random-weak answer probability, (0, 1]");
  o->nu_opt = app->add_option("--nu", o->nu, "local distance-weak nu, [1, inf)");
  o->rho_opt = app->add_option("--rho", o->rho, "distance-weak rho, (0, 1]");
  app->add_option("--semantics", o->semantics,
                  "the profile of a trace whose header names none: paper | authors-code "
                  "(proofs-notes/semantics.md S9); a header that names other rules is refused")
      ->check(CLI::IsMember({"paper", "authors-code"}));
  app->add_option("--rule", o->rules,
                  "one rule NAME=VALUE on top of --semantics, for a trace whose header names none "
                  "(repeatable)");
  path_options(app, {"--data", "--trace"});
  return {app, [o]() { return run_validate(*o); }};
}

}  // namespace ssac::cli
