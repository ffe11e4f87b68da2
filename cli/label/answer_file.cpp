// The answer file of a labelling session (answer_file.hpp): its header checked against the run, its
// lines read back for a resume, each new answer appended and synced, undo rewritten by a rename.
#include "label/answer_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "ssac/error.hpp"
#include "ssac/input.hpp"

namespace ssac::cli {

namespace {

// Writes `text` and syncs it; `what` names it in the error ("answer 3").
void write_all(int fd, const std::string& text, const std::string& path, const std::string& what) {
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t w = ::write(fd, text.data() + done, text.size() - done);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0)
      throw DataError(path + ": cannot write " + what + " to the answer log (" +
                      std::strerror(errno) + "); the answers before it are saved");
    done += static_cast<std::size_t>(w);
  }
  if (::fsync(fd) != 0 && errno != EINVAL)
    throw DataError(path + ": cannot sync " + what + " to the disk (" + std::strerror(errno) + ")");
}

}  // namespace

void check_answer_log(const std::string& path) {
  struct stat st {};
  if (stat(path.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) throw DataError(path + ": is a directory, not an answer log");
    if (!S_ISREG(st.st_mode))
      throw DataError(path +
                      ": is not a regular file (a device, FIFO or socket); the answer log is "
                      "read and then appended to, so it must be a regular file");
    if (access(path.c_str(), W_OK) != 0 || (st.st_mode & 0222) == 0)
      throw DataError(path + ": cannot open the answer log for writing (not writable)");
    return;
  }
  const std::filesystem::path parent = std::filesystem::path(path).parent_path();
  const std::string dir = parent.empty() ? "." : parent.string();
  if (access(dir.c_str(), W_OK | X_OK) != 0)
    throw DataError(path + ": cannot open the answer log for writing (" + dir +
                    " is not a writable directory)");
}

AnswerFile::AnswerFile(std::string path, std::string header)
    : path_(std::move(path)), header_(std::move(header)) {}

AnswerFile::~AnswerFile() {
  if (fd_ >= 0) ::close(fd_);
}

void AnswerFile::reopen() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = ::open(path_.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  if (fd_ < 0)
    throw DataError(path_ + ": cannot open the answer log for writing (" + std::strerror(errno) +
                    ")");
}

std::vector<LoggedAnswer> AnswerFile::open(std::size_t n) {
  static const InputKind kind{"cannot open the answer log for reading",
                              "is a directory, not an answer log", std::uint64_t{1} << 30,
                              "longer than 1 GiB, the most an answer log may hold"};
  const std::string text = std::filesystem::exists(path_) ? read_input(path_, kind) : "";
  std::vector<LoggedAnswer> log = parse_answer_log(text, path_, n, header_);
  reopen();
  needs_header_ = text.empty();
  return log;
}

void AnswerFile::append(const LoggedAnswer& a, std::size_t number) {
  write_all(fd_, (needs_header_ ? header_ + "\n" : "") + format_logged_answer(a) + "\n", path_,
            "answer " + std::to_string(number));
  needs_header_ = false;
}

void AnswerFile::rewrite(const std::vector<LoggedAnswer>& log) {
  std::string text = header_ + "\n";
  for (const auto& a : log)
    text += format_logged_answer(a) + "\n";
  const std::string tmp = path_ + ".undo-tmp";
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0)
    throw DataError(tmp + ": cannot write the answer log after the undo (" + std::strerror(errno) +
                    ")");
  try {
    write_all(fd, text, tmp, "the answers");
  } catch (...) {
    ::close(fd);
    ::unlink(tmp.c_str());
    throw;
  }
  ::close(fd);
  if (std::rename(tmp.c_str(), path_.c_str()) != 0) {
    ::unlink(tmp.c_str());
    throw DataError(path_ + ": cannot replace the answer log after the undo (" +
                    std::strerror(errno) + ")");
  }
  reopen();
  needs_header_ = false;
}

}  // namespace ssac::cli
