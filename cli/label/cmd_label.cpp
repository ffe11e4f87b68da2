// ssac label: a person as the oracle, on a local web page (docs/label.md).
#include <iostream>
#include <memory>
#include <optional>

#include "commands/commands.hpp"
#include "label/answer_file.hpp"
#include "label/items.hpp"
#include "label/server.hpp"
#include "options/option_checks.hpp"
#include "options/run_params.hpp"
#include "ssac/error.hpp"
#include "ssac/oracle_spec.hpp"
#include "ssac/ranges.hpp"
#include "ssac/session.hpp"

namespace ssac::cli {

namespace {

struct LabelOpts {
  std::string file;
  long long k = 0;
  double eta = 10.0;
  long long beta = 10;
  std::string search = to_string(Search::unified);
  std::string algorithm = to_string(Algorithm::weak);
  std::string semantics = "paper";
  std::vector<std::string> rules;
  CLI::Option* search_opt = nullptr;
  unsigned long long seed = 0;
  std::string answers;
  long long port = 8765;
  std::vector<std::string> show;
  std::string image;
  int pixel_size = 12;
};

int run_label(const LabelOpts& o) {
  if (o.port < 0 || o.port > 65535)
    throw_out_of_range("--port", o.port, "0..65535 (0: any free port)");
  if (!o.answers.empty()) check_answer_log(o.answers);
  const LabelData data = read_label_csv(o.file, o.show);
  Params P = run_params({o.k, o.eta, o.beta, o.semantics, o.rules, nullptr, o.algorithm, o.search,
                         o.search_opt->count() > 0},
                        data.data.n());
  const OracleSpec oracle =
      oracle_spec({to_string(OracleKind::interactive), 1.0, 1.0, 1.0,
                   to_string(OracleMemory::fresh), false, false, false, false});
  P.oracle_clusters = oracle.clusters(data.data);  // a person's clusters: k is their claim (S2)
  const ItemView view(data, o.show, o.image);
  const SessionSpec spec{P, P.search == Search::plain ? Algorithm::original : Algorithm::weak,
                         o.seed};
  // The port first: a run that cannot listen stops before the answer file is created or locked.
  LabelServer server(static_cast<int>(o.port));
  std::optional<AnswerFile> file;
  std::vector<LoggedAnswer> earlier;
  if (!o.answers.empty()) {
    file.emplace(o.answers, answer_log_header(data.data.points, spec));
    earlier = file->open(data.data.n());
  }
  Session session(data.data.points, spec, std::move(earlier), o.answers);
  LabelPage page{o.file, &data, &view, &session, file ? &*file : nullptr, oracle, o.pixel_size};
  server.serve(page);
  return 0;
}

}  // namespace

Command add_label(CLI::App& root) {
  auto* app = root.add_subcommand(
      "label",
      "Be the oracle on a local web page: answer SSAC's same-cluster questions about the rows of "
      "a CSV file with yes / no / not sure, undo, resume, and download the clustering "
      "(docs/label.md).");
  auto o = std::make_shared<LabelOpts>();
  app->add_option("FILE", o->file, "CSV data (header row; columns named in --show may hold text)")
      ->required();
  app->add_option("--k", o->k, "number of clusters, 1..n")->required();
  app->add_option("--eta", o->eta, "Phase-1 sampling number, r = ceil(k eta) draws")
      ->capture_default_str();
  app->add_option("--beta", o->beta, "Phase-2 sampling number, " + range_help(1, range::kMaxBeta))
      ->capture_default_str();
  o->search_opt =
      app->add_option("--search", o->search,
                      "Phase-2 search: random (Alg. 2) | distance (Alg. 3) | unified (Alg. 4)")
          ->check(CLI::IsMember(weak_search_names()))
          ->capture_default_str();
  app->add_option("--algorithm", o->algorithm,
                  "weak (this paper) | original (Ashtiani et al.: not-sure becomes a coin flip)")
      ->check(CLI::IsMember(algorithm_names()))
      ->capture_default_str();
  app->add_option("--semantics", o->semantics, "paper | authors-code (proofs-notes/semantics.md)")
      ->capture_default_str();
  app->add_option("--rule", o->rules, "one rule NAME=VALUE on top of --semantics (repeatable)");
  add_seed_option(app, o->seed);
  app->add_option("--answers", o->answers,
                  "append every answer to this file as it is given and resume from the answers "
                  "already in it (the file ssac cluster --oracle interactive --answers reads)");
  app->add_option("--port", o->port, "port on 127.0.0.1, 0..65535 (0: any free port)")
      ->capture_default_str();
  app->add_option("--show", o->show, "show these columns of each row (comma-separated)")
      ->delimiter(',');
  app->add_option("--image", o->image,
                  "draw the first W*H coordinates of each row as a WxH grey image (e.g. 8x8)");
  app->add_option("--pixel-size", o->pixel_size, "screen pixels per image pixel, 1..64")
      ->check(CLI::Range(1, 64))
      ->capture_default_str();
  path_options(app, {"FILE", "--answers"});
  return {app, [o]() { return run_label(*o); }};
}

}  // namespace ssac::cli
