// The floor: for each preset, the work a fit and a generated dataset cannot avoid, written plainly
// with no bookkeeping, timed beside the real thing on the same data, and the ratio real / floor
// (docs/benchmarks.md, "The floor").
//
//   BM_Fit/<preset>       the rep's 15 (q, eta) fits of `ssac experiment` (run_cell: the streams,
//                         run_ssac_into and the score, each fit into the CellRun of the one
//                         before, as run_rep runs them) on accepted datasets of the preset, against
//                         their floor: per iteration (k of them) n distances in m dimensions to
//                         the mean of ceil(k eta) uniform draws, one selection among them (by a
//                         histogram of 256 buckets, then among the one bucket's distances), and
//                         ceil(log2 n) probes of beta answers (a uniform draw and a Bernoulli(q)
//                         each);
//   BM_Generate/<preset>  ssac::generate with stream version 1 (the polar method, one stream
//                         per draw) on seeds 0, 1, ..., against its floor: as many candidate
//                         datasets as the real generator drew for that seed (the rejection rate
//                         the window implies), each with its k centres, the Gaussians of the
//                         points it needs (all n, or those up to the first point proving
//                         gamma <= gamma_min: points_needed, computed untimed beforehand) and the
//                         distances the margin check cannot avoid for them; also how many
//                         candidates were drawn to their last point (accepted, or gamma above the
//                         window) and the fewest points any order of drawing them would need.
//   BM_GenerateDrawn/<preset>  ssac::generate with the preset's own stream (version 4), against
//                         the floor given the points it draws (below, at its definition).
//
// Each iteration times one dataset's real work and its floor back to back in thread CPU time (the
// machine is shared: CPU time moves less than wall time with its load, and the pair shares one
// moment of it); the counters are per dataset: real_us, floor_us and ratio = real / floor summed
// over the iterations. Run: build/bench/bench_floor (about 20 s).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <ctime>
#include <limits>
#include <string>
#include <vector>

#include "ssac/experiment.hpp"
#include "ssac/generator.hpp"
#include "ssac/rng.hpp"

