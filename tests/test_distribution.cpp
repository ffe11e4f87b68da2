// The distribution corpus (conformance/distribution/, `ssac conformance --distribution`) is what
// the program writes today, byte for byte, every instance's law sums to exactly 1; and the
// goodness-of-fit statistics of `ssac gof` (ssac/theory/gof.hpp) against values worked by hand;
// the reference's own runs fit every law.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <boost/multiprecision/cpp_int.hpp>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "ssac/data.hpp"
#include "ssac/error.hpp"
#include "ssac/oracle_spec.hpp"
#include "ssac/ssac.hpp"
#include "ssac/theory/gof.hpp"
#include "ssac/trace.hpp"

namespace fs = std::filesystem;
using namespace ssac::theory;

namespace {

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

TEST(DistributionCorpus, RegeneratingGivesTheCommittedBytes) {
  const fs::path out =
      fs::temp_directory_path() / ("ssac-distribution-" + std::to_string(::getpid()));
  fs::remove_all(out);
  const std::string cmd =
      std::string(SSAC_CLI) + " conformance --distribution --out " + out.string() + " >/dev/null";
  ASSERT_EQ(std::system(cmd.c_str()), 0);
  const fs::path committed_dir = fs::path(SSAC_CONFORMANCE_DIR) / "distribution";
  std::size_t files = 0, committed = 0;
  for (const auto& e : fs::directory_iterator(out)) {
    const fs::path c = committed_dir / e.path().filename();
    ASSERT_TRUE(fs::exists(c)) << c;
    EXPECT_EQ(slurp(e.path()), slurp(c)) << e.path().filename() << " differs";
    ++files;
  }
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(committed_dir))
    ++committed;
  EXPECT_EQ(files, committed);
  EXPECT_EQ(files, 9u);  // four instances (data and law) and the manifest
  fs::remove_all(out);
}

TEST(DistributionCorpus, ManifestHashesMatchAndEveryLawSumsToOne) {
  using json = nlohmann::ordered_json;
  using Rational = boost::multiprecision::cpp_rational;
  using Int = boost::multiprecision::cpp_int;
  const fs::path dir = fs::path(SSAC_CONFORMANCE_DIR) / "distribution";
  const json manifest = json::parse(slurp(dir / "manifest.json"));
  std::size_t laws = 0;
  for (const json& f : manifest["files"]) {
    const std::string name = f["file"], text = slurp(dir / name);
    EXPECT_EQ(ssac::sha256_hex(text), f["sha256"]) << name;
    EXPECT_EQ(text.size(), f["bytes"].get<std::size_t>()) << name;
    if (fs::path(name).extension() != ".json") continue;
    const json law = json::parse(text);
    Rational total = 0;
    for (const json& o : law["outcomes"]) {
      const std::string p = o["probability"];
      const auto slash = p.find('/');
      const Rational r(Int(p.substr(0, slash)), Int(p.substr(slash + 1)));
      EXPECT_GT(r, 0) << name << " " << o["outcome"];
      total += r;
    }
    EXPECT_EQ(total, 1) << name;
    EXPECT_EQ(law["outcomes"].size(), law["supportSize"].get<std::size_t>()) << name;
    ++laws;
  }
  EXPECT_EQ(laws, 4u);
}

