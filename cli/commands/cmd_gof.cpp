// ssac gof: does an implementation's outcome frequencies fit an instance's exact law? The
// expected law is an instance of the distribution corpus (`ssac conformance --distribution`), the
// observed file one outcome per line from the implementation's own runs (docs/conformance.md,
// "Distributional conformance"). Exit 0 the outcomes fit, 4 they do not (the verdict and the
// outcomes that moved on stdout), 1 bad data, 2 usage.
#include <algorithm>
#include <boost/multiprecision/cpp_int.hpp>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string_view>

#include "commands/commands.hpp"
#include "options/option_checks.hpp"
#include "output/table.hpp"
#include "ssac/error.hpp"
#include "ssac/input.hpp"
#include "ssac/numbers.hpp"
#include "ssac/theory/gof.hpp"

namespace ssac::cli {

namespace {

using Rational = boost::multiprecision::cpp_rational;

constexpr int kDoesNotConform = 4;
constexpr double kMaxTables = 1e6;  // the exact multinomial test's enumeration, at most

struct Opts {
  std::string expected, observed;
  double alpha = 1e-6;
  long long top = 10;
};

// A regular file or a pipe (ssac/input.hpp), at most 1 GiB.
std::string read_all(const std::string& path) {
  static const InputKind kind{"cannot open for reading", "is a directory, not a file",
                              std::uint64_t{1} << 30, "longer than 1 GiB; it is not read"};
  return read_input(path, kind);
}

// "a/b" of whole numbers, 0 < a/b <= 1.
Rational fraction(const std::string& file, const std::string& where, const std::string& text) {
  const auto slash = text.find('/');
  const auto digits = [](const std::string& s) {
    return !s.empty() && s.size() <= 200 && s.find_first_not_of("0123456789") == std::string::npos;
  };
  if (slash == std::string::npos || !digits(text.substr(0, slash)) ||
      !digits(text.substr(slash + 1)) ||
      text.substr(slash + 1).find_first_not_of('0') == std::string::npos)
    throw DataError(file + ": " + where + ": '" + number::printable(text) +
                    "' is not a fraction a/b of whole numbers");
  const Rational r(boost::multiprecision::cpp_int(text.substr(0, slash)),
                   boost::multiprecision::cpp_int(text.substr(slash + 1)));
  if (r <= 0 || r > 1) throw DataError(file + ": " + where + ": " + text + " is outside (0, 1]");
  return r;
}

struct Law {
  std::string instance;
  std::vector<std::string> outcomes;
  std::vector<double> p;
  // The number of labels every outcome of the law has ("l1,...,ln;q1;q2": the labels, then the
  // queries of Phase 1 and of Phase 2), 0 when the law's outcomes are not all of that form.
  std::size_t n = 0;
};

bool whole_number(std::string_view s) {
  return !s.empty() && s.find_first_not_of("0123456789") == std::string_view::npos;
}

// The number of labels of an outcome "l1,...,ln;q1;q2" (each a whole number), 0 for any other
// text.
std::size_t outcome_width(std::string_view s) {
  const std::size_t a = s.find(';');
  if (a == std::string_view::npos) return 0;
  const std::size_t b = s.find(';', a + 1);
  if (b == std::string_view::npos || !whole_number(s.substr(a + 1, b - a - 1)) ||
      !whole_number(s.substr(b + 1)))
    return 0;
  std::size_t width = 0;
  for (std::size_t at = 0;; ++width) {
    const std::size_t comma = std::min(s.find(',', at), a);
    if (!whole_number(s.substr(at, comma - at))) return 0;
    at = comma + 1;
    if (comma == a) return width + 1;
  }
}

Law read_law(const std::string& file) {
  const std::string text = read_all(file);
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    throw DataError(file + ": not JSON (byte " + std::to_string(e.byte) + ")");
  } catch (const nlohmann::json::exception& e) {
    // A number beyond the largest double (1e400) is nlohmann's out_of_range, not a parse error.
    throw DataError(file + ": " + number::json_error_text(e.what()));
  }
  if (!j.is_object() || !j.contains("format") || j["format"] != "ssac-distribution" ||
      !j.contains("outcomes") || !j["outcomes"].is_array())
    throw DataError(file +
                    ": not an instance of the distribution corpus (\"format\": "
                    "\"ssac-distribution\" with an \"outcomes\" array)");
  Law law;
  if (j.contains("instance") && j["instance"].is_string()) law.instance = j["instance"];
  Rational total = 0;
  std::map<std::string, std::size_t> seen;
  for (std::size_t i = 0; i < j["outcomes"].size(); ++i) {
    const auto& o = j["outcomes"][i];
    const std::string where = "outcomes[" + std::to_string(i) + "]";
    if (!o.is_object() || !o.contains("outcome") || !o["outcome"].is_string() ||
        !o.contains("probability") || !o["probability"].is_string())
      throw DataError(file + ": " + where + ": needs \"outcome\" and \"probability\" strings");
    const std::string name = o["outcome"];
    if (!seen.emplace(name, i).second)
      throw DataError(file + ": " + where + ": outcome '" + number::printable(name) +
                      "' is listed twice");
    const Rational r = fraction(file, where + ".probability", o["probability"]);
    total += r;
    law.outcomes.push_back(name);
    law.p.push_back(r.convert_to<double>());
  }
  if (law.outcomes.empty()) throw DataError(file + ": no outcomes");
  law.n = outcome_width(law.outcomes[0]);
  for (const auto& name : law.outcomes)
    if (outcome_width(name) != law.n) law.n = 0;
  if (total != 1)
    throw DataError(file + ": the outcomes' probabilities sum to " +
                    boost::multiprecision::numerator(total).str() + "/" +
                    boost::multiprecision::denominator(total).str() + ", not 1");
  return law;
}

// A p-value; one below the smallest positive double is said to be so rather than printed as 0.
std::string p_text(double p) {
  if (p == 0) return "< 1e-308";
  char buf[64];
  std::snprintf(buf, sizeof buf, "= %.6g", p);
  return buf;
}

int run_gof(const Opts& o) {
  if (!(o.alpha > 0 && o.alpha < 1)) throw_out_of_range("alpha", o.alpha, "(0, 1)");
  to_size("top", o.top, 0, 1000000);
  const Law law = read_law(o.expected);
  std::map<std::string, std::size_t> index;
  for (std::size_t i = 0; i < law.outcomes.size(); ++i)
    index.emplace(law.outcomes[i], i);
  // The observed outcomes: one per line; a line that is not an outcome of the law is impossible.
  std::vector<std::uint64_t> counts(law.outcomes.size(), 0);
  std::map<std::string, std::pair<std::uint64_t, std::uint64_t>> impossible;  // count, first line
  std::uint64_t n = 0;
  {
    const std::string text = read_all(o.observed);
    std::istringstream in(text);
    std::string line;
    std::uint64_t lineno = 0;
    while (std::getline(in, line)) {
      ++lineno;
      if (!line.empty() && line.back() == '\r') line.pop_back();
      if (line.empty())
        throw DataError(o.observed + ":" + std::to_string(lineno) +
                        ": an empty line (one outcome per line)");
      // A line of another form is no sample of this law (another instance's outcomes, a law
      // given as the outcome file): a malformed file, exit 1, not a verdict (docs/gof.md).
      if (law.n > 0 && outcome_width(line) != law.n)
        throw DataError(o.observed + ":" + std::to_string(lineno) + ": '" +
                        number::printable(line, 60) + "' is not an outcome of this law's form (" +
                        std::to_string(law.n) +
                        " labels joined by ',', then ';' and the queries of Phase 1 and of Phase "
                        "2): outcomes of another instance, or not an outcome file");
      ++n;
      if (const auto it = index.find(line); it != index.end()) {
        ++counts[it->second];
      } else {
        auto& [c, first] = impossible[line];
        if (c++ == 0) first = lineno;
      }
    }
  }
  if (n == 0) throw DataError(o.observed + ": no outcomes (the file is empty)");

  std::cout << "expected: " << o.expected
            << (law.instance.empty() ? "" : " (instance " + law.instance + ")") << ", "
            << law.outcomes.size() << " possible outcomes\n";
  std::cout << "observed: " << o.observed << ", " << n << " runs\n";
  if (!impossible.empty()) {
    std::cout << "verdict: does not conform: " << impossible.size()
              << " outcome(s) of probability 0 observed\n";
    std::size_t shown = 0;
    for (const auto& [name, cf] : impossible) {
      if (shown++ == static_cast<std::size_t>(o.top)) {
        std::cout << "  ... and " << impossible.size() - static_cast<std::size_t>(o.top)
                  << " more\n";
        break;
      }
      std::cout << "  '" << number::printable(name, 120) << "' " << cf.first
                << " time(s), first on line " << cf.second << "\n";
    }
    return kDoesNotConform;
  }

  const double tables = theory::multinomial_tables(n, law.outcomes.size());
  double p_value = 1;
  if (tables <= kMaxTables) {
    p_value = theory::exact_multinomial_p(law.p, counts, kMaxTables);
    std::cout << "test: exact multinomial (" << printf_text("%.0f", tables) << " tables of " << n
              << " runs over " << law.outcomes.size() << " outcomes, at most "
              << printf_text("%.0f", kMaxTables) << " are enumerated), p " << p_text(p_value)
              << "\n";
  } else {
    const auto [cell, cells] = theory::pool_cells(law.p, n);
    if (cells < 2)
      throw DataError(o.observed + ": " + std::to_string(n) +
                      " runs are too few to test: fewer than two outcomes are expected 5 times "
                      "(run the implementation more often)");
    std::vector<double> pc(cells, 0.0);
    std::vector<std::uint64_t> cc(cells, 0);
    for (std::size_t i = 0; i < law.p.size(); ++i) {
      pc[cell[i]] += law.p[i];
      cc[cell[i]] += counts[i];
    }
    const theory::GTest g = theory::g_test(pc, cc);
    p_value = g.p_value;
    std::cout << "test: G-test with Williams' correction (the exact multinomial test would "
                 "enumerate "
              << (std::isinf(tables) ? std::string("more than 1e308") : printf_text("%.3g", tables))
              << " tables) on " << cells
              << " cells (outcomes expected fewer than 5 times pooled), G = "
              << printf_text("%.4f", g.g) << ", Williams divisor "
              << printf_text("%.6f", g.williams) << ", df = " << g.df << ", p " << p_text(p_value)
              << " (chi-square)\n";
  }
  const bool pass = p_value >= o.alpha;
  std::cout << "verdict: " << (pass ? "conforms" : "does not conform")
            << " at alpha = " << printf_text("%g", o.alpha) << " (p " << (pass ? ">=" : "<")
            << " alpha)\n";
  if (pass) return 0;

  // Every outcome's count against its exact Clopper-Pearson interval, at a confidence that holds
  // for all outcomes at once (Bonferroni over them): 'over' / 'under' when the expected count lies
  // outside. Listed: those first, then the rest, each by |observed - expected|.
  const double each = o.alpha / static_cast<double>(law.outcomes.size());
  const auto N = static_cast<double>(n);
  struct Row {
    std::size_t i;
    double lo, hi, e;
    int mark;  // 1 over, -1 under, 0 inside
  };
  std::vector<Row> rows;
  std::size_t over = 0, under = 0;
  for (std::size_t i = 0; i < law.outcomes.size(); ++i) {
    const auto [lo, hi] = theory::clopper_pearson(counts[i], n, each);
    const double e = N * law.p[i];
    const int mark = e < N * lo ? 1 : e > N * hi ? -1 : 0;
    over += mark == 1;
    under += mark == -1;
    rows.push_back({i, N * lo, N * hi, e, mark});
  }
  std::stable_sort(rows.begin(), rows.end(), [&](const Row& a, const Row& b) {
    if ((a.mark != 0) != (b.mark != 0)) return a.mark != 0;
    return std::fabs(static_cast<double>(counts[a.i]) - a.e) >
           std::fabs(static_cast<double>(counts[b.i]) - b.e);
  });
  std::cout << over << " outcome(s) over-represented, " << under
            << " under-represented: the expected count lies outside the observed count's exact "
               "Clopper-Pearson interval at confidence 1 - "
            << printf_text("%.3g", each) << " (alpha shared by the " << law.outcomes.size()
            << " outcomes); the most moved:\n";
  const std::size_t top = std::min(static_cast<std::size_t>(o.top), rows.size());
  for (std::size_t r = 0; r < top; ++r) {
    const Row& w = rows[r];
    std::cout << "  "
              << (w.mark == 1    ? "over "
                  : w.mark == -1 ? "under"
                                 : "     ")
              << "  " << law.outcomes[w.i] << "  observed " << counts[w.i] << ", expected "
              << printf_text("%.1f", w.e) << " (x"
              << printf_text("%.2f", static_cast<double>(counts[w.i]) / w.e) << "), interval ["
              << printf_text("%.1f", w.lo) << ", " << printf_text("%.1f", w.hi) << "]\n";
  }
  return kDoesNotConform;
}

}  // namespace

Command add_gof(CLI::App& root) {
  auto* app = root.add_subcommand(
      "gof",
      "Goodness of fit of an implementation's outcomes (one per line) to an instance's exact "
      "law from `ssac conformance --distribution`; exit 0 it fits, 4 it does not.");
  auto o = std::make_shared<Opts>();
  app->add_option("--expected", o->expected, "an instance of the distribution corpus (JSON)")
      ->required();
  app->add_option("--observed", o->observed, "one outcome per line, from independent runs")
      ->required();
  app->add_option("--alpha", o->alpha,
                  "false-alarm rate: the probability that outcomes drawn from the law itself "
                  "are judged not to conform, in (0, 1)")
      ->capture_default_str();
  app->add_option("--top", o->top, "how many of the most moved outcomes to list on a failure")
      ->capture_default_str();
  path_options(app, {"--expected", "--observed"});
  return {app, [o]() { return run_gof(*o); }};
}

}  // namespace ssac::cli