namespace {

double cpu_now() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

// The floor of one fit: k iterations of (ceil(k eta) draws and their mean, n distances, one
// selection, ceil(log2 n) probes of beta answers). Until Phase 2 selected within buckets of the
// distances' leading bits, the floor's selection was a std::nth_element over the n distances; that
// came to cost more than the real Phase 2 (docs/benchmarks.md, "The floor"), so it selects by
// buckets as well, with nothing else.
double fit_floor(const ssac::Matrix& X, int k, double eta, int beta, double q, ssac::Rng& rng,
                 std::vector<double>& d, std::vector<std::uint8_t>& which,
                 std::vector<double>& in_bucket) {
  const auto n = static_cast<std::size_t>(X.rows());
  const auto m = static_cast<std::size_t>(X.cols());
  const double* base = X.data();  // row-major
  const auto draws = static_cast<std::size_t>(std::ceil(k * eta));
  const auto probes = static_cast<std::size_t>(std::ceil(std::log2(static_cast<double>(n))));
  std::vector<double> mu(m);
  d.resize(n);
  which.resize(n);  // each distance's bucket
  double sink = 0.0;
  for (int i = 0; i < k; ++i) {
    std::fill(mu.begin(), mu.end(), 0.0);
    for (std::size_t s = 0; s < draws; ++s) {
      const double* x = base + rng.uniform_index(n) * m;
      for (std::size_t c = 0; c < m; ++c)
        mu[c] += x[c];
    }
    for (std::size_t c = 0; c < m; ++c)
      mu[c] /= static_cast<double>(draws);
    double least = std::numeric_limits<double>::infinity(), most = 0.0;
    for (std::size_t r = 0; r < n; ++r) {
      const double* x = base + r * m;
      double acc = 0.0;
      for (std::size_t c = 0; c < m; ++c)
        acc += (x[c] - mu[c]) * (x[c] - mu[c]);
      d[r] = std::sqrt(acc);
      least = std::min(least, d[r]);
      most = std::max(most, d[r]);
    }
    // One selection, of the position a cluster of n / k points ends at, as fast as it can be
    // written for distances: a histogram of 256 buckets between the least and the greatest, the
    // bucket holding that position, and a selection among its few distances only.
    std::array<std::uint32_t, 256> counts{};
    const double scale = 255.0 / (most - least + 1e-300);
    for (std::size_t r = 0; r < n; ++r) {
      which[r] = static_cast<std::uint8_t>((d[r] - least) * scale);
      ++counts[which[r]];
    }
    std::size_t j = n / static_cast<std::size_t>(k), b = 0;
    while (j >= counts[b])
      j -= counts[b++];
    in_bucket.clear();
    for (std::size_t r = 0; r < n; ++r)
      if (which[r] == b) in_bucket.push_back(d[r]);
    std::nth_element(in_bucket.begin(), in_bucket.begin() + static_cast<std::ptrdiff_t>(j),
                     in_bucket.end());
    sink += in_bucket[j];
    for (std::size_t p = 0; p < probes; ++p)
      for (int b = 0; b < beta; ++b)
        sink += static_cast<double>(rng.uniform_index(draws)) + (rng.bernoulli(q) ? 1.0 : 0.0);
  }
  return sink;
}

std::vector<ssac::Generated> datasets(const ssac::ExperimentConfig& c, int count) {
  std::vector<ssac::Generated> out;
  for (int s = 0; s < count; ++s) {
    ssac::GeneratorParams g = c.gen;
    g.seed = ssac::rep_seed(c.seed, static_cast<std::uint64_t>(s));
    out.push_back(ssac::generate(g));
  }
  return out;
}

void BM_Fit(benchmark::State& state, const std::string& preset) {
  const ssac::ExperimentConfig c = ssac::preset_config(preset);
  const auto cells = ssac::experiment_cells(c);
  const auto data = datasets(c, 8);
  std::vector<ssac::ClusterStats> truth;
  for (const auto& g : data)
    truth.push_back(ssac::cluster_stats(g.data.points, g.data.labels));
  ssac::Rng rng(7);
  std::vector<double> d, in_bucket;
  std::vector<std::uint8_t> which;
  double real = 0.0, floor = 0.0, ratio = 0.0;
  std::size_t i = 0;
  ssac::CellRun run;  // as run_rep runs the cells, each into the storage of the one before
  for (auto _ : state) {
    const std::size_t s = i % data.size();
    const std::uint64_t rseed = ssac::rep_seed(c.seed, s);
    const double t0 = cpu_now();
    for (const auto& cell : cells) {
      ssac::run_cell(c, cell, rseed, data[s].data, truth[s], nullptr, run);
      benchmark::DoNotOptimize(run.evaluation.accuracy_pct);
    }
    const double t1 = cpu_now();
    for (const auto& cell : cells)
      benchmark::DoNotOptimize(fit_floor(data[s].data.points, c.gen.k, cell.eta, c.beta,
                                         cell.oracle.q, rng, d, which, in_bucket));
    const double t2 = cpu_now();
    real += t1 - t0;
    floor += t2 - t1;
    ratio += (t1 - t0) / (t2 - t1);
    ++i;
  }
  const double its = static_cast<double>(state.iterations());
  const double fits = its * static_cast<double>(cells.size());
  state.counters["real_us_per_fit"] = 1e6 * real / fits;
  state.counters["floor_us_per_fit"] = 1e6 * floor / fits;
  state.counters["ratio"] = ratio / its;
}
BENCHMARK_CAPTURE(BM_Fit, paper_main, std::string("paper-main"))->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Fit, paper_highdim, std::string("paper-highdim"))
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Fit, paper_nonsep, std::string("paper-nonsep"))->Unit(benchmark::kMillisecond);

