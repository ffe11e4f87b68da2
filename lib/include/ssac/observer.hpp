// What a run of SSAC reports while it runs, in the order it happens.
//
// The observer is a policy like Chooser and Oracle: Algorithm 1 calls it at fixed points of its
// work and never looks at what it does. The calls are exactly the events of a trace
// (docs/trace-format.md, "Events") after the header, so a trace writer is an observer, and so is a
// replay that compares events as they arrive. The base class ignores every event; an experiment
// passes none.
//
// Each call receives the iteration record as far as it is filled in at that point (see each
// member); the records are the ones the finished Result holds.
#pragma once

#include "ssac/ssac.hpp"

namespace ssac {

// Everything of a run's own state that the rest of the run reads (the oracle's and the chooser's
// state aside, and, within an iteration, the Iteration record passed to the other events): the
// exact enumerator (ssac/exact.hpp) merges the branches that reach equal states
// (proofs-notes/exact.md). Views into the run, valid during the call only.
struct RunState {
  enum class Stage {
    draw_assigned,    // lines 5-7: the cluster-assignment query of one more draw of Z is done
    cluster_chosen,   // Phase 1 is over and p chosen (Algorithm 1, line 8)
    iteration_ended,  // line 13 is done
  };
  Stage stage = Stage::iteration_ended;
  int iteration = 0;                          // i
  const std::vector<std::size_t>& remaining;  // S_i at cluster_chosen, S_{i+1} at the end
  const std::vector<int>& labels;             // per row, 0 unassigned
  const std::vector<int>& known;              // known clusters, in the order they are asked
  const std::vector<std::size_t>& openers;    // openers[t]: the row that opened t, or n
  const std::vector<int>& placed;             // the cluster a Phase-1 query last placed x in
  const std::vector<char>& recovered;         // recovered[t]
  const std::vector<int>& recovery_order;     // clusters in the order first recovered
  // The iteration's record as far as it is filled in: at draw_assigned, Z in draw order and the
  // assignments of its first draws (one per draw done so far).
  const Iteration& record;
};

// One draw of a cluster's anchor under a random anchor rule (Rules::anchor, draws_anchors), made
// before the cluster-assignment queries of the Phase-1 draw x (Definition 4). Views into the run,
// valid during the call only.
struct AnchorDraw {
  int iteration;                               // i
  std::size_t x;                               // the Phase-1 draw whose query asks the anchor
  int cluster;                                 // t, the known cluster whose anchor is drawn
  const std::vector<std::size_t>& candidates;  // the pool the Chooser drew from (Draw::anchor)
  std::size_t position;                        // the position drawn; the anchor is candidates[it]
};

class RunObserver {
 public:
  virtual ~RunObserver() = default;
  // Algorithm 1, line 2: iteration i begins; `it.index` and `it.remaining` = |S_i| are set.
  virtual void iteration_started(const Iteration& it) { (void)it; }
  // Line 4: Z was drawn; `it.sample` holds it in draw order.
  virtual void sample_drawn(const Iteration& it) { (void)it; }
  // Every weak same-cluster query, as soon as the oracle has answered it.
  virtual void queried(const QueryRecord& q) { (void)q; }
  // Definition 4 under a random anchor rule: the anchor of known cluster t for draw x was drawn
  // (before x's queries, one call per known cluster in the order they are asked). Never called
  // under the opener and lowest-labelled-row rules, which draw nothing.
  virtual void anchor_drawn(const AnchorDraw& d) { (void)d; }
  // Lines 5-7: every draw's cluster-assignment query is done; `it.assignment` is set.
  virtual void assigned(const Iteration& it) { (void)it; }
  // Line 8 and Algorithms 3/4, line 1: p, |Z_p|, mu'_p and the search's reference point x_1.
  virtual void cluster_chosen(const Iteration& it) { (void)it; }
  // One probe of the binary search, after its queries.
  virtual void step_taken(const Iteration& it, const SearchStep& step) {
    (void)it;
    (void)step;
  }
  // The iteration's outcome, radius and C'_p are final.
  virtual void iteration_ended(const Iteration& it) { (void)it; }
  // After each draw's cluster-assignment query (lines 5-7), right after cluster_chosen, and after
  // iteration_ended of an iteration that sampled (not one skipped for an empty S_i): the state the
  // rest of the run starts from.
  virtual void run_state(const RunState& s) { (void)s; }
  // The run is over; `R` is what run_ssac returns.
  virtual void finished(const Result& R) { (void)R; }
};

}  // namespace ssac
