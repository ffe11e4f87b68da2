// The labelling page's server (server.hpp): binds 127.0.0.1 alone, answers each request from the
// session's state, and writes every answer to the answer file before it replies.
#include "label/server.hpp"

#include <arpa/inet.h>
#include <httplib.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <deque>
#include <functional>
#include <iostream>
#include <mutex>
#include <set>
#include <string_view>
#include <thread>
#include <vector>

#include "label/app.js.hpp"
#include "label/favicon.svg.hpp"
#include "label/guard.hpp"
#include "label/html.hpp"
#include "label/page.html.hpp"
#include "label/pca.hpp"
#include "label/style.css.hpp"
#include "label/terminal.hpp"
#include "ssac/error.hpp"
#include "ssac/observer.hpp"
#include "ssac/trace.hpp"

namespace ssac::cli {

namespace {

Html shell(const LabelPage& p, const std::string& title, const Html& body) {
  const SessionSpec& s = p.session->spec();
  Html about, heading;
  about << Text(p.data_name) << " &middot; n = " << p.data->data.n() << ", k = " << s.params.k
        << ", &eta; = " << Text(format_double(s.params.eta)) << ", &beta; = " << s.params.beta
        << ", " << Text(to_string(s.params.search)) << " search, seed " << s.seed;
  if (p.file) about << " &middot; answers saved in " << Text(p.file->path());
  heading << Text(title);
  // One pass over the shell's markers: a marker inside the data's text is not filled.
  return Html::fill(kLabelPage,
                    {{"{{title}}", &heading}, {"{{about}}", &about}, {"{{body}}", &body}});
}

Html item_box(const LabelPage& p, std::size_t row) {
  Html out;
  out << "<section class=\"item\" data-row=\"" << row << "\"><h2>row " << row << "</h2>"
      << p.view->html(row, p.pixel_size) << "</section>";
  return out;
}

Html history(const LabelPage& p) {
  Html out;
  const auto& log = p.session->log();
  if (log.empty()) return out;
  out << "<section id=\"history\"><h3>Your last answers</h3><ol>";
  const std::size_t from = log.size() > 8 ? log.size() - 8 : 0;
  for (std::size_t i = log.size(); i-- > from;) {
    out << "<li value=\"" << i + 1 << "\">rows " << log[i].x << " and " << log[i].y << ": "
        << Text(to_string(log[i].answer))
        << " <form method=\"post\" action=\"/undo\"><input type=\"hidden\" name=\"to\" value=\""
        << i + 1 << "\"><button>back to question " << i + 1 << "</button></form></li>";
  }
  out << "</ol></section>";
  return out;
}

Html progress(const LabelPage& p) {
  Html out;
  out << "<p id=\"progress\">" << Text(progress_line(*p.session)) << "</p>";
  return out;
}

Html question_page(const LabelPage& p) {
  const auto [x, y] = p.session->question();
  const std::size_t q = p.session->log().size() + 1;
  Html body = progress(p);
  body << "<p class=\"question\">Question <span id=\"qnum\">" << q
       << "</span>: are these two in the same cluster?</p>";
  body << "<div class=\"pair\" id=\"pair\" data-question=\"" << q << "\" data-row-a=\"" << x
       << "\" data-row-b=\"" << y << "\">" << item_box(p, x) << item_box(p, y) << "</div>";
  body << "<form class=\"answers\" method=\"post\" action=\"/answer\"><input type=\"hidden\" "
          "name=\"q\" value=\""
       << q
       << "\"><button id=\"answer-yes\" class=\"yes\" name=\"a\" value=\"yes\">Same "
          "<kbd>y</kbd></button><button id=\"answer-no\" class=\"no\" name=\"a\" "
          "value=\"no\">Different <kbd>n</kbd></button><button id=\"answer-not-sure\" "
          "class=\"not-sure\" name=\"a\" value=\"not-sure\">Not sure <kbd>space</kbd> "
          "<kbd>?</kbd></button></form>";
  if (q > 1)
    body << "<form class=\"undo\" method=\"post\" action=\"/undo\"><input type=\"hidden\" "
            "name=\"to\" value=\""
         << q - 1 << "\"><button id=\"undo\">Undo <kbd>u</kbd></button></form>";
  body << history(p);
  return shell(p, "Question " + std::to_string(q), body);
}

Html end_page(const LabelPage& p) {
  const Result& R = p.session->result();
  const SessionProgress pr = p.session->progress();
  const int k = p.session->spec().params.k;
  Html body = progress(p);
  body << "<h2 id=\"done\">The clustering</h2><p>" << pr.questions << " questions answered, "
       << pr.queries << " same-cluster queries in the run; " << R.clusters_recovered << " of " << k
       << " clusters recovered; status: " << Text(R.status) << ".</p>";
  body << "<p class=\"downloads\"><a id=\"download-labels\" href=\"/labels.csv\" "
          "download=\"labels.csv\">labels CSV</a><a id=\"download-trace\" href=\"/trace.jsonl\" "
          "download=\"trace.jsonl\">trace (ssac validate)</a></p>";
  body << "<table class=\"clusters\"><tr><th>cluster</th><th>size</th><th>a few of its "
          "items</th></tr>";
  for (int c = 0; c <= k; ++c) {
    std::vector<std::size_t> rows;
    for (std::size_t i = 0; i < R.labels.size(); ++i)
      if (R.labels[i] == c) rows.push_back(i);
    if (c == 0 && rows.empty()) continue;
    body << "<tr class=\"cluster\" data-cluster=\"" << c << "\"><td>";
    if (c == 0)
      body << "unassigned";
    else
      body << c;
    body << "</td><td class=\"size\">" << rows.size() << "</td><td><div class=\"members\">";
    for (std::size_t j = 0; j < rows.size() && j < 4; ++j)
      body << item_box(p, rows[j]);
    body << "</div></td></tr>";
  }
  body << "</table><h3>The first two principal components, coloured by the clustering</h3>";
  body << pca_svg(principal_components(p.data->data.points), R.labels);
  if (!p.session->log().empty()) {
    const std::size_t last = p.session->log().size();
    body << "<form class=\"undo\" method=\"post\" action=\"/undo\"><input type=\"hidden\" "
            "name=\"to\" value=\""
         << last << "\"><button id=\"undo\">Take back the last answer and return to question "
         << last << " <kbd>u</kbd></button></form>";
  }
  body << history(p);
  return shell(p, "The clustering", body);
}

// How long a connection may hold one of the workers. A request has kRequestDeadline in all, from
// the moment the server starts waiting for it to its last byte sent: a client that trickles one
// byte at a time is cut off at the deadline, which no byte extends (the library's own read timeout
// restarts with every read). Between requests a connection may stay silent for kIdle.
constexpr auto kRequestDeadline = std::chrono::seconds(10);
constexpr auto kIdle = std::chrono::seconds(5);
constexpr int kMaxRequestsPerConnection = 100;
// A person's browser opens about six connections to a host at a time; the workers are ten times
// as many, so that tens of stalled connections (each held at most kRequestDeadline + kIdle) still
// leave workers for the person. Connections beyond kWorkers wait in the queue; beyond
// kMaxConnections open at once (queued or served) a new one is closed at once. On loopback every
// program of the machine is the one client 127.0.0.1, so this is the cap per client.
constexpr std::size_t kWorkers = 64;
constexpr std::size_t kMaxConnections = 512;
constexpr int kBacklog = 512;  // the library listens with 5; a burst of 200 connects must queue

using Clock = std::chrono::steady_clock;

thread_local bool t_refuse_connection = false;
// Set while a request is handled when its connection must end after the response: a request
// refused before routing leaves its body unread, which would be taken for the next request.
thread_local bool t_close_after_response = false;

// A request with neither Content-Length nor Transfer-Encoding has no body (RFC 9112, section 6.3,
// rule 7). The library would read such a POST, PUT, PATCH or DELETE's body until the connection
// closes, holding a worker for the whole request deadline; told its length is 0, it reads nothing.
void empty_body_when_unannounced(httplib::Request& req) {
  if (!req.has_header("Content-Length") && !req.has_header("Transfer-Encoding"))
    req.set_header("Content-Length", "0");
}

// httplib's Stream over one accepted socket, with the request's total deadline on every wait.
class DeadlineStream : public httplib::Stream {
 public:
  explicit DeadlineStream(int fd) : fd_(fd) {}
  void start_request(Clock::time_point deadline) { deadline_ = deadline; }
  // A wait ran out of time (the request's deadline, or the idle limit between requests).
  bool expired() const { return expired_; }
  // Waits at most `limit` (and never past the deadline) for the next request's first byte.
  bool wait_request(Clock::duration limit) const {
    return off_ < len_ || wait(POLLIN, std::min(Clock::now() + limit, deadline_));
  }
  bool is_readable() const override { return off_ < len_ || wait(POLLIN, deadline_); }
  bool is_writable() const override { return wait(POLLOUT, deadline_); }
  ssize_t read(char* ptr, size_t size) override {
    if (off_ >= len_) {
      if (!wait(POLLIN, deadline_)) return -1;
      ssize_t n;
      do
        n = ::recv(fd_, buf_, sizeof buf_, 0);
      while (n < 0 && errno == EINTR);
      if (n <= 0) return n;
      off_ = 0;
      len_ = static_cast<std::size_t>(n);
    }
    const std::size_t take = std::min(size, len_ - off_);
    std::memcpy(ptr, buf_ + off_, take);
    off_ += take;
    return static_cast<ssize_t>(take);
  }
  ssize_t write(const char* ptr, size_t size) override {
    if (!is_writable()) return -1;
    ssize_t n;
    do
      n = ::send(fd_, ptr, size, MSG_NOSIGNAL);
    while (n < 0 && errno == EINTR);
    return n;
  }
  void get_remote_ip_and_port(std::string& ip, int& port) const override {
    address(::getpeername, ip, port);
  }
  void get_local_ip_and_port(std::string& ip, int& port) const override {
    address(::getsockname, ip, port);
  }
  socket_t socket() const override { return fd_; }

