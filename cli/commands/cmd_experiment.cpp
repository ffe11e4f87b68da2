// `ssac experiment`: the paper's evaluation (Section 5, appendix "Additional Experimental
// Results"); `ssac merge`, which combines slices of one run, lives in cmd_merge.cpp. Both print
// the paper-shaped tables and write the output directory described in docs/experiment.md.
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>

#include "commands/commands.hpp"
#include "experiment/experiment_output.hpp"
#include "options/option_checks.hpp"
#include "output/progress_bar.hpp"
#include "ssac/error.hpp"
#include "ssac/experiment.hpp"
#include "ssac/numbers.hpp"
#include "ssac/ranges.hpp"

namespace ssac::cli {

namespace {

struct Opts {
  std::string preset = "paper-main";
  long long reps = 0;
  std::string reps_range;
  unsigned long long seed = 0;
  long long threads = 0;
  std::string out, data;
  bool quiet = false, no_plots = false;
  long long n = 0, m = 0, k = 0, beta = 0;
  double sigma = 0, gamma_min = 0, gamma_max = 0;
  unsigned long long max_draws = 0;
  std::vector<double> q, nu, rho, eta;
  std::vector<std::string> oracles, algorithms;
  std::string search, assignment, semantics = "paper", memory, gaussians;
  std::vector<std::string> rules;
  CLI::App* app = nullptr;
  bool given(const char* name) const { return app->get_option(name)->count() > 0; }
};

// "A:B" with 0 <= A < B: reps A .. B-1 (both read by ssac/numbers.hpp).
void parse_range(const std::string& s, std::uint64_t& a, std::uint64_t& b) {
  const std::size_t colon = s.find(':');
  unsigned long long x = 0, y = 0;
  const bool ok = colon != std::string::npos &&
                  number::parse_uint(s.substr(0, colon), x) == number::Status::ok &&
                  number::parse_uint(s.substr(colon + 1), y) == number::Status::ok;
  if (!ok || !(x < y))
    throw ParameterError("reps-range = '" + number::printable(s) +
                         "' is not A:B with integers 0 <= A < B");
  a = x;
  b = y;
}

int run(const Opts& o) {
  ExperimentConfig c = preset_config(o.preset);
  if (!o.data.empty()) {
    // A fixed dataset replaces the generator: its parameters have nothing to override.
    for (const char* g : {"--n", "--m", "--k", "--sigma", "--gamma-min", "--gamma-max",
                          "--max-draws", "--gaussians"})
      if (o.given(g))
        throw ParameterError(std::string(g) + " sets the generator, which --data replaces");
    use_dataset(c, read_csv(o.data), o.data);
  }
  if (o.given("--n")) {
    range::check_points(o.n);
    c.gen.n = static_cast<std::size_t>(o.n);
  }
  if (o.given("--m")) {
    range::check_dimension(o.m);
    c.gen.m = static_cast<std::size_t>(o.m);
  }
  if (o.given("--k")) {
    range::check_clusters(o.k);
    c.gen.k = static_cast<int>(o.k);
  }
  if (o.given("--sigma")) c.gen.sigma = o.sigma;
  if (o.given("--gamma-min")) c.gen.gamma_min = o.gamma_min;
  if (o.given("--gamma-max")) c.gen.gamma_max = o.gamma_max;
  if (o.given("--max-draws")) c.gen.max_draws = o.max_draws;
  if (o.given("--beta")) {
    range::check_beta(o.beta);
    c.beta = static_cast<int>(o.beta);
  }
  if (o.given("--q")) c.q = o.q;
  if (o.given("--nu")) c.nu = o.nu;
  if (o.given("--rho")) c.rho = o.rho;
  if (o.given("--eta")) c.eta = o.eta;
  if (o.given("--search")) c.search = *parse_search(o.search);  // CLI11 admits only weak searches
  // The profile, then single rules on top of it (as ssac cluster), the generator's row order
  // (rows=shuffled|blocks) among them.
  Profile profile = profile_named(o.semantics);
  if (o.given("--assignment")) profile.elimination = *parse_assignment(o.assignment);
  for (const std::string& r : o.rules)
    set_rule(profile, r);
  c.rules = profile.rules;
  c.elimination = profile.elimination;
  // The row order means nothing for a fixed dataset: its rows stay in file order.
  c.gen.shuffle = !c.data && profile.rows == RowOrder::shuffled;
  if (o.given("--gaussians")) c.gen.gaussians = parse_gaussian_method("--gaussians", o.gaussians);
  if (o.given("--memory")) c.memory = *parse_oracle_memory(o.memory);
  if (o.given("--oracle")) {
    c.oracles.clear();
    for (const auto& s : o.oracles)
      c.oracles.push_back(*oracle_kind_from_string(s));  // CLI11 admits only the swept kinds
  }
  if (o.given("--algorithm")) {
    c.weak = c.original = false;
    for (const auto& s : o.algorithms)
      (*parse_algorithm(s) == Algorithm::weak ? c.weak : c.original) = true;
  }
  c.seed = o.seed;
  if (o.given("--reps")) {
    range::check_reps(o.reps);
    c.reps = static_cast<std::uint64_t>(o.reps);
  }
  if (!o.reps_range.empty()) {
    if (o.given("--reps")) throw ParameterError("--reps and --reps-range exclude each other");
    std::uint64_t a = 0, b = 0;
    parse_range(o.reps_range, a, b);
    c.rep_first = a;
    c.reps = b - a;
  }
  c.check();
  const unsigned threads = static_cast<unsigned>(to_size("threads", o.threads, 0, 4096));
  const std::string out = o.given("--out") ? o.out
                          : o.data.empty()
                              ? "results/" + c.preset
                              : "results/data-" + std::filesystem::path(o.data).stem().string();
  OutputFiles outputs;  // checked, gnuplot included, before the reps start
  if (!o.data.empty()) outputs.input(o.data);
  WriteOptions w;
  w.plots = !o.no_plots;
  prepare_output(outputs, out, w);

  ProgressBar bar(c.reps, !o.quiet && isatty(STDERR_FILENO));
  const ExperimentResult r = run_experiment(c, threads, [&](std::uint64_t d) { bar.update(d); });
  bar.finish();
  return report(r, outputs, out, o.no_plots, o.quiet);
}

}  // namespace

Command add_experiment(CLI::App& root) {
  auto* app = root.add_subcommand(
      "experiment",
      "Reproduce the paper's evaluation (Section 5 and appendix): every rep draws a fresh dataset "
      "in the preset's gamma window and runs every (oracle, algorithm, q or nu/rho, eta) cell on "
      "it. Prints the Accuracy and #Failure tables and writes summary.json, CSV tables, gamma.csv "
      "and PNG plots to --out. See docs/experiment.md.");
  auto o = std::make_shared<Opts>();
  o->app = app;
  app->add_option("--preset", o->preset, "paper-main | paper-highdim | paper-nonsep")
      ->check(CLI::IsMember(preset_names()))
      ->capture_default_str();
  app->add_option("--reps", o->reps,
                  "number of reps N_rep, " + range_help(1, range::kMaxReps) + " (preset: 5000)");
  app->add_option("--reps-range", o->reps_range,
                  "run only reps A..B-1 of the run (A:B), for `ssac merge`");
  add_seed_option(app, o->seed);
  app->add_option("--threads", o->threads, "worker threads, 0 = every core")->capture_default_str();
  app->add_option("--out", o->out,
                  "output directory (default results/PRESET, with --data results/data-STEM)");
  app->add_option("--data", o->data,
                  "run every cell on this labelled CSV instead of generated data: reps differ "
                  "only in the algorithm's and oracle's randomness (docs/experiment.md)");
  app->add_flag("--quiet", o->quiet, "no progress bar and no table; only errors");
  app->add_flag("--no-plots", o->no_plots, "skip the gnuplot figures");
  app->add_option("--n", o->n, "override: number of points");
  app->add_option("--m", o->m, "override: dimension");
  app->add_option("--k", o->k, "override: number of clusters");
  app->add_option("--sigma,--std", o->sigma, "override: standard deviation of every coordinate");
  app->add_option("--gamma-min", o->gamma_min, "override: exclusive lower end of the window");
  app->add_option("--gamma-max", o->gamma_max, "override: inclusive upper end (inf allowed)");
  app->add_option("--max-draws", o->max_draws,
                  "override: draws per dataset before giving up, 1..1e9");
  app->add_option("--q", o->q, "override: random-weak q list, e.g. 0.7,0.85,1")->delimiter(',');
  app->add_option("--nu", o->nu, "override: local distance-weak nu list")->delimiter(',');
  app->add_option("--rho", o->rho, "override: distance-weak rho list")->delimiter(',');
  app->add_option("--eta", o->eta, "override: eta list, e.g. 2,5,10,20,50")->delimiter(',');
  app->add_option("--beta", o->beta, "override: Phase-2 sampling number beta");
  app->add_option("--search", o->search, "override: weak SSAC's search (random|distance|unified)")
      ->check(CLI::IsMember(weak_search_names()));
  app->add_option("--oracle", o->oracles,
                  "oracles to sweep: random,local,global,correlated (default random; correlated "
                  "runs every q with every rho, rho naming the hard points)")
      ->delimiter(',')
      ->check(CLI::IsMember(oracle_kind_names(experiment_oracle_kinds())));
  app->add_option("--algorithm", o->algorithms,
                  "algorithms: weak,original (default weak; original = Ashtiani et al.'s plain "
                  "search with a coin flip for not-sure)")
      ->delimiter(',')
      ->check(CLI::IsMember(algorithm_names()));
  app->add_option("--assignment", o->assignment, "override: paper | code (see ssac cluster)")
      ->check(CLI::IsMember(assignment_names()));
  app->add_option("--semantics", o->semantics,
                  "paper (default) | authors-code (the rules and shuffled rows of the authors' "
                  "code; proofs-notes/semantics.md S9)");
  app->add_option("--rule", o->rules,
                  "one rule NAME=VALUE on top of --semantics (repeatable; see ssac cluster), or "
                  "rows=shuffled|blocks for the generator's row order");
  add_gaussians_option(app, o->gaussians, preset_config(o->preset).gen.gaussians);
  app->add_option("--memory", o->memory,
                  "random-weak oracle: fresh (default) | per-pair (a repeated pair repeats its "
                  "first answer)")
      ->check(CLI::IsMember(oracle_memory_names()));
  path_options(app, {"--out", "--data"});
  return {app, [o]() { return run(*o); }};
}

}  // namespace ssac::cli
