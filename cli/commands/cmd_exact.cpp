// ssac exact: the exact outcome distribution of SSAC on a small instance (ssac/exact.hpp).
#include <chrono>
#include <filesystem>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "commands/commands.hpp"
#include "conformance/conformance_distribution.hpp"
#include "options/option_checks.hpp"
#include "options/run_params.hpp"
#include "output/output_file.hpp"
#include "ssac/data.hpp"
#include "ssac/error.hpp"
#include "ssac/exact.hpp"
#include "ssac/oracle_spec.hpp"
#include "ssac/ranges.hpp"
#include "ssac/theory/decimal.hpp"
#include "ssac/trace.hpp"

namespace ssac::cli {

namespace {

struct Opts {
  SharedRunOptions run;  // FILE, --k, --eta, --beta, --search, --algorithm, --semantics, --rule
  std::string oracle = to_string(OracleKind::perfect);
  std::string q = "1";
  double nu = 1.0, rho = 1.0;
  std::string memory = to_string(OracleMemory::fresh);
  long long max_branches = 10'000'000, max_states = 100'000'000;
  long long top = 5;
  std::string format = "text";
  std::string law;
  std::string merging = "future";
  std::string engine = "counts";
  CLI::Option* merging_opt = nullptr;
  CLI::Option* engine_opt = nullptr;
  CLI::Option* q_opt = nullptr;
  CLI::Option* nu_opt = nullptr;
  CLI::Option* rho_opt = nullptr;
  CLI::Option* memory_opt = nullptr;
};

constexpr long long kMaxBranches = 1'000'000'000'000;

bool all_digits(const std::string& s) {
  return !s.empty() && s.size() <= 100 && s.find_first_not_of("0123456789") == std::string::npos;
}

// --q exactly: a decimal (0.7 is 7/10) or a fraction a/b of whole numbers.
Rational parse_q(const std::string& text) {
  const std::string range = "; q must lie in (0, 1], as a decimal (0.7) or a fraction (7/10)";
  Rational q;
  if (const auto slash = text.find('/'); slash != std::string::npos) {
    const std::string a = text.substr(0, slash), b = text.substr(slash + 1);
    if (!all_digits(a) || !all_digits(b))
      throw ParameterError("--q: '" + text + "' is not a fraction of whole numbers" + range);
    const boost::multiprecision::cpp_int den(b);
    if (den == 0) throw ParameterError("--q: '" + text + "' has a zero denominator" + range);
    q = Rational(boost::multiprecision::cpp_int(a), den);
  } else {
    theory::DecimalParse p = theory::Decimal::parse(text);
    if (!p.value || !p.value->is_finite())
      throw ParameterError("--q: '" + text + "' " +
                           (p.value ? std::string("is not finite") : p.error) + range);
    const theory::Decimal& d = *p.value;
    const long long e = d.exponent();
    const boost::multiprecision::cpp_int scale = boost::multiprecision::pow(
        boost::multiprecision::cpp_int(10), static_cast<unsigned>(e < 0 ? -e : e));
    q = e < 0 ? Rational(d.coefficient(), scale) : Rational(d.coefficient() * scale);
    if (d.negative()) q = -q;
  }
  if (q <= 0 || q > 1)
    throw ParameterError("q = " + text + " is outside its admissible range (0, 1]");
  return q;
}

nlohmann::ordered_json exact_json(const Rational& x) {
  nlohmann::ordered_json j;
  j["fraction"] = fraction_string(x);
  j["decimal"] = decimal_string(x, 20);
  return j;
}

std::string text_of(const Rational& x) {
  return fraction_string(x) + " (" + decimal_string(x, 12) + ")";
}

std::string labels_text(const std::vector<int>& labels) {
  std::string s;
  for (int l : labels)
    s += (s.empty() ? "" : " ") + std::to_string(l);
  return s;
}

int run_exact(const Opts& o) {
  OutputFiles outputs;  // --law, checked before the work starts
  const std::string& file = o.run.file;
  outputs.input(file);
  if (!o.law.empty()) outputs.file("--law", o.law);
  const Dataset data = read_csv(file);
  Params P = run_params(o.run.parsed(), data.n());
  to_size("top", o.top, 0, 1000000);
  ExactOracle eo;
  OracleSpec& spec = eo.spec;
  // q is read exactly below (parse_q), after the options' kinds are checked.
  spec = oracle_spec({o.oracle, 1.0, o.nu, o.rho, o.memory, o.q_opt->count() > 0,
                      o.nu_opt->count() > 0, o.rho_opt->count() > 0, o.memory_opt->count() > 0});
  eo.q = parse_q(o.q);
  spec.q = eo.q.convert_to<double>();
  spec.check();
  eo.coin_flip = P.search == Search::plain;
  if (!data.has_labels())
    throw DataError(file + ": no 'label' column; a simulated oracle answers from it");
  if (P.k > data.num_labels())
    throw_out_of_range("k", static_cast<long long>(P.k),
                       "[1, " + std::to_string(data.num_labels()) + "] (the file's labels name " +
                           std::to_string(data.num_labels()) + " clusters)");
  P.oracle_clusters = spec.clusters(data);  // the labels' count: the oracle is simulated

  ExactOptions opt;
  opt.max_branches = to_size("max-branches", o.max_branches, 1, kMaxBranches);
  opt.max_states = to_size("max-states", o.max_states, 1, kMaxBranches);
  opt.joint_queries = !o.law.empty();
  // --merging is a choice within the paths engine: given alone it selects that engine.
  const bool paths =
      o.engine == "paths" || (o.merging_opt->count() > 0 && o.engine_opt->count() == 0);
  if (o.merging_opt->count() > 0 && !paths)
    throw ParameterError(
        "--merging applies to --engine paths only (the states engine merges "
        "after every draw; docs/exact.md)");
  if (paths) opt.engine = ExactOptions::Engine::paths;
  if (!paths && o.engine == "counts") opt.engine = ExactOptions::Engine::counts;
  if (o.merging == "boundaries") opt.merging = ExactOptions::Merging::boundaries;
  const auto t0 = std::chrono::steady_clock::now();
  const ExactResult r = exact_distribution(data.points, data.labels, eo, P, opt);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (r.total != 1) throw std::logic_error("the exact probabilities do not sum to 1");
  const std::size_t top = std::min(static_cast<std::size_t>(o.top), r.outcomes.size());
  const std::string q_text = spec.uses_q() ? fraction_string(eo.q) : "";
  if (!o.law.empty()) {
    // The joint law as an instance of the distribution corpus's format, for `ssac gof`.
    nlohmann::ordered_json h;
    h["format"] = "ssac-distribution";
    h["version"] = 1;
    h["instance"] = std::filesystem::path(file).stem().string();
    h["comment"] = "written by ssac exact --law";
    h["catches"] = nlohmann::ordered_json::array();
    // The data's path relative to the law's folder, as in the corpus.
    const std::filesystem::path dir = std::filesystem::absolute(o.law).parent_path();
    h["data"] = std::filesystem::proximate(std::filesystem::absolute(file), dir).string();
    h["n"] = data.n();
    h["m"] = data.m();
    h["fingerprint"] = points_fingerprint(data.points);
    h["algorithm"] = o.run.run.algorithm;
    h["search"] = to_string(P.search);
    h["params"] = {{"k", P.k}, {"eta", P.eta}, {"beta", P.beta}, {"r", P.sample_size()}};
    h["assignment"] = assignment_name(P.elimination);
    if (P.rules != Rules{} || !P.elimination) {
      h["semantics"] = profile_name({P.rules, P.elimination});
      h["rules"] = describe({P.rules, P.elimination});
    }
    nlohmann::ordered_json oj;
    oj["model"] = o.oracle;
    if (spec.uses_q()) oj["q"] = q_text;
    if (spec.uses_nu()) oj["nu"] = spec.nu;
    if (spec.uses_rho()) oj["rho"] = spec.rho;
    if (spec.uses_memory() && spec.memory != OracleMemory::fresh) oj["memory"] = o.memory;
    h["oracle"] = oj;
    outputs.stage(o.law, distribution::law_text(std::move(h), r));
    outputs.commit();
  }

  if (o.format == "json") {
    nlohmann::ordered_json j;
    j["file"] = file;
    j["n"] = data.n();
    j["k"] = P.k;
    j["algorithm"] = o.run.run.algorithm;
    j["search"] = to_string(P.search);
    j["oracle"] = o.oracle;
    if (spec.uses_q()) j["q"] = q_text;
    if (spec.uses_nu()) j["nu"] = spec.nu;
    if (spec.uses_rho()) j["rho"] = spec.rho;
    if (spec.uses_memory()) j["memory"] = o.memory;
    j["semantics"] = profile_name({P.rules, P.elimination});
    j["rules"] = describe({P.rules, P.elimination});
    j["eta"] = P.eta;
    j["beta"] = P.beta;
    j["r"] = P.sample_size();
    j["p_failure"] = exact_json(r.p_failure);
    j["p_exact_recovery"] = exact_json(r.p_exact_recovery);
    j["expected_accuracy_pct"] = exact_json(r.expected_accuracy_pct);
    j["expected_correct"] = exact_json(r.expected_correct);
    nlohmann::ordered_json cr = nlohmann::ordered_json::object();
    for (const auto& [c, p] : r.clusters_recovered)
      cr[std::to_string(c)] = exact_json(p);
    j["clusters_recovered"] = cr;
    j["expected_queries_phase1"] = exact_json(r.expected_queries_phase1);
    j["expected_queries_phase2"] = exact_json(r.expected_queries_phase2);
    j["expected_queries_total"] = exact_json(r.expected_queries_phase1 + r.expected_queries_phase2);
    j["distinct_labelings"] = r.outcomes.size();
    nlohmann::ordered_json ml = nlohmann::ordered_json::array();
    for (std::size_t i = 0; i < top; ++i) {
      nlohmann::ordered_json e;
      e["labels"] = r.outcomes[i].labels;
      e["clusters_recovered"] = r.outcomes[i].clusters_recovered;
      e["probability"] = exact_json(r.outcomes[i].probability);
      ml.push_back(e);
    }
    j["most_likely"] = ml;
    j["probability_total"] = exact_json(r.total);
    j["engine"] = paths ? "paths" : o.engine;
    if (opt.engine == ExactOptions::Engine::counts) j["phase1_by_counts"] = r.phase1_by_counts;
    j["branches"] = r.branches;
    j["merged"] = r.merged;
    j["states"] = r.states;
    j["seconds"] = seconds;
    std::cout << j.dump(2) << "\n";
    return 0;
  }
  std::cout << "data: " << file << " (n = " << data.n() << ", m = " << data.m() << ")\n";
  std::cout << "run: " << (P.search == Search::plain ? "original SSAC" : "weak SSAC") << ", "
            << to_string(P.search) << " binary search, " << o.oracle << " oracle";
  if (spec.uses_q()) std::cout << " q = " << q_text;
  if (spec.uses_nu()) std::cout << " nu = " << format_double(spec.nu);
  if (spec.uses_rho()) std::cout << " rho = " << format_double(spec.rho);
  if (spec.uses_memory() && spec.memory != OracleMemory::fresh)
    std::cout << " memory = " << o.memory;
  if (P.rules != Rules{} || !P.elimination)
    std::cout << ", semantics " << profile_name({P.rules, P.elimination}) << " ("
              << describe({P.rules, P.elimination}) << ")";
  std::cout << ", k = " << P.k << ", eta = " << format_double(P.eta) << " (r = " << P.sample_size()
            << "), beta = " << P.beta << "\n";
  std::cout << "P(failure)            = " << text_of(r.p_failure) << "\n";
  std::cout << "P(exact recovery)     = " << text_of(r.p_exact_recovery) << "\n";
  for (const auto& [c, p] : r.clusters_recovered)
    std::cout << "P(" << c << " clusters recovered) = " << text_of(p) << "\n";
  std::cout << "E[queries, phase 1]   = " << text_of(r.expected_queries_phase1) << "\n";
  std::cout << "E[queries, phase 2]   = " << text_of(r.expected_queries_phase2) << "\n";
  std::cout << "E[accuracy %]         = " << text_of(r.expected_accuracy_pct)
            << " (optimal renaming)\n";
  std::cout << "distinct final labelings: " << r.outcomes.size() << "; the " << top
            << " most likely:\n";
  for (std::size_t i = 0; i < top; ++i)
    std::cout << "  " << text_of(r.outcomes[i].probability) << "  labels "
              << labels_text(r.outcomes[i].labels) << "  (" << r.outcomes[i].clusters_recovered
              << " recovered)\n";
  std::cout << "probabilities sum to " << fraction_string(r.total) << "; " << r.branches
            << " branches (" << (paths ? "paths" : o.engine) << " engine"
            << (opt.engine == ExactOptions::Engine::counts && !r.phase1_by_counts
                    ? ", Phase 1 by states here"
                    : "")
            << ", " << r.merged << " merged); distinct states reached within each iteration:";
  for (std::size_t s : r.states)
    std::cout << " " << s;
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", seconds);
  std::cout << "; " << buf << " s\n";
  return 0;
}

}  // namespace

Command add_exact(CLI::App& root) {
  auto* app = root.add_subcommand(
      "exact",
      "The exact outcome distribution of SSAC on a small instance: every branch of the "
      "algorithm's draws and the oracle's abstentions, with exact probabilities.");
  auto o = std::make_shared<Opts>();
  // No --seed: the run's every draw is followed. --eta is asked for, and beta is 1 unless given.
  const RunOptionsUse use{.eta_required = true,
                          .seed = false,
                          .file_help = "CSV data with a 'label' column (the oracle's clustering)",
                          .k_help = "number of clusters, 1..n (and at most the number of labels)"};
  o->run.run.beta = 1;
  add_run_data_options(app, o->run, use);
  app->add_option("--oracle", o->oracle,
                  "perfect | random (Def. 5) | local (Def. 6) | global (Def. 7) | correlated")
      ->check(CLI::IsMember(oracle_kind_names(simulated_oracle_kinds())))
      ->capture_default_str();
  o->q_opt = app->add_option("--q", o->q,
                             "random-weak/correlated answer probability in (0, 1], exactly: a "
                             "decimal (0.7) or a fraction (7/10)")
                 ->capture_default_str();
  o->memory_opt = app->add_option("--memory", o->memory, "random-weak: fresh | per-pair")
                      ->check(CLI::IsMember(oracle_memory_names()))
                      ->capture_default_str();
  o->nu_opt =
      app->add_option("--nu", o->nu, "local distance-weak nu, [1, inf)")->capture_default_str();
  o->rho_opt = app->add_option("--rho", o->rho, "distance-weak / correlated rho, (0, 1]")
                   ->capture_default_str();
  add_run_param_options(app, o->run, use);
  app->add_option("--max-branches", o->max_branches,
                  "the most re-executions of the reference; more is an error, never a "
                  "truncated answer")
      ->capture_default_str();
  app->add_option("--max-states", o->max_states,
                  "--engine counts: the most states of Phase 1's count arithmetic; more is an "
                  "error, never a truncated answer")
      ->capture_default_str();
  app->add_option("--top", o->top, "how many of the most likely labelings to print")
      ->capture_default_str();
  o->engine_opt =
      app->add_option("--engine", o->engine,
                      "counts: as states, with Phase 1 by counts where its product form holds "
                      "(default) | states: resume the reference from each merged state, merging "
                      "after every draw of Z | paths: re-execute every branch from the run's "
                      "start (the former engine); the same law (docs/exact.md)")
          ->check(CLI::IsMember({"counts", "states", "paths"}))
          ->capture_default_str();
  o->merging_opt =
      app->add_option("--merging", o->merging,
                      "--engine paths only (given alone, it selects that engine): future: merge on "
                      "what the rest of the run reads (default) | boundaries: only after Phase 1, "
                      "each probe and each iteration, mu' by its bits (the same law, more "
                      "re-executions; docs/exact.md)")
          ->check(CLI::IsMember({"future", "boundaries"}))
          ->capture_default_str();
  app->add_option("--law", o->law,
                  "also write the joint law of (final labels, Phase-1 queries, Phase-2 queries) "
                  "to FILE, in the distribution corpus's format for `ssac gof --expected` "
                  "(docs/conformance.md)");
  app->add_option("--format", o->format, "text | json")
      ->check(CLI::IsMember({"text", "json"}))
      ->capture_default_str();
  path_options(app, {"FILE", "--law"});
  return {app, [o]() { return run_exact(*o); }};
}

}  // namespace ssac::cli
