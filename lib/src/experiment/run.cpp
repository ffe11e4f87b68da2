// Running the paper's evaluation: each rep's dataset and streams (docs/experiment.md, "Random
// streams"), one cell's run and score (Section 5.2), and the pool of threads that runs the reps.
#include <algorithm>
#include <atomic>
#include <bit>
#include <chrono>
#include <cmath>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <thread>
#include <tuple>

#include "ssac/error.hpp"
#include "ssac/experiment.hpp"
#include "ssac/oracle.hpp"
#include "ssac/rng.hpp"
#include "ssac/workers.hpp"

namespace ssac {

void CellTotals::add(const CellTotals& o) {
  correct += o.correct;
  optimal_correct += o.optimal_correct;
  failures += o.failures;
  search_failures += o.search_failures;
  queries_phase1 += o.queries_phase1;
  queries_phase2 += o.queries_phase2;
}

std::uint64_t rep_seed(std::uint64_t seed, std::uint64_t rep) {
  return Rng::stream(seed, {kStreamExperimentRep, rep}).next_u64();
}

static Rng cell_stream(std::uint64_t rseed, std::uint64_t purpose, const CellSpec& s) {
  return Rng::stream(
      rseed,
      {purpose, static_cast<std::uint64_t>(s.oracle.kind), static_cast<std::uint64_t>(s.original),
       std::bit_cast<std::uint64_t>(s.oracle.q), std::bit_cast<std::uint64_t>(s.oracle.nu),
       std::bit_cast<std::uint64_t>(s.oracle.rho), std::bit_cast<std::uint64_t>(s.eta)});
}

CellRun run_cell(const ExperimentConfig& c, const CellSpec& cell, std::uint64_t rseed,
                 const Dataset& data, const ClusterStats& truth, Oracle* distance_oracle) {
  CellRun out;
  run_cell(c, cell, rseed, data, truth, distance_oracle, out);
  return out;
}

void run_cell(const ExperimentConfig& c, const CellSpec& cell, std::uint64_t rseed,
              const Dataset& data, const ClusterStats& truth, Oracle* distance_oracle,
              CellRun& out) {
  Params P;
  P.k = c.gen.k;
  P.eta = cell.eta;
  P.beta = c.beta;
  // The original SSAC of Ashtiani et al.: the plain binary search, and a yes/no oracle -- a fair
  // coin wherever the weak oracle would abstain (as `ssac cluster --algorithm original`).
  P.search = cell.original ? Search::plain : c.search;
  P.elimination = c.elimination;
  P.rules = c.rules;
  std::unique_ptr<Oracle> random;
  Oracle* base = distance_oracle;
  // The oracles that draw: the random-weak one (its abstentions) and the correlated one (its one
  // draw per run); both from the cell's oracle stream.
  if (cell.oracle.kind == OracleKind::random || cell.oracle.kind == OracleKind::correlated) {
    OracleSpec spec = cell.oracle;
    spec.memory = c.memory;
    random = make_oracle(spec, data.points, data.labels, cell_stream(rseed, kStreamOracle, cell));
    base = random.get();
  }
  if (base == nullptr) throw ParameterError("run_cell: a distance-weak cell needs its oracle");
  AskedOracle oracle(*base, cell.original, cell_stream(rseed, kStreamCoinFlip, cell));
  UniformChooser chooser(cell_stream(rseed, kStreamAlgorithm, cell));
  run_ssac_into(out.result, data.points, oracle.get(), chooser, P);
  out.evaluation = evaluate(truth, data.labels, out.result);
}

static CellTotals totals_of(const CellRun& run, const Dataset& data) {
  CellTotals t;
  t.correct = run.evaluation.correct;
  // optimal_accuracy_pct = 100 c / n for an integer count c; the rounding error of that division
  // is far below 1/2 point, so llround recovers c exactly.
  t.optimal_correct = static_cast<std::uint64_t>(
      std::llround(run.evaluation.optimal_accuracy_pct * static_cast<double>(data.n()) / 100.0));
  t.failures = run.result.failed ? 1 : 0;
  for (const auto& it : run.result.iterations)
    if (it.outcome == Outcome::search_failed) {
      t.search_failures = 1;
      break;
    }
  t.queries_phase1 = run.result.queries_phase1;
  t.queries_phase2 = run.result.queries_phase2;
  return t;
}

// The distance-weak oracles of one rep, one per (kind, nu, rho), built once: they are
// deterministic, so every eta and both algorithms share them.
class DistanceOracles {
 public:
  explicit DistanceOracles(const Dataset& d) : data_(d) {}
  Oracle* get(const CellSpec& s) {
    if (s.oracle.kind == OracleKind::random || s.oracle.kind == OracleKind::correlated)
      return nullptr;
    auto key = std::make_tuple(static_cast<int>(s.oracle.kind), s.oracle.nu, s.oracle.rho);
    auto it = map_.find(key);
    if (it != map_.end()) return it->second.get();
    // A distance-weak oracle draws no random numbers; the stream passed is never used.
    auto o = make_oracle(s.oracle, data_.points, data_.labels, Rng(0));
    Oracle* p = o.get();
    map_.emplace(key, std::move(o));
    return p;
  }

