// Algorithm 1's parameters and the oracle's specification from the options that `ssac cluster`
// and `ssac exact` share (run_params.hpp).
#include "options/run_params.hpp"

#include "options/option_checks.hpp"
#include "ssac/error.hpp"
#include "ssac/ranges.hpp"
#include "ssac/rules.hpp"

namespace ssac::cli {

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
