// The labelling page of ssac label: a small HTTP server on 127.0.0.1 serving one session.
//
// GET / shows the question (or, when the run is over, the clustering); POST /answer (q = the
// question's number, a = yes | no | not-sure) and POST /undo (to = the question to go back to)
// change the session; GET /labels.csv and /trace.jsonl download the result once the run is over.
// Every request must come from the person's browser (guard.hpp): a wrong Host, a post from another
// page or a missing token gets a 403 and changes nothing; a method a path does not take gets a 405.
// A browser opening an address with the token gets the cookie and the same address without the
// token. Every response, errors included, forbids framing (a page on another port of 127.0.0.1 is
// the same site) and sends no Referer to another origin.
// A request that does not fit the session's state (a stale question number, an unknown answer, an
// undo out of range, a download before the end) gets a 4xx and changes nothing. Each answer is
// written to the answer file and synced before the response is sent.
#pragma once

#include <memory>
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

// The page for the session's current state (question or end), as served at /. Built as Html
// (label/html.hpp): every text in it -- the data's cells and column names, the files' names, the
// progress line -- is escaped by construction.
std::string render_page(const LabelPage& p);
// The page answering a request that did not fit the session's state: `text`, escaped, and a link
// back to the question.
std::string render_message(const LabelPage& p, const std::string& text);
// The labels CSV and the trace of the finished run (what ssac cluster --out and --trace write).
std::string labels_csv(const Result& R);
std::string session_trace(const LabelPage& p);

// The server of one session: bound to 127.0.0.1 when constructed (DataError with one line when the
// port cannot be bound), so that a run that cannot listen stops before it creates any file.
// Who may send requests is guard.hpp's; how long a connection may hold a worker is server.cpp's
// (every request has a total deadline a trickle of bytes cannot extend).
class LabelServer {
 public:
  explicit LabelServer(int port);  // 0: any free port
  ~LabelServer();
  LabelServer(const LabelServer&) = delete;
  LabelServer& operator=(const LabelServer&) = delete;
  // The address with the session's token, as printed.
  std::string url() const;
  // Serves `p` until SIGINT or SIGTERM; prints the address on stdout once listening.
  void serve(LabelPage& p);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace ssac::cli