// How many points of candidate `draw` must be drawn before its fate is known: all n when it is
// accepted or rejected for too large a gamma, else the first point whose distance to the mean of a
// completed cluster proves gamma <= gamma_min (a ratio outsider / radius only decreases as points
// arrive, so nothing before that point proves it). Computed once, untimed, for the floor.
std::size_t points_needed(const ssac::GeneratorParams& p, std::uint64_t draw) {
  const std::size_t n = p.n, m = p.m, k = static_cast<std::size_t>(p.k);
  ssac::Rng rng = ssac::Rng::stream(p.seed, {ssac::kStreamGenerator, draw});
  std::vector<double> centers(k * m), X(n * m), means(k * m, 0.0), radius(k, 0.0),
      out2(k, std::numeric_limits<double>::infinity());
  for (double& x : centers)
    x = -p.box + 2.0 * p.box * rng.uniform01();
  rng.gaussians(X.data(), n * m);
  auto d2 = [&](std::size_t r, std::size_t t) {
    double acc = 0.0;
    for (std::size_t c = 0; c < m; ++c)
      acc += (X[r * m + c] - means[t * m + c]) * (X[r * m + c] - means[t * m + c]);
    return acc;
  };
  auto rejected = [&](std::size_t t) {
    return radius[t] > 0.0 && std::sqrt(out2[t]) / radius[t] <= p.gamma_min;
  };
  std::size_t row = 0;
  for (std::size_t i = 0; i < k; ++i) {
    const std::size_t first = row, size = n / k + (i < n % k ? 1 : 0);
    for (; row < first + size; ++row) {
      for (std::size_t c = 0; c < m; ++c)
        X[row * m + c] = centers[i * m + c] + p.sigma * X[row * m + c];
      for (std::size_t t = 0; t < i; ++t) {
        out2[t] = std::min(out2[t], d2(row, t));
        if (rejected(t)) return row + 1;
      }
    }
    for (std::size_t r = first; r < row; ++r)
      for (std::size_t c = 0; c < m; ++c)
        means[i * m + c] += X[r * m + c];
    for (std::size_t c = 0; c < m; ++c)
      means[i * m + c] /= static_cast<double>(size);
    double r2 = 0.0;
    for (std::size_t r = first; r < row; ++r)
      r2 = std::max(r2, d2(r, i));
    radius[i] = std::sqrt(r2);
    for (std::size_t r = 0; r < first; ++r)
      out2[i] = std::min(out2[i], d2(r, i));
    if (rejected(i)) return row;
  }
  return n;
}

// The floor of one candidate of which `needed` points must be drawn: its centres, the needed
// points' Gaussians (the generator's stream: the polar method a block at a time, Rng::gaussians,
// the fastest way there is to the values a dataset must have) and the distances the margin check
// cannot avoid: each point to the means of the clusters completed before it, each completed
// cluster's mean, its members to it (the radius) and the points before it to it.
double candidate_floor(const ssac::GeneratorParams& p, std::uint64_t draw, std::size_t needed,
                       std::vector<double>& X, std::vector<double>& means,
                       std::vector<double>& centers) {
  const std::size_t n = p.n, m = p.m, k = static_cast<std::size_t>(p.k);
  X.resize(n * m);
  means.assign(k * m, 0.0);
  centers.resize(k * m);
  ssac::Rng rng = ssac::Rng::stream(p.seed, {ssac::kStreamGenerator, draw});
  for (double& x : centers)
    x = -p.box + 2.0 * p.box * rng.uniform01();
  rng.gaussians(X.data(), needed * m);
  auto d2 = [&](std::size_t r, std::size_t t) {
    double acc = 0.0;
    for (std::size_t c = 0; c < m; ++c)
      acc += (X[r * m + c] - means[t * m + c]) * (X[r * m + c] - means[t * m + c]);
    return acc;
  };
  double sink = 0.0;
  std::size_t row = 0;
  for (std::size_t i = 0; i < k && row < needed; ++i) {
    const std::size_t first = row, last = std::min(needed, first + n / k + (i < n % k ? 1 : 0));
    double out = std::numeric_limits<double>::infinity();
    for (; row < last; ++row) {
      for (std::size_t c = 0; c < m; ++c)
        X[row * m + c] = centers[i * m + c] + p.sigma * X[row * m + c];
      for (std::size_t t = 0; t < i; ++t)
        out = std::min(out, d2(row, t));
    }
    sink += out;
    if (row == needed && needed < n) break;  // rejected within cluster i, before it completed
    for (std::size_t r = first; r < row; ++r)
      for (std::size_t c = 0; c < m; ++c)
        means[i * m + c] += X[r * m + c];
    for (std::size_t c = 0; c < m; ++c)
      means[i * m + c] /= static_cast<double>(row - first);
    double r2 = 0.0, o2 = std::numeric_limits<double>::infinity();
    for (std::size_t r = first; r < row; ++r)
      r2 = std::max(r2, d2(r, i));
    for (std::size_t r = 0; r < first; ++r)
      o2 = std::min(o2, d2(r, i));
    sink += std::sqrt(o2) / std::sqrt(r2);
  }
  return sink;
}

