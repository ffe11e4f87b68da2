// What the paper's evaluation sweeps (Section 5.1 and 5.2, the appendix's "Additional Results"):
// the generator's parameters, the oracles with their parameter grids, the algorithms, eta, and
// the number of reps; the three presets of the paper's experiments; and the cells of the sweep,
// grouped in blocks of one oracle and one algorithm (one table of the paper each).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "ssac/generator.hpp"
#include "ssac/oracle_spec.hpp"
#include "ssac/ssac.hpp"

namespace ssac {

struct ExperimentConfig {
  std::string preset = "paper-main";
  GeneratorParams
      gen;  // gen.seed is not used: each rep's generator seed is derived (experiment.hpp)
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
  Rules rules;                      // Params::rules (the paper's by default, ssac/rules.hpp)
  // The random-weak oracle's memory (Definition 5 leaves it open; the paper's proofs assume fresh).
  OracleMemory memory = OracleMemory::fresh;
  bool weak = true;       // run this paper's weak SSAC
  bool original = false;  // run the original SSAC (plain search, coin for not-sure)
  std::uint64_t seed = 0;
  std::uint64_t rep_first = 0;  // reps rep_first .. rep_first + reps - 1
  std::uint64_t reps = 5000;
  // A fixed labelled dataset (`ssac experiment --data`): when set, every rep runs its cells on
  // this dataset instead of a generated one, so the reps differ only in the algorithm's and the
  // oracle's streams (docs/experiment.md, "Runs on a fixed dataset"). gen.n, gen.m and gen.k are
  // the dataset's; the generator's other fields are unused. `data_path` is the file as given and
  // `data_gamma` its gamma-margin (Definition 2), both written to summary.json.
  std::shared_ptr<const Dataset> data;
  std::string data_path;
  double data_gamma = 0.0;

  // Throws ParameterError naming the first parameter outside its range.
  void check() const;
};

// Makes `c` run on the fixed labelled dataset `d` read from `path`: sets c.data, c.data_path,
// c.data_gamma and gen.n, gen.m, gen.k (k = the number of labels). Throws DataError naming `path`
// when `d` has no label column.
void use_dataset(ExperimentConfig& c, Dataset d, const std::string& path);

// The oracles an experiment sweeps (--oracle), in the order the command line lists them: random,
// local, global, correlated. The perfect oracle is the random-weak one at q = 1; the interactive
// one asks a person.
const std::vector<OracleKind>& experiment_oracle_kinds();

// "paper-main", "paper-highdim", "paper-nonsep"; throws ParameterError for another name.
ExperimentConfig preset_config(const std::string& name);
const std::vector<std::string>& preset_names();

// One cell of the sweep: its oracle, its algorithm and its eta. The oracle parameters its kind
// does not use are 0, as the cell's random-stream keys take them (docs/experiment.md, "Random
// streams"); its memory is not a cell's: ExperimentConfig::memory holds for every cell.
struct CellSpec {
  OracleSpec oracle{OracleKind::random, 0.0, 0.0, 0.0};
  bool original = false;
  double eta = 0;
  Algorithm algorithm() const { return original ? Algorithm::original : Algorithm::weak; }
  std::string row_label() const;  // "q=0.7", "nu=1.5 rho=0.85", "rho=0.7": oracle.parameters()
};

// A block: one oracle and one algorithm, in the order of ExperimentConfig::oracles, the weak
// algorithm before the original one.
struct ExperimentBlock {
  OracleKind oracle = OracleKind::random;
  bool original = false;
  Algorithm algorithm() const { return original ? Algorithm::original : Algorithm::weak; }
};
std::vector<ExperimentBlock> experiment_blocks(const ExperimentConfig& c);
// The rows of a block, its oracle's parameter settings (eta = 0): q for the random-weak oracle,
// (nu, rho) pairs for the local one, rho for the global one.
std::vector<CellSpec> block_rows(const ExperimentConfig& c, const ExperimentBlock& b);
// Every cell: blocks in order, then rows, then eta.
std::vector<CellSpec> experiment_cells(const ExperimentConfig& c);

}  // namespace ssac
