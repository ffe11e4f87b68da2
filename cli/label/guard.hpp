// Who may drive the labelling page (server.hpp): the browser of the person who started the session,
// and no other page that browser shows. Three checks decide every request before it is routed:
//
// - Host: the request must be addressed to this server by a loopback name with the port
//   (127.0.0.1:P, localhost:P, [::1]:P); any other name is a DNS-rebinding page reading the rows.
// - Origin / Sec-Fetch-Site on every request that is not GET or HEAD: when the browser names the
//   page that sent it, that page must be this server; a form posted by another site is refused.
// - The session token: 128 random bits printed in the URL; the first GET carries it as ?token=,
//   the server answers with an HttpOnly, SameSite=Strict cookie, and every later request carries
//   the cookie (or the query parameter, for scripts given the URL). Compared in constant time.
//
// The checks are pure functions of the request's headers so that tests can forge every header.
#pragma once

#include <string>
#include <string_view>

namespace ssac::cli {

// 128 bits from the kernel's random source (getrandom(2)), as 32 lower-case hex digits; DataError
// when the kernel gives none.
std::string session_token();

// `s` with A-Z as a-z and every other byte as it is: the guard compares the Host, Origin and
// Sec-Fetch-Site values without regard to case (a URI's scheme and host are case-insensitive,
// RFC 9110, section 4.2.3).
std::string ascii_lower(std::string s);

// a == b, in a time that depends on the lengths only (never on where they first differ).
bool same_secret(std::string_view a, std::string_view b);

// The headers and parameter the guard looks at; absent headers are empty strings.
struct RequestFacts {
  std::string method;      // GET, POST, ...
  std::string host;        // Host
  std::string origin;      // Origin
  std::string fetch_site;  // Sec-Fetch-Site
  std::string cookie;      // Cookie
  std::string token;       // the query (or form) parameter `token`
};

struct Admission {
  int status = 0;           // 0: admitted; otherwise the 4xx to answer with, changing nothing
  std::string reason;       // one line for the refusal (names no data of the session)
  bool set_cookie = false;  // admitted by the query token: give the browser the cookie
};

class RequestGuard {
 public:
  RequestGuard(std::string token, int port);
  Admission admit(const RequestFacts& r) const;
  // The cookie's name carries the port: cookies are per host, not per port, so two sessions on
  // one machine must not overwrite each other's.
  std::string cookie_name() const { return "ssac-label-" + std::to_string(port_); }
  std::string set_cookie() const;
  // The address printed for the person: http://127.0.0.1:P/?token=...
  std::string url() const;

 private:
  std::string token_;
  int port_;
};

}  // namespace ssac::cli
