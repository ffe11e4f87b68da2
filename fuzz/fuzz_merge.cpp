// libFuzzer target for what `ssac merge` reads (ssac::read_experiment, ssac::merge_experiments):
// the input, split at its first NUL byte, is a slice's summary.json and gamma.csv, written into a
// scratch directory; the slice is read, merged alone and merged with itself. Whatever the bytes,
// each call must succeed or throw ssac::DataError or ssac::ParameterError with a one-line message
// -- no other exception, no crash, no sanitizer report -- and a slice read successfully must hold
// what merge trusts: failures and failed searches within reps, correct points within reps x n
// and at most the optimal ones, a gamma per rep.
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "ssac/error.hpp"
#include "ssac/experiment_summary.hpp"

namespace {

const std::string& scratch() {
  static const std::string dir = [] {
    std::string t = (std::filesystem::temp_directory_path() / "ssac-fuzz-merge-XXXXXX").string();
    if (!mkdtemp(t.data())) std::abort();
    return t;
  }();
  return dir;
}

void put(const std::string& name, const char* data, std::size_t size) {
  std::ofstream out(scratch() + "/" + name, std::ios::binary | std::ios::trunc);
  out.write(data, static_cast<std::streamsize>(size));
}

void one_line(const std::exception& e) {
  if (std::string(e.what()).find('\n') != std::string::npos) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const char* p = reinterpret_cast<const char*>(data);
  std::size_t cut = 0;
  while (cut < size && p[cut] != 0)
    ++cut;
  put("summary.json", p, cut);
  put("gamma.csv", p + std::min(cut + 1, size), size - std::min(cut + 1, size));
  try {
    const ssac::ExperimentResult r = ssac::read_experiment(scratch());
    const auto& c = r.config;
    if (r.gamma.size() != c.reps || r.totals.size() != r.cells.size()) std::abort();
    for (const auto& t : r.totals)
      if (t.failures > c.reps || t.search_failures > c.reps || t.correct > c.reps * c.gen.n ||
          t.optimal_correct < t.correct)
        std::abort();
    ssac::merge_experiments({r}, {"a"});
    try {
      ssac::merge_experiments({r, r}, {"a", "b"});  // overlapping reps: refused
      std::abort();
    } catch (const ssac::DataError& e) {
      one_line(e);
    }
  } catch (const ssac::DataError& e) {
    one_line(e);
  } catch (const ssac::ParameterError& e) {
    one_line(e);
  }
  return 0;
}
