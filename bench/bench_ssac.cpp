// The costs that decide how long `ssac experiment` takes (README, "ssac experiment"):
//   BM_FitPaperMain      one run_ssac + evaluate on a paper-main dataset (random-weak q = 0.85,
//                        eta = 10, unified search), the unit of work of one cell;
//   BM_GeneratePaperMain one accepted paper-main dataset (about 64 draws, 1.0 < gamma <= 1.1);
//   BM_GeneratePreset    one accepted dataset of each preset (paper-main, paper-highdim,
//                        paper-nonsep) under stream version 1 (the presets' own is version 4),
//                        seeds 0, 1, 2, ..., 200 of them; paper-main also under
//                        versions 3 and 4 (a stream per cluster, with the hull rule), with points
//                        drawn per dataset and time per point as counters;
//   BM_Phase2Order       Phase 2's order at n = 10^3 .. 10^6 (Algorithm 1, line 10, and the
//                        binary search's probes and j* prefix), sorting vs selection, with the
//                        comparisons made as counters: `comparisons_per_n` stays flat for
//                        selection (linear growth) and grows like log2 n for the sort;
//   BM_RepPaperMain      one whole rep of paper-main: the dataset and all 15 (q, eta) cells;
//   BM_FitLarge          one fit at n = 10^6, m = 10, k = 10 (q = 0.85, eta = 10);
//   BM_Gaussians         a block of 3 * 10^4 standard normals (one paper-highdim draw's worth),
//                        Arg 1 the polar stream (version 1), 2 the ziggurat (version 2).
#include <benchmark/benchmark.h>

#include <cmath>
#include <string>
#include <vector>

#include "algorithm/order.hpp"

#include "ssac/experiment.hpp"
#include "ssac/generator.hpp"
#include "ssac/metrics.hpp"
#include "ssac/oracle.hpp"
#include "ssac/rng.hpp"
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

// The same seeds on every run (a fixed count of iterations), so that two trees or two stream
// versions compare on the same datasets' worth of draws.
void BM_GeneratePreset(benchmark::State& state, const std::string& preset,
                       ssac::GaussianMethod gaussians) {
  ssac::GeneratorParams g = ssac::preset_config(preset).gen;
  g.gaussians = gaussians;
  std::uint64_t draws = 0, points = 0;
  for (auto _ : state) {
    const ssac::Generated d = ssac::generate(g);
    draws += d.draws;
    points += d.points;
    benchmark::DoNotOptimize(d.gamma);
    ++g.seed;
  }
  const double its = static_cast<double>(state.iterations());
  state.counters["draws_per_dataset"] = static_cast<double>(draws) / its;
  state.counters["points_per_dataset"] = static_cast<double>(points) / its;
  state.counters["ns_per_point"] =
      benchmark::Counter(static_cast<double>(points) * 1e-9,
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK_CAPTURE(BM_GeneratePreset, paper_main, std::string("paper-main"),
                  ssac::GaussianMethod::polar)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(200);
BENCHMARK_CAPTURE(BM_GeneratePreset, paper_main_polar_clusters, std::string("paper-main"),
                  ssac::GaussianMethod::polar_clusters)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(200);
BENCHMARK_CAPTURE(BM_GeneratePreset, paper_main_ziggurat_clusters, std::string("paper-main"),
                  ssac::GaussianMethod::ziggurat_clusters)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(200);
BENCHMARK_CAPTURE(BM_GeneratePreset, paper_highdim, std::string("paper-highdim"),
                  ssac::GaussianMethod::polar)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(20);
BENCHMARK_CAPTURE(BM_GeneratePreset, paper_nonsep, std::string("paper-nonsep"),
                  ssac::GaussianMethod::polar)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(200);

// One Phase 2 on n points: distances uniform in [0, 1) from a fixed stream, x_1 (position 0), a
// binary search whose "in" answers hold for the first third of the order (as for a cluster of
// k = 3), then the first j* entries. range(1): 0 sorts, 1 selects.
void BM_Phase2Order(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const auto method =
      state.range(1) == 0 ? ssac::detail::OrderMethod::sort : ssac::detail::OrderMethod::select;
  ssac::Rng rng(5);
  std::vector<ssac::detail::DistanceOrder::Entry> entries(n);
  for (std::size_t x = 0; x < n; ++x)
    entries[x] = {rng.uniform01(), x};
  std::uint64_t comparisons = 0;
  for (auto _ : state) {
    ssac::detail::DistanceOrder order(entries, method);
    benchmark::DoNotOptimize(order.at(0));
    std::ptrdiff_t lo = 0, hi = static_cast<std::ptrdiff_t>(n) - 1;
    while (lo <= hi) {
      const auto j = static_cast<std::size_t>(lo + (hi - lo) / 2);
      benchmark::DoNotOptimize(order.at(j));
      if (j < n / 3)
        lo = static_cast<std::ptrdiff_t>(j) + 1;
      else
        hi = static_cast<std::ptrdiff_t>(j) - 1;
    }
    benchmark::DoNotOptimize(order.prefix(static_cast<std::size_t>(lo)).size());
    comparisons += order.comparisons();
  }
  const double per_run = static_cast<double>(comparisons) / static_cast<double>(state.iterations());
  state.counters["comparisons"] = per_run;
  state.counters["comparisons_per_n"] = per_run / static_cast<double>(n);
  state.SetLabel(method == ssac::detail::OrderMethod::sort ? "sort" : "select");
}
BENCHMARK(BM_Phase2Order)
    ->ArgsProduct({{1000, 10000, 100000, 1000000}, {0, 1}})
    ->Unit(benchmark::kMicrosecond);

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

void BM_Gaussians(benchmark::State& state) {
  std::vector<double> out(30000);
  ssac::Rng rng(1);
  const bool polar = state.range(0) == 1;
  for (auto _ : state) {
    if (polar)
      rng.gaussians(out.data(), out.size());
    else
      rng.gaussians_ziggurat(out.data(), out.size());
    benchmark::DoNotOptimize(out.data());
  }
  state.counters["ns_per_draw"] =
      benchmark::Counter(static_cast<double>(state.iterations()) * static_cast<double>(out.size()),
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_Gaussians)->Arg(1)->Arg(2)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
