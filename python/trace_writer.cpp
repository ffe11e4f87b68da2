// ssac.TraceWriter: an outside implementation records its run as a trace (docs/trace-format.md) in
// one call per event, and the writer keeps what an implementer would otherwise have to get right by
// hand: the header from keyword arguments (n, m, r = ceil(k eta) computed exactly, the fingerprint,
// the profile's rules as the format spells them), the iteration and step numbers, each query's
// phase, and the order of the events. A call out of that order, or a field outside its values,
// raises ssac.ParameterError naming the call and what the format expects there, so the mistake is
// found where it is made rather than at replay. Nothing is written to a file until final(): a run
// that stops half-way leaves no partial trace.
#include "trace_writer.hpp"

#include <pybind11/stl.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "ssac/error.hpp"
#include "ssac/rules.hpp"
#include "ssac/ssac.hpp"
#include "ssac/trace.hpp"

namespace py = pybind11;
using namespace pybind11::literals;
using json = nlohmann::ordered_json;

namespace ssac::python {

namespace {

bool one_of(const std::string& s, std::initializer_list<const char*> names) {
  for (const char* n : names)
    if (s == n) return true;
  return false;
}

std::string list_of(std::initializer_list<const char*> names) {
  std::string out;
  for (const char* n : names)
    out += std::string(out.empty() ? "" : ", ") + "\"" + n + "\"";
  return out;
}

class Writer {
 public:
  Writer(const Matrix& X, int k, double eta, int beta, const std::string& search,
         const std::string& algorithm, const std::string& rules, const py::object& oracle,
         const std::optional<std::uint64_t>& seed, int oracle_clusters,
         const std::string& oracle_memory)
      : n_(static_cast<std::size_t>(X.rows())), m_(static_cast<std::size_t>(X.cols())), k_(k) {
    TraceHeader h;
    h.params.k = k;
    h.params.eta = eta;
    h.params.beta = beta;
    const auto s = parse_search(search);
    if (!s)
      throw ParameterError("search: \"" + search +
                           "\" is not one of \"random\", \"distance\", \"unified\", \"plain\"");
    h.params.search = *s;
    search_ = *s;
    if (!one_of(algorithm, {"weak", "original"}))
      throw ParameterError("algorithm: \"" + algorithm + "\" is not one of \"weak\", \"original\"");
    if (algorithm == "original" && *s != Search::plain)
      throw ParameterError("algorithm: \"original\" goes with search=\"plain\" only");
    h.algorithm = algorithm;
    // A profile name ("paper", "authors-code") or S9 rules as name=value words over the paper's.
    Profile p = paper_profile();
    if (!rules.empty()) {
      if (rules.find('=') == std::string::npos) {
        p = profile_named(rules);
      } else {
        std::size_t at = 0;
        while (at < rules.size()) {
          const std::size_t end = std::min(rules.find(' ', at), rules.size());
          if (end > at) set_rule(p, std::string_view(rules).substr(at, end - at));
          at = end + 1;
        }
      }
    }
    h.params.rules = p.rules;
    h.params.elimination = p.elimination;
    h.params.oracle_clusters = oracle_clusters;
    h.params.check(n_);
    if (!oracle.is_none()) {
      const py::dict d = oracle.cast<py::dict>();
      OracleSpec spec;
      const auto kind = oracle_kind_from_string(py::str(d["kind"]).cast<std::string>());
      if (!kind) throw ParameterError("oracle: \"kind\" is not an oracle the format names");
      spec.kind = *kind;
      if (d.contains("q")) spec.q = d["q"].cast<double>();
      if (d.contains("nu")) spec.nu = d["nu"].cast<double>();
      if (d.contains("rho")) spec.rho = d["rho"].cast<double>();
      spec.check();
      h.oracle = spec;
    }
    h.seed = seed;
    if (oracle_memory == "per-pair")
      h.memory = OracleMemory::per_pair;
    else if (oracle_memory != "fresh")
      throw ParameterError("oracle_memory: \"" + oracle_memory +
                           "\" is not one of \"fresh\", \"per-pair\"");
    draws_anchors_ = draws_anchors(p.rules.anchor);
    // The reference's own writer makes the header line, so the two cannot drift apart.
    const auto observer = trace_writer(X, h, [this](const std::string& line) { add(line); });
  }

  void iteration(std::size_t remaining) {
    expect("iteration", state_ == State::started || state_ == State::outcome,
           "after the header or an outcome");
    if (iteration_ >= k_) throw order("iteration", "at most k = " + std::to_string(k_) + " times");
    if (empty_)
      throw order("iteration", "never after an iteration that ended in \"empty_remainder\"");
    ++iteration_;
    steps_ = 0;
    emit(json{{"event", "iteration"}, {"iteration", iteration_}, {"remaining", remaining}},
         State::iteration);
  }

