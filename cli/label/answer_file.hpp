// The answer file of a labelling session (ssac label, ssac cluster --oracle interactive --answers):
// the header line of ssac/session.hpp, then one "x,y,answer" line per question, appended and
// flushed to the disk as each answer is given, so that a crash of the program, the browser or the
// machine loses no answer already acknowledged.
#pragma once

#include <sys/stat.h>

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
  // Locks the file (created when absent) for this process, then returns the answers already in
  // it (DataError for another run's header, a malformed line, or a file another process holds,
  // naming its pid); an empty file gets the header with its first answer.
  std::vector<LoggedAnswer> open(std::size_t n);
  // Appends answer number `number` (1-based) and syncs it to the disk (a new file gets the header
  // with its first answer); DataError naming the file and the answer when it cannot.
  void append(const LoggedAnswer& a, std::size_t number);
  // After an undo: the file becomes the header and `log`, replaced in one rename by a file of the
  // same mode and owner, locked before it takes the name.
  void rewrite(const std::vector<LoggedAnswer>& log);
  const std::string& path() const { return path_; }

 private:
  void lock();
  std::string path_, header_;
  int fd_ = -1;
  bool needs_header_ = false;
  bool needs_line_end_ = false;  // the file's last line has no line break yet
};

// The pid holding the flock on the file `st` describes (from /proc/locks), 0 when none is found.
long flock_holder(const struct stat& st);

// The answer log is read and then appended to in place: it must be a regular file or absent, and
// writable; DataError with one line otherwise.
void check_answer_log(const std::string& path);

}  // namespace ssac::cli
