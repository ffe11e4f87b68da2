// Reading a trace line by line with bounded memory (trace/lines.hpp).
#include "trace/lines.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <limits>

#include "ssac/error.hpp"
#include "ssac/input.hpp"

namespace ssac::trace {

namespace {
constexpr std::size_t kBuffer = 1 << 16;
// A trace that is not a regular file is copied to a temporary file for the second pass; the copy
// is capped as a CSV read from a pipe is (docs/trace-format.md, "Reading a trace").
constexpr long kMaxCopyBytes = 16L << 30;
}  // namespace

std::size_t line_cap(std::uint64_t n, std::uint64_t m, std::uint64_t r) {
  const std::uint64_t items = std::max({n, m, r});
  const std::uint64_t limit =
      (std::numeric_limits<std::size_t>::max() - kLineBase) / kLineBytesPerItem;
  return kLineBase + static_cast<std::size_t>(std::min(items, limit)) * kLineBytesPerItem;
}

TraceLines::TraceLines(std::string_view text, std::string name)
    : name_(std::move(name)), data_(text.data()), len_(text.size()), from_text_(true) {}

TraceLines::TraceLines(const std::string& path) : name_(path) {
  // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer forever. It is
  // cleared at once, so reads wait for data as usual (and see the end when no writer is left).
  // The descriptor is read through stdio (fdopen), and closed by fclose.
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) throw DataError(path + ": cannot open for reading");
  in_ = ::fdopen(fd, "rb");
  if (!in_) throw DataError(path + ": cannot open for reading");
  struct stat st {};
  if (::fstat(fd, &st) != 0 || S_ISDIR(st.st_mode)) {
    std::fclose(in_);
    throw DataError(path +
                    (S_ISDIR(st.st_mode) ? ": is a directory" : ": cannot open for reading"));
  }
  if (S_ISFIFO(st.st_mode)) {
    // A FIFO with no writer would read as empty: its first bytes (or its writer's close) must
    // arrive within kPipeWaitSeconds, as for every other input read from a pipe.
    pollfd p{fd, POLLIN, 0};
    int ready = 0;
    while ((ready = ::poll(&p, 1, kPipeWaitSeconds * 1000)) < 0 && errno == EINTR) {
    }
    if (ready == 0) {
      std::fclose(in_);
      throw DataError(path + ": nothing arrived from the pipe in " +
                      std::to_string(kPipeWaitSeconds) + " s (no writer?)");
    }
  }
  const int flags = ::fcntl(fd, F_GETFL);
  if (flags >= 0) ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
  if (!S_ISREG(st.st_mode)) {
    spool_ = std::tmpfile();
    if (!spool_) {
      std::fclose(in_);
      throw DataError(path + ": cannot create a temporary file to read a non-regular file twice");
    }
    spooling_ = true;
  }
  buf_.resize(kBuffer);
  data_ = buf_.data();
}

TraceLines::~TraceLines() {
  if (in_ && in_ != spool_) std::fclose(in_);
  if (spool_) std::fclose(spool_);
}

bool TraceLines::fill() {
  if (pos_ < len_) return true;
  if (from_text_) return false;
  errno = 0;
  const std::size_t size = std::fread(buf_.data(), 1, buf_.size(), in_);
  if (size == 0) {
    if (std::ferror(in_)) throw DataError(name_ + ": read error: " + std::strerror(errno));
    return false;
  }
  if (spooling_ && std::fwrite(buf_.data(), 1, size, spool_) != size)
    throw DataError(name_ + ": cannot copy the input to a temporary file: " + std::strerror(errno));
  if (spooling_ && std::ftell(spool_) > kMaxCopyBytes)
    throw DataError(name_ + ": longer than " + std::to_string(kMaxCopyBytes >> 30) +
                    " GiB, the most a trace read from a pipe may hold (it is copied to a "
                    "temporary file to be read twice)");
  data_ = buf_.data();
  pos_ = 0;
  len_ = size;
  return true;
}

bool TraceLines::next(std::string& line) {
  line.clear();
  bool any = false;
  while (fill()) {
    any = true;
    const char* p = data_ + pos_;
    const auto* nl = static_cast<const char*>(std::memchr(p, '\n', len_ - pos_));
    const std::size_t take = nl ? static_cast<std::size_t>(nl - p) : len_ - pos_;
    if (take > cap_ - line.size())
      throw DataError(name_ + ":" + std::to_string(line_no_ + 1) + ": line longer than " +
                      std::to_string(cap_) + " bytes, the longest a trace for this data holds");
    line.append(p, take);
    pos_ += take;
    if (nl) {
      ++pos_;
      break;
    }
  }
  if (!any) return false;
  ++line_no_;
  if (!line.empty() && line.back() == '\r') line.pop_back();
  return true;
}

void TraceLines::rewind() {
  line_no_ = 0;
  pos_ = 0;
  if (from_text_) return;
  len_ = 0;
  if (spooling_) {
    // From now on read the copy.
    if (std::fflush(spool_) != 0)
      throw DataError(name_ +
                      ": cannot copy the input to a temporary file: " + std::strerror(errno));
    std::fclose(in_);
    in_ = spool_;
    spooling_ = false;
  }
  std::clearerr(in_);
  if (std::fseek(in_, 0, SEEK_SET) != 0)
    throw DataError(name_ + ": cannot read the trace a second time (seek failed)");
}

}  // namespace ssac::trace
