// SSAC for weak oracles: Algorithm 1 with the weak pairwise cluster-assignment query
// (Definition 4) and the Phase-2 searches of Algorithms 2, 3 and 4, plus the plain binary search of
// the original SSAC of Ashtiani et al. (2016) as the baseline.
//
// Every choice the paper leaves open is settled in proofs-notes/semantics.md; the comments below
// cite the paper's line or the semantics section ("S3") that governs each step.
#pragma once

#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ssac/data.hpp"
#include "ssac/oracle.hpp"
#include "ssac/rng.hpp"
#include "ssac/rules.hpp"

namespace ssac {

// The Phase-2 search. `plain` is the original SSAC's binary search (one same-cluster query per
// step with a point of Z_p; a yes/no oracle is assumed, anything but yes counts as no).
enum class Search { random, distance, unified, plain };
const char* to_string(Search s);  // "random", "distance", "unified", "plain"
// The inverse of to_string(Search); nullopt for any other name.
std::optional<Search> parse_search(std::string_view name);
// The searches of this paper's weak SSAC, Algorithms 2, 3 and 4: "random", "distance", "unified"
// (the choices of --search; plain belongs to the original algorithm).
const std::vector<std::string>& weak_search_names();

// The algorithm of a run: this paper's weak SSAC, or the original SSAC of Ashtiani et al., which
// runs the plain search and asks through a coin flip wherever the oracle abstains (AskedOracle).
enum class Algorithm { weak, original };
const char* to_string(Algorithm a);  // "weak", "original"
// The inverse of to_string(Algorithm); nullopt for any other name.
std::optional<Algorithm> parse_algorithm(std::string_view name);
const std::vector<std::string>& algorithm_names();  // "weak", "original"

struct Params {
  int k = 3;          // target number of clusters, k >= 1
  double eta = 10.0;  // Phase-1 sampling number; r = ceil(k eta) points per iteration
  int beta = 10;      // Phase-2 sampling number (Algorithms 2 and 4), beta >= 1
  Search search = Search::unified;
  // Appendix, "Analysis on Weak Pairwise Cluster-assignment Query": with all k anchors known,
  // k-1 "no" answers and one not-sure identify the cluster by elimination. The authors' code
  // does not do this; false reproduces it (semantics S2).
  bool elimination = true;
  // The number of clusters of the oracle's clustering, when the caller knows it (an oracle backed
  // by labels); 0 when it does not (a person, whose claim k is taken). Elimination is sound only
  // if the point's cluster is among the k known ones, so it applies only when this is k or 0
  // (eliminates(), proofs-notes/semantics.md S2).
  int oracle_clusters = 0;
  // Where the paper's algorithm and the authors' experiment code differ (ssac/rules.hpp); the
  // default is the paper's.
  Rules rules;

  // Throws ParameterError naming the first field outside its range (ssac/ranges.hpp); n is the
  // number of points.
  void check(std::size_t n) const;
  // r = ceil(k * eta), computed exactly (Algorithm 1, line 1).
  std::uint64_t sample_size() const;
  // Whether the elimination rule applies: switched on, and the oracle's clusters are the k.
  bool eliminates() const { return elimination && (oracle_clusters == 0 || oracle_clusters == k); }
};

// The algorithm's random choices come from this policy. The reference draws uniformly from its
// own stream; trace replay (ssac validate) supplies the recorded choices instead.
//     std::size_t choose(const std::vector<std::size_t>& pool, Draw what);
// returns a position in `pool` (pool is non-empty): the rows of S_i in increasing row order for a
// Phase-1 draw, the multiset Z_p in draw order for a Phase-2 draw of B, and the rows known to be
// in a cluster, in increasing order, for the random anchor rules (draws_anchors).
enum class Draw { phase1_sample, search_sample, anchor };
class Chooser {
 public:
  virtual ~Chooser() = default;
  virtual std::size_t choose(const std::vector<std::size_t>& pool, Draw what) = 0;
};

class UniformChooser : public Chooser {
 public:
  explicit UniformChooser(Rng rng) : rng_(rng) {}
  std::size_t choose(const std::vector<std::size_t>& pool, Draw) override {
    return static_cast<std::size_t>(rng_.uniform_index(pool.size()));
  }

