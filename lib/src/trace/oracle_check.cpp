// The oracle check (ssac/oracle_check.hpp): the trace's query events against the oracle's rule.
#include "ssac/oracle_check.hpp"

#include <algorithm>
#include <boost/math/distributions/binomial.hpp>
#include <set>
#include <utility>

#include "ssac/error.hpp"
#include "trace/read.hpp"

namespace ssac {

namespace {

const char* word(Answer a) {
  return a == Answer::Yes ? "yes" : a == Answer::No ? "no" : "not-sure";
}

}  // namespace

OracleCheck check_oracle_answers(const Matrix& X, const std::vector<int>& labels,
                                 const std::string& text, const std::string& name,
                                 const std::optional<OracleSpec>& fallback, double confidence) {
  // One streaming pass over the trace's lines (lib/src/trace/lines.hpp): the header first, then
  // each query event as it is read.
  trace::TraceLines lines(text, name);
  OracleCheck c;
  std::optional<OracleSpec> spec;
  std::unique_ptr<Oracle> exact;
  std::set<std::pair<std::size_t, std::size_t>> seen;
  std::size_t e = 0;  // events read, = the 1-based number of the current one
  auto header = [&](const trace::json& h) {
    if (h.contains("oracle")) spec = parse_oracle_spec(h["oracle"].get<std::string>());
    c.spec_from_header = spec.has_value();
    if (!spec) spec = fallback;
    if (!spec)
      throw ParameterError(
          "--check-oracle: the trace's header names no oracle this program reads (\"oracle\": " +
          (h.contains("oracle") ? h["oracle"].dump() : std::string("absent")) +
          "); give it with --oracle and its --q, --nu or --rho");
    if (spec->kind == OracleKind::interactive)
      throw ParameterError("--check-oracle: an interactive oracle (a person) has no rule to check");
    if (h["algorithm"] == "original")
      throw ParameterError(
          "--check-oracle: the original SSAC's answers passed through coin flips where the oracle "
          "abstained, so they cannot be checked against it");
    // The header's oracle_memory is the trace's word on memory (docs/trace-format.md): per-pair
    // counts only a pair's first answer towards the abstention rate.
    if (spec->uses_memory() && h.contains("oracle_memory"))
      spec->memory =
          h["oracle_memory"] == "per-pair" ? OracleMemory::per_pair : OracleMemory::fresh;
    c.spec = *spec;
    // The deterministic oracles, recomputed; the random ones' definite answers are the truth.
    if (spec->kind != OracleKind::random && spec->kind != OracleKind::correlated)
      exact = make_oracle(*spec, X, labels, Rng(0));
  };
  trace::scan_trace(lines, static_cast<std::size_t>(X.rows()), static_cast<std::size_t>(X.cols()),
                    [&](const trace::json& ev) {
                      if (++e == 1) return header(ev);
                      if (ev["event"] != "query") return;
                      ++c.queries;
                      const std::size_t x = ev["x"].get<std::size_t>();
                      const std::size_t y = ev["y"].get<std::size_t>();
                      const std::string found = ev["answer"].get<std::string>();
                      // The correlated oracle's abstentions are not independent: no rate test.
                      if (spec->kind == OracleKind::random) {
                        const bool first = seen.insert({std::min(x, y), std::max(x, y)}).second;
                        if (spec->memory == OracleMemory::fresh || first) {
                          ++c.trials;
                          c.abstentions += found == "not-sure";
                        }
                      }
                      std::string expected;
                      if (exact)
                        expected = word(exact->query(x, y));
                      else if (found != "not-sure")
                        expected = labels[x] == labels[y] ? "yes" : "no";
                      else
                        return;
                      if (expected != found && !c.wrong)
                        c.wrong = OracleCheck::Wrong{e, x, y, expected, found};
                    });
  if (spec->kind == OracleKind::random && c.trials > 0) {
    // Definition 5: each query abstains with probability 1 - q, independently.
    using B = boost::math::binomial_distribution<>;
    const double alpha = (1.0 - confidence) / 2.0;
    const auto n = static_cast<double>(c.trials), k = static_cast<double>(c.abstentions);
    c.confidence = confidence;
    c.rate_lo = B::find_lower_bound_on_p(n, k, alpha, B::clopper_pearson_exact_interval);
    c.rate_hi = B::find_upper_bound_on_p(n, k, alpha, B::clopper_pearson_exact_interval);
    const double target = 1.0 - spec->q;
    c.rate_consistent = c.rate_lo <= target && target <= c.rate_hi;
  }
  return c;
}

}  // namespace ssac
