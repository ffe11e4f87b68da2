// `ssac cluster`: one run of Algorithm 1 on a labelled CSV with the chosen oracle; writes the
// clustering and its metrics, and on request the run's trace (--trace) and its figure (--plot).
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>

#include "commands/commands.hpp"
#include "label/answer_file.hpp"
#include "label/items.hpp"
#include "label/terminal.hpp"
#include "options/option_checks.hpp"
#include "options/run_params.hpp"
#include "output/output_file.hpp"
#include "plots/cluster_plot.hpp"
#include "ssac/data.hpp"
#include "ssac/error.hpp"
#include "ssac/input.hpp"
#include "ssac/metrics.hpp"
#include "ssac/oracle.hpp"
#include "ssac/oracle_spec.hpp"
#include "ssac/ranges.hpp"
#include "ssac/session.hpp"
#include "ssac/ssac.hpp"
#include "ssac/trace.hpp"

namespace ssac::cli {

namespace {

struct Opts {
  SharedRunOptions run;
  PersonOptions person;  // --oracle interactive: the answer log and how a row is shown
  std::string oracle = to_string(OracleKind::perfect);
  double q = 1.0, nu = 1.0, rho = 1.0;
  std::string memory = to_string(OracleMemory::fresh);
  std::string assignment = assignment_name(true);
  CLI::Option* assignment_opt = nullptr;
  std::string out;
  std::string plot;   // --plot: the figure of the run (cluster_plot.hpp)
  std::string trace;  // --trace: the run as a JSON Lines trace (docs/trace-format.md)
  bool json = false;
  CLI::Option* q_opt = nullptr;
  CLI::Option* nu_opt = nullptr;
  CLI::Option* rho_opt = nullptr;
  CLI::Option* memory_opt = nullptr;
  CLI::Option* out_opt = nullptr;
  CLI::Option* trace_opt = nullptr;
  CLI::Option* plot_opt = nullptr;
};

std::string fmt_pct(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f%%", x);
  return buf;
}

int run_cluster(const Opts& o) {
  // Every output is checked before the data is read and the run starts; both are written
  // together at the end, or neither is.
  OutputFiles outputs;
  outputs.input(o.run.file);
  if (o.person.answers_opt->count()) {
    if (o.oracle != to_string(OracleKind::interactive))
      throw ParameterError("--answers applies only to --oracle interactive");
    if (o.person.answers.empty()) throw ParameterError("--answers: the path is empty");
    outputs.input(o.person.answers);  // appended to in place, so it is no --out or --trace either
    check_answer_log(o.person.answers);
  }
  if (o.out_opt->count()) outputs.file("--out", o.out);
  if (o.trace_opt->count()) outputs.file("--trace", o.trace);
  if (o.plot_opt->count()) {
    outputs.file("--plot", o.plot);
    check_plot_gnuplot();
  }
  const std::vector<std::string> show = o.person.columns();
  if (!show.empty() || !o.person.image.empty())
    if (o.oracle != to_string(OracleKind::interactive))
      throw ParameterError("--show and --image apply only to --oracle interactive");
  const LabelData label_data =
      show.empty() ? LabelData{read_csv(o.run.file), {}, {}} : read_label_csv(o.run.file, show);
  const Dataset& data = label_data.data;
  if (o.plot_opt->count() && !data.has_labels())
    throw DataError(o.run.file +
                    ": no 'label' column; --plot draws the ground truth beside the run");
  RunOptions run = o.run.parsed();
  if (o.assignment_opt->count()) run.assignment = &o.assignment;
  Params P = run_params(run, data.n());
  OracleSpec spec =
      oracle_spec({o.oracle, o.q, o.nu, o.rho, o.memory, o.q_opt->count() > 0,
                   o.nu_opt->count() > 0, o.rho_opt->count() > 0, o.memory_opt->count() > 0});

  if (spec.simulated() && !data.has_labels())
    throw DataError(o.run.file + ": no 'label' column; a simulated oracle answers from it");
  // k has one range everywhere, [1, n] (ssac/ranges.hpp): the library, the trace reader and the
  // conformance corpus accept k above the number of the oracle's clusters, and so does this
  // command. Such a run cannot recover k clusters; say so before it starts.
  if (spec.simulated() && P.k > data.num_labels())
    std::cerr << "note: k = " << P.k << " is more than the " << data.num_labels()
              << " clusters of the file's labels: at most " << data.num_labels()
              << " can be recovered, so the run fails (fewer than k clusters)\n";

  // Elimination (S2) needs the point's cluster among the k: a simulated oracle's clusters are the
  // file's labels; a person's are not known (even with a labelled file), and k is taken as their
  // claim (OracleSpec::clusters).
  P.oracle_clusters = spec.clusters(data);
  if (!spec.simulated() && P.eliminates())
    std::cerr << "note: a point that k-1 anchors call different and one leaves not-sure is put "
                 "in that one's cluster; this assumes your clustering has exactly k = "
              << P.k << " clusters (--assignment code turns it off)\n";
  std::unique_ptr<Oracle> base;
  std::optional<Session> session;  // a person answers: the session engine (ssac/session.hpp)
  if (spec.simulated()) {
    spec.check();
    base = make_oracle(spec, data.points, data.labels, Rng::stream(o.run.seed, {kStreamOracle}));
  } else {
    const ItemView view(label_data, show, o.person.image);
    const SessionSpec sspec{P, P.search == Search::plain ? Algorithm::original : Algorithm::weak,
                            o.run.seed};
    std::optional<AnswerFile> file;
    std::vector<LoggedAnswer> earlier;
    if (!o.person.answers.empty()) {
      file.emplace(o.person.answers, answer_log_header(data.points, sspec));
      earlier = file->open(data.n());
    }
    session.emplace(data.points, sspec, std::move(earlier), o.person.answers);
    ask_at_terminal(*session, view, std::cin, std::cerr, file ? &*file : nullptr);
  }

  // The trace is written as the run reports its events, and saved with the other outputs.
  std::string trace;
  std::unique_ptr<RunObserver> writer;
  if (!o.trace.empty()) {
    TraceHeader th;
    th.params = P;
    th.algorithm = o.run.run.algorithm;
    th.oracle = spec;
    if (spec.uses_memory()) th.memory = spec.memory;
    // A person is asked once per unordered pair and the answer is kept (InteractiveOracle;
    // proofs-notes/semantics.md, Oracles): per-pair memory, which the replay then enforces.
    if (!spec.simulated()) th.memory = OracleMemory::per_pair;
    th.seed = o.run.seed;
    writer = trace_writer(data.points, th, [&trace](const std::string& line) {
      trace += line;
      trace += '\n';
    });
  }
  const Result R = [&] {
    if (session) return session->replay(writer.get());
    AskedOracle oracle(*base, P.search == Search::plain,
                       Rng::stream(o.run.seed, {kStreamCoinFlip}));
    return run_ssac(data.points, oracle.get(), P, o.run.seed, writer.get());
  }();
  std::optional<Evaluation> ev;
  if (data.has_labels()) ev = evaluate(data.points, data.labels, R);

  if (!o.out.empty()) {
    std::string csv = "label\n";
    for (int l : R.labels)
      csv += std::to_string(l) + "\n";
    outputs.stage(o.out, csv);
  }
  if (!o.trace.empty()) outputs.stage(o.trace, trace);
  if (!o.plot.empty()) {
    const std::string title = o.run.file + ": " + o.oracle + " oracle" +
                              (spec.uses_q() ? " q = " + format_double(spec.q) : "") +
                              ", k = " + std::to_string(P.k) + ", eta = " + format_double(P.eta) +
                              ", beta = " + std::to_string(P.beta) +
                              ", seed = " + std::to_string(o.run.seed);
    outputs.stage(o.plot, cluster_plot_png(data, R, *ev, title));
  }
  outputs.commit();
  std::size_t assigned = 0;
  for (int l : R.labels)
    assigned += l != 0;

  if (o.json) {
    nlohmann::ordered_json j;
    j["file"] = o.run.file;
    j["n"] = data.n();
    j["m"] = data.m();
    j["k"] = P.k;
    j["algorithm"] = o.run.run.algorithm;
    j["search"] = to_string(P.search);
    j["oracle"] = o.oracle;
    if (spec.uses_q()) j["q"] = spec.q;
    if (spec.uses_nu()) j["nu"] = spec.nu;
    if (spec.uses_rho()) j["rho"] = spec.rho;
    if (spec.uses_memory() && spec.memory != OracleMemory::fresh) j["memory"] = o.memory;
    if (P.rules != Rules{}) {
      j["semantics"] = profile_name({P.rules, P.elimination});
      j["rules"] = describe({P.rules, P.elimination});
    }
    j["eta"] = P.eta;
    j["beta"] = P.beta;
    j["r"] = P.sample_size();
    j["seed"] = o.run.seed;
    if (ev) {
      j["accuracy_pct"] = ev->accuracy_pct;
      j["optimal_accuracy_pct"] = ev->optimal_accuracy_pct;
      j["per_cluster_accuracy_pct"] = ev->per_cluster_accuracy_pct;
    } else {
      j["accuracy_pct"] = nullptr;
    }
    j["failed"] = R.failed;
    j["status"] = R.status;
    j["labels_recovered"] = R.clusters_recovered;
    j["points_assigned"] = assigned;
    j["queries_phase1"] = R.queries_phase1;
    j["queries_phase2"] = R.queries_phase2;
    j["queries_total"] = R.queries_phase1 + R.queries_phase2;
    nlohmann::ordered_json its = nlohmann::ordered_json::array();
    for (const auto& it : R.iterations) {
      nlohmann::ordered_json e;
      e["iteration"] = it.index;
      e["outcome"] = to_string(it.outcome);
      e["p"] = it.p;
      e["zp_size"] = it.zp_size;
      e["search_steps"] = it.steps.size();
      if (it.p) {
        e["center"] = std::vector<double>(it.center.data(), it.center.data() + it.center.size());
        if (it.outcome != Outcome::search_failed)
          e["radius"] = std::isfinite(it.radius) ? nlohmann::ordered_json(it.radius) : nullptr;
      }
      e["assigned"] = it.assigned;
      its.push_back(e);
    }
    j["iterations"] = its;
    std::cout << j.dump(2) << "\n";
  } else {
    std::cout << "data: " << o.run.file << " (n = " << data.n() << ", m = " << data.m() << ")\n";
    std::cout << "run: " << (P.search == Search::plain ? "original SSAC" : "weak SSAC") << ", "
              << to_string(P.search) << " binary search, " << o.oracle << " oracle";
    if (spec.uses_q()) std::cout << " q = " << format_double(spec.q);
    if (spec.uses_nu()) std::cout << " nu = " << format_double(spec.nu);
    if (spec.uses_rho()) std::cout << " rho = " << format_double(spec.rho);
    if (spec.uses_memory() && spec.memory != OracleMemory::fresh)
      std::cout << " memory = " << o.memory;
    if (P.rules != Rules{})
      std::cout << ", semantics " << profile_name({P.rules, P.elimination}) << " ("
                << describe({P.rules, P.elimination}) << ")";
    std::cout << ", k = " << P.k << ", eta = " << format_double(P.eta)
              << " (r = " << P.sample_size() << "), beta = " << P.beta << ", seed = " << o.run.seed
              << "\n";
    if (ev)
      std::cout << "accuracy: " << fmt_pct(ev->accuracy_pct) << " (optimal permutation "
                << fmt_pct(ev->optimal_accuracy_pct) << ")\n";
    std::cout << "clusters recovered: " << R.clusters_recovered << " of " << P.k
              << ", points assigned: " << assigned << " of " << data.n() << "\n";
    std::cout << "status: " << R.status << "\n";
    std::cout << "queries: " << R.queries_phase1 << " in phase 1, " << R.queries_phase2
              << " in phase 2, " << (R.queries_phase1 + R.queries_phase2) << " in all\n";
    if (!o.out.empty()) std::cout << "labels written to " << o.out << "\n";
    if (!o.plot.empty()) std::cout << "figure written to " << o.plot << "\n";
  }
  return 0;
}

}  // namespace

Command add_cluster(CLI::App& root) {
  auto* app = root.add_subcommand(
      "cluster",
      "Run SSAC (Algorithm 1) once. Simulated oracles answer from the file's 'label' column; "
      "--oracle interactive asks you at the terminal.");
  auto o = std::make_shared<Opts>();
  add_run_options(app, o->run, {.eta_required = true});
  app->add_option("--oracle", o->oracle,
                  "perfect | random (Def. 5) | local (Def. 6) | global (Def. 7) | correlated "
                  "(Def. 5's marginal, abstentions correlated) | interactive")
      ->check(CLI::IsMember(oracle_kind_names(oracle_kinds())))
      ->capture_default_str();
  o->q_opt = app->add_option("--q", o->q, "random-weak/correlated answer probability, (0, 1]")
                 ->capture_default_str();
  o->memory_opt = app->add_option("--memory", o->memory,
                                  "random-weak: fresh (every query draws) | per-pair (a repeated "
                                  "pair gets its first answer again)")
                      ->check(CLI::IsMember(oracle_memory_names()))
                      ->capture_default_str();
  o->nu_opt =
      app->add_option("--nu", o->nu, "local distance-weak nu, [1, inf)")->capture_default_str();
  o->rho_opt =
      app->add_option(
             "--rho", o->rho,
             "distance-weak rho, (0, 1]; correlated: the hard points lie outside rho r(C_i)")
          ->capture_default_str();
  o->assignment_opt =
      app->add_option("--assignment", o->assignment,
                      "cluster-assignment rule: paper (k-1 definite answers suffice) | code (the "
                      "authors' code: only a yes or all no)")
          ->check(CLI::IsMember(assignment_names()))
          ->capture_default_str();
  o->out_opt = app->add_option("--out", o->out, "write the labels (0 = unassigned) to this CSV");
  add_person_options(app, o->person, "interactive: ");
  o->plot_opt = app->add_option(
      "--plot", o->plot,
      "draw the ground truth beside the recovered clustering (wrong points crossed, unassigned "
      "circled, estimated centers as triangles; m > 2: the first two principal components) to "
      "this PNG (needs the 'label' column and gnuplot)");
  app->add_flag("--json", o->json, "print the result as one JSON object");
  o->trace_opt =
      app->add_option("--trace", o->trace,
                      "write every draw, query, search step and label of the run to this file "
                      "(JSON Lines, docs/trace-format.md; replay with ssac validate)");
  path_options(app, {"FILE", "--out", "--answers", "--trace", "--plot"});
  return {app, [o]() { return run_cluster(*o); }};
}

}  // namespace ssac::cli
