// The oracle check (ssac/oracle_check.hpp): the trace's query events against the oracle's rule.
#include "ssac/oracle_check.hpp"

#include <algorithm>
#include <boost/math/distributions/binomial.hpp>
#include <cstdio>
#include <set>
#include <utility>

#include "ssac/error.hpp"
#include "trace/read.hpp"

namespace ssac {

namespace {

const char* word(Answer a) {
  return a == Answer::Yes ? "yes" : a == Answer::No ? "no" : "not-sure";
}

std::string fixed(double x, int digits) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.*f", digits, x);
  return buf;
}

// Whether x and y share a cluster of the labels, in words, with the labels.
std::string clusters_of(const std::vector<int>& labels, std::size_t x, std::size_t y) {
  const int a = labels[x], b = labels[y];
  return std::string(a == b ? "x and y are in one cluster" : "x and y are in different clusters") +
         " (labels " + std::to_string(a) + " and " + std::to_string(b) + ")";
}

// The oracle the check holds the answers to: the header's, else the fallback. Throws
// ParameterError when there is none or it has no rule to check.
OracleSpec oracle_of(const trace::json& h, const std::optional<OracleSpec>& fallback,
                     bool& from_header) {
  std::optional<OracleSpec> spec;
  if (h.contains("oracle"))
    spec = h["oracle"].is_string() ? parse_oracle_spec(h["oracle"].get<std::string>())
                                   : std::optional<OracleSpec>(trace::oracle_spec_of(h["oracle"]));
  from_header = spec.has_value();
  if (!spec) spec = fallback;
  if (!spec) {
    // Version 2 writes the oracle as an object or not at all; version 1 wrote free text.
    const std::string what =
        !h.contains("oracle") ? "no \"oracle\" field" : "\"oracle\": " + h["oracle"].dump();
    throw ParameterError("--check-oracle: the trace's header names no oracle this program reads (" +
                         what + "); give it with --oracle and its --q, --nu or --rho");
  }
  if (spec->kind == OracleKind::interactive)
    throw ParameterError("--check-oracle: an interactive oracle (a person) has no rule to check");
  if (h["algorithm"] == "original")
    throw ParameterError(
        "--check-oracle: the original SSAC's answers passed through coin flips where the oracle "
        "abstained, so they cannot be checked against it");
  // The header's oracle_memory is the trace's word on memory (docs/trace-format.md): per-pair
  // counts only a pair's first answer towards the abstention rate.
  if (spec->uses_memory() && h.contains("oracle_memory"))
    spec->memory = h["oracle_memory"] == "per-pair" ? OracleMemory::per_pair : OracleMemory::fresh;
  return *spec;
}

}  // namespace

std::string OracleCheck::verdict() const {
  if (wrong) return wrong->message;
  if (spec.kind != OracleKind::random)
    return "all " + std::to_string(queries) +
           (spec.kind == OracleKind::correlated ? " definite ones truthful"
                                                : " recomputed from the labels agree");
  // Definition 5: each query abstains with probability 1 - q.
  return "every definite answer of " + std::to_string(queries) + " is truthful; abstentions " +
         std::to_string(abstentions) + " of " + std::to_string(trials) + " = " +
         fixed(trials ? static_cast<double>(abstentions) / static_cast<double>(trials) : 0.0, 4) +
         ", exact two-sided " + fixed(confidence * 100, 1) + "% Clopper-Pearson interval [" +
         fixed(rate_lo, 4) + ", " + fixed(rate_hi, 4) + "] " +
         (rate_consistent ? "contains" : "excludes") + " 1 - q = " + fixed(1.0 - spec.q, 4) +
         (rate_consistent ? ""
                          : ": Definition 5 has each query abstain with probability 1 - q; this "
                            "oracle abstains at another rate");
}

