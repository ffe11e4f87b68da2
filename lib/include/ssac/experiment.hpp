// The paper's evaluation (Section 5 and the appendix's additional results): N_rep repetitions,
// each drawing a fresh dataset from the generator (Section 5.1) and running every cell -- an
// oracle, an algorithm, the oracle's parameters and eta -- on that same dataset; per cell the
// Accuracy and #Failure of Section 5.2. This header runs the reps; experiment_config.hpp says what
// they sweep, experiment_summary.hpp writes, reads and merges their results.
//
// Determinism (docs/experiment.md, "Random streams"): repetition r draws only from streams
// derived from (seed, r), so the totals do not depend on the number of threads, the order in
// which reps finish, or how the reps are split into slices (--reps-range) and merged. The totals
// are integers (correctly labelled points, failures, queries), so summing them in any order gives
// the same result; the per-rep gammas are kept in rep order.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "ssac/experiment_config.hpp"
#include "ssac/generator.hpp"
#include "ssac/metrics.hpp"
#include "ssac/ssac.hpp"

namespace ssac {

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

// The data behind the appendix's visualisation: one rep's dataset and, for each cell of the
// first block (rows, then eta, as in experiment_cells), the clustering recovered on it.
struct ScatterFit {
  // Recovered labels renamed by the greedy center matching of Section 5.2 (0 = unassigned).
  std::vector<int> labels;
  double accuracy_pct = 0.0;  // Section 5.2's Accuracy of this one run
  // Phase 1's estimated center mu'_p of every iteration that chose a cluster, in iteration
  // order, with the true cluster the matching gave p (0 when p was left unmatched).
  struct Center {
    int cluster = 0;
    Vector mu;
  };
  std::vector<Center> centers;
};
struct RepScatter {
  std::uint64_t rep = 0;
  double gamma = 0.0;            // the dataset's gamma-margin (Definition 2)
  Dataset data;                  // points and true labels
  std::vector<CellSpec> cells;   // the first block's cells
  std::vector<ScatterFit> fits;  // one per cell
};

// Everything one rep produced.
struct RepResult {
  double gamma = 0.0;
  std::uint64_t draws = 0;
  std::vector<CellTotals> cells;  // one per cell run
};

// Runs one cell on a generated dataset (the streams as above); for tests and benchmarks.
// `distance_oracle` is used for the local and global oracles (it is built once per rep); `truth`
// is cluster_stats of the data's labels, also computed once per rep.
struct CellRun {
  Result result;
  Evaluation evaluation;
};
CellRun run_cell(const ExperimentConfig& c, const CellSpec& cell, std::uint64_t rep_seed_value,
                 const Dataset& data, const ClusterStats& truth, Oracle* distance_oracle);
// The same, written into `out` over what it held, whose storage it reuses (run_ssac_into): how a
// rep runs its cells one after another.
void run_cell(const ExperimentConfig& c, const CellSpec& cell, std::uint64_t rep_seed_value,
              const Dataset& data, const ClusterStats& truth, Oracle* distance_oracle,
              CellRun& out);

// Timings of rep r: data generation and fits (including their evaluation), in seconds.
struct RepTiming {
  double generation = 0.0, fits = 0.0;
};
// Runs `cells` on rep `rep`'s dataset. With `scatter`, also keeps the dataset and the fits of the
// cells of the block of cells[0] (a prefix of `cells` when they come from experiment_cells).
RepResult run_rep(const ExperimentConfig& c, const std::vector<CellSpec>& cells, std::uint64_t rep,
                  RepTiming* timing = nullptr, RepScatter* scatter = nullptr);

// The scatter data of rep `rep`: its dataset and the first block's fits, as run_experiment keeps
// them for its first rep. For a result assembled from slices (merge_experiments), whose summaries
// hold totals only.
RepScatter rep_scatter(const ExperimentConfig& c, std::uint64_t rep);

struct ExperimentResult {
  ExperimentConfig config;
  std::vector<CellSpec> cells;
  std::vector<CellTotals> totals;
  std::vector<double> gamma;         // per rep, in rep order
  std::vector<std::uint64_t> draws;  // datasets drawn per rep (the accepted one included)
  // The first rep's dataset and fits when the data are planar (gen.m == 2), the case the
  // appendix visualises; kept while that rep runs, so drawing it re-runs nothing.
  std::optional<RepScatter> scatter;
  double wall_seconds = 0.0;        // not part of summary.json (it would break byte-identity)
  double generation_seconds = 0.0;  // summed over threads
  double fit_seconds = 0.0;         // summed over threads
  unsigned threads = 0;
};

// Runs reps [rep_first, rep_first + reps) on `threads` threads (0 = every core). `progress`,
// when given, is called from the calling thread about ten times a second with the number of
// reps done, and once at the end.
ExperimentResult run_experiment(const ExperimentConfig& c, unsigned threads,
                                const std::function<void(std::uint64_t done)>& progress = {});

}  // namespace ssac