  void sample(const std::vector<std::size_t>& rows) {
    expect("sample", state_ == State::iteration, "right after iteration()");
    check_rows("sample", rows);
    sample_size_ = rows.size();
    emit(json{{"event", "sample"}, {"iteration", iteration_}, {"rows", rows}}, State::sample);
  }

  void anchor(std::size_t x, int cluster, const std::vector<std::size_t>& candidates,
              std::size_t row) {
    expect("anchor", state_ == State::sample, "in Phase 1, after sample() and before assignment()");
    if (!draws_anchors_)
      throw order("anchor", "only under anchor=random-labelled-row or random-known-row");
    check_rows("anchor", {x, row});
    check_rows("anchor", candidates);
    emit(json{{"event", "anchor"},
              {"iteration", iteration_},
              {"x", x},
              {"cluster", cluster},
              {"candidates", candidates},
              {"row", row}},
         State::sample);
  }

  void query(std::size_t x, std::size_t y, const std::string& answer, std::string purpose) {
    const bool phase1 = state_ == State::sample;
    expect("query", phase1 || state_ == State::cluster || state_ == State::step,
           "in Phase 1 (after sample()) or in the search (after cluster() or a step())");
    check_rows("query", {x, y});
    check_answer("query", answer);
    if (purpose.empty()) purpose = phase1 ? "assignment" : "";
    if (phase1 && purpose != "assignment")
      throw ParameterError("query: Phase-1 queries have purpose \"assignment\", not \"" + purpose +
                           "\"");
    if (!phase1 && !one_of(purpose, {"search_x1", "search_z", "search_sample"}))
      throw ParameterError("query: a Phase-2 query needs purpose " +
                           list_of({"search_x1", "search_z", "search_sample"}) + ", not \"" +
                           purpose + "\"");
    (phase1 ? queries1_ : queries2_) += 1;
    emit(json{{"event", "query"},
              {"iteration", iteration_},
              {"phase", phase1 ? 1 : 2},
              {"purpose", purpose},
              {"x", x},
              {"y", y},
              {"answer", answer}},
         state_);
  }

  void assignment(const std::vector<int>& clusters) {
    expect("assignment", state_ == State::sample, "after the sample's queries");
    if (clusters.size() != sample_size_)
      throw ParameterError("assignment: " + std::to_string(clusters.size()) +
                           " clusters for a sample of " + std::to_string(sample_size_) +
                           " draws (one per draw, 0 for not-sure)");
    for (int c : clusters)
      if (c < 0 || c > k_)
        throw ParameterError("assignment: cluster " + std::to_string(c) +
                             " is outside 0..k = " + std::to_string(k_));
    emit(json{{"event", "assignment"}, {"iteration", iteration_}, {"clusters", clusters}},
         State::assignment);
  }

  void cluster(int p, std::size_t zp_size, const std::vector<double>& center, std::size_t x1,
               bool revisited) {
    expect("cluster", state_ == State::assignment, "right after assignment()");
    if (p < 1 || p > k_)
      throw ParameterError("cluster: p = " + std::to_string(p) +
                           " is outside 1..k = " + std::to_string(k_));
    if (center.size() != m_)
      throw ParameterError("cluster: center has " + std::to_string(center.size()) +
                           " coordinates, the data " + std::to_string(m_));
    check_rows("cluster", {x1});
    emit(json{{"event", "cluster"},
              {"iteration", iteration_},
              {"p", p},
              {"zp_size", zp_size},
              {"revisited", revisited},
              {"center", center},
              {"x1", x1}},
         State::cluster);
  }

  void step(std::size_t lo, std::size_t hi, std::size_t j, std::size_t row,
            const std::string& decision, const std::optional<std::string>& x1_answer,
            const std::optional<std::string>& z_answer, const std::vector<std::size_t>& sample,
            const std::vector<std::string>& sample_answers) {
    expect("step", state_ == State::cluster || state_ == State::step,
           "after cluster() or another step()");
    check_rows("step", {row});
    check_rows("step", sample);
    if (j != (lo + hi) / 2)
      throw ParameterError("step: j = " + std::to_string(j) +
                           " is not floor((lo + hi) / 2) = " + std::to_string((lo + hi) / 2));
    if (!one_of(decision, {"in", "out", "fail"}))
      throw ParameterError("step: decision \"" + decision + "\" is not one of " +
                           list_of({"in", "out", "fail"}));
    if (sample.size() != sample_answers.size())
      throw ParameterError("step: " + std::to_string(sample.size()) + " rows in sample but " +
                           std::to_string(sample_answers.size()) + " sample_answers");
    for (const std::string& a : sample_answers)
      check_answer("step", a);
    const bool plain = search_ == Search::plain;
    if (plain ? x1_answer.has_value() : z_answer.has_value())
      throw ParameterError(std::string("step: the ") + (plain ? "plain" : "weak") +
                           " search records " + (plain ? "z_answer" : "x1_answer") + ", not " +
                           (plain ? "x1_answer" : "z_answer"));
    const std::optional<std::string>& own = plain ? z_answer : x1_answer;
    if (own) check_answer("step", *own);
    json e{{"event", "step"},  {"iteration", iteration_},
           {"step", ++steps_}, {"lo", lo},
           {"hi", hi},         {"j", j},
           {"row", row}};
    e[plain ? "z_answer" : "x1_answer"] = own ? json(*own) : json(nullptr);
    e["sample"] = sample;
    e["sample_answers"] = sample_answers;
    e["decision"] = decision;
    emit(std::move(e), State::step);
  }

