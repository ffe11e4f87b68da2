// Running gnuplot, and writing its strings: shared by the experiment's figures
// (experiment_plots.cpp) and `ssac cluster --plot` (cluster_plot.cpp), each a committed script
// compiled into the program (cli/experiment/plots.gp, cli/plots/cluster_plot.gp).
#include "plots/gnuplot.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <vector>

#include "ssac/error.hpp"

namespace ssac::cli {

std::string gp_string(const std::string& s) {
  std::string q = "\"";
  for (char ch : s) {
    if (ch == '"' || ch == '\\') q += '\\';
    q += ch;
  }
  return q + "\"";
}

namespace {

// `gnuplot -e "set terminal pngcairo"`: a gnuplot without the PNG terminal the scripts use, or
// one that does not run at all, fails here, before the work, rather than after it.
void probe_png_terminal(const std::string& gnuplot, const std::string& instead) {
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) throw DataError("cannot start " + gnuplot);
  const pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]);
    close(fds[1]);
    throw DataError("cannot start " + gnuplot);
  }
  if (pid == 0) {
    const int null = open("/dev/null", O_RDONLY);
    if (null >= 0) dup2(null, 0);
    dup2(fds[1], 1);
    dup2(fds[1], 2);
    execlp(gnuplot.c_str(), gnuplot.c_str(), "-e", "set terminal pngcairo",
           static_cast<char*>(nullptr));
    _exit(127);
  }
  close(fds[1]);
  std::string said;
  char buf[4096];
  for (ssize_t n; (n = read(fds[0], buf, sizeof buf)) != 0;) {
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) break;
    if (said.size() < 4096) said.append(buf, static_cast<std::size_t>(n));
  }
  close(fds[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return;
  // gnuplot's first non-empty line, without the blank lines and carets it frames errors with.
  std::string first;
  for (std::size_t at = 0; at < said.size() && first.empty();) {
    const std::size_t nl = std::min(said.find('\n', at), said.size());
    first = said.substr(at, nl - at);
    if (first.find_first_not_of(" \t^") == std::string::npos) first.clear();
    at = nl + 1;
  }
  throw DataError(gnuplot + ": cannot draw PNG files (`gnuplot -e \"set terminal pngcairo\"` " +
                  (WIFEXITED(status) ? "exited with status " + std::to_string(WEXITSTATUS(status))
                                     : std::string("was killed")) +
                  (first.empty() ? "" : ": " + first) + "); install Debian's gnuplot-nox, or " +
                  instead);
}

}  // namespace

void check_gnuplot(const std::string& gnuplot, const std::string& instead) {
  std::vector<std::string> candidates;
  const char* path = std::getenv("PATH");
  if (gnuplot.find('/') != std::string::npos || !path) {
    candidates.push_back(gnuplot);
  } else {
    std::string dirs = path;
    std::size_t start = 0;
    for (;;) {
      const std::size_t colon = dirs.find(':', start);
      const std::string d = dirs.substr(start, colon == std::string::npos ? colon : colon - start);
      candidates.push_back((d.empty() ? std::string(".") : d) + "/" + gnuplot);
      if (colon == std::string::npos) break;
      start = colon + 1;
    }
  }
  for (const std::string& c : candidates) {
    struct stat st {};
    if (stat(c.c_str(), &st) == 0 && S_ISREG(st.st_mode) && access(c.c_str(), X_OK) == 0) {
      probe_png_terminal(gnuplot, instead);
      return;
    }
  }
  throw DataError(gnuplot + ": not found (install Debian's gnuplot-nox, or " + instead + ")");
}

namespace {

// Starts `gnuplot SCRIPT` inside `dir`, its output to `log`; returns its pid (-1 when it cannot
// be started).
pid_t start_gnuplot(const std::string& gnuplot, const std::filesystem::path& dir,
                    const std::string& script, const std::string& log) {
  const std::string log_path = (dir / log).string();
  const pid_t pid = fork();
  if (pid == 0) {
    const int fd = open(log_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0) {
      dup2(fd, 1);
      dup2(fd, 2);
    }
    if (chdir(dir.c_str()) != 0) _exit(126);
    execlp(gnuplot.c_str(), gnuplot.c_str(), script.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  return pid;
}

int wait_for(pid_t pid) {
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return status;
}

bool succeeded(int status) {
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

}  // namespace

void run_gnuplot(const std::string& gnuplot, const std::filesystem::path& dir) {
  const std::string log = (dir / "gnuplot.log").string();
  const pid_t pid = start_gnuplot(gnuplot, dir, "plots.gp", "gnuplot.log");
  if (pid < 0) throw DataError("cannot start " + gnuplot);
  const int status = wait_for(pid);
  if (succeeded(status)) return;
  std::string first;
  {
    std::ifstream in(log);
    std::getline(in, first);
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
    throw DataError(gnuplot + ": not found (install Debian's gnuplot-nox, or pass --no-plots)");
  throw DataError(gnuplot + " failed on plots.gp" + (first.empty() ? "" : ": " + first));
}

bool run_gnuplot_each(const std::string& gnuplot, const std::filesystem::path& dir,
                      const std::vector<std::string>& scripts, unsigned parallel) {
  parallel = std::max(1u, parallel);
  std::vector<pid_t> running;
  bool ok = true;
  const auto reap = [&] {
    ok = succeeded(wait_for(running.front())) && ok;
    running.erase(running.begin());
  };
  for (const std::string& script : scripts) {
    if (running.size() == parallel) reap();
    const pid_t pid = start_gnuplot(gnuplot, dir, script, script + ".log");
    if (pid < 0) {
      ok = false;
      break;
    }
    running.push_back(pid);
  }
  while (!running.empty())
    reap();
  return ok;
}

}  // namespace ssac::cli
