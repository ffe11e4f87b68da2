// Generates random instances and runs of SSAC under a random-weak oracle and prints each run's
// instance and its trace, for the extracted whole-run model (RunModel.v, ExtractRun.v,
// run_checker.ml; run-differential-test.sh). The run is made as `ssac cluster --trace` makes it
// (cli/commands/cmd_cluster.cpp: make_oracle, AskedOracle, run_ssac with the run's seed, and
// trace_writer), which the test checks on the first runs by running the command itself.
//
// Run `id` cycles through the searches (random, distance, unified, plain) and the anchor rules
// (opener, lowest-labelled-row, random-labelled-row, random-known-row); self-pairs=off in about
// one run in eight, elimination=off in one in four. Instance: k blobs in R^m (m = 1..3) with
// integer coordinates (centres in [0, 10^4], offsets in [-1000, 1000]), distinct points, labels
// 1..k. Output per run:
//   #run ID ARGS          (ARGS: the `ssac cluster` options of the run)
//   #point LABEL X1 .. Xm (n lines)
//   the trace's lines
// With DIR, the first CLI_COUNT runs' data are also written as DIR/runID.csv, their options as
// DIR/runID.args and their traces as DIR/runID.jsonl.
// Usage: coq_run_driver COUNT SEED [DIR CLI_COUNT]
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "ssac/oracle_spec.hpp"
#include "ssac/rng.hpp"
#include "ssac/rules.hpp"
#include "ssac/ssac.hpp"
#include "ssac/trace.hpp"

namespace {

struct Instance {
  ssac::Matrix X;
  std::vector<int> labels;
};

Instance make_instance(std::mt19937_64& rng, int k, int m, int n) {
  auto uniform = [&rng](int lo, int hi) {
    return lo + static_cast<int>(rng() % static_cast<std::uint64_t>(hi - lo + 1));
  };
  std::vector<std::vector<int>> centres(static_cast<std::size_t>(k), std::vector<int>(m));
  for (auto& c : centres)
    for (int& v : c)
      v = uniform(0, 10000);
  std::set<std::vector<int>> seen;
  std::vector<std::vector<int>> points;
  Instance I;
  while (static_cast<int>(points.size()) < n) {
    // The first k points give every cluster one row; the rest go to a uniform cluster.
    const int t =
        static_cast<int>(points.size()) < k ? static_cast<int>(points.size()) : uniform(0, k - 1);
    std::vector<int> p(static_cast<std::size_t>(m));
    for (int c = 0; c < m; ++c)
      p[static_cast<std::size_t>(c)] =
          centres[static_cast<std::size_t>(t)][c] + uniform(-1000, 1000);
    if (!seen.insert(p).second) continue;  // distinct points
    points.push_back(p);
    I.labels.push_back(t + 1);
  }
  I.X.resize(n, m);
  for (int r = 0; r < n; ++r)
    for (int c = 0; c < m; ++c)
      I.X(r, c) = points[static_cast<std::size_t>(r)][static_cast<std::size_t>(c)];
  return I;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3 && argc != 5) {
    std::cerr << "usage: coq_run_driver COUNT SEED [DIR CLI_COUNT]\n";
    return 2;
  }
  const long count = std::atol(argv[1]);
  const std::uint64_t base = std::strtoull(argv[2], nullptr, 10);
  const std::string dir = argc == 5 ? argv[3] : "";
  const long cli_count = argc == 5 ? std::atol(argv[4]) : 0;
  std::mt19937_64 rng(base);
  const ssac::Search searches[] = {ssac::Search::random, ssac::Search::distance,
                                   ssac::Search::unified, ssac::Search::plain};
  const ssac::AnchorRule anchors[] = {
      ssac::AnchorRule::opener, ssac::AnchorRule::lowest_labelled_row,
      ssac::AnchorRule::random_labelled_row, ssac::AnchorRule::random_known_row};
  const double qs[] = {0.3, 0.5, 0.7, 0.9, 1.0};
  const double etas[] = {0.5, 1.0, 1.5, 2.0, 3.0};
  std::string out;
  for (long id = 0; id < count; ++id) {
    const int k = 1 + static_cast<int>(rng() % 4);
    // One run in five on the line, where exact ties in distance are frequent (ordered by row in
    // both, S6); the others in R^2 or R^3.
    const int m = rng() % 5 == 0 ? 1 : 2 + static_cast<int>(rng() % 2);
    const int n = k + static_cast<int>(rng() % 24);
    const Instance I = make_instance(rng, k, m, n);
    ssac::Params P;
    P.k = k;
    P.eta = etas[rng() % 5];
    P.beta = 1 + static_cast<int>(rng() % 3);
    P.search = searches[id % 4];
    P.rules.anchor = anchors[(id / 4) % 4];
    P.rules.self_pairs = rng() % 8 != 0;
    P.elimination = rng() % 4 != 0;
    P.oracle_clusters = k;
    ssac::OracleSpec spec;
    spec.kind = ssac::OracleKind::random;
    spec.q = qs[rng() % 5];
    const std::uint64_t seed = base + static_cast<std::uint64_t>(id);
    const bool plain = P.search == ssac::Search::plain;

    std::ostringstream args;
    args << "--k " << k << " --eta " << P.eta << " --beta " << P.beta << " --oracle random --q "
         << spec.q << " --seed " << seed
         << (plain ? " --algorithm original" : std::string(" --search ") + to_string(P.search))
         << " --rule anchor=" << to_string(P.rules.anchor)
         << " --rule self-pairs=" << (P.rules.self_pairs ? "on" : "off") << " --assignment "
         << ssac::assignment_name(P.elimination);
    std::string trace;
    ssac::TraceHeader th;
    th.params = P;
    th.algorithm = plain ? "original" : "weak";
    th.oracle = spec;
    th.seed = seed;
    auto writer = ssac::trace_writer(I.X, th, [&trace](const std::string& line) {
      trace += line;
      trace += '\n';
    });
    auto base_oracle =
        ssac::make_oracle(spec, I.X, I.labels, ssac::Rng::stream(seed, {ssac::kStreamOracle}));
    ssac::AskedOracle oracle(*base_oracle, plain, ssac::Rng::stream(seed, {ssac::kStreamCoinFlip}));
    ssac::run_ssac(I.X, oracle.get(), P, seed, writer.get());

    out += "#run " + std::to_string(id) + " " + args.str() + "\n";
    for (int r = 0; r < n; ++r) {
      out += "#point " + std::to_string(I.labels[static_cast<std::size_t>(r)]);
      for (int c = 0; c < m; ++c)
        out += " " + std::to_string(static_cast<int>(I.X(r, c)));
      out += "\n";
    }
    out += trace;
    if (id < cli_count) {
      const std::string stem = dir + "/run" + std::to_string(id);
      std::ofstream csv(stem + ".csv");
      for (int c = 0; c < m; ++c)
        csv << "x" << c + 1 << ",";
      csv << "label\n";
      for (int r = 0; r < n; ++r) {
        for (int c = 0; c < m; ++c)
          csv << static_cast<int>(I.X(r, c)) << ",";
        csv << I.labels[static_cast<std::size_t>(r)] << "\n";
      }
      std::ofstream(stem + ".args") << args.str() << "\n";
      std::ofstream(stem + ".jsonl") << trace;
    }
    if (out.size() > (1u << 20)) {
      std::cout << out;
      out.clear();
    }
  }
  std::cout << out;
  return 0;
}