  void outcome(const std::string& what, const std::optional<std::size_t>& j_star,
               const py::object& radius, const std::vector<std::size_t>& assigned) {
    expect("outcome", state_ != State::started && state_ != State::outcome && state_ != State::done,
           "at the end of an iteration");
    if (!one_of(what, {"recovered", "empty_cluster", "phase1_all_not_sure", "search_failed",
                       "empty_remainder"}))
      throw ParameterError("outcome: \"" + what + "\" is not one of " +
                           list_of({"recovered", "empty_cluster", "phase1_all_not_sure",
                                    "search_failed", "empty_remainder"}));
    // An empty S_i has only its iteration event and this outcome; any other iteration samples.
    if ((what == "empty_remainder") != (state_ == State::iteration))
      throw order("outcome", what == "empty_remainder"
                                 ? "as \"empty_remainder\" only right after iteration(0)"
                                 : "as \"" + what + "\" only after the iteration's sample()");
    empty_ = what == "empty_remainder";
    check_rows("outcome", assigned);
    json r;
    if (radius.is_none()) {
      r = nullptr;
    } else {
      const double v = radius.cast<double>();
      r = std::isinf(v) ? json("inf") : json(v);
    }
    emit(json{{"event", "outcome"},
              {"iteration", iteration_},
              {"outcome", what},
              {"j_star", j_star ? json(*j_star) : json(nullptr)},
              {"radius", r},
              {"assigned", assigned}},
         State::outcome);
  }

  void final(const std::vector<int>& labels, const std::string& status, int clusters_recovered,
             bool failed, const std::optional<std::uint64_t>& q1,
             const std::optional<std::uint64_t>& q2, const py::object& path) {
    expect("final", state_ == State::started || state_ == State::outcome, "after the last outcome");
    if (labels.size() != n_)
      throw ParameterError("final: " + std::to_string(labels.size()) + " labels for " +
                           std::to_string(n_) + " points");
    emit(json{{"event", "final"},
              {"labels", labels},
              {"status", status},
              {"clusters_recovered", clusters_recovered},
              {"failed", failed},
              {"queries_phase1", q1 ? *q1 : queries1_},
              {"queries_phase2", q2 ? *q2 : queries2_}},
         State::done);
    if (!path.is_none()) write(path);
  }

  // The trace as text, one event a line.
  std::string text() const {
    std::string s;
    for (const std::string& l : lines_)
      s += l + '\n';
    return s;
  }

  // Written whole, through a temporary file renamed over the target: no partial trace.
  void write(const py::object& path) const {
    if (state_ != State::done)
      throw ParameterError("write: the trace is not finished (call final() first)");
    const std::string p = py::str(py::module_::import("os").attr("fspath")(path));
    const std::string tmp = p + ".tmp";
    {
      std::ofstream out(tmp, std::ios::binary);
      out << text();
      if (!out.flush()) {
        std::remove(tmp.c_str());
        throw DataError(p + ": cannot write the trace");
      }
    }
    if (std::rename(tmp.c_str(), p.c_str()) != 0) {
      std::remove(tmp.c_str());
      throw DataError(p + ": cannot write the trace");
    }
  }

  const std::vector<std::string>& lines() const { return lines_; }
  bool finished() const { return state_ == State::done; }

 private:
  enum class State { started, iteration, sample, assignment, cluster, step, outcome, done };

  void add(const std::string& line) { lines_.push_back(line); }
  void emit(json e, State next) {
    lines_.push_back(e.dump());
    state_ = next;
  }
  void expect(const char* call, bool ok, const std::string& where) const {
    if (ok) return;
    throw order(call, where + " (the last event was " + last_event() + ")");
  }
  ParameterError order(const char* call, const std::string& where) const {
    return ParameterError(std::string(call) + "(): out of order: the format has it " + where +
                          " (docs/trace-format.md, \"Lines and events\")");
  }
  std::string last_event() const {
    const json e = json::parse(lines_.back());
    std::string s = "\"" + e["event"].get<std::string>() + "\"";
    if (e.contains("iteration") && e["event"] != "header")
      s += " of iteration " + std::to_string(e["iteration"].get<int>());
    return s;
  }
  void check_rows(const char* call, const std::vector<std::size_t>& rows) const {
    for (std::size_t r : rows)
      if (r >= n_)
        throw ParameterError(std::string(call) + ": row " + std::to_string(r) +
                             " is outside 0..n-1 = " + std::to_string(n_ - 1));
  }
  static void check_answer(const char* call, const std::string& a) {
    if (!one_of(a, {"yes", "no", "not-sure"}))
      throw ParameterError(std::string(call) + ": answer \"" + a + "\" is not one of " +
                           list_of({"yes", "no", "not-sure"}));
  }

