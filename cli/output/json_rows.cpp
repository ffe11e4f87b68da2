// The writer of output/json_rows.hpp.
#include "output/json_rows.hpp"

#include <stdexcept>

namespace ssac::cli {

namespace {

bool digit(char c) {
  return c >= '0' && c <= '9';
}

// The number grammar of RFC 8259: -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?
bool is_json_number(const std::string& s) {
  std::size_t i = 0;
  const std::size_t n = s.size();
  if (i < n && s[i] == '-') ++i;
  if (i < n && s[i] == '0') {
    ++i;
  } else {
    if (!(i < n && digit(s[i]) && s[i] != '0')) return false;
    while (i < n && digit(s[i]))
      ++i;
  }
  if (i < n && s[i] == '.') {
    ++i;
    if (!(i < n && digit(s[i]))) return false;
    while (i < n && digit(s[i]))
      ++i;
  }
  if (i < n && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < n && (s[i] == '+' || s[i] == '-')) ++i;
    if (!(i < n && digit(s[i]))) return false;
    while (i < n && digit(s[i]))
      ++i;
  }
  return i == n;
}

std::string write(const Json& v, const std::set<std::string>* break_before) {
  switch (v.type()) {
    case Json::value_t::object: {
      std::string o = "{";
      bool first = true;
      for (const auto& [key, member] : v.items()) {
        if (!first) o += break_before && break_before->count(key) ? ",\n  " : ", ";
        first = false;
        o += Json(key).dump() + ": " + write(member, nullptr);
      }
      return o + "}";
    }
    case Json::value_t::array: {
      std::string o = "[";
      for (std::size_t i = 0; i < v.size(); ++i)
        o += (i ? ", " : "") + write(v[i], nullptr);
      return o + "]";
    }
    case Json::value_t::binary: {
      const auto& b = v.get_binary();
      if (!b.has_subtype() || b.subtype() != kNumberToken)
        throw std::logic_error("write_rows: a binary value that is not a number token");
      return std::string(b.begin(), b.end());
    }
    case Json::value_t::number_float:
      throw std::logic_error("write_rows: a floating-point value; pass number_token instead");
    default:
      return v.dump();
  }
}

}  // namespace

Json number_token(const std::string& token) {
  if (!is_json_number(token))
    throw std::invalid_argument("number_token: '" + token + "' is not a JSON number");
  return Json::binary(Json::binary_t::container_type(token.begin(), token.end()), kNumberToken);
}

std::string write_rows(const std::vector<Json>& rows, const std::set<std::string>& break_before) {
  std::string o = "[";
  for (std::size_t i = 0; i < rows.size(); ++i)
    o += (i ? ",\n " : "\n ") + write(rows[i], &break_before);
  return o + "\n]\n";
}

}  // namespace ssac::cli
