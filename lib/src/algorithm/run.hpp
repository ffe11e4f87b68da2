// One run of Algorithm 1, as a class whose member functions follow the paper's lines. Private to
// the library: the public entry point is run_ssac (ssac/ssac.hpp). The negative controls of the
// property suites (lib/testing/) derive from Run and replace one of its protected steps; the
// reference itself knows nothing of them.
#pragma once

#include <cstddef>
#include <functional>
#include <map>
#include <typeinfo>
#include <utility>
#include <vector>

#include "algorithm/order.hpp"
#include "ssac/observer.hpp"
#include "ssac/ssac.hpp"

namespace ssac::detail {

class Run {
 public:
  Run(const Matrix& X, Oracle& oracle, Chooser& chooser, const Params& params,
      RunObserver& observer)
      : X_(X),
        oracle_(oracle),
        chooser_(chooser),
        P_(params),
        observer_(observer),
        observed_(typeid(observer) != typeid(RunObserver)) {}
  virtual ~Run() = default;
  Run(const Run&) = delete;
  Run& operator=(const Run&) = delete;

  Result run() { return run_from(nullptr); }
  // A run's state at the start of a Phase-1 draw: what the rest of the run reads of the state the
  // reference keeps (run() and the members below) and of the iteration's draws so far.
  struct Resume {
    int iteration = 1;                       // i
    std::vector<std::size_t> S;              // S_i, in increasing row order
    std::vector<int> labels, known, placed;  // as labels_ (R_.labels), known_, placed_
    std::vector<std::size_t> opener;         // opener_
    std::vector<char> recovered;             // recovered_
    std::vector<int> recovery_order;         // R_.recovery_order
    std::vector<std::size_t> sample;         // the draws of Z made so far, in draw order,
    std::vector<int> assignment;             // each with its cluster (0 unassigned)
  };
  // The run from `at` on (the exact enumerator's states engine, proofs-notes/exact.md), drawing
  // each remaining row of Z just before its cluster-assignment query instead of all r first: the
  // draws are independent uniform positions of S_i, which Phase 1 does not change, so the law of
  // the run is the same (a replay of a recorded run would differ). The Result holds the run's
  // labels, counts and recovery order from `at` on; its records of the iterations before `at`,
  // its queries before `at` and its status line's account of them are absent.
  Result resume(const Resume& at);
  // The same run, written into `out` over what it held, whose storage it reuses (run_ssac_into).
  void run_into(Result& out) { out = run_from(&out); }
  // How Phase 2 finds positions of its order (algorithm/order.hpp): by selection unless a test
  // asks for the sorting reference.
  void set_order_method(OrderMethod m) { order_method_ = m; }
  // How equal distances are ordered (algorithm/order.hpp): S6's by row unless a replay asks for
  // the opposite to find out whether a trace depends on it.
  void set_tie_order(TieOrder t) { tie_order_ = t; }
  // A replay's order among equal distances, asked for at every Phase 2 with the iteration and
  // S_i's (distance, row) pairs: the ranks to order them by, or null for the tie order's.
  using TieHook = std::function<const TieRanks*(int iteration,
                                                const std::vector<DistanceOrder::Entry>& entries)>;
  void set_tie_hook(TieHook h) { tie_hook_ = std::move(h); }

 protected:
  // Algorithm 1, line 8: p = argmax_t |Z_t|; counts[t-1] = |Z_t|. 0 when every Z_t is empty.
  // The reference's rule is choose_by_counts; a test variant may override it.
  virtual int choose_cluster(const std::vector<std::size_t>& counts) const;

 public:
  // Line 8's rule as the reference applies it (S7: ties to the earliest discovered), for the
  // exact enumerator's Phase 1 by counts (proofs-notes/exact.md), which must choose as run() does.
  static int choose_by_counts(const std::vector<std::size_t>& counts);

 protected:
  // Algorithm 1, line 8: mu'_p, the mean of Z_p (a multiset in draw order).
  virtual Vector estimate_center(const std::vector<std::size_t>& zp, const Iteration& it) const;
  // Algorithm 3, line 1 and Algorithm 4, line 3: x_1, the point of S_i closest to mu'_p.
  virtual std::size_t reference_point(DistanceOrder& order) const;
  // Algorithms 2-4, "Stop": j*, the smallest position judged not in C_p, where the search ended.
  virtual std::size_t stop_position(std::size_t lo) const;
  // Definition 4's anchor under the random anchor rules: a uniform position of this pool, which
  // is known_rows(t), each row once. Only a test variant (lib/testing) weights the rows. The pool
  // is valid until the next call.
  virtual const std::vector<std::size_t>& anchor_pool(int t) {
    anchor_pool_ = known_rows(t);
    return anchor_pool_;
  }
  // Lines 5-7: a Phase-1 query placed x in t. The reference keeps only the last placement
  // (placed_); a test variant may count them.
  virtual void on_placed(std::size_t x, int t) {
    (void)x;
    (void)t;
  }
  // The rows known to be in cluster t, in increasing order: those labelled t, its opener while
  // labels come only from Phase 2, and (random-known-row) the rows a Phase-1 query placed in t.
  std::vector<std::size_t> known_rows(int t) const;
  // Definition 4 left the Phase-1 draw x unplaced (S2, rule 6): the reference's answer is 0. A test
  // variant (lib/testing/seeded_anchors.cpp) asks further rows here: for the corrected Theorem 3',
  // the seeds of the clusters not yet known.
  virtual int unplaced(std::size_t x) {
    (void)x;
    return 0;
  }
  // x opens a new cluster: the smallest number in 1..k not known now (S3).
  int open_cluster(std::size_t x);
  // Q(x, y), recorded as a query of `phase` asked for `purpose`.
  Answer ask(std::size_t x, std::size_t y, int phase, Purpose purpose);

