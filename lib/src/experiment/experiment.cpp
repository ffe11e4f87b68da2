#include "ssac/experiment.hpp"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <thread>
#include <tuple>

#include "ssac/error.hpp"
#include "ssac/oracle.hpp"
#include "ssac/ranges.hpp"
#include "ssac/rng.hpp"

namespace ssac {

// The experiment sweeps the simulated oracles with parameters; perfect is random with q = 1.
static OracleKind oracle_from_string(const std::string& s, const std::string& where) {
  const auto o = oracle_kind_from_string(s);
  if (o == OracleKind::random || o == OracleKind::local || o == OracleKind::global) return *o;
  throw DataError(where + ": unknown oracle '" + s + "'");
}

static Search search_from_string(const std::string& s, const std::string& where) {
  for (Search x : {Search::random, Search::distance, Search::unified, Search::plain})
    if (s == to_string(x)) return x;
  throw DataError(where + ": unknown search '" + s + "'");
}

const std::vector<std::string>& preset_names() {
  static const std::vector<std::string> names = {"paper-main", "paper-highdim", "paper-nonsep"};
  return names;
}

ExperimentConfig preset_config(const std::string& name) {
  // Section 5.1 and the appendix's "Additional Results": n = 1500, m = 2, k = 3, sigma = 1.75,
  // beta = 10, q in {0.7, 0.85, 1}, eta in {2, 5, 10, 20, 50}, N_rep = 5000.
  ExperimentConfig c;
  c.preset = name;
  if (name == "paper-main") {
    // Section 5.3: the separable case with a narrow margin, 1.0 < gamma <= 1.1.
  } else if (name == "paper-highdim") {
    // Appendix, "Higher Dimension": n = 3000, m = 10, same window.
    c.gen.n = 3000;
    c.gen.m = 10;
  } else if (name == "paper-nonsep") {
    // Section 5.3 and appendix, "Non-separable": 0.6 < gamma <= 1.0.
    c.gen.gamma_min = 0.6;
    c.gen.gamma_max = 1.0;
  } else {
    std::string all;
    for (const auto& n : preset_names())
      all += (all.empty() ? "" : ", ") + n;
    throw ParameterError("preset = '" + name + "' is not one of " + all);
  }
  return c;
}

void ExperimentConfig::check() const {
  gen.check();
  if (reps < 1 || reps > 1000000000)
    throw_out_of_range("reps", static_cast<long long>(reps), "[1, 1e9]");
  if (rep_first > (std::uint64_t{1} << 62))
    throw_out_of_range("reps-range start", static_cast<long long>(rep_first), "[0, 2^62]");
  if (oracles.empty()) throw ParameterError("oracle: the list is empty; give at least one");
  if (!weak && !original) throw ParameterError("algorithm: the list is empty; give at least one");
  if (eta.empty()) throw ParameterError("eta: the list is empty; give at least one value");
  const bool has = [&] {
    return std::find(oracles.begin(), oracles.end(), OracleKind::random) != oracles.end();
  }();
  if (has && q.empty()) throw ParameterError("q: the list is empty; give at least one value");
  const bool dist = std::find(oracles.begin(), oracles.end(), OracleKind::local) != oracles.end();
  const bool glob = std::find(oracles.begin(), oracles.end(), OracleKind::global) != oracles.end();
  if (dist && nu.empty()) throw ParameterError("nu: the list is empty; give at least one value");
  if ((dist || glob) && rho.empty())
    throw ParameterError("rho: the list is empty; give at least one value");
  for (double x : q)
    range::check_q(x);
  for (double x : nu)
    range::check_nu(x);
  for (double x : rho)
    range::check_rho(x);
  for (double e : eta) {
    Params P;
    P.k = gen.k;
    P.eta = e;
    P.beta = beta;
    P.check(gen.n);
  }
}

std::string CellSpec::row_label() const {
  if (oracle == OracleKind::random) return "q=" + format_double(q);
  if (oracle == OracleKind::local) return "nu=" + format_double(nu) + " rho=" + format_double(rho);
  return "rho=" + format_double(rho);
}

// The rows of one block: the oracle's parameter settings.
static std::vector<CellSpec> block_rows(const ExperimentConfig& c, OracleKind o, bool original) {
  std::vector<CellSpec> rows;
  CellSpec s;
  s.oracle = o;
  s.original = original;
  if (o == OracleKind::random) {
    for (double q : c.q) {
      s.q = q;
      rows.push_back(s);
    }
  } else if (o == OracleKind::local) {
    for (double nu : c.nu)
      for (double rho : c.rho) {
        s.nu = nu;
        s.rho = rho;
        rows.push_back(s);
      }
  } else {
    for (double rho : c.rho) {
      s.rho = rho;
      rows.push_back(s);
    }
  }
  return rows;
}

struct Block {
  OracleKind oracle;
  bool original;
};
static std::vector<Block> blocks(const ExperimentConfig& c) {
  std::vector<Block> b;
  for (OracleKind o : c.oracles) {
    if (c.weak) b.push_back({o, false});
    if (c.original) b.push_back({o, true});
  }
  return b;
}

std::vector<CellSpec> experiment_cells(const ExperimentConfig& c) {
  std::vector<CellSpec> cells;
  for (const Block& b : blocks(c))
    for (CellSpec row : block_rows(c, b.oracle, b.original))
      for (double e : c.eta) {
        row.eta = e;
        cells.push_back(row);
      }
  return cells;
}

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
      rseed, {purpose, static_cast<std::uint64_t>(s.oracle), static_cast<std::uint64_t>(s.original),
              std::bit_cast<std::uint64_t>(s.q), std::bit_cast<std::uint64_t>(s.nu),
              std::bit_cast<std::uint64_t>(s.rho), std::bit_cast<std::uint64_t>(s.eta)});
}

