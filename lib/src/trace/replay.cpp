// Replaying a trace (ssac validate): the recorded choices and answers are handed to the reference
// in the order it asks for them, and a comparer observes the reference's run, checking each event
// it reports against the trace's event at the same position.
// (Over 400 lines: the chooser, oracle, comparer and the divergence hints share the Mismatch and
// Note types and an anonymous namespace; split apart they would need a private header of their
// own.)
#include <algorithm>
#include <cmath>
#include <functional>
#include <iterator>
#include <map>
#include <optional>
#include <set>
#include <utility>

#include "algorithm/run.hpp"
#include "ssac/error.hpp"
#include "trace/diagnose.hpp"
#include "trace/events.hpp"
#include "trace/read.hpp"

namespace ssac {

namespace {

using trace::json;
using trace::Where;

struct Note {
  int iteration;
  std::string text;
};

class ReplayChooser : public Chooser {
 public:
  struct Draw_ {
    std::size_t row;
    int iteration;
    std::size_t block;  // the trace's sample or step event that holds the draw
  };
  std::vector<Draw_> phase1, search;
  // The trace's anchor draws (version 4), in order: the row drawn, and for messages the cluster
  // whose anchor it is and the Phase-1 draw x whose query asks it.
  struct Anchor {
    std::size_t row;
    int iteration;
    int cluster;
    std::size_t x;
  };
  std::vector<Anchor> anchors;
  std::size_t next1 = 0, next2 = 0, next_anchor = 0;
  std::vector<Note> notes;
  // The reference's current iteration, which the comparer follows: the iteration in which a draw
  // found the trace's draws used up.
  const int* iteration = nullptr;
  // Whether the comparer has found the first divergence: a draw the reference asks for after it
  // is taken from a run that no longer follows the trace, and what goes wrong with it is a
  // consequence, never the cause, so it is not noted.
  std::function<bool()> diverged = [] { return false; };
  ChoiceSink* sink = nullptr;
  AnchorRule rule = AnchorRule::opener;  // the header's, for messages

  std::size_t choose(const std::vector<std::size_t>& pool, Draw what) override {
    if (what == Draw::anchor) {
      const std::size_t at = anchor_position(pool);
      // Each anchor draw is a sample of one; its block number is apart from the samples'.
      if (sink && notes.empty()) sink->drawn(what, pool, at, kAnchorBlock + next_anchor);
      return at;
    }
    const std::size_t at = position(pool, what);
    // Only the trace's own draws: after a note the replay has left the trace (and a trace that
    // does not conform is not passed on by the caller anyway).
    if (sink && notes.empty()) {
      const bool p1 = what == Draw::phase1_sample;
      sink->drawn(what, pool, at, (p1 ? phase1[next1 - 1] : search[next2 - 1]).block);
    }
    return at;
  }

 private:
  static constexpr std::size_t kAnchorBlock = std::size_t{1} << 62;

  // Definition 4 under a random anchor rule: the recorded anchor must be one of the rows the rule
  // draws from at this point of the run (`pool`, the rows known to be in the cluster). Replay uses
  // the recorded row itself, so no random number generator is shared.
  std::size_t anchor_position(const std::vector<std::size_t>& pool) {
    if (next_anchor >= anchors.size()) {
      if (diverged()) return 0;
      notes.push_back({iteration ? *iteration : 0,
                       "the trace has no more anchor draws where the reference draws an anchor "
                       "(anchor=" +
                           std::string(to_string(rule)) + ")"});
      return 0;
    }
    const Anchor a = anchors[next_anchor++];
    const auto it = std::find(pool.begin(), pool.end(), a.row);
    if (it != pool.end()) return static_cast<std::size_t>(it - pool.begin());
    if (diverged()) return 0;
    std::string rows;
    for (std::size_t r : std::set<std::size_t>(pool.begin(), pool.end()))
      rows += (rows.empty() ? "" : ", ") + std::to_string(r);
    notes.push_back(
        {a.iteration, "row " + std::to_string(a.row) + " drawn as the anchor of cluster " +
                          std::to_string(a.cluster) + " for row " + std::to_string(a.x) +
                          " in iteration " + std::to_string(a.iteration) +
                          " is not one the rule draws from: anchor=" + to_string(rule) +
                          " draws uniformly from the rows known to be in the cluster, {" + rows +
                          "} (Definition 4; proofs-notes/anchor-rules.md)"});
    return 0;
  }