 private:
  bool wait(short events, Clock::time_point until) const {
    for (;;) {
      const auto left = std::chrono::ceil<std::chrono::milliseconds>(until - Clock::now()).count();
      if (left <= 0) {
        expired_ = true;
        return false;
      }
      pollfd pfd{fd_, events, 0};
      const int r = ::poll(&pfd, 1, static_cast<int>(std::min<long long>(left, 1000)));
      if (r < 0 && errno != EINTR) return false;
      if (r > 0) return (pfd.revents & (events | POLLHUP | POLLERR)) != 0;
    }
  }
  template <class Get>
  void address(Get get, std::string& ip, int& port) const {
    sockaddr_storage a{};
    socklen_t len = sizeof a;
    ip.clear();
    port = 0;
    if (get(fd_, reinterpret_cast<sockaddr*>(&a), &len) != 0) return;
    char text[INET6_ADDRSTRLEN] = {};
    if (a.ss_family == AF_INET) {
      const auto* v4 = reinterpret_cast<const sockaddr_in*>(&a);
      ::inet_ntop(AF_INET, &v4->sin_addr, text, sizeof text);
      port = ntohs(v4->sin_port);
    } else if (a.ss_family == AF_INET6) {
      const auto* v6 = reinterpret_cast<const sockaddr_in6*>(&a);
      ::inet_ntop(AF_INET6, &v6->sin6_addr, text, sizeof text);
      port = ntohs(v6->sin6_port);
    }
    ip = text;
  }
  int fd_;
  Clock::time_point deadline_ = Clock::now();
  mutable bool expired_ = false;
  char buf_[4096];
  std::size_t off_ = 0, len_ = 0;
};

// The server with its connections handled here rather than by the library: the per-request
// deadline (DeadlineStream), a larger listen backlog, and every open connection shut down when the
// server stops (a stalled client does not delay Ctrl-C).
class GuardedServer : public httplib::Server {
 public:
  GuardedServer() {
    // Only for the Keep-Alive header the library writes; the loop below enforces them.
    set_keep_alive_max_count(kMaxRequestsPerConnection);
    set_keep_alive_timeout(std::chrono::duration_cast<std::chrono::seconds>(kIdle).count());
    new_task_queue = [this] {
      return new ConnectionPool(kWorkers, kMaxConnections, [this] { shutdown_connections(); });
    };
  }
  // Linux takes a second listen() on a listening socket as a new backlog.
  void widen_backlog() { ::listen(svr_sock_, kBacklog); }

