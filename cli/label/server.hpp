// The labelling page of ssac label: a small HTTP server on 127.0.0.1 serving one session.
//
// GET / shows the question (or, when the run is over, the clustering); POST /answer (q = the
// question's number, a = yes | no | not-sure) and POST /undo (to = the question to go back to)
// change the session; GET /labels.csv and /trace.jsonl download the result once the run is over.
// A request that does not fit the session's state (a stale question number, an unknown answer, an
// undo out of range, a download before the end) gets a 4xx and changes nothing. Each answer is
// written to the answer file and synced before the response is sent.
#pragma once

#include <string>

#include "label/answer_file.hpp"
#include "label/items.hpp"
#include "ssac/oracle_spec.hpp"
#include "ssac/session.hpp"

namespace ssac::cli {

struct LabelPage {
  std::string data_name;  // the CSV's path, shown at the top
  const LabelData* data = nullptr;
  const ItemView* view = nullptr;
  Session* session = nullptr;
  AnswerFile* file = nullptr;
  OracleSpec oracle;  // the trace header's oracle: interactive
  int pixel_size = 12;
};

// The page for the session's current state (question or end), as served at /.
std::string render_page(const LabelPage& p);
// The labels CSV and the trace of the finished run (what ssac cluster --out and --trace write).
std::string labels_csv(const Result& R);
std::string session_trace(const LabelPage& p);

// Serves `p` on 127.0.0.1:port (0: any free port) until SIGINT or SIGTERM; prints the address on
// stdout once listening. DataError with one line when the port cannot be bound.
void serve_label(LabelPage& p, int port);

}  // namespace ssac::cli
