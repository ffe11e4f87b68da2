// The presets of the paper's experiments and the shape of a sweep: its checks, its blocks (one
// oracle and one algorithm, one table of the paper each), their rows and the cells.
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "ssac/error.hpp"
#include "ssac/experiment_config.hpp"
#include "ssac/ranges.hpp"

namespace ssac {

const std::vector<std::string>& preset_names() {
  static const std::vector<std::string> names = {"paper-main", "paper-highdim", "paper-nonsep"};
  return names;
}

const std::vector<OracleKind>& experiment_oracle_kinds() {
  static const std::vector<OracleKind> kinds = {OracleKind::random, OracleKind::local,
                                                OracleKind::global, OracleKind::correlated};
  return kinds;
}

ExperimentConfig preset_config(const std::string& name) {
  // Section 5.1 and the appendix's "Additional Results": n = 1500, m = 2, k = 3, sigma = 1.75,
  // beta = 10, q in {0.7, 0.85, 1}, eta in {2, 5, 10, 20, 50}, N_rep = 5000.
  ExperimentConfig c;
  c.preset = name;
  // The presets draw with the generator's stream version 4: the same law as version 1's (each
  // cluster's normals from its own stream, the ziggurat's values; proofs-notes/semantics.md, "The
  // generator's stream versions"), at less than half its cost. `--gaussians polar` gives the
  // datasets of the results made before.
  c.gen.gaussians = GaussianMethod::ziggurat_clusters;
  if (name == "paper-main") {
    // Section 5.3: the separable case with a narrow margin, 1.0 < gamma <= 1.1.
  } else if (name == "paper-highdim") {
    // Appendix, "Higher Dimension": n = 3000, m = 10, same window.
    c.gen.n = 3000;
    c.gen.m = 10;
  } else if (name == "paper-nonsep") {
    // Section 5.3 and appendix, "Non-separable": 0.6 < gamma <= 1.0.
    c.gen.gamma_min = 0.6;
    c.gen.gamma_max = 1.0;
  } else {
    std::string all;
    for (const auto& n : preset_names())
      all += (all.empty() ? "" : ", ") + n;
    throw ParameterError("preset = '" + name + "' is not one of " + all);
  }
  return c;
}

void use_dataset(ExperimentConfig& c, Dataset d, const std::string& path) {
  if (!d.has_labels())
    throw DataError(path + ": no 'label' column; an experiment on fixed data scores against it");
  c.gen.n = d.n();
  c.gen.m = d.m();
  c.gen.k = d.num_labels();
  try {
    c.data_gamma = cluster_stats(d.points, d.labels).gamma;
  } catch (const DataError& e) {
    throw DataError(path + ": " + e.what());
  }
  c.data_path = path;
  c.data = std::make_shared<const Dataset>(std::move(d));
}

void ExperimentConfig::check() const {
  gen.check();
  if (data && (!data->has_labels() || data->n() != gen.n || data->m() != gen.m ||
               data->num_labels() != gen.k))
    throw ParameterError("data: n, m or k differ from the dataset's (use ssac::use_dataset)");
  range::check_reps(static_cast<long long>(reps));
  if (rep_first > (std::uint64_t{1} << 62))
    throw_out_of_range("reps-range start", static_cast<long long>(rep_first), "[0, 2^62]");
  if (oracles.empty()) throw ParameterError("oracle: the list is empty; give at least one");
  if (!weak && !original) throw ParameterError("algorithm: the list is empty; give at least one");
  if (eta.empty()) throw ParameterError("eta: the list is empty; give at least one value");
  const bool has = [&] {
    return std::find(oracles.begin(), oracles.end(), OracleKind::random) != oracles.end() ||
           std::find(oracles.begin(), oracles.end(), OracleKind::correlated) != oracles.end();
  }();
  if (has && q.empty()) throw ParameterError("q: the list is empty; give at least one value");
  const bool dist = std::find(oracles.begin(), oracles.end(), OracleKind::local) != oracles.end();
  const bool glob =
      std::find(oracles.begin(), oracles.end(), OracleKind::global) != oracles.end() ||
      std::find(oracles.begin(), oracles.end(), OracleKind::correlated) != oracles.end();
  if (dist && nu.empty()) throw ParameterError("nu: the list is empty; give at least one value");
  if ((dist || glob) && rho.empty())
    throw ParameterError("rho: the list is empty; give at least one value");
  for (double x : q)
    range::check_q(x);
  for (double x : nu)
    range::check_nu(x);
  for (double x : rho)
    range::check_rho(x);
  for (double e : eta) {
    Params P;
    P.k = gen.k;
    P.eta = e;
    P.beta = beta;
    P.check(gen.n);
  }
  // The tables' columns and the figures' axis run in eta order (Section 5's tables); a list out of
  // order, or a value twice, would be found only when the figures are drawn, after every rep.
  for (std::size_t i = 1; i < eta.size(); ++i)
    if (!(eta[i - 1] < eta[i]))
      throw ParameterError(
          "eta: the values must increase (the tables' columns and the figures' "
          "axis are in eta order): " +
          format_double(eta[i - 1]) + " is followed by " + format_double(eta[i]));
}

std::string CellSpec::row_label() const {
  return oracle.parameters();
}

std::vector<CellSpec> block_rows(const ExperimentConfig& c, const ExperimentBlock& b) {
  std::vector<CellSpec> rows;
  CellSpec s;
  s.oracle.kind = b.oracle;
  s.original = b.original;
  if (b.oracle == OracleKind::random) {
    for (double q : c.q) {
      s.oracle.q = q;
      rows.push_back(s);
    }
  } else if (b.oracle == OracleKind::correlated) {
    // Definition 5's marginal with correlated abstentions: every (q, rho) pair, rho naming the
    // hard points (CorrelatedWeakOracle).
    for (double q : c.q)
      for (double rho : c.rho) {
        s.oracle.q = q;
        s.oracle.rho = rho;
        rows.push_back(s);
      }
  } else if (b.oracle == OracleKind::local) {
    for (double nu : c.nu)
      for (double rho : c.rho) {
        s.oracle.nu = nu;
        s.oracle.rho = rho;
        rows.push_back(s);
      }
  } else {
    for (double rho : c.rho) {
      s.oracle.rho = rho;
      rows.push_back(s);
    }
  }
  return rows;
}

std::vector<ExperimentBlock> experiment_blocks(const ExperimentConfig& c) {
  std::vector<ExperimentBlock> b;
  for (OracleKind o : c.oracles) {
    if (c.weak) b.push_back({o, false});
    if (c.original) b.push_back({o, true});
  }
  return b;
}

std::vector<CellSpec> experiment_cells(const ExperimentConfig& c) {
  std::vector<CellSpec> cells;
  for (const ExperimentBlock& b : experiment_blocks(c))
    for (CellSpec row : block_rows(c, b))
      for (double e : c.eta) {
        row.eta = e;
        cells.push_back(row);
      }
  return cells;
}

}  // namespace ssac
