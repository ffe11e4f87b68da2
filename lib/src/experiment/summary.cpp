// summary.json and gamma.csv: written from a run's result, read back from an output directory,
// and merged across slices of one run (docs/experiment.md, "Determinism, slices and merging").
#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>

#include "ssac/error.hpp"
#include "ssac/experiment_summary.hpp"
#include "ssac/numbers.hpp"
#include "ssac/ranges.hpp"

namespace ssac {

// The experiment sweeps the simulated oracles with parameters; perfect is random with q = 1.
static OracleKind oracle_from_string(const std::string& s, const std::string& where) {
  const auto o = oracle_kind_from_string(s);
  if (o && *o != OracleKind::perfect && *o != OracleKind::interactive) return *o;
  throw DataError(where + ": unknown oracle '" + s + "'");
}

static Search search_from_string(const std::string& s, const std::string& where) {
  for (Search x : {Search::random, Search::distance, Search::unified, Search::plain})
    if (s == to_string(x)) return x;
  throw DataError(where + ": unknown search '" + s + "'");
}

using ojson = nlohmann::ordered_json;

static ojson config_json(const ExperimentConfig& c) {
  ojson j;
  j["preset"] = c.preset;
  // A run on a fixed dataset (--data) names the file and its gamma; generated runs have neither.
  if (c.data) {
    j["data"] = c.data_path;
    j["data_gamma"] = std::isfinite(c.data_gamma) ? ojson(c.data_gamma) : ojson(nullptr);
  }
  j["reps"] = c.reps;
  j["seed"] = c.seed;
  j["n"] = c.gen.n;
  j["m"] = c.gen.m;
  j["k"] = c.gen.k;
  // The generator's parameters, which a run on a fixed dataset does not use.
  if (!c.data) {
    j["sigma"] = c.gen.sigma;
    j["gamma_min"] = c.gen.gamma_min;
    // JSON has no infinity: an open window is written as null.
    j["gamma_max"] = std::isinf(c.gen.gamma_max) ? ojson(nullptr) : ojson(c.gen.gamma_max);
  }
  j["rep_first"] = c.rep_first;
  if (!c.data) {
    j["box"] = c.gen.box;
    j["max_draws"] = c.gen.max_draws;
  }
  j["beta"] = c.beta;
  j["search"] = to_string(c.search);
  j["assignment"] = c.elimination ? "paper" : "code";
  // The rules of the run (ssac/rules.hpp), the generator's row order among them (a fixed
  // dataset's rows are given: no row order); the row order again as "shuffle" and the oracle's
  // memory only when they are not the defaults.
  const Profile profile{
      c.rules, c.elimination,
      c.data ? std::nullopt : std::optional(c.gen.shuffle ? RowOrder::shuffled : RowOrder::blocks)};
  j["semantics"] = profile_name(profile);
  j["rules"] = describe(profile);
  if (c.gen.shuffle) j["shuffle"] = true;
  if (c.gen.gaussians != GaussianMethod::polar) j["gaussians"] = to_string(c.gen.gaussians);
  if (c.memory != OracleMemory::fresh) j["memory"] = to_string(c.memory);
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
    if (s.oracle == OracleKind::random || s.oracle == OracleKind::correlated) e["q"] = s.q;
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
  // A slice's files are regular files an earlier run wrote: a FIFO would block, a device never end.
  std::error_code ec;
  const auto st = std::filesystem::status(path, ec);
  if (st.type() != std::filesystem::file_type::not_found && !ec &&
      st.type() != std::filesystem::file_type::regular)
    throw DataError(path + ": is not a regular file; it is not read");
  if (st.type() == std::filesystem::file_type::regular &&
      std::filesystem::file_size(path, ec) > (std::uintmax_t{1} << 32))
    throw DataError(path + ": larger than 4 GiB, more than a slice's file can hold");
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

// Checked fields of a slice: nlohmann's get<> would wrap -1 into 2^64-1, cut 2^32 + 10 down to 10
// and round 1e15 written as a float; merge trusts no field (docs/bad-input.md, M rows).
static std::string field_where(const std::string& path, const std::string& key, std::size_t cell) {
  return path + ": " + (cell ? "cell " + std::to_string(cell) + " field \"" : "field \"") + key +
         "\"";
}

static std::uint64_t uint_field(const ojson& j, const std::string& key, std::uint64_t hi,
                                const std::string& path, std::size_t cell = 0) {
  const ojson& v = j.at(key);
  if (!v.is_number_unsigned() || v.get<std::uint64_t>() > hi)
    throw DataError(field_where(path, key, cell) + " = " + number::printable(v.dump()) +
                    " is not a whole number in 0.." + std::to_string(hi));
  return v.get<std::uint64_t>();
}

static double real_field(const ojson& j, const std::string& key, const std::string& path,
                         std::size_t cell = 0) {
  const ojson& v = j.at(key);
  if (!v.is_number() || !std::isfinite(v.get<double>()))
    throw DataError(field_where(path, key, cell) + " = " + number::printable(v.dump()) +
                    " is not a finite number");
  return v.get<double>();
}

static std::vector<double> reals_field(const ojson& j, const std::string& key,
                                       const std::string& path) {
  const ojson& v = j.at(key);
  if (!v.is_array()) throw DataError(field_where(path, key, 0) + " is not a list of numbers");
  std::vector<double> out;
  for (const auto& e : v) {
    if (!e.is_number() || !std::isfinite(e.get<double>()))
      throw DataError(field_where(path, key, 0) + " holds " + number::printable(e.dump()) +
                      ", not a finite number");
    out.push_back(e.get<double>());
  }
  return out;
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
    if (j.contains("data")) {
      // The dataset is read again from its path (relative to the working directory, as given to
      // --data); its gamma must be the one the run recorded, so a changed file is caught.
      const std::string data_path = j.at("data").get<std::string>();
      use_dataset(c, read_csv(data_path), data_path);
      const ojson& g = j.at("data_gamma");
      if (g.is_null() ? std::isfinite(c.data_gamma) : g.get<double>() != c.data_gamma)
        throw DataError(data_path + ": its gamma differs from the one " + path +
                        " recorded; the dataset changed since the run");
    }
    c.reps = uint_field(j, "reps", 1000000000, path);
    c.seed = uint_field(j, "seed", std::numeric_limits<std::uint64_t>::max(), path);
    c.gen.n = uint_field(j, "n", 100000000, path);
    c.gen.m = uint_field(j, "m", 100000, path);
    c.gen.k = static_cast<int>(uint_field(j, "k", 1000000, path));
    if (c.data &&
        (c.gen.n != c.data->n() || c.gen.m != c.data->m() || c.gen.k != c.data->num_labels()))
      throw DataError(path + ": n, m or k differ from those of " + c.data_path);
    // A run on a fixed dataset has no generator's parameters (summaries written before they were
    // left out have the preset's, unused: they are ignored).
    if (!c.data) {
      c.gen.sigma = real_field(j, "sigma", path);
      c.gen.gamma_min = real_field(j, "gamma_min", path);
      c.gen.gamma_max = j.at("gamma_max").is_null() ? std::numeric_limits<double>::infinity()
                                                    : real_field(j, "gamma_max", path);
    }
    c.rep_first =
        uint_field(j, "rep_first", std::numeric_limits<std::uint64_t>::max() - c.reps, path);
    if (!c.data) {
      c.gen.box = real_field(j, "box", path);
      c.gen.max_draws = uint_field(j, "max_draws", std::numeric_limits<std::uint64_t>::max(), path);
    }
    c.beta = static_cast<int>(uint_field(j, "beta", range::kMaxBeta, path));
    c.search = search_from_string(j.at("search").get<std::string>(), path);
    c.elimination = j.at("assignment").get<std::string>() == "paper";
    if (j.contains("rules")) {
      Profile profile{{}, c.elimination};
      std::istringstream words(j.at("rules").get<std::string>());
      for (std::string w; words >> w;)
        set_rule(profile, w);
      c.rules = profile.rules;
    }
    c.gen.shuffle = j.contains("shuffle") && j.at("shuffle").get<bool>();
    c.gen.gaussians = j.contains("gaussians")
                          ? parse_gaussian_method("gaussians", j.at("gaussians").get<std::string>())
                          : GaussianMethod::polar;
    if (j.contains("memory"))
      c.memory = j.at("memory").get<std::string>() == "per-pair" ? OracleMemory::per_pair
                                                                 : OracleMemory::fresh;
    c.oracles.clear();
    for (const auto& o : j.at("oracles"))
      c.oracles.push_back(oracle_from_string(o.get<std::string>(), path));
    const auto algs = j.at("algorithms").get<std::vector<std::string>>();
    c.weak = std::find(algs.begin(), algs.end(), "weak") != algs.end();
    c.original = std::find(algs.begin(), algs.end(), "original") != algs.end();
    c.q = reals_field(j, "q", path);
    c.nu = reals_field(j, "nu", path);
    c.rho = reals_field(j, "rho", path);
    c.eta = reals_field(j, "eta", path);
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
      // Per rep a cell counts at most n points right, one failure and r + n queries in Phase 1
      // (r = ceil(k eta) draws); accuracies lie in 0..100.
      const std::uint64_t points = c.reps * c.gen.n;
      CellTotals t;
      t.correct = uint_field(e, "correct_points", points, path, i + 1);
      t.optimal_correct = uint_field(e, "optimal_correct_points", points, path, i + 1);
      t.failures = uint_field(e, "failures", c.reps, path, i + 1);
      const std::uint64_t big = std::numeric_limits<std::uint64_t>::max() / 4;
      t.search_failures = uint_field(e, "binary_search_failures", big, path, i + 1);
      t.queries_phase1 = uint_field(e, "queries_phase1", big, path, i + 1);
      t.queries_phase2 = uint_field(e, "queries_phase2", big, path, i + 1);
      for (const char* key : {"accuracy_pct", "optimal_accuracy_pct"})
        if (e.contains(key)) {
          const double a = real_field(e, key, path, i + 1);
          if (!(a >= 0.0 && a <= 100.0))
            throw DataError(field_where(path, key, i + 1) + " = " + format_double(a) +
                            " is outside 0..100");
        }
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
    unsigned long long rep = 0, draws = 0;
    double gamma = 0.0;
    const std::string_view v(line);
    bool ok = a != line.npos && b != line.npos;
    ok = ok && number::parse_uint(v.substr(0, a), rep) == number::Status::ok;
    ok = ok && number::parse_real(v.substr(a + 1, b - a - 1), gamma) == number::Status::ok;
    ok = ok && number::parse_uint(v.substr(b + 1), draws) == number::Status::ok;
    if (!ok) throw DataError(gpath + ":" + std::to_string(lineno) + ":1: expected rep,gamma,draws");
    if (c.data) {
      // A run on a fixed dataset (--data) draws no data: every rep has the file's gamma and 0
      // draws.
      if (draws != 0 || !(gamma == c.data_gamma))
        throw DataError(gpath + ":" + std::to_string(lineno) + ": expected gamma " +
                        format_double(c.data_gamma) + " and 0 draws (a run on " + c.data_path +
                        ")");
    } else if (!(gamma > c.gen.gamma_min && gamma <= c.gen.gamma_max)) {
      // The generator accepted the draw because gamma_min < gamma <= gamma_max (Section 5.1).
      throw DataError(gpath + ":" + std::to_string(lineno) + ": gamma " +
                      number::printable(v.substr(a + 1, b - a - 1)) + " is outside the window (" +
                      format_double(c.gen.gamma_min) + ", " + format_double(c.gen.gamma_max) + "]");
    }
    if (!c.data && (draws < 1 || draws > c.gen.max_draws))
      throw DataError(gpath + ":" + std::to_string(lineno) + ": draws " + std::to_string(draws) +
                      " is outside 1.." + std::to_string(c.gen.max_draws));
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

}  // namespace ssac