OracleCheck check_oracle_answers(const Matrix& X, const std::vector<int>& labels,
                                 const std::string& text, const std::string& name,
                                 const std::optional<OracleSpec>& fallback, double confidence) {
  // One streaming pass over the trace's lines (lib/src/trace/lines.hpp): the header first, then
  // each query event as it is read.
  trace::TraceLines lines(text, name);
  OracleCheck c;
  std::optional<PerfectOracle> perfect;
  std::optional<DistanceWeakOracle> distance;
  std::set<std::pair<std::size_t, std::size_t>> seen;
  std::size_t e = 0;  // events read, = the 1-based number of the current one
  auto header = [&](const trace::json& h) {
    c.spec = oracle_of(h, fallback, c.spec_from_header);
    // The deterministic oracles, recomputed; the random ones' definite answers are the truth.
    if (c.spec.kind == OracleKind::perfect) perfect.emplace(labels);
    if (c.spec.kind == OracleKind::local)
      distance.emplace(DistanceWeakOracle::local(X, labels, c.spec.nu, c.spec.rho));
    if (c.spec.kind == OracleKind::global)
      distance.emplace(DistanceWeakOracle::global(X, labels, c.spec.rho));
  };
  trace::scan_trace(
      lines, static_cast<std::size_t>(X.rows()), static_cast<std::size_t>(X.cols()),
      [&](const trace::json& ev) {
        if (++e == 1) return header(ev);
        if (ev["event"] != "query") return;
        ++c.queries;
        const std::size_t x = ev["x"].get<std::size_t>();
        const std::size_t y = ev["y"].get<std::size_t>();
        const std::string found = ev["answer"].get<std::string>();
        // The correlated oracle's abstentions are not independent: no rate test.
        if (c.spec.kind == OracleKind::random) {
          const bool first = seen.insert({std::min(x, y), std::max(x, y)}).second;
          if (c.spec.memory == OracleMemory::fresh || first) {
            ++c.trials;
            c.abstentions += found == "not-sure";
          }
        }
        if (c.wrong) return;
        std::string expected, rule;
        if (perfect) {
          expected = word(perfect->query(x, y));
          rule = "perfect oracle (Definition 3, never not-sure): " + clusters_of(labels, x, y);
        } else if (distance) {
          expected = word(distance->query(x, y));
          rule = distance->rule(x, y);
        } else if (found != "not-sure") {
          expected = labels[x] == labels[y] ? "yes" : "no";
          rule = std::string(c.spec.kind == OracleKind::random ? "random-weak oracle (Definition 5)"
                                                               : "correlated oracle") +
                 ": a definite answer is the truth, " + clusters_of(labels, x, y);
        } else {
          return;
        }
        if (expected == found) return;
        OracleCheck::Wrong w{e, x, y, expected, found, rule, ""};
        const bool abstains = !perfect && !distance;  // it may also say not-sure
        w.message = "event " + std::to_string(e) + ": Q(" + std::to_string(x) + ", " +
                    std::to_string(y) + "): " + rule + ", so the oracle answers " + expected +
                    (abstains ? " or not-sure" : "") + "; the trace has " + found;
        c.wrong = std::move(w);
      });
  if (c.spec.kind == OracleKind::random && c.trials > 0) {
    // Definition 5: each query abstains with probability 1 - q, independently.
    using B = boost::math::binomial_distribution<>;
    const double alpha = (1.0 - confidence) / 2.0;
    const auto n = static_cast<double>(c.trials), k = static_cast<double>(c.abstentions);
    c.confidence = confidence;
    c.rate_lo = B::find_lower_bound_on_p(n, k, alpha, B::clopper_pearson_exact_interval);
    c.rate_hi = B::find_upper_bound_on_p(n, k, alpha, B::clopper_pearson_exact_interval);
    const double target = 1.0 - c.spec.q;
    c.rate_consistent = c.rate_lo <= target && target <= c.rate_hi;
  }
  return c;
}

}  // namespace ssac
