// The labelling page's server (server.hpp): binds 127.0.0.1 alone, answers each request from the
// session's state, and writes every answer to the answer file before it replies.
#include "label/server.hpp"

#include <httplib.h>
#include <sys/socket.h>

#include <csignal>
#include <cstdio>
#include <iostream>
#include <mutex>

#include "label/app.js.hpp"
#include "label/page.html.hpp"
#include "label/pca.hpp"
#include "label/style.css.hpp"
#include "label/terminal.hpp"
#include "ssac/error.hpp"
#include "ssac/observer.hpp"
#include "ssac/trace.hpp"

namespace ssac::cli {

namespace {

std::string replace_all(std::string s, const std::string& from, const std::string& to) {
  for (std::size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
    s.replace(at, from.size(), to);
  return s;
}

std::string shell(const LabelPage& p, const std::string& title, const std::string& body) {
  const SessionSpec& s = p.session->spec();
  const std::string about =
      html_escape(p.data_name) + " &middot; n = " + std::to_string(p.data->data.n()) +
      ", k = " + std::to_string(s.params.k) + ", &eta; = " + format_double(s.params.eta) +
      ", &beta; = " + std::to_string(s.params.beta) + ", " + to_string(s.params.search) +
      " search, seed " + std::to_string(s.seed) +
      (p.file ? " &middot; answers saved in " + html_escape(p.file->path()) : "");
  // The shell's markers are replaced once each, the body last, so text inside the body that looks
  // like a marker stays as it is.
  std::string page = kLabelPage;
  page = replace_all(page, "{{title}}", html_escape(title));
  page = replace_all(page, "{{about}}", about);
  const std::size_t at = page.find("{{body}}");
  return page.replace(at, 8, body);
}

std::string item_box(const LabelPage& p, std::size_t row, const char* cls = "item") {
  return std::string("<section class=\"") + cls + "\" data-row=\"" + std::to_string(row) +
         "\"><h2>row " + std::to_string(row + 1) + "</h2>" + p.view->html(row, p.pixel_size) +
         "</section>";
}

std::string history(const LabelPage& p) {
  const auto& log = p.session->log();
  if (log.empty()) return "";
  std::string out = "<section id=\"history\"><h3>Your last answers</h3><ol>";
  const std::size_t from = log.size() > 8 ? log.size() - 8 : 0;
  for (std::size_t i = log.size(); i-- > from;) {
    out += "<li value=\"" + std::to_string(i + 1) + "\">rows " + std::to_string(log[i].x + 1) +
           " and " + std::to_string(log[i].y + 1) + ": " + to_string(log[i].answer) +
           " <form method=\"post\" action=\"/undo\"><input type=\"hidden\" name=\"to\" value=\"" +
           std::to_string(i + 1) + "\"><button>back to question " + std::to_string(i + 1) +
           "</button></form></li>";
  }
  return out + "</ol></section>";
}

std::string question_page(const LabelPage& p) {
  const auto [x, y] = p.session->question();
  const std::size_t q = p.session->log().size() + 1;
  std::string body = "<p id=\"progress\">" + html_escape(progress_line(*p.session)) + "</p>";
  body += "<p class=\"question\">Question <span id=\"qnum\">" + std::to_string(q) +
          "</span>: are these two in the same cluster?</p>";
  body += "<div class=\"pair\" id=\"pair\" data-question=\"" + std::to_string(q) +
          "\" data-row-a=\"" + std::to_string(x) + "\" data-row-b=\"" + std::to_string(y) + "\">" +
          item_box(p, x) + item_box(p, y) + "</div>";
  body +=
      "<form class=\"answers\" method=\"post\" action=\"/answer\"><input type=\"hidden\" "
      "name=\"q\" value=\"" +
      std::to_string(q) +
      "\"><button id=\"answer-yes\" class=\"yes\" name=\"a\" value=\"yes\">Same "
      "<kbd>y</kbd></button><button id=\"answer-no\" class=\"no\" name=\"a\" "
      "value=\"no\">Different <kbd>n</kbd></button><button id=\"answer-not-sure\" "
      "class=\"not-sure\" name=\"a\" value=\"not-sure\">Not sure <kbd>space</kbd> "
      "<kbd>?</kbd></button></form>";
  if (q > 1)
    body +=
        "<form class=\"undo\" method=\"post\" action=\"/undo\"><input type=\"hidden\" "
        "name=\"to\" value=\"" +
        std::to_string(q - 1) + "\"><button id=\"undo\">Undo <kbd>u</kbd></button></form>";
  return shell(p, "Question " + std::to_string(q), body + history(p));
}

std::string end_page(const LabelPage& p) {
  const Result& R = p.session->result();
  const SessionProgress pr = p.session->progress();
  std::string body = "<p id=\"progress\">" + html_escape(progress_line(*p.session)) + "</p>";
  body += "<h2 id=\"done\">The clustering</h2><p>" + std::to_string(pr.questions) +
          " questions answered, " + std::to_string(pr.queries) +
          " same-cluster queries in the run; " + std::to_string(R.clusters_recovered) + " of " +
          std::to_string(p.session->spec().params.k) +
          " clusters recovered; status: " + html_escape(R.status) + ".</p>";
  body +=
      "<p class=\"downloads\"><a id=\"download-labels\" href=\"/labels.csv\" "
      "download=\"labels.csv\">labels CSV</a><a id=\"download-trace\" href=\"/trace.jsonl\" "
      "download=\"trace.jsonl\">trace (ssac validate)</a></p>";
  const int k = p.session->spec().params.k;
  body +=
      "<table class=\"clusters\"><tr><th>cluster</th><th>size</th><th>a few of its "
      "items</th></tr>";
  for (int c = 0; c <= k; ++c) {
    std::vector<std::size_t> rows;
    for (std::size_t i = 0; i < R.labels.size(); ++i)
      if (R.labels[i] == c) rows.push_back(i);
    if (c == 0 && rows.empty()) continue;
    body += "<tr class=\"cluster\" data-cluster=\"" + std::to_string(c) + "\"><td>" +
            (c == 0 ? std::string("unassigned") : std::to_string(c)) + "</td><td class=\"size\">" +
            std::to_string(rows.size()) + "</td><td><div class=\"members\">";
    for (std::size_t j = 0; j < rows.size() && j < 4; ++j)
      body += item_box(p, rows[j]);
    body += "</div></td></tr>";
  }
  body += "</table><h3>The first two principal components, coloured by the clustering</h3>";
  body += pca_svg(principal_components(p.data->data.points), R.labels);
  return shell(p, "The clustering", body + history(p));
}

std::string message_page(const LabelPage& p, const std::string& text) {
  return shell(p, "ssac label",
               "<p class=\"error\">" + html_escape(text) +
                   "</p><p><a href=\"/\">Back to the question</a></p>");
}

httplib::Server* g_server = nullptr;

}  // namespace

std::string render_page(const LabelPage& p) {
  return p.session->finished() ? end_page(p) : question_page(p);
}

std::string labels_csv(const Result& R) {
  std::string csv = "label\n";
  for (int l : R.labels)
    csv += std::to_string(l) + "\n";
  return csv;
}

std::string session_trace(const LabelPage& p) {
  TraceHeader th;
  th.params = p.session->spec().params;
  th.algorithm = to_string(p.session->spec().algorithm);
  th.oracle = p.oracle;
  // A person is asked once per unordered pair (per-pair memory), as ssac cluster writes it.
  th.memory = OracleMemory::per_pair;
  th.seed = p.session->spec().seed;
  std::string trace;
  auto writer = trace_writer(p.data->data.points, th, [&trace](const std::string& line) {
    trace += line;
    trace += '\n';
  });
  p.session->replay(writer.get());
  return trace;
}

void serve_label(LabelPage& p, int port) {
  httplib::Server server;
  std::mutex mu;
  server.set_payload_max_length(1 << 12);
  // The library's default sets SO_REUSEPORT, which lets a second server bind a port another one
  // is listening on (and take half its connections); only SO_REUSEADDR is wanted, so that a
  // restart can take the port back at once from connections still closing.
  server.set_socket_options([](socket_t sock) {
    int yes = 1;
    ::setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
  });
  auto html = [](httplib::Response& res, int status, const std::string& body) {
    res.status = status;
    res.set_header("Cache-Control", "no-store");
    res.set_header("X-Content-Type-Options", "nosniff");
    res.set_header("Content-Security-Policy",
                   "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self'; "
                   "form-action 'self'");
    res.set_content(body, "text/html; charset=utf-8");
  };
  server.Get("/", [&](const httplib::Request&, httplib::Response& res) {
    std::lock_guard lock(mu);
    html(res, 200, render_page(p));
  });
  server.Get("/style.css", [](const httplib::Request&, httplib::Response& res) {
    res.set_content(kLabelStyle, "text/css; charset=utf-8");
  });
  server.Get("/app.js", [](const httplib::Request&, httplib::Response& res) {
    res.set_content(kLabelScript, "text/javascript; charset=utf-8");
  });
  server.Post("/answer", [&](const httplib::Request& req, httplib::Response& res) {
    std::lock_guard lock(mu);
    Answer a;
    const std::string q = req.get_param_value("q"), text = req.get_param_value("a");
    if (text != "yes" && text != "no" && text != "not-sure")
      return html(res, 400, message_page(p, "The answer must be yes, no or not-sure."));
    parse_answer(text, a);
    if (p.session->finished())
      return html(res, 409, message_page(p, "The run is over: there is no question to answer."));
    const std::size_t current = p.session->log().size() + 1;
    if (q != std::to_string(current))
      return html(res, 409,
                  message_page(p,
                               "That question was already answered or undone; the "
                               "current one is question " +
                                   std::to_string(current) + "."));
    const auto [x, y] = p.session->question();
    // Saved before the session moves on and before the response: an acknowledged answer is on
    // the disk.
    if (p.file) p.file->append({std::min(x, y), std::max(x, y), a}, current);
    p.session->answer(a);
    res.status = 303;
    res.set_header("Location", "/");
  });
  server.Post("/undo", [&](const httplib::Request& req, httplib::Response& res) {
    std::lock_guard lock(mu);
    const std::string to = req.get_param_value("to");
    const std::size_t answered = p.session->log().size();
    std::size_t back = 0;
    bool ok =
        !to.empty() && to.size() < 12 && to.find_first_not_of("0123456789") == std::string::npos;
    if (ok) back = std::stoull(to);
    if (!ok || back < 1 || back > answered)
      return html(res, 400,
                  message_page(p, answered == 0 ? "There is no answer to undo yet."
                                                : "Undo goes back to a question from 1 to " +
                                                      std::to_string(answered) + "."));
    p.session->undo(back - 1);
    if (p.file) p.file->rewrite(p.session->log());
    res.status = 303;
    res.set_header("Location", "/");
  });
  auto download = [&](const char* path, const char* type, bool trace) {
    server.Get(path, [&, type, trace](const httplib::Request&, httplib::Response& res) {
      std::lock_guard lock(mu);
      if (!p.session->finished())
        return html(res, 409, message_page(p, "The run is not over yet."));
      res.set_header("Cache-Control", "no-store");
      res.set_content(trace ? session_trace(p) : labels_csv(p.session->result()), type);
    });
  };
  download("/labels.csv", "text/csv; charset=utf-8", false);
  download("/trace.jsonl", "application/x-ndjson", true);
  server.set_exception_handler(
      [&](const httplib::Request&, httplib::Response& res, std::exception_ptr ep) {
        std::string what = "internal error";
        try {
          std::rethrow_exception(ep);
        } catch (const std::exception& e) {
          what = e.what();
        }
        std::cerr << "ssac label: error: " << what << "\n";
        html(res, 500, message_page(p, what));
      });

  const char* host = "127.0.0.1";  // loopback only: the page is for the person at this machine
  int bound = port;
  if (port == 0) {
    bound = server.bind_to_any_port(host);
    if (bound <= 0) throw DataError("--port 0: cannot listen on any port of 127.0.0.1");
  } else if (!server.bind_to_port(host, port)) {
    throw DataError("--port " + std::to_string(port) +
                    ": cannot listen on 127.0.0.1:" + std::to_string(port) +
                    " (taken by another program?); choose another port, or --port 0 for any "
                    "free one");
  }
  std::cout << "ssac label: open http://127.0.0.1:" << bound << "/ in a browser (Ctrl-C stops; "
            << (p.file ? "the answers are saved in " + p.file->path() + ")"
                       : "without --answers nothing is saved)")
            << std::endl;
  g_server = &server;
  auto on_signal = [](int) {
    if (g_server) g_server->stop();
  };
  std::signal(SIGINT, on_signal);
  std::signal(SIGTERM, on_signal);
  server.listen_after_bind();
  g_server = nullptr;
}

}  // namespace ssac::cli
