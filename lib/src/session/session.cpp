// The labelling session (ssac/session.hpp): the run replayed from the answer log.
#include "ssac/session.hpp"

#include <bit>
#include <boost/math/distributions/binomial.hpp>
#include <limits>
#include <map>
#include <sstream>

#include "ssac/error.hpp"
#include "ssac/oracle_spec.hpp"
#include "ssac/rules.hpp"
#include "ssac/trace.hpp"

namespace ssac {

namespace {

// "NAME:LINE: " for an answer read from the answer file NAME, "" otherwise.
std::string where(const std::string& name, const LoggedAnswer& e) {
  if (name.empty()) return "";
  return name + (e.line > 0 ? ":" + std::to_string(e.line) : std::string()) + ": ";
}

// The replay stops here: the run asks a pair the log does not answer yet.
struct NeedAnswer {
  std::size_t x, y;
};

// Answers the run's queries from the log, in the order the log was written: the i-th new pair the
// run asks must be the log's i-th line (the run is a deterministic function of the seed and the
// answers, so a log written by this run always is); a pair asked again gets its first answer
// (per-pair memory). Past the log's end the replay stops with NeedAnswer.
class LogOracle : public Oracle {
 public:
  LogOracle(const std::vector<LoggedAnswer>& log, const std::string& name)
      : log_(log), name_(name) {}
  Answer query(std::size_t x, std::size_t y) override {
    ++queries_;
    if (x == y) return Answer::Yes;  // S4: a point is in its own cluster; the person is not shown
    const auto key = std::make_pair(std::min(x, y), std::max(x, y));
    if (auto it = memo_.find(key); it != memo_.end()) return it->second;
    if (used_ == log_.size()) {
      --queries_;  // not answered: not asked yet
      throw NeedAnswer{x, y};
    }
    const LoggedAnswer& e = log_[used_];
    if (e.x != key.first || e.y != key.second)
      throw DataError(where(name_, e) + "answer " + std::to_string(used_ + 1) + " is for rows " +
                      std::to_string(e.x) + "," + std::to_string(e.y) + " but the run asks " +
                      std::to_string(key.first) + "," + std::to_string(key.second) +
                      " there: the answers were given to another run");
    ++used_;
    memo_[key] = e.answer;
    return e.answer;
  }
  std::size_t used() const { return used_; }
  std::size_t queries() const { return queries_; }

 private:
  const std::vector<LoggedAnswer>& log_;
  const std::string& name_;
  std::map<std::pair<std::size_t, std::size_t>, Answer> memo_;
  std::size_t used_ = 0, queries_ = 0;
};

std::uint64_t sat_mul(std::uint64_t a, std::uint64_t b) {
  if (a != 0 && b > std::numeric_limits<std::uint64_t>::max() / a)
    return std::numeric_limits<std::uint64_t>::max();
  return a * b;
}
std::uint64_t sat_add(std::uint64_t a, std::uint64_t b) {
  return b > std::numeric_limits<std::uint64_t>::max() - a
             ? std::numeric_limits<std::uint64_t>::max()
             : a + b;
}

// "name=value" fields of a header line, in order.
std::vector<std::string> fields(const std::string& line) {
  std::vector<std::string> out;
  std::istringstream in(line);
  std::string w;
  while (in >> w)
    out.push_back(w);
  return out;
}

}  // namespace

std::string answer_log_header(const Matrix& X, const SessionSpec& spec) {
  const Params& P = spec.params;
  std::string rules = describe({P.rules, P.elimination});
  for (char& c : rules)
    if (c == ' ') c = ',';
  return "# ssac-answers 1 points=" + points_fingerprint(X) + " k=" + std::to_string(P.k) +
         " eta=" + format_double(P.eta) + " beta=" + std::to_string(P.beta) +
         " search=" + to_string(P.search) + " algorithm=" + to_string(spec.algorithm) +
         " rules=" + rules + " oracle-clusters=" + std::to_string(P.oracle_clusters) +
         " seed=" + std::to_string(spec.seed);
}

std::string format_logged_answer(const LoggedAnswer& a) {
  return std::to_string(a.x) + "," + std::to_string(a.y) + "," + to_string(a.answer);
}

std::vector<LoggedAnswer> parse_answer_log(const std::string& text, const std::string& name,
                                           std::size_t n, const std::string& header) {
  std::string_view rest(text);
  // A byte order mark, as an editor may add when the file is saved by hand, is no part of it.
  if (rest.starts_with("\xEF\xBB\xBF")) rest.remove_prefix(3);
  std::size_t first_line = 1;
  if (!rest.empty() && rest[0] == '#') {
    const std::size_t nl = rest.find('\n');
    std::string_view line = rest.substr(0, nl);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line != header) {
      const auto have = fields(std::string(line)), want = fields(header);
      std::string what = "another format";
      for (std::size_t i = 0; i < want.size(); ++i)
        if (i >= have.size() || have[i] != want[i]) {
          what = i < have.size() ? "'" + have[i] + "', not '" + want[i] + "'" : "no " + want[i];
          break;
        }
      throw DataError(name + ":1: the answers were given for other data or parameters (" + what +
                      "); use another answer file");
    }
    rest = nl == std::string_view::npos ? std::string_view() : rest.substr(nl + 1);
    first_line = 2;
  }
  return read_answer_lines(rest, name, n, first_line);
}

