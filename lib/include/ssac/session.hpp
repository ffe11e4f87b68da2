// A labelling session with a person as the oracle (Definition 3's weak same-cluster query answered
// by a domain expert): the data, the parameters, the seed and the person's answers so far.
//
// A run of SSAC is a deterministic function of the seed and the answers: the algorithm's choices
// come from its own keyed stream (and the original SSAC's coin flips from theirs), so replaying
// the run with the same answers asks the same questions in the same order. The session therefore
// keeps only the answer log and replays the run from it whenever it changes: the replay stops at
// the first question the log does not answer, which is the question to show next. Undo to any
// earlier question is truncating the log and replaying; resuming is reading the log back.
//
// A person is asked each unordered pair once and the answer is kept for the rest of the run (per-
// pair memory, proofs-notes/oracle-independence.md), so the log holds one line per question the
// person saw, in the order asked. A self-pair Q(x, x) is never shown: a point is in its own
// cluster (proofs-notes/semantics.md S4), so the session answers it yes itself.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "ssac/data.hpp"
#include "ssac/oracle.hpp"
#include "ssac/ssac.hpp"

namespace ssac {

class RunObserver;

// What a session is about; the answer file's first line records it, so that answers given for
// other data or other parameters are never replayed into this run.
struct SessionSpec {
  Params params;
  Algorithm algorithm = Algorithm::weak;
  std::uint64_t seed = 0;
};

// The answer file's first line: "# ssac-answers 1 points=sha256:... k=.. eta=.. beta=.. search=..
// algorithm=.. rules=.. elimination=.. seed=..", every field that changes the run.
std::string answer_log_header(const Matrix& X, const SessionSpec& spec);
// "x,y,answer" with the answer's to_string (yes, no, not-sure), no line end.
std::string format_logged_answer(const LoggedAnswer& a);

// The answers of an answer file's text (after a UTF-8 byte order mark, if it has one). A first
// line starting with '#' must equal `header` (else
// DataError "NAME:1: ..." naming the first field that differs); a file without one (written
// before the header existed) is read as it is. The other lines are read by read_answer_lines
// (ssac/oracle.hpp), which names the line and column of an error.
std::vector<LoggedAnswer> parse_answer_log(const std::string& text, const std::string& name,
                                           std::size_t n, const std::string& header);

// Where a session stands.
struct SessionProgress {
  std::size_t questions = 0;  // answers the person has given (lines of the log)
  std::size_t queries = 0;    // same-cluster queries the algorithm has asked so far
  // The most same-cluster queries any run with these n, k, eta, beta and search can ask
  // (max_queries, the explicit count of Corollary 8), and the most that can remain after the
  // queries so far; the questions still to come are at most that many.
  std::uint64_t max_queries = 0;
  std::uint64_t max_remaining = 0;
  // The person's not-sure answers and the exact (Clopper-Pearson) 95% interval for the rate at
  // which they abstain, from the questions so far; [0, 1] before the first answer.
  std::size_t not_sure = 0;
  double not_sure_low = 0.0, not_sure_high = 1.0;
};

// Corollary 8's explicit worst case for the implementation (proofs-notes/corollary1-complexity.md):
// k iterations, each with r = ceil(k eta) cluster-assignment queries of at most k same-cluster
// queries (Definition 4) and at most bit_width(n) search steps (the binary search halves its
// range) of at most c queries, c = beta for Algorithms 2 and 4 (x_1 and beta - 1 draws of B) and
// c = 1 for Algorithm 3 and the plain search: k (k r + c bit_width(n)). Saturates at 2^64 - 1.
std::uint64_t max_queries(std::size_t n, const Params& P);

// The exact two-sided Clopper-Pearson interval with coverage 1 - alpha for a binomial proportion
// after `successes` of `trials` (Boost's find_lower/upper_bound_on_p at alpha / 2 each side).
std::pair<double, double> clopper_pearson(std::size_t successes, std::size_t trials, double alpha);

class Session {
 public:
  // Replays `log` at once. Throws DataError when the log does not fit this run: an answer for a
  // pair the run does not ask at that point, or more answers than the run asks; the message
  // starts "LOG_NAME:LINE: " with the answer's line when `log_name` (the answer file) is given.
  Session(const Matrix& X, SessionSpec spec, std::vector<LoggedAnswer> log = {},
          std::string log_name = "");

  bool finished() const { return !pending_; }
  // The question to show (the rows in the order the algorithm asks Q(x, y)); only while not
  // finished.
  std::pair<std::size_t, std::size_t> question() const { return *pending_; }
  // Records the answer to question() and replays to the next question. Returns the log line.
  LoggedAnswer answer(Answer a);
  // Keeps the first `keep` answers (keep < log().size()) and replays: question() is then the
  // (keep + 1)-th question again. Throws ParameterError when keep is not below the log's size.
  void undo(std::size_t keep);
  const std::vector<LoggedAnswer>& log() const { return log_; }
  SessionProgress progress() const;
  // The finished run; only when finished().
  const Result& result() const { return *result_; }
  // The finished run again, reporting its events to `observer` (a trace writer): the same run.
  Result replay(RunObserver* observer) const;
  const SessionSpec& spec() const { return spec_; }

 private:
  void replay_log();
  const Matrix& X_;
  SessionSpec spec_;
  std::vector<LoggedAnswer> log_;
  std::string log_name_;  // the answer file, for messages
  std::optional<std::pair<std::size_t, std::size_t>> pending_;
  std::optional<Result> result_;
  std::size_t queries_ = 0;
};

}  // namespace ssac
