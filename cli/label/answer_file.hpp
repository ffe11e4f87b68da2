// The answer file of a labelling session (ssac label, ssac cluster --oracle interactive --answers):
// the header line of ssac/session.hpp, then one "x,y,answer" line per question, appended and
// flushed to the disk as each answer is given, so that a crash of the program, the browser or the
// machine loses no answer already acknowledged.
#pragma once

#include <string>
#include <vector>

#include "ssac/session.hpp"

namespace ssac::cli {

class AnswerFile {
 public:
  // `path` is a regular file or absent (check_answer_log); `header` the session's
  // answer_log_header.
  AnswerFile(std::string path, std::string header);
  ~AnswerFile();
  AnswerFile(const AnswerFile&) = delete;
  AnswerFile& operator=(const AnswerFile&) = delete;
  // The answers already in the file (DataError for another run's header or a malformed line);
  // an absent or empty file gets the header with its first answer.
  std::vector<LoggedAnswer> open(std::size_t n);
  // Appends answer number `number` (1-based) and syncs it to the disk (a new file gets the header
  // with its first answer); DataError naming the file and the answer when it cannot.
  void append(const LoggedAnswer& a, std::size_t number);
  // After an undo: the file becomes the header and `log`, replaced in one rename.
  void rewrite(const std::vector<LoggedAnswer>& log);
  const std::string& path() const { return path_; }

 private:
  void reopen();
  std::string path_, header_;
  int fd_ = -1;
  bool needs_header_ = false;
};

// The answer log is read and then appended to in place: it must be a regular file or absent, and
// writable; DataError with one line otherwise.
void check_answer_log(const std::string& path);

}  // namespace ssac::cli