 private:
  class ConnectionPool : public httplib::TaskQueue {
   public:
    ConnectionPool(std::size_t workers, std::size_t cap, std::function<void()> on_shutdown)
        : cap_(cap), on_shutdown_(std::move(on_shutdown)) {
      for (std::size_t i = 0; i < workers; ++i)
        threads_.emplace_back([this] { work(); });
    }
    void enqueue(std::function<void()> fn) override {
      {
        std::lock_guard lock(mu_);
        if (open_ < cap_) {
          ++open_;
          jobs_.push_back(std::move(fn));
          cv_.notify_one();
          return;
        }
      }
      // Over the cap: the job runs here and only closes its socket.
      t_refuse_connection = true;
      fn();
      t_refuse_connection = false;
    }
    void shutdown() override {
      {
        std::lock_guard lock(mu_);
        stop_ = true;
      }
      on_shutdown_();
      cv_.notify_all();
      for (auto& t : threads_)
        t.join();
    }

   private:
    void work() {
      for (;;) {
        std::function<void()> fn;
        {
          std::unique_lock lock(mu_);
          cv_.wait(lock, [this] { return stop_ || !jobs_.empty(); });
          if (jobs_.empty()) return;
          fn = std::move(jobs_.front());
          jobs_.pop_front();
        }
        fn();
        std::lock_guard lock(mu_);
        --open_;
      }
    }
    std::size_t cap_, open_ = 0;
    bool stop_ = false;
    std::function<void()> on_shutdown_;
    std::mutex mu_;
    std::condition_variable cv_;
    std::deque<std::function<void()>> jobs_;
    std::vector<std::thread> threads_;
  };