  std::size_t n_, m_;
  int k_;
  Search search_ = Search::unified;
  bool draws_anchors_ = false, empty_ = false;
  State state_ = State::started;
  int iteration_ = 0;
  std::uint64_t steps_ = 0, queries1_ = 0, queries2_ = 0;
  std::size_t sample_size_ = 0;
  std::vector<std::string> lines_;
};

}  // namespace

void bind_trace_writer(py::module_& mod, Matrix (*points)(const py::object&)) {
  py::class_<Writer>(mod, "TraceWriter",
                     "Records an outside implementation's run as a trace (docs/trace-format.md), "
                     "one call per event in the format's order; see docs/python.md.")
      .def(py::init([points](const py::object& data, int k, double eta, int beta,
                             const std::string& search, const std::string& algorithm,
                             const std::string& rules, const py::object& oracle,
                             std::optional<std::uint64_t> seed, int oracle_clusters,
                             const std::string& oracle_memory) {
             return std::make_unique<Writer>(points(data), k, eta, beta, search, algorithm, rules,
                                             oracle, seed, oracle_clusters, oracle_memory);
           }),
           "data"_a, py::kw_only(), "k"_a, "eta"_a, "beta"_a, "search"_a = "unified",
           "algorithm"_a = "weak", "rules"_a = "", "oracle"_a = py::none(), "seed"_a = py::none(),
           "oracle_clusters"_a = 0, "oracle_memory"_a = "fresh",
           "data: the points (an array or a CSV path) the run is on, for n, m and the "
           "fingerprint. rules: a profile name ('authors-code') or S9 rules as 'name=value' "
           "words. oracle: a dict such as {'kind': 'random', 'q': 0.7}, written as the header's.")
      .def("iteration", &Writer::iteration, "remaining"_a,
           "Algorithm 1, line 2: a new iteration over |S_i| = remaining points.")
      .def("sample", &Writer::sample, "rows"_a, "Line 4: the Phase-1 draws Z in draw order.")
      .def("anchor", &Writer::anchor, "x"_a, "cluster"_a, "candidates"_a, "row"_a,
           "Under a random anchor rule: the anchor of `cluster` drawn for draw x.")
      .def("query", &Writer::query, "x"_a, "y"_a, "answer"_a, "purpose"_a = "",
           "Q(x, y) as asked, with its answer ('yes', 'no', 'not-sure'); the phase is the "
           "writer's. purpose: 'assignment' in Phase 1 (the default there), 'search_x1', "
           "'search_z' or 'search_sample' in Phase 2.")
      .def("assignment", &Writer::assignment, "clusters"_a,
           "Lines 5-7: Q(x) per draw, cluster t >= 1 or 0 for not-sure.")
      .def("cluster", &Writer::cluster, "p"_a, "zp_size"_a, "center"_a, "x1"_a,
           "revisited"_a = false, "Line 8: p, |Z_p|, mu'_p and x_1.")
      .def("step", &Writer::step, "lo"_a, "hi"_a, "j"_a, "row"_a, "decision"_a,
           "x1_answer"_a = py::none(), "z_answer"_a = py::none(),
           "sample"_a = std::vector<std::size_t>{}, "sample_answers"_a = std::vector<std::string>{},
           "One probe of the binary search (numbered by the writer).")
      .def("outcome", &Writer::outcome, "outcome"_a, "j_star"_a = py::none(),
           "radius"_a = py::none(), "assigned"_a = std::vector<std::size_t>{},
           "Lines 11-13: how the iteration ended; radius float('inf') is written \"inf\".")
      .def("final", &Writer::final, "labels"_a, "status"_a, "clusters_recovered"_a, "failed"_a,
           "queries_phase1"_a = py::none(), "queries_phase2"_a = py::none(), "path"_a = py::none(),
           "The run's result; query counts default to the queries recorded. With path, the "
           "finished trace is written there.")
      .def("write", &Writer::write, "path"_a, "Writes the finished trace to path.")
      .def("text", &Writer::text, "The trace as text, one event a line.")
      .def_property_readonly("lines", &Writer::lines)
      .def_property_readonly("finished", &Writer::finished);
}

}  // namespace ssac::python
