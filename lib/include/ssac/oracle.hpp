// Oracles answering the weak same-cluster query of Definition 3.
//
// The oracle is the part of SSAC that varies, so it is a policy with one required member:
//
//     Answer query(std::size_t x, std::size_t y);   // Q(x, y) for rows x != y of the data
//
// The algorithm never asks Q(x, x): a point is in its own cluster (proofs-notes/semantics.md,
// "Self-pairs"). Simulated oracles answer from an oracle clustering given as labels 1..K; they are
// symmetric and never lie, they only abstain.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ssac/data.hpp"
#include "ssac/rng.hpp"

namespace ssac {

// Definition 3: +1 same cluster, 0 not-sure, -1 different clusters.
enum class Answer : int { No = -1, NotSure = 0, Yes = 1 };
const char* to_string(Answer a);  // "yes", "not-sure", "no"
// A person's answer as typed: y / yes / 1, n / no / -1, ? / s / not-sure / notsure / 0 (case and
// blanks ignored). False for anything else.
bool parse_answer(std::string_view s, Answer& a);

// One line of an answer log: the unordered pair (x < y, 0-based rows) and the person's answer.
struct LoggedAnswer {
  std::size_t x = 0, y = 0;
  Answer answer = Answer::NotSure;
  // The answer file's line it was read from (1-based), 0 for an answer given in this session;
  // for messages only, so not part of equality.
  std::size_t line = 0;
  bool operator==(const LoggedAnswer& o) const {
    return x == o.x && y == o.y && answer == o.answer;
  }
};

// The lines "x,y,answer" of an answer log (rows below n, answer as parse_answer reads it; the
// pair is stored with x < y), read as CSV records by the one tokenizer (ssac/csv.hpp: a field may
// be quoted), blank lines skipped; `text`'s first line is numbered `first_line`. A row paired
// with itself is refused: it is never asked (a point is in its own cluster). Throws DataError
// "NAME:LINE:COLUMN: column C (x|y|answer): ..." or, for a wrong number of fields,
// "NAME:LINE:1: ...".
std::vector<LoggedAnswer> read_answer_lines(std::string_view text, const std::string& name,
                                            std::size_t n, std::size_t first_line = 1);

class Oracle {
 public:
  virtual ~Oracle() = default;
  virtual Answer query(std::size_t x, std::size_t y) = 0;
};

// Never abstains.
class PerfectOracle : public Oracle {
 public:
  explicit PerfectOracle(std::vector<int> labels) : labels_(std::move(labels)) {}
  Answer query(std::size_t x, std::size_t y) override;

 private:
  std::vector<int> labels_;
};

// What Definition 5 leaves open: whether asking the same pair again draws afresh
// (proofs-notes/oracle-independence.md). `fresh`: every query is a new Bernoulli draw (the
// reference's default). `per_pair`: the first answer to an unordered pair is the answer for the
// rest of the run, as a person who remembers would give it.
enum class OracleMemory { fresh, per_pair };
const char* to_string(OracleMemory m);  // "fresh", "per-pair"
// The inverse of to_string(OracleMemory); nullopt for any other name.
std::optional<OracleMemory> parse_oracle_memory(std::string_view name);
const std::vector<std::string>& oracle_memory_names();  // "fresh", "per-pair"

// Definition 5, in its worst case: each query is not-sure with probability exactly 1 - q (the
// definition allows "at most"), otherwise the truth; abstentions on different pairs are
// independent. The abstentions come from the oracle's own stream, one Bernoulli(q) draw per query
// (per pair with OracleMemory::per_pair: a repeated pair draws nothing).
class RandomWeakOracle : public Oracle {
 public:
  RandomWeakOracle(std::vector<int> labels, double q, Rng rng,
                   OracleMemory memory = OracleMemory::fresh);
  Answer query(std::size_t x, std::size_t y) override;

 private:
  // OracleMemory::per_pair's answer: the pair's first, drawn once and remembered.
  Answer remembered(std::size_t x, std::size_t y);

  std::vector<int> labels_;
  double q_;
  Rng rng_;
  OracleMemory memory_;
  std::map<std::pair<std::size_t, std::size_t>, Answer> memo_;
};

// Definition 5's marginal without its independence (proofs-notes/oracle-independence.md): once per
// run, with probability 1 - q, the oracle is confused about every point outside rho r(C_i) of its
// own cluster's mean (the "hard" points, as in Definition 7 (a)), and then answers not-sure to
// every pair that involves one; otherwise, and for every other pair, it tells the truth. Every
// pair's not-sure probability is 0 or 1 - q, so Definition 5 holds; the abstentions of different
// pairs are perfectly correlated.
class CorrelatedWeakOracle : public Oracle {
 public:
  CorrelatedWeakOracle(const Matrix& X, std::vector<int> labels, double q, double rho, Rng rng);
  // The same with the run's one draw given instead of drawn: the exact enumerator
  // (ssac/exact.hpp) follows both outcomes, confused with weight 1 - q and not with weight q.
  CorrelatedWeakOracle(const Matrix& X, std::vector<int> labels, double rho, bool confused);
  Answer query(std::size_t x, std::size_t y) override;
  bool confused() const { return confused_; }
  bool hard(std::size_t x) const { return hard_[x] != 0; }

