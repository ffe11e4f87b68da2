// Checking a trace's oracle answers against the oracle it claims (`ssac validate --check-oracle`).
// Validation replays the recorded answers; this check asks whether those answers could have come
// from the oracle at all: a deterministic oracle (perfect, Definitions 6 and 7) is recomputed from
// the data's labels answer by answer, and a random-weak oracle (Definition 5) must tell the truth
// whenever it answers and abstain at the rate 1 - q.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "ssac/data.hpp"
#include "ssac/oracle_spec.hpp"

namespace ssac {

struct OracleCheck {
  OracleSpec spec;
  bool spec_from_header = false;  // read from the header's `oracle` (else the fallback)
  std::size_t queries = 0;        // query events checked
  // The first answer the oracle could not have given.
  struct Wrong {
    std::size_t event = 0;  // 1-based event number (= line)
    std::size_t x = 0, y = 0;
    std::string expected, found;
    // The rule that decides the answer: the clause of Definition 6 or 7 with its inequality, or
    // the perfect (Definition 3) or random-weak (Definition 5) oracle's truthfulness.
    std::string rule;
    // "event E: Q(x, y): RULE, so the oracle answers EXPECTED; the trace has FOUND".
    std::string message;
  };
  std::optional<Wrong> wrong;
  // Random-weak oracle: the queries whose abstention is an independent Bernoulli(1 - q) draw
  // (every query; under memory=per-pair only the first query of each pair) and their not-sure
  // answers.
  std::size_t trials = 0, abstentions = 0;
  // The exact two-sided Clopper-Pearson interval for the abstention probability at `confidence`,
  // and whether it contains 1 - q (true for the other kinds). An oracle that abstains at exactly
  // 1 - q lands outside it with probability at most 1 - confidence.
  double confidence = 0.0, rate_lo = 0.0, rate_hi = 1.0;
  bool rate_consistent = true;

  bool passes() const { return !wrong && rate_consistent; }
  // The verdict in one line: the first wrong answer's message, else what was checked (for the
  // random-weak oracle the abstentions, their interval and whether it contains 1 - q).
  std::string verdict() const;
};

// Checks the answers of the trace `text` (named `name` in messages) on the points X with their
// true `labels` (1..K per row). The oracle is the header's: its `oracle` object (version 2), or
// in a version-1 trace its `oracle` text when parse_oracle_spec reads it; else `fallback`. Throws
// DataError "NAME:LINE: message" when the trace does not parse,
// and ParameterError with one line when no oracle can be determined, it is interactive (a person
// has no rule to recompute), or the trace's answers passed through the original SSAC's coin flips.
OracleCheck check_oracle_answers(const Matrix& X, const std::vector<int>& labels,
                                 const std::string& text, const std::string& name,
                                 const std::optional<OracleSpec>& fallback,
                                 double confidence = 0.999);

// Many traces' checks at once (`ssac validate --check-oracle` with several traces). Each trace's
// own abstention rate is tested as above, and the traces whose oracle is random-weak with one q
// and one memory are pooled: under Definition 5 their abstentions are independent Bernoulli(1 - q)
// draws across traces as within one, so one exact test of the pooled count sees a rate that is
// off by a little in every trace (the per-trace tests, each on a few dozen queries, see it only
// when it is off by a lot). The 1 - confidence of the whole batch is shared by every test, pooled
// and per trace, Bonferroni: a batch of traces of the claimed oracle fails with probability at
// most 1 - confidence, however many traces it holds.
struct OracleBatch {
  double confidence = 0.0;       // of the whole batch
  std::size_t tests = 0;         // the rate tests: one per pool, one per random-weak trace
  double test_confidence = 0.0;  // each test's: 1 - (1 - confidence) / tests
  struct Pool {
    OracleSpec spec;  // random-weak, with its q and memory
    std::size_t traces = 0, trials = 0, abstentions = 0;
    double rate_lo = 0.0, rate_hi = 1.0;  // the exact interval at test_confidence
    bool consistent = true;               // contains 1 - q
  };
  std::vector<Pool> pools;           // in order of first appearance
  std::vector<std::size_t> failing;  // the traces whose own check fails (a wrong answer or rate)
  bool passes() const;
  // One line per pool: the pooled counts, the interval and whether it contains 1 - q.
  std::string pool_verdict(const Pool& p) const;
};

// Pools `checks` (each from check_oracle_answers on one trace of the batch) and re-tests each
// trace's rate at the corrected confidence (its rate_lo, rate_hi, rate_consistent and confidence
// are rewritten).
OracleBatch pool_oracle_checks(std::vector<OracleCheck>& checks, double confidence = 0.999);

}  // namespace ssac
