// The counter of `ssac calibrate` and `ssac harden` (calibrate_counter.hpp).
#include "calibrate/calibrate_counter.hpp"

#include <atomic>
#include <mutex>

#include "ssac/workers.hpp"

namespace ssac::cli {

// One rep of one grid value: the tested event and the two counts shown beside it.
theory::Counts counts_of(const CellRun& run, const Dataset& data, bool recovery) {
  theory::Counts t;
  const auto& map = run.evaluation.greedy_map;
  std::size_t correct = 0;
  for (std::size_t x = 0; x < data.n(); ++x) {
    const int l = run.result.labels[x];
    if (l != 0 && map[static_cast<std::size_t>(l)] == data.labels[x]) ++correct;
  }
  t.paper_failures = run.result.failed ? 1 : 0;
  for (const auto& it : run.result.iterations)
    if (it.outcome == Outcome::search_failed) t.search_failures = 1;
  t.event = recovery ? (correct != data.n() ? 1 : 0) : t.paper_failures;
  return t;
}

// The counter: `reps` reps of run seed `seed`, each on its dataset (generated from the rep seed,
// or the fixed one) with the documented streams of `ssac experiment` (docs/experiment.md), every
// grid value on the same dataset and streams. eta values vary the cell's eta, beta values the
// configuration's beta.
theory::Counter make_counter(const ExperimentConfig& base, bool beta_grid, bool recovery,
                             unsigned threads) {
  return [=](const std::vector<double>& values, std::uint64_t seed, std::uint64_t reps) {
    std::vector<theory::Counts> total(values.size());
    std::atomic<std::uint64_t> next{0};
    std::mutex mu;
    auto worker = [&] {
      std::vector<theory::Counts> local(values.size());
      for (std::uint64_t r; (r = next.fetch_add(1)) < reps;) {
        const std::uint64_t rseed = rep_seed(seed, r);
        Dataset generated;
        if (!base.data) {
          GeneratorParams g = base.gen;
          g.seed = rseed;
          generated = generate(g).data;
        }
        const Dataset& data = base.data ? *base.data : generated;
        const ClusterStats truth = cluster_stats(data.points, data.labels);
        for (std::size_t i = 0; i < values.size(); ++i) {
          ExperimentConfig c = base;
          CellSpec cell;
          cell.oracle.q = c.q.front();
          cell.eta = c.eta.front();
          if (beta_grid)
            c.beta = static_cast<int>(values[i]);
          else
            cell.eta = values[i];
          const theory::Counts t =
              counts_of(run_cell(c, cell, rseed, data, truth, nullptr), data, recovery);
          local[i].event += t.event;
          local[i].paper_failures += t.paper_failures;
          local[i].search_failures += t.search_failures;
        }
      }
      std::lock_guard<std::mutex> lock(mu);  // integer sums: the order does not matter
      for (std::size_t i = 0; i < values.size(); ++i) {
        total[i].event += local[i].event;
        total[i].paper_failures += local[i].paper_failures;
        total[i].search_failures += local[i].search_failures;
      }
    };
    run_workers(threads, worker, [&] { next.store(reps); });
    return total;
  };
}

}  // namespace ssac::cli