// The counters both generation benchmarks report, per dataset, from their sums over the
// iterations: CPU seconds of the real generator and of the floor, the ratios, draws and points.
void generation_counters(benchmark::State& state, double real, double floor, double ratio,
                         std::uint64_t draws, std::uint64_t points) {
  const double its = static_cast<double>(state.iterations());
  state.counters["real_us"] = 1e6 * real / its;
  state.counters["floor_us"] = 1e6 * floor / its;
  state.counters["ratio"] = ratio / its;
  state.counters["draws_per_dataset"] = static_cast<double>(draws) / its;
  state.counters["points_per_dataset"] = static_cast<double>(points) / its;
}

void BM_Generate(benchmark::State& state, const std::string& preset) {
  ssac::GeneratorParams g = ssac::preset_config(preset).gen;
  g.gaussians = ssac::GaussianMethod::polar;  // the floor above is version 1's single stream
  std::vector<double> X, means, centers;
  std::vector<std::size_t> needed;
  double real = 0.0, floor = 0.0, ratio = 0.0;
  std::uint64_t draws = 0, points = 0, full = 0, least = 0;
  const std::size_t smallest = g.n / static_cast<std::size_t>(g.k);  // the smallest cluster's size
  for (auto _ : state) {
    state.PauseTiming();
    const std::uint64_t accepted = ssac::generate(g).draws;
    needed.clear();
    for (std::uint64_t d = 0; d < accepted; ++d)
      needed.push_back(points_needed(g, d));
    state.ResumeTiming();
    const double t0 = cpu_now();
    const ssac::Generated d = ssac::generate(g);
    benchmark::DoNotOptimize(d.gamma);
    const double t1 = cpu_now();
    for (std::uint64_t c = 0; c < d.draws; ++c) {
      benchmark::DoNotOptimize(candidate_floor(g, c, needed[c], X, means, centers));
      points += needed[c];
      // Drawn to the last point (accepted, or gamma above the window) or abandoned early; an
      // abandoned draw needs, in any order of drawing, one whole cluster (a radius) and one
      // outsider of it: no fewer than the smallest cluster's size plus one.
      full += needed[c] == g.n ? 1 : 0;
      least += needed[c] == g.n ? g.n : std::min(needed[c], smallest + 1);
    }
    const double t2 = cpu_now();
    real += t1 - t0;
    floor += t2 - t1;
    ratio += (t1 - t0) / (t2 - t1);
    draws += d.draws;
    ++g.seed;
  }
  generation_counters(state, real, floor, ratio, draws, points);
  const double its = static_cast<double>(state.iterations());
  state.counters["full_draws_per_dataset"] = static_cast<double>(full) / its;
  state.counters["least_points_per_dataset"] = static_cast<double>(least) / its;
}
BENCHMARK_CAPTURE(BM_Generate, paper_main, std::string("paper-main"))
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Generate, paper_highdim, std::string("paper-highdim"))
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Generate, paper_nonsep, std::string("paper-nonsep"))
    ->Unit(benchmark::kMillisecond);

