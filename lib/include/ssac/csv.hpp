// The one CSV tokenizer (RFC 4180), used by every reader of a CSV (the data of every command,
// ssac label's text columns). A record is fields separated by commas, ended by LF or CRLF. A
// field is either plain (no double quote in it; blanks around it are not part of it) or quoted:
// "...", in which a doubled quote "" stands for one quote and commas are part of the field; blanks
// may stand before the opening and after the closing quote. Line breaks inside a quoted field are
// part of it where the caller allows them (`multiline`; ssac label's text columns), and an error
// elsewhere. Every error is one DataError line "NAME:LINE:COLUMN: ...", positions 1-based, the
// column counted in bytes from the start of the line.
#pragma once

#include <cstddef>
#include <deque>
#include <string>
#include <string_view>
#include <vector>

namespace ssac::csv {

struct Field {
  std::string_view text;  // the cell: without its quotes, "" reduced to ", plain fields trimmed
  std::size_t line;       // where the field starts (its opening quote, if quoted)
  std::size_t column;
  bool quoted;
};

// "NAME:LINE:COLUMN: " -- the prefix of every message about a position in a CSV.
std::string where(const std::string& name, std::size_t line, std::size_t column);

// The writer's side of the format above: `text` in quotes, each quote doubled.
std::string quoted(std::string_view text);
// `text` as a field that reads back as itself: plain unless it holds a comma, a quote or a line
// break, quoted then.
std::string field(std::string_view text);

// The records of `text` in order, without copying it but for quoted fields holding "" (their
// reduced text lives in the reader until the next record is read).
class Reader {
 public:
  // `first_line` numbers the line text starts on (a reader given a single line of a file).
  Reader(std::string_view text, std::string name, bool multiline, std::size_t first_line = 1);
  // The next record into `fields` (cleared first); false at the end of the text. An empty line
  // is a record of one empty plain field.
  bool next(std::vector<Field>& fields);
  // Reads `text` from now on, its first line numbered `first_line` (one reader for every line of
  // a file read line by line).
  void reset(std::string_view text, std::size_t first_line);
  // The line the record last read starts on.
  std::size_t line() const { return record_line_; }

 private:
  std::string_view text_;
  std::string name_;
  bool multiline_;
  std::size_t pos_ = 0, line_, line_start_ = 0, record_line_ = 0;
  std::deque<std::string> reduced_;
};

}  // namespace ssac::csv
