// Generates random instances and runs of SSAC under a random-weak oracle and prints each run's
// instance and its trace, for the extracted runs (RunTheorem.v, RunModel.v, ExtractRun.v,
// run_checker.ml; run-differential-test.sh). The run is made as `ssac cluster --trace` makes it
// (cli/commands/cmd_cluster.cpp: make_oracle, AskedOracle, run_ssac with the run's seed, and
// trace_writer), which the test checks on the first runs of each kind by running the command.
//
// Two kinds of runs. The MIXED runs (ids 0 .. MIXED-1) cycle through the searches (random,
// distance, unified, plain) and the anchor rules (opener, lowest-labelled-row,
// random-labelled-row, random-known-row); self-pairs=off in about one run in eight,
// elimination=off in one in four. Instance: k blobs in R^m (m = 1..3) with integer coordinates
// (centres in [0, 10^4], offsets in [-1000, 1000]), distinct points, labels 1..k.
// The THEOREM runs (the next THEOREM ids) are in Theorem 1's configuration (theorem_run below):
// Algorithm 2's search, self-pairs asked, elimination on, the opener anchor rule, q < 1, on an
// instance whose gamma-margin (Definition 2, mu_t the mean of C_t) is checked exactly, at eta =
// the smaller certified ceiling of eta_random and eta_mcdiarmid for (k, m, delta, gamma, q) and
// beta = ceil(beta_union) for (k, n, delta, q) (theory/, `ssac bounds`).
// Output per run:
//   #run ID ARGS          (ARGS: the `ssac cluster` options of the run)
//   #theorem DELTA GAMMA ETA_CEIL BETA_CEIL   (THEOREM runs only)
//   #point LABEL X1 .. Xm (n lines)
//   the trace's lines
// With DIR, the first CLI_COUNT runs of each kind are also written as DIR/runID.csv, their
// options as DIR/runID.args and their traces as DIR/runID.jsonl.
// Usage: coq_run_driver MIXED THEOREM SEED [DIR CLI_COUNT]
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "driver_trace.hpp"
#include "ssac/oracle_spec.hpp"
#include "ssac/rng.hpp"
#include "ssac/rules.hpp"
#include "ssac/ssac.hpp"
#include "ssac/theory/bounds.hpp"
#include "ssac/trace.hpp"

