// The paper's Accuracy and #Failure tables from an experiment's totals, as text and CSV
// (experiment_tables.hpp).
#include "experiment/experiment_tables.hpp"

#include <algorithm>
#include <sstream>

#include "output/table.hpp"
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
  return std::string(to_string(b.oracle)) + "_" + to_string(b.algorithm());
}

const char* metric_name(Metric m) {
  return m == Metric::accuracy ? "accuracy" : "failures";
}

namespace {

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

// A row's values of row_keys: its oracle's parameters.
std::vector<std::string> row_values(const CellSpec& row) {
  std::vector<std::string> v;
  if (row.oracle.uses_q()) v.push_back(format_double(row.oracle.q));
  if (row.oracle.uses_nu()) v.push_back(format_double(row.oracle.nu));
  if (row.oracle.uses_rho()) v.push_back(format_double(row.oracle.rho));
  return v;
}

// The metric of the row's cells, one per eta, from the cell at index `cell` on: the #Failure
// count, or the Accuracy to three decimals (printed) or as the shortest decimal that reads back as
// the same double (CSV).
std::vector<std::string> metric_values(const ExperimentResult& r, std::size_t cell, Metric what,
                                       bool printed) {
  std::vector<std::string> v;
  for (std::size_t e = 0; e < r.config.eta.size(); ++e) {
    const CellTotals& t = r.totals[cell + e];
    if (what == Metric::failures)
      v.push_back(std::to_string(t.failures));
    else
      v.push_back(printed ? printf_text("%.3f", accuracy_pct(r, t))
                          : format_double(accuracy_pct(r, t)));
  }
  return v;
}

// One metric of a block as printed: the row label (q, or "nu=.. rho=..") padded to the widest,
// then the eta columns nine characters wide, right-aligned.
std::string block_text(const ExperimentResult& r, const ExperimentBlock& b, Metric what) {
  const ExperimentConfig& c = r.config;
  const auto rows = block_rows(c, b);
  std::string key;
  for (const std::string& k : row_keys(b.oracle))
    key += (key.empty() ? "" : " ") + k;
  std::size_t w = key.size() + 6;  // the header's " \ eta"
  for (const auto& row : rows)
    w = std::max(w, row.row_label().size() + 2);
  Table t;
  t.columns.emplace_back(key + " \\ eta", Align::left, "", w, "");
  for (double e : c.eta)
    t.columns.emplace_back(format_double(e), Align::right, "", 9, "");
  std::size_t cell = first_cell(r, b);
  for (const auto& row : rows) {
    std::vector<std::string> cells = {b.oracle == OracleKind::random ? format_double(row.oracle.q)
                                                                     : row.row_label()};
    for (std::string& v : metric_values(r, cell, what, true))
      cells.push_back(std::move(v));
    t.add(std::move(cells));
    cell += c.eta.size();
  }
  TextStyle style;
  style.indent = "  ";
  return to_text(t, style);
}

}  // namespace

std::vector<std::string> row_keys(OracleKind o) {
  const OracleSpec spec{o};
  std::vector<std::string> keys;
  if (spec.uses_q()) keys.emplace_back("q");
  if (spec.uses_nu()) keys.emplace_back("nu");
  if (spec.uses_rho()) keys.emplace_back("rho");
  return keys;
}

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
    out << "\n"
        << oracle_title(b.oracle)
        // Fresh is Definition 5 as the proofs read it and is not written; a remembering oracle
        // changes every cell, so its rule stands beside the oracle's name.
        << (b.oracle == OracleKind::random && c.memory != OracleMemory::fresh
                ? std::string(" with ") + to_string(c.memory) + " memory"
                : std::string())
        << ", "
        << (b.original ? "original SSAC (plain binary search, coin flip for not-sure)"
                       : std::string("weak SSAC (") + to_string(c.search) + " binary search)")
        << "\n";
    for (Metric what : {Metric::accuracy, Metric::failures})
      out << (what == Metric::accuracy ? "  Accuracy (%)"
                                       : "  #Failure (of " + std::to_string(c.reps) + ")")
          << "\n"
          << block_text(r, b, what);
  }
  return out.str();
}

std::string block_csv(const ExperimentResult& r, const ExperimentBlock& b, Metric what) {
  const ExperimentConfig& c = r.config;
  Table t;
  for (const std::string& k : row_keys(b.oracle))
    t.columns.emplace_back(k);
  for (double e : c.eta)
    t.columns.emplace_back(format_double(e));
  std::size_t cell = first_cell(r, b);
  for (const auto& row : block_rows(c, b)) {
    std::vector<std::string> cells = row_values(row);
    for (std::string& v : metric_values(r, cell, what, false))
      cells.push_back(std::move(v));
    t.add(std::move(cells));
    cell += c.eta.size();
  }
  return to_csv(t);
}

}  // namespace ssac::cli
