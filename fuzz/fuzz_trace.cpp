// libFuzzer target for the trace reader and replay (lib/src/trace/, validate_trace). Any
// input must be rejected with ssac::DataError naming the trace, or replayed to a report; a report
// of non-conformance must carry its one-line message. Nothing else may escape, crash or trip a
// sanitizer. The points are fixed (the data the seed corpus was recorded on), so inputs that keep
// the header's fingerprint reach the replay itself.
#include <cstdint>
#include <cstdlib>
#include <string>

#include "ssac/data.hpp"
#include "ssac/error.hpp"
#include "ssac/trace.hpp"

namespace {
const ssac::Matrix& points() {
  static const ssac::Matrix X = [] {
    ssac::Matrix m(6, 2);
    m << 0, 0, 1, 0, 0, 1, 10, 10, 11, 10, 10, 11;
    return m;
  }();
  return X;
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const ssac::ValidationReport r = ssac::validate_trace(points(), text, "fuzz.jsonl");
    if (!r.conforms && (!r.divergence || r.divergence->message.empty())) std::abort();
  } catch (const ssac::DataError& e) {
    if (std::string(e.what()).rfind("fuzz.jsonl", 0) != 0) std::abort();
  }
  return 0;
}