  const Matrix& X_;

 private:
  // Algorithm 1, lines 2-13, from iteration `first`; `within`, when given, holds the draws of
  // iteration `first` made before a resume (which then does not start that iteration again).
  void iterate(int first, const Resume* within);
  bool phase1(Iteration& it, std::vector<std::size_t>& zp);
  void phase2(Iteration& it, const std::vector<std::size_t>& zp);
  DistanceOrder& order_by_distance(const Vector& center);
  void assign_cluster(Iteration& it, DistanceOrder& order);
  void finish();
  // run() and run_into(): `reuse`, when given, is taken apart by recycle() for its storage.
  Result run_from(Result* reuse);
  void recycle(Result& old);
  // Records whose vectors hold the storage of an earlier run's (run_into), emptied and otherwise
  // as default-constructed: a run's records are exactly those of a fresh run.
  Iteration fresh_iteration();
  SearchStep fresh_step();

  // Definition 4 and the appendix's paragraph on the cluster-assignment query.
  int assign(std::size_t x);
  // The row of known cluster t that the query about the Phase-1 draw x asks (Rules::anchor).
  std::size_t anchor_of(int t, std::size_t x);
  // Rules::overwrite: known clusters left with no labelled row are forgotten.
  void forget_unlabelled_clusters();
  // Whether the pair (x, y) goes to the oracle: always, unless self-pairs=off (S4).
  bool asks(std::size_t x, std::size_t y) const { return x != y || P_.rules.self_pairs; }

  // The binary search of Algorithms 2-4 (S6) with one rule per search for "Search(x_j)".
  void binary_search(Iteration& it, DistanceOrder& order, const std::vector<std::size_t>& zp);
  Decision search_random_weak(std::size_t xj, const std::vector<std::size_t>& zp, SearchStep& step);
  Decision search_distance_weak(std::size_t x1, std::size_t xj, SearchStep& step);
  Decision search_unified(std::size_t x1, std::size_t xj, const std::vector<std::size_t>& zp,
                          SearchStep& step);
  Decision search_plain(std::size_t z, std::size_t xj, SearchStep& step);
  Decision vote(std::size_t xj, const std::vector<std::size_t>& zp, std::size_t draws, bool x_first,
                SearchStep& step);

  Oracle& oracle_;
  Chooser& chooser_;
  const Params& P_;
  RunObserver& observer_;
  // Whether the observer is more than the base class, whose events do nothing: the events of
  // every query and every draw (hundreds a run) are then not made at all.
  const bool observed_;
  Result R_;
  // Working storage that no result depends on, kept from one iteration to the next and, through
  // ScratchLoan (ssac.cpp), from one run to the next on the same thread, so that a run allocates
  // little beyond its Result.
  struct Scratch {
    DistanceOrder order;                 // line 10's order of S_i
    std::vector<double> distances;       // d(x, mu'_p) for x in S_i, in the order of S_i
    std::vector<char> in;                // line 13: in[x] when x is in C'_p
    std::vector<std::size_t> rest;       // line 13: S_{i+1} being formed
    std::vector<std::size_t> anchor;     // assign(): the anchor of each known cluster
    std::vector<std::size_t> zp;         // line 8: Z_p
    std::vector<std::size_t> counts;     // line 8: |Z_t| of each known cluster
    std::vector<std::size_t> by_number;  // line 8: |Z_t| by cluster number t, 0 for not-sure
    // The records of Results handed back to run_into, for fresh_iteration() and fresh_step().
    std::vector<Iteration> iterations;
    std::vector<SearchStep> steps;
    // The nodes of those Results' maps of centres and radii, for assign_cluster to reuse.
    std::vector<std::map<int, Vector>::node_type> center_nodes;
    std::vector<std::map<int, double>::node_type> radius_nodes;
    // The run's state below, held here for its storage only: run() sets each before reading it.
    std::vector<std::size_t> S;
    std::vector<char> recovered;
    std::vector<int> known;
    std::vector<std::size_t> opener;
    std::vector<int> placed;
  };
  Scratch scratch_;
  std::vector<std::size_t>& S_ = scratch_.S;  // S_i, in increasing row order
  std::vector<char>& recovered_ = scratch_.recovered;
  std::vector<int>& known_ =
      scratch_.known;  // known clusters, in the order their queries are asked
  std::vector<std::size_t>& opener_ = scratch_.opener;  // opener_[t]: the row that opened cluster t
  // placed_[x]: the cluster a Phase-1 query last placed x in
  std::vector<int>& placed_ = scratch_.placed;
  int iteration_ = 0;
  bool interleave_ = false;  // resume(): each draw of Z just before its query
  OrderMethod order_method_ = OrderMethod::select;
  TieOrder tie_order_ = TieOrder::by_row;
  TieHook tie_hook_;
  std::vector<std::size_t> anchor_pool_;  // anchor_pool's result
};

}  // namespace ssac::detail
