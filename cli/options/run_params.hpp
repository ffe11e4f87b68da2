// The parameters of one run of Algorithm 1 (ssac::Params) from a command's options. `ssac cluster`,
// `ssac label` and `ssac exact` share it, so that they check the same values in the same order and
// report a bad one with the same line.
#pragma once

#include <CLI/CLI.hpp>
#include <cstddef>
#include <string>
#include <vector>

#include "ssac/oracle_spec.hpp"
#include "ssac/ssac.hpp"

namespace ssac::cli {

struct RunOptions {
  long long k = 0;
  double eta = 0.0;
  long long beta = 0;
  std::string semantics;           // --semantics: a profile name (ssac/rules.hpp)
  std::vector<std::string> rules;  // --rule NAME=VALUE, applied in order on top of the profile
  // --assignment paper|code when it was given (elimination on or off, after the profile and
  // before the rules); null when not given or when the command has no such option.
  const std::string* assignment = nullptr;
  std::string algorithm;  // weak | original
  std::string search;     // random | distance | unified (weak SSAC)
  bool search_given = false;
};

// The options that shape one run on a data file, as ssac cluster, ssac label and ssac exact take
// them: FILE, --k, --eta, --beta, --search, --algorithm, --semantics, --rule and --seed. These
// functions register them, with their ranges and help, so that the commands cannot drift apart.
struct SharedRunOptions {
  std::string file;
  // --assignment is ssac cluster's alone; `run.assignment` stays null here. The defaults are
  // ssac cluster's and ssac label's; a command may change them before it registers the options.
  RunOptions run{
      0,    10.0, 10, "paper", {}, nullptr, to_string(Algorithm::weak), to_string(Search::unified),
      false};
  unsigned long long seed = 0;
  CLI::Option* search_opt = nullptr;
  // `run` with search_given from the command line.
  RunOptions parsed() const;
};

// How a command takes the shared options.
struct RunOptionsUse {
  // ssac cluster and ssac exact ask for --eta; ssac label offers the default.
  bool eta_required = false;
  // ssac exact follows every draw of the run and has no --seed.
  bool seed = true;
  std::string file_help =
      "CSV data (header row; optional 'label' column; columns named in --show may hold text)";
  std::string k_help = "number of clusters, 1..n";
};

// FILE and --k.
void add_run_data_options(CLI::App* app, SharedRunOptions& o, const RunOptionsUse& use);
// --eta, --beta, --search, --algorithm, --semantics, --rule and, if `use.seed`, --seed, with the
// defaults `o.run` holds at the call. A command registers its own options between the two calls
// to place them after --k (ssac exact: its oracle's): CLI11 checks the values in the order the
// options were registered, and reports the first bad one.
void add_run_param_options(CLI::App* app, SharedRunOptions& o, const RunOptionsUse& use);
// Both, one after the other.
void add_run_options(CLI::App* app, SharedRunOptions& o, const RunOptionsUse& use);

// A person as the oracle (ssac label; ssac cluster --oracle interactive): --answers, --show and
// --image, with the same help in both, `prefix` ("interactive: ") before each where the command
// has other oracles.
struct PersonOptions {
  std::string answers;
  std::vector<std::string> show;  // as given: each value a CSV record of names (columns())
  std::string image;
  CLI::Option* answers_opt = nullptr;
  // The column names of --show: each value read as one CSV record (ssac/csv.hpp), so that a
  // column whose name holds a comma is named in quotes, --show '"Last, First",age'; blanks around
  // a name are not part of it, as in the data's header. ParameterError "--show:1:COLUMN: ..." for
  // a quote out of place.
  std::vector<std::string> columns() const;
};
void add_person_options(CLI::App* app, PersonOptions& o, const std::string& prefix);

// Params for data of n points: k in [1, n], beta in [1, range::kMaxBeta], the profile and its
// rules, the search (the original SSAC's plain search, which --search must not name), then
// Params::check. Throws ParameterError naming the first value out of its range.
Params run_params(const RunOptions& o, std::size_t n);

struct OracleOptions {
  std::string oracle;  // --oracle: a kind CLI11 has already checked (oracle_kind_from_string)
  double q = 1.0, nu = 1.0, rho = 1.0;
  std::string memory;  // --memory fresh | per-pair
  bool q_given = false, nu_given = false, rho_given = false, memory_given = false;
};

// The oracle of --oracle, --q, --nu, --rho and --memory, before its range check
// (OracleSpec::check); throws ParameterError for an option given to a kind that does not use it.
OracleSpec oracle_spec(const OracleOptions& o);

}  // namespace ssac::cli
