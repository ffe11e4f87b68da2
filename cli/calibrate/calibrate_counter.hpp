// The Monte Carlo counter behind `ssac calibrate` and `ssac harden`: reps of one cell of the
// experiment engine (the streams of `ssac experiment`, docs/experiment.md) on a generated or a
// fixed dataset, counting a failure event per grid value.
#pragma once

#include "ssac/experiment.hpp"
#include "ssac/theory/calibrate.hpp"

namespace ssac::cli {

// One rep of one grid value: the tested event -- exact recovery fails (Theorem 1's event: some
// point wrong or unassigned under the greedy matching of Section 5.2) or, without `recovery`,
// fewer than k clusters (#Failure, Section 5.2) -- and the two counts shown beside it.
theory::Counts counts_of(const CellRun& run, const Dataset& data, bool recovery);

// `reps` reps of run seed `seed` on `threads` threads, each on its dataset (generated from the
// rep seed, or base.data), every grid value on the same dataset and streams. eta values vary the
// cell's eta, beta values (beta_grid) the configuration's beta. The counts are integer sums, so
// they do not depend on the number of threads.
theory::Counter make_counter(const ExperimentConfig& base, bool beta_grid, bool recovery,
                             unsigned threads);

}  // namespace ssac::cli