CellRun run_cell(const ExperimentConfig& c, const CellSpec& cell, std::uint64_t rseed,
                 const Dataset& data, const ClusterStats& truth, Oracle* distance_oracle) {
  Params P;
  P.k = c.gen.k;
  P.eta = cell.eta;
  P.beta = c.beta;
  // The original SSAC of Ashtiani et al.: the plain binary search, and a yes/no oracle -- a fair
  // coin wherever the weak oracle would abstain (as `ssac cluster --algorithm original`).
  P.search = cell.original ? Search::plain : c.search;
  P.elimination = c.elimination;
  std::unique_ptr<Oracle> random;
  Oracle* base = distance_oracle;
  if (cell.oracle == OracleKind::random) {
    random = make_oracle(cell.oracle_spec(), data.points, data.labels,
                         cell_stream(rseed, kStreamOracle, cell));
    base = random.get();
  }
  if (base == nullptr) throw ParameterError("run_cell: a distance-weak cell needs its oracle");
  AskedOracle oracle(*base, cell.original, cell_stream(rseed, kStreamCoinFlip, cell));
  UniformChooser chooser(cell_stream(rseed, kStreamAlgorithm, cell));
  CellRun out;
  out.result = run_ssac(data.points, oracle.get(), chooser, P);
  out.evaluation = evaluate(truth, data.labels, out.result);
  return out;
}

static CellTotals totals_of(const CellRun& run, const Dataset& data) {
  CellTotals t;
  const auto& map = run.evaluation.greedy_map;
  for (std::size_t x = 0; x < data.n(); ++x) {
    const int l = run.result.labels[x];
    if (l != 0 && map[static_cast<std::size_t>(l)] == data.labels[x]) ++t.correct;
  }
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
    if (s.oracle == OracleKind::random) return nullptr;
    auto key = std::make_tuple(static_cast<int>(s.oracle), s.nu, s.rho);
    auto it = map_.find(key);
    if (it != map_.end()) return it->second.get();
    // A distance-weak oracle draws no random numbers; the stream passed is never used.
    auto o = make_oracle(s.oracle_spec(), data_.points, data_.labels, Rng(0));
    Oracle* p = o.get();
    map_.emplace(key, std::move(o));
    return p;
  }

 private:
  const Dataset& data_;
  std::map<std::tuple<int, double, double>, std::unique_ptr<Oracle>> map_;
};

static Generated generate_rep(const ExperimentConfig& c, std::uint64_t rseed) {
  GeneratorParams g = c.gen;
  g.seed = rseed;
  return generate(g);
}

RepResult run_rep(const ExperimentConfig& c, const std::vector<CellSpec>& cells, std::uint64_t rep,
                  RepTiming* timing) {
  using clock = std::chrono::steady_clock;
  const std::uint64_t rseed = rep_seed(c.seed, rep);
  const auto t0 = clock::now();
  const Generated g = generate_rep(c, rseed);
  const auto t1 = clock::now();
  RepResult out;
  out.gamma = g.gamma;
  out.draws = g.draws;
  DistanceOracles oracles(g.data);
  const ClusterStats truth = cluster_stats(g.data.points, g.data.labels);
  for (const CellSpec& s : cells)
    out.cells.push_back(totals_of(run_cell(c, s, rseed, g.data, truth, oracles.get(s)), g.data));
  if (timing) {
    timing->generation += std::chrono::duration<double>(t1 - t0).count();
    timing->fits += std::chrono::duration<double>(clock::now() - t1).count();
  }
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
  std::exception_ptr error;
  const auto start = std::chrono::steady_clock::now();
  auto worker = [&] {
    std::vector<CellTotals> local(R.cells.size());
    RepTiming timing;
    try {
      for (;;) {
        if (stop.load()) break;
        const std::uint64_t i = next.fetch_add(1);
        if (i >= c.reps) break;
        const RepResult rr = run_rep(c, R.cells, c.rep_first + i, &timing);
        R.gamma[i] = rr.gamma;  // each index is written by exactly one thread
        R.draws[i] = rr.draws;
        for (std::size_t j = 0; j < local.size(); ++j)
          local[j].add(rr.cells[j]);
        done.fetch_add(1);
      }
    } catch (...) {
      std::lock_guard<std::mutex> lock(mu);
      if (!error) error = std::current_exception();
      stop.store(true);
    }
    // Integer totals: the order in which threads add them does not matter.
    std::lock_guard<std::mutex> lock(mu);
    for (std::size_t j = 0; j < local.size(); ++j)
      R.totals[j].add(local[j]);
    R.generation_seconds += timing.generation;
    R.fit_seconds += timing.fits;
  };
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads; ++t)
    pool.emplace_back(worker);
  if (progress) {
    while (done.load() < c.reps && !stop.load()) {
      progress(done.load());
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
  }
  for (auto& t : pool)
    t.join();
  if (error) std::rethrow_exception(error);
  if (progress) progress(done.load());
  R.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return R;
}

