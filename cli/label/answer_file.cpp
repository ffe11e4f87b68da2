// The answer file of a labelling session (answer_file.hpp): its header checked against the run, its
// lines read back for a resume, each new answer appended and synced, undo rewritten by a rename.
#include "label/answer_file.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

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

std::vector<LoggedAnswer> AnswerFile::open(std::size_t n) {
  static const InputKind kind{"cannot open the answer log for reading",
                              "is a directory, not an answer log", std::uint64_t{1} << 30,
                              "longer than 1 GiB, the most an answer log may hold"};
  lock();
  const std::string text = read_input(path_, kind);
  std::vector<LoggedAnswer> log = parse_answer_log(text, path_, n, header_);
  needs_header_ = text.empty();
  // A file edited by hand may end without a line break: the next answer must not join its last
  // line.
  needs_line_end_ = !text.empty() && text.back() != '\n';
  return log;
}

// One writer per answer file: an exclusive flock(2) on the file, held by the descriptor the answers
// are appended through until the session ends (the kernel drops it when the process dies, so a
// crash leaves no stale lock). An undo replaces the file by a rename; the new file is locked before
// it takes the name, and a process that opened the old one finds, once it has the lock, that the
// name now points elsewhere and tries again.
void AnswerFile::lock() {
  for (int attempt = 0; attempt < 100; ++attempt) {
    const int fd = ::open(path_.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0)
      throw DataError(path_ + ": cannot open the answer log for writing (" + std::strerror(errno) +
                      ")");
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
      const int err = errno;
      struct stat st {};
      ::fstat(fd, &st);
      ::close(fd);
      if (err == EWOULDBLOCK) {
        const long pid = flock_holder(st);
        throw DataError(path_ + ": another ssac label" +
                        (pid > 0 ? " (pid " + std::to_string(pid) + ")" : std::string()) +
                        " is writing this answer file; stop it first or use another file");
      }
      throw DataError(path_ + ": cannot lock the answer log (" + std::strerror(err) + ")");
    }
    struct stat held {
    }, named{};
    if (::fstat(fd, &held) == 0 && ::stat(path_.c_str(), &named) == 0 &&
        held.st_dev == named.st_dev && held.st_ino == named.st_ino) {
      fd_ = fd;
      return;
    }
    ::close(fd);  // replaced by an undo of the holder between our open and our lock
  }
  throw DataError(path_ + ": cannot lock the answer log (it keeps being replaced)");
}

// The pid /proc/locks gives for the flock on `st`'s file, 0 when it names none.
long flock_holder(const struct stat& st) {
  std::ifstream locks("/proc/locks");
  char id[64];
  std::snprintf(id, sizeof id, "%02x:%02x:%llu", major(st.st_dev), minor(st.st_dev),
                static_cast<unsigned long long>(st.st_ino));
  std::string line;
  while (std::getline(locks, line)) {
    std::istringstream in(line);
    std::string num, type, advisory, mode, dev;
    long pid = 0;
    if (in >> num >> type >> advisory >> mode >> pid >> dev && type == "FLOCK" && dev == id)
      return pid;
  }
  return 0;
}

void AnswerFile::append(const LoggedAnswer& a, std::size_t number) {
  write_all(fd_,
            (needs_line_end_ ? "\n" : "") + (needs_header_ ? header_ + "\n" : "") +
                format_logged_answer(a) + "\n",
            path_, "answer " + std::to_string(number));
  needs_header_ = needs_line_end_ = false;
}

void AnswerFile::rewrite(const std::vector<LoggedAnswer>& log) {
  std::string text = header_ + "\n";
  for (const auto& a : log)
    text += format_logged_answer(a) + "\n";
  const std::string tmp = path_ + ".undo-tmp";
  // The replacement keeps the file's mode and owner (docs/conventions.md) and is locked before it
  // takes the name, so that the lock never leaves the name.
  struct stat st {};
  if (::fstat(fd_, &st) != 0)
    throw DataError(path_ + ": cannot read the answer log's mode (" + std::strerror(errno) + ")");
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0)
    throw DataError(tmp + ": cannot write the answer log after the undo (" + std::strerror(errno) +
                    ")");
  try {
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0)
      throw DataError(tmp + ": cannot lock the answer log's replacement (" + std::strerror(errno) +
                      ")");
    if ((st.st_uid != ::geteuid() || st.st_gid != ::getegid()) &&
        ::fchown(fd, st.st_uid, st.st_gid) != 0)
      throw DataError(path_ + ": cannot give the rewritten answer log its owner (" +
                      std::strerror(errno) + "); the file is left as it was");
    if (::fchmod(fd, st.st_mode & 07777) != 0)
      throw DataError(path_ + ": cannot give the rewritten answer log its mode (" +
                      std::strerror(errno) + "); the file is left as it was");
    write_all(fd, text, tmp, "the answers");
  } catch (...) {
    ::close(fd);
    ::unlink(tmp.c_str());
    throw;
  }
  if (std::rename(tmp.c_str(), path_.c_str()) != 0) {
    const int err = errno;
    ::close(fd);
    ::unlink(tmp.c_str());
    throw DataError(path_ + ": cannot replace the answer log after the undo (" +
                    std::strerror(err) + ")");
  }
  ::close(fd_);
  fd_ = fd;
  needs_header_ = needs_line_end_ = false;
}

}  // namespace ssac::cli
