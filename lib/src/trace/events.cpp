// A run's trace events, built from the run's reports as they arrive (docs/trace-format.md,
// "Events"); the writer and the replay both take their events from here.
#include <cmath>
#include <utility>

#include "trace/events.hpp"

namespace ssac::trace {

namespace {

json rows_json(const std::vector<std::size_t>& rows) {
  json a = json::array();
  for (std::size_t r : rows)
    a.push_back(r);
  return a;
}

}  // namespace

json oracle_event_field(const OracleSpec& o) {
  json j;
  j["kind"] = to_string(o.kind);
  if (o.uses_q()) j["q"] = o.q;
  if (o.uses_nu()) j["nu"] = o.nu;
  if (o.uses_rho()) j["rho"] = o.rho;
  return j;
}

json header_event(const Matrix& X, const TraceHeader& h) {
  json j;
  j["event"] = "header";
  j["format"] = kTraceFormat;
  j["version"] = trace_version(h.params);
  j["algorithm"] = h.algorithm;
  j["search"] = to_string(h.params.search);
  j["assignment"] = h.params.elimination ? "paper" : "code";
  j["n"] = X.rows();
  j["m"] = X.cols();
  j["k"] = h.params.k;
  j["eta"] = h.params.eta;
  j["beta"] = h.params.beta;
  j["r"] = h.params.sample_size();
  j["fingerprint"] = points_fingerprint(X);
  if (h.oracle) j["oracle"] = oracle_event_field(*h.oracle);
  if (h.seed) j["seed"] = *h.seed;
  // The oracle's number of clusters when it is known and is not k: elimination does not apply
  // then (Params::eliminates), and a replay must know it.
  if (h.params.oracle_clusters != 0 && h.params.oracle_clusters != h.params.k)
    j["oracle_clusters"] = h.params.oracle_clusters;
  // The rules a run was made under, when they are not the paper's (ssac/rules.hpp); a trace of the
  // paper profile has no such field. The elimination rule stays in "assignment".
  const Profile profile{h.params.rules, h.params.elimination};
  if (h.params.rules != Rules{}) {
    j["semantics"] = profile_name(profile);
    j["rules"] = describe(profile);
  }
  // The oracle's memory when it is not Definition 5's fresh reading (written last, so that a
  // trace of a fresh oracle has exactly the bytes it always had).
  if (h.memory != OracleMemory::fresh) j["oracle_memory"] = to_string(h.memory);
  return j;
}

// Algorithm 1, line 2.
void EventBuilder::iteration_started(const Iteration& it) {
  steps_ = 0;
  emit(json{{"event", "iteration"}, {"iteration", it.index}, {"remaining", it.remaining}},
       {it.index, 0, 0});
}

// Line 4: Z in draw order.
void EventBuilder::sample_drawn(const Iteration& it) {
  emit(json{{"event", "sample"}, {"iteration", it.index}, {"rows", rows_json(it.sample)}},
       {it.index, 1, 0});
}

// A Phase-2 query belongs to the binary-search step whose `step` event follows it.
void EventBuilder::queried(const QueryRecord& q) {
  json j;
  j["event"] = "query";
  j["iteration"] = q.iteration;
  j["phase"] = q.phase;
  j["purpose"] = to_string(q.purpose);
  j["x"] = q.x;
  j["y"] = q.y;
  j["answer"] = to_string(q.answer);
  emit(std::move(j), {q.iteration, q.phase, q.phase == 2 ? steps_ + 1 : 0});
}

// Definition 4 under a random anchor rule: the pool the anchor was drawn from (the rows known to be
// in t, increasing) and the row drawn, before the queries of the draw x that ask it.
void EventBuilder::anchor_drawn(const AnchorDraw& d) {
  emit(json{{"event", "anchor"},
            {"iteration", d.iteration},
            {"x", d.x},
            {"cluster", d.cluster},
            {"candidates", rows_json(d.candidates)},
            {"row", d.candidates[d.position]}},
       {d.iteration, 1, 0});
}

// Lines 5-7.
void EventBuilder::assigned(const Iteration& it) {
  emit(json{{"event", "assignment"}, {"iteration", it.index}, {"clusters", it.assignment}},
       {it.index, 1, 0});
}

// Line 8 and Algorithms 3/4, line 1: x_1 is the point of S_i closest to mu'_p, in every search.
void EventBuilder::cluster_chosen(const Iteration& it) {
  json c;
  c["event"] = "cluster";
  c["iteration"] = it.index;
  c["p"] = it.p;
  c["zp_size"] = it.zp_size;
  c["revisited"] = it.revisited;
  c["center"] = std::vector<double>(it.center.data(), it.center.data() + it.center.size());
  c["x1"] = it.x1;
  emit(std::move(c), {it.index, 1, 0});
}

void EventBuilder::step_taken(const Iteration& it, const SearchStep& st) {
  ++steps_;
  json j;
  j["event"] = "step";
  j["iteration"] = it.index;
  j["step"] = steps_;
  j["lo"] = st.lo;
  j["hi"] = st.hi;
  j["j"] = st.j;
  j["row"] = st.row;
  // The step's own query: Q(x_1, x_j) in the weak searches (null when not asked: Algorithm 2, or
  // x_j = x_1), Q(z, x_j) in the plain search (null when x_j = z).
  if (search_ == Search::plain)
    j["z_answer"] = st.z_asked ? json(to_string(st.z_answer)) : json(nullptr);
  else
    j["x1_answer"] = st.x1_asked ? json(to_string(st.x1_answer)) : json(nullptr);
  j["sample"] = rows_json(st.sample);
  json answers = json::array();
  for (Answer a : st.sample_answers)
    answers.push_back(to_string(a));
  j["sample_answers"] = answers;
  j["decision"] = to_string(st.decision);
  emit(std::move(j), {it.index, 2, steps_});
}

// Lines 11-13: j*, r'_i and C'_p, when the search completed.
void EventBuilder::iteration_ended(const Iteration& it) {
  json o;
  o["event"] = "outcome";
  o["iteration"] = it.index;
  o["outcome"] = to_string(it.outcome);
  const bool searched = it.outcome == Outcome::recovered || it.outcome == Outcome::empty_cluster;
  o["j_star"] = searched ? json(it.j_star) : json(nullptr);
  o["radius"] = !searched                  ? json(nullptr)
                : std::isfinite(it.radius) ? json(it.radius)
                                           : json("inf");
  o["assigned"] = rows_json(it.members);
  emit(std::move(o), {it.index, 2, 0});
}

void EventBuilder::finished(const Result& R) {
  json f;
  f["event"] = "final";
  f["labels"] = R.labels;
  f["status"] = R.status;
  f["clusters_recovered"] = R.clusters_recovered;
  f["failed"] = R.failed;
  f["queries_phase1"] = R.queries_phase1;
  f["queries_phase2"] = R.queries_phase2;
  emit(std::move(f), {});
}

}  // namespace ssac::trace
