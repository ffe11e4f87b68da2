// summary.json and gamma.csv: written from a run's result, and merged across slices of one run
// (docs/experiment.md, "Determinism, slices and merging"); slice_read.cpp reads them back.
#include <algorithm>
#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>

#include "ssac/error.hpp"
#include "ssac/experiment_summary.hpp"

namespace ssac {

using ojson = nlohmann::ordered_json;

static ojson config_json(const ExperimentConfig& c) {
  ojson j;
  j["preset"] = c.preset;
  // A run on a fixed dataset (--data) names the file and its gamma; generated runs have neither.
  if (c.data) {
    j["data"] = c.data_path;
    j["data_gamma"] = std::isfinite(c.data_gamma) ? ojson(c.data_gamma) : ojson(nullptr);
  }
  j["reps"] = c.reps;
  j["seed"] = c.seed;
  j["n"] = c.gen.n;
  j["m"] = c.gen.m;
  j["k"] = c.gen.k;
  // The generator's parameters, which a run on a fixed dataset does not use.
  if (!c.data) {
    j["sigma"] = c.gen.sigma;
    j["gamma_min"] = c.gen.gamma_min;
    // JSON has no infinity: an open window is written as null.
    j["gamma_max"] = std::isinf(c.gen.gamma_max) ? ojson(nullptr) : ojson(c.gen.gamma_max);
  }
  j["rep_first"] = c.rep_first;
  if (!c.data) {
    j["box"] = c.gen.box;
    j["max_draws"] = c.gen.max_draws;
  }
  j["beta"] = c.beta;
  j["search"] = to_string(c.search);
  j["assignment"] = assignment_name(c.elimination);
  // The rules of the run (ssac/rules.hpp), the generator's row order among them (a fixed
  // dataset's rows are given: no row order); the row order again as "shuffle" and the oracle's
  // memory only when they are not the defaults.
  const Profile profile{
      c.rules, c.elimination,
      c.data ? std::nullopt : std::optional(c.gen.shuffle ? RowOrder::shuffled : RowOrder::blocks)};
  j["semantics"] = profile_name(profile);
  j["rules"] = describe(profile);
  if (c.gen.shuffle) j["shuffle"] = true;
  // A fixed dataset's run draws no data: no stream to name.
  if (!c.data && c.gen.gaussians != GaussianMethod::polar)
    j["gaussians"] = to_string(c.gen.gaussians);
  if (c.memory != OracleMemory::fresh) j["memory"] = to_string(c.memory);
  std::vector<std::string> oracles, algorithms;
  for (OracleKind o : c.oracles)
    oracles.push_back(to_string(o));
  if (c.weak) algorithms.push_back(to_string(Algorithm::weak));
  if (c.original) algorithms.push_back(to_string(Algorithm::original));
  j["oracles"] = oracles;
  j["algorithms"] = algorithms;
  j["q"] = c.q;
  j["nu"] = c.nu;
  j["rho"] = c.rho;
  j["eta"] = c.eta;
  return j;
}

std::string summary_json(const ExperimentResult& r) {
  const ExperimentConfig& c = r.config;
  ojson j = config_json(c);
  double gsum = 0.0, gmin = std::numeric_limits<double>::infinity(), gmax = -gmin;
  std::uint64_t dsum = 0;
  for (std::size_t i = 0; i < r.gamma.size(); ++i) {  // in rep order: a fixed summation order
    gsum += r.gamma[i];
    gmin = std::min(gmin, r.gamma[i]);
    gmax = std::max(gmax, r.gamma[i]);
    dsum += r.draws[i];
  }
  const double reps = static_cast<double>(c.reps);
  auto finite_or_null = [](double x) { return std::isfinite(x) ? ojson(x) : ojson(nullptr); };
  j["gamma_mean"] = finite_or_null(gsum / reps);
  j["gamma_observed_min"] = finite_or_null(gmin);
  j["gamma_observed_max"] = finite_or_null(gmax);
  j["draws_total"] = dsum;
  j["draws_per_dataset"] = static_cast<double>(dsum) / reps;
  ojson cells = ojson::array();
  const double points = static_cast<double>(c.gen.n) * reps;
  for (std::size_t i = 0; i < r.cells.size(); ++i) {
    const CellSpec& s = r.cells[i];
    const CellTotals& t = r.totals[i];
    ojson e;
    e["oracle"] = to_string(s.oracle.kind);
    e["algorithm"] = to_string(s.algorithm());
    if (s.oracle.uses_q()) e["q"] = s.oracle.q;
    if (s.oracle.uses_nu()) e["nu"] = s.oracle.nu;
    if (s.oracle.uses_rho()) e["rho"] = s.oracle.rho;
    e["eta"] = s.eta;
    e["beta"] = c.beta;
    e["search"] = to_string(s.original ? Search::plain : c.search);
    // Section 5.2: Accuracy = (1/N_rep) sum_i sum_j I(z_j = zhat_j) / n, in percent.
    e["accuracy_pct"] = 100.0 * static_cast<double>(t.correct) / points;
    e["optimal_accuracy_pct"] = 100.0 * static_cast<double>(t.optimal_correct) / points;
    e["failures"] = t.failures;  // #Failure = sum_i I(fail)
    e["binary_search_failures"] = t.search_failures;
    e["mean_queries_phase1"] = static_cast<double>(t.queries_phase1) / reps;
    e["mean_queries_phase2"] = static_cast<double>(t.queries_phase2) / reps;
    e["correct_points"] = t.correct;
    e["optimal_correct_points"] = t.optimal_correct;
    e["queries_phase1"] = t.queries_phase1;
    e["queries_phase2"] = t.queries_phase2;
    cells.push_back(e);
  }
  j["cells"] = cells;
  return j.dump(2) + "\n";
}

std::string gamma_csv(const ExperimentResult& r) {
  std::string s = "rep,gamma,draws\n";
  for (std::size_t i = 0; i < r.gamma.size(); ++i)
    s += std::to_string(r.config.rep_first + i) + "," + format_double(r.gamma[i]) + "," +
         std::to_string(r.draws[i]) + "\n";
  return s;
}

ExperimentResult merge_experiments(std::vector<ExperimentResult> parts,
                                   const std::vector<std::string>& names) {
  if (parts.empty()) throw ParameterError("merge: no slices given");
  std::vector<std::size_t> order(parts.size());
  for (std::size_t i = 0; i < order.size(); ++i)
    order[i] = i;
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return parts[a].config.rep_first < parts[b].config.rep_first;
  });
  auto canonical = [](const ExperimentConfig& c) {
    ojson j = config_json(c);
    j.erase("reps");
    j.erase("rep_first");
    return j.dump();
  };
  ExperimentResult R = parts[order[0]];
  const std::string want = canonical(R.config);
  for (std::size_t k = 1; k < order.size(); ++k) {
    const ExperimentResult& p = parts[order[k]];
    const std::string& name = names[order[k]];
    if (canonical(p.config) != want)
      throw DataError(name + ": its configuration differs from " + names[order[0]] +
                      "'s; only slices of one run can be merged");
    const std::uint64_t end = R.config.rep_first + R.config.reps;
    if (p.config.rep_first != end)
      throw DataError(name + ": its reps start at " + std::to_string(p.config.rep_first) +
                      ", but the slices before it end at " + std::to_string(end) +
                      (p.config.rep_first < end ? " (overlap)" : " (gap)"));
    R.config.reps += p.config.reps;
    for (std::size_t j = 0; j < R.totals.size(); ++j)
      R.totals[j].add(p.totals[j]);
    R.gamma.insert(R.gamma.end(), p.gamma.begin(), p.gamma.end());
    R.draws.insert(R.draws.end(), p.draws.begin(), p.draws.end());
  }
  R.wall_seconds = R.generation_seconds = R.fit_seconds = 0.0;
  R.threads = 0;
  return R;
}

}  // namespace ssac