// ---------------------------------------------------------------------------------------------
// summary.json

using ojson = nlohmann::ordered_json;

static ojson config_json(const ExperimentConfig& c) {
  ojson j;
  j["preset"] = c.preset;
  j["reps"] = c.reps;
  j["seed"] = c.seed;
  j["n"] = c.gen.n;
  j["m"] = c.gen.m;
  j["k"] = c.gen.k;
  j["sigma"] = c.gen.sigma;
  j["gamma_min"] = c.gen.gamma_min;
  // JSON has no infinity: an open window is written as null.
  j["gamma_max"] = std::isinf(c.gen.gamma_max) ? ojson(nullptr) : ojson(c.gen.gamma_max);
  j["rep_first"] = c.rep_first;
  j["box"] = c.gen.box;
  j["max_draws"] = c.gen.max_draws;
  j["beta"] = c.beta;
  j["search"] = to_string(c.search);
  j["assignment"] = c.elimination ? "paper" : "code";
  std::vector<std::string> oracles, algorithms;
  for (OracleKind o : c.oracles)
    oracles.push_back(to_string(o));
  if (c.weak) algorithms.push_back("weak");
  if (c.original) algorithms.push_back("original");
  j["oracles"] = oracles;
  j["algorithms"] = algorithms;
  j["q"] = c.q;
  j["nu"] = c.nu;
  j["rho"] = c.rho;
  j["eta"] = c.eta;
  return j;
}

std::string summary_json(const ExperimentResult& r) {
  const ExperimentConfig& c = r.config;
  ojson j = config_json(c);
  double gsum = 0.0, gmin = std::numeric_limits<double>::infinity(), gmax = -gmin;
  std::uint64_t dsum = 0;
  for (std::size_t i = 0; i < r.gamma.size(); ++i) {  // in rep order: a fixed summation order
    gsum += r.gamma[i];
    gmin = std::min(gmin, r.gamma[i]);
    gmax = std::max(gmax, r.gamma[i]);
    dsum += r.draws[i];
  }
  const double reps = static_cast<double>(c.reps);
  auto finite_or_null = [](double x) { return std::isfinite(x) ? ojson(x) : ojson(nullptr); };
  j["gamma_mean"] = finite_or_null(gsum / reps);
  j["gamma_observed_min"] = finite_or_null(gmin);
  j["gamma_observed_max"] = finite_or_null(gmax);
  j["draws_total"] = dsum;
  j["draws_per_dataset"] = static_cast<double>(dsum) / reps;
  ojson cells = ojson::array();
  const double points = static_cast<double>(c.gen.n) * reps;
  for (std::size_t i = 0; i < r.cells.size(); ++i) {
    const CellSpec& s = r.cells[i];
    const CellTotals& t = r.totals[i];
    ojson e;
    e["oracle"] = to_string(s.oracle);
    e["algorithm"] = s.original ? "original" : "weak";
    if (s.oracle == OracleKind::random) e["q"] = s.q;
    if (s.oracle == OracleKind::local) e["nu"] = s.nu;
    if (s.oracle != OracleKind::random) e["rho"] = s.rho;
    e["eta"] = s.eta;
    e["beta"] = c.beta;
    e["search"] = to_string(s.original ? Search::plain : c.search);
    // Section 5.2: Accuracy = (1/N_rep) sum_i sum_j I(z_j = zhat_j) / n, in percent.
    e["accuracy_pct"] = 100.0 * static_cast<double>(t.correct) / points;
    e["optimal_accuracy_pct"] = 100.0 * static_cast<double>(t.optimal_correct) / points;
    e["failures"] = t.failures;  // #Failure = sum_i I(fail)
    e["binary_search_failures"] = t.search_failures;
    e["mean_queries_phase1"] = static_cast<double>(t.queries_phase1) / reps;
    e["mean_queries_phase2"] = static_cast<double>(t.queries_phase2) / reps;
    e["correct_points"] = t.correct;
    e["optimal_correct_points"] = t.optimal_correct;
    e["queries_phase1"] = t.queries_phase1;
    e["queries_phase2"] = t.queries_phase2;
    cells.push_back(e);
  }
  j["cells"] = cells;
  return j.dump(2) + "\n";
}

std::string gamma_csv(const ExperimentResult& r) {
  std::string s = "rep,gamma,draws\n";
  for (std::size_t i = 0; i < r.gamma.size(); ++i)
    s += std::to_string(r.config.rep_first + i) + "," + format_double(r.gamma[i]) + "," +
         std::to_string(r.draws[i]) + "\n";
  return s;
}

static std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw DataError(path + ": cannot open for reading");
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

static std::string line_col(const std::string& text, std::size_t byte) {
  std::size_t line = 1, col = 1;
  for (std::size_t i = 0; i + 1 < byte && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      col = 1;
    } else {
      ++col;
    }
  }
  return std::to_string(line) + ":" + std::to_string(col);
}