// The reference's own runs (its random streams, seeds 0..N-1) fit every instance's law: the
// G-test of `ssac gof` (cells pooled to 5 expected) at the false-alarm rate 1e-6 per instance.
// Negative control: the random-weak instances' runs with q moved by 1/10 are rejected.
double reference_p_value(const fs::path& law_file, double q_shift) {
  using json = nlohmann::json;
  const json law = json::parse(slurp(law_file));
  const ssac::Dataset d = ssac::read_csv((law_file.parent_path() / law["data"]).string());
  ssac::Params P;
  P.k = law["params"]["k"];
  P.eta = law["params"]["eta"];
  P.beta = law["params"]["beta"];
  const std::string search = law["search"];
  P.search = search == "random" ? ssac::Search::random : ssac::Search::unified;
  P.oracle_clusters = d.num_labels();
  ssac::OracleSpec spec;
  spec.kind = *ssac::oracle_kind_from_string(law["oracle"]["model"].get<std::string>());
  if (spec.uses_q()) {
    const std::string q = law["oracle"]["q"];
    spec.q = std::stod(q.substr(0, q.find('/'))) / std::stod(q.substr(q.find('/') + 1)) + q_shift;
  }
  if (spec.uses_nu()) spec.nu = law["oracle"]["nu"];
  if (spec.uses_rho()) spec.rho = law["oracle"]["rho"];
  std::map<std::string, std::size_t> index;
  std::vector<double> p;
  for (const json& o : law["outcomes"]) {
    index[o["outcome"]] = p.size();
    const std::string f = o["probability"];
    p.push_back(std::stod(f.substr(0, f.find('/'))) / std::stod(f.substr(f.find('/') + 1)));
  }
  const std::uint64_t N = 4000;
  std::vector<std::uint64_t> counts(p.size(), 0);
  for (std::uint64_t seed = 0; seed < N; ++seed) {
    auto oracle =
        ssac::make_oracle(spec, d.points, d.labels, ssac::Rng::stream(seed, {ssac::kStreamOracle}));
    const ssac::Result R = ssac::run_ssac(d.points, *oracle, P, seed);
    std::string out;
    for (std::size_t i = 0; i < R.labels.size(); ++i)
      out += (i ? "," : "") + std::to_string(R.labels[i]);
    out += ";" + std::to_string(R.queries_phase1) + ";" + std::to_string(R.queries_phase2);
    const auto it = index.find(out);
    if (it == index.end()) return 0;  // an outcome of probability 0
    ++counts[it->second];
  }
  const auto [cell, cells] = pool_cells(p, N);
  std::vector<double> pc(cells, 0.0);
  std::vector<std::uint64_t> cc(cells, 0);
  for (std::size_t i = 0; i < p.size(); ++i) {
    pc[cell[i]] += p[i];
    cc[cell[i]] += counts[i];
  }
  return g_test(pc, cc).p_value;
}

TEST(DistributionCorpus, TheReferencesOwnRunsFitEveryLaw) {
  const fs::path dir = fs::path(SSAC_CONFORMANCE_DIR) / "distribution";
  std::size_t checked = 0;
  for (const auto& e : fs::directory_iterator(dir)) {
    if (e.path().extension() != ".json" || e.path().filename() == "manifest.json") continue;
    EXPECT_GE(reference_p_value(e.path(), 0.0), 1e-6) << e.path().filename();
    ++checked;
  }
  EXPECT_EQ(checked, 4u);
  // Negative control.
  EXPECT_LT(reference_p_value(dir / "random_weak_unified.json", 0.1), 1e-6);
  EXPECT_LT(reference_p_value(dir / "random_search_beta_above_zp.json", 0.1), 1e-6);
}

// `ssac exact --law` on an instance's data and parameters writes the corpus's law, outcome for
// outcome (only the descriptive fields differ), with the data named relative to the law; under the
// corpus's merging (ExactOptions::Merging::boundaries) also its number of re-executions.
TEST(DistributionCorpus, ExactLawWritesTheSameLaw) {
  using json = nlohmann::ordered_json;
  const fs::path dir = fs::path(SSAC_CONFORMANCE_DIR) / "distribution";
  const fs::path out =
      fs::temp_directory_path() / ("ssac-law-" + std::to_string(::getpid()) + ".json");
  const std::string cmd =
      std::string(SSAC_CLI) + " exact " + (dir / "local_weak_min_vs_max.csv").string() +
      " --k 2 --eta 1 --beta 2 --oracle local --nu 2.5 --rho 1 --merging boundaries --law " +
      out.string() + " >/dev/null";
  ASSERT_EQ(std::system(cmd.c_str()), 0);
  const json got = json::parse(slurp(out)),
             want = json::parse(slurp(dir / "local_weak_min_vs_max.json"));
  for (const char* key :
       {"format", "version", "n", "m", "fingerprint", "algorithm", "search", "params", "assignment",
        "oracle", "outcome", "supportSize", "branches", "outcomes"})
    EXPECT_EQ(got[key], want[key]) << key;
  EXPECT_EQ(fs::path(out.parent_path() / got["data"].get<std::string>()).lexically_normal(),
            fs::path(dir / "local_weak_min_vs_max.csv").lexically_normal());
  fs::remove(out);
}

