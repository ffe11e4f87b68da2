// The module's runs of SSAC: ssac.cluster (the run of `ssac cluster`, which the estimator ssac.SSAC
// fits with) and ssac._Session (the session engine of `ssac label`, which ssac.oracles.Console
// asks a person through).
//
// A run may end early: a budget on the oracle (Python's ssac.oracles.*(budget=...)) is spent, or
// an oracle written in Python raises one of the exceptions the caller names (its own budget, as
// active-semi-supervised-clustering's MaximumQueriesExceeded). The run then stops at the query
// that was not answered and nothing is lost: the queries answered so far, the iterations that
// ended (Algorithm 1, line 13) with their labels and centers, and the trace up to that query are
// returned, with a status that says where and why the run stopped.
#include "run.hpp"

#include <pybind11/stl.h>

#include <algorithm>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "convert.hpp"
#include "ssac/error.hpp"
#include "ssac/metrics.hpp"
#include "ssac/observer.hpp"
#include "ssac/oracle.hpp"
#include "ssac/oracle_spec.hpp"
#include "ssac/ranges.hpp"
#include "ssac/rules.hpp"
#include "ssac/session.hpp"
#include "ssac/ssac.hpp"
#include "ssac/trace.hpp"

namespace py = pybind11;
using namespace pybind11::literals;

namespace ssac::python {
namespace {

// A Python callable oracle(x, y) for rows x != y. Its answer is "yes", "no" or "not-sure" (the
// trace's words), 1, -1 or 0 (Definition 3's values), or True, False or None (the convention of
// scikit-query's and active-semi-supervised-clustering's oracles: must-link, cannot-link, no
// answer). A bool is read as a bool before it could be read as an int.
class CallableOracle : public Oracle {
 public:
  explicit CallableOracle(py::function f) : f_(std::move(f)) {}
  Answer query(std::size_t x, std::size_t y) override {
    const py::object r = f_(x, y);
    if (r.is_none()) return Answer::NotSure;
    if (py::isinstance<py::bool_>(r)) return r.cast<bool>() ? Answer::Yes : Answer::No;
    if (py::isinstance<py::str>(r)) {
      const auto s = r.cast<std::string>();
      if (s == "yes") return Answer::Yes;
      if (s == "no") return Answer::No;
      if (s == "not-sure") return Answer::NotSure;
    } else if (py::isinstance<py::int_>(r)) {
      const auto v = r.cast<long long>();
      if (v >= -1 && v <= 1) return static_cast<Answer>(v);
    }
    throw ParameterError("oracle(" + std::to_string(x) + ", " + std::to_string(y) + ") returned " +
                         std::string(py::repr(r)) +
                         "; an answer is 'yes', 'no', 'not-sure' (or 1, -1, 0, or True, False, "
                         "None)");
  }

 private:
  py::function f_;
};

// Thrown by BudgetOracle at the first query past its budget; the run unwinds to cluster().
struct BudgetSpent {};

// The oracle the run asks, counting: the (budget + 1)-th query is not passed on.
class BudgetOracle : public Oracle {
 public:
  BudgetOracle(Oracle& base, std::optional<std::size_t> budget) : base_(base), budget_(budget) {}
  Answer query(std::size_t x, std::size_t y) override {
    if (budget_ && asked_ == *budget_) throw BudgetSpent{};
    ++asked_;
    return base_.query(x, y);
  }

 private:
  Oracle& base_;
  std::optional<std::size_t> budget_;
  std::size_t asked_ = 0;
};

// Passes every event on to `next` (the trace writer) and keeps what a run that stops early still
// has: the queries answered, the iterations that ended, and the labels after the last of them
// (line 13 assigns C'_p when an iteration ends, so those labels are a state the run was in).
class Recorder : public RunObserver {
 public:
  Recorder(RunObserver& next, std::size_t n) : next_(next) { partial_.labels.assign(n, 0); }
  void iteration_started(const Iteration& it) override {
    iteration_ = it.index;
    next_.iteration_started(it);
  }
  void sample_drawn(const Iteration& it) override { next_.sample_drawn(it); }
  void queried(const QueryRecord& q) override {
    partial_.queries.push_back(q);
    ++(q.phase == 1 ? partial_.queries_phase1 : partial_.queries_phase2);
    next_.queried(q);
  }
  void anchor_drawn(const AnchorDraw& d) override { next_.anchor_drawn(d); }
  void assigned(const Iteration& it) override { next_.assigned(it); }
  void cluster_chosen(const Iteration& it) override { next_.cluster_chosen(it); }
  void step_taken(const Iteration& it, const SearchStep& s) override { next_.step_taken(it, s); }
  void iteration_ended(const Iteration& it) override {
    partial_.iterations.push_back(it);
    next_.iteration_ended(it);
  }
  void run_state(const RunState& s) override {
    if (s.stage == RunState::Stage::iteration_ended) {
      partial_.labels = s.labels;
      partial_.recovery_order = s.recovery_order;
    }
    next_.run_state(s);
  }
  void finished(const Result& R) override { next_.finished(R); }

