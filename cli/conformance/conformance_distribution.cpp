// The distribution corpus (conformance_distribution.hpp). Each instance is a small labelled data
// set with parameters and an oracle, chosen so that a mistake in *how* an implementation draws
// (which replaying a trace cannot see) moves its outcome's law by much more than sampling noise at
// a few thousand runs; `catches` names the mistakes each is built for, and examples/python/
// ssac_distribution.py with tests/test_distribution.py shows that each is caught.
#include "conformance/conformance_distribution.hpp"

#include <nlohmann/json.hpp>

#include "ssac/data.hpp"
#include "ssac/error.hpp"
#include "ssac/exact.hpp"
#include "ssac/oracle_spec.hpp"
#include "ssac/ssac.hpp"
#include "ssac/trace.hpp"

namespace ssac::cli::distribution {

namespace {

using json = nlohmann::ordered_json;

struct Instance {
  std::string name, comment;
  std::vector<std::string> catches;
  std::vector<std::vector<double>> points;
  std::vector<int> labels;
  int k = 2;
  double eta = 1.0;
  int beta = 1;
  Search search = Search::unified;
  OracleSpec oracle;
  Rational q = 1;  // the random-weak oracle's q, exactly
};

OracleSpec random_weak() {
  OracleSpec o;
  o.kind = OracleKind::random;
  return o;
}

OracleSpec local(double nu, double rho) {
  OracleSpec o;
  o.kind = OracleKind::local;
  o.nu = nu;
  o.rho = rho;
  return o;
}

// The instances, in the corpus's order.
std::vector<Instance> instances() {
  std::vector<Instance> v;
  {
    Instance I;
    I.name = "random_weak_unified";
    I.comment =
        "Random-weak oracle (Definition 5, q = 1/2) with Algorithm 4: not-sure answers in Phase 1 "
        "and at every probe, where beta - 1 = 2 rows of Z_p are drawn and asked.";
    I.catches = {"abstention-rate", "index-draw", "B-without-replacement"};
    I.points = {{0}, {1}, {2}, {10}, {11}};
    I.labels = {1, 1, 1, 2, 2};
    I.k = 2;
    I.eta = 1.0;
    I.beta = 3;
    I.search = Search::unified;
    I.oracle = random_weak();
    I.q = Rational(1, 2);
    v.push_back(I);
  }
  {
    Instance I;
    I.name = "random_search_beta_above_zp";
    I.comment =
        "Algorithm 2 with beta = 3 while |Z_p| <= r = 2 (beta > |Z_p| at every probe, semantics "
        "S5: B is drawn with replacement); random-weak oracle q = 3/5.";
    I.catches = {"B-without-replacement", "abstention-rate", "index-draw"};
    I.points = {{0}, {1}, {2}, {9}, {10}};
    I.labels = {1, 1, 1, 2, 2};
    I.k = 2;
    I.eta = 1.0;
    I.beta = 3;
    I.search = Search::random;
    I.oracle = random_weak();
    I.q = Rational(3, 5);
    v.push_back(I);
  }
  {
    Instance I;
    I.name = "phase1_repeats";
    I.comment =
        "Perfect oracle, r = ceil(k eta) = 4 draws from S_i of at most 5 rows: repeated rows are "
        "likely in iteration 1 and certain in iteration 2 (semantics S1: with replacement, r not "
        "capped at |S_i|).";
    I.catches = {"phase1-without-replacement", "index-draw"};
    I.points = {{0}, {1}, {2}, {10}, {11}};
    I.labels = {1, 1, 1, 2, 2};
    I.k = 2;
    I.eta = 2.0;
    I.beta = 1;
    I.search = Search::unified;
    v.push_back(I);
  }
  {
    Instance I;
    I.name = "local_weak_min_vs_max";
    I.comment =
        "Local distance-weak oracle (Definition 6, nu = 2.5, rho = 1): d(2, 6) = 4 lies between "
        "(nu - 1) min{d(x, mu_i), d(y, mu_j)} = 1.5 and (nu - 1) max{...} = 6, so Q(2, 6) is "
        "answered (no) under the min of condition (a) and would be not-sure under a max.";
    I.catches = {"definition6-max", "index-draw"};
    I.points = {{0}, {2}, {6}, {8}, {16}};
    I.labels = {1, 1, 2, 2, 2};
    I.k = 2;
    I.eta = 1.0;
    I.beta = 2;
    I.search = Search::unified;
    I.oracle = local(2.5, 1.0);
    v.push_back(I);
  }
  return v;
}

std::string csv_of(const Instance& I) {
  std::string s;
  const std::size_t m = I.points.front().size();
  for (std::size_t c = 0; c < m; ++c)
    s += (m == 1 ? std::string("x") : "x" + std::to_string(c + 1)) + ",";
  s += "label\n";
  for (std::size_t r = 0; r < I.points.size(); ++r) {
    for (double x : I.points[r])
      s += format_double(x) + ",";
    s += std::to_string(I.labels[r]) + "\n";
  }
  return s;
}

json oracle_json(const Instance& I) {
  json j;
  j["model"] = to_string(I.oracle.kind);
  if (I.oracle.uses_q()) j["q"] = fraction_string(I.q);
  if (I.oracle.uses_nu()) j["nu"] = I.oracle.nu;
  if (I.oracle.uses_rho()) j["rho"] = I.oracle.rho;
  return j;
}

std::string instance_json(const Instance& I, const std::string& csv_name) {
  Matrix X(static_cast<Eigen::Index>(I.points.size()),
           static_cast<Eigen::Index>(I.points.front().size()));
  for (std::size_t r = 0; r < I.points.size(); ++r)
    for (std::size_t c = 0; c < I.points[r].size(); ++c)
      X(static_cast<Eigen::Index>(r), static_cast<Eigen::Index>(c)) = I.points[r][c];
  Params P;
  P.k = I.k;
  P.eta = I.eta;
  P.beta = I.beta;
  P.search = I.search;
  P.oracle_clusters = *std::max_element(I.labels.begin(), I.labels.end());
  ExactOracle eo;
  eo.spec = I.oracle;
  eo.spec.q = I.q.convert_to<double>();
  eo.q = I.q;
  ExactOptions opt;
  opt.joint_queries = true;
  // The files record the number of re-executions, which depends on where branches merge: the
  // corpus keeps the merging it was written with (the law is the same under either).
  opt.engine = ExactOptions::Engine::paths;
  opt.merging = ExactOptions::Merging::boundaries;
  const ExactResult r = exact_distribution(X, I.labels, eo, P, opt);
  if (r.total != 1) throw std::logic_error("distribution corpus: probabilities do not sum to 1");

  json j;
  j["format"] = "ssac-distribution";
  j["version"] = 1;
  j["instance"] = I.name;
  j["comment"] = I.comment;
  j["catches"] = I.catches;
  j["data"] = csv_name;
  j["n"] = I.points.size();
  j["m"] = I.points.front().size();
  j["fingerprint"] = points_fingerprint(X);
  j["algorithm"] = to_string(Algorithm::weak);
  j["search"] = to_string(I.search);
  j["params"] = {{"k", I.k}, {"eta", I.eta}, {"beta", I.beta}, {"r", P.sample_size()}};
  j["assignment"] = assignment_name(true);
  j["oracle"] = oracle_json(I);
  return law_text(std::move(j), r);
}

}  // namespace

std::string law_text(nlohmann::ordered_json j, const ExactResult& r) {
  j["outcome"] =
      "the final labels (0 unassigned) joined by ',', then ';' and the number of queries asked in "
      "Phase 1, then ';' and the number asked in Phase 2 (self-pairs are queries like any other, "
      "S4)";
  j["supportSize"] = r.joint.size();
  j["branches"] = r.branches;
  // The outcomes one per line, so that a diff of two corpora shows the outcomes that changed.
  j["outcomes"] = json::array();
  std::string text = j.dump(2);
  const std::string empty = "\"outcomes\": []";
  std::string lines = "\"outcomes\": [\n";
  for (std::size_t i = 0; i < r.joint.size(); ++i) {
    const ExactOutcome& o = r.joint[i];
    json e;
    e["outcome"] = outcome_text(o.labels, o.queries_phase1, o.queries_phase2);
    e["probability"] = fraction_string(o.probability);
    e["decimal"] = decimal_string(o.probability, 12);
    lines += "    " + e.dump() + (i + 1 < r.joint.size() ? ",\n" : "\n");
  }
  lines += "  ]";
  text.replace(text.rfind(empty), empty.size(), lines);
  return text + "\n";
}

std::string outcome_text(const std::vector<int>& labels, unsigned long long queries_phase1,
                         unsigned long long queries_phase2) {
  std::string s;
  for (std::size_t i = 0; i < labels.size(); ++i)
    s += (i ? "," : "") + std::to_string(labels[i]);
  return s + ";" + std::to_string(queries_phase1) + ";" + std::to_string(queries_phase2);
}

std::vector<std::pair<std::string, std::string>> corpus_files() {
  std::vector<std::pair<std::string, std::string>> files;
  json entries = json::array();
  for (const Instance& I : instances()) {
    const std::string csv = I.name + ".csv";
    files.emplace_back(csv, csv_of(I));
    files.emplace_back(I.name + ".json", instance_json(I, csv));
  }
  for (const auto& [name, text] : files)
    entries.push_back({{"file", name}, {"bytes", text.size()}, {"sha256", sha256_hex(text)}});
  json manifest;
  manifest["format"] = "ssac-distribution-manifest";
  manifest["version"] = 1;
  manifest["hash"] = "sha256";
  manifest["files"] = entries;
  files.emplace_back("manifest.json", manifest.dump(2) + "\n");
  return files;
}

}  // namespace ssac::cli::distribution