  std::size_t position(const std::vector<std::size_t>& pool, Draw what) {
    const bool p1 = what == Draw::phase1_sample;
    auto& list = p1 ? phase1 : search;
    auto& next = p1 ? next1 : next2;
    if (next >= list.size()) {
      if (diverged()) return 0;
      notes.push_back({iteration ? *iteration : 0, std::string("the trace has no more ") +
                                                       (p1 ? "Phase-1 draws" : "draws of B") +
                                                       " where the reference draws"});
      return 0;
    }
    const Draw_ d = list[next++];
    const int now = iteration ? *iteration : d.iteration;
    if (p1) {
      // S_i is in increasing row order.
      const auto it = std::lower_bound(pool.begin(), pool.end(), d.row);
      if (it != pool.end() && *it == d.row) return static_cast<std::size_t>(it - pool.begin());
      if (diverged()) return 0;
      notes.push_back({d.iteration, "row " + std::to_string(d.row) +
                                        " drawn in Phase 1 of iteration " +
                                        std::to_string(d.iteration) +
                                        " is not in S_i (it was assigned earlier)"});
      return 0;
    }
    const auto it = std::find(pool.begin(), pool.end(), d.row);
    if (it != pool.end()) return static_cast<std::size_t>(it - pool.begin());
    if (diverged()) return 0;
    std::string zp;
    for (std::size_t r : std::set<std::size_t>(pool.begin(), pool.end()))
      zp += (zp.empty() ? "" : ", ") + std::to_string(r);
    // The pool is the reference's Z_p of its own iteration, which is the draw's unless the
    // reference has run out of the trace's draws of that iteration early.
    const std::string whose = now == d.iteration ? ""
                                                 : " of iteration " + std::to_string(now) +
                                                       ", where the reference "
                                                       "asks for it";
    notes.push_back({d.iteration, "row " + std::to_string(d.row) + " drawn into B in iteration " +
                                      std::to_string(d.iteration) + " is not in Z_p" + whose +
                                      " = {" + zp +
                                      "} (B is sampled from Z_p, Algorithms 2 and 4)"});
    return 0;
  }
};

// The trace's order among rows at exactly equal distance from mu'_p, which S6 orders by row and the
// paper leaves free (Algorithm 1, line 10 sorts by distance alone): what the trace shows of its
// order at each iteration (x_1 at position 0, each step's row at its j, and under phase2=prefix
// which rows it assigned) is followed within each group of equal distances, so that a trace whose
// only difference is how it broke such ties conforms. A row claimed at a position outside its own
// group is no tie and is left where the reference puts it (the comparison reports it).
class TieFollower {
 public:
  struct Claim {
    std::size_t position, row;
  };
  std::map<int, std::vector<Claim>> claims;          // per iteration
  std::map<int, std::vector<std::size_t>> assigned;  // per iteration, increasing
  std::size_t ties = 0;                              // tie groups whose order the trace changed

  const detail::TieRanks* operator()(int iteration,
                                     const std::vector<detail::DistanceOrder::Entry>& entries) {
    const auto c = claims.find(iteration);
    if (c == claims.end() || entries.size() < 2) return nullptr;
    const auto a = assigned.find(iteration);
    auto is_assigned = [&](std::size_t row) {
      return a != assigned.end() && std::binary_search(a->second.begin(), a->second.end(), row);
    };
    std::vector<detail::DistanceOrder::Entry> order = entries;  // S6: distance, then row
    std::sort(order.begin(), order.end(), [](const auto& x, const auto& y) {
      return x.first != y.first ? x.first < y.first : x.second < y.second;
    });
    std::vector<std::size_t> rows(order.size());
    bool changed = false;
    for (std::size_t s = 0, e = 0; s < order.size(); s = e) {
      e = s + 1;
      while (e < order.size() && order[e].first == order[s].first)
        ++e;
      for (std::size_t i = s; i < e; ++i)
        rows[i] = order[i].second;
      if (e - s < 2) continue;
      auto in_group = [&](std::size_t row) {
        for (std::size_t i = s; i < e; ++i)
          if (order[i].second == row) return true;
        return false;
      };
      std::map<std::size_t, std::size_t> at;  // position -> row, the trace's
      bool consistent = true;
      for (const Claim& cl : c->second) {
        if (cl.position < s || cl.position >= e || !in_group(cl.row)) continue;
        const auto [f, added] = at.emplace(cl.position, cl.row);
        if (!added && f->second != cl.row) consistent = false;
      }
      std::set<std::size_t> fixed;
      for (const auto& [pos, row] : at)
        if (!fixed.insert(row).second) consistent = false;
      if (!consistent) continue;  // no one order shows both: left to the comparison
      // The rest of the group in the reference's order, the rows the trace assigned first.
      std::vector<std::size_t> rest;
      for (std::size_t i = s; i < e; ++i)
        if (!fixed.count(order[i].second)) rest.push_back(order[i].second);
      std::stable_partition(rest.begin(), rest.end(), is_assigned);
      for (std::size_t i = s, r = 0; i < e; ++i) {
        const auto f = at.find(i);
        rows[i] = f != at.end() ? f->second : rest[r++];
      }
      for (std::size_t i = s; i < e; ++i)
        if (rows[i] != order[i].second) {
          changed = true;
          ++ties;
          break;
        }
    }
    if (!changed) return nullptr;
    std::size_t n = 0;
    for (std::size_t r : rows)
      n = std::max(n, r + 1);
    ranks_.rank.resize(std::max(ranks_.rank.size(), n));
    ranks_.row_of.resize(std::max(ranks_.row_of.size(), rows.size()));
    for (std::size_t i = 0; i < rows.size(); ++i) {
      ranks_.rank[rows[i]] = i;
      ranks_.row_of[i] = rows[i];
    }
    return &ranks_;
  }

