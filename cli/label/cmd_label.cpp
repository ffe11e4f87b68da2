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
  SharedRunOptions run;
  PersonOptions person;
  long long port = 8765;
  int pixel_size = 12;
};

int run_label(const LabelOpts& o) {
  if (o.port < 0 || o.port > 65535)
    throw_out_of_range("--port", o.port, "0..65535 (0: any free port)");
  const std::string& answers = o.person.answers;
  if (!answers.empty()) check_answer_log(answers);
  const std::vector<std::string> show = o.person.columns();
  const LabelData data = read_label_csv(o.run.file, show);
  Params P = run_params(o.run.parsed(), data.data.n());
  const OracleSpec oracle =
      oracle_spec({to_string(OracleKind::interactive), 1.0, 1.0, 1.0,
                   to_string(OracleMemory::fresh), false, false, false, false});
  P.oracle_clusters = oracle.clusters(data.data);  // a person's clusters: k is their claim (S2)
  const ItemView view(data, show, o.person.image);
  const SessionSpec spec{P, P.search == Search::plain ? Algorithm::original : Algorithm::weak,
                         o.run.seed};
  // The port first: a run that cannot listen stops before the answer file is created or locked.
  LabelServer server(static_cast<int>(o.port));
  std::optional<AnswerFile> file;
  std::vector<LoggedAnswer> earlier;
  if (!answers.empty()) {
    file.emplace(answers, answer_log_header(data.data.points, spec));
    earlier = file->open(data.data.n());
  }
  Session session(data.data.points, spec, std::move(earlier), answers);
  LabelPage page{o.run.file, &data, &view, &session, file ? &*file : nullptr, oracle, o.pixel_size};
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
  add_run_options(app, o->run, {});
  add_person_options(app, o->person, "");
  app->add_option("--port", o->port, "port on 127.0.0.1, 0..65535 (0: any free port)")
      ->capture_default_str();
  app->add_option("--pixel-size", o->pixel_size, "screen pixels per image pixel, 1..64")
      ->check(CLI::Range(1, 64))
      ->capture_default_str();
  path_options(app, {"FILE", "--answers"});
  return {app, [o]() { return run_label(*o); }};
}

}  // namespace ssac::cli