ExperimentResult read_experiment(const std::string& dir) {
  const std::string path = (std::filesystem::path(dir) / "summary.json").string();
  const std::string text = read_text(path);
  ojson j;
  try {
    j = ojson::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    throw DataError(path + ":" + line_col(text, e.byte) + ": not valid JSON");
  }
  ExperimentResult R;
  ExperimentConfig& c = R.config;
  try {
    c.preset = j.at("preset").get<std::string>();
    c.reps = j.at("reps").get<std::uint64_t>();
    c.seed = j.at("seed").get<std::uint64_t>();
    c.gen.n = j.at("n").get<std::size_t>();
    c.gen.m = j.at("m").get<std::size_t>();
    c.gen.k = j.at("k").get<int>();
    c.gen.sigma = j.at("sigma").get<double>();
    c.gen.gamma_min = j.at("gamma_min").get<double>();
    c.gen.gamma_max = j.at("gamma_max").is_null() ? std::numeric_limits<double>::infinity()
                                                  : j.at("gamma_max").get<double>();
    c.rep_first = j.at("rep_first").get<std::uint64_t>();
    c.gen.box = j.at("box").get<double>();
    c.gen.max_draws = j.at("max_draws").get<std::uint64_t>();
    c.beta = j.at("beta").get<int>();
    c.search = search_from_string(j.at("search").get<std::string>(), path);
    c.elimination = j.at("assignment").get<std::string>() == "paper";
    c.oracles.clear();
    for (const auto& o : j.at("oracles"))
      c.oracles.push_back(oracle_from_string(o.get<std::string>(), path));
    const auto algs = j.at("algorithms").get<std::vector<std::string>>();
    c.weak = std::find(algs.begin(), algs.end(), "weak") != algs.end();
    c.original = std::find(algs.begin(), algs.end(), "original") != algs.end();
    c.q = j.at("q").get<std::vector<double>>();
    c.nu = j.at("nu").get<std::vector<double>>();
    c.rho = j.at("rho").get<std::vector<double>>();
    c.eta = j.at("eta").get<std::vector<double>>();
    R.cells = experiment_cells(c);
    const auto& cells = j.at("cells");
    if (cells.size() != R.cells.size())
      throw DataError(path + ": " + std::to_string(cells.size()) +
                      " cells, but its configuration " + "defines " +
                      std::to_string(R.cells.size()));
    for (std::size_t i = 0; i < cells.size(); ++i) {
      const auto& e = cells[i];
      const CellSpec& s = R.cells[i];
      if (e.at("oracle").get<std::string>() != to_string(s.oracle) ||
          e.at("algorithm").get<std::string>() != (s.original ? "original" : "weak") ||
          e.at("eta").get<double>() != s.eta)
        throw DataError(path + ": cell " + std::to_string(i + 1) + " does not match the " +
                        "configuration (expected " + to_string(s.oracle) + " " + s.row_label() +
                        " eta=" + format_double(s.eta) + ")");
      CellTotals t;
      t.correct = e.at("correct_points").get<std::uint64_t>();
      t.optimal_correct = e.at("optimal_correct_points").get<std::uint64_t>();
      t.failures = e.at("failures").get<std::uint64_t>();
      t.search_failures = e.at("binary_search_failures").get<std::uint64_t>();
      t.queries_phase1 = e.at("queries_phase1").get<std::uint64_t>();
      t.queries_phase2 = e.at("queries_phase2").get<std::uint64_t>();
      R.totals.push_back(t);
    }
  } catch (const nlohmann::json::exception& e) {
    throw DataError(path + ": missing or malformed field (" + std::string(e.what()) + ")");
  }
  try {
    c.check();
  } catch (const ParameterError& e) {
    throw DataError(path + ": " + e.what());
  }

  const std::string gpath = (std::filesystem::path(dir) / "gamma.csv").string();
  const std::string gtext = read_text(gpath);
  std::istringstream in(gtext);
  std::string line;
  std::size_t lineno = 0;
  while (std::getline(in, line)) {
    ++lineno;
    if (lineno == 1) {
      if (line != "rep,gamma,draws") throw DataError(gpath + ":1:1: expected 'rep,gamma,draws'");
      continue;
    }
    const std::size_t a = line.find(','), b = line.find(',', a == line.npos ? a : a + 1);
    std::uint64_t rep = 0, draws = 0;
    double gamma = 0.0;
    const char* s = line.data();
    const char* e = s + line.size();
    bool ok = a != line.npos && b != line.npos;
    ok = ok && std::from_chars(s, s + a, rep).ptr == s + a;
    ok = ok && std::from_chars(s + a + 1, s + b, gamma).ptr == s + b;
    ok = ok && std::from_chars(s + b + 1, e, draws).ptr == e;
    if (!ok) throw DataError(gpath + ":" + std::to_string(lineno) + ":1: expected rep,gamma,draws");
    if (rep != c.rep_first + R.gamma.size())
      throw DataError(gpath + ":" + std::to_string(lineno) + ":1: expected rep " +
                      std::to_string(c.rep_first + R.gamma.size()));
    R.gamma.push_back(gamma);
    R.draws.push_back(draws);
  }
  if (R.gamma.size() != c.reps)
    throw DataError(gpath + ": " + std::to_string(R.gamma.size()) + " reps, summary.json says " +
                    std::to_string(c.reps));
  return R;
}