 private:
  detail::TieRanks ranks_;
};

class ReplayOracle : public Oracle {
 public:
  struct Q {
    std::size_t x, y;
    Answer a;
  };
  std::vector<Q> queries;
  // Each pair's first recorded answer, by (min, max) of the pair: sorted and deduplicated by
  // index() after the trace is read.
  std::vector<Q> by_pair;
  std::size_t next = 0;
  ChoiceSink* sink = nullptr;

  void index() {
    for (const Q& q : queries)
      by_pair.push_back({std::min(q.x, q.y), std::max(q.x, q.y), q.a});
    std::stable_sort(by_pair.begin(), by_pair.end(), less);
    by_pair.erase(std::unique(by_pair.begin(), by_pair.end(),
                              [](const Q& a, const Q& b) { return a.x == b.x && a.y == b.y; }),
                  by_pair.end());
    by_pair.shrink_to_fit();
  }

  Answer query(std::size_t x, std::size_t y) override {
    // The recorded answer when the reference asks what the trace asked next. Otherwise the run
    // has already diverged (the comparison reports it); any answer the trace gave for the pair
    // keeps the replay close to the trace, not-sure when it gave none.
    const std::size_t i = next++;
    if (i < queries.size() && queries[i].x == x && queries[i].y == y) {
      if (sink) sink->answered(x, y, queries[i].a);
      return queries[i].a;
    }
    const Q key{std::min(x, y), std::max(x, y), Answer::NotSure};
    const auto f = std::lower_bound(by_pair.begin(), by_pair.end(), key, less);
    return f == by_pair.end() || f->x != key.x || f->y != key.y ? Answer::NotSure : f->a;
  }

 private:
  static bool less(const Q& a, const Q& b) { return a.x != b.x ? a.x < b.x : a.y < b.y; }
};

Answer parse_answer(const json& v) {
  return v == "yes" ? Answer::Yes : v == "no" ? Answer::No : Answer::NotSure;
}

bool close(double a, double b) {
  if (a == b) return true;
  if (!std::isfinite(a) || !std::isfinite(b)) return false;
  return std::fabs(a - b) <= kTraceTolerance * std::max({1.0, std::fabs(a), std::fabs(b)});
}

// Equality of two JSON values, numbers within the tolerance; on a difference `path` names the
// first differing element ("[3]").
bool same(const json& a, const json& b, std::string& path) {
  if (a.is_number() && b.is_number()) {
    if (a.is_number_float() || b.is_number_float()) return close(a.get<double>(), b.get<double>());
    return a == b;
  }
  if (a.is_array() && b.is_array()) {
    for (std::size_t i = 0; i < std::min(a.size(), b.size()); ++i)
      if (!same(a[i], b[i], path)) {
        path = "[" + std::to_string(i) + "]" + path;
        return false;
      }
    if (a.size() != b.size()) {
      path = " (length " + std::to_string(a.size()) + " vs " + std::to_string(b.size()) + ")";
      return false;
    }
    return true;
  }
  return a == b;
}

// `phase` is the divergence's phase (0 outside one), which may differ from the event's.
std::string context(std::size_t event, const Where& w, const json& ref, int phase) {
  std::string s = "event " + std::to_string(event);
  if (w.iteration == 0) return s + (ref["event"] == "final" ? " (final)" : " (header)");
  s += " (iteration " + std::to_string(w.iteration);
  if (phase) s += ", phase " + std::to_string(phase);
  if (w.step) s += ", step " + std::to_string(w.step);
  return s + ")";
}

std::string qstr(const json& q) {
  return "Q(" + q["x"].dump() + ", " + q["y"].dump() + ") " + q["purpose"].get<std::string>() +
         " in phase " + q["phase"].dump();
}

// The first event where the reference's run and the trace part, as the comparison found it.
struct Mismatch {
  enum class Kind { event, query, field, memory };
  Kind kind = Kind::event;
  std::size_t event = 0;  // 1-based event number (= line) in the trace
  std::size_t index = 0;  // the trace's event at the reference's position (0-based)
  Where where;            // the reference event's place in the run
  json ref;               // the reference's event
  json trace;             // the trace's event at index (null past its end)
  json next_step;         // when the trace's event is a query: its next "step" event, if any
  json previous;          // the trace's event before index (null at the start)
  std::string what, expected, found;
  std::string key;   // the differing field (Kind::field)
  std::string hint;  // the explanation, when the comparer has it already (Kind::memory)
};

// The replay comparer: an observer of the reference's run that checks every event the run reports
// against the trace's event at the same position, read from the second pass over the trace's
// lines, and keeps the first that differs. Only the current event of the trace is held.
//
// Under per-pair oracle memory (the header's "oracle_memory") the comparer also holds every pair's
// first answer and the line that gave it, and rejects a query whose answer differs from the one
// its pair got first. The original SSAC is exempt: its trace holds the answers after the coin
// flip, which a remembered not-sure draws afresh at every query (AskedOracle).
class Comparer : public trace::EventBuilder {
 public:
  Comparer(trace::TraceLines& lines, std::size_t events, Search search, bool per_pair)
      : EventBuilder(search), lines_(lines), size_(events), per_pair_(per_pair) {
    lines_.rewind();
    read();  // the header, compared before the run
  }

