// The costs that decide how long `ssac experiment` takes (README, "ssac experiment"):
//   BM_FitPaperMain      one run_ssac + evaluate on a paper-main dataset (random-weak q = 0.85,
//                        eta = 10, unified search), the unit of work of one cell;
//   BM_GeneratePaperMain one accepted paper-main dataset (about 64 draws, 1.0 < gamma <= 1.1);
//   BM_RepPaperMain      one whole rep of paper-main: the dataset and all 15 (q, eta) cells;
//   BM_FitLarge          one fit at n = 10^6, m = 10, k = 10 (q = 0.85, eta = 10).
#include <benchmark/benchmark.h>

#include "ssac/experiment.hpp"
#include "ssac/generator.hpp"
#include "ssac/metrics.hpp"
#include "ssac/oracle.hpp"
#include "ssac/ssac.hpp"

namespace {

void fit(benchmark::State& state, const ssac::Dataset& data, int k) {
  ssac::Params P;
  P.k = k;
  P.eta = 10;
  std::uint64_t i = 0;
  for (auto _ : state) {
    ssac::RandomWeakOracle oracle(data.labels, 0.85, ssac::Rng::stream(i, {ssac::kStreamOracle}));
    const ssac::Result r = ssac::run_ssac(data.points, oracle, P, i);
    const ssac::Evaluation e = ssac::evaluate(data.points, data.labels, r);
    benchmark::DoNotOptimize(e.accuracy_pct);
    ++i;
  }
}

void BM_FitPaperMain(benchmark::State& state) {
  ssac::GeneratorParams g;  // n = 1500, m = 2, k = 3, sigma = 1.75, (1.0, 1.1]
  const ssac::Generated data = ssac::generate(g);
  fit(state, data.data, 3);
}
BENCHMARK(BM_FitPaperMain)->Unit(benchmark::kMicrosecond);

void BM_GeneratePaperMain(benchmark::State& state) {
  ssac::GeneratorParams g;
  std::uint64_t draws = 0;
  for (auto _ : state) {
    const ssac::Generated d = ssac::generate(g);
    draws += d.draws;
    benchmark::DoNotOptimize(d.gamma);
    ++g.seed;
  }
  state.counters["draws_per_dataset"] =
      static_cast<double>(draws) / static_cast<double>(state.iterations());
}
BENCHMARK(BM_GeneratePaperMain)->Unit(benchmark::kMillisecond);

void BM_RepPaperMain(benchmark::State& state) {
  const ssac::ExperimentConfig c = ssac::preset_config("paper-main");
  const auto cells = ssac::experiment_cells(c);
  std::uint64_t rep = 0;
  ssac::RepTiming t;
  for (auto _ : state) {
    const ssac::RepResult r = ssac::run_rep(c, cells, rep++, &t);
    benchmark::DoNotOptimize(r.gamma);
  }
  const double n = static_cast<double>(state.iterations());
  state.counters["generation_ms"] = 1e3 * t.generation / n;
  state.counters["fits_ms"] = 1e3 * t.fits / n;
}
BENCHMARK(BM_RepPaperMain)->Unit(benchmark::kMillisecond);

void BM_FitLarge(benchmark::State& state) {
  // One draw without the window test: at this size the window is beside the point.
  ssac::GeneratorParams g;
  g.n = 1000000;
  g.m = 10;
  g.k = 10;
  const ssac::Dataset data = ssac::draw_dataset(g, 0);
  fit(state, data, 10);
}
BENCHMARK(BM_FitLarge)->Unit(benchmark::kMillisecond)->Iterations(5);

}  // namespace

BENCHMARK_MAIN();
