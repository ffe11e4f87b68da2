// gnuplot, the program that draws the figures of `ssac experiment`, `ssac merge` and
// `ssac cluster --plot`: each writes a committed script (compiled into the program) and the data
// it reads into a directory, then runs gnuplot there. The library draws nothing and starts no
// program; this is where the command line does both.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace ssac::cli {

// A gnuplot double-quoted string holding exactly `s` (" and \ escaped).
std::string gp_string(const std::string& s);

// Runs `gnuplot plots.gp` inside `dir`, its output to dir/gnuplot.log. Throws DataError when the
// program cannot be started or fails (with the first line it printed).
void run_gnuplot(const std::string& gnuplot, const std::filesystem::path& dir);
// Runs `gnuplot SCRIPT` inside `dir` for each script, at most `parallel` at a time, each one's
// output to dir/SCRIPT.log; true when every one exited with status 0. The caller reports a
// failure (by running the whole script again with run_gnuplot, which says what failed).
bool run_gnuplot_each(const std::string& gnuplot, const std::filesystem::path& dir,
                      const std::vector<std::string>& scripts, unsigned parallel);
// Throws DataError when `gnuplot` is not an executable on PATH (or, with a slash, at that path),
// or when it cannot draw PNG files (`gnuplot -e "set terminal pngcairo"` fails): checked before a
// run, so that a missing or broken gnuplot loses no results. `instead` ends the message, e.g.
// "pass --no-plots".
void check_gnuplot(const std::string& gnuplot, const std::string& instead = "pass --no-plots");

}  // namespace ssac::cli