  std::optional<Mismatch> first;
  std::size_t queries = 0;  // query events compared
  int iteration = 0;        // the reference's iteration, from its events

 private:
  // The trace's next event. The trace was checked by the first pass; a file that changed since
  // is reported, not trusted.
  json read() {
    std::string line;
    if (!lines_.next(line))
      throw DataError(lines_.name() + ":" + std::to_string(lines_.line_no() + 1) +
                      ": the trace ended early on its second reading (did it change?)");
    previous_ = std::move(current_);
    current_ = trace::parse_event(line, lines_.name() + ":" + std::to_string(lines_.line_no()),
                                  lines_.line_no() == 1, reading_);
    return current_;
  }

  // The trace's next "step" event, for the explanation of a divergence at a query.
  void find_next_step(std::size_t e) {
    for (std::size_t f = e + 1; f < size_; ++f) {
      json next = read();
      if (next["event"] == "step") {
        first->next_step = std::move(next);
        return;
      }
    }
  }

  void emit(json a, const Where& w) override {
    if (w.iteration > 0) iteration = w.iteration;
    if (first) return;
    const std::size_t e = ++events_;  // the header is event 0, checked before the run
    const std::string kind = a["event"].get<std::string>();
    const std::size_t last = size_ - 1;  // the trace's final event
    auto differ = [&](Mismatch::Kind k, std::size_t num, std::string what, std::string expected,
                      std::string found, json b, std::string key = "") {
      first = Mismatch{k,
                       num,
                       e,
                       w,
                       a,
                       b,
                       json(),
                       b.is_null() ? current_ : previous_,
                       std::move(what),
                       std::move(expected),
                       std::move(found),
                       std::move(key),
                       ""};
    };
    if (kind != "final" && e >= last)
      return differ(Mismatch::Kind::event, size_, "event", "a \"" + kind + "\" event",
                    "the \"final\" event", json());
    json b = read();
    if (kind == "final" && e < last)
      return differ(
          Mismatch::Kind::event, e + 1, "event", "the \"final\" event",
          "a \"" + b["event"].get<std::string>() + "\" event (the reference run has ended)", b);
    if (b["event"] != kind) {
      const bool query = b["event"] == "query";
      differ(Mismatch::Kind::event, e + 1, "event", "a \"" + kind + "\" event",
             "a \"" + b["event"].get<std::string>() + "\" event", b);
      if (query) find_next_step(e);  // an extra query: the step it belongs to
      return;
    }
    if (kind == "query") {
      ++queries;
      if (a["x"] != b["x"] || a["y"] != b["y"] || a["purpose"] != b["purpose"] ||
          a["phase"] != b["phase"] || a["iteration"] != b["iteration"]) {
        differ(Mismatch::Kind::query, e + 1, "query", qstr(a), qstr(b), b);
        if (w.step) find_next_step(e);  // the step the trace's query belongs to
        return;
      }
      if (per_pair_) {
        const std::size_t x = b["x"].get<std::size_t>(), y = b["y"].get<std::size_t>();
        const Answer got = parse_answer(b["answer"]);
        const auto [f, added] = answered_.emplace(std::minmax(x, y), Answered{got, e + 1});
        if (!added && f->second.answer != got) {
          differ(Mismatch::Kind::memory, e + 1, "answer", json(to_string(f->second.answer)).dump(),
                 b["answer"].dump(), b);
          first->hint = "; the header's oracle_memory is per-pair, and line " +
                        std::to_string(f->second.line) + " asked the same pair {" +
                        std::to_string(std::min(x, y)) + ", " + std::to_string(std::max(x, y)) +
                        "} and was answered " + json(to_string(f->second.answer)).dump();
        }
      }
      return;
    }
    for (const auto& [key, av] : a.items()) {
      static const json missing;
      const json& bv = b.contains(key) ? b[key] : missing;
      std::string path;
      if (same(av, bv, path)) continue;
      return differ(Mismatch::Kind::field, e + 1, key + path, av.dump(),
                    b.contains(key) ? bv.dump() : "nothing", b, key);
    }
  }

