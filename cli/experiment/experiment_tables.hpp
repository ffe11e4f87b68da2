// The paper's tables of Section 5 and the appendix, from an experiment's totals: one block per
// (oracle, algorithm), rows the oracle's settings (q, or nu and rho, or rho), columns eta;
// Accuracy (%) and #Failure. As text (printed and table.txt) and as one CSV per block and metric,
// both rendered by table.hpp.
#pragma once

#include <string>
#include <vector>

#include "ssac/experiment.hpp"

namespace ssac::cli {

// "random-weak oracle (Definition 5)", "local distance-weak oracle (Definition 6)", ...
const char* oracle_title(OracleKind o);
// "random_weak", "local_original", ...: the block's part of the output file names.
std::string block_name(const ExperimentBlock& b);
// The columns that name a block's rows: the parameters its oracle uses, in the order q, nu, rho
// ("q"; "nu", "rho"; "q", "rho"; "rho").
std::vector<std::string> row_keys(OracleKind o);

// Every block's Accuracy and #Failure tables under a line naming the configuration.
std::string format_tables(const ExperimentResult& r);

enum class Metric { accuracy, failures };
// The CSV of one block: header "<row keys>,<eta values...>", then one line per row. The keys are
// q, "nu,rho" or rho; the values the Accuracy in percent or the #Failure count.
std::string block_csv(const ExperimentResult& r, const ExperimentBlock& b, Metric what);
const char* metric_name(Metric m);  // "accuracy", "failures"

}  // namespace ssac::cli