namespace {

using driver::Instance;

// k blobs: with `separated`, centre t's first coordinate lies in [8000 t, 8000 t + 4000] (the
// others in [0, 4000]) and the offsets in [-spread, spread]; otherwise centres in [0, 10^4] and
// offsets in [-1000, 1000].
Instance make_instance(std::mt19937_64& rng, int k, int m, int n, bool separated = false,
                       int spread = 1000) {
  auto uniform = [&rng](int lo, int hi) {
    return lo + static_cast<int>(rng() % static_cast<std::uint64_t>(hi - lo + 1));
  };
  std::vector<std::vector<int>> centres(static_cast<std::size_t>(k), std::vector<int>(m));
  for (std::size_t t = 0; t < centres.size(); ++t)
    for (int c = 0; c < m; ++c)
      centres[t][static_cast<std::size_t>(c)] =
          separated ? uniform(0, 4000) + (c == 0 ? 8000 * static_cast<int>(t) : 0)
                    : uniform(0, 10000);
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
          centres[static_cast<std::size_t>(t)][static_cast<std::size_t>(c)] +
          uniform(-spread, spread);
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

// Definition 2 with mu_t the mean of C_t and gamma = a/b, exactly: for x in C_t and y not in it,
// gamma d(x, mu_t) < d(y, mu_t) iff a^2 K_t(x) < b^2 K_t(y), K_t(z) = |C_t|^2 d(z, mu_t)^2 =
// sum_c (|C_t| z_c - sum_{C_t} c)^2, an integer (coordinates below 2^15, |C_t| <= 32: K_t <
// 2^43, times a^2 <= 25 below 2^48).
bool margin_holds(const Instance& I, int k, long long a, long long b) {
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
    long long inside = 0, outside = -1;
    for (long r = 0; r < n; ++r) {
      const long long v = K(r);
      if (I.labels[static_cast<std::size_t>(r)] == t)
        inside = std::max(inside, v);
      else if (outside < 0 || v < outside)
        outside = v;
    }
    if (outside >= 0 && !(a * a * inside < b * b * outside)) return false;
  }
  return true;
}

// The certified ceilings of theory/ (`ssac bounds`), memoized: min(eta_random, eta_mcdiarmid) for
// (k, m, delta, gamma, q) and beta_union for (k, n, delta, q); q is the oracle's rate, the exact
// value of its double.
long long certified(const ssac::theory::Certified& c) {
  if (!c.ceil) {
    std::cerr << "coq_run_driver: a ceiling is not certified\n";
    std::exit(1);
  }
  return c.ceil->convert_to<long long>();
}

long long eta_ceiling(int k, int m, const std::string& delta, const std::string& gamma, double q) {
  static std::map<std::tuple<int, int, std::string, std::string, double>, long long> memo;
  const auto key = std::make_tuple(k, m, delta, gamma, q);
  const auto it = memo.find(key);
  if (it != memo.end()) return it->second;
  ssac::theory::Inputs in;
  in.k = k;
  in.m = m;
  in.n = 2;
  in.delta = ssac::theory::Decimal(delta);
  in.gamma = ssac::theory::Decimal(gamma);
  in.q = ssac::theory::Decimal(q);
  const long long eta = std::min(certified(ssac::theory::certified_eta_random(in)),
                                 certified(ssac::theory::certified_eta_mcdiarmid(in)));
  return memo[key] = eta;
}

long long beta_ceiling(int k, int n, const std::string& delta, double q) {
  static std::map<std::tuple<int, int, std::string, double>, long long> memo;
  const auto key = std::make_tuple(k, n, delta, q);
  const auto it = memo.find(key);
  if (it != memo.end()) return it->second;
  ssac::theory::Inputs in;
  in.k = k;
  in.m = 1;
  in.n = n;
  in.delta = ssac::theory::Decimal(delta);
  in.gamma = ssac::theory::Decimal("2");
  in.q = ssac::theory::Decimal(q);
  return memo[key] = certified(ssac::theory::certified_beta_union(in));
}

}  // namespace

// One run: made as `ssac cluster --trace` makes it, printed, and with a DIR also written for the
// CLI comparison.
void emit(std::string& out, long id, const Instance& I, const ssac::Params& P,
          const ssac::OracleSpec& spec, std::uint64_t seed, const std::string& tag,
          const std::string& dir, bool cli) {
  const bool plain = P.search == ssac::Search::plain;
  std::ostringstream args;
  args << "--k " << P.k << " --eta " << P.eta << " --beta " << P.beta << " --oracle random --q "
       << spec.q << " --seed " << seed
       << (plain ? " --algorithm original" : std::string(" --search ") + to_string(P.search))
       << " --rule anchor=" << to_string(P.rules.anchor)
       << " --rule self-pairs=" << (P.rules.self_pairs ? "on" : "off") << " --assignment "
       << ssac::assignment_name(P.elimination);
  const std::string trace = driver::traced_run(I, P, spec, seed, plain);

  out += "#run " + std::to_string(id) + " " + args.str() + "\n";
  if (!tag.empty()) out += "#theorem " + tag + "\n";
  driver::append_run(out, I, trace, args.str(), dir, id, cli);
}

