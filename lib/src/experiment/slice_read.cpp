// Reading an output directory of `ssac experiment` back (summary.json and gamma.csv), for
// `ssac merge`: every field is checked against its meaning -- a count against what the slice's
// reps can produce, a value written from counts against those counts, a name against the names
// the writer uses -- so that a hand-edited or damaged slice is refused with one line naming the
// file and the field (docs/bad-input.md, M rows).
#include <algorithm>
#include <bit>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>

#include "ssac/csv.hpp"
#include "ssac/error.hpp"
#include "ssac/experiment_summary.hpp"
#include "ssac/numbers.hpp"
#include "ssac/ranges.hpp"

namespace ssac {

using ojson = nlohmann::ordered_json;

// An oracle the experiment sweeps (experiment_oracle_kinds).
static OracleKind oracle_from_string(const std::string& s, const std::string& where) {
  const auto o = oracle_kind_from_string(s);
  const auto& swept = experiment_oracle_kinds();
  if (o && std::find(swept.begin(), swept.end(), *o) != swept.end()) return *o;
  throw DataError(where + ": unknown oracle '" + s + "'");
}

static Search search_from_string(const std::string& s, const std::string& where) {
  if (const auto x = parse_search(s)) return *x;
  throw DataError(where + ": unknown search '" + s + "'");
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
  // "-0" is 0, as number::parse_uint reads it (nlohmann keeps it as a signed integer).
  if (v.is_number_integer() && !v.is_number_unsigned() && v.get<std::int64_t>() == 0) return 0;
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

// A string field whose value must be one of `names` (the values the writer uses).
static std::string name_field(const ojson& j, const std::string& key,
                              const std::vector<std::string>& names, const std::string& path) {
  const ojson& v = j.at(key);
  if (v.is_string() && std::find(names.begin(), names.end(), v.get<std::string>()) != names.end())
    return v.get<std::string>();
  std::string all;
  for (const auto& n : names)
    all += (all.empty() ? "" : ", ") + n;
  throw DataError(field_where(path, key, 0) + " = " + number::printable(v.dump()) +
                  " is not one of " + all);
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

// a * b, or the largest uint64 when the product does not fit.
static std::uint64_t saturating_product(std::uint64_t a, std::uint64_t b) {
  std::uint64_t p = 0;
  return __builtin_mul_overflow(a, b, &p) ? std::numeric_limits<std::uint64_t>::max() : p;
}

// The queries of a cell against the most its reps can ask (Algorithm 1): per rep k iterations,
// each with r = ceil(k eta) Phase-1 draws (at most; fewer under the sample cap) that ask one
// cluster-assignment query per known cluster, at most k (Definition 4); and one binary search
// over at most n positions, floor(log2 n) + 1 steps of at most beta queries each (Algorithms 2-4:
// beta votes, or one anchor query and beta - 1 votes; the plain and distance searches ask one).
static void check_queries(const ExperimentConfig& c, const CellSpec& s, const CellTotals& t,
                          const std::string& path, std::size_t cell) {
  Params P;
  P.k = c.gen.k;
  P.eta = s.eta;
  const std::uint64_t k = static_cast<std::uint64_t>(c.gen.k);
  const std::uint64_t steps = static_cast<std::uint64_t>(std::bit_width(c.gen.n));
  const std::uint64_t per_rep[2] = {
      saturating_product(saturating_product(k, k), P.sample_size()),
      saturating_product(saturating_product(k, steps), static_cast<std::uint64_t>(c.beta))};
  const std::uint64_t got[2] = {t.queries_phase1, t.queries_phase2};
  for (int phase = 0; phase < 2; ++phase) {
    const std::uint64_t most = saturating_product(per_rep[phase], c.reps);
    if (got[phase] > most)
      throw DataError(field_where(path, phase == 0 ? "queries_phase1" : "queries_phase2", cell) +
                      " = " + std::to_string(got[phase]) + " is more than " + std::to_string(most) +
                      ", the most " + std::to_string(c.reps) + " reps can ask" +
                      (phase == 0 ? " in Phase 1 (k iterations of r = ceil(k eta) draws, each "
                                    "asking at most k anchors)"
                                  : " in Phase 2 (k binary searches of floor(log2 n) + 1 steps, "
                                    "each asking at most beta queries)"));
  }
}

ExperimentResult read_experiment(const std::string& dir) {
  const std::string path = (std::filesystem::path(dir) / "summary.json").string();
  const std::string text = read_text(path);
  ojson j;
  try {
    j = ojson::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    throw DataError(path + ":" + line_col(text, e.byte) + ": not valid JSON");
  } catch (const nlohmann::json::exception& e) {
    // A number beyond the largest double (1e400) is nlohmann's out_of_range, not a parse error.
    throw DataError(path + ": " + number::json_error_text(e.what()));
  }
  ExperimentResult R;
  ExperimentConfig& c = R.config;
  try {
    c.preset = name_field(j, "preset", preset_names(), path);
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
    c.reps = uint_field(j, "reps", range::kMaxReps, path);
    c.seed = uint_field(j, "seed", std::numeric_limits<std::uint64_t>::max(), path);
    c.gen.n = uint_field(j, "n", range::kMaxPoints, path);
    c.gen.m = uint_field(j, "m", range::kMaxDimension, path);
    c.gen.k = static_cast<int>(uint_field(j, "k", range::kMaxClusters, path));
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
    c.elimination = *parse_assignment(name_field(j, "assignment", assignment_names(), path));
    // A rule or a Gaussian method the program does not know is the slice's error (exit 1), not
    // a usage error: the message names the file and the field.
    if (j.contains("rules")) {
      Profile profile{{}, c.elimination};
      std::istringstream words(j.at("rules").get<std::string>());
      try {
        for (std::string w; words >> w;)
          set_rule(profile, w);
      } catch (const ParameterError& e) {
        throw DataError(field_where(path, "rules", 0) + ": " + number::printable(e.what(), 300));
      }
      c.rules = profile.rules;
    } else {
      // Written before the rules were recorded, under the paper's rules of then (self-pairs=off).
      c.rules = former_paper_profile().rules;
    }
    c.gen.shuffle = j.contains("shuffle") && j.at("shuffle").get<bool>();
    if (j.contains("semantics")) {
      // Written from the rules and the generator's row order ("shuffle"; none for a fixed
      // dataset): it must be their profile's name.
      const Profile profile{
          c.rules, c.elimination,
          c.data ? std::nullopt
                 : std::optional(c.gen.shuffle ? RowOrder::shuffled : RowOrder::blocks)};
      const std::string want = profile_name(profile);
      const ojson& v = j.at("semantics");
      // A summary written before S4 asked self-pairs calls its rules, self-pairs=off, "paper".
      const bool former_paper =
          v == "paper" && profile.rules == former_paper_profile().rules && profile.elimination;
      if (!v.is_string() || (v.get<std::string>() != want && !former_paper))
        throw DataError(field_where(path, "semantics", 0) + " = " + number::printable(v.dump()) +
                        " is not the profile of its rules (" + want + ")");
    }
    if (j.contains("gaussians")) try {
        c.gen.gaussians = parse_gaussian_method(field_where(path, "gaussians", 0),
                                                j.at("gaussians").get<std::string>());
      } catch (const ParameterError& e) {
        throw DataError(number::printable(e.what(), 300));
      }
    if (j.contains("memory"))
      c.memory = *parse_oracle_memory(name_field(j, "memory", oracle_memory_names(), path));
    c.oracles.clear();
    for (const auto& o : j.at("oracles"))
      c.oracles.push_back(oracle_from_string(o.get<std::string>(), path));
    const auto algs = j.at("algorithms").get<std::vector<std::string>>();
    for (const auto& a : algs)
      if (!parse_algorithm(a))
        throw DataError(field_where(path, "algorithms", 0) + " holds '" + number::printable(a) +
                        "', not " + to_string(Algorithm::weak) + " or " +
                        to_string(Algorithm::original));
    c.weak = std::find(algs.begin(), algs.end(), to_string(Algorithm::weak)) != algs.end();
    c.original = std::find(algs.begin(), algs.end(), to_string(Algorithm::original)) != algs.end();
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
      // The cell's parameters as summary_json writes them (each only where the oracle has it).
      const auto differs = [&](const char* key, double want) {
        return e.contains(key) && !(e.at(key).is_number() && e.at(key).get<double>() == want);
      };
      if (e.at("oracle").get<std::string>() != to_string(s.oracle.kind) ||
          e.at("algorithm").get<std::string>() != to_string(s.algorithm()) ||
          e.at("eta").get<double>() != s.eta || differs("q", s.oracle.q) ||
          differs("nu", s.oracle.nu) || differs("rho", s.oracle.rho) || differs("beta", c.beta) ||
          (e.contains("search") &&
           e.at("search") != to_string(s.original ? Search::plain : c.search)))
        throw DataError(path + ": cell " + std::to_string(i + 1) + " does not match the " +
                        "configuration (expected " + to_string(s.oracle.kind) + " " +
                        s.row_label() + " eta=" + format_double(s.eta) + ")");
      // Per rep a cell counts at most n points right (and at least as many under the best
      // permutation as under the greedy matching), one failure and one rep with a failed search;
      // the queries are bounded below, once the configuration is checked.
      const std::uint64_t points = c.reps * c.gen.n;
      CellTotals t;
      t.correct = uint_field(e, "correct_points", points, path, i + 1);
      t.optimal_correct = uint_field(e, "optimal_correct_points", points, path, i + 1);
      if (t.optimal_correct < t.correct)
        throw DataError(field_where(path, "optimal_correct_points", i + 1) + " = " +
                        std::to_string(t.optimal_correct) +
                        " is below correct_points = " + std::to_string(t.correct) +
                        " (the best permutation labels at least as many points right as the "
                        "greedy matching)");
      t.failures = uint_field(e, "failures", c.reps, path, i + 1);
      t.search_failures = uint_field(e, "binary_search_failures", c.reps, path, i + 1);
      const std::uint64_t big = std::numeric_limits<std::uint64_t>::max();
      t.queries_phase1 = uint_field(e, "queries_phase1", big, path, i + 1);
      t.queries_phase2 = uint_field(e, "queries_phase2", big, path, i + 1);
      // The values summary_json writes from the counts, in 0..100 and equal to them.
      const double reps = static_cast<double>(c.reps);
      const double all = static_cast<double>(c.gen.n) * reps;
      struct Derived {
        const char* key;
        double want;
        bool percent;
      };
      const Derived derived[] = {
          {"accuracy_pct", 100.0 * static_cast<double>(t.correct) / all, true},
          {"optimal_accuracy_pct", 100.0 * static_cast<double>(t.optimal_correct) / all, true},
          {"mean_queries_phase1", static_cast<double>(t.queries_phase1) / reps, false},
          {"mean_queries_phase2", static_cast<double>(t.queries_phase2) / reps, false}};
      for (const auto& [key, want, percent] : derived)
        if (e.contains(key)) {
          const double a = real_field(e, key, path, i + 1);
          if (percent && !(a >= 0.0 && a <= 100.0))
            throw DataError(field_where(path, key, i + 1) + " = " + format_double(a) +
                            " is outside 0..100");
          if (a != want)
            throw DataError(field_where(path, key, i + 1) + " = " + format_double(a) +
                            " is not the value of the cell's counts, " + format_double(want));
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
  for (std::size_t i = 0; i < R.cells.size(); ++i)
    check_queries(c, R.cells[i], R.totals[i], path, i + 1);

  const std::string gpath = (std::filesystem::path(dir) / "gamma.csv").string();
  const std::string gtext = read_text(gpath);
  // gamma.csv as the CSV it is (ssac/csv.hpp): every message names the line and the column.
  static const char* const kColumns[] = {"rep", "gamma", "draws"};
  csv::Reader reader(gtext, gpath, false);
  std::vector<csv::Field> f;
  if (!reader.next(f)) throw DataError(gpath + ":1:1: expected the header rep,gamma,draws");
  for (std::size_t col = 0; col < 3; ++col)
    if (col >= f.size() || f[col].text != kColumns[col])
      throw DataError(csv::where(gpath, 1, col < f.size() ? f[col].column : 1) +
                      "expected the header rep,gamma,draws (column " + std::to_string(col + 1) +
                      " is '" + kColumns[col] + "')");
  if (f.size() != 3)
    throw DataError(csv::where(gpath, 1, f[3].column) +
                    "expected the header rep,gamma,draws, found " + std::to_string(f.size()) +
                    " fields");
  while (reader.next(f)) {
    const std::size_t lineno = reader.line();
    if (f.size() != 3)
      throw DataError(csv::where(gpath, lineno, 1) + "expected 3 fields rep,gamma,draws, found " +
                      std::to_string(f.size()));
    auto at = [&](std::size_t col) {
      return csv::where(gpath, lineno, f[col].column) + "column " + std::to_string(col + 1) + " (" +
             kColumns[col] + "): ";
    };
    auto shown = [&](std::size_t col) { return "'" + number::printable(f[col].text, 40) + "'"; };
    unsigned long long rep = 0, draws = 0;
    double gamma = 0.0;
    if (number::parse_uint(f[0].text, rep) != number::Status::ok)
      throw DataError(at(0) + shown(0) + " is not a whole number");
    if (number::parse_real(f[1].text, gamma) != number::Status::ok)
      throw DataError(at(1) + shown(1) + " is not a number");
    if (number::parse_uint(f[2].text, draws) != number::Status::ok)
      throw DataError(at(2) + shown(2) + " is not a whole number");
    if (c.data) {
      // A run on a fixed dataset (--data) draws no data: every rep has the file's gamma and 0
      // draws.
      if (!(gamma == c.data_gamma))
        throw DataError(at(1) + "expected gamma " + format_double(c.data_gamma) +
                        ", the gamma of " + c.data_path + " (a run on it draws no data)");
      if (draws != 0)
        throw DataError(at(2) + "expected 0 draws (a run on " + c.data_path + " draws no data)");
    } else if (!(gamma > c.gen.gamma_min && gamma <= c.gen.gamma_max)) {
      // The generator accepted the draw because gamma_min < gamma <= gamma_max (Section 5.1).
      throw DataError(at(1) + number::printable(f[1].text) + " is outside the window (" +
                      format_double(c.gen.gamma_min) + ", " + format_double(c.gen.gamma_max) + "]");
    }
    if (!c.data && (draws < 1 || draws > c.gen.max_draws))
      throw DataError(at(2) + std::to_string(draws) + " is outside 1.." +
                      std::to_string(c.gen.max_draws));
    if (rep != c.rep_first + R.gamma.size())
      throw DataError(at(0) + "expected rep " + std::to_string(c.rep_first + R.gamma.size()));
    R.gamma.push_back(gamma);
    R.draws.push_back(draws);
  }
  if (R.gamma.size() != c.reps)
    throw DataError(gpath + ": " + std::to_string(R.gamma.size()) + " reps, summary.json says " +
                    std::to_string(c.reps));
  return R;
}

}  // namespace ssac
