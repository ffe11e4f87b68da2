// Naming the rule behind a divergence: the mistakes that add or drop a query or change a Phase-1
// choice leave a pattern in the trace at the point where it parts from the reference (an extra
// query of a point with itself, one draw of B too many, a missing query after a yes, an assignment
// only elimination gives, a tied argmax, a Phase-1 sample of another size than r). Each hint is a
// guess from that pattern, worded as such.
#include "trace/diagnose.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include "ssac/error.hpp"

namespace ssac::trace {

namespace {

bool is_query(const json& e, const char* purpose = nullptr) {
  return e["event"] == "query" && (purpose == nullptr || e["purpose"] == purpose);
}

std::string row(const json& v) {
  return "x" + v.dump();
}

// B's size at a probe: beta in Algorithm 2, beta - 1 after a not-sure Q(x_1, x_j) in Algorithm 4.
// "" for the searches that draw no B (Algorithm 3, the plain search).
std::string sample_rule(const Params& P) {
  if (P.search == Search::unified)
    return "Algorithm 4, line 9 draws beta - 1 = " + std::to_string(P.beta - 1) +
           " points of B after a not-sure Q(x_1, x_j)";
  if (P.search == Search::random)
    return "Algorithm 2, line 3 draws beta = " + std::to_string(P.beta) + " points of B";
  return "";
}

// A Phase-1 sample of another size than Algorithm 1, line 1's: r = ceil(k eta) draws (under
// sample-cap=on, r_i = min(r, |S_i|)).
std::string sample_size_hint(const json& a, const json& b, int iteration, const Result& R,
                             const Params& P) {
  const std::size_t found = b["rows"].size();
  const std::uint64_t r = P.sample_size();
  std::string s = "; the sample has " + std::to_string(found) + " draws; Algorithm 1 line 1 draws ";
  if (P.rules.sample_cap)
    return s + "r_i = min(ceil(k eta), |S_i|) = " + std::to_string(a["rows"].size()) +
           " under sample-cap=on (|S_i| = " +
           std::to_string(R.iterations[static_cast<std::size_t>(iteration - 1)].remaining) + ")";
  s += "r = ceil(k eta) = " + std::to_string(r);
  const double prod = static_cast<double>(P.k) * P.eta;
  if (found + 1 == r && std::floor(prod) != prod)
    s += " (k eta = " + format_double(prod) + ", and " + std::to_string(found) + " = floor(k eta))";
  else if (found + 1 == r && std::ceil(prod) == prod)
    s += " (the exact k eta exceeds the rounded double product fl(k eta) = " + format_double(prod) +
         ")";
  return s;
}

std::string assignment_hint(const json& a, const json& b, int iteration, const Result& R,
                            const Params& P) {
  const json& ca = a["clusters"];
  const json& cb = b["clusters"];
  std::size_t d = 0;
  while (d < ca.size() && d < cb.size() && ca[d] == cb[d])
    ++d;
  const Iteration& it = R.iterations[static_cast<std::size_t>(iteration - 1)];
  if (d >= ca.size() || d >= cb.size() || d >= it.sample.size()) return "";
  const std::size_t x = it.sample[d];
  // The reference's answers to draw d's queries: walk every Phase 1 up to this one as S2 asks
  // them (a draw that is an anchor asks nothing, any other draw asks every known anchor).
  std::vector<std::size_t> anchors;
  int yes = 0, unsure = 0;
  for (const Iteration& w : R.iterations) {
    if (w.index > iteration) break;
    std::vector<Answer> asked;
    for (const QueryRecord& q : R.queries)
      if (q.iteration == w.index && q.phase == 1) asked.push_back(q.answer);
    std::size_t qi = 0;
    for (std::size_t e = 0; e < w.sample.size() && e < w.assignment.size(); ++e) {
      if (std::find(anchors.begin(), anchors.end(), w.sample[e]) != anchors.end()) continue;
      const std::size_t known = anchors.size();
      for (std::size_t t = 0; t < known && qi < asked.size(); ++t, ++qi)
        if (w.index == iteration && e == d) {
          yes += asked[qi] == Answer::Yes;
          unsure += asked[qi] == Answer::NotSure;
        }
      if (w.assignment[e] == static_cast<int>(known) + 1) anchors.push_back(w.sample[e]);
    }
  }
  if (yes > 0 || unsure == 0) return "";
  const int ta = ca[d].get<int>(), tb = cb[d].get<int>();
  const std::string who = "row " + std::to_string(x) + " (draw " + std::to_string(d) +
                          ") has no yes and a not-sure from the anchors";
  if (ta != 0)
    return "; " + who + ": with all k = " + std::to_string(P.k) +
           " clusters known, k - 1 no and one not-sure mean elimination gives cluster " +
           std::to_string(ta) + ", whose anchor answered not-sure (S2, rule 5)";
  if (tb != 0) {
    std::string why = "all k clusters known";
    if (!P.elimination) why = "it switched on (the trace's header has assignment \"code\")";
    if (P.oracle_clusters != 0 && P.oracle_clusters != P.k)
      why = "an oracle of exactly k clusters (the header's oracle_clusters = " +
            std::to_string(P.oracle_clusters) + ")";
    return "; " + who + ": elimination (S2, rule 5) needs " + why + ", k - 1 no and one not-sure";
  }
  return "";
}

std::string argmax_hint(const json& a, const json& b, int iteration, const Result& R) {
  const Iteration& it = R.iterations[static_cast<std::size_t>(iteration - 1)];
  std::map<int, std::size_t> size;
  for (int t : it.assignment)
    ++size[t];
  const int pa = a["p"].get<int>(), pb = b["p"].get<int>();
  if (pa == 0 || pb == 0) return "";
  const std::string za = "|Z_" + std::to_string(pa) + "| = " + std::to_string(size[pa]);
  const std::string zb = "|Z_" + std::to_string(pb) + "| = " + std::to_string(size[pb]);
  if (size[pa] == size[pb])
    return "; " + za + " and " + zb + " tie: ties in p = argmax_t |Z_t| go to the " +
           "earliest-discovered cluster, the smallest number (S7)";
  return "; " + za + ", " + zb + ": p = argmax_t |Z_t| (Algorithm 1, line 8)";
}

}  // namespace

std::string rule_hint(const json& prev, const json& cur, const json& next_step, const json& ref,
                      const std::string& key, const Result& R, const Params& P) {
  const std::string kind = ref["event"].get<std::string>();
  const int iteration = ref.contains("iteration") ? ref["iteration"].get<int>() : 0;
  if (!key.empty()) {
    if (cur.is_null() || iteration < 1 || static_cast<std::size_t>(iteration) > R.iterations.size())
      return "";
    const json& b = cur;
    if (kind == "assignment" && key == "clusters") return assignment_hint(ref, b, iteration, R, P);
    if (kind == "sample" && key == "rows" && ref["rows"].size() != b["rows"].size())
      return sample_size_hint(ref, b, iteration, R, P);
    if (kind == "cluster" && key == "p") return argmax_hint(ref, b, iteration, R);
    if (kind == "step" && key == "sample" && ref["sample"].size() != b["sample"].size() &&
        !sample_rule(P).empty())
      return "; " + sample_rule(P) + ", the trace's step draws " +
             std::to_string(b["sample"].size());
    return "";
  }
  // The event streams part: an extra or a missing query or step.
  if (!cur.is_null() && is_query(cur) && cur["x"] == cur["y"] && !P.rules.self_pairs)
    return "; the trace asks Q(" + row(cur["x"]) + ", " + row(cur["y"]) +
           "): under self-pairs=off a self-pair is taken as yes and never asked (S4)";
  if (is_query(ref) && ref["x"] == ref["y"] && P.rules.self_pairs)
    return "; the reference asks Q(" + row(ref["x"]) + ", " + row(ref["y"]) +
           "): self-pairs are asked like any pair (S4); a run that takes them as yes names "
           "self-pairs=off in its header";
  if (sample_rule(P).empty()) return "";
  if (kind == "step" && !cur.is_null() && is_query(cur, "search_sample") && !next_step.is_null())
    return "; " + sample_rule(P) + ", the trace's step draws " +
           std::to_string(next_step["sample"].size()) + " and asks one more query";
  if (is_query(ref, "search_sample") && !cur.is_null() && cur["event"] == "step")
    return "; " + sample_rule(P) + ", the trace's step draws " +
           std::to_string(cur["sample"].size()) + " and asks one query fewer";
  if (is_query(ref, "assignment") && !prev.is_null() && is_query(prev, "assignment") &&
      prev["x"] == ref["x"] && prev["answer"] == "yes")
    return "; Definition 4 asks Q(x, y_t) of every known anchor y_t, also after a yes (S2, "
           "rule 2): the trace stops after Q(" +
           row(prev["x"]) + ", " + row(prev["y"]) + ") = yes";
  return "";
}

}  // namespace ssac::trace
