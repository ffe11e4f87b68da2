// The conformance corpus's cases on the authors-code profile (proofs-notes/semantics.md S9): one
// per rule that changes a run, on overlap_shuffled, each with what its run must show, read from the
// run's states (conformance::State). The generator (cmd_conformance.cpp) also requires that the
// trace with the case's rule flipped alone in its header fails validation.
#include <algorithm>
#include <utility>

#include "conformance/conformance_cases.hpp"

namespace ssac::cli::conformance {

namespace {

// The state reported at `stage` of iteration i, or nullptr.
const State* state_at(const std::vector<State>& h, int i, RunState::Stage stage) {
  for (const State& st : h)
    if (st.iteration == i && st.stage == stage) return &st;
  return nullptr;
}
bool has(const std::vector<int>& v, int t) {
  return std::find(v.begin(), v.end(), t) != v.end();
}
// Whether a later state than iteration i knows cluster number t.
bool known_after(const std::vector<State>& h, int i, int t) {
  for (const State& st : h)
    if (st.iteration > i && has(st.known, t)) return true;
  return false;
}

// Rules::overwrite, per iteration: a known cluster t != p that loses its opener's label to C'_p
// (`captured`), or that is forgotten (`erased`), with the numbers concerned.
struct Overwrites {
  std::vector<std::pair<int, int>> captured, erased;  // (iteration, t)
};
Overwrites overwrites(const Result& R, const std::vector<State>& h) {
  Overwrites o;
  for (const auto& it : R.iterations) {
    const State* c = state_at(h, it.index, RunState::Stage::cluster_chosen);
    const State* e = state_at(h, it.index, RunState::Stage::iteration_ended);
    if (!c || !e) continue;
    for (int t : c->known) {
      const std::size_t x = c->openers[static_cast<std::size_t>(t)];
      if (t != it.p && x < c->labels.size() && c->labels[x] == t && e->labels[x] == it.p)
        o.captured.emplace_back(it.index, t);
      if (!has(e->known, t)) o.erased.emplace_back(it.index, t);
    }
  }
  return o;
}

// Rules::anchor = lowest-labelled-row: a Phase-1 query asks about a row y of cluster t that is not
// t's opener and belongs to another cluster of the oracle than the opener does.
bool anchor_moved_off_its_cluster(const Result& R, const Data& d, const Params&,
                                  const std::vector<State>& h) {
  for (const auto& q : R.queries) {
    if (q.phase != 1 || q.iteration < 2) continue;
    const State* prev = state_at(h, q.iteration - 1, RunState::Stage::iteration_ended);
    if (!prev) continue;
    const int t = prev->labels[q.y];
    if (t <= 0) continue;
    const std::size_t opener = prev->openers[static_cast<std::size_t>(t)];
    if (opener != q.y && opener < d.labels.size() && d.labels[q.y] != d.labels[opener]) return true;
  }
  return false;
}

// Rules::elimination off: a draw whose k queries (all k clusters known) got k-1 no and one
// not-sure. The queries of one draw are consecutive with the same x.
bool elimination_would_apply(const Result& R, const Params& P) {
  const auto& q = R.queries;
  for (std::size_t a = 0; a < q.size();) {
    std::size_t b = a;
    while (b < q.size() && q[b].phase == 1 && q[b].iteration == q[a].iteration && q[b].x == q[a].x)
      ++b;
    if (b == a) {
      ++a;
      continue;
    }
    const auto no = std::count_if(q.begin() + static_cast<std::ptrdiff_t>(a),
                                  q.begin() + static_cast<std::ptrdiff_t>(b),
                                  [](const QueryRecord& r) { return r.answer == Answer::No; });
    if (b - a == static_cast<std::size_t>(P.k) && no == P.k - 1 &&
        std::any_of(q.begin() + static_cast<std::ptrdiff_t>(a),
                    q.begin() + static_cast<std::ptrdiff_t>(b),
                    [](const QueryRecord& r) { return r.answer == Answer::NotSure; }))
      return true;
    a = b;
  }
  return false;
}

}  // namespace

void add_authors_code_cases(std::vector<Case>& c) {
  const OracleSpec perfect, random05{OracleKind::random, 0.5};
  // The authors-code profile (S9), one case per rule that changes a run, on overlap_shuffled (the
  // last data set). Each case's trace shows the rule acting, and the generator checks that the
  // trace with that one rule flipped in its header fails validation. The original SSAC is a
  // profile of the paper's algorithm only, so the plain search has none.
  const Rules authors = authors_code_profile().rules;
  auto add =
      [&](std::string comment, std::vector<std::string> flags, const char* pins,
          const OracleSpec& oracle,
          std::function<bool(const Result&, const Data&, const Params&, const std::vector<State>&)>
              h) {
        flags.insert(flags.begin(), "AuthorsCodeProfile");
        comment += " (" + std::string(pins) + " flipped alone in the header: the replay diverges)";
        Case x{"overlap_shuffled",
               std::move(comment),
               std::move(flags),
               3,
               2.0,
               2,
               false,
               oracle,
               [](const Result&, const Data&, const Params&) { return true; }};
        x.rules = authors;
        x.pins = pins;
        x.history = std::move(h);
        c.push_back(std::move(x));
      };
  add("overwrite: C'_p takes the opener of a known cluster that keeps other labelled rows; "
      "its anchor moves",
      {"CapturedOpener"}, "overwrite", perfect,
      [](const Result& R, const Data&, const Params&, const std::vector<State>& h) {
        const Overwrites o = overwrites(R, h);
        for (const auto& [i, t] : o.captured)
          if (std::find(o.erased.begin(), o.erased.end(), std::make_pair(i, t)) == o.erased.end())
            return true;
        return false;
      });
  add("overwrite: C'_p takes the only labelled row of a known cluster, which is forgotten",
      {"ErasedCluster"}, "overwrite", perfect,
      [](const Result& R, const Data&, const Params&, const std::vector<State>& h) {
        for (const auto& [i, t] : overwrites(R, h).erased)
          if (!known_after(h, i, t)) return true;
        return false;
      });
  add("overwrite: a forgotten cluster's number is taken by the next cluster opened",
      {"ErasedCluster", "ReusedClusterNumber"}, "overwrite", perfect,
      [](const Result& R, const Data&, const Params&, const std::vector<State>& h) {
        for (const auto& [i, t] : overwrites(R, h).erased)
          if (known_after(h, i, t)) return true;
        return false;
      });
  add("anchor: a Phase-1 query asks the lowest labelled row of a cluster, a row of another "
      "cluster of the oracle's",
      {"MovingAnchor"}, "anchor", perfect, anchor_moved_off_its_cluster);
  add("self-pairs: Q(x, x) is asked and the random-weak oracle answers not-sure",
      {"SelfPairNotSure", "RandomWeakOracle"}, "self-pairs", random05,
      [](const Result& R, const Data&, const Params&, const std::vector<State>&) {
        for (const auto& q : R.queries)
          if (q.x == q.y && q.answer == Answer::NotSure) return true;
        return false;
      });
  add("phase2: C'_p holds a row at distance r' from mu'_p (the first j* rows of the order)",
      {"PrefixAssignment"}, "phase2", perfect,
      [](const Result& R, const Data& d, const Params&, const std::vector<State>&) {
        for (const auto& it : R.iterations)
          for (std::size_t x : it.members)
            if (!(distance(d.X, x, it.center) < it.radius)) return true;
        return false;
      });
  add("sample-cap: r_i = |S_i| < ceil(k eta) draws", {"SampleCap"}, "sample-cap", perfect,
      [](const Result& R, const Data&, const Params& P, const std::vector<State>&) {
        for (const auto& it : R.iterations)
          if (!it.sample.empty() && it.sample.size() < P.sample_size()) return true;
        return false;
      });
  add("empty-recovers: Phase 2 labels no row and p counts as recovered",
      {"EmptyClusterRecovers", "RandomWeakOracle"}, "empty-recovers", random05,
      [](const Result& R, const Data&, const Params&, const std::vector<State>&) {
        return std::any_of(R.iterations.begin(), R.iterations.end(), [](const Iteration& it) {
          return it.outcome == Outcome::empty_cluster;
        });
      });
  add("elimination off: k-1 no and one not-sure leave a draw unassigned",
      {"AssignmentRuleCode", "RandomWeakOracle"}, "elimination", random05,
      [](const Result& R, const Data&, const Params& P, const std::vector<State>&) {
        return elimination_would_apply(R, P);
      });
}

void add_b_order_cases(std::vector<Case>& c) {
  // Algorithm 4, line 10 asks Q(x_j, y) for y in B; the authors' code asks Q(y, x_j) (S5, S9). One
  // run under each order, each with a query of B about two rows (where the order shows), and each
  // accepted only if its trace with the order flipped in its header fails validation (then at its
  // first such query, "same pair, reversed").
  const OracleSpec random05{OracleKind::random, 0.5};
  auto two_rows = [](const Result& R, const Data&, const Params&, const std::vector<State>&) {
    return std::any_of(R.queries.begin(), R.queries.end(), [](const QueryRecord& q) {
      return q.purpose == Purpose::search_sample && q.x != q.y;
    });
  };
  auto add = [&](std::string comment, std::vector<std::string> flags, const Profile& profile) {
    flags.push_back("RandomWeakOracle");
    Case x{"overlap_shuffled",
           std::move(comment) +
               " (b-order flipped alone in the header: the replay diverges at that query, the "
               "same pair reversed)",
           std::move(flags),
           3,
           2.0,
           2,
           profile.elimination,
           random05,
           [](const Result&, const Data&, const Params&) { return true; }};
    x.rules = profile.rules;
    x.pins = "b-order";
    x.history = two_rows;
    c.push_back(std::move(x));
  };
  add("b-order=b-first: B's queries are asked Q(y, x_j), as the authors' code's Algorithm-4 "
      "search asks them",
      {"AuthorsCodeProfile", "BFirstOrder"}, authors_code_profile());
  add("b-order=xj-first, the paper's rules: B's queries are asked Q(x_j, y) (Algorithm 4, line "
      "10)",
      {"XjFirstOrder"}, profile_named("paper"));
}

void add_authors_code_notes(nlohmann::ordered_json& n) {
  auto add = [&](const char* flag, const char* text) { n[flag] = {{"description", text}}; };
  add("AuthorsCodeProfile",
      "The run is made under the authors-code profile (proofs-notes/semantics.md S9), named by "
      "params.semantics and spelled out rule by rule in params.rules, as in the trace's header. "
      "A consumer that does not implement a profile skips the vector and reports it as skipped. "
      "Replaying the trace with the rule the comment names flipped diverges.");
  add("CapturedOpener",
      "overwrite=on: C'_p holds the opener of another known cluster, which loses its label; the "
      "cluster keeps other labelled rows, so it stays known and its lowest labelled row moves.");
  add("ErasedCluster",
      "overwrite=on: C'_p holds the last labelled row of another known cluster, which is "
      "forgotten: no longer known, not recovered, its centre dropped.");
  add("ReusedClusterNumber",
      "overwrite=on: a cluster opened after another was forgotten takes the smallest number not "
      "known, the forgotten cluster's.");
  add("MovingAnchor",
      "anchor=lowest-labelled-row: the cluster-assignment query asks about the lowest-index row "
      "labelled t, here a row of another of the oracle's clusters than t's opener.");
  add("SelfPairNotSure",
      "self-pairs=on: Q(x, x) is asked like any other pair, and the random-weak oracle answers "
      "not-sure.");
  add("PrefixAssignment",
      "phase2=prefix: C'_p is the first j* rows of the order, here with a row at distance exactly "
      "r'_i from mu'_p, which the radius rule (strict) leaves out.");
  add("SampleCap",
      "sample-cap=on: r_i = min(ceil(k eta), |S_i|) draws, here fewer than ceil(k eta).");
  add("EmptyClusterRecovers",
      "empty-recovers=on: an iteration whose C'_p is empty still counts p as recovered.");
}

void add_b_order_notes(nlohmann::ordered_json& n) {
  auto add = [&](const char* flag, const char* text) { n[flag] = {{"description", text}}; };
  add("BFirstOrder",
      "b-order=b-first (the authors-code profile): Algorithm 4 asks each query of B as Q(y, x_j), "
      "y in B, as the authors' code does; here one such query is about two rows, where the order "
      "shows. Replayed under b-order=xj-first the trace diverges there, the same pair reversed.");
  add("XjFirstOrder",
      "b-order=xj-first (the paper's rules): Algorithm 4, line 10 asks each query of B as "
      "Q(x_j, y), y in B (S5); here one such query is about two rows. Replayed under "
      "b-order=b-first the trace diverges there, the same pair reversed.");
}

}  // namespace ssac::cli::conformance
