// libFuzzer target for what ssac label reads besides the data's numbers: the answer file
// (ssac::parse_answer_log, the reader ssac cluster --oracle interactive shares) and a CSV whose
// column `t` holds text (ssac::parse_csv with text columns: quoted line breaks, UTF-8 checked).
// The first byte picks the reader, the rest is the file. Whatever the bytes, each call must
// succeed or throw ssac::DataError with one line naming the file -- no crash, no sanitizer report
// -- and what it returns must hold what the session trusts: answers for pairs x < y of rows below
// n that read back the same once written, and as many text cells as rows, each valid UTF-8.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "ssac/data.hpp"
#include "ssac/error.hpp"
#include "ssac/session.hpp"

namespace {

void check_message(const ssac::DataError& e, const char* name) {
  const std::string what = e.what();
  if (what.rfind(name, 0) != 0 || what.find('\n') != std::string::npos) std::abort();
}

constexpr std::size_t kRows = 40;
const std::string kHeader = "# ssac-answers 1 points=sha256:00 k=2";

void answers(const std::string& text) {
  std::vector<ssac::LoggedAnswer> log;
  try {
    log = ssac::parse_answer_log(text, "fuzz.txt", kRows, kHeader);
  } catch (const ssac::DataError& e) {
    check_message(e, "fuzz.txt");
    return;
  }
  std::string again = kHeader + "\n";
  for (const auto& a : log) {
    if (!(a.x < a.y && a.y < kRows) || a.line < 1) std::abort();
    again += ssac::format_logged_answer(a) + "\n";
  }
  if (ssac::parse_answer_log(again, "again.txt", kRows, kHeader) != log) std::abort();
}

bool utf8(const std::string& s) {
  for (std::size_t i = 0; i < s.size();) {
    const auto b = static_cast<unsigned char>(s[i]);
    const std::size_t len = b < 0x80 ? 1 : b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : b >= 0xC2 ? 2 : 0;
    if (len == 0 || i + len > s.size()) return false;
    for (std::size_t k = 1; k < len; ++k)
      if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) return false;
    i += len;
  }
  return true;
}

void text_columns(const std::string& text) {
  ssac::CsvText columns;
  columns.names = {"t"};
  ssac::Dataset d;
  try {
    d = ssac::parse_csv(text, "fuzz.csv", &columns);
  } catch (const ssac::DataError& e) {
    check_message(e, "fuzz.csv");
    return;
  }
  if (d.n() < 2 || d.m() == 0 || columns.header.size() > 1) std::abort();
  if (columns.rows.size() != d.n()) std::abort();
  for (const auto& row : columns.rows) {
    if (row.size() != columns.header.size()) std::abort();
    for (const auto& cell : row)
      if (!utf8(cell)) std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string text(reinterpret_cast<const char*>(data) + 1, size - 1);
  if (data[0] & 1)
    text_columns(text);
  else
    answers(text);
  return 0;
}
