// The paper's evaluation (Section 5 and the appendix's additional results): N_rep repetitions,
// each drawing a fresh dataset from the generator (Section 5.1) and running every cell -- an
// oracle, an algorithm, the oracle's parameters and eta -- on that same dataset; per cell the
// Accuracy and #Failure of Section 5.2.
//
// Determinism (docs/experiment.md, "Random streams"): repetition r draws only from streams
// derived from (seed, r), so the totals do not depend on the number of threads, the order in
// which reps finish, or how the reps are split into slices (--reps-range) and merged. The totals
// are integers (correctly labelled points, failures, queries), so summing them in any order gives
// the same result; the per-rep gammas are kept in rep order.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "ssac/generator.hpp"
#include "ssac/metrics.hpp"
#include "ssac/oracle_spec.hpp"
#include "ssac/ssac.hpp"

namespace ssac {

struct ExperimentConfig {
  std::string preset = "paper-main";
  GeneratorParams gen;  // gen.seed is not used: each rep's generator seed is derived (below)
  std::vector<OracleKind> oracles = {OracleKind::random};
  std::vector<double> q = {0.7, 0.85, 1.0};  // random-weak oracle (Definition 5)
  // Distance-weak grid: the local oracle (Definition 6) runs every (nu, rho) pair, the global
  // oracle (Definition 7) every rho. nu = 1 and rho = 1 make the oracle perfect (docs).
  std::vector<double> nu = {1.0, 1.5, 2.0};
  std::vector<double> rho = {0.7, 0.85, 1.0};
  std::vector<double> eta = {2, 5, 10, 20, 50};
  int beta = 10;
  Search search = Search::unified;  // the weak algorithm's Phase-2 search
  bool elimination = true;          // Params::elimination
  bool weak = true;                 // run this paper's weak SSAC
  bool original = false;            // run the original SSAC (plain search, coin for not-sure)
  std::uint64_t seed = 0;
  std::uint64_t rep_first = 0;  // reps rep_first .. rep_first + reps - 1
  std::uint64_t reps = 5000;