// A run in Theorem 1's configuration. The instance: k = 1..4 separated blobs (offsets up to
// 200, 500 or 1000), m = 1..3. One run in 25 has r >> n: n = max(2, k)..10 and a gamma target of
// 1.5 or 2 (r up to 600); the others n = max(2, k)..k+9 (n >= 2: beta_union's log n) and a target
// of 5, 3 or 2 (weights 12, 6, 2; r up to 100). gamma is the largest of 5, 3, 2, 1.5 not above the
// target whose margin holds; q in {0.5, 0.7, 0.8, 0.9, 0.95}, delta in {0.05, 0.1, 0.2}. Drawn
// again while the margin fails for every gamma or r = k eta exceeds its cap.
void theorem_run(std::mt19937_64& rng, std::string& out, long id, std::uint64_t seed,
                 const std::string& dir, bool cli) {
  static const char* const gammas[] = {"1.5", "2", "3", "5"};
  static const long long gamma_num[] = {3, 2, 3, 5}, gamma_den[] = {2, 1, 1, 1};
  static const double qs[] = {0.5, 0.7, 0.8, 0.9, 0.95};
  static const char* const deltas[] = {"0.05", "0.1", "0.2"};
  static const int spreads[] = {200, 500, 1000};
  const bool many = rng() % 25 == 0;  // r >> n
  for (;;) {
    const int k = 1 + static_cast<int>(rng() % 4);
    const int m = 1 + static_cast<int>(rng() % 3);
    const int n =
        std::max(2, many ? k + static_cast<int>(rng() % static_cast<std::uint64_t>(11 - k))
                         : k + static_cast<int>(rng() % 10));
    const Instance I = make_instance(rng, k, m, n, true, spreads[rng() % 3]);
    const int w = static_cast<int>(rng() % 20);
    int g = many ? static_cast<int>(w % 2) : (w < 12 ? 3 : w < 18 ? 2 : 1);
    while (g >= 0 && !margin_holds(I, k, gamma_num[g], gamma_den[g]))
      --g;
    const double q = qs[rng() % 5];
    const std::string delta = deltas[rng() % 3];
    if (g < 0) continue;
    const long long eta = eta_ceiling(k, m, delta, gammas[g], q);
    if (k * eta > (many ? 600 : 100)) continue;
    ssac::Params P;
    P.k = k;
    P.eta = static_cast<double>(eta);
    P.beta = static_cast<int>(beta_ceiling(k, n, delta, q));
    P.search = ssac::Search::random;
    P.rules.anchor = ssac::AnchorRule::opener;
    P.rules.self_pairs = true;
    P.elimination = true;
    P.oracle_clusters = k;
    ssac::OracleSpec spec;
    spec.kind = ssac::OracleKind::random;
    spec.q = q;
    const std::string tag =
        delta + " " + gammas[g] + " " + std::to_string(eta) + " " + std::to_string(P.beta);
    emit(out, id, I, P, spec, seed, tag, dir, cli);
    return;
  }
}

int main(int argc, char** argv) {
  if (argc != 4 && argc != 6) {
    std::cerr << "usage: coq_run_driver MIXED THEOREM SEED [DIR CLI_COUNT]\n";
    return 2;
  }
  const long mixed = std::atol(argv[1]), theorem = std::atol(argv[2]);
  const std::uint64_t base = std::strtoull(argv[3], nullptr, 10);
  const std::string dir = argc == 6 ? argv[4] : "";
  const long cli_count = argc == 6 ? std::atol(argv[5]) : 0;
  std::mt19937_64 rng(base);
  const ssac::Search searches[] = {ssac::Search::random, ssac::Search::distance,
                                   ssac::Search::unified, ssac::Search::plain};
  const ssac::AnchorRule anchors[] = {
      ssac::AnchorRule::opener, ssac::AnchorRule::lowest_labelled_row,
      ssac::AnchorRule::random_labelled_row, ssac::AnchorRule::random_known_row};
  const double qs[] = {0.3, 0.5, 0.7, 0.9, 1.0};
  const double etas[] = {0.5, 1.0, 1.5, 2.0, 3.0};
  std::string out;
  for (long id = 0; id < mixed; ++id) {
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
    emit(out, id, I, P, spec, base + static_cast<std::uint64_t>(id), "", dir, id < cli_count);
  }
  for (long id = mixed; id < mixed + theorem; ++id)
    theorem_run(rng, out, id, base + static_cast<std::uint64_t>(id), dir, id < mixed + cli_count);
  std::cout << out;
  return 0;
}
