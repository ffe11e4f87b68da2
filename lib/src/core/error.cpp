#include "ssac/error.hpp"

#include <charconv>
#include <cmath>

namespace ssac {

std::string format_double(double x) {
  if (std::isnan(x)) return "nan";
  if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof buf, x);
  return std::string(buf, res.ptr);
}

void throw_out_of_range(const std::string& name, double value, const std::string& range) {
  throw ParameterError(name + " = " + format_double(value) + " is outside its admissible range " +
                       range);
}

void throw_out_of_range(const std::string& name, long long value, const std::string& range) {
  throw ParameterError(name + " = " + std::to_string(value) + " is outside its admissible range " +
                       range);
}

}  // namespace ssac
