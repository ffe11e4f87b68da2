// Generates random instances and runs of SSAC under the distance-weak oracles (Definition 6, local
// with (nu, rho); Definition 7, global with rho) and prints each run's instance and its trace, for
// the extracted model (DistanceWeak.v's oracles and RunModel.run, ExtractDistanceWeak.v,
// dw_checker.ml; dw-differential-test.sh). The run is made as `ssac cluster --trace` makes it
// (make_oracle, AskedOracle, run_ssac with the run's seed, trace_writer), as run_driver.cpp does.
//
// The instances are small and on a coarse integer grid, so that the conditions of Definitions 6
// and 7 are met with equality on some queried pairs (a two-row cluster has d(x, y) = 2 r(C_i)
// exactly; its farthest row has d(x, mu_i) = r(C_i)): the controls with <= for < in a condition
// can then be seen. k = 1..3 blobs, m = 1 (one run in two) or 2, centres in [0, 12]^m, offsets in
// [-3, 3], distinct points, labels 1..k, n = k..k+10. nu in {1, 1.5, 2, 3} and rho in {0.25, 0.5,
// 1}: nu - 1 and rho are 0 or powers of two, so (nu - 1) and 2 rho multiply exactly and every
// comparison the oracle makes is decided by its distances (checked per pair by dw_checker against
// the integers). The runs cycle through the oracles (local, global), the searches (Algorithm 2, 3,
// 4) and the four anchor rules; self-pairs=off in about one run in eight, elimination off in one in
// four. Output per run:
//   #run ID ARGS          (ARGS: the `ssac cluster` options of the run)
//   #margin 0|1           (whether the instance has the gamma-margin at gamma = 2, Definition 2
//                          with mu_t the mean of C_t, checked exactly in integers)
//   #point LABEL X1 .. Xm (n lines)
//   the trace's lines
// With DIR, the first CLI_COUNT runs are also written as DIR/runID.csv, their options as
// DIR/runID.args and their traces as DIR/runID.jsonl (the test runs `ssac cluster` on them).
// Usage: coq_dw_driver RUNS SEED [DIR CLI_COUNT]
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "driver_trace.hpp"
#include "ssac/oracle_spec.hpp"
#include "ssac/rng.hpp"
#include "ssac/rules.hpp"
#include "ssac/ssac.hpp"
#include "ssac/trace.hpp"

namespace {

using driver::Instance;

Instance make_instance(std::mt19937_64& rng, int k, int m, int n) {
  auto uniform = [&rng](int lo, int hi) {
    return lo + static_cast<int>(rng() % static_cast<std::uint64_t>(hi - lo + 1));
  };
  std::vector<std::vector<int>> centres(static_cast<std::size_t>(k), std::vector<int>(m));
  for (auto& c : centres)
    for (int& v : c)
      v = uniform(0, 12);
  std::set<std::vector<int>> seen;
  std::vector<std::vector<int>> points;
  Instance I;
  int attempts = 0;
  while (static_cast<int>(points.size()) < n && ++attempts < 10000) {
    // The first k points give every cluster one row; the rest go to a uniform cluster.
    const int t =
        static_cast<int>(points.size()) < k ? static_cast<int>(points.size()) : uniform(0, k - 1);
    std::vector<int> p(static_cast<std::size_t>(m));
    for (int c = 0; c < m; ++c)
      p[static_cast<std::size_t>(c)] =
          centres[static_cast<std::size_t>(t)][static_cast<std::size_t>(c)] + uniform(-3, 3);
    if (!seen.insert(p).second) continue;  // distinct points
    points.push_back(p);
    I.labels.push_back(t + 1);
  }
  const int rows = static_cast<int>(points.size());
  I.X.resize(rows, m);
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < m; ++c)
      I.X(r, c) = points[static_cast<std::size_t>(r)][static_cast<std::size_t>(c)];
  return I;
}