ExperimentResult merge_experiments(std::vector<ExperimentResult> parts,
                                   const std::vector<std::string>& names) {
  if (parts.empty()) throw ParameterError("merge: no slices given");
  std::vector<std::size_t> order(parts.size());
  for (std::size_t i = 0; i < order.size(); ++i)
    order[i] = i;
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return parts[a].config.rep_first < parts[b].config.rep_first;
  });
  auto canonical = [](const ExperimentConfig& c) {
    ojson j = config_json(c);
    j.erase("reps");
    j.erase("rep_first");
    return j.dump();
  };
  ExperimentResult R = parts[order[0]];
  const std::string want = canonical(R.config);
  for (std::size_t k = 1; k < order.size(); ++k) {
    const ExperimentResult& p = parts[order[k]];
    const std::string& name = names[order[k]];
    if (canonical(p.config) != want)
      throw DataError(name + ": its configuration differs from " + names[order[0]] +
                      "'s; only slices of one run can be merged");
    const std::uint64_t end = R.config.rep_first + R.config.reps;
    if (p.config.rep_first != end)
      throw DataError(name + ": its reps start at " + std::to_string(p.config.rep_first) +
                      ", but the slices before it end at " + std::to_string(end) +
                      (p.config.rep_first < end ? " (overlap)" : " (gap)"));
    R.config.reps += p.config.reps;
    for (std::size_t j = 0; j < R.totals.size(); ++j)
      R.totals[j].add(p.totals[j]);
    R.gamma.insert(R.gamma.end(), p.gamma.begin(), p.gamma.end());
    R.draws.insert(R.draws.end(), p.draws.begin(), p.draws.end());
  }
  R.wall_seconds = R.generation_seconds = R.fit_seconds = 0.0;
  R.threads = 0;
  return R;
}

// ---------------------------------------------------------------------------------------------
// Tables

static const char* oracle_title(OracleKind o) {
  if (o == OracleKind::random) return "random-weak oracle (Definition 5)";
  if (o == OracleKind::local) return "local distance-weak oracle (Definition 6)";
  return "global distance-weak oracle (Definition 7)";
}

static std::string block_name(OracleKind o, bool original) {
  return std::string(to_string(o)) + (original ? "_original" : "_weak");
}

static std::string fmt(const char* f, double x) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, x);
  return buf;
}

static std::string pad_left(const std::string& s, std::size_t w) {
  return s.size() >= w ? s : std::string(w - s.size(), ' ') + s;
}
static std::string pad_right(const std::string& s, std::size_t w) {
  return s.size() >= w ? s : s + std::string(w - s.size(), ' ');
}

std::string format_tables(const ExperimentResult& r) {
  const ExperimentConfig& c = r.config;
  std::ostringstream out;
  out << c.preset << ": n = " << c.gen.n << ", m = " << c.gen.m << ", k = " << c.gen.k
      << ", sigma = " << format_double(c.gen.sigma) << ", " << format_double(c.gen.gamma_min)
      << " < gamma <= " << format_double(c.gen.gamma_max) << ", beta = " << c.beta << ", " << c.reps
      << " reps (" << c.rep_first << ".." << (c.rep_first + c.reps - 1) << "), seed = " << c.seed
      << "\n";
  const double points = static_cast<double>(c.gen.n) * static_cast<double>(c.reps);
  std::size_t cell = 0;
  for (const Block& b : blocks(c)) {
    const auto rows = block_rows(c, b.oracle, b.original);
    std::string key = b.oracle == OracleKind::random  ? "q"
                      : b.oracle == OracleKind::local ? "nu rho"
                                                      : "rho";
    std::size_t w = key.size() + 6;
    for (const auto& row : rows)
      w = std::max(w, row.row_label().size() + 2);
    out << "\n"
        << oracle_title(b.oracle) << ", "
        << (b.original ? "original SSAC (plain binary search, coin flip for not-sure)"
                       : std::string("weak SSAC (") + to_string(c.search) + " binary search)")
        << "\n";
    for (int what = 0; what < 2; ++what) {
      out << (what == 0 ? "  Accuracy (%)" : "  #Failure (of " + std::to_string(c.reps) + ")")
          << "\n";
      out << "  " << pad_right(key + " \\ eta", w);
      for (double e : c.eta)
        out << pad_left(format_double(e), 9);
      out << "\n";
      std::size_t i = cell;
      for (const auto& row : rows) {
        std::string label = row.row_label();
        if (b.oracle == OracleKind::random) label = format_double(row.q);
        out << "  " << pad_right(label, w);
        for (std::size_t e = 0; e < c.eta.size(); ++e, ++i) {
          const CellTotals& t = r.totals[i];
          out << pad_left(what == 0 ? fmt("%.3f", 100.0 * static_cast<double>(t.correct) / points)
                                    : std::to_string(t.failures),
                          9);
        }
        out << "\n";
      }
    }
    cell += rows.size() * c.eta.size();
  }
  return out.str();
}

