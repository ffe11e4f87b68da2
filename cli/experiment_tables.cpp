#include "experiment_tables.hpp"

#include <algorithm>
#include <cstdio>
#include <sstream>

#include "ssac/error.hpp"

namespace ssac::cli {

const char* oracle_title(OracleKind o) {
  if (o == OracleKind::random) return "random-weak oracle (Definition 5)";
  if (o == OracleKind::local) return "local distance-weak oracle (Definition 6)";
  if (o == OracleKind::correlated)
    return "correlated weak oracle (Definition 5's marginal, abstentions correlated)";
  return "global distance-weak oracle (Definition 7)";
}

std::string block_name(const ExperimentBlock& b) {
  return std::string(to_string(b.oracle)) + (b.original ? "_original" : "_weak");
}

const char* metric_name(Metric m) {
  return m == Metric::accuracy ? "accuracy" : "failures";
}

namespace {

std::string fmt(const char* f, double x) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, x);
  return buf;
}

std::string pad_left(const std::string& s, std::size_t w) {
  return s.size() >= w ? s : std::string(w - s.size(), ' ') + s;
}
std::string pad_right(const std::string& s, std::size_t w) {
  return s.size() >= w ? s : s + std::string(w - s.size(), ' ');
}

// Section 5.2: Accuracy = (1/N_rep) sum_i sum_j I(z_j = zhat_j) / n, in percent, from the total
// of correctly labelled points over all reps.
double accuracy_pct(const ExperimentResult& r, const CellTotals& t) {
  const double points = static_cast<double>(r.config.gen.n) * static_cast<double>(r.config.reps);
  return 100.0 * static_cast<double>(t.correct) / points;
}

// The index in r.cells of the block's first cell (cells are in block order).
std::size_t first_cell(const ExperimentResult& r, const ExperimentBlock& b) {
  const ExperimentConfig& c = r.config;
  std::size_t cell = 0;
  for (const ExperimentBlock& x : experiment_blocks(c)) {
    if (x.oracle == b.oracle && x.original == b.original) return cell;
    cell += block_rows(c, x).size() * c.eta.size();
  }
  throw ParameterError(std::string("the run has no block ") + block_name(b));
}

}  // namespace

std::string format_tables(const ExperimentResult& r) {
  const ExperimentConfig& c = r.config;
  std::ostringstream out;
  if (c.data)  // a fixed dataset (--data): its gamma instead of the generator's window
    out << c.preset << " cells on " << c.data_path << ": n = " << c.gen.n << ", m = " << c.gen.m
        << ", k = " << c.gen.k << ", gamma = " << format_double(c.data_gamma);
  else
    out << c.preset << ": n = " << c.gen.n << ", m = " << c.gen.m << ", k = " << c.gen.k
        << ", sigma = " << format_double(c.gen.sigma) << ", " << format_double(c.gen.gamma_min)
        << " < gamma <= " << format_double(c.gen.gamma_max);
  out << ", beta = " << c.beta << ", " << c.reps << " reps (" << c.rep_first << ".."
      << (c.rep_first + c.reps - 1) << "), seed = " << c.seed << "\n";
  for (const ExperimentBlock& b : experiment_blocks(c)) {
    const auto rows = block_rows(c, b);
    const std::string key = b.oracle == OracleKind::random       ? "q"
                            : b.oracle == OracleKind::local      ? "nu rho"
                            : b.oracle == OracleKind::correlated ? "q rho"
                                                                 : "rho";
    std::size_t w = key.size() + 6;
    for (const auto& row : rows)
      w = std::max(w, row.row_label().size() + 2);
    out << "\n"
        << oracle_title(b.oracle) << ", "
        << (b.original ? "original SSAC (plain binary search, coin flip for not-sure)"
                       : std::string("weak SSAC (") + to_string(c.search) + " binary search)")
        << "\n";
    for (Metric what : {Metric::accuracy, Metric::failures}) {
      out << (what == Metric::accuracy ? "  Accuracy (%)"
                                       : "  #Failure (of " + std::to_string(c.reps) + ")")
          << "\n";
      out << "  " << pad_right(key + " \\ eta", w);
      for (double e : c.eta)
        out << pad_left(format_double(e), 9);
      out << "\n";
      std::size_t i = first_cell(r, b);
      for (const auto& row : rows) {
        std::string label = row.row_label();
        if (b.oracle == OracleKind::random) label = format_double(row.oracle.q);
        out << "  " << pad_right(label, w);
        for (std::size_t e = 0; e < c.eta.size(); ++e, ++i) {
          const CellTotals& t = r.totals[i];
          out << pad_left(what == Metric::accuracy ? fmt("%.3f", accuracy_pct(r, t))
                                                   : std::to_string(t.failures),
                          9);
        }
        out << "\n";
      }
    }
  }
  return out.str();
}

std::string block_csv(const ExperimentResult& r, const ExperimentBlock& b, Metric what) {
  const ExperimentConfig& c = r.config;
  std::size_t cell = first_cell(r, b);
  std::string s = b.oracle == OracleKind::random       ? "q"
                  : b.oracle == OracleKind::local      ? "nu,rho"
                  : b.oracle == OracleKind::correlated ? "q,rho"
                                                       : "rho";
  for (double e : c.eta)
    s += "," + format_double(e);
  s += "\n";
  for (const auto& row : block_rows(c, b)) {
    s += b.oracle == OracleKind::random ? format_double(row.oracle.q)
         : b.oracle == OracleKind::local
             ? format_double(row.oracle.nu) + "," + format_double(row.oracle.rho)
         : b.oracle == OracleKind::correlated
             ? format_double(row.oracle.q) + "," + format_double(row.oracle.rho)
             : format_double(row.oracle.rho);
    for (std::size_t e = 0; e < c.eta.size(); ++e, ++cell) {
      const CellTotals& t = r.totals[cell];
      s += "," + (what == Metric::accuracy ? format_double(accuracy_pct(r, t))
                                           : std::to_string(t.failures));
    }
    s += "\n";
  }
  return s;
}

}  // namespace ssac::cli