// The presets' own stream, version 4 (a stream per cluster, the ziggurat, the hull rule in the
// plane), against a floor *given the points it draws*: for each of the draws the real generator
// made, its k centres and its k clusters' streams; the ziggurat Gaussians of as many points as the
// real generator drew in all (the accepted candidate's n, the rest shared evenly among the
// rejected ones and their clusters); and the accepted candidate's margin check (every mean, every
// radius, every point's distance to the other clusters' means). Left out: whatever a rejected
// candidate's proof costs (the rule's quadrants, a completed cluster's radius), so the floor is
// below any drawer that draws these points, and the ratio overstates what is left to gain. Whether
// the rule draws few enough points is the other column, points per dataset, against version 1's
// (BM_Generate).
void BM_GenerateDrawn(benchmark::State& state, const std::string& preset) {
  const ssac::GeneratorParams g0 = ssac::preset_config(preset).gen;
  if (!ssac::per_cluster(g0.gaussians)) {
    state.SkipWithError("the preset's stream has no stream per cluster");
    return;
  }
  ssac::GeneratorParams g = g0;
  const std::size_t n = g.n, m = g.m, k = static_cast<std::size_t>(g.k);
  std::vector<double> X(n * m), means(k * m), centers(k * m);
  std::vector<std::size_t> first(k + 1, 0);  // cluster i's rows: [first[i], first[i + 1])
  for (std::size_t i = 0; i < k; ++i)
    first[i + 1] = first[i] + n / k + (i < n % k ? 1 : 0);
  double real = 0.0, floor = 0.0, ratio = 0.0;
  std::uint64_t draws = 0, points = 0;
  for (auto _ : state) {
    const double t0 = cpu_now();
    const ssac::Generated d = ssac::generate(g);
    benchmark::DoNotOptimize(d.gamma);
    const double t1 = cpu_now();
    double sink = 0.0;
    const std::uint64_t rejected = d.draws - 1;
    const std::uint64_t spare = d.points - n;  // the rejected candidates' points
    for (std::uint64_t c = 0; c < d.draws; ++c) {
      ssac::Rng rng = ssac::Rng::stream(g.seed, {ssac::kStreamGenerator, c});
      for (double& x : centers)
        x = -g.box + 2.0 * g.box * rng.uniform01();
      const bool accepted = c == rejected;
      // This candidate's points: all n when accepted, else its share of the rest.
      const std::uint64_t own = accepted ? n : spare / rejected + (c < spare % rejected ? 1 : 0);
      std::size_t row = 0;
      for (std::size_t i = 0; i < k; ++i) {
        const std::size_t size = accepted
                                     ? n / k + (i < n % k ? 1 : 0)
                                     : static_cast<std::size_t>(own / k + (i < own % k ? 1 : 0));
        ssac::Rng noise = ssac::Rng::stream(g.seed, {ssac::kStreamGenerator, c, i + 1});
        if (ssac::by_ziggurat(g.gaussians))
          noise.gaussians_ziggurat(X.data() + row * m, size * m);
        else
          noise.gaussians(X.data() + row * m, size * m);
        if (m == 2) {
          // The plane as the generator writes it (its draw_rows): the center and sigma in locals,
          // a row's two coordinates in one packed multiply and add, where the loop below took
          // some 2 % more of paper-main's floor.
          const double sigma = g.sigma, c0 = centers[2 * i], c1 = centers[2 * i + 1];
          double* x = X.data() + row * 2;
          for (std::size_t r = 0; r < size; ++r) {
            x[2 * r] = c0 + sigma * x[2 * r];
            x[2 * r + 1] = c1 + sigma * x[2 * r + 1];
          }
        } else {
          for (std::size_t r = row; r < row + size; ++r)
            for (std::size_t t = 0; t < m; ++t)
              X[r * m + t] = centers[i * m + t] + g.sigma * X[r * m + t];
        }
        row += size;
      }
      sink += X[0];
      if (!accepted) continue;
      // The accepted candidate's margin check: means, radii, nearest outsiders (Definition 2).
      std::fill(means.begin(), means.end(), 0.0);
      for (std::size_t i = 0; i < k; ++i) {
        for (std::size_t r = first[i]; r < first[i + 1]; ++r)
          for (std::size_t t = 0; t < m; ++t)
            means[i * m + t] += X[r * m + t];
        for (std::size_t t = 0; t < m; ++t)
          means[i * m + t] /= static_cast<double>(first[i + 1] - first[i]);
      }
      double gamma = std::numeric_limits<double>::infinity();
      for (std::size_t i = 0; i < k; ++i) {
        double r2 = 0.0, o2 = std::numeric_limits<double>::infinity();
        for (std::size_t r = 0; r < n; ++r) {
          double acc = 0.0;
          for (std::size_t t = 0; t < m; ++t)
            acc += (X[r * m + t] - means[i * m + t]) * (X[r * m + t] - means[i * m + t]);
          if (r >= first[i] && r < first[i + 1])
            r2 = std::max(r2, acc);
          else
            o2 = std::min(o2, acc);
        }
        gamma = std::min(gamma, std::sqrt(o2) / std::sqrt(r2));
      }
      sink += gamma;
    }
    benchmark::DoNotOptimize(sink);
    const double t2 = cpu_now();
    real += t1 - t0;
    floor += t2 - t1;
    ratio += (t1 - t0) / (t2 - t1);
    draws += d.draws;
    points += d.points;
    ++g.seed;
  }
  generation_counters(state, real, floor, ratio, draws, points);
}
BENCHMARK_CAPTURE(BM_GenerateDrawn, paper_main, std::string("paper-main"))
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_GenerateDrawn, paper_highdim, std::string("paper-highdim"))
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_GenerateDrawn, paper_nonsep, std::string("paper-nonsep"))
    ->Unit(benchmark::kMillisecond);