std::uint64_t max_queries(std::size_t n, const Params& P) {
  const auto k = static_cast<std::uint64_t>(P.k);
  const std::uint64_t per_step = P.search == Search::random || P.search == Search::unified
                                     ? static_cast<std::uint64_t>(P.beta)
                                     : 1;
  const std::uint64_t steps = std::bit_width(static_cast<std::uint64_t>(n));
  const std::uint64_t per_iteration =
      sat_add(sat_mul(k, P.sample_size()), sat_mul(per_step, steps));
  return sat_mul(k, per_iteration);
}

std::pair<double, double> clopper_pearson(std::size_t successes, std::size_t trials, double alpha) {
  if (trials == 0) return {0.0, 1.0};
  using B = boost::math::binomial_distribution<>;
  const auto n = static_cast<double>(trials), k = static_cast<double>(successes);
  return {B::find_lower_bound_on_p(n, k, alpha / 2, B::clopper_pearson_exact_interval),
          B::find_upper_bound_on_p(n, k, alpha / 2, B::clopper_pearson_exact_interval)};
}

Session::Session(const Matrix& X, SessionSpec spec, std::vector<LoggedAnswer> log,
                 std::string log_name)
    : X_(X), spec_(std::move(spec)), log_(std::move(log)), log_name_(std::move(log_name)) {
  spec_.params.check(static_cast<std::size_t>(X_.rows()));
  replay_log();
}

void Session::replay_log() {
  pending_.reset();
  result_.reset();
  LogOracle base(log_, log_name_);
  AskedOracle oracle(base, spec_.algorithm == Algorithm::original,
                     Rng::stream(spec_.seed, {kStreamCoinFlip}));
  try {
    result_ = run_ssac(X_, oracle.get(), spec_.params, spec_.seed);
  } catch (const NeedAnswer& q) {
    pending_ = std::make_pair(q.x, q.y);
  }
  queries_ = base.queries();
  if (result_ && base.used() < log_.size())
    throw DataError(where(log_name_, log_[base.used()]) + "the run ends after " +
                    std::to_string(base.used()) + " answers but there are " +
                    std::to_string(log_.size()) + ": the answers were given to another run");
}

LoggedAnswer Session::answer(Answer a) {
  if (!pending_) throw ParameterError("the run is over: there is no question to answer");
  const LoggedAnswer e{std::min(pending_->first, pending_->second),
                       std::max(pending_->first, pending_->second), a};
  log_.push_back(e);
  replay_log();
  return e;
}

void Session::undo(std::size_t keep) {
  if (keep >= log_.size())
    throw ParameterError("undo: keep = " + std::to_string(keep) +
                         " is outside its admissible range 0.." +
                         (log_.empty() ? "-1 (no answer yet)" : std::to_string(log_.size() - 1)));
  log_.resize(keep);
  replay_log();
}

SessionProgress Session::progress() const {
  SessionProgress p;
  p.questions = log_.size();
  p.queries = queries_;
  p.max_queries = max_queries(static_cast<std::size_t>(X_.rows()), spec_.params);
  p.max_remaining = pending_ && p.max_queries > queries_ ? p.max_queries - queries_ : 0;
  for (const auto& e : log_)
    p.not_sure += e.answer == Answer::NotSure;
  std::tie(p.not_sure_low, p.not_sure_high) = clopper_pearson(p.not_sure, p.questions, 0.05);
  return p;
}

Result Session::replay(RunObserver* observer) const {
  if (pending_)
    throw ParameterError("the run is not over: question " + std::to_string(log_.size() + 1) +
                         " has no answer yet");
  LogOracle base(log_, log_name_);
  AskedOracle oracle(base, spec_.algorithm == Algorithm::original,
                     Rng::stream(spec_.seed, {kStreamCoinFlip}));
  return run_ssac(X_, oracle.get(), spec_.params, spec_.seed, observer);
}

}  // namespace ssac