std::string block_csv(const ExperimentResult& r, OracleKind o, bool original,
                      const std::string& what) {
  const ExperimentConfig& c = r.config;
  std::size_t cell = 0;
  for (const Block& b : blocks(c)) {
    const auto rows = block_rows(c, b.oracle, b.original);
    if (b.oracle != o || b.original != original) {
      cell += rows.size() * c.eta.size();
      continue;
    }
    std::string s = o == OracleKind::random ? "q" : o == OracleKind::local ? "nu,rho" : "rho";
    for (double e : c.eta)
      s += "," + format_double(e);
    s += "\n";
    const double points = static_cast<double>(c.gen.n) * static_cast<double>(c.reps);
    for (const auto& row : rows) {
      s += o == OracleKind::random  ? format_double(row.q)
           : o == OracleKind::local ? format_double(row.nu) + "," + format_double(row.rho)
                                    : format_double(row.rho);
      for (std::size_t e = 0; e < c.eta.size(); ++e, ++cell) {
        const CellTotals& t = r.totals[cell];
        s += "," + (what == "accuracy"
                        ? format_double(100.0 * static_cast<double>(t.correct) / points)
                        : std::to_string(t.failures));
      }
      s += "\n";
    }
    return s;
  }
  throw ParameterError(std::string("block_csv: the run has no block ") + to_string(o) +
                       (original ? " original" : " weak"));
}

// ---------------------------------------------------------------------------------------------
// Output directory and plots

