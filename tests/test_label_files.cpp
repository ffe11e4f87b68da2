// The answer file and the session token against the kernel (cli/label/answer_file.hpp, guard.hpp):
// the cases that happen only when the kernel does something rare -- the answer file replaced
// between its open and its lock, getrandom interrupted by a signal or returning a few bytes --
// made to happen on demand. This executable defines flock(2) and getrandom(2) itself (the
// program's code is linked in statically, so its calls reach these); unarmed, each passes
// straight to the system call. Also: an undo keeps the file's owner (a file of another user,
// which needs root to make: CI runs as root; skipped otherwise) and the not-writable check's two
// conditions, one of which only a process other than root can see.
#include <gtest/gtest.h>
#include <sys/file.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <fstream>
#include <functional>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

#include "label/answer_file.hpp"
#include "label/guard.hpp"
#include "ssac/error.hpp"

namespace {

std::function<void()> g_before_flock;  // runs once, before the next flock
int g_getrandom_interruptions = 0;     // the next calls that fail with EINTR
int g_getrandom_error = 0;             // the next call fails with this errno
std::size_t g_getrandom_most = 0;      // when not 0: the most bytes one call returns

}  // namespace

extern "C" int flock(int fd, int operation) noexcept {
  if (g_before_flock) {
    const auto before = std::move(g_before_flock);
    g_before_flock = nullptr;
    before();
  }
  return static_cast<int>(::syscall(SYS_flock, fd, operation));
}

extern "C" ssize_t getrandom(void* buffer, size_t length, unsigned int flags) {
  if (g_getrandom_interruptions > 0) {
    --g_getrandom_interruptions;
    errno = EINTR;
    return -1;
  }
  if (g_getrandom_error != 0) {
    errno = g_getrandom_error;
    g_getrandom_error = 0;
    return -1;
  }
  if (g_getrandom_most != 0 && length > g_getrandom_most) length = g_getrandom_most;
  return ::syscall(SYS_getrandom, buffer, length, flags);
}

namespace ssac::cli {
namespace {

const std::string kHeader = "# h";

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), {});
}

void spit(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
}

std::string temp_path(const std::string& name) {
  const std::string path = ::testing::TempDir() + "/ssac-label-files-" + name;
  std::remove(path.c_str());
  return path;
}

// Another process's undo renames a new file onto the name between this one's open and its lock:
// the file this one locked is no longer the one named, so it opens the name again. Writing
// through the first descriptor would put the answers in a file no name reaches.
TEST(LabelAnswerFile, TheLockedFileIsTheOneNamedAfterAReplacement) {
  const std::string path = temp_path("replaced.txt");
  spit(path, kHeader + "\n0,1,yes\n");
  g_before_flock = [&] {
    const std::string next = path + ".next";
    spit(next, kHeader + "\n0,1,yes\n2,3,no\n");
    ASSERT_EQ(std::rename(next.c_str(), path.c_str()), 0);
  };
  AnswerFile f(path, kHeader);
  const auto log = f.open(10);
  EXPECT_FALSE(g_before_flock);  // the replacement happened
  EXPECT_EQ(log.size(), 2u);
  f.append({4, 5, Answer::NotSure}, 3);
  EXPECT_EQ(slurp(path), kHeader + "\n0,1,yes\n2,3,no\n4,5,not-sure\n");
  // The lock is on the named file: a second writer is refused.
  AnswerFile second(path, kHeader);
  EXPECT_THROW(second.open(10), DataError);
  std::remove(path.c_str());
}