// An estimate for a generator that does not exist: how many points a candidate would need if a
// rule could prove gamma <= gamma_min before any cluster is complete. For gamma_min >= 1 there is
// such a rule: an outsider strictly inside the convex hull of a cluster's points so far is,
// wherever that cluster's mean ends up, no farther from it than its farthest point (distance to a
// fixed point is convex, so its largest value on the hull is at a vertex), so the cluster's ratio
// is at most 1. The strategy estimated: draw the clusters in turns (one point of each, round after
// round) for up to T rounds, building every cluster's hull and testing every outsider so far
// against it after rounds 8, 16, 32, ..., T; without a proof by then, go on in today's order
// (cluster after cluster, the blocks tested as the generator tests them), which rejects at the same
// row as today at the latest, having drawn besides the T-point prefixes of the clusters. In the
// plane only, with orientation tests in doubles and no certificate: an estimate, not a floor.
// Candidates drawn in full are tested too: the rule firing on one of them (gamma > 1) is counted
// as a contradiction.
struct P2 {
  double x, y;
};

double cross(const P2& o, const P2& a, const P2& b) {
  return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
}

// The convex hull of pts, counter-clockwise, without collinear points (Andrew's monotone chain).
std::vector<P2> hull(std::vector<P2> pts) {
  std::sort(pts.begin(), pts.end(),
            [](const P2& a, const P2& b) { return a.x < b.x || (a.x == b.x && a.y < b.y); });
  if (pts.size() < 3) return pts;
  std::vector<P2> h(2 * pts.size());
  std::size_t n = 0;
  for (std::size_t i = 0; i < pts.size(); ++i) {
    while (n >= 2 && cross(h[n - 2], h[n - 1], pts[i]) <= 0)
      --n;
    h[n++] = pts[i];
  }
  for (std::size_t i = pts.size() - 1, lower = n + 1; i-- > 0;) {
    while (n >= lower && cross(h[n - 2], h[n - 1], pts[i]) <= 0)
      --n;
    h[n++] = pts[i];
  }
  h.resize(n - 1);
  return h;
}

bool strictly_inside(const std::vector<P2>& h, const P2& p) {
  if (h.size() < 3) return false;
  for (std::size_t i = 0; i < h.size(); ++i)
    if (!(cross(h[i], h[(i + 1) % h.size()], p) > 0)) return false;
  return true;
}