namespace {

// A gnuplot double-quoted string (so that "\n" in a title breaks the line).
std::string gp_quote(const std::string& s) {
  std::string q = "\"";
  for (char ch : s) {
    if (ch == '"') q += '\\';
    q += ch;
  }
  return q + "\"";
}

// Histogram of the gammas over the window (or the observed range if the window is open), with the
// paper's normalisation: the share of datasets in each bin.
std::string gamma_hist_csv(const ExperimentResult& r, int bins, double& lo, double& hi) {
  lo = r.config.gen.gamma_min;
  hi = r.config.gen.gamma_max;
  if (!std::isfinite(hi)) {
    hi = lo;
    for (double g : r.gamma)
      if (std::isfinite(g)) hi = std::max(hi, g);
    if (!(hi > lo)) hi = lo + 1.0;
  }
  std::vector<std::uint64_t> count(static_cast<std::size_t>(bins), 0);
  for (double g : r.gamma) {
    if (!std::isfinite(g)) continue;
    auto b = static_cast<long long>(std::floor((g - lo) / (hi - lo) * bins));
    b = std::clamp<long long>(b, 0, bins - 1);
    ++count[static_cast<std::size_t>(b)];
  }
  std::string s = "bin_low,bin_high,count,share\n";
  for (int b = 0; b < bins; ++b) {
    const double a = lo + (hi - lo) * b / bins, z = lo + (hi - lo) * (b + 1) / bins;
    s += format_double(a) + "," + format_double(z) + "," +
         std::to_string(count[static_cast<std::size_t>(b)]) + "," +
         format_double(static_cast<double>(count[static_cast<std::size_t>(b)]) /
                       static_cast<double>(r.gamma.size())) +
         "\n";
  }
  return s;
}

struct Staged {
  std::filesystem::path staging;
  std::vector<std::string> files;
  void put(const std::string& name, const std::string& content) {
    std::ofstream out(staging / name, std::ios::binary);
    out << content;
    out.close();
    if (!out) throw DataError((staging / name).string() + ": cannot write");
    files.push_back(name);
  }
};

void run_gnuplot(const std::string& gnuplot, const std::filesystem::path& dir) {
  const std::string log = (dir / "gnuplot.log").string();
  const pid_t pid = fork();
  if (pid < 0) throw DataError("cannot start " + gnuplot);
  if (pid == 0) {
    const int fd = open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0) {
      dup2(fd, 1);
      dup2(fd, 2);
    }
    if (chdir(dir.c_str()) != 0) _exit(126);
    execlp(gnuplot.c_str(), gnuplot.c_str(), "plots.gp", static_cast<char*>(nullptr));
    _exit(127);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return;
  std::string first;
  {
    std::ifstream in(log);
    std::getline(in, first);
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
    throw DataError(gnuplot + ": not found (install Debian's gnuplot-nox, or pass --no-plots)");
  throw DataError(gnuplot + " failed on plots.gp" + (first.empty() ? "" : ": " + first));
}

}  // namespace

std::vector<std::string> write_experiment(const ExperimentResult& r, const std::string& dir,
                                          const WriteOptions& opt) {
  namespace fs = std::filesystem;
  const ExperimentConfig& c = r.config;
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec || !fs::is_directory(dir))
    throw DataError(dir + ": cannot create the output directory (" + ec.message() + ")");
  Staged st;
  st.staging = fs::path(dir) / (".staging-" + std::to_string(getpid()));
  fs::remove_all(st.staging, ec);
  fs::create_directory(st.staging, ec);
  if (ec) throw DataError(st.staging.string() + ": cannot create (" + ec.message() + ")");
  try {
    st.put("summary.json", summary_json(r));
    st.put("gamma.csv", gamma_csv(r));
    st.put("table.txt", format_tables(r));
    if (r.wall_seconds > 0.0) {
      // Timings vary from run to run, so they are kept out of summary.json.
      ojson t;
      t["wall_seconds"] = r.wall_seconds;
      t["threads"] = r.threads;
      t["generation_seconds"] = r.generation_seconds;
      t["fit_seconds"] = r.fit_seconds;
      t["generation_share"] = r.generation_seconds / (r.generation_seconds + r.fit_seconds);
      t["reps_per_second"] = static_cast<double>(c.reps) / r.wall_seconds;
      st.put("timing.json", t.dump(2) + "\n");
    }
    std::vector<std::string> block_names;
    for (const Block& b : blocks(c)) {
      const std::string name = block_name(b.oracle, b.original);
      block_names.push_back(name);
      st.put("accuracy_" + name + ".csv", block_csv(r, b.oracle, b.original, "accuracy"));
      st.put("failures_" + name + ".csv", block_csv(r, b.oracle, b.original, "failures"));
    }
    if (opt.plots) {
      const int bins = 40;
      double hist_lo = 0.0, hist_hi = 0.0;
      st.put("gamma_hist.csv", gamma_hist_csv(r, bins, hist_lo, hist_hi));
      std::ostringstream gp;
      gp << "# Rendered by `ssac experiment` / `ssac merge`; rerun with: gnuplot plots.gp\n"
         << "set datafile separator ','\nset key outside right top\nset grid\n"
         << "set terminal pngcairo size 900,560 font 'sans,11'\n";
      std::string eta_tics;
      for (double e : c.eta)
        eta_tics += (eta_tics.empty() ? "" : ", ") + format_double(e);
      const std::string where =
          "n = " + std::to_string(c.gen.n) + ", m = " + std::to_string(c.gen.m) +
          ", k = " + std::to_string(c.gen.k) + ", " + format_double(c.gen.gamma_min) +
          " < {/Symbol g} <= " + format_double(c.gen.gamma_max) + ", " + std::to_string(c.reps) +
          " reps";
      for (std::size_t bi = 0; bi < blocks(c).size(); ++bi) {
        const Block b = blocks(c)[bi];
        const auto rows = block_rows(c, b.oracle, b.original);
        const std::size_t keys = b.oracle == OracleKind::local ? 2 : 1;
        const std::string title = std::string(oracle_title(b.oracle)) + ", " +
                                  (b.original ? "original SSAC" : "weak SSAC") + "\\n" + where;
        for (int what = 0; what < 2; ++what) {
          const std::string kind = what == 0 ? "accuracy" : "failures";
          gp << "\nset output " << gp_quote(kind + "_" + block_names[bi] + ".png") << "\n"
             << "set title " << gp_quote(title) << "\n"
             << "set logscale x\nset xrange [" << format_double(c.eta.front() * 0.8) << ":"
             << format_double(c.eta.back() * 1.25) << "]\n"
             << "set xtics (" << eta_tics
             << ")\nset xlabel '{/Symbol h} (Phase-1 sampling number)'\n"
             << "set ylabel " << gp_quote(what == 0 ? "Accuracy (%)" : "#Failure") << "\n"
             << (what == 0 ? "set yrange [*:100]\n" : "set yrange [0:*]\n");
          // Rows are the CSV's data lines, columns 1+keys.. the etas: transpose by plotting each
          // row as "every ::i::i" would be awkward, so each line is written out inline.
          gp << "plot ";
          const std::string csv = block_csv(r, b.oracle, b.original, kind);
          std::istringstream lines(csv);
          std::string header, line;
          std::getline(lines, header);
          std::size_t ri = 0;
          std::string inline_data;
          while (std::getline(lines, line)) {
            std::vector<std::string> f;
            std::stringstream ls(line);
            std::string x;
            while (std::getline(ls, x, ','))
              f.push_back(x);
            gp << (ri ? ", " : "") << "'-' using 1:2 with linespoints lw 2 pt " << (5 + 2 * ri)
               << " title " << gp_quote(rows[ri].row_label()) << " noenhanced";
            for (std::size_t e = 0; e < c.eta.size(); ++e)
              inline_data += format_double(c.eta[e]) + "," + f[keys + e] + "\n";
            inline_data += "e\n";
            ++ri;
          }
          gp << "\n" << inline_data << "unset logscale x\nunset xtics\nset xtics\nunset title\n";
        }
      }
      gp << "\nset output 'gamma_hist.png'\nset title "
         << gp_quote("Histogram of {/Symbol g} margins (" + where + ")") << "\n"
         << "set xlabel '{/Symbol g} (margin)'\nset ylabel 'share of datasets'\n"
         << "set xrange [" << format_double(hist_lo) << ":" << format_double(hist_hi)
         << "]\nset yrange [0:*]\nset style fill solid 0.6 border -1\nunset key\n"
         << "plot 'gamma_hist.csv' every ::1 using (($1+$2)/2):4:($2-$1) with boxes lc rgb "
            "'#4477aa'\nset key outside right top\nset style fill empty\n";

      // Section 5 / appendix figures: for m = 2, one dataset (the run's first rep) beside the
      // clusterings recovered for each eta, the estimated centers as white triangles.
      if (c.gen.m == 2) {
        const Block b = blocks(c)[0];
        const auto rows = block_rows(c, b.oracle, b.original);
        const std::uint64_t rseed = rep_seed(c.seed, c.rep_first);
        const Generated g = generate_rep(c, rseed);
        DistanceOracles oracles(g.data);
        const ClusterStats truth = cluster_stats(g.data.points, g.data.labels);
        std::string scatter = "x1,x2,truth";
        std::string centers = "row,eta_index,cluster,x1,x2\n";
        std::vector<std::vector<int>> labels;
        std::vector<double> acc;
        for (std::size_t ri = 0; ri < rows.size(); ++ri)
          for (std::size_t e = 0; e < c.eta.size(); ++e) {
            CellSpec s = rows[ri];
            s.eta = c.eta[e];
            const CellRun run = run_cell(c, s, rseed, g.data, truth, oracles.get(s));
            std::vector<int> mapped(g.data.n(), 0);
            for (std::size_t x = 0; x < mapped.size(); ++x) {
              const int l = run.result.labels[x];
              mapped[x] = l == 0 ? 0 : run.evaluation.greedy_map[static_cast<std::size_t>(l)];
            }
            labels.push_back(mapped);
            acc.push_back(run.evaluation.accuracy_pct);
            scatter += ",r" + std::to_string(ri) + "e" + std::to_string(e);
            // Phase 1's estimated center mu'_p of every iteration that chose a cluster.
            for (const auto& it : run.result.iterations)
              if (it.p > 0)
                centers +=
                    std::to_string(ri) + "," + std::to_string(e) + "," +
                    std::to_string(run.evaluation.greedy_map.size() > static_cast<std::size_t>(it.p)
                                       ? run.evaluation.greedy_map[static_cast<std::size_t>(it.p)]
                                       : 0) +
                    "," + format_double(it.center[0]) + "," + format_double(it.center[1]) + "\n";
          }
        scatter += "\n";
        for (std::size_t x = 0; x < g.data.n(); ++x) {
          scatter += format_double(g.data.points(static_cast<Eigen::Index>(x), 0)) + "," +
                     format_double(g.data.points(static_cast<Eigen::Index>(x), 1)) + "," +
                     std::to_string(g.data.labels[x]);
          for (const auto& l : labels)
            scatter += "," + std::to_string(l[x]);
          scatter += "\n";
        }
        st.put("scatter.csv", scatter);
        st.put("centers.csv", centers);
        const std::size_t E = c.eta.size();
        gp << "\n# Scatter plots: column 3 is the truth, column 4 + row * E + eta_index the "
              "recovered labels\n"
           << "# renamed by the greedy center matching of Section 5.2 (0 = unassigned, grey).\n"
           << "unset key\nunset logscale x\nset autoscale\nset size ratio -1\nunset grid\n"
           << "unset xlabel\nunset ylabel\n"
           << "# cluster id -> colour; 0 (unassigned) grey, ids beyond 10 reuse the last colour\n"
           << "color(l) = l == 0 ? 0xbbbbbb : l == 1 ? 0x1f77b4 : l == 2 ? 0xff7f0e : l == 3 ? "
              "0x2ca02c : l == 4 ? 0xd62728 : l == 5 ? 0x9467bd : l == 6 ? 0x8c564b : l == 7 ? "
              "0xe377c2 : l == 8 ? 0x17becf : l == 9 ? 0xbcbd22 : 0x7f7f7f\n";
        for (std::size_t ri = 0; ri < rows.size(); ++ri) {
          std::string row = rows[ri].row_label();
          std::string file = "scatter_" + block_names[0] + "_" + row + ".png";
          for (char& ch : file)
            if (ch == ' ' || ch == '=') ch = '_';
          gp << "\nset terminal pngcairo size 1000," << (330 * E + 60) << " font 'sans,10'\n"
             << "set output " << gp_quote(file) << "\n"
             << "set multiplot layout " << E << ",2 title "
             << gp_quote(std::string(oracle_title(b.oracle)) + " " + row + ", rep " +
                         std::to_string(c.rep_first) + " (gamma = " + fmt("%.3f", g.gamma) +
                         "): ground truth | recovered, white triangles = estimated centers")
             << " noenhanced\n";
          for (std::size_t e = 0; e < E; ++e) {
            const std::size_t col = 4 + ri * E + e;
            gp << "set title " << gp_quote("ground truth") << "\n"
               << "plot 'scatter.csv' every ::1 using 1:2:(color($3)) with points pt 7 ps 0.35 lc "
                  "rgb variable\n"
               << "set title "
               << gp_quote("eta = " + format_double(c.eta[e]) + ": accuracy " +
                           fmt("%.2f", acc[ri * E + e]) + "%")
               << " noenhanced\n"
               << "plot 'scatter.csv' every ::1 using 1:2:(color($" << col
               << ")) with points pt 7 ps 0.35 lc rgb variable, "
               << "'centers.csv' every ::1 using ($1 == " << ri << " && $2 == " << e
               << " ? $4 : 1/0):5 with points pt 9 ps 2.2 lc rgb 'white', "
               << "'centers.csv' every ::1 using ($1 == " << ri << " && $2 == " << e
               << " ? $4 : 1/0):5 with points pt 8 ps 2.2 lw 1.5 lc rgb 'black'\n";
          }
          gp << "unset multiplot\n";
        }
      }
      st.put("plots.gp", gp.str());
      run_gnuplot(opt.gnuplot, st.staging);
      for (const auto& e : fs::directory_iterator(st.staging)) {
        const std::string name = e.path().filename().string();
        if (name.size() > 4 && name.substr(name.size() - 4) == ".png") st.files.push_back(name);
      }
      fs::remove(st.staging / "gnuplot.log", ec);
    }
    // Every file is complete: move them into place.
    std::sort(st.files.begin(), st.files.end());
    for (const auto& name : st.files) {
      fs::rename(st.staging / name, fs::path(dir) / name, ec);
      if (ec)
        throw DataError((fs::path(dir) / name).string() + ": cannot write (" + ec.message() + ")");
    }
    fs::remove_all(st.staging, ec);
  } catch (...) {
    fs::remove_all(st.staging, ec);
    throw;
  }
  return st.files;
}

}  // namespace ssac