  trace::TraceLines& lines_;
  std::size_t size_;          // events in the trace
  trace::Reading reading_{};  // what the header says about the later lines (set by line 1)
  std::size_t events_ = 0;
  json current_;   // the trace's event read last
  json previous_;  // the one before it
  // Per-pair memory: each unordered pair's first answer and the line (= event) that gave it.
  struct Answered {
    Answer answer;
    std::size_t line;
  };
  bool per_pair_;
  std::map<std::pair<std::size_t, std::size_t>, Answered> answered_;
};

// Why two rows of the distance order at one position differ, when their distances from mu'_p
// (`both` says them) are equal or within the tolerance (S6); "" when they are not.
// `followed`: the replay followed the trace's exact ties (ReplayOptions::follow_ties).
std::string tie_hint(const std::string& both, double da, double db, bool followed) {
  if (da == db)
    return "; exact tie in the distance order: " + both +
           (followed ? " are equal, but the trace's order at this iteration is not one order "
                       "of S_i (it puts a row at two positions or two rows at one)"
                     : " are equal; the reference orders equal distances by row (S6)");
  if (close(da, db))
    return "; near-tie in the distance order: " + both +
           " are within the tolerance; the reference orders S_i by distance, ties by row (S6)";
  return "";
}

// Why the trace's query differs from the reference's at the same place: the same pair with its
// arguments the other way round, or, in Phase 2, another point at (nearly) the same distance from
// mu'_p, the distance order's tie. "" when neither.
// `followed`: the replay followed the trace's exact ties (ReplayOptions::follow_ties).
std::string query_hint(const json& a, const json& b, const Result& R, const Matrix& X,
                       const Params& P, bool followed) {
  if (a["purpose"] != b["purpose"] || a["iteration"] != b["iteration"]) return "";
  if (a["x"] == b["y"] && a["y"] == b["x"]) {
    std::string s = "; same pair, reversed";
    if (a["purpose"] == "search_sample" && P.search == Search::unified)
      s += P.rules.b_first ? ": under b-order=b-first the reference asks Q(y, x_j) for y in B, as "
                             "the authors' code does; Algorithm 4, line 10 asks Q(x_j, y) "
                             "(b-order=xj-first, S5)"
                           : ": Algorithm 4, line 10 asks Q(x_j, y) for y in B (S5); the "
                             "authors' code asks Q(y, x_j), the rule b-order=b-first of the "
                             "authors-code profile";
    else if (a["purpose"] == "search_sample")
      s += ": Algorithm 2, line 4 asks Q(y, x_j) for y in B (S5)";
    return s + " (the oracles are symmetric, but a trace is compared as asked)";
  }
  const int it = a["iteration"].get<int>();
  if (a["phase"] != 2 || it < 1 || static_cast<std::size_t>(it) > R.iterations.size()) return "";
  const Vector& mu = R.iterations[static_cast<std::size_t>(it - 1)].center;
  // search_x1 asks Q(x_1, x_j), search_z Q(z, x_j), search_sample Q(x_j, y) or Q(y, x_j): the
  // point of the order is x_1 or x_j, whichever differs.
  for (const std::string f : {"x", "y"}) {
    if (a[f] == b[f]) continue;
    // B's points and z are drawn from Z_p, not taken from the order.
    if (a["purpose"] == "search_sample" || (a["purpose"] == "search_z" && f == "x")) continue;
    const double da = distance(X, a[f].get<std::size_t>(), mu),
                 db = distance(X, b[f].get<std::size_t>(), mu);
    const std::string both = "d(x" + a[f].dump() + ", mu'_p) = " + format_double(da) + " and d(x" +
                             b[f].dump() + ", mu'_p) = " + format_double(db);
    const std::string tie = tie_hint(both, da, db, followed);
    if (!tie.empty()) return tie;
    return "; the trace's " + std::string(f == "x" ? "x_1" : "x_j") + " is x" + b[f].dump() +
           ", the reference's x" + a[f].dump() + ": " + both;
  }
  return "";
}

// The divergence `m` with the hints that explain it, from the finished run R: the reference's
// binary-search step, the distances of the rows in question, and the notes on the trace's draws
// that the reference could not use (which may come from later in the run than the divergence).
Divergence explain(const Mismatch& m, const Result& R, const Matrix& X, const Params& P,
                   const std::vector<Note>& notes, bool followed) {
  const Where& w = m.where;
  const json& a = m.ref;
  Divergence d;
  d.event = m.event;
  d.iteration = w.iteration;
  d.phase = w.phase;
  // The cluster event is written as Phase 1 ends (p and mu'_p, line 8), but its x1 is Phase 2's
  // first point (Algorithms 3 and 4).
  if (m.kind == Mismatch::Kind::field && a["event"] == "cluster" && m.key == "x1") d.phase = 2;
  d.what = m.what;
  d.expected = m.expected;
  d.found = m.found;
  std::string extra = m.hint;
  if (m.kind == Mismatch::Kind::query && w.step) {
    // In a search step, say which probe the trace's query belongs to.
    const json& t = m.next_step;
    if (!t.is_null()) {
      const SearchStep& rs =
          R.iterations[static_cast<std::size_t>(w.iteration - 1)].steps[w.step - 1];
      if (t["j"] != rs.j || t["lo"] != rs.lo || t["hi"] != rs.hi)
        extra = "; the trace's step probes j = " + t["j"].dump() + " (lo = " + t["lo"].dump() +
                ", hi = " + t["hi"].dump() +
                "), the reference j = floor((lo + hi) / 2) = " + std::to_string(rs.j) +
                " (lo = " + std::to_string(rs.lo) + ", hi = " + std::to_string(rs.hi) + ")";
    }
  }
  if (m.kind == Mismatch::Kind::query && extra.empty() && !m.trace.is_null()) {
    extra = query_hint(a, m.trace, R, X, P, followed);
    d.near_tie = extra.rfind("; near-tie", 0) == 0 || extra.rfind("; exact tie", 0) == 0;
  }
  if (m.kind == Mismatch::Kind::field) {
    const std::string kind = a["event"].get<std::string>();
    const std::string& key = m.key;
    const json& av = a[key];
    const json& b = m.trace;
    static const json missing;
    const json& bv = b.contains(key) ? b[key] : missing;
    auto dist = [&](const json& row) {
      return distance(X, row.get<std::size_t>(),
                      R.iterations[static_cast<std::size_t>(w.iteration - 1)].center);
    };
    if ((kind == "step" && key == "row") || (kind == "cluster" && key == "x1")) {
      const double da = dist(av), db = dist(bv);
      const std::string tie =
          tie_hint("d(x" + av.dump() + ", mu'_p) = " + format_double(da) + " and d(x" + bv.dump() +
                       ", mu'_p) = " + format_double(db),
                   da, db, followed);
      if (!tie.empty()) {
        d.near_tie = true;
        extra = tie;
      } else if (kind == "cluster") {
        extra = "; x_1 is the point of S_i closest to mu'_p (Algorithms 3 and 4): d(x" + av.dump() +
                ", mu'_p) = " + format_double(da) + ", d(x" + bv.dump() +
                ", mu'_p) = " + format_double(db);
      } else {
        extra = "; d(x" + av.dump() + ", mu'_p) = " + format_double(da) + ", d(x" + bv.dump() +
                ", mu'_p) = " + format_double(db);
      }
    } else if (kind == "step" && key == "decision") {
      const bool plain = a.contains("z_answer");
      const json& own = a[plain ? "z_answer" : "x1_answer"];
      extra = std::string(plain ? "; Q(z, x_j) = " : "; Q(x_1, x_j) = ") +
              (own.is_null() ? std::string("not asked") : own.get<std::string>()) +
              ", answers from B = " + a["sample_answers"].dump();
    } else if (kind == "outcome" && key == "assigned") {
      const Iteration& it = R.iterations[static_cast<std::size_t>(w.iteration - 1)];
      std::set<std::size_t> sa, sb;
      for (const json& r : av)
        sa.insert(r.get<std::size_t>());
      for (const json& r : bv)
        sb.insert(r.get<std::size_t>());
      std::vector<std::size_t> diff;
      std::set_symmetric_difference(sa.begin(), sa.end(), sb.begin(), sb.end(),
                                    std::back_inserter(diff));
      if (!diff.empty() && it.p > 0) {
        const std::size_t x = diff.front();
        const double dx = distance(X, x, it.center);
        d.what = "assigned";
        extra = "; row " + std::to_string(x) + " is " + (sa.count(x) ? "in" : "not in") +
                " the reference's C'_p, d(x" + std::to_string(x) +
                ", mu'_p) = " + format_double(dx) + ", r'_i = " + format_double(it.radius);
        if (dx == it.radius)
          extra += "; C'_p = {x in S_i : d(x, mu'_p) < r'_i} is strict (Algorithm 1, line 13)";
        else if (close(dx, it.radius)) {
          d.near_tie = true;
          extra += "; near-tie at the radius: the distance is within the tolerance of r'_i";
        }
      }
    } else if (av.is_number_integer() && bv.is_number_integer()) {
      // The first step's lo (always 0) or the first iteration or step number (always 1) off by
      // one: the mark of a program numbering from the other end (a 1-based language's positions,
      // a 0-based loop's counter), said since it is no rule of the algorithm.
      const auto e = av.get<std::int64_t>(), f = bv.get<std::int64_t>();
      if (key == "lo" && e == 0 && f == 1)
        extra = "; positions in the order of S_i (lo, hi, j, j_star) are numbered from 0";
      else if ((key == "iteration" || key == "step") && e == 1 && f == 0)
        extra = "; iterations and steps are numbered from 1";
    }
  }
  // Otherwise, the rule an extra or missing query or step, or a Phase-1 choice, most likely broke.
  if (extra.empty())
    extra = trace::rule_hint(m.previous, m.trace, m.next_step, a,
                             m.kind == Mismatch::Kind::field ? m.key : "", R, P);
  // A Phase-1 sample of another length than the reference's shifts every later draw, so that the
  // trace's draws run out or land in the wrong pool: notes on those are consequences, not causes.
  const bool sample_length = m.kind == Mismatch::Kind::field && a["event"] == "sample" &&
                             m.key == "rows" && !m.trace.is_null() &&
                             m.trace["rows"].size() != a["rows"].size();
  for (const Note& nt : notes)
    if (!sample_length && (nt.iteration <= w.iteration || w.iteration == 0)) {
      extra += "; note: " + nt.text;
      break;
    }
  d.message = context(d.event, w, a, d.phase) + ": " + d.what + ": expected " + d.expected +
              ", found " + d.found + extra;
  return d;
}

}  // namespace

namespace {

// Why the header's r is not ceil(k eta): the rounding it most likely used instead (Algorithm 1,
// line 1), or "".
std::string r_hint(std::uint64_t found, const Params& P) {
  const double kd = static_cast<double>(P.k), prod = kd * P.eta;
  const std::uint64_t r = P.sample_size();
  const std::string product = "k eta = " + format_double(prod);
  if (std::ceil(prod) == prod && static_cast<std::uint64_t>(prod) + 1 == r && found + 1 == r)
    return "; Algorithm 1, line 1 draws r = ceil(k eta) of the exact product k eta, which "
           "exceeds the rounded double product fl(k eta) = " +
           format_double(prod) + ": " + std::to_string(found) + " = ceil(fl(k eta))";
  if (found + 1 == r && std::floor(prod) != prod)
    return "; Algorithm 1, line 1 draws r = ceil(k eta) = " + std::to_string(r) + " points (" +
           product + "): " + std::to_string(found) + " = floor(k eta)";
  return "";
}

// The replay of the trace in `lines` (validate_trace, validate_trace_file). Two passes: the first
// checks every line and keeps only the draws and the answers the replay hands the reference (they
// must be known before the run asks for them); the second reads the events again one at a time
// as the comparer meets them. Memory: one line, the draws and queries in compact form, and the
// reference's own run, never the trace's text or its events as a whole.
ValidationReport replay(const Matrix& X, trace::TraceLines& lines, const ReplayOptions& options) {
  const std::string& name = lines.name();
  ReplayChooser chooser;
  ReplayOracle oracle;
  TieFollower ties;
  const bool follow = options.follow_ties && !options.reversed_ties;
  std::size_t blocks = 0;
  const trace::Scan scan = trace::scan_trace(
      lines, static_cast<std::size_t>(X.rows()), static_cast<std::size_t>(X.cols()),
      [&](const json& e) {
        const std::string& kind = e["event"].get_ref<const std::string&>();
        if (kind == "sample") {
          for (const json& r : e["rows"])
            chooser.phase1.push_back({r.get<std::size_t>(), e["iteration"].get<int>(), blocks});
          ++blocks;
        }
        if (follow && kind == "cluster")
          ties.claims[e["iteration"].get<int>()].push_back({0, e["x1"].get<std::size_t>()});
        if (follow && kind == "step")
          ties.claims[e["iteration"].get<int>()].push_back(
              {e["j"].get<std::size_t>(), e["row"].get<std::size_t>()});
        if (follow && kind == "outcome") {
          auto& rows = ties.assigned[e["iteration"].get<int>()];
          for (const json& r : e["assigned"])
            rows.push_back(r.get<std::size_t>());
          std::sort(rows.begin(), rows.end());
        }
        if (kind == "step") {
          for (const json& r : e["sample"])
            chooser.search.push_back({r.get<std::size_t>(), e["iteration"].get<int>(), blocks});
          ++blocks;
        }
        if (kind == "anchor")
          chooser.anchors.push_back({e["row"].get<std::size_t>(), e["iteration"].get<int>(),
                                     e["cluster"].get<int>(), e["x"].get<std::size_t>()});
        if (kind == "query")
          oracle.queries.push_back(
              {e["x"].get<std::size_t>(), e["y"].get<std::size_t>(), parse_answer(e["answer"])});
      });
  const json& h = scan.header;
  const TraceHeader H = trace::read_header(h, X, name, options.label_clusters, options.profile);

  ValidationReport report;
  report.version = scan.reading.version;
  report.events = scan.events;
  report.profile = H.profile;
  // Algorithm 1 line 1: r = ceil(k eta); an implementation that rounds otherwise draws another
  // number of points, so this is checked before the run.
  if (h["r"] != H.params.sample_size()) {
    Divergence d;
    d.event = 1;
    d.what = "r";
    d.expected = std::to_string(H.params.sample_size()) + " = ceil(k eta)";
    d.found = h["r"].dump();
    d.message = context(1, {}, h, 0) + ": r: expected " + d.expected + ", found " + d.found +
                r_hint(h["r"].get<std::uint64_t>(), H.params);
    report.conforms = false;
    report.divergence = std::move(d);
    return report;
  }
  chooser.phase1.shrink_to_fit();
  chooser.search.shrink_to_fit();
  chooser.anchors.shrink_to_fit();
  chooser.rule = H.params.rules.anchor;
  oracle.queries.shrink_to_fit();
  oracle.index();
  if (options.choices) {
    options.choices->header(H);
    chooser.sink = options.choices;
    oracle.sink = options.choices;
  }
  Comparer comparer(lines, scan.events, H.params.search,
                    H.memory == OracleMemory::per_pair && H.algorithm == "weak");
  chooser.iteration = &comparer.iteration;
  chooser.diverged = [&comparer] { return comparer.first.has_value(); };
  detail::Run run(X, oracle, chooser, H.params, comparer);
  if (options.reversed_ties) run.set_tie_order(detail::TieOrder::by_row_reversed);
  if (follow)
    run.set_tie_hook([&ties](int iteration, const std::vector<detail::DistanceOrder::Entry>& e) {
      return ties(iteration, e);
    });
  const Result R = run.run();
  report.queries = comparer.queries;
  report.ties = ties.ties;
  if (comparer.first) {
    report.conforms = false;
    report.divergence = explain(*comparer.first, R, X, H.params, chooser.notes, follow);
  }
  return report;
}

}  // namespace

std::optional<Profile> replay_profile(const std::string& semantics,
                                      const std::vector<std::string>& rules) {
  if (semantics.empty() && rules.empty()) return std::nullopt;
  Profile p = profile_named(semantics.empty() ? "paper" : semantics);
  for (const std::string& r : rules)
    set_rule_given_rows(p, r);
  return p;
}

ValidationReport validate_trace(const Matrix& X, const std::string& text, const std::string& name,
                                const ReplayOptions& options) {
  trace::TraceLines lines(text, name);
  return replay(X, lines, options);
}

ValidationReport validate_trace_file(const Matrix& X, const std::string& path,
                                     const ReplayOptions& options) {
  trace::TraceLines lines(path);
  return replay(X, lines, options);
}

}  // namespace ssac