  void shutdown_connections() {
    std::lock_guard lock(open_mu_);
    stopping_ = true;
    for (int fd : open_)
      ::shutdown(fd, SHUT_RDWR);
  }

  bool process_and_close_socket(socket_t sock) override {
    bool ret = false;
    bool serve = !t_refuse_connection;
    {
      std::lock_guard lock(open_mu_);
      if (stopping_) serve = false;
      if (serve) open_.insert(sock);
    }
    if (serve) {
      DeadlineStream strm(sock);
      for (int count = 0; count < kMaxRequestsPerConnection && svr_sock_ != INVALID_SOCKET;
           ++count) {
        strm.start_request(Clock::now() + kRequestDeadline);
        if (!strm.wait_request(kIdle)) break;
        bool closed = false;
        t_close_after_response = false;
        ret = process_request(strm, count + 1 == kMaxRequestsPerConnection, closed,
                              empty_body_when_unannounced);
        if (t_close_after_response) break;
        // A request cut off by the deadline is answered 400 by the library, which would then
        // wait for the next one on the same connection: the connection ends instead.
        if (!ret || closed || strm.expired()) break;
      }
      std::lock_guard lock(open_mu_);
      open_.erase(sock);
    }
    ::shutdown(sock, SHUT_RDWR);
    ::close(sock);
    return ret;
  }