 private:
  void find_hard(const Matrix& X, double rho);
  std::vector<int> labels_;
  std::vector<char> hard_;
  bool confused_ = false;
};

// Definitions 6 and 7 share condition (b) and the oracle's own means and radii.
class DistanceWeakOracle : public Oracle {
 public:
  // Definition 6, (nu, rho) local distance-weak: nu >= 1, rho in (0, 1].
  static DistanceWeakOracle local(const Matrix& X, std::vector<int> labels, double nu, double rho);
  // Definition 7, rho global distance-weak: rho in (0, 1].
  static DistanceWeakOracle global(const Matrix& X, std::vector<int> labels, double rho);

  Answer query(std::size_t x, std::size_t y) override;
  // Whether Definition 6/7 makes the pair not-sure (the oracle abstains exactly then).
  bool confused(std::size_t x, std::size_t y) const;
  // The clause of Definition 6 or 7 that decides Q(x, y), with both sides of its inequality as
  // they compare, e.g. "Definition 6(a): d(x,y) = 1.2 >= (nu-1) min{d(x,mu_i), d(y,mu_j)} = 0.9"
  // (`ssac validate --check-oracle` names it when a trace's answer differs).
  std::string rule(std::size_t x, std::size_t y) const;

 private:
  // The condition of Definition 6 or 7 on the pair: which clause applies (b for one cluster, a for
  // two), whether it holds (the oracle abstains), and the sides of its inequality. Global (a) has
  // one inequality per point; `left` and `right` are x's, `left2` and `right2` y's.
  struct Condition {
    char clause;
    bool holds;
    double left, right, left2 = 0.0, right2 = 0.0;
  };
  Condition condition(std::size_t x, std::size_t y) const;
  DistanceWeakOracle(const Matrix& X, std::vector<int> labels, bool is_local, double nu,
                     double rho);
  const Matrix* X_;
  std::vector<int> labels_;
  bool local_;
  double nu_, rho_;
  std::vector<double> dist_to_own_mean_;  // d(x, mu_i) for x in C_i
  std::vector<double> radius_;            // r(C_i), index i-1
};

// The baseline's oracle (Ashtiani et al. assume yes/no answers): forwards to `inner` and turns
// each not-sure into a fair coin flip from its own stream.
class CoinFlipOracle : public Oracle {
 public:
  CoinFlipOracle(Oracle& inner, Rng rng) : inner_(inner), rng_(rng) {}
  Answer query(std::size_t x, std::size_t y) override;

 private:
  Oracle& inner_;
  Rng rng_;
};

// Asks a person. Shows both rows (1-based, as in the CSV file's data rows) and their coordinates,
// reads y / n / ? (also yes / no / not sure / s); a self-pair Q(x, x) is answered yes without
// asking (S4: it is the oracle's knowledge) and is neither counted nor logged. An unordered pair is
// asked once: the answer is
// remembered for the rest of the run and, when `log` is given, appended to it at once as
// "x,y,answer" so that an interrupted session loses nothing; `preload` restores such a log.
class InteractiveOracle : public Oracle {
 public:
  // Every answer is written to `log` (when given) as it is given, and flushed; a write or flush
  // that fails throws DataError naming `log_name`, so no answer is taken that the log lacks.
  InteractiveOracle(const Matrix& X, std::istream& in, std::ostream& out,
                    std::ostream* log = nullptr, std::string log_name = "the answer log");
  // Reads the lines "x,y,answer" written to `log` (read_answer_lines, with n the rows of X).
  void preload(std::istream& log_in, const std::string& name);
  Answer query(std::size_t x, std::size_t y) override;
  std::size_t asked() const { return asked_; }

 private:
  const Matrix& X_;
  std::istream& in_;
  std::ostream& out_;
  std::ostream* log_;
  std::string log_name_;
  std::map<std::pair<std::size_t, std::size_t>, Answer> memo_;
  std::size_t asked_ = 0;
};

// Counts and records every query that reaches `inner`, in order.
class RecordingOracle : public Oracle {
 public:
  struct Entry {
    std::size_t x, y;
    Answer answer;
  };
  explicit RecordingOracle(Oracle& inner) : inner_(inner) {}
  Answer query(std::size_t x, std::size_t y) override;
  const std::vector<Entry>& entries() const { return entries_; }
  std::size_t count() const { return entries_.size(); }

 private:
  Oracle& inner_;
  std::vector<Entry> entries_;
};

}  // namespace ssac