// The number of points (in turns) at the first proof after rounds 8, 16, ..., up to `rounds`, or
// 0 if none comes.
std::size_t hull_rule_fires_at(const ssac::GeneratorParams& p, std::uint64_t draw,
                               std::size_t rounds) {
  const ssac::Dataset d = ssac::draw_dataset(p, draw);
  const auto k = static_cast<std::size_t>(p.k);
  std::vector<std::size_t> first(k + 1, 0);
  for (std::size_t i = 0; i < k; ++i)
    first[i + 1] = first[i] + p.n / k + (i < p.n % k ? 1 : 0);
  for (std::size_t t = 8; t <= rounds && t < p.n / k; t *= 2) {
    std::size_t arrived = 0;
    std::vector<std::vector<P2>> got(k);
    for (std::size_t i = 0; i < k; ++i) {
      for (std::size_t r = first[i]; r < std::min(first[i + 1], first[i] + t); ++r)
        got[i].push_back(
            {d.points(static_cast<Eigen::Index>(r), 0), d.points(static_cast<Eigen::Index>(r), 1)});
      arrived += got[i].size();
    }
    for (std::size_t i = 0; i < k; ++i) {
      const std::vector<P2> h = hull(got[i]);
      for (std::size_t j = 0; j < k; ++j)
        for (std::size_t q = 0; j != i && q < got[j].size(); ++q)
          if (strictly_inside(h, got[j][q])) return arrived;
    }
  }
  return 0;
}

// The strategy's points for a candidate today's generator abandons after `needed` points (in
// today's order), when the rule gives no proof within `rounds` turns: of each cluster, the more of
// its rows below `needed` and its prefix of `rounds` rows drawn in turns. (The prefixes of later
// clusters might prove the rejection sooner; not counted, so this errs high.)
std::size_t points_after_turns(const ssac::GeneratorParams& p, std::size_t needed,
                               std::size_t rounds) {
  const auto k = static_cast<std::size_t>(p.k);
  std::size_t first = 0, total = 0;
  for (std::size_t i = 0; i < k; ++i) {
    const std::size_t size = p.n / k + (i < p.n % k ? 1 : 0);
    const std::size_t below = needed > first ? std::min(size, needed - first) : 0;
    total += std::max(below, std::min(size, rounds));
    first += size;
  }
  return total;
}

// On 40 datasets of a preset in the plane with gamma_min >= 1 (paper-main), for T = state.range(0)
// rounds in turns: counters per dataset, today's points and the strategy's.
void BM_HullRuleEstimate(benchmark::State& state, const std::string& preset) {
  ssac::GeneratorParams g = ssac::preset_config(preset).gen;
  g.gaussians = ssac::GaussianMethod::polar;  // points_needed follows version 1's stream
  if (g.m != 2 || g.gamma_min < 1.0) {
    state.SkipWithError("the hull rule needs the plane and gamma_min >= 1");
    return;
  }
  const auto rounds = static_cast<std::size_t>(state.range(0));
  std::uint64_t points = 0, hull_points = 0, contradictions = 0;
  for (auto _ : state) {
    const std::uint64_t draws = ssac::generate(g).draws;
    for (std::uint64_t d = 0; d < draws; ++d) {
      const std::size_t needed = points_needed(g, d);
      points += needed;
      const std::size_t at = hull_rule_fires_at(g, d, rounds);
      if (needed == g.n) {
        // Drawn in full (accepted, or gamma above the window, so above 1): the rule must never
        // fire on such a candidate; a count above 0 says the rule or its code is wrong.
        contradictions += at != 0 ? 1 : 0;
        hull_points += needed;
        continue;
      }
      hull_points += at != 0 ? at : points_after_turns(g, needed, rounds);
    }
    ++g.seed;
  }
  const double its = static_cast<double>(state.iterations());
  state.counters["points_per_dataset"] = static_cast<double>(points) / its;
  state.counters["hull_points_per_dataset"] = static_cast<double>(hull_points) / its;
  state.counters["contradictions"] = static_cast<double>(contradictions);
}
BENCHMARK_CAPTURE(BM_HullRuleEstimate, paper_main, std::string("paper-main"))
    ->Arg(32)
    ->Arg(64)
    ->Arg(128)
    ->Arg(256)
    ->Iterations(40)
    ->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