// The states engine (`ssac exact --engine states`, docs/exact.md) writes every law of the corpus,
// which the paths engine wrote, outcome for outcome; only the number of re-executions differs.
TEST(DistributionCorpus, TheStatesEngineWritesTheSameLaws) {
  using json = nlohmann::ordered_json;
  const fs::path dir = fs::path(SSAC_CONFORMANCE_DIR) / "distribution";
  int checked = 0;
  for (const char* name : {"local_weak_min_vs_max", "phase1_repeats", "random_search_beta_above_zp",
                           "random_weak_unified"}) {
    const json want = json::parse(slurp(dir / (std::string(name) + ".json")));
    const json& p = want["params"];
    const json& o = want["oracle"];
    std::ostringstream cmd;
    cmd << SSAC_CLI << " exact " << (dir / (std::string(name) + ".csv")).string() << " --k "
        << p["k"].get<int>() << " --eta " << p["eta"].get<double>() << " --beta "
        << p["beta"].get<int>() << " --oracle " << o["model"].get<std::string>();
    if (want["algorithm"] == "weak")
      cmd << " --search " << want["search"].get<std::string>();
    else
      cmd << " --algorithm " << want["algorithm"].get<std::string>();
    for (const char* key : {"q", "nu", "rho", "memory"})
      if (o.contains(key))
        cmd << " --" << key << " "
            << (o[key].is_string() ? o[key].get<std::string>() : o[key].dump());
    ASSERT_FALSE(want.contains("semantics")) << name;  // none in the corpus today
    const fs::path out = fs::temp_directory_path() /
                         ("ssac-states-" + std::to_string(::getpid()) + "-" + name + ".json");
    cmd << " --engine states --top 0 --law " << out.string() << " >/dev/null";
    ASSERT_EQ(std::system(cmd.str().c_str()), 0) << cmd.str();
    const json got = json::parse(slurp(out));
    EXPECT_EQ(got["outcomes"], want["outcomes"]) << name;
    EXPECT_LT(got["branches"].get<long long>(), want["branches"].get<long long>()) << name;
    fs::remove(out);
    ++checked;
  }
  EXPECT_EQ(checked, 4);
}