  // Throws ParameterError naming the first parameter outside its range.
  void check() const;
};

// "paper-main", "paper-highdim", "paper-nonsep"; throws ParameterError for another name.
ExperimentConfig preset_config(const std::string& name);
const std::vector<std::string>& preset_names();

// One cell of the sweep. Unused oracle parameters are 0.
struct CellSpec {
  OracleKind oracle = OracleKind::random;
  bool original = false;
  double q = 0, nu = 0, rho = 0;
  double eta = 0;
  std::string row_label() const;  // "q=0.7", "nu=1.5 rho=0.85", "rho=0.7"
  OracleSpec oracle_spec() const { return {oracle, q, nu, rho}; }
};
// Cells in block order (oracle, then algorithm weak before original), then rows, then eta.
std::vector<CellSpec> experiment_cells(const ExperimentConfig& c);

// Integer totals over the reps of a run; summable in any order.
struct CellTotals {
  std::uint64_t correct = 0;          // points labelled correctly under the greedy matching
  std::uint64_t optimal_correct = 0;  // ... under the best permutation
  std::uint64_t failures = 0;         // reps with fewer than k clusters (#Failure)
  std::uint64_t search_failures = 0;  // reps in which some binary search returned fail (Alg. 2)
  std::uint64_t queries_phase1 = 0, queries_phase2 = 0;
  void add(const CellTotals& o);
};

// Stream derivation, for rep r of a run with seed s and a cell (see docs/experiment.md):
//   rep seed       R = Rng::stream(s, {kStreamExperimentRep, r}).next_u64()
//   generator      generate() with GeneratorParams::seed = R
//   cell key       (oracle, algorithm, bits(q), bits(nu), bits(rho), bits(eta))
//   algorithm      Rng::stream(R, {kStreamAlgorithm, key...})
//   oracle         Rng::stream(R, {kStreamOracle, key...})
//   coin flips     Rng::stream(R, {kStreamCoinFlip, key...})
// A cell's streams depend on its own parameters, not on its position, so a run restricted to
// some cells reproduces exactly those cells of a larger run.
inline constexpr std::uint64_t kStreamExperimentRep = 5;
std::uint64_t rep_seed(std::uint64_t seed, std::uint64_t rep);

// Everything one rep produced.
struct RepResult {
  double gamma = 0.0;
  std::uint64_t draws = 0;
  std::vector<CellTotals> cells;  // one per experiment_cells() entry
};

// Runs one cell on a generated dataset (the streams as above); for tests, benchmarks, plots.
// `distance_oracle` is used for the local and global oracles (it is built once per rep); `truth`
// is cluster_stats of the data's labels, also computed once per rep.
struct CellRun {
  Result result;
  Evaluation evaluation;
};
CellRun run_cell(const ExperimentConfig& c, const CellSpec& cell, std::uint64_t rep_seed_value,
                 const Dataset& data, const ClusterStats& truth, Oracle* distance_oracle);

// Timings of rep r: data generation and fits (including their evaluation), in seconds.
struct RepTiming {
  double generation = 0.0, fits = 0.0;
};
RepResult run_rep(const ExperimentConfig& c, const std::vector<CellSpec>& cells, std::uint64_t rep,
                  RepTiming* timing = nullptr);

struct ExperimentResult {
  ExperimentConfig config;
  std::vector<CellSpec> cells;
  std::vector<CellTotals> totals;
  std::vector<double> gamma;         // per rep, in rep order
  std::vector<std::uint64_t> draws;  // datasets drawn per rep (the accepted one included)
  double wall_seconds = 0.0;         // not part of summary.json (it would break byte-identity)
  double generation_seconds = 0.0;   // summed over threads
  double fit_seconds = 0.0;          // summed over threads
  unsigned threads = 0;
};

// Runs reps [rep_first, rep_first + reps) on `threads` threads (0 = every core). `progress`,
// when given, is called from the calling thread about ten times a second with the number of
// reps done, and once at the end.
ExperimentResult run_experiment(const ExperimentConfig& c, unsigned threads,
                                const std::function<void(std::uint64_t done)>& progress = {});

// summary.json: the configuration and per-cell results; deterministic (no timings).
std::string summary_json(const ExperimentResult& r);
// gamma.csv: "rep,gamma,draws", one line per rep.
std::string gamma_csv(const ExperimentResult& r);
// Reads a directory written by write_experiment (summary.json and gamma.csv). Throws DataError
// naming the file on malformed content.
ExperimentResult read_experiment(const std::string& dir);
// Combines slices of one run (same configuration, disjoint and together contiguous rep ranges)
// into the result of running their union at once. Throws DataError naming the mismatch.
ExperimentResult merge_experiments(std::vector<ExperimentResult> parts,
                                   const std::vector<std::string>& names);

// The tables of the paper's Section 5 / appendix: one block per (oracle, algorithm), rows q (or
// nu, rho), columns eta; Accuracy (%) then #Failure.
std::string format_tables(const ExperimentResult& r);
// CSV for one block: header "<row keys>,<eta values...>". `what` is "accuracy" or "failures".
std::string block_csv(const ExperimentResult& r, OracleKind o, bool original,
                      const std::string& what);

struct WriteOptions {
  bool plots = true;
  std::string gnuplot = "gnuplot";
};
// Writes summary.json, gamma.csv, the CSV tables, table.txt and (with plots) plots.gp and the PNG
// figures into `dir` (created if missing). Every file is first written into a staging directory
// inside `dir` and renamed into place only when all were written, so a failure leaves no partial
// output. Returns the names of the files written.
std::vector<std::string> write_experiment(const ExperimentResult& r, const std::string& dir,
                                          const WriteOptions& opt);

}  // namespace ssac
