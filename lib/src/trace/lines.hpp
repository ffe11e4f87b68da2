// Private to lib/src/trace/: the lines of a trace, read in a streaming pass with a cap on the
// length of a line, and read a second time after rewind() (the replay checks the whole trace
// before it runs, then compares the run's events with the trace's as they arrive).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

namespace ssac::trace {

// The longest line a trace for n points of m coordinates with Phase-1 samples of r draws can hold:
// kLineBase bytes plus kLineBytesPerItem per row index, label or coordinate of the longest list an
// event carries (a sample of r rows, an assignment of n rows or labels, a center of m numbers).
inline constexpr std::size_t kLineBase = 16384;
inline constexpr std::size_t kLineBytesPerItem = 32;
std::size_t line_cap(std::uint64_t n, std::uint64_t m, std::uint64_t r);

class TraceLines {
 public:
  // The lines of `text`, named `name` in messages.
  TraceLines(std::string_view text, std::string name);
  // The lines of the file at `path` (its name in messages). A file that is not regular (a pipe, a
  // FIFO, a device) is opened without waiting for a writer (a FIFO's first bytes must arrive
  // within kPipeWaitSeconds) and copied to an unnamed temporary file as it is read, for the
  // second pass, up to 16 GiB. Throws DataError "PATH: cannot open for reading", "PATH: is a
  // directory" or "PATH: nothing arrived from the pipe in 10 s (no writer?)".
  explicit TraceLines(const std::string& path);
  ~TraceLines();
  TraceLines(const TraceLines&) = delete;
  TraceLines& operator=(const TraceLines&) = delete;

  // Sets `line` to the next line, without its '\n' and a '\r' before it; false after the last.
  // Throws DataError "NAME:LINE: line longer than CAP bytes ..." when a line exceeds the cap, and
  // "NAME: read error: ..." when reading fails.
  bool next(std::string& line);
  // Lines returned so far since the start or the last rewind().
  std::size_t line_no() const { return line_no_; }
  const std::string& name() const { return name_; }
  void set_cap(std::size_t cap) { cap_ = cap; }
  // Back to the first line.
  void rewind();

 private:
  bool fill();

  std::string name_;
  std::size_t cap_ = kLineBase;
  std::size_t line_no_ = 0;
  const char* data_ = nullptr;  // the text, or buf_
  std::size_t len_ = 0, pos_ = 0;
  bool from_text_ = false;
  std::FILE* in_ = nullptr;     // the file; after rewind() of a non-regular one, spool_
  std::FILE* spool_ = nullptr;  // copy of a non-regular input, for the second pass
  bool spooling_ = false;
  std::vector<char> buf_;
};

}  // namespace ssac::trace
