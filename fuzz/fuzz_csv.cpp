// libFuzzer target for the CSV reader (lib/src/data/data.cpp, parse_csv). Any input must either
// parse or raise ssac::DataError with a message naming the input; nothing else may escape, and
// nothing may crash or trip a sanitizer. A parsed dataset must satisfy the format's invariants and
// survive a write/read round trip unchanged.
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "ssac/data.hpp"
#include "ssac/error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  ssac::Dataset d;
  try {
    d = ssac::parse_csv(text, "fuzz.csv");
  } catch (const ssac::DataError& e) {
    if (std::string(e.what()).rfind("fuzz.csv", 0) != 0) std::abort();  // must name the input
    return 0;
  }
  if (d.n() == 0 || d.m() == 0) std::abort();
  for (Eigen::Index r = 0; r < d.points.rows(); ++r)
    for (Eigen::Index c = 0; c < d.points.cols(); ++c)
      if (!std::isfinite(d.points(r, c))) std::abort();
  if (d.has_labels()) {
    if (d.labels.size() != d.n()) std::abort();
    for (int l : d.labels)
      if (l < 1) std::abort();
  }
  const ssac::Dataset back = ssac::parse_csv(ssac::format_csv(d), "round-trip");
  if (back.points != d.points || back.labels != d.labels) std::abort();
  return 0;
}
