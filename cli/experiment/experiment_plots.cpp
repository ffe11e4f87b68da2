// The files the committed script experiment/plots.gp reads: the histogram's bins, the scatter
// data and plot_values.gp (experiment_plots.hpp).
#include "experiment/experiment_plots.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <vector>

#include "experiment/experiment_tables.hpp"
#include "output/table.hpp"
#include "plots/gnuplot.hpp"
#include "plots_template.hpp"
#include "ssac/error.hpp"

namespace ssac::cli {

const std::string& plots_script() {
  static const std::string script(kPlotsTemplate);
  return script;
}

std::vector<std::string> plots_script_parts(std::size_t scatter_rows, std::size_t parts) {
  // Cut where the committed script's own text says: its preamble ends with the data file
  // separator, the visualisation starts at its comment and loops over the first block's rows.
  const std::string& all = plots_script();
  const std::string preamble_end = "set datafile separator ','\n";
  const std::string scatter_start = "# The appendix's visualisation";
  const std::string rows_loop = "do for [ri=0:block_rows[1] - 1] {";
  const std::size_t head = all.find(preamble_end);
  const std::size_t scatter = all.find(scatter_start);
  const std::size_t loop = all.find(rows_loop);
  parts = std::min(parts, scatter_rows);
  if (parts < 2 || head == std::string::npos || scatter == std::string::npos ||
      loop == std::string::npos || !(head < scatter && scatter < loop))
    return {};
  const std::string preamble = all.substr(0, head + preamble_end.size());
  std::vector<std::string> out;
  for (std::size_t i = 0; i < parts; ++i) {
    const std::size_t first = i * scatter_rows / parts, last = (i + 1) * scatter_rows / parts - 1;
    // The first rows with everything before them, as the whole script draws them; the others
    // after the preamble alone (the visualisation sets every setting it relies on).
    std::string part =
        i == 0 ? all.substr(0, loop) : preamble + all.substr(scatter, loop - scatter);
    part += "do for [ri=" + std::to_string(first) + ":" + std::to_string(last) + "] {" +
            all.substr(loop + rows_loop.size());
    out.push_back(std::move(part));
  }
  return out;
}

std::string gamma_hist_csv(const ExperimentResult& r, int bins, double& lo, double& hi) {
  lo = r.config.gen.gamma_min;
  hi = r.config.gen.gamma_max;
  if (r.config.data) {  // one dataset, one gamma: a window of width 0.1 around it
    const double g = std::isfinite(r.config.data_gamma) ? r.config.data_gamma : 0.0;
    lo = g - 0.05;
    hi = g + 0.05;
  }
  if (!std::isfinite(hi)) {
    hi = lo;
    for (double g : r.gamma)
      if (std::isfinite(g)) hi = std::max(hi, g);
    if (!(hi > lo)) hi = lo + 1.0;
  }
  std::vector<std::uint64_t> count(static_cast<std::size_t>(bins), 0);
  for (double g : r.gamma) {
    if (!std::isfinite(g)) continue;
    auto b = static_cast<long long>(std::floor((g - lo) / (hi - lo) * bins));
    b = std::clamp<long long>(b, 0, bins - 1);
    ++count[static_cast<std::size_t>(b)];
  }
  std::string s = "bin_low,bin_high,count,share\n";
  for (int b = 0; b < bins; ++b) {
    const double a = lo + (hi - lo) * b / bins, z = lo + (hi - lo) * (b + 1) / bins;
    const auto c = count[static_cast<std::size_t>(b)];
    s += format_double(a) + "," + format_double(z) + "," + std::to_string(c) + "," +
         format_double(static_cast<double>(c) / static_cast<double>(r.gamma.size())) + "\n";
  }
  return s;
}

std::string scatter_csv(const RepScatter& s, std::size_t etas) {
  std::string out = "x1,x2,truth";
  for (std::size_t f = 0; f < s.fits.size(); ++f)
    out += ",r" + std::to_string(f / etas) + "e" + std::to_string(f % etas);
  out += "\n";
  for (std::size_t x = 0; x < s.data.n(); ++x) {
    const auto row = static_cast<Eigen::Index>(x);
    out += format_double(s.data.points(row, 0)) + "," + format_double(s.data.points(row, 1)) + "," +
           std::to_string(s.data.labels[x]);
    for (const ScatterFit& f : s.fits)
      out += "," + std::to_string(f.labels[x]);
    out += "\n";
  }
  return out;
}

std::string centers_csv(const RepScatter& s, std::size_t etas) {
  std::string out = "row,eta_index,cluster,x1,x2\n";
  for (std::size_t f = 0; f < s.fits.size(); ++f)
    for (const ScatterFit::Center& c : s.fits[f].centers)
      out += std::to_string(f / etas) + "," + std::to_string(f % etas) + "," +
             std::to_string(c.cluster) + "," + format_double(c.mu[0]) + "," +
             format_double(c.mu[1]) + "\n";
  return out;
}

namespace {

// "array NAME[N] = [a, b, ...]" (gnuplot 5.2 and later).
template <class T, class F>
std::string gp_array(const char* name, const std::vector<T>& v, F item) {
  std::string s = std::string("array ") + name + "[" + std::to_string(v.size()) + "] = [";
  for (std::size_t i = 0; i < v.size(); ++i)
    s += (i ? ", " : "") + item(v[i]);
  return s + "]\n";
}

}  // namespace

std::string plot_values(const ExperimentResult& r, double hist_lo, double hist_hi) {
  const ExperimentConfig& c = r.config;
  const auto blocks = experiment_blocks(c);
  std::vector<std::string> rows;
  std::vector<std::size_t> counts;
  for (const ExperimentBlock& b : blocks) {
    const auto block = block_rows(c, b);
    counts.push_back(block.size());
    for (const CellSpec& row : block)
      rows.push_back(row.row_label());
  }
  const auto number = [](double x) { return format_double(x); };
  const auto text = [](const std::string& x) { return gp_string(x); };
  std::string s = "# The values of one run for plots.gp, written by ssac with the CSV files.\n";
  // A fixed dataset (--data) shows its file and gamma where generated data show the window.
  std::string file;  // the file's name, with gnuplot's enhanced-text characters escaped
  for (char ch : std::filesystem::path(c.data_path).filename().string()) {
    if (std::string("_^{}@&~").find(ch) != std::string::npos) file += '\\';
    file += ch;
  }
  const std::string gamma_text =
      c.data
          ? file + ", {/Symbol g} = " + printf_text("%.3f", c.data_gamma)
          : format_double(c.gen.gamma_min) + " < {/Symbol g} <= " + format_double(c.gen.gamma_max);
  s += "where = " +
       gp_string("n = " + std::to_string(c.gen.n) + ", m = " + std::to_string(c.gen.m) +
                 ", k = " + std::to_string(c.gen.k) + ", " + gamma_text + ", " +
                 std::to_string(c.reps) + " reps") +
       "\n";
  s += gp_array("eta", c.eta, number);
  s += gp_array("eta_label", c.eta, [](double x) { return gp_string(format_double(x)); });
  s += gp_array("block_name", blocks,
                [](const ExperimentBlock& b) { return gp_string(block_name(b)); });
  s += gp_array("block_oracle", blocks,
                [](const ExperimentBlock& b) { return gp_string(oracle_title(b.oracle)); });
  s += gp_array("block_algorithm", blocks, [](const ExperimentBlock& b) {
    return gp_string(b.original ? "original SSAC" : "weak SSAC");
  });
  s += gp_array("block_keys", blocks,
                [](const ExperimentBlock& b) { return std::to_string(row_keys(b.oracle).size()); });
  s += gp_array("block_rows", counts, [](std::size_t n) { return std::to_string(n); });
  s += gp_array("row_label", rows, text);
  s += "hist_lo = " + format_double(hist_lo) + "\nhist_hi = " + format_double(hist_hi) + "\n";
  if (r.scatter) {
    std::vector<double> acc;
    for (const ScatterFit& f : r.scatter->fits)
      acc.push_back(f.accuracy_pct);
    s += "scatter = 1\nscatter_rep = " + gp_string(std::to_string(r.scatter->rep)) + "\n";
    s += "scatter_gamma = " + gp_string(printf_text("%.3f", r.scatter->gamma)) + "\n";
    s += gp_array("scatter_accuracy", acc,
                  [](double a) { return gp_string(printf_text("%.2f", a)); });
  } else {
    s += "scatter = 0\n";
  }
  return s;
}

}  // namespace ssac::cli
