// The oracle check (ssac/oracle_check.hpp): the trace's query events against the oracle's rule.
#include "ssac/oracle_check.hpp"

#include <algorithm>
#include <boost/math/distributions/binomial.hpp>
#include <cstdio>
#include <set>
#include <tuple>
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

// The exact two-sided Clopper-Pearson interval of a Bernoulli rate from k of n at `confidence`.
std::pair<double, double> rate_interval(std::size_t n, std::size_t k, double confidence) {
  using B = boost::math::binomial_distribution<>;
  const double alpha = (1.0 - confidence) / 2.0;
  const auto N = static_cast<double>(n), K = static_cast<double>(k);
  return {B::find_lower_bound_on_p(N, K, alpha, B::clopper_pearson_exact_interval),
          B::find_upper_bound_on_p(N, K, alpha, B::clopper_pearson_exact_interval)};
}

void test_rate(OracleCheck& c, double confidence) {
  c.confidence = confidence;
  std::tie(c.rate_lo, c.rate_hi) = rate_interval(c.trials, c.abstentions, confidence);
  const double target = 1.0 - c.spec.q;
  c.rate_consistent = c.rate_lo <= target && target <= c.rate_hi;
}

// The confidence printed with enough digits to tell 99.9% from 99.9998%.
std::string percent(double confidence) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.6g%%", confidence * 100);
  return buf;
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
         ", exact two-sided " + percent(confidence) + " Clopper-Pearson interval [" +
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
  // Definition 5: each query abstains with probability 1 - q, independently.
  if (c.spec.kind == OracleKind::random && c.trials > 0) test_rate(c, confidence);
  return c;
}

bool OracleBatch::passes() const {
  return failing.empty() &&
         std::all_of(pools.begin(), pools.end(), [](const Pool& p) { return p.consistent; });
}

std::string OracleBatch::pool_verdict(const Pool& p) const {
  return std::to_string(p.traces) + (p.traces == 1 ? " trace" : " traces") + " of " +
         p.spec.describe() + ": abstentions " + std::to_string(p.abstentions) + " of " +
         std::to_string(p.trials) + " = " +
         fixed(p.trials ? static_cast<double>(p.abstentions) / static_cast<double>(p.trials) : 0.0,
               4) +
         ", exact two-sided " + percent(test_confidence) + " Clopper-Pearson interval [" +
         fixed(p.rate_lo, 4) + ", " + fixed(p.rate_hi, 4) + "] " +
         (p.consistent ? "contains" : "excludes") + " 1 - q = " + fixed(1.0 - p.spec.q, 4);
}

OracleBatch pool_oracle_checks(std::vector<OracleCheck>& checks, double confidence) {
  OracleBatch b;
  b.confidence = confidence;
  std::size_t per_trace = 0;
  for (const OracleCheck& c : checks) {
    if (c.spec.kind != OracleKind::random || c.trials == 0) continue;
    ++per_trace;
    const auto same = [&](const OracleBatch::Pool& p) {
      return p.spec.q == c.spec.q && p.spec.memory == c.spec.memory;
    };
    auto it = std::find_if(b.pools.begin(), b.pools.end(), same);
    if (it == b.pools.end()) {
      b.pools.push_back({c.spec});
      it = b.pools.end() - 1;
    }
    ++it->traces;
    it->trials += c.trials;
    it->abstentions += c.abstentions;
  }
  b.tests = b.pools.size() + per_trace;
  b.test_confidence =
      b.tests ? 1.0 - (1.0 - confidence) / static_cast<double>(b.tests) : confidence;
  for (OracleBatch::Pool& p : b.pools) {
    std::tie(p.rate_lo, p.rate_hi) = rate_interval(p.trials, p.abstentions, b.test_confidence);
    p.consistent = p.rate_lo <= 1.0 - p.spec.q && 1.0 - p.spec.q <= p.rate_hi;
  }
  for (std::size_t i = 0; i < checks.size(); ++i) {
    OracleCheck& c = checks[i];
    if (c.spec.kind == OracleKind::random && c.trials > 0) test_rate(c, b.test_confidence);
    if (!c.passes()) b.failing.push_back(i);
  }
  return b;
}

}  // namespace ssac