// An undo replaces the file by a rename; the new file keeps the old one's owner, group and mode,
// also when the session runs as root on a file of another user.
// Another user's file in another group, and files where only the owner or only the group differs
// from this process's.
TEST(LabelAnswerFile, AnUndoKeepsTheFilesOwnerGroupAndMode) {
  if (::geteuid() != 0) GTEST_SKIP() << "making a file of another user needs root";
  const std::vector<std::pair<uid_t, gid_t>> owners = {
      {4242, 4343}, {::geteuid(), 4343}, {4242, ::getegid()}};
  for (const auto& [uid, gid] : owners) {
    const std::string path = temp_path("owned.txt");
    spit(path, "");
    ASSERT_EQ(::chown(path.c_str(), uid, gid), 0);
    ASSERT_EQ(::chmod(path.c_str(), 0640), 0);
    {
      AnswerFile f(path, kHeader);
      ASSERT_TRUE(f.open(10).empty());
      f.append({0, 1, Answer::Yes}, 1);
      f.append({2, 3, Answer::No}, 2);
      f.rewrite({{0, 1, Answer::Yes}});
    }
    struct stat st {};
    ASSERT_EQ(::stat(path.c_str(), &st), 0);
    EXPECT_EQ(st.st_uid, uid);
    EXPECT_EQ(st.st_gid, gid);
    EXPECT_EQ(st.st_mode & 07777, 0640u);
    EXPECT_EQ(slurp(path), kHeader + "\n0,1,yes\n");
    std::remove(path.c_str());
  }
}

// check_answer_log's message for a file it will not write to, "" when it accepts the file.
std::string refusal(const std::string& path) {
  try {
    check_answer_log(path);
    return "";
  } catch (const DataError& e) {
    return e.what();
  }
}

// Not writable is either condition: no write bit at all (which root, whom access(2) lets write
// anything, must see in the mode), or no write access for this process (a file with write bits
// that are not this process's).
TEST(LabelAnswerFile, ANotWritableFileIsRefusedByEitherCondition) {
  const std::string path = temp_path("modes.txt");
  spit(path, "");
  ASSERT_EQ(::chmod(path.c_str(), 0644), 0);
  EXPECT_EQ(refusal(path), "");
  ASSERT_EQ(::chmod(path.c_str(), 0444), 0);
  const std::string not_writable = path + ": cannot open the answer log for writing (not writable)";
  EXPECT_EQ(refusal(path), not_writable);
  ASSERT_EQ(::chmod(path.c_str(), 0644), 0);
  if (::geteuid() == 0) {
    // A process that is not the owner, for whom the owner's write bit does not count.
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
      const bool dropped =
          ::setresgid(65534, 65534, 65534) == 0 && ::setresuid(65534, 65534, 65534) == 0;
      ::_exit(!dropped ? 2 : refusal(path) == not_writable ? 0 : 1);
    }
    int status = 0;
    ASSERT_EQ(::waitpid(child, &status, 0), child);
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 0) << "2: could not drop root; 1: the file was accepted";
  } else {
    // This process is not root: the file of another user with write bits is one it cannot write.
    struct stat st {};
    if (::stat("/etc/passwd", &st) != 0 || st.st_uid == ::geteuid() || (st.st_mode & 0222) == 0)
      GTEST_SKIP() << "no file of another user with a write bit to try";
    EXPECT_EQ(refusal("/etc/passwd"),
              "/etc/passwd: cannot open the answer log for writing (not writable)");
  }
  std::remove(path.c_str());
}

// A signal during getrandom(2) (EINTR) is no error: the draw is tried again. A short read is
// continued; any other failure is one line naming the call.
TEST(LabelToken, GetrandomIsRetriedAfterASignalAndContinuedAfterAShortRead) {
  g_getrandom_interruptions = 3;
  std::string t = session_token();
  EXPECT_EQ(g_getrandom_interruptions, 0);
  EXPECT_EQ(t.size(), 32u);
  g_getrandom_most = 5;
  t = session_token();
  g_getrandom_most = 0;
  EXPECT_EQ(t.size(), 32u);
  EXPECT_EQ(t.find_first_not_of("0123456789abcdef"), std::string::npos);
  // The 16 bytes came in four calls; the last 11 bytes are not left zero.
  EXPECT_NE(t.substr(10), std::string(22, '0'));
  g_getrandom_error = ENOSYS;
  try {
    session_token();
    ADD_FAILURE() << "no error";
  } catch (const DataError& e) {
    EXPECT_EQ(std::string(e.what()),
              "cannot draw the session token from the kernel (getrandom: Function not "
              "implemented)");
  }
}

}  // namespace
}  // namespace ssac::cli
