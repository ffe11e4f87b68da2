#include "ssac/oracle.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <istream>
#include <iterator>
#include <ostream>
#include <utility>

#include "ssac/csv.hpp"
#include "ssac/error.hpp"
#include "ssac/numbers.hpp"
#include "ssac/ranges.hpp"

namespace ssac {

const char* to_string(Answer a) {
  switch (a) {
    case Answer::Yes:
      return "yes";
    case Answer::No:
      return "no";
    case Answer::NotSure:
      break;
  }
  return "not-sure";
}

static Answer truth(const std::vector<int>& labels, std::size_t x, std::size_t y) {
  return labels[x] == labels[y] ? Answer::Yes : Answer::No;
}

Answer PerfectOracle::query(std::size_t x, std::size_t y) {
  return truth(labels_, x, y);
}

const char* to_string(OracleMemory m) {
  return m == OracleMemory::fresh ? "fresh" : "per-pair";
}

std::optional<OracleMemory> parse_oracle_memory(std::string_view name) {
  for (OracleMemory m : {OracleMemory::fresh, OracleMemory::per_pair})
    if (name == to_string(m)) return m;
  return std::nullopt;
}

const std::vector<std::string>& oracle_memory_names() {
  static const std::vector<std::string> names = {to_string(OracleMemory::fresh),
                                                 to_string(OracleMemory::per_pair)};
  return names;
}

RandomWeakOracle::RandomWeakOracle(std::vector<int> labels, double q, Rng rng, OracleMemory memory)
    : labels_(std::move(labels)), q_(q), rng_(rng), memory_(memory) {
  range::check_q(q);
}

Answer RandomWeakOracle::query(std::size_t x, std::size_t y) {
  if (memory_ == OracleMemory::per_pair) return remembered(x, y);
  // Definition 5: not-sure with probability 1 - q, drawn for every query. Both answers are
  // formed and one taken, without a branch on the draw (mispredicted as often as not for q
  // inside (0, 1)); the draw comes first, as the truth draws nothing.
  const bool sure = rng_.bernoulli(q_);
  const Answer told = truth(labels_, x, y);
  return sure ? told : Answer::NotSure;
}

Answer RandomWeakOracle::remembered(std::size_t x, std::size_t y) {
  const auto key = std::make_pair(std::min(x, y), std::max(x, y));
  if (auto it = memo_.find(key); it != memo_.end()) return it->second;
  const Answer a = rng_.bernoulli(q_) ? truth(labels_, x, y) : Answer::NotSure;
  memo_.emplace(key, a);
  return a;
}

CorrelatedWeakOracle::CorrelatedWeakOracle(const Matrix& X, std::vector<int> labels, double q,
                                           double rho, Rng rng)
    : labels_(std::move(labels)) {
  range::check_q(q);
  find_hard(X, rho);
  // One Bernoulli(q) draw for the whole run: confused with probability exactly 1 - q.
  confused_ = !rng.bernoulli(q);
}

CorrelatedWeakOracle::CorrelatedWeakOracle(const Matrix& X, std::vector<int> labels, double rho,
                                           bool confused)
    : labels_(std::move(labels)), confused_(confused) {
  find_hard(X, rho);
}

void CorrelatedWeakOracle::find_hard(const Matrix& X, double rho) {
  range::check_rho(rho);
  // The hard points: d(x, mu_i) > rho r(C_i), the same strict inequality as Definition 7 (a).
  const ClusterStats st = cluster_stats(X, labels_);
  hard_.resize(labels_.size());
  for (std::size_t r = 0; r < labels_.size(); ++r) {
    const auto i = static_cast<std::size_t>(labels_[r] - 1);
    hard_[r] = distance(X, r, st.means[i]) > rho * st.radii[i];
  }
}

Answer CorrelatedWeakOracle::query(std::size_t x, std::size_t y) {
  if (confused_ && (hard_[x] || hard_[y])) return Answer::NotSure;
  return truth(labels_, x, y);
}

DistanceWeakOracle::DistanceWeakOracle(const Matrix& X, std::vector<int> labels, bool is_local,
                                       double nu, double rho)
    : X_(&X), labels_(std::move(labels)), local_(is_local), nu_(nu), rho_(rho) {
  if (is_local) range::check_nu(nu);
  range::check_rho(rho);
  // The oracle's clustering determines mu_i and r(C_i) (Definitions 6 and 7).
  const ClusterStats st = cluster_stats(X, labels_);
  radius_ = st.radii;
  dist_to_own_mean_.resize(labels_.size());
  for (std::size_t r = 0; r < labels_.size(); ++r)
    dist_to_own_mean_[r] = distance(X, r, st.means[static_cast<std::size_t>(labels_[r] - 1)]);
}

DistanceWeakOracle DistanceWeakOracle::local(const Matrix& X, std::vector<int> labels, double nu,
                                             double rho) {
  return DistanceWeakOracle(X, std::move(labels), true, nu, rho);
}

DistanceWeakOracle DistanceWeakOracle::global(const Matrix& X, std::vector<int> labels,
                                              double rho) {
  return DistanceWeakOracle(X, std::move(labels), false, 1.0, rho);
}

DistanceWeakOracle::Condition DistanceWeakOracle::condition(std::size_t x, std::size_t y) const {
  const int i = labels_[x], j = labels_[y];
  if (i == j) {
    // Condition (b) of Definitions 6 and 7: same cluster, too far apart.
    const double d = distance(*X_, x, y),
                 bound = 2.0 * rho_ * radius_[static_cast<std::size_t>(i - 1)];
    return {'b', d > bound, d, bound};
  }
  if (local_) {
    // Definition 6 (a): different clusters, too close relative to their distances to the centers.
    const double d = distance(*X_, x, y);
    const double bound = (nu_ - 1.0) * std::min(dist_to_own_mean_[x], dist_to_own_mean_[y]);
    return {'a', d < bound, d, bound};
  }
  // Definition 7 (a): different clusters, either point outside rho times its cluster's radius.
  const double bx = rho_ * radius_[static_cast<std::size_t>(i - 1)];
  const double by = rho_ * radius_[static_cast<std::size_t>(j - 1)];
  return {'a',
          dist_to_own_mean_[x] > bx || dist_to_own_mean_[y] > by,
          dist_to_own_mean_[x],
          bx,
          dist_to_own_mean_[y],
          by};
}

bool DistanceWeakOracle::confused(std::size_t x, std::size_t y) const {
  return condition(x, y).holds;
}

std::string DistanceWeakOracle::rule(std::size_t x, std::size_t y) const {
  const Condition c = condition(x, y);
  const std::string def =
      std::string("Definition ") + (local_ ? "6" : "7") + "(" + c.clause + "): ";
  auto cmp = [](bool strict_greater, bool holds) {
    // The clause's relation when it holds, else its negation.
    return strict_greater ? (holds ? " > " : " <= ") : (holds ? " < " : " >= ");
  };
  if (c.clause == 'b')
    return def + "d(x,y) = " + format_double(c.left) + cmp(true, c.holds) +
           "2 rho r(C_i) = " + format_double(c.right);
  if (local_)
    return def + "d(x,y) = " + format_double(c.left) + cmp(false, c.holds) +
           "(nu-1) min{d(x,mu_i), d(y,mu_j)} = " + format_double(c.right);
  const std::string ax = "d(x,mu_i) = " + format_double(c.left) + cmp(true, c.left > c.right) +
                         "rho r(C_i) = " + format_double(c.right);
  const std::string ay = "d(y,mu_j) = " + format_double(c.left2) + cmp(true, c.left2 > c.right2) +
                         "rho r(C_j) = " + format_double(c.right2);
  if (!c.holds) return def + ax + " and " + ay;
  return def + (c.left > c.right ? ax : ay);
}

Answer DistanceWeakOracle::query(std::size_t x, std::size_t y) {
  return confused(x, y) ? Answer::NotSure : truth(labels_, x, y);
}

Answer CoinFlipOracle::query(std::size_t x, std::size_t y) {
  const Answer a = inner_.query(x, y);
  if (a != Answer::NotSure) return a;
  return rng_.bernoulli(0.5) ? Answer::Yes : Answer::No;
}

InteractiveOracle::InteractiveOracle(const Matrix& X, std::istream& in, std::ostream& out,
                                     std::ostream* log, std::string log_name)
    : X_(X), in_(in), out_(out), log_(log), log_name_(std::move(log_name)) {}

bool parse_answer(std::string_view s, Answer& a) {
  std::string t;
  for (char c : s)
    if (c != ' ' && c != '\t' && c != '\r') t += static_cast<char>(std::tolower(c));
  if (t == "y" || t == "yes" || t == "1") {
    a = Answer::Yes;
  } else if (t == "n" || t == "no" || t == "-1") {
    a = Answer::No;
  } else if (t == "?" || t == "s" || t == "notsure" || t == "not-sure" || t == "0") {
    a = Answer::NotSure;
  } else {
    return false;
  }
  return true;
}

std::vector<LoggedAnswer> read_answer_lines(std::string_view text, const std::string& name,
                                            std::size_t n, std::size_t first_line) {
  static const char* const kColumns[] = {"x", "y", "answer"};
  std::vector<LoggedAnswer> out;
  csv::Reader reader(text, name, false, first_line);
  std::vector<csv::Field> f;
  while (reader.next(f)) {
    if (f.size() == 1 && !f[0].quoted && f[0].text.empty()) continue;  // a blank line
    const std::size_t line = reader.line();
    if (f.size() != 3)
      throw DataError(csv::where(name, line, 1) + "expected 3 fields x,y,answer, found " +
                      std::to_string(f.size()));
    auto at = [&](std::size_t c) {
      return csv::where(name, f[c].line, f[c].column) + "column " + std::to_string(c + 1) + " (" +
             kColumns[c] + "): ";
    };
    std::size_t v[2];
    for (std::size_t c = 0; c < 2; ++c) {
      unsigned long long r = 0;
      if (number::parse_uint(f[c].text, r) != number::Status::ok || r >= n)
        throw DataError(at(c) + "'" + number::printable(f[c].text, 40) +
                        "' is not a row number below " + std::to_string(n));
      v[c] = static_cast<std::size_t>(r);
    }
    Answer a;
    if (!parse_answer(f[2].text, a))
      throw DataError(at(2) + "'" + number::printable(f[2].text, 40) +
                      "' is not an answer yes, no or not-sure");
    if (v[0] == v[1])
      throw DataError(at(1) +
                      "a row paired with itself is never asked (a point is in its own "
                      "cluster)");
    out.push_back({std::min(v[0], v[1]), std::max(v[0], v[1]), a, line});
  }
  return out;
}

void InteractiveOracle::preload(std::istream& log_in, const std::string& name) {
  const std::string text(std::istreambuf_iterator<char>(log_in), {});
  for (const LoggedAnswer& e : read_answer_lines(text, name, static_cast<std::size_t>(X_.rows())))
    memo_[{e.x, e.y}] = e.answer;
}

Answer InteractiveOracle::query(std::size_t x, std::size_t y) {
  // Q(x, x) (S4 asks it): the oracle knows a point is in its own cluster and answers yes itself;
  // the person is not shown the pair and the answer log does not get it. The run's trace records
  // the query and its yes like any other, so a replay needs nothing from the person.
  if (x == y) return Answer::Yes;
  const auto key = std::make_pair(std::min(x, y), std::max(x, y));
  if (auto it = memo_.find(key); it != memo_.end()) return it->second;
  auto show = [&](std::size_t r) {
    out_ << "  row " << (r + 1) << ": (";
    for (Eigen::Index c = 0; c < X_.cols(); ++c)
      out_ << (c ? ", " : "") << format_double(X_(static_cast<Eigen::Index>(r), c));
    out_ << ")\n";
  };
  for (;;) {
    out_ << "Query " << (asked_ + 1) << ": are these two points in the same cluster?\n";
    show(x);
    show(y);
    out_ << "Answer y (same), n (different) or ? (not sure): " << std::flush;
    std::string line;
    if (!std::getline(in_, line))
      throw DataError("interactive oracle: input ended after " + std::to_string(asked_) +
                      " answers (every answer given so far is in the answer log, if one was set)");
    Answer a;
    if (parse_answer(line, a)) {
      ++asked_;
      memo_[key] = a;
      if (log_) {
        *log_ << key.first << ',' << key.second << ',' << to_string(a) << std::endl;
        if (!*log_)
          throw DataError(log_name_ + ": cannot write answer " + std::to_string(asked_) +
                          " to the answer log (disk full or file too large?); the answers "
                          "before it are saved");
      }
      return a;
    }
    out_ << "Please type y, n or ?.\n";
  }
}

Answer RecordingOracle::query(std::size_t x, std::size_t y) {
  const Answer a = inner_.query(x, y);
  entries_.push_back({x, y, a});
  return a;
}

}  // namespace ssac