// Definition 2 at gamma = 2 with mu_t the mean of C_t, exactly: for x in C_t and y not in it,
// 2 d(x, mu_t) < d(y, mu_t) iff 4 K_t(x) < K_t(y), K_t(z) = |C_t|^2 d(z, mu_t)^2 an integer.
bool margin_holds(const Instance& I, int k) {
  const long n = I.X.rows(), m = I.X.cols();
  for (int t = 1; t <= k; ++t) {
    long long count = 0;
    std::vector<long long> sum(static_cast<std::size_t>(m), 0);
    for (long r = 0; r < n; ++r)
      if (I.labels[static_cast<std::size_t>(r)] == t) {
        ++count;
        for (long c = 0; c < m; ++c)
          sum[static_cast<std::size_t>(c)] += static_cast<long long>(I.X(r, c));
      }
    auto K = [&](long r) {
      long long acc = 0;
      for (long c = 0; c < m; ++c) {
        const long long d =
            count * static_cast<long long>(I.X(r, c)) - sum[static_cast<std::size_t>(c)];
        acc += d * d;
      }
      return acc;
    };
    for (long x = 0; x < n; ++x)
      for (long y = 0; y < n; ++y)
        if (I.labels[static_cast<std::size_t>(x)] == t &&
            I.labels[static_cast<std::size_t>(y)] != t && !(4 * K(x) < K(y)))
          return false;
  }
  return true;
}

void emit(std::string& out, long id, const Instance& I, const ssac::Params& P,
          const ssac::OracleSpec& spec, std::uint64_t seed, const std::string& dir, bool cli) {
  std::ostringstream args;
  args << "--k " << P.k << " --eta " << P.eta << " --beta " << P.beta << " --oracle "
       << to_string(spec.kind);
  if (spec.uses_nu()) args << " --nu " << spec.nu;
  args << " --rho " << spec.rho << " --seed " << seed << " --search " << to_string(P.search)
       << " --rule anchor=" << to_string(P.rules.anchor)
       << " --rule self-pairs=" << (P.rules.self_pairs ? "on" : "off") << " --assignment "
       << ssac::assignment_name(P.elimination);
  const std::string trace = driver::traced_run(I, P, spec, seed, false);

  out += "#run " + std::to_string(id) + " " + args.str() + "\n";
  out += std::string("#margin ") + (margin_holds(I, P.k) ? "1" : "0") + "\n";
  driver::append_run(out, I, trace, args.str(), dir, id, cli);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3 && argc != 5) {
    std::cerr << "usage: coq_dw_driver RUNS SEED [DIR CLI_COUNT]\n";
    return 2;
  }
  const std::string dir = argc == 5 ? argv[3] : "";
  const long cli_count = argc == 5 ? std::atol(argv[4]) : 0;
  const long runs = std::atol(argv[1]);
  const std::uint64_t base = std::strtoull(argv[2], nullptr, 10);
  std::mt19937_64 rng(base);
  const ssac::Search searches[] = {ssac::Search::random, ssac::Search::distance,
                                   ssac::Search::unified};
  const ssac::AnchorRule anchors[] = {
      ssac::AnchorRule::opener, ssac::AnchorRule::lowest_labelled_row,
      ssac::AnchorRule::random_labelled_row, ssac::AnchorRule::random_known_row};
  const double nus[] = {1.0, 1.5, 2.0, 3.0};
  const double rhos[] = {0.25, 0.5, 1.0};
  const double etas[] = {1.0, 2.0, 3.0};
  std::string out;
  for (long id = 0; id < runs; ++id) {
    const int k = 1 + static_cast<int>(rng() % 3);
    const int m = 1 + static_cast<int>(rng() % 2);
    const int n = k + static_cast<int>(rng() % 11);
    const Instance I = make_instance(rng, k, m, n);
    ssac::Params P;
    P.k = k;
    P.eta = etas[rng() % 3];
    P.beta = 1 + static_cast<int>(rng() % 3);
    P.search = searches[id % 3];
    P.rules.anchor = anchors[(id / 3) % 4];
    P.rules.self_pairs = rng() % 8 != 0;
    P.elimination = rng() % 4 != 0;
    P.oracle_clusters = k;
    ssac::OracleSpec spec;
    spec.kind = (id / 12) % 2 == 0 ? ssac::OracleKind::local : ssac::OracleKind::global;
    spec.nu = spec.kind == ssac::OracleKind::local ? nus[rng() % 4] : 1.0;
    spec.rho = rhos[rng() % 3];
    emit(out, id, I, P, spec, base + static_cast<std::uint64_t>(id), dir, id < cli_count);
  }
  std::cout << out;
  return 0;
}
