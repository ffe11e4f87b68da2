// Who may drive the labelling page (guard.hpp).
#include "label/guard.hpp"

#include <sys/random.h>

#include <cerrno>
#include <cstring>

#include "ssac/error.hpp"

namespace ssac::cli {

namespace {

std::string trim(std::string_view s) {
  const auto b = s.find_first_not_of(" \t");
  if (b == std::string_view::npos) return "";
  const auto e = s.find_last_not_of(" \t");
  return std::string(s.substr(b, e - b + 1));
}

// The value of cookie `name` in a Cookie header ("a=1; b=2"), or "" when it is absent.
std::string cookie_value(std::string_view header, const std::string& name) {
  std::size_t at = 0;
  while (at <= header.size()) {
    const std::size_t end = std::min(header.find(';', at), header.size());
    const std::string pair = trim(header.substr(at, end - at));
    const std::size_t eq = pair.find('=');
    if (eq != std::string::npos && pair.compare(0, eq, name) == 0 && eq == name.size())
      return pair.substr(eq + 1);
    at = end + 1;
  }
  return "";
}

}  // namespace

std::string ascii_lower(std::string s) {
  for (char& c : s)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return s;
}

std::string session_token() {
  unsigned char bits[16];
  std::size_t got = 0;
  while (got < sizeof bits) {
    const ssize_t r = ::getrandom(bits + got, sizeof bits - got, 0);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0)
      throw DataError(std::string("cannot draw the session token from the kernel (getrandom: ") +
                      std::strerror(errno) + ")");
    got += static_cast<std::size_t>(r);
  }
  static const char* hex = "0123456789abcdef";
  std::string token;
  for (unsigned char b : bits) {
    token += hex[b >> 4];
    token += hex[b & 15];
  }
  return token;
}

bool same_secret(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  unsigned char diff = 0;
  for (std::size_t i = 0; i < a.size(); ++i)
    diff = static_cast<unsigned char>(
        diff | (static_cast<unsigned char>(a[i]) ^ static_cast<unsigned char>(b[i])));
  return diff == 0;
}

RequestGuard::RequestGuard(std::string token, int port) : token_(std::move(token)), port_(port) {}

std::string RequestGuard::set_cookie() const {
  return cookie_name() + "=" + token_ + "; Path=/; HttpOnly; SameSite=Strict";
}

std::string RequestGuard::url() const {
  return "http://127.0.0.1:" + std::to_string(port_) + "/?token=" + token_;
}

Admission RequestGuard::admit(const RequestFacts& r) const {
  const std::string p = ":" + std::to_string(port_);
  const std::string host = ascii_lower(r.host);
  if (host != "127.0.0.1" + p && host != "localhost" + p && host != "[::1]" + p)
    return {403, "Host must be 127.0.0.1" + p + ", localhost" + p + " or [::1]" + p, false};
  if (r.method != "GET" && r.method != "HEAD") {
    const std::string origin = ascii_lower(r.origin);
    if (!origin.empty() && origin != "http://127.0.0.1" + p && origin != "http://localhost" + p &&
        origin != "http://[::1]" + p)
      return {403, "a request from another page (Origin) is refused", false};
    const std::string site = ascii_lower(r.fetch_site);
    if (!site.empty() && site != "same-origin" && site != "none")
      return {403, "a request from another page (Sec-Fetch-Site) is refused", false};
  }
  if (same_secret(cookie_value(r.cookie, cookie_name()), token_)) return {0, "", false};
  if (same_secret(r.token, token_)) return {0, "", true};
  return {403, "this session's token is missing or wrong: open the address ssac label printed",
          false};
}

}  // namespace ssac::cli
