// ssac/input.hpp.
#include "ssac/input.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>

#include <cerrno>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <system_error>

#include "ssac/error.hpp"

namespace ssac {

std::string read_input(const std::string& path, const InputKind& kind) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::file_status fst = fs::status(path, ec);
  if (fst.type() == fs::file_type::not_found || ec) throw DataError(path + ": " + kind.cannot_open);
  if (fst.type() == fs::file_type::directory) throw DataError(path + ": " + kind.directory);
  const bool pipe = fst.type() == fs::file_type::fifo;
  if (!pipe && fst.type() != fs::file_type::regular)
    throw DataError(path + ": is not a regular file or a pipe (a device?); it is not read");
  // O_NONBLOCK: opening a FIFO would otherwise wait for a writer for ever.
  const int fd = open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) throw DataError(path + ": " + kind.cannot_open);
  std::FILE* f = fdopen(fd, "rb");
  if (!f) throw DataError(path + ": " + kind.cannot_open);
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> closer(f, &std::fclose);
  std::string text;
  if (pipe) {
    pollfd p{fd, POLLIN, 0};
    int ready = 0;
    while ((ready = poll(&p, 1, kPipeWaitSeconds * 1000)) < 0 && errno == EINTR) {
    }
    if (ready == 0)
      throw DataError(path + ": nothing arrived from the pipe in " +
                      std::to_string(kPipeWaitSeconds) + " s (no writer?)");
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    char buf[1 << 16];
    std::size_t n = 0;
    while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) {
      if (text.size() + n > kind.max_bytes) throw DataError(path + ": " + kind.too_long);
      text.append(buf, n);
    }
  } else {
    struct stat st {};
    if (fstat(fd, &st) != 0) throw DataError(path + ": cannot read the file");
    if (static_cast<std::uint64_t>(st.st_size) > kind.max_bytes)
      throw DataError(path + ": " + kind.too_long);
    text.resize(static_cast<std::size_t>(st.st_size));  // one allocation, no second copy
    if (std::fread(text.data(), 1, text.size(), f) != text.size())
      throw DataError(path + ": read error");
  }
  if (std::ferror(f)) throw DataError(path + ": read error");
  return text;
}

}  // namespace ssac
