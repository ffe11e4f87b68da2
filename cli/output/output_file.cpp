// The writer of output/output_file.hpp. One file of about 470 lines because its parts share one job
// and one state: the table of temporaries the signal handler removes (files, staging directories
// and the scratch directory of a figure), the checks of every target against the command's inputs,
// and the staging and renaming that make a command's outputs appear together.
#include "output/output_file.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <mutex>

#include "ssac/error.hpp"

namespace ssac::cli {

namespace fs = std::filesystem;

namespace {

// --- Temporaries removed by the signal handler. A fixed table of paths, so that the handler
// touches no allocator and no lock: a slot is 0 free, 1 being filled, 2 a file, 3 a directory
// whose entries (flat: staging directories hold files only) are removed before it.
constexpr int kSlots = 64;
struct Slot {
  std::atomic<int> state{0};
  char path[4096];
};
Slot g_slots[kSlots];

struct Dirent64 {
  std::uint64_t ino;
  std::int64_t off;
  unsigned short reclen;
  unsigned char type;
  char name[1];
};

void remove_flat_dir(const char* path) {
  // getdents64 rather than opendir: opendir allocates, which a signal handler must not.
  alignas(8) static char buf[8192];
  const int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd >= 0) {
    for (int pass = 0; pass < 8; ++pass) {
      bool removed = false;
      lseek(fd, 0, SEEK_SET);
      for (;;) {
        const long n = syscall(SYS_getdents64, fd, buf, sizeof buf);
        if (n <= 0) break;
        for (long off = 0; off < n;) {
          const auto* d = reinterpret_cast<const Dirent64*>(buf + off);
          const char* nm = d->name;
          if (!(nm[0] == '.' && (nm[1] == 0 || (nm[1] == '.' && nm[2] == 0))))
            removed |= unlinkat(fd, nm, 0) == 0;
          off += d->reclen;
        }
      }
      if (!removed) break;
    }
    close(fd);
  }
  rmdir(path);
}

extern "C" void remove_temporaries_and_die(int sig) {
  for (Slot& s : g_slots) {
    const int st = s.state.load();
    if (st == 2) unlink(s.path);
    if (st == 3) remove_flat_dir(s.path);
  }
  signal(sig, SIG_DFL);
  raise(sig);
}

void install_handlers() {
  static std::once_flag once;
  std::call_once(once, [] {
    for (int sig : {SIGINT, SIGTERM, SIGHUP}) {
      struct sigaction old {};
      sigaction(sig, nullptr, &old);
      if (old.sa_handler == SIG_IGN) continue;  // e.g. started under nohup: stay ignored
      struct sigaction sa {};
      sa.sa_handler = remove_temporaries_and_die;
      sigemptyset(&sa.sa_mask);
      sigaction(sig, &sa, nullptr);
    }
  });
}

int claim(const std::string& path, int kind) {
  if (path.size() >= sizeof(Slot::path)) throw DataError(path + ": the path is too long");
  for (int i = 0; i < kSlots; ++i) {
    int expected = 0;
    if (g_slots[i].state.compare_exchange_strong(expected, 1)) {
      std::memcpy(g_slots[i].path, path.c_str(), path.size() + 1);
      g_slots[i].state.store(kind);  // from here the handler removes whatever the path names
      return i;
    }
  }
  throw DataError(path + ": too many temporary files at once");
}

void release(int slot) {
  if (slot >= 0) g_slots[slot].state.store(0);
}

mode_t process_umask() {
  static const mode_t m = [] {
    const mode_t u = umask(0);
    umask(u);
    return u;
  }();
  return m;
}

constexpr const char* kNameTooLong =
    "cannot open the file for writing (the name is too long: at most 255 bytes a name, 4095 in "
    "all)";

std::string why() {
  return std::strerror(errno);
}

// Where a path points: an existing file by device and inode; a missing one by its directory's
// device and inode and its name.
struct Identity {
  dev_t dev = 0;
  ino_t ino = 0;
  std::string name;
  bool operator==(const Identity& o) const {
    return dev == o.dev && ino == o.ino && name == o.name;
  }
};

std::string parent_of(const std::string& path) {
  const fs::path p = fs::path(path).parent_path();
  return p.empty() ? "." : p.string();
}

void write_all(int fd, const std::string& content, const std::string& shown) {
  const char* p = content.data();
  std::size_t left = content.size();
  while (left > 0) {
    const ssize_t w = write(fd, p, left);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) throw DataError(shown + ": cannot write (" + why() + ")");
    p += w;
    left -= static_cast<std::size_t>(w);
  }
  if (fsync(fd) != 0 && errno != EINVAL) throw DataError(shown + ": cannot write (" + why() + ")");
}

}  // namespace