  // The run so far, with `status`; its centers are the latest mu'_p of each cluster recovered.
  Result stopped(const Params& P, std::string status) {
    Result R = partial_;
    for (const Iteration& it : R.iterations)
      if (it.outcome == Outcome::recovered) R.centers[it.p] = it.center;
    std::erase_if(R.centers, [&](const auto& c) {
      return std::find(R.recovery_order.begin(), R.recovery_order.end(), c.first) ==
             R.recovery_order.end();
    });
    R.clusters_recovered = static_cast<int>(R.recovery_order.size());
    R.failed = R.clusters_recovered < P.k;
    R.status = std::move(status);
    return R;
  }
  int iteration() const { return iteration_; }
  std::size_t answered() const { return partial_.queries.size(); }

 private:
  RunObserver& next_;
  Result partial_;
  int iteration_ = 0;
};

// "a, b, c": a vocabulary as the messages below list it.
std::string listed(const std::vector<std::string>& names) {
  std::string s;
  for (const std::string& n : names)
    s += (s.empty() ? "" : ", ") + n;
  return s;
}

Search search_named(const std::string& s) {
  const auto& weak = weak_search_names();
  if (std::find(weak.begin(), weak.end(), s) != weak.end()) return *parse_search(s);
  throw ParameterError("search = '" + s + "' is not one of " + listed(weak));
}

// The run's parameters as `ssac cluster` reads them, each checked by the library.
Params run_params(std::size_t n, long long k, double eta, long long beta, const py::object& search,
                  const std::string& algorithm, const std::string& semantics,
                  const std::vector<std::string>& rules, const py::object& assignment) {
  Params P;
  range::check_k(k, n);
  range::check_beta(beta);
  P.k = static_cast<int>(k);
  P.eta = eta;
  P.beta = static_cast<int>(beta);
  Profile profile = profile_named(semantics);
  if (!assignment.is_none()) {
    const auto a = assignment.cast<std::string>();
    const auto elimination = parse_assignment(a);
    if (!elimination)
      throw ParameterError("assignment = '" + a + "' is not one of " + listed(assignment_names()));
    profile.elimination = *elimination;
  }
  for (const std::string& r : rules)
    set_rule_given_rows(profile, r);
  P.rules = profile.rules;
  P.elimination = profile.elimination;
  const auto alg = parse_algorithm(algorithm);
  if (!alg)
    throw ParameterError("algorithm = '" + algorithm + "' is not one of " +
                         listed(algorithm_names()));
  if (*alg == Algorithm::original) {
    if (!search.is_none())
      throw ParameterError("search does not apply to algorithm 'original' (plain binary search)");
    P.search = Search::plain;
  } else {
    P.search = search.is_none() ? Search::unified : search_named(search.cast<std::string>());
  }
  P.check(n);
  return P;
}

// The run as Python objects: labels (0 = unassigned), iterations and queries in the trace's
// words, centers (cluster -> mu'_p), status and counts, the trace's text.
py::dict result_dict(const Result& R, const Params& P, std::string trace) {
  py::list iterations, queries;
  for (const auto& it : R.iterations)
    iterations.append(iteration_dict(it, P.search == Search::plain));
  for (const auto& qr : R.queries)
    queries.append(py::dict("iteration"_a = qr.iteration, "phase"_a = qr.phase,
                            "purpose"_a = to_string(qr.purpose), "x"_a = qr.x, "y"_a = qr.y,
                            "answer"_a = answer(qr.answer)));
  py::dict centers;
  for (const auto& [t, c] : R.centers)
    centers[py::int_(t)] = to_list(c);
  return py::dict("labels"_a = to_array(std::vector<long long>(R.labels.begin(), R.labels.end())),
                  "iterations"_a = iterations, "queries"_a = queries, "centers"_a = centers,
                  "clusters_recovered"_a = R.clusters_recovered, "failed"_a = R.failed,
                  "status"_a = R.status, "queries_phase1"_a = R.queries_phase1,
                  "queries_phase2"_a = R.queries_phase2, "r"_a = P.sample_size(),
                  "trace"_a = std::move(trace));
}

std::unique_ptr<RunObserver> text_trace(const Matrix& X, const TraceHeader& th,
                                        std::string& trace) {
  return trace_writer(X, th, [&trace](const std::string& line) {
    trace += line;
    trace += '\n';
  });
}

// ssac.cluster: the same run as `ssac cluster` (cli/commands/cmd_cluster.cpp) with the same
// parameters and seed, so the labels, the queries and the trace are those of the command line.
py::dict cluster(const py::object& X_in, const py::object& labels_in, long long k, double eta,
                 long long beta, const py::object& search, const std::string& algorithm,
                 const py::object& oracle, const py::object& q, const py::object& nu,
                 const py::object& rho, const py::object& memory, const std::string& semantics,
                 const std::vector<std::string>& rules, const py::object& assignment,
                 std::uint64_t seed, const py::object& budget, const py::object& stop_on) {
  need_numpy("cluster");
  const Matrix X = to_points(X_in);
  const auto n = static_cast<std::size_t>(X.rows());
  std::vector<int> labels;
  if (!labels_in.is_none()) labels = to_labels(labels_in, n);
  Params P = run_params(n, k, eta, beta, search, algorithm, semantics, rules, assignment);

  const bool callable = py::isinstance<py::function>(oracle);
  OracleSpec spec;
  if (!callable) {
    if (!py::isinstance<py::str>(oracle))
      throw ParameterError("oracle: expected a name or a callable oracle(x, y), got " +
                           std::string(py::repr(oracle)));
    const auto name = oracle.cast<std::string>();
    const auto kind = oracle_kind_from_string(name);
    if (!kind || *kind == OracleKind::interactive)
      throw ParameterError("oracle = '" + name + "' is not one of " +
                           listed(oracle_kind_names(simulated_oracle_kinds())) +
                           ", or a callable oracle(x, y)");
    spec.kind = *kind;
    if (!q.is_none()) spec.q = q.cast<double>();
    if (!nu.is_none()) spec.nu = nu.cast<double>();
    if (!rho.is_none()) spec.rho = rho.cast<double>();
    if (!memory.is_none()) {
      const auto m = memory.cast<std::string>();
      const auto parsed = parse_oracle_memory(m);
      if (!parsed)
        throw ParameterError("memory = '" + m + "' is not one of " + listed(oracle_memory_names()));
      spec.memory = *parsed;
    }
    if (!q.is_none() && !spec.uses_q())
      throw ParameterError("q applies only to oracle 'random' or 'correlated'");
    if (!nu.is_none() && !spec.uses_nu()) throw ParameterError("nu applies only to oracle 'local'");
    if (!rho.is_none() && !spec.uses_rho())
      throw ParameterError("rho applies only to oracle 'local', 'global' or 'correlated'");
    if (!memory.is_none() && !spec.uses_memory())
      throw ParameterError("memory applies only to oracle 'random'");
    if (labels.empty()) throw DataError("labels: none given; a simulated oracle answers from them");
  } else if (!q.is_none() || !nu.is_none() || !rho.is_none() || !memory.is_none()) {
    throw ParameterError("q, nu, rho and memory apply only to a simulated oracle, not a callable");
  }
  std::optional<std::size_t> limit;
  if (!budget.is_none()) {
    const auto b = budget.cast<long long>();
    if (b < 0) throw_out_of_range("budget", b, "[0, inf)");
    limit = static_cast<std::size_t>(b);
  }
  if (!stop_on.is_none() && !callable)
    throw ParameterError("stop_on applies only to a callable oracle (a simulated one raises none)");
  // k has one range, [1, n] (ssac/ranges.hpp), as in `ssac cluster`: k above the number of the
  // labels' clusters is a valid run that cannot recover k clusters (docs/conformance.md).
  // Elimination (S2) needs the point's cluster among the k: known from labels, else k is taken.
  if (!labels.empty()) P.oracle_clusters = *std::max_element(labels.begin(), labels.end());

  std::unique_ptr<Oracle> base;
  if (callable) {
    base = std::make_unique<CallableOracle>(oracle.cast<py::function>());
  } else {
    spec.check();
    base = make_oracle(spec, X, labels, Rng::stream(seed, {kStreamOracle}));
  }
  AskedOracle asked(*base, P.search == Search::plain, Rng::stream(seed, {kStreamCoinFlip}));
  // The budget counts the queries the run asks (after the original SSAC's coin flip, which
  // answers for the oracle without asking it again), so n_queries never exceeds it.
  BudgetOracle counted(asked.get(), limit);
  // The trace is written as the run reports its events (ssac/trace.hpp, trace_writer).
  TraceHeader th;
  th.params = P;
  th.algorithm = algorithm;
  // A callable is no oracle the trace format describes: the header then has no `oracle`.
  if (!callable) th.oracle = spec;
  if (!callable && spec.uses_memory()) th.memory = spec.memory;
  th.seed = seed;
  std::string trace;
  const std::unique_ptr<RunObserver> writer = text_trace(X, th, trace);
  Recorder recorder(*writer, n);

  std::optional<Result> R;
  std::string stopped;
  {
    // A simulated oracle never calls into Python, so other Python threads may run meanwhile.
    std::optional<py::gil_scoped_release> release;
    if (!callable) release.emplace();
    try {
      R = run_ssac(X, counted, P, seed, &recorder);
    } catch (const BudgetSpent&) {
      stopped = "the oracle's budget of " + std::to_string(*limit) + " queries is spent";
    } catch (py::error_already_set& e) {
      // Only a callable raises, and the GIL is held then.
      if (stop_on.is_none() || !e.matches(stop_on)) throw;
      stopped = "the oracle raised " + py::str(e.type().attr("__name__")).cast<std::string>() +
                (py::str(e.value()).cast<std::string>().empty()
                     ? std::string()
                     : ": " + py::str(e.value()).cast<std::string>());
    }
  }
  if (!R)
    R = recorder.stopped(P, "stopped in iteration " + std::to_string(recorder.iteration()) +
                                " after " + std::to_string(recorder.answered()) +
                                " queries: " + stopped);
  py::dict out = result_dict(*R, P, std::move(trace));
  out["stopped"] = !stopped.empty();
  if (!labels.empty()) {
    const Evaluation ev = evaluate(X, labels, *R);
    out["accuracy_pct"] = ev.accuracy_pct;
    out["optimal_accuracy_pct"] = ev.optimal_accuracy_pct;
  }
  return out;
}

// ssac._Session: `ssac cluster --oracle interactive`'s session (ssac/session.hpp) with its answer
// log as text; ssac.oracles.Console asks the questions and appends the answers to the file.
class PySession {
 public:
  PySession(const py::object& X_in, long long k, double eta, long long beta,
            const py::object& search, const std::string& algorithm, const std::string& semantics,
            const std::vector<std::string>& rules, const py::object& assignment, std::uint64_t seed,
            const std::string& log, const std::string& log_name)
      : X_(to_points(X_in)), algorithm_(algorithm) {
    SessionSpec spec;
    spec.params = run_params(static_cast<std::size_t>(X_.rows()), k, eta, beta, search, algorithm,
                             semantics, rules, assignment);
    spec.algorithm = spec.params.search == Search::plain ? Algorithm::original : Algorithm::weak;
    spec.seed = seed;
    header_ = answer_log_header(X_, spec);
    auto earlier = parse_answer_log(log, log_name, static_cast<std::size_t>(X_.rows()), header_);
    session_.emplace(X_, spec, std::move(earlier), log_name);
  }
  const std::string& header() const { return header_; }
  bool finished() const { return session_->finished(); }
  std::pair<std::size_t, std::size_t> question() const {
    if (session_->finished()) throw ParameterError("the run is over: there is no question to ask");
    return session_->question();
  }
  // Records the person's answer as typed (y / n / ? ..., ssac::parse_answer) and returns the
  // answer file's line.
  std::string answer(const std::string& typed) {
    Answer a;
    if (!parse_answer(typed, a))
      throw ParameterError("answer '" + typed + "' is not y, n or ? (yes, no, not sure)");
    return format_logged_answer(session_->answer(a));
  }
  std::size_t answers() const { return session_->log().size(); }
  std::vector<std::string> log() const {
    std::vector<std::string> lines;
    for (const LoggedAnswer& a : session_->log())
      lines.push_back(format_logged_answer(a));
    return lines;
  }
  py::dict progress() const {
    const SessionProgress p = session_->progress();
    return py::dict("questions"_a = p.questions, "queries"_a = p.queries,
                    "max_queries"_a = p.max_queries, "max_remaining"_a = p.max_remaining,
                    "not_sure"_a = p.not_sure, "not_sure_low"_a = p.not_sure_low,
                    "not_sure_high"_a = p.not_sure_high);
  }
  // The finished run, its trace written as `ssac cluster --oracle interactive --trace` writes it.
  py::dict result() const {
    if (!session_->finished()) throw ParameterError("the run is not over: questions remain");
    TraceHeader th;
    th.params = session_->spec().params;
    th.algorithm = algorithm_;
    OracleSpec spec;
    spec.kind = OracleKind::interactive;
    th.oracle = spec;
    // A person is asked once per unordered pair and the answer kept (per-pair memory).
    th.memory = OracleMemory::per_pair;
    th.seed = session_->spec().seed;
    std::string trace;
    const Result R = [&] {
      const std::unique_ptr<RunObserver> writer = text_trace(X_, th, trace);
      return session_->replay(writer.get());
    }();
    py::dict out = result_dict(R, th.params, std::move(trace));
    out["stopped"] = false;
    return out;
  }

