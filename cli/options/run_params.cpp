// Algorithm 1's parameters and the oracle's specification from the options that `ssac cluster`,
// `ssac label` and `ssac exact` share, and the registration of those options (run_params.hpp).
#include "options/run_params.hpp"

#include "options/option_checks.hpp"
#include "ssac/csv.hpp"
#include "ssac/error.hpp"
#include "ssac/ranges.hpp"
#include "ssac/rules.hpp"

namespace ssac::cli {

RunOptions SharedRunOptions::parsed() const {
  RunOptions r = run;
  r.search_given = search_opt->count() > 0;
  return r;
}

void add_run_data_options(CLI::App* app, SharedRunOptions& o, const RunOptionsUse& use) {
  app->add_option("FILE", o.file, use.file_help)->required();
  app->add_option("--k", o.run.k, use.k_help)->required();
}

void add_run_param_options(CLI::App* app, SharedRunOptions& o, const RunOptionsUse& use) {
  auto* eta = app->add_option("--eta", o.run.eta, "Phase-1 sampling number, r = ceil(k eta) draws");
  if (use.eta_required)
    eta->required();
  else
    eta->capture_default_str();
  app->add_option("--beta", o.run.beta,
                  "Phase-2 sampling number, " + range_help(1, range::kMaxBeta))
      ->capture_default_str();
  o.search_opt =
      app->add_option("--search", o.run.search,
                      "Phase-2 search: random (Alg. 2) | distance (Alg. 3) | unified (Alg. 4)")
          ->check(CLI::IsMember(weak_search_names()))
          ->capture_default_str();
  app->add_option("--algorithm", o.run.algorithm,
                  "weak (this paper) | original (Ashtiani et al.: yes/no oracle, not-sure becomes "
                  "a coin flip, plain binary search)")
      ->check(CLI::IsMember(algorithm_names()))
      ->capture_default_str();
  app->add_option("--semantics", o.run.semantics,
                  "paper (the algorithm as the paper writes it, default) | authors-code (the rules "
                  "of the authors' experiment code; proofs-notes/semantics.md)")
      ->capture_default_str();
  app->add_option(
      "--rule", o.run.rules,
      "one rule NAME=VALUE on top of --semantics (repeatable): anchor=opener|lowest-"
      "labelled-row|random-labelled-row|random-known-row, phase2=radius|prefix, overwrite=on|off, "
      "sample-cap=on|off, self-pairs=on|off, empty-recovers=on|off, elimination=on|off, "
      "b-order=xj-first|b-first");
  if (use.seed) add_seed_option(app, o.seed);
}

void add_run_options(CLI::App* app, SharedRunOptions& o, const RunOptionsUse& use) {
  add_run_data_options(app, o, use);
  add_run_param_options(app, o, use);
}

void add_person_options(CLI::App* app, PersonOptions& o, const std::string& prefix) {
  o.answers_opt = app->add_option("--answers", o.answers,
                                  prefix +
                                      "append every answer to this file as it is given and resume "
                                      "from the answers already in it (docs/label.md)");
  app->add_option("--show", o.show,
                  prefix +
                      "show these columns of each row (comma-separated, a name holding a comma in "
                      "double quotes; a column of text is shown and is no coordinate)");
  app->add_option(
      "--image", o.image,
      prefix + "draw the first W*H coordinates of each row as a WxH grey image (e.g. 8x8)");
}

std::vector<std::string> PersonOptions::columns() const {
  std::vector<std::string> out;
  std::vector<csv::Field> fields;
  for (const std::string& value : show) {
    csv::Reader reader(value, "--show", false);
    try {
      while (reader.next(fields))
        for (const csv::Field& f : fields) {
          std::string_view t = f.text;
          while (!t.empty() && (t.front() == ' ' || t.front() == '\t'))
            t.remove_prefix(1);
          while (!t.empty() && (t.back() == ' ' || t.back() == '\t'))
            t.remove_suffix(1);
          out.emplace_back(t);
        }
    } catch (const DataError& e) {
      throw ParameterError(e.what());  // a usage error: the option's value, not a file
    }
  }
  return out;
}

Params run_params(const RunOptions& o, std::size_t n) {
  Params P;
  P.k = static_cast<int>(to_size("k", o.k, 1, static_cast<long long>(n)));
  P.eta = o.eta;
  range::check_beta(o.beta);
  P.beta = static_cast<int>(o.beta);
  // The profile, then single rules on top of it; --assignment code is elimination=off.
  Profile profile = profile_named(o.semantics);
  if (o.assignment) profile.elimination = *parse_assignment(*o.assignment);
  for (const std::string& r : o.rules)
    set_rule_given_rows(profile, r);
  P.rules = profile.rules;
  P.elimination = profile.elimination;
  if (parse_algorithm(o.algorithm) == Algorithm::original) {
    if (o.search_given)
      throw ParameterError("--search does not apply to --algorithm original (plain binary search)");
    P.search = Search::plain;
  } else {
    P.search = *parse_search(o.search);  // CLI11 admits only the weak searches
  }
  P.check(n);
  return P;
}

OracleSpec oracle_spec(const OracleOptions& o) {
  OracleSpec spec;
  spec.kind = *oracle_kind_from_string(o.oracle);
  spec.q = o.q;
  spec.nu = o.nu;
  spec.rho = o.rho;
  spec.memory = *parse_oracle_memory(o.memory);
  if (o.q_given && !spec.uses_q())
    throw ParameterError("--q applies only to --oracle random or correlated");
  if (o.nu_given && !spec.uses_nu()) throw ParameterError("--nu applies only to --oracle local");
  if (o.rho_given && !spec.uses_rho())
    throw ParameterError("--rho applies only to --oracle local, global or correlated");
  if (o.memory_given && !spec.uses_memory())
    throw ParameterError("--memory applies only to --oracle random");
  return spec;
}

}  // namespace ssac::cli