struct OutputFiles::Impl {
  struct Out {
    std::string option, shown, target;  // target: symlinks resolved
    bool dir = false;
    std::string marker;
    Identity id;
    bool exists = false;
    mode_t mode = 0;
    std::string temp;  // the staged temporary (file or directory), empty before staging
    int slot = -1;
  };
  std::vector<Identity> inputs;
  std::vector<std::string> input_names;
  std::vector<std::string> input_paths;  // absolute, symlinks resolved
  std::vector<Out> outs;

  Out& find(const std::string& shown, bool dir) {
    for (Out& o : outs)
      if (o.shown == shown && o.dir == dir) return o;
    throw std::logic_error("output not registered: " + shown);
  }
  void clash(const Out& o) {
    for (std::size_t i = 0; i < inputs.size(); ++i)
      if (inputs[i] == o.id)
        throw ParameterError(o.option + " " + o.shown + " is the input " + input_names[i] +
                             "; ssac does not write over its input");
    for (const Out& p : outs)
      if (p.id == o.id)
        throw ParameterError(p.option + " and " + o.option + " name the same path " + o.shown);
  }
  // A directory output is replaced as a whole: none of the command's inputs may lie inside it,
  // neither by its path (symlinks resolved) nor as a file of the directory (the same inode, e.g.
  // a hard link).
  void holds_no_input(const Out& o) {
    if (!o.dir) return;
    const std::string prefix = o.target + "/";
    for (std::size_t i = 0; i < inputs.size(); ++i)
      if (input_paths[i].rfind(prefix, 0) == 0)
        throw ParameterError(o.option + " " + o.shown + " holds the input " + input_names[i] +
                             "; the directory is replaced as a whole, so give another one");
    if (!o.exists) return;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(o.target, ec)) {
      struct stat st {};
      if (stat(e.path().c_str(), &st) != 0) continue;
      for (std::size_t i = 0; i < inputs.size(); ++i)
        if (inputs[i] == Identity{st.st_dev, st.st_ino, ""})
          throw ParameterError(o.option + " " + o.shown + " holds the input " + input_names[i] +
                               " (as " + e.path().filename().string() +
                               "); the directory is replaced as a whole, so give another one");
    }
  }
  void remove_temp(Out& o) {
    if (o.temp.empty()) return;
    std::error_code ec;
    if (o.dir)
      fs::remove_all(o.temp, ec);
    else
      unlink(o.temp.c_str());
    release(o.slot);
    o.slot = -1;
    o.temp.clear();
  }
};

OutputFiles::OutputFiles() : impl_(std::make_unique<Impl>()) {
  install_handlers();
  process_umask();
}

OutputFiles::~OutputFiles() {
  for (auto& o : impl_->outs)
    impl_->remove_temp(o);
}

void OutputFiles::input(const std::string& path) {
  struct stat st {};
  if (path.empty() || stat(path.c_str(), &st) != 0) return;
  impl_->inputs.push_back({st.st_dev, st.st_ino, ""});
  impl_->input_names.push_back(path);
  std::error_code ec;
  const fs::path real = fs::weakly_canonical(fs::absolute(path), ec);
  impl_->input_paths.push_back(ec ? path : real.string());
  for (const Impl::Out& o : impl_->outs)
    impl_->holds_no_input(o);
}

