// ssac/numbers.hpp.
#include "ssac/numbers.hpp"

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>

namespace ssac::number {

namespace {

bool digit(char c) {
  return c >= '0' && c <= '9';
}

bool equals_nocase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    char c = a[i];
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    if (c != b[i]) return false;
  }
  return true;
}

}  // namespace

Status parse_uint(std::string_view text, unsigned long long& out) {
  bool negative = false;
  if (!text.empty() && (text[0] == '+' || text[0] == '-')) {
    negative = text[0] == '-';
    text.remove_prefix(1);
  }
  if (text.empty()) return Status::not_a_number;
  for (char c : text)
    if (!digit(c)) return Status::not_a_number;
  unsigned long long v = 0;
  const auto res = std::from_chars(text.data(), text.data() + text.size(), v, 10);
  if (res.ec == std::errc::result_out_of_range) return Status::out_of_range;
  if (res.ec != std::errc() || res.ptr != text.data() + text.size()) return Status::not_a_number;
  if (negative && v != 0) return Status::out_of_range;
  out = v;
  return Status::ok;
}

Status parse_int(std::string_view text, long long& out) {
  bool negative = false;
  if (!text.empty() && (text[0] == '+' || text[0] == '-')) {
    negative = text[0] == '-';
    text.remove_prefix(1);
  }
  if (!text.empty() && (text[0] == '+' || text[0] == '-')) return Status::not_a_number;
  unsigned long long mag = 0;
  const Status s = parse_uint(text, mag);
  if (s != Status::ok) return s;
  const unsigned long long limit =
      static_cast<unsigned long long>(std::numeric_limits<long long>::max()) + (negative ? 1 : 0);
  if (mag > limit) return Status::out_of_range;
  out = negative ? static_cast<long long>(0 - mag) : static_cast<long long>(mag);
  return Status::ok;
}

Status parse_real(std::string_view text, double& out) {
  std::string_view body = text;
  bool negative = false;
  if (!body.empty() && (body[0] == '+' || body[0] == '-')) {
    negative = body[0] == '-';
    body.remove_prefix(1);
  }
  if (equals_nocase(body, "inf") || equals_nocase(body, "infinity")) {
    out = negative ? -std::numeric_limits<double>::infinity()
                   : std::numeric_limits<double>::infinity();
    return Status::ok;
  }
  if (equals_nocase(body, "nan")) {
    out = std::numeric_limits<double>::quiet_NaN();
    return Status::ok;
  }
  // The grammar is checked here, so that from_chars sees nothing it would read differently.
  std::size_t i = 0, mantissa_digits = 0;
  while (i < body.size() && digit(body[i])) {
    ++i;
    ++mantissa_digits;
  }
  if (i < body.size() && body[i] == '.') {
    ++i;
    while (i < body.size() && digit(body[i])) {
      ++i;
      ++mantissa_digits;
    }
  }
  if (mantissa_digits == 0) return Status::not_a_number;
  if (i < body.size() && (body[i] == 'e' || body[i] == 'E')) {
    ++i;
    if (i < body.size() && (body[i] == '+' || body[i] == '-')) ++i;
    const std::size_t start = i;
    while (i < body.size() && digit(body[i]))
      ++i;
    if (i == start) return Status::not_a_number;
  }
  if (i != body.size()) return Status::not_a_number;
  double v = 0;
  const char* first = negative ? body.data() - 1 : body.data();
  const char* last = body.data() + body.size();
  const auto res = std::from_chars(first, last, v);
  if (res.ec == std::errc::result_out_of_range) {
    // Too large, or too small for a normal double: strtod rounds the latter to a subnormal or
    // zero (and the grammar above left it nothing else to read).
    const std::string copy(first, last);
    errno = 0;
    v = std::strtod(copy.c_str(), nullptr);
    if (std::isinf(v)) return Status::out_of_range;
  } else if (res.ec != std::errc() || res.ptr != last) {
    return Status::not_a_number;
  }
  out = v;
  return Status::ok;
}

std::string printable(std::string_view text, std::size_t max) {
  std::string out;
  std::size_t kept = 0;
  for (char ch : text) {
    if (kept == max) {
      out += "...";
      break;
    }
    const auto c = static_cast<unsigned char>(ch);
    if (c < 0x20 || c == 0x7f) {
      char buf[5];
      std::snprintf(buf, sizeof buf, "\\x%02x", c);
      out += buf;
    } else {
      out += ch;
    }
    ++kept;
  }
  return out;
}

std::string json_error_text(std::string_view what) {
  if (!what.empty() && what.front() == '[') {
    const std::size_t tag = what.find("] ");
    if (tag != std::string_view::npos) what.remove_prefix(tag + 2);
  }
  constexpr std::string_view overflow = "number overflow parsing '";
  if (what.substr(0, overflow.size()) == overflow) {
    std::string_view number = what.substr(overflow.size());
    if (!number.empty() && number.back() == '\'') number.remove_suffix(1);
    return "'" + printable(number) + "' is out of range (beyond the largest double, about 1.8e308)";
  }
  return printable(what, 200);
}

}  // namespace ssac::number
