// Phase 2 by selection (lib/src/algorithm/order.hpp) against the sorting reference: the order is
// one strict total order (distance, row) (S6), so finding its probed positions by selection must
// give the same decisions, queries, radii and labels as sorting all of S_i. Checked on every
// search, every simulated oracle, both rule profiles, ties and duplicate points, every run of the
// conformance corpus's cases over many seeds, and 10^5 random instances; only
// Result::comparisons may differ (and is smaller).
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "algorithm/order.hpp"
#include "ssac/generator.hpp"
#include "ssac/oracle_spec.hpp"
#include "ssac/rules.hpp"
#include "ssac/testing/negative_controls.hpp"
#include "ssac/testing/phase2_order.hpp"

namespace ssac {
namespace {

using testing::Phase2Order;

bool same(double a, double b) {
  return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b);
}
bool same(const Vector& a, const Vector& b) {
  if (a.size() != b.size()) return false;
  for (Eigen::Index i = 0; i < a.size(); ++i)
    if (!same(a[i], b[i])) return false;
  return true;
}

bool same(const SearchStep& a, const SearchStep& b) {
  return a.lo == b.lo && a.hi == b.hi && a.j == b.j && a.row == b.row && a.x1_asked == b.x1_asked &&
         a.x1_answer == b.x1_answer && a.z_asked == b.z_asked && a.z_answer == b.z_answer &&
         a.sample == b.sample && a.sample_answers == b.sample_answers && a.queries == b.queries &&
         a.decision == b.decision;
}

bool same(const Iteration& a, const Iteration& b) {
  if (a.steps.size() != b.steps.size()) return false;
  for (std::size_t s = 0; s < a.steps.size(); ++s)
    if (!same(a.steps[s], b.steps[s])) return false;
  return a.index == b.index && a.remaining == b.remaining && a.sample == b.sample &&
         a.assignment == b.assignment && a.p == b.p && a.zp_size == b.zp_size &&
         a.revisited == b.revisited && same(a.center, b.center) && a.x1 == b.x1 &&
         a.j_star == b.j_star && same(a.radius, b.radius) && a.assigned == b.assigned &&
         a.members == b.members && a.outcome == b.outcome;
}

// The first field in which two results differ ("" when none does); comparisons are not compared.
std::string difference(const Result& a, const Result& b) {
  if (a.labels != b.labels) return "labels";
  if (a.iterations.size() != b.iterations.size()) return "number of iterations";
  for (std::size_t i = 0; i < a.iterations.size(); ++i)
    if (!same(a.iterations[i], b.iterations[i])) return "iteration " + std::to_string(i + 1);
  if (a.queries.size() != b.queries.size()) return "number of queries";
  for (std::size_t q = 0; q < a.queries.size(); ++q) {
    const QueryRecord &x = a.queries[q], &y = b.queries[q];
    if (x.iteration != y.iteration || x.phase != y.phase || x.purpose != y.purpose || x.x != y.x ||
        x.y != y.y || x.answer != y.answer)
      return "query " + std::to_string(q + 1);
  }
  if (a.recovery_order != b.recovery_order) return "recovery_order";
  if (a.centers.size() != b.centers.size()) return "centers";
  for (const auto& [t, c] : a.centers)
    if (!b.centers.contains(t) || !same(c, b.centers.at(t))) return "centers";
  if (a.radii.size() != b.radii.size()) return "radii";
  for (const auto& [t, r] : a.radii)
    if (!b.radii.contains(t) || !same(r, b.radii.at(t))) return "radii";
  if (a.openers != b.openers) return "openers";
  if (a.queries_phase1 != b.queries_phase1 || a.queries_phase2 != b.queries_phase2)
    return "query counts";
  if (a.distance_evaluations != b.distance_evaluations) return "distance_evaluations";
  if (a.clusters_recovered != b.clusters_recovered || a.failed != b.failed) return "recovered";
  if (a.status != b.status) return "status";
  return "";
}

struct Case {
  const Matrix* X;
  const std::vector<int>* labels;
  Params P;
  OracleSpec oracle;
  std::uint64_t seed;
};

Result run(const Case& c, Phase2Order order) {
  const auto base = make_oracle(c.oracle, *c.X, *c.labels, Rng::stream(c.seed, {kStreamOracle}));
  // The original SSAC asks a yes/no oracle: a coin flip wherever the weak oracle abstains.
  AskedOracle asked(*base, c.P.search == Search::plain, Rng::stream(c.seed, {kStreamCoinFlip}));
  return testing::run_ssac_ordered(*c.X, asked.get(), c.P, c.seed, order);
}

// Runs the case both ways; the message names the case when they differ. Counts comparisons.
struct Tally {
  std::uint64_t runs = 0, sort = 0, select = 0;
};
void expect_same(const Case& c, Tally& tally) {
  const Result a = run(c, Phase2Order::sort), b = run(c, Phase2Order::select);
  const std::string d = difference(a, b);
  ASSERT_EQ(d, "") << "search " << to_string(c.P.search) << ", oracle " << c.oracle.describe()
                   << ", " << describe(Profile{c.P.rules, c.P.elimination}) << ", k " << c.P.k
                   << ", eta " << c.P.eta << ", beta " << c.P.beta << ", seed " << c.seed << ", n "
                   << c.X->rows();
  ++tally.runs;
  tally.sort += a.comparisons;
  tally.select += b.comparisons;
}

const std::vector<Search> kSearches{Search::random, Search::distance, Search::unified,
                                    Search::plain};
std::vector<OracleSpec> oracles() {
  OracleSpec perfect, random{OracleKind::random, 0.7}, local{OracleKind::local, 1.0, 1.5, 0.8},
      global{OracleKind::global, 1.0, 1.0, 0.8}, correlated{OracleKind::correlated, 0.7, 1.0, 0.5},
      remembering{OracleKind::random, 0.6};
  remembering.memory = OracleMemory::per_pair;
  return {perfect, random, local, global, correlated, remembering};
}
const std::vector<Profile> kProfiles{paper_profile(), authors_code_profile()};

Params params(int k, double eta, int beta, Search s, const Profile& profile) {
  Params P;
  P.k = k;
  P.eta = eta;
  P.beta = beta;
  P.search = s;
  P.rules = profile.rules;
  P.elimination = profile.elimination;
  return P;
}

// Points on a small integer grid, many of them repeated: distances to a mean tie often, so the
// row tie-break decides many positions.
Dataset grid(std::size_t n, std::size_t m, int k, int side, Rng& rng) {
  Dataset d;
  d.points = Matrix(static_cast<Eigen::Index>(n), static_cast<Eigen::Index>(m));
  for (std::size_t i = 0; i < n; ++i) {
    const int t = 1 + static_cast<int>(i % static_cast<std::size_t>(k));
    d.labels.push_back(t);
    for (std::size_t c = 0; c < m; ++c)
      d.points(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(c)) = static_cast<double>(
          8 * t + static_cast<int>(rng.uniform_index(static_cast<std::uint64_t>(side))));
  }
  return d;
}
Dataset grid(std::size_t n, std::size_t m, int k, int side, Rng&& rng) {
  return grid(n, m, k, side, rng);
}

TEST(Phase2Order, SelectionSettlesEveryPositionOfTheSortedOrder) {
  Rng rng = Rng::stream(11, {});
  for (int trial = 0; trial < 2000; ++trial) {
    const std::size_t n = 1 + rng.uniform_index(200);
    std::vector<detail::DistanceOrder::Entry> e;
    for (std::size_t x = 0; x < n; ++x)  // few distinct distances: ties everywhere
      e.emplace_back(static_cast<double>(rng.uniform_index(1 + n / 8)), (x * 7919) % 100003);
    std::vector<detail::DistanceOrder::Entry> sorted = e;
    std::sort(sorted.begin(), sorted.end());
    detail::DistanceOrder order(e, detail::OrderMethod::select);
    for (int probe = 0; probe < 12; ++probe) {
      const std::size_t j = rng.uniform_index(n + 1);
      if (j < n) {
        ASSERT_EQ(order.at(j), sorted[j]) << "n " << n << ", j " << j;
      }
      auto prefix = order.prefix(j);
      std::vector<detail::DistanceOrder::Entry> got(prefix.begin(), prefix.end());
      std::sort(got.begin(), got.end());
      ASSERT_TRUE(std::equal(got.begin(), got.end(), sorted.begin(), sorted.begin() + j));
    }
  }
}

// A long order is first distributed into buckets by the distances' leading bits (order.hpp); the
// positions must come out the same however the distances crowd the buckets: spread evenly, over
// hundreds of binades, all but one far below an outlier (one bucket holds nearly everything),
// all equal, or +0 beside a few positive ones.
TEST(Phase2Order, SelectionSettlesEveryPositionWhateverTheBucketsHold) {
  Rng rng = Rng::stream(13, {});
  for (int trial = 0; trial < 200; ++trial) {
    const std::size_t n = 64 + rng.uniform_index(3000);
    const int law = trial % 5;
    std::vector<detail::DistanceOrder::Entry> e;
    for (std::size_t x = 0; x < n; ++x) {
      const double u = rng.uniform01();
      const double d = law == 0   ? u
                       : law == 1 ? std::exp(600.0 * (u - 0.5))
                       : law == 2 ? (x == n / 2 ? 1e300 : u)
                       : law == 3 ? 2.5
                                  : (u < 0.9 ? 0.0 : u);
      e.emplace_back(d, (x * 7919) % 100003);
    }
    std::vector<detail::DistanceOrder::Entry> sorted = e;
    std::sort(sorted.begin(), sorted.end());
    detail::DistanceOrder order(e, detail::OrderMethod::select);
    // x_1 first, then a binary search's probes towards a random end, then random positions.
    ASSERT_EQ(order.at(0), sorted[0]) << "law " << law << ", n " << n;
    const std::size_t target = rng.uniform_index(n);
    for (std::size_t lo = 0, hi = n - 1; lo <= hi && hi < n;) {
      const std::size_t j = lo + (hi - lo) / 2;
      ASSERT_EQ(order.at(j), sorted[j]) << "law " << law << ", n " << n << ", j " << j;
      if (j < target)
        lo = j + 1;
      else if (j == 0)
        break;
      else
        hi = j - 1;
    }
    for (int probe = 0; probe < 8; ++probe) {
      const std::size_t j = rng.uniform_index(n);
      ASSERT_EQ(order.at(j), sorted[j]) << "law " << law << ", n " << n << ", j " << j;
    }
    const std::size_t j = rng.uniform_index(n + 1);
    std::vector<detail::DistanceOrder::Entry> got = order.prefix(j);
    std::sort(got.begin(), got.end());
    ASSERT_TRUE(std::equal(got.begin(), got.end(), sorted.begin(), sorted.begin() + j))
        << "law " << law << ", n " << n << ", j " << j;
  }
}

// The opposite tie rule (TieOrder::by_row_reversed, which a replay uses to find the traces that
// depend on S6): equal distances in decreasing row order, by selection as by sorting, and the
// order of distinct distances unchanged.
TEST(Phase2Order, ReversedTiesOrderEqualDistancesByDecreasingRow) {
  Rng rng = Rng::stream(12, {});
  std::size_t ties = 0;
  for (int trial = 0; trial < 500; ++trial) {
    const std::size_t n = 1 + rng.uniform_index(100);
    std::vector<detail::DistanceOrder::Entry> e;
    for (std::size_t x = 0; x < n; ++x)
      e.emplace_back(static_cast<double>(rng.uniform_index(1 + n / 8)), (x * 7919) % 100003);
    std::vector<detail::DistanceOrder::Entry> want = e;
    std::sort(want.begin(), want.end(), [](const auto& a, const auto& b) {
      return a.first != b.first ? a.first < b.first : a.second > b.second;
    });
    detail::DistanceOrder sorted(e, detail::OrderMethod::sort, detail::TieOrder::by_row_reversed);
    detail::DistanceOrder selected(e, detail::OrderMethod::select,
                                   detail::TieOrder::by_row_reversed);
    for (std::size_t j = 0; j < n; ++j) {
      ASSERT_EQ(sorted.at(j), want[j]) << "n " << n << ", j " << j;
      ASSERT_EQ(selected.at(j), want[j]) << "n " << n << ", j " << j;
      ties += j > 0 && want[j].first == want[j - 1].first;
    }
  }
  EXPECT_GT(ties, 1000u);  // the rule was exercised
}

TEST(Phase2Order, SameResultsForEverySearchOracleAndProfile) {
  GeneratorParams g;
  g.n = 300;
  const Generated gen = generate(g);
  const Dataset ties = grid(240, 2, 3, 4, Rng::stream(5, {}));
  Tally tally;
  for (const Dataset* d : {&gen.data, &ties})
    for (Search s : kSearches)
      for (const OracleSpec& o : oracles())
        for (const Profile& profile : kProfiles)
          for (std::uint64_t seed = 0; seed < 20; ++seed) {
            expect_same({&d->points, &d->labels, params(3, 5.0, 4, s, profile), o, seed}, tally);
            if (HasFatalFailure()) return;
          }
  EXPECT_EQ(tally.runs, 2u * 4 * 6 * 2 * 20);
  EXPECT_LT(tally.select, tally.sort);
}

TEST(Phase2Order, SameResultsOnTheConformanceCorpusCases) {
  using json = nlohmann::json;
  Tally tally;
  for (const auto& entry : std::filesystem::directory_iterator(SSAC_CONFORMANCE_DIR)) {
    // The trace corpus's files (conformance/distribution/ is the distribution corpus).
    if (!entry.is_regular_file() || entry.path().filename() == "manifest.json") continue;
    std::ifstream in(entry.path());
    const json file = json::parse(in);
    const Search s = file["search"] == "random"     ? Search::random
                     : file["search"] == "distance" ? Search::distance
                     : file["search"] == "unified"  ? Search::unified
                                                    : Search::plain;
    for (const json& g : file["testGroups"]) {
      Matrix X(g["n"].get<long>(), g["m"].get<long>());
      for (std::size_t i = 0; i < g["points"].size(); ++i)
        for (std::size_t c = 0; c < g["points"][i].size(); ++c)
          X(static_cast<long>(i), static_cast<long>(c)) = g["points"][i][c].get<double>();
      const std::vector<int> labels = g["labels"].get<std::vector<int>>();
      for (const json& t : g["tests"]) {
        if (t["result"] == "invalid") continue;
        OracleSpec o;
        o.kind = *oracle_kind_from_string(t["oracle"]["model"].get<std::string>());
        o.q = t["oracle"].value("q", 1.0);
        o.nu = t["oracle"].value("nu", 1.0);
        o.rho = t["oracle"].value("rho", 1.0);
        for (const Profile& profile : kProfiles) {
          Params P = params(t["params"]["k"], t["params"]["eta"], t["params"]["beta"], s, profile);
          if (t["params"]["assignment"] == "code") P.elimination = false;
          // The case's own seed and the 200 smallest: the corpus keeps the first seed that
          // exercises each case; the others run the same data and parameters.
          for (std::uint64_t seed = 0; seed <= 200; ++seed) {
            expect_same({&X, &labels, P, o, seed == 200 ? t["seed"].get<std::uint64_t>() : seed},
                        tally);
            if (HasFatalFailure()) return;
          }
        }
      }
    }
  }
  EXPECT_GE(tally.runs, 40u * 2 * 201);
}

TEST(Phase2Order, SameResultsOnOneHundredThousandRandomInstances) {
  Rng rng = Rng::stream(2024, {});
  const std::vector<OracleSpec> os = oracles();
  Tally tally;
  for (int i = 0; i < 100000; ++i) {
    const std::size_t n = 1 + rng.uniform_index(48);
    const int k = std::min<int>(1 + static_cast<int>(rng.uniform_index(5)), static_cast<int>(n));
    const std::size_t m = 1 + rng.uniform_index(3);
    Dataset d;
    if (rng.uniform_index(2) == 0) {
      d = grid(n, m, k, 1 + static_cast<int>(rng.uniform_index(6)), rng);
    } else {
      d = grid(n, m, k, 1, rng);
      for (Eigen::Index r = 0; r < d.points.rows(); ++r)
        for (Eigen::Index c = 0; c < d.points.cols(); ++c)
          d.points(r, c) += 3.0 * rng.uniform01();
    }
    const Search s = kSearches[rng.uniform_index(kSearches.size())];
    const Profile& profile = kProfiles[rng.uniform_index(kProfiles.size())];
    const double eta = 0.5 + static_cast<double>(rng.uniform_index(8));
    const int beta = 1 + static_cast<int>(rng.uniform_index(6));
    expect_same({&d.points, &d.labels, params(k, eta, beta, s, profile),
                 os[rng.uniform_index(os.size())], rng.uniform_index(1u << 30)},
                tally);
    if (HasFatalFailure()) return;
  }
  EXPECT_EQ(tally.runs, 100000u);
}

// run_ssac_into writes over a Result that held another run, reusing its storage (the experiment's
// fits, one after another): the result must be the fresh run's in every field. One Result takes
// 3000 random runs in turn, of 1 to 300 points and 1 to 5 clusters, so the run before held more
// or fewer iterations, steps, queries and centres. The negative control below shows that the
// comparison sees a change.
TEST(Phase2Order, RunIntoTheStorageOfAnotherRunGivesTheFreshRunsResult) {
  Rng rng = Rng::stream(77, {});
  const std::vector<OracleSpec> os = oracles();
  Result reused;
  for (int i = 0; i < 3000; ++i) {
    const std::size_t n = 1 + rng.uniform_index(rng.uniform_index(4) == 0 ? 300 : 40);
    const int k = std::min<int>(1 + static_cast<int>(rng.uniform_index(5)), static_cast<int>(n));
    Dataset d = grid(n, 2, k, 1, rng);
    for (Eigen::Index r = 0; r < d.points.rows(); ++r)
      for (Eigen::Index c = 0; c < d.points.cols(); ++c)
        d.points(r, c) += 3.0 * rng.uniform01();
    const Params P = params(k, 0.5 + static_cast<double>(rng.uniform_index(8)),
                            1 + static_cast<int>(rng.uniform_index(6)),
                            kSearches[rng.uniform_index(kSearches.size())],
                            kProfiles[rng.uniform_index(kProfiles.size())]);
    const OracleSpec& o = os[rng.uniform_index(os.size())];
    const std::uint64_t seed = rng.uniform_index(1u << 30);
    const auto fresh_base = make_oracle(o, d.points, d.labels, Rng::stream(seed, {kStreamOracle}));
    const auto reused_base = make_oracle(o, d.points, d.labels, Rng::stream(seed, {kStreamOracle}));
    AskedOracle fresh_oracle(*fresh_base, P.search == Search::plain,
                             Rng::stream(seed, {kStreamCoinFlip}));
    AskedOracle reused_oracle(*reused_base, P.search == Search::plain,
                              Rng::stream(seed, {kStreamCoinFlip}));
    const Result fresh = run_ssac(d.points, fresh_oracle.get(), P, seed);
    UniformChooser chooser(Rng::stream(seed, {kStreamAlgorithm}));
    run_ssac_into(reused, d.points, reused_oracle.get(), chooser, P);
    ASSERT_EQ(difference(fresh, reused), "") << "run " << i << ", n " << n << ", k " << k;
    ASSERT_EQ(fresh.comparisons, reused.comparisons) << "run " << i;
  }
}

// Negative control: the comparison sees a change of one position (j* + 1) or of x_1.
TEST(Phase2Order_Negative, ComparisonSeesAShiftedStopOrAnotherX1) {
  const Dataset d = grid(90, 2, 3, 5, Rng::stream(9, {}));
  for (testing::Fault f : {testing::Fault::off_by_one_search, testing::Fault::wrong_x1}) {
    bool seen = false;
    for (std::uint64_t seed = 0; seed < 20 && !seen; ++seed) {
      Params P = params(3, 5.0, 4, Search::unified, paper_profile());
      PerfectOracle o1(d.labels), o2(d.labels);
      const Result a = testing::run_ssac_ordered(d.points, o1, P, seed, Phase2Order::select);
      const Result b = testing::run_ssac_with_fault(d.points, o2, P, seed, f);
      seen = difference(a, b) != "";
    }
    EXPECT_TRUE(seen);
  }
}

}  // namespace
}  // namespace ssac