 private:
  Rng rng_;
};

inline constexpr std::uint64_t kStreamAlgorithm = 2;
inline constexpr std::uint64_t kStreamOracle = 3;
inline constexpr std::uint64_t kStreamCoinFlip = 4;

// Why a query was asked. The words are the trace's (docs/trace-format.md, "Words"): the anchor is
// the row of a known cluster that Definition 4 asks about (its opener under the paper's rule, S3),
// x_1 the point of S_i closest to mu'_p (Algorithms 3 and 4), z the plain search's point.
enum class Purpose {
  assignment,     // Phase 1: Q(x, anchor of cluster t), Definition 4
  search_x1,      // Phase 2: Q(x_1, x_j), Algorithms 3 and 4
  search_z,       // Phase 2: Q(z, x_j), the plain search of the original SSAC
  search_sample,  // Phase 2: Q(y, x_j) or Q(x_j, y) for y in B, Algorithms 2 and 4
};
const char* to_string(Purpose p);

struct QueryRecord {
  int iteration;  // 1-based
  int phase;      // 1 or 2
  Purpose purpose;
  std::size_t x, y;  // the rows in the order the oracle was asked, Q(x, y)
  Answer answer;
};

enum class Decision { in, out, fail };  // x_j in C_p, not in C_p, Algorithm 2's "Return fail"
const char* to_string(Decision d);

struct SearchStep {
  std::ptrdiff_t lo, hi;  // bounds before the step (0-based positions in the sorted S_i)
  std::size_t j;          // probed position, floor((lo + hi) / 2)
  std::size_t row;        // x_j
  // Q(x_1, x_j) (Algorithms 3 and 4), not asked in Algorithm 2 nor, under self-pairs=off, when x_j
  // is x_1 (S4).
  bool x1_asked = false;
  Answer x1_answer = Answer::NotSure;
  // Q(z, x_j) (the plain search), not asked when x_j is z under self-pairs=off (S4).
  bool z_asked = false;
  Answer z_answer = Answer::NotSure;
  std::vector<std::size_t> sample;     // B, rows in draw order
  std::vector<Answer> sample_answers;  // Yes without a query where the drawn row is x_j itself
  std::size_t queries = 0;             // queries this step asked
  Decision decision = Decision::out;
};

enum class Outcome {
  recovered,            // C'_p non-empty was assigned
  empty_cluster,        // the search returned j* with no point strictly inside r'
  phase1_all_not_sure,  // every cluster-assignment query of Phase 1 was not-sure
  search_failed,        // Algorithm 2 returned fail
  empty_remainder,      // S_i was empty; the remaining iterations are skipped
};
const char* to_string(Outcome o);

struct Iteration {
  int index = 0;                    // i, 1-based
  std::size_t remaining = 0;        // |S_i|
  std::vector<std::size_t> sample;  // Z, rows in draw order (with replacement, S1)
  std::vector<int> assignment;      // Q(x) for each draw: cluster t >= 1, or 0 for not-sure
  int p = 0;                        // chosen cluster (0 when Phase 1 failed)
  std::size_t zp_size = 0;          // |Z_p|
  bool revisited = false;           // p had been recovered in an earlier iteration (S7)
  Vector center;                    // mu'_p
  std::size_t x1 = 0;               // x_1, the closest point to mu'_p (Algorithms 3, 4)
  std::vector<SearchStep> steps;
  std::size_t j_star = 0;            // 0-based position of the first point judged not in C_p
  double radius = 0.0;               // r'_i = d(x_{j*}, mu'_p); +inf when every point was in
  std::size_t assigned = 0;          // |C'_p|
  std::vector<std::size_t> members;  // C'_p, rows in increasing order
  Outcome outcome = Outcome::recovered;
};

struct Result {
  std::vector<int> labels;  // per row: cluster t >= 1 (discovery order), 0 unassigned
  std::vector<Iteration> iterations;
  std::vector<QueryRecord> queries;  // every same-cluster query, in the order asked
  std::vector<int> recovery_order;   // clusters in the order first recovered
  std::map<int, Vector> centers;     // latest mu'_p of each recovered cluster
  std::map<int, double> radii;       // latest r'_i of each recovered cluster
  std::vector<std::size_t> openers;  // the rows that opened clusters, in the order they did (S3)
  std::size_t queries_phase1 = 0, queries_phase2 = 0;
  std::uint64_t distance_evaluations = 0;  // d(x, mu') computed in Phase 2 (Corollary 1)
  std::uint64_t comparisons = 0;           // comparisons Phase 2 made to order S_i
  int clusters_recovered = 0;
  bool failed = false;  // fewer than k clusters recovered (the paper's #Failure)
  std::string status;   // "ok", or the reasons for failure, one per event
};

class RunObserver;  // ssac/observer.hpp

// Runs SSAC on the rows of X. The oracle is asked only for pairs of distinct rows. `observer`, when
// given, is told every event of the run as it happens.
Result run_ssac(const Matrix& X, Oracle& oracle, Chooser& chooser, const Params& params,
                RunObserver* observer = nullptr);
// The same with the reference's own choices: UniformChooser(Rng::stream(seed, {kStreamAlgorithm})).
Result run_ssac(const Matrix& X, Oracle& oracle, const Params& params, std::uint64_t seed,
                RunObserver* observer = nullptr);
// run_ssac(X, oracle, chooser, params)'s Result, written into `out` over what it held: the storage
// of out's vectors and of its records' vectors is reused, so that a caller running many fits in
// turn on a thread (the experiment's cells) allocates little per fit. No observer: a run that is
// watched is not one of many fits.
void run_ssac_into(Result& out, const Matrix& X, Oracle& oracle, Chooser& chooser,
                   const Params& params);

}  // namespace ssac
