// libFuzzer target for ssac/numbers.hpp, the reader of every number the command line, the CSV
// reader and merge take. Properties, for any bytes: an accepted integer printed in decimal reads
// back as the same integer; an accepted real printed in its shortest form (format_double) reads
// back as the same double (NaN as NaN); a text accepted by parse_int is accepted by parse_real as
// the nearest double; printable() output holds no control character and keeps at most its limit.
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "ssac/error.hpp"
#include "ssac/numbers.hpp"

using ssac::number::Status;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  long long i = 0;
  if (ssac::number::parse_int(text, i) == Status::ok) {
    long long back = 0;
    if (ssac::number::parse_int(std::to_string(i), back) != Status::ok || back != i) std::abort();
    double d = 0;
    if (ssac::number::parse_real(text, d) != Status::ok || d != static_cast<double>(i))
      std::abort();
  }
  unsigned long long u = 0;
  if (ssac::number::parse_uint(text, u) == Status::ok) {
    unsigned long long back = 0;
    if (ssac::number::parse_uint(std::to_string(u), back) != Status::ok || back != u) std::abort();
  }
  double d = 0;
  if (ssac::number::parse_real(text, d) == Status::ok) {
    double back = 0;
    if (ssac::number::parse_real(ssac::format_double(d), back) != Status::ok) std::abort();
    if (std::isnan(d) ? !std::isnan(back) : back != d) std::abort();
  }
  const std::string shown = ssac::number::printable(text, 16);
  for (char c : shown)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) std::abort();
  if (shown.size() > 16 * 4 + 3) std::abort();
  return 0;
}