void OutputFiles::file(const std::string& option, const std::string& path) {
  if (path.empty()) throw ParameterError(option + ": the path is empty");
  Impl::Out o;
  o.option = option;
  o.shown = path;
  o.target = path;
  std::error_code ec;
  if (fs::is_symlink(path, ec)) {
    const fs::path real = fs::canonical(path, ec);
    if (!ec) o.target = real.string();  // a dangling link is replaced by the file
  }
  struct stat st {};
  if (stat(o.target.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode))
      throw DataError(path + ": is a directory, not a file (" + option + ")");
    if (!S_ISREG(st.st_mode))
      throw DataError(path + ": is not a regular file (a device, FIFO or socket); " + option +
                      " writes regular files only");
    if (access(o.target.c_str(), W_OK) != 0 || (st.st_mode & 0222) == 0)
      throw DataError(path + ": the file is not writable (it is left as it is)");
    // The new file is made beside it and renamed over it: the directory must take both.
    if (access(parent_of(o.target).c_str(), W_OK | X_OK) != 0)
      throw DataError(path + ": cannot replace the file (the directory " + parent_of(o.target) +
                      " is not writable)");
    o.exists = true;
    o.mode = st.st_mode & 07777;
    o.id = {st.st_dev, st.st_ino, ""};
  } else {
    const std::string parent = parent_of(o.target);
    if (errno == ENAMETOOLONG) throw DataError(path + ": " + kNameTooLong);
    struct stat pst {};
    if (errno != ENOENT || stat(parent.c_str(), &pst) != 0 || !S_ISDIR(pst.st_mode))
      throw DataError(path + ": cannot open the file for writing (no directory " + parent + ")");
    if (access(parent.c_str(), W_OK | X_OK) != 0)
      throw DataError(path + ": cannot open the file for writing (the directory " + parent +
                      " is not writable)");
    o.mode = 0666 & ~process_umask();
    o.id = {pst.st_dev, pst.st_ino, fs::path(o.target).filename().string()};
  }
  impl_->clash(o);
  impl_->outs.push_back(std::move(o));
}

void OutputFiles::directory(const std::string& option, const std::string& path,
                            const std::string& marker) {
  if (path.empty()) throw ParameterError(option + ": the path is empty");
  Impl::Out o;
  o.option = option;
  o.shown = path;
  o.dir = true;
  o.marker = marker;
  std::error_code ec;
  o.target = fs::weakly_canonical(fs::absolute(path), ec).string();
  if (ec || o.target.empty() || o.target == "/")
    throw DataError(path + ": cannot create the output directory (" +
                    (ec ? ec.message() : "it is the root") + ")");
  struct stat st {};
  if (stat(o.target.c_str(), &st) == 0) {
    if (!S_ISDIR(st.st_mode))
      throw DataError(path + ": exists and is not a directory (" + option + ")");
    bool has_marker = false, only_files = true, empty = true;
    for (const auto& e : fs::directory_iterator(o.target, ec)) {
      empty = false;
      has_marker |= e.path().filename() == marker;
      only_files &= !e.is_symlink() && e.is_regular_file();
    }
    if (ec) throw DataError(path + ": cannot read the directory (" + ec.message() + ")");
    if (!empty && !(has_marker && only_files))
      throw DataError(path + ": is neither empty nor an earlier output (no " + marker +
                      ", or more than files); " + option +
                      " is replaced as a whole, so give a new or empty directory");
    const std::string parent = parent_of(o.target);
    if (access(parent.c_str(), W_OK | X_OK) != 0 || access(o.target.c_str(), W_OK | X_OK) != 0)
      throw DataError(path + ": cannot replace the output directory (not writable)");
    o.exists = true;
    o.mode = st.st_mode & 07777;
    o.id = {st.st_dev, st.st_ino, ""};
  } else {
    fs::path anc = fs::path(o.target).parent_path();
    while (!fs::exists(anc, ec) && anc.has_parent_path() && anc != anc.parent_path())
      anc = anc.parent_path();
    if (!fs::is_directory(anc, ec))
      throw DataError(path + ": cannot create the output directory (" + anc.string() +
                      " is not a directory)");
    if (access(anc.c_str(), W_OK | X_OK) != 0)
      throw DataError(path + ": cannot create the output directory (" + anc.string() +
                      " is not writable)");
    o.mode = 0777 & ~process_umask();
    o.id = {0, 0, o.target};
  }
  impl_->clash(o);
  impl_->holds_no_input(o);
  impl_->outs.push_back(std::move(o));
}

void OutputFiles::stage(const std::string& path, const std::string& content) {
  Impl::Out& o = impl_->find(path, false);
  impl_->remove_temp(o);
  std::string tmpl = (fs::path(parent_of(o.target)) / ".ssac-XXXXXX").string();
  // mkstemp fills in the name inside the signal handler's slot, so that a signal at any moment
  // finds the file.
  o.slot = claim(tmpl, 2);
  const int fd = mkstemp(g_slots[o.slot].path);
  if (fd < 0) {
    release(o.slot);
    o.slot = -1;
    throw DataError(path + ": cannot open the file for writing (" + why() + ")");
  }
  o.temp = g_slots[o.slot].path;
  try {
    if (fchmod(fd, o.mode) != 0) throw DataError(path + ": cannot write (" + why() + ")");
    write_all(fd, content, path);
  } catch (...) {
    close(fd);
    throw;  // the destructor removes the temporary
  }
  if (close(fd) != 0) throw DataError(path + ": cannot write (" + why() + ")");
}