 private:
  const Dataset& data_;
  std::map<std::tuple<int, double, double>, std::unique_ptr<Oracle>> map_;
};

static Generated generate_rep(const ExperimentConfig& c, std::uint64_t rseed) {
  // A fixed dataset (--data): every rep runs on it; nothing is drawn (draws = 0).
  if (c.data) return Generated{*c.data, c.data_gamma, 0, 0};
  GeneratorParams g = c.gen;
  g.seed = rseed;
  return generate(g);
}

// The first block's fit on one dataset, for the appendix's visualisation.
static ScatterFit scatter_fit(const CellRun& run) {
  ScatterFit f;
  const auto& map = run.evaluation.greedy_map;
  f.labels.reserve(run.result.labels.size());
  for (int l : run.result.labels)
    f.labels.push_back(l == 0 ? 0 : map[static_cast<std::size_t>(l)]);
  f.accuracy_pct = run.evaluation.accuracy_pct;
  for (const auto& it : run.result.iterations)
    if (it.p > 0) {
      const auto p = static_cast<std::size_t>(it.p);
      f.centers.push_back({p < map.size() ? map[p] : 0, it.center});
    }
  return f;
}

RepResult run_rep(const ExperimentConfig& c, const std::vector<CellSpec>& cells, std::uint64_t rep,
                  RepTiming* timing, RepScatter* scatter) {
  using clock = std::chrono::steady_clock;
  const std::uint64_t rseed = rep_seed(c.seed, rep);
  const auto t0 = clock::now();
  const Generated g = generate_rep(c, rseed);
  const auto t1 = clock::now();
  RepResult out;
  out.gamma = g.gamma;
  out.draws = g.draws;
  if (scatter) {
    scatter->rep = rep;
    scatter->gamma = g.gamma;
    scatter->data = g.data;
    scatter->cells.clear();
    scatter->fits.clear();
  }
  DistanceOracles oracles(g.data);
  const ClusterStats truth = cluster_stats(g.data.points, g.data.labels);
  // The cells run one after another, each into the storage of the one before, on this thread's
  // reps one after another: a fit allocates little beyond what its Result outgrows.
  thread_local CellRun run;
  for (const CellSpec& s : cells) {
    run_cell(c, s, rseed, g.data, truth, oracles.get(s), run);
    out.cells.push_back(totals_of(run, g.data));
    if (scatter && s.oracle.kind == cells.front().oracle.kind &&
        s.original == cells.front().original) {
      scatter->cells.push_back(s);
      scatter->fits.push_back(scatter_fit(run));
    }
  }
  if (timing) {
    timing->generation += std::chrono::duration<double>(t1 - t0).count();
    timing->fits += std::chrono::duration<double>(clock::now() - t1).count();
  }
  return out;
}

RepScatter rep_scatter(const ExperimentConfig& c, std::uint64_t rep) {
  c.check();
  const std::vector<CellSpec> all = experiment_cells(c);
  std::vector<CellSpec> first;
  for (const CellSpec& s : all)
    if (s.oracle.kind == all.front().oracle.kind && s.original == all.front().original)
      first.push_back(s);
  RepScatter out;
  run_rep(c, first, rep, nullptr, &out);
  return out;
}

ExperimentResult run_experiment(const ExperimentConfig& c, unsigned threads,
                                const std::function<void(std::uint64_t)>& progress) {
  c.check();
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
  threads = static_cast<unsigned>(std::min<std::uint64_t>(threads, c.reps));
  ExperimentResult R;
  R.config = c;
  R.cells = experiment_cells(c);
  R.threads = threads;
  R.totals.assign(R.cells.size(), CellTotals{});
  R.gamma.assign(c.reps, 0.0);
  R.draws.assign(c.reps, 0);

  std::atomic<std::uint64_t> next{0}, done{0};
  std::atomic<bool> stop{false};
  std::mutex mu;
  const auto start = std::chrono::steady_clock::now();
  auto worker = [&] {
    std::vector<CellTotals> local(R.cells.size());
    RepTiming timing;
    for (;;) {
      if (stop.load()) break;
      const std::uint64_t i = next.fetch_add(1);
      if (i >= c.reps) break;
      // The first rep also keeps what the appendix's visualisation draws (planar data only).
      RepScatter* scatter = i == 0 && c.gen.m == 2 ? &R.scatter.emplace() : nullptr;
      const RepResult rr = run_rep(c, R.cells, c.rep_first + i, &timing, scatter);
      R.gamma[i] = rr.gamma;  // each index is written by exactly one thread
      R.draws[i] = rr.draws;
      for (std::size_t j = 0; j < local.size(); ++j)
        local[j].add(rr.cells[j]);
      done.fetch_add(1);
    }
    // Integer totals: the order in which threads add them does not matter.
    std::lock_guard<std::mutex> lock(mu);
    for (std::size_t j = 0; j < local.size(); ++j)
      R.totals[j].add(local[j]);
    R.generation_seconds += timing.generation;
    R.fit_seconds += timing.fits;
  };
  std::function<void()> meanwhile;
  if (progress)
    meanwhile = [&] {
      while (done.load() < c.reps && !stop.load()) {
        progress(done.load());
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
      }
    };
  run_workers(
      threads, worker, [&] { stop.store(true); }, meanwhile);
  if (progress) progress(done.load());
  R.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return R;
}

}  // namespace ssac