  std::mutex open_mu_;
  std::set<int> open_;
  bool stopping_ = false;
};

GuardedServer* g_server = nullptr;

// The page's own style sheet, script and icon, nothing else; forms post only to the page; no page
// may frame it.
constexpr const char* kContentSecurityPolicy =
    "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self'; form-action 'self'; "
    "frame-ancestors 'none'";

// The methods each path takes ("GET, HEAD" or "POST"), nullptr for a path the server does not
// have (the library's 404).
const char* allowed_methods(const std::string& path) {
  for (const char* get : {"/", "/style.css", "/app.js", "/favicon.svg", "/favicon.ico",
                          "/labels.csv", "/trace.jsonl"})
    if (path == get) return "GET, HEAD";
  if (path == "/answer" || path == "/undo") return "POST";
  return nullptr;
}

bool method_allowed(const std::string& method, const char* allow) {
  return std::string_view(allow) == "POST" ? method == "POST" : method == "GET" || method == "HEAD";
}

const char* status_text(int status) {
  switch (status) {
    case 400:
      return "bad request";
    case 404:
      return "no such page";
    case 405:
      return "method not allowed";
    case 413:
      return "request body too large";
    case 414:
      return "request target too long";
    case 416:
      return "range not satisfiable";
    default:
      return "error";
  }
}

}  // namespace

std::string render_page(const LabelPage& p) {
  return (p.session->finished() ? end_page(p) : question_page(p)).str();
}

std::string render_message(const LabelPage& p, const std::string& text) {
  Html body;
  body << "<p class=\"error\">" << Text(text)
       << "</p><p><a href=\"/\">Back to the question</a></p>";
  return shell(p, "ssac label", body).str();
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

struct LabelServer::Impl {
  GuardedServer server;
  std::unique_ptr<RequestGuard> guard;
  int port = 0;
};

LabelServer::LabelServer(int port) : impl_(std::make_unique<Impl>()) {
  httplib::Server& server = impl_->server;
  // The library's default sets SO_REUSEPORT, which lets a second server bind a port another one
  // is listening on (and take half its connections); only SO_REUSEADDR is wanted, so that a
  // restart can take the port back at once from connections still closing.
  server.set_socket_options([](socket_t sock) {
    int yes = 1;
    ::setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
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
  impl_->server.widen_backlog();
  impl_->port = bound;
  impl_->guard = std::make_unique<RequestGuard>(session_token(), bound);
}

LabelServer::~LabelServer() = default;

std::string LabelServer::url() const {
  return impl_->guard->url();
}

void LabelServer::serve(LabelPage& p) {
  GuardedServer& server = impl_->server;
  const RequestGuard& guard = *impl_->guard;
  std::mutex mu;
  server.set_payload_max_length(1 << 12);
  // On every response the library writes, errors included (the library starts each response
  // from these): only the page's own files may be loaded, no page may frame it (a page on another
  // port of 127.0.0.1 is same-site, so the strict cookie would be sent to the frame), and no
  // address is sent to another origin as a Referer. Not no-referrer: under it the browser sends
  // `Origin: null` with the page's own form posts (Fetch standard, "append a request Origin
  // header"), which the guard refuses as it must refuse a sandboxed page's.
  server.set_default_headers({{"Content-Security-Policy", kContentSecurityPolicy},
                              {"X-Frame-Options", "DENY"},
                              {"Referrer-Policy", "same-origin"},
                              {"X-Content-Type-Options", "nosniff"}});
  auto html = [](httplib::Response& res, int status, const std::string& body) {
    res.status = status;
    res.set_header("Cache-Control", "no-store");
    res.set_content(body, "text/html; charset=utf-8");
  };
  // A refusal before routing: one line of text, and the connection closes (the request's body,
  // if any, is left unread and would be taken for the next request).
  auto refuse = [](httplib::Response& res, int status, const std::string& reason) {
    res.status = status;
    res.set_header("Cache-Control", "no-store");
    res.set_header("Connection", "close");
    t_close_after_response = true;
    res.set_content("ssac label: " + reason + "\n", "text/plain; charset=utf-8");
    return httplib::Server::HandlerResponse::Handled;
  };
  // Before any route: a request the guard refuses gets a 403 naming no data of the session; a
  // method a known path does not take gets a 405.
  server.set_pre_routing_handler([&](const httplib::Request& req, httplib::Response& res) {
    RequestFacts facts{req.method,
                       req.get_header_value("Host"),
                       req.get_header_value("Origin"),
                       req.get_header_value("Sec-Fetch-Site"),
                       req.get_header_value("Cookie"),
                       req.get_param_value("token")};
    const Admission a = guard.admit(facts);
    if (a.status != 0) return refuse(res, a.status, a.reason);
    const char* allow = allowed_methods(req.path);
    if (allow && !method_allowed(req.method, allow)) {
      res.set_header("Allow", allow);
      return refuse(res, 405, req.method + " is not taken here (" + allow + ")");
    }
    // A body whose length only the end of the connection would tell (a transfer coding other
    // than chunked) cannot be read: 400 and close (RFC 9112, section 6.3, rule 4).
    if (req.has_header("Transfer-Encoding") &&
        ascii_lower(req.get_header_value("Transfer-Encoding")) != "chunked")
      return refuse(res, 400, "a Transfer-Encoding other than chunked is not read");
    // Admitted by the query token (the printed address): the browser gets the cookie. A
    // navigation to an address with a token (also one the cookie admits: the printed address
    // opened again) leaves the token behind -- the same page without it, so that the address bar
    // and the history keep no token. A navigation that began on another site would not send the
    // SameSite=Strict cookie on a redirect's second request: it gets a page that goes on to the
    // address by itself (a navigation this origin starts, which sends the cookie). A script
    // (no Sec-Fetch-Mode) is answered at once.
    if (a.set_cookie) res.set_header("Set-Cookie", guard.set_cookie());
    if (!req.has_param("token") || req.get_header_value("Sec-Fetch-Mode") != "navigate" ||
        (req.method != "GET" && req.method != "HEAD"))
      return httplib::Server::HandlerResponse::Unhandled;
    const std::string to = allow ? req.path : "/";  // a known path only: never another host
    res.set_header("Cache-Control", "no-store");
    const std::string site = req.get_header_value("Sec-Fetch-Site");
    if (site == "cross-site") {
      Html body;
      body << "<!DOCTYPE html><meta charset=\"utf-8\"><meta http-equiv=\"refresh\" content=\"0; "
              "url="
           << Text(to) << "\"><title>ssac label</title><p><a href=\"" << Text(to)
           << "\">Continue to the labelling page</a></p>";
      res.status = 200;
      res.set_content(body.str(), "text/html; charset=utf-8");
    } else {
      res.status = 303;
      res.set_header("Location", to);
    }
    return httplib::Server::HandlerResponse::Handled;
  });
  // A status of 400 or more with no body of its own (the library's 400, 404, 413, 414): one line,
  // and the connection ends (after a request the library could not read, the next bytes are no
  // request's start).
  server.set_error_handler(
      httplib::Server::HandlerWithResponse([](const httplib::Request&, httplib::Response& res) {
        if (!res.body.empty()) return httplib::Server::HandlerResponse::Unhandled;
        res.set_header("Cache-Control", "no-store");
        res.set_header("Connection", "close");
        t_close_after_response = true;
        res.set_content(
            "ssac label: " + std::to_string(res.status) + " " + status_text(res.status) + "\n",
            "text/plain; charset=utf-8");
        return httplib::Server::HandlerResponse::Handled;
      }));
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
  server.Get("/favicon.svg", [](const httplib::Request&, httplib::Response& res) {
    res.set_content(kLabelIcon, "image/svg+xml");
  });
  // Asked for by a browser showing a page without the icon link (a refusal's text): no icon.
  server.Get("/favicon.ico",
             [](const httplib::Request&, httplib::Response& res) { res.status = 204; });
  server.Post("/answer", [&](const httplib::Request& req, httplib::Response& res) {
    std::lock_guard lock(mu);
    Answer a;
    const std::string q = req.get_param_value("q"), text = req.get_param_value("a");
    if (text != "yes" && text != "no" && text != "not-sure")
      return html(res, 400, render_message(p, "The answer must be yes, no or not-sure."));
    parse_answer(text, a);
    if (p.session->finished())
      return html(res, 409, render_message(p, "The run is over: there is no question to answer."));
    const std::size_t current = p.session->log().size() + 1;
    if (q != std::to_string(current))
      return html(res, 409,
                  render_message(p,
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
                  render_message(p, answered == 0 ? "There is no answer to undo yet."
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
        return html(res, 409, render_message(p, "The run is not over yet."));
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
        html(res, 500, render_message(p, what));
      });

  std::cout << "ssac label: open " << guard.url() << " in a browser (Ctrl-C stops; "
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
