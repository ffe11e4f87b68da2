// Every file and directory a command writes goes through one OutputFiles (README, "Exit status";
// docs/bad-input.md, "Outputs"). The command registers its inputs and outputs before the work
// starts, so that an output that cannot be written is reported before anything is computed; the
// content is then staged in unique temporaries (mkstemp/mkdtemp) in the targets' own directories,
// synced to disk, and renamed into place only when every output of the command was staged: all
// outputs appear together or none does.
//
// Refused, each with one line naming the path: an existing target that is not a regular file
// (a device node, a FIFO, a socket) or a directory where a file is expected; an existing file
// that is not writable (it is not replaced, and its mode is kept when it is); a target that is an
// input of the same command (same device and inode) or that two outputs of the command share; a
// directory output that exists and is not an earlier output of the same kind (it is replaced as
// a whole, so an unrelated directory is never deleted), or that holds an input of the command (by
// its path, symlinks resolved, or as one of its files by inode). Temporaries are removed on every
// error path (the destructor) and on SIGINT, SIGTERM and SIGHUP (an async-signal-safe handler).
#pragma once

#include <memory>
#include <string>
#include <vector>

namespace ssac::cli {

class OutputFiles {
 public:
  OutputFiles();
  ~OutputFiles();  // removes every temporary not yet renamed into place
  OutputFiles(const OutputFiles&) = delete;
  OutputFiles& operator=(const OutputFiles&) = delete;

  // A file the command reads: no output may be the same file. A path that does not exist is
  // ignored here (reading it reports the error).
  void input(const std::string& path);
  // A file output given by `option` (e.g. "--out"). Checks now that it can be written; throws
  // ParameterError (an empty path, a clash with an input or another output) or DataError.
  void file(const std::string& option, const std::string& path);
  // A directory output: absent, empty, or an earlier output holding `marker` and regular files
  // only; it is replaced as a whole.
  void directory(const std::string& option, const std::string& path, const std::string& marker);

  // Stages the content of a registered file output.
  void stage(const std::string& path, const std::string& content);
  // The staging directory of a registered directory output (created on first use, beside the
  // target); the caller writes the files into it, e.g. with stage_in.
  std::string staging(const std::string& dir);
  void stage_in(const std::string& dir, const std::string& name, const std::string& content);

  // Renames every staged output into place (a directory output replaces the earlier one).
  void commit();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// A scratch directory (mkdtemp in the system's temporary directory, named PREFIX and six random
// characters) for files a command writes only to hand to another program, gnuplot: removed with
// its files by the destructor and, like the temporaries of OutputFiles, on SIGINT, SIGTERM and
// SIGHUP. It holds files only (no subdirectories). Throws DataError when it cannot be made.
class ScratchDir {
 public:
  explicit ScratchDir(const std::string& prefix);
  ~ScratchDir();
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  const std::string& path() const { return path_; }

 private:
  int slot_ = -1;
  std::string path_;
};

// Writes one file through OutputFiles (the command's only output).
void write_output_file(const std::string& option, const std::string& path,
                       const std::string& content);

}  // namespace ssac::cli