// `ssac gof` on N runs of the reference (its own random streams, seeds first..first+N-1, the
// oracle's q shifted by q_shift) of the instance of a law that `ssac exact --law` wrote for the
// n = 6, k = 2, eta = 2 (r = 4), beta = 3, q = 7/10 random-weak instance of
// tests/data/six-generated.csv: the exit status of `ssac gof` (0 conforms, 4 does not).
int gof_of_reference_runs(std::uint64_t first, std::uint64_t N, double q_shift) {
  const fs::path dir = SSAC_TEST_DATA_DIR;
  const ssac::Dataset d = ssac::read_csv((dir / "six-generated.csv").string());
  ssac::Params P;
  P.k = 2;
  P.eta = 2;
  P.beta = 3;
  P.oracle_clusters = d.num_labels();
  ssac::OracleSpec spec;
  spec.kind = ssac::OracleKind::random;
  spec.q = 0.7 + q_shift;
  const fs::path observed =
      fs::temp_directory_path() / ("ssac-gof-" + std::to_string(::getpid()) + ".txt");
  {
    std::ofstream out(observed);
    for (std::uint64_t seed = first; seed < first + N; ++seed) {
      auto oracle = ssac::make_oracle(spec, d.points, d.labels,
                                      ssac::Rng::stream(seed, {ssac::kStreamOracle}));
      const ssac::Result R = ssac::run_ssac(d.points, *oracle, P, seed);
      for (std::size_t i = 0; i < R.labels.size(); ++i)
        out << (i ? "," : "") << R.labels[i];
      out << ';' << R.queries_phase1 << ';' << R.queries_phase2 << '\n';
    }
  }
  const std::string cmd = std::string(SSAC_CLI) + " gof --expected " +
                          (dir / "six-generated-eta2.json").string() + " --observed " +
                          observed.string();
  const int status = std::system(cmd.c_str());
  fs::remove(observed);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// The exact law of the n = 6, eta = 2 instance (`ssac exact`, Merging::future; 43 s of CPU, so it
// is committed, not recomputed here) fits 1000 runs of the reference at gof's false-alarm rate
// 1e-6, on three disjoint seed ranges; 1000 runs with q = 0.6 do not fit it (negative control).
TEST(DistributionCorpus, ExactLawOfTheSixPointEtaTwoInstanceFitsTheReference) {
  EXPECT_EQ(gof_of_reference_runs(1, 1000, 0.0), 0);
  EXPECT_EQ(gof_of_reference_runs(1000001, 1000, 0.0), 0);
  EXPECT_EQ(gof_of_reference_runs(2000001, 1000, 0.0), 0);
  EXPECT_EQ(gof_of_reference_runs(1, 1000, -0.1), 4);
}

TEST(Gof, MultinomialTablesCountTheCompositions) {
  EXPECT_EQ(multinomial_tables(4, 2), 5);     // (4,0) .. (0,4)
  EXPECT_EQ(multinomial_tables(2, 3), 6);     // C(4, 2)
  EXPECT_EQ(multinomial_tables(10, 4), 286);  // C(13, 3)
  EXPECT_EQ(multinomial_tables(1000, 1), 1);
  EXPECT_TRUE(std::isinf(multinomial_tables(100000, 1000)));
}

TEST(Gof, ExactMultinomialByHand) {
  // p = (1/2, 1/2), n = 4: P(4,0) = P(0,4) = 1/16, P(3,1) = P(1,3) = 4/16, P(2,2) = 6/16.
  EXPECT_NEAR(exact_multinomial_p({0.5, 0.5}, {4, 0}), 2.0 / 16, 1e-12);
  EXPECT_NEAR(exact_multinomial_p({0.5, 0.5}, {3, 1}), 10.0 / 16, 1e-12);
  EXPECT_NEAR(exact_multinomial_p({0.5, 0.5}, {2, 2}), 1.0, 1e-12);
  // p = (1/2, 1/4, 1/4), n = 2: P(2,0,0) = P(1,1,0) = P(1,0,1) = 1/4, P(0,1,1) = 1/8,
  // P(0,2,0) = P(0,0,2) = 1/16.
  EXPECT_NEAR(exact_multinomial_p({0.5, 0.25, 0.25}, {0, 2, 0}), 1.0 / 8, 1e-12);
  EXPECT_NEAR(exact_multinomial_p({0.5, 0.25, 0.25}, {0, 1, 1}), 1.0 / 4, 1e-12);
  EXPECT_NEAR(exact_multinomial_p({0.5, 0.25, 0.25}, {1, 1, 0}), 1.0, 1e-12);
  // Too many tables is refused, never approximated.
  EXPECT_THROW(exact_multinomial_p({0.5, 0.25, 0.25}, {1000, 1000, 1000}, 1e6),
               ssac::ParameterError);
}

TEST(Gof, GTestByHand) {
  // p = (1/2, 1/2), counts (60, 40): G = 2 (60 ln 1.2 + 40 ln 0.8) = 4.0271027; Williams'
  // q = 1 + 3 / 600 = 1.005; chi-square(1) tail at G / q = 4.0070674 is erfc(sqrt(G / 2q)).
  const GTest a = g_test({0.5, 0.5}, {60, 40});
  EXPECT_NEAR(a.g, 4.027102710137775, 1e-12);
  EXPECT_DOUBLE_EQ(a.williams, 1.005);
  EXPECT_EQ(a.df, 1);
  EXPECT_NEAR(a.p_value, std::erfc(std::sqrt(4.027102710137775 / 1.005 / 2)), 1e-14);
  EXPECT_NEAR(a.p_value, 0.0453099, 1e-7);
  // p = (1/2, 1/4, 1/4), counts (30, 40, 30): G = 2 (30 ln 0.6 + 40 ln 1.6 + 30 ln 1.2)
  // = 17.890046; q = 1 + 4 / 600; the chi-square(2) tail is exp(-x / 2).
  const GTest b = g_test({0.5, 0.25, 0.25}, {30, 40, 30});
  EXPECT_NEAR(b.g, 17.89004632133668, 1e-11);
  EXPECT_NEAR(b.p_value, std::exp(-17.89004632133668 / (1 + 4.0 / 600) / 2), 1e-15);
  EXPECT_NEAR(b.p_value, 1.38342e-4, 1e-9);
  // Counts exactly as expected: G = 0, p = 1.
  EXPECT_EQ(g_test({0.5, 0.25, 0.25}, {2, 1, 1}).p_value, 1.0);
}

TEST(Gof, PoolingKeepsEveryCellAtFiveExpected) {
  const std::vector<double> p = {0.5, 0.3, 0.1, 0.06, 0.04};
  // n = 100: expected 50, 30, 10, 6, 4; the 4 alone is below 5 and joins the smallest cell (6).
  auto [c1, k1] = pool_cells(p, 100);
  EXPECT_EQ(c1, (std::vector<std::size_t>{0, 1, 2, 3, 3}));
  EXPECT_EQ(k1, 4u);
  // n = 50: expected 25, 15, 5, 3, 2; 3 + 2 = 5 make a cell of their own.
  auto [c2, k2] = pool_cells(p, 50);
  EXPECT_EQ(c2, (std::vector<std::size_t>{0, 1, 2, 3, 3}));
  EXPECT_EQ(k2, 4u);
  // n = 20: expected 10, 6, 2, 1.2, 0.8; the pooled 4 joins the 6.
  auto [c3, k3] = pool_cells(p, 20);
  EXPECT_EQ(c3, (std::vector<std::size_t>{0, 1, 1, 1, 1}));
  EXPECT_EQ(k3, 2u);
}

TEST(Gof, ClopperPearsonByHand) {
  // 0 of 10 at 95 %: the upper end solves (1 - p)^10 = 0.025; 10 of 10 mirrors it.
  const auto [lo0, hi0] = clopper_pearson(0, 10, 0.05);
  EXPECT_EQ(lo0, 0.0);
  EXPECT_NEAR(hi0, 1 - std::pow(0.025, 0.1), 1e-12);
  const auto [lo1, hi1] = clopper_pearson(10, 10, 0.05);
  EXPECT_NEAR(lo1, std::pow(0.025, 0.1), 1e-12);
  EXPECT_EQ(hi1, 1.0);
  // 1 of 2 at 95 %: P(X >= 1 | p) = 1 - (1 - p)^2 = 0.025 gives the lower end.
  const auto [lo2, hi2] = clopper_pearson(1, 2, 0.05);
  EXPECT_NEAR(lo2, 1 - std::sqrt(0.975), 1e-12);
  EXPECT_NEAR(hi2, std::sqrt(0.975), 1e-12);
}