 private:
  Matrix X_;
  std::string algorithm_, header_;
  std::optional<Session> session_;
};

}  // namespace

void bind_run(py::module_& mod) {
  mod.def("cluster", &cluster,
          "Runs SSAC once, as `ssac cluster` with the same parameters and seed. `oracle` is "
          "'perfect', 'random' (q), 'local' (nu, rho), 'global' (rho), 'correlated' (q, rho), "
          "answering from `labels`, or a callable oracle(x, y) returning 'yes', 'no' or "
          "'not-sure' (or 1, -1, 0, or True, False, None). `budget`: the most queries the oracle "
          "answers; `stop_on`: exception types a callable may raise to end the run. A run that "
          "ends early (stopped = True) keeps what it did: the queries answered, the iterations "
          "that ended with their labels and centers, the trace so far, and a status 'stopped in "
          "iteration I after N queries: ...'. Returns a dict: labels (NumPy, 0 = unassigned), "
          "iterations, queries, centers (cluster -> mu'), status, stopped, counts and trace (the "
          "JSON Lines text of `--trace`).",
          "X"_a, "labels"_a = py::none(), py::kw_only(), "k"_a, "eta"_a, "beta"_a = 10,
          "search"_a = py::none(), "algorithm"_a = to_string(Algorithm::weak),
          "oracle"_a = to_string(OracleKind::perfect), "q"_a = py::none(), "nu"_a = py::none(),
          "rho"_a = py::none(), "memory"_a = py::none(), "semantics"_a = "paper",
          "rules"_a = std::vector<std::string>{}, "assignment"_a = py::none(), "seed"_a = 0,
          "budget"_a = py::none(), "stop_on"_a = py::none());

  py::class_<PySession>(mod, "_Session",
                        "The session of `ssac cluster --oracle interactive` (a person answers): "
                        "the run replayed from an answer log's text; ssac.oracles.Console asks.")
      .def(py::init<const py::object&, long long, double, long long, const py::object&,
                    const std::string&, const std::string&, const std::vector<std::string>&,
                    const py::object&, std::uint64_t, const std::string&, const std::string&>(),
           "X"_a, py::kw_only(), "k"_a, "eta"_a, "beta"_a = 10, "search"_a = py::none(),
           "algorithm"_a = to_string(Algorithm::weak), "semantics"_a = "paper",
           "rules"_a = std::vector<std::string>{}, "assignment"_a = py::none(), "seed"_a = 0,
           "log"_a = "", "log_name"_a = "")
      .def_property_readonly("header", &PySession::header,
                             "the answer file's first line for this run")
      .def_property_readonly("finished", &PySession::finished)
      .def_property_readonly("answers", &PySession::answers)
      .def_property_readonly("log", &PySession::log, "the answers so far, as the file's lines")
      .def("question", &PySession::question, "the pair (x, y) to ask next")
      .def("answer", &PySession::answer, "records an answer as typed; returns the file's line",
           "typed"_a)
      .def("progress", &PySession::progress)
      .def("result", &PySession::result, "the finished run, as ssac.cluster returns it");
}

}  // namespace ssac::python