std::string OutputFiles::staging(const std::string& dir) {
  Impl::Out& o = impl_->find(dir, true);
  if (!o.temp.empty()) return o.temp;
  const fs::path parent = fs::path(o.target).parent_path();
  std::error_code ec;
  fs::create_directories(parent, ec);
  std::string tmpl = (parent / ".ssac-XXXXXX").string();
  o.slot = claim(tmpl, 3);
  if (mkdtemp(g_slots[o.slot].path) == nullptr) {
    release(o.slot);
    o.slot = -1;
    throw DataError(dir + ": cannot create the output directory (" + why() + ")");
  }
  o.temp = g_slots[o.slot].path;
  if (chmod(o.temp.c_str(), o.mode) != 0)
    throw DataError(dir + ": cannot create the output directory (" + why() + ")");
  return o.temp;
}

void OutputFiles::stage_in(const std::string& dir, const std::string& name,
                           const std::string& content) {
  const std::string p = (fs::path(staging(dir)) / name).string();
  const std::string shown = (fs::path(dir) / name).string();
  const int fd = open(p.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd < 0) throw DataError(shown + ": cannot write (" + why() + ")");
  try {
    write_all(fd, content, shown);
  } catch (...) {
    close(fd);
    throw;
  }
  if (close(fd) != 0) throw DataError(shown + ": cannot write (" + why() + ")");
}

void OutputFiles::commit() {
  for (Impl::Out& o : impl_->outs) {
    if (o.temp.empty()) continue;
    if (o.dir && o.exists) {
      // Exchange the new directory with the earlier one, then delete the earlier one (now at the
      // temporary's name, which the signal handler still covers).
      if (syscall(SYS_renameat2, AT_FDCWD, o.temp.c_str(), AT_FDCWD, o.target.c_str(),
                  2 /* RENAME_EXCHANGE */) != 0) {
        if (errno != EINVAL && errno != ENOSYS)
          throw DataError(o.shown + ": cannot replace the output directory (" + why() + ")");
        std::string old = (fs::path(o.target).parent_path() / ".ssac-XXXXXX").string();
        if (mkdtemp(old.data()) == nullptr || rename(o.target.c_str(), old.c_str()) != 0 ||
            rename(o.temp.c_str(), o.target.c_str()) != 0)
          throw DataError(o.shown + ": cannot replace the output directory (" + why() + ")");
        g_slots[o.slot].state.store(1);  // the slot follows the earlier directory
        std::memcpy(g_slots[o.slot].path, old.c_str(), old.size() + 1);
        g_slots[o.slot].state.store(3);
        o.temp = old;
      }
      impl_->remove_temp(o);
      continue;
    }
    if (rename(o.temp.c_str(), o.target.c_str()) != 0)
      throw DataError(o.shown + ": cannot move the finished " + (o.dir ? "directory" : "file") +
                      " into place (" + why() + ")");
    release(o.slot);
    o.slot = -1;
    o.temp.clear();
    const int dfd = open(parent_of(o.target).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd >= 0) {
      fsync(dfd);  // the rename itself reaches the disk
      close(dfd);
    }
  }
}

ScratchDir::ScratchDir(const std::string& prefix) {
  install_handlers();
  std::error_code ec;
  fs::path tmp = fs::temp_directory_path(ec);
  if (ec) tmp = "/tmp";
  slot_ = claim((tmp / (prefix + "XXXXXX")).string(), 3);
  if (mkdtemp(g_slots[slot_].path) == nullptr) {
    const std::string reason = why();
    release(slot_);
    throw DataError("cannot create a scratch directory in " + tmp.string() + " (" + reason + ")");
  }
  path_ = g_slots[slot_].path;
}

ScratchDir::~ScratchDir() {
  std::error_code ec;
  fs::remove_all(path_, ec);
  release(slot_);
}

void write_output_file(const std::string& option, const std::string& path,
                       const std::string& content) {
  OutputFiles out;
  out.file(option, path);
  out.stage(path, content);
  out.commit();
}

}  // namespace ssac::cli
