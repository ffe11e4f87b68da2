// The exact outcome distribution of SSAC on a small instance: every branch of the algorithm's
// randomness (the Chooser's draws, the random-weak oracle's abstentions, the correlated oracle's
// one draw, the baseline's coin flips) is followed, each with its exact rational probability, by
// running the reference itself (run_ssac) under a branching Chooser and a branching Oracle. There
// is no second implementation of Algorithm 1 here: a branch is one re-execution of the reference
// with its decisions scripted.
//
// Branches that reach the same state at the end of an iteration are merged (proofs-notes/exact.md
// states what the state is and why merging is sound); expected counts are accumulated by
// linearity, iteration by iteration.
#pragma once

#include <boost/multiprecision/cpp_int.hpp>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "ssac/oracle.hpp"
#include "ssac/oracle_spec.hpp"
#include "ssac/ssac.hpp"

namespace ssac {

using Rational = boost::multiprecision::cpp_rational;

// The decisions of one branch, and the depth-first walk over all branches. A branch starts with a
// fixed `prefix` of decisions (replayed, their probability not counted) and then takes the
// decisions of `path`, extended with option 0 at every new decision.
class Branches {
 public:
  explicit Branches(std::vector<std::uint32_t> prefix = {}) : prefix_(std::move(prefix)) {}
  // One random event whose options have the given probabilities (each positive, summing to 1);
  // returns the option this branch takes.
  std::size_t decide(const std::vector<Rational>& probabilities);
  // One random event whose option i has probability counts[i] / total (each count positive,
  // summing to total): a uniform position of a pool whose distinct rows occur counts[i] times.
  std::size_t decide(const std::vector<std::size_t>& counts, std::size_t total);
  // The product of the probabilities of the decisions taken after the prefix.
  Rational probability() const { return Rational(numerator_, denominator_); }
  // Every decision taken so far, the prefix included: the prefix of a branch that continues here.
  std::vector<std::uint32_t> taken() const;
  // Starts the next replay of the current branch (decisions from the first again).
  void restart();
  // Moves to the next branch in depth-first order after a replay; false when none is left.
  bool next();

 private:
  using Integer = boost::multiprecision::cpp_int;
  // The option of the next decision, which has `options` options; `counted` tells whether it lies
  // after the prefix (its probability joins the product).
  std::size_t take(std::size_t options, bool& counted);

  std::vector<std::uint32_t> prefix_, path_, options_;
  std::size_t pos_ = 0;
  // The product's numerator and denominator, multiplied up without reducing (a reduction per
  // decision would cost more than the whole replay); reduced once by probability().
  Integer numerator_ = 1, denominator_ = 1;
};

// Each draw of the reference takes a uniform position of `pool` and reads the row there
// (ssac/ssac.hpp, Chooser); positions holding the same row are one option, with the weight of
// their count (the multiset Z_p may repeat a row).
//
// `lump` (the states engine under an oracle whose answer to a pair depends on its rows only
// through whether their labels agree, proofs-notes/exact.md, "Lumping the draws of B"): the
// positions of a draw of B (Draw::search_sample) whose rows carry the same label in `*lump` are
// one option, of the weight of their count, represented by the first of them.
class BranchingChooser : public Chooser {
 public:
  explicit BranchingChooser(Branches& b, const std::vector<int>* lump = nullptr)
      : b_(b), lump_(lump) {}
  std::size_t choose(const std::vector<std::size_t>& pool, Draw what) override;

 private:
  Branches& b_;
  const std::vector<int>* lump_;
  std::vector<std::size_t> first_, count_;  // the distinct rows' first positions, their counts
};

// The oracle of an exact enumeration: `spec` says which (spec.q is not read: `q` is the exact
// value); `coin_flip` makes every not-sure a fair coin flip (the original SSAC, AskedOracle).
struct ExactOracle {
  OracleSpec spec;
  Rational q = 1;
  bool coin_flip = false;
};

struct ExactOptions {
  // The most re-executions of the reference the enumeration may make; exceeding it throws
  // ParameterError naming --max-branches (never a truncated answer). It is thrown before the
  // enumeration starts, and again at each iteration's start, as soon as the |S_i|^r draw sequences
  // of the Phase 1 ahead alone would exceed it (a lower bound on the re-executions left).
  std::uint64_t max_branches = 10'000'000;
  // Engine::counts: the most states of Phase 1's count arithmetic (one per configuration and
  // counts after each draw, over every iteration and start state), which no re-execution counts;
  // exceeding it throws ParameterError naming --max-states, never a truncated answer.
  std::uint64_t max_states = 100'000'000;
  // Also the joint law of (final labels, queries in Phase 1, queries in Phase 2): the numbers of
  // queries asked so far join the state key (proofs-notes/exact.md, "The joint law"), so fewer
  // branches merge. ExactResult::joint is filled only then.
  bool joint_queries = false;
  // Where branches that reach the same state merge (proofs-notes/exact.md, "Merging"). `future`:
  // after each draw's cluster-assignment query, once p is chosen, after each probe and at each
  // iteration's end, on what the rest of the run reads (after Phase 1 the order of S_i by distance
  // to mu'_p and its ties, not mu'_p's bits). `boundaries`: only at the last three, with mu'_p by
  // its bits, Z_p and its first row in every state. Both give the same law (tests/test_exact.cpp
  // compares them); `boundaries` makes many more re-executions. The distribution corpus is
  // written with it, because its files record the number of re-executions.
  enum class Merging { future, boundaries };
  Merging merging = Merging::future;
  // How the branches are walked (proofs-notes/exact.md, "The states engine"). `states`: from each
  // merged state the reference runs one step on (Run::resume: the next draw of Z and its
  // cluster-assignment query, or line 8 and Phase 2 up to the next probe, or the rest of the
  // iteration), so the cost follows the number of distinct states; Phase 1 merges after every
  // draw. `paths`: every branch is a re-execution of the whole run from its start with its
  // decisions scripted (`merging` applies to it only: Merging::boundaries with Engine::states is
  // an std::invalid_argument), so each of the |S_i|^r draw sequences of a
  // Phase 1 is one re-execution at least. Both give the same law (tests/test_exact_states.cpp).
  //
  // `counts`: the states engine, except that Phase 1 from each iteration's start is run by counts
  // (proofs-notes/exact.md, "Phase 1 by counts"): the reference decides one draw from each
  // configuration of the known clusters (their openers, the labels), the counts |Z_t| are carried
  // by exact arithmetic, and each Z_t's law given its count is its first row followed by
  // independent draws from the weights its configurations place rows in t with, which the engine
  // checks are proportional across configurations (the product form). Where that check fails, or
  // where Phase 1 reads more than the configuration (anchor=random-known-row, a per-pair memory,
  // the correlated oracle, sums that may overflow) or the joint law or stop_after_phase1 is asked
  // for, the run is the states engine's (ExactResult::phase1_by_counts says which). The same law
  // again (tests/test_exact_counts.cpp); the cost follows the configurations and the counts, not
  // the sums of Z_t.
  enum class Engine { states, paths, counts };
  Engine engine = Engine::states;
  // Engine::states: stop every branch once Phase 1 of iteration 1 is over (Algorithm 1, line 8)
  // and report the law of (p, mu'_p by its bits, Z_p's rows) there in ExactResult::phase1, with
  // the branches where every draw was unplaced (no p) as one entry of p = 0. For exact checks of
  // Lemma 7; the other fields of the result are then empty.
  bool stop_after_phase1 = false;
  // The run to enumerate: run_ssac when empty. A test may put a deliberately broken variant of
  // the reference here (lib/testing's run_ssac_with_fault) to show that an exact check can fail;
  // it must report the same observer events as run_ssac. Engine::paths only (a variant keeps
  // state of its own that a resumed run would not have): with Engine::states it is an
  // std::invalid_argument.
  std::function<Result(const Matrix&, Oracle&, Chooser&, const Params&, RunObserver*)> run;
  // Engine::counts checks the product form before it uses it. Only a test turns the check off, to
  // show on an instance where the form fails that the check is what keeps the law exact.
  bool check_product_form = true;
};

struct ExactLabeling {
  std::vector<int> labels;  // the final labels (0 unassigned)
  int clusters_recovered = 0;
  Rational probability;
};

// One outcome of the joint law: the final labels with the numbers of queries of each phase.
struct ExactOutcome {
  std::vector<int> labels;
  int clusters_recovered = 0;
  std::uint64_t queries_phase1 = 0, queries_phase2 = 0;
  Rational probability;
};

struct ExactResult {
  Rational p_failure;         // fewer than k clusters recovered (#Failure)
  Rational p_exact_recovery;  // every point labelled and the labels' partition is the oracle's
  std::map<int, Rational> clusters_recovered;  // count -> probability
  Rational expected_queries_phase1, expected_queries_phase2;
  // Points correctly labelled under the renaming that maximises their number (the optimal
  // accuracy of metrics.hpp, which depends on the final labels alone), and that as a percentage.
  Rational expected_correct, expected_accuracy_pct;
  std::vector<ExactLabeling> outcomes;  // distinct (labels, clusters recovered), most likely first
  // With ExactOptions::joint_queries: distinct (labels, queries phase 1, queries phase 2), in
  // increasing order of (labels, phase 1, phase 2).
  std::vector<ExactOutcome> joint;
  Rational total;              // the outcomes' probabilities summed: exactly 1
  std::uint64_t branches = 0;  // re-executions of the reference
  // Branches that reached a state another branch had reached already, and were merged into it.
  std::uint64_t merged = 0;
  // The pairs of rows (i, j), i < j, that some Phase 2 of some branch found at exactly equal
  // distance to mu'_p (Algorithm 1, line 10): the only pairs whose order S6's tie rule (by row)
  // reads. Increasing.
  std::vector<std::pair<std::size_t, std::size_t>> tied_pairs;
  // Distinct (merged) states reached at the boundaries within iterations 1, 2, ...: p chosen,
  // after each search step, the iteration's end, and (Merging::future, Engine::states) after a
  // draw's cluster-assignment query.
  std::vector<std::size_t> states;
  // ExactOptions::stop_after_phase1: distinct (p, mu'_p, Z_p sorted) with their probabilities, in
  // increasing order. Z_p is a representative's: the branches merged into it agree on Z_p's
  // count, its sum, and its multiset of rows or, where the draws of B are lumped, of labels.
  struct Phase1Outcome {
    int p = 0;
    std::vector<double> center;
    std::vector<std::size_t> zp;
    Rational probability;
  };
  std::vector<Phase1Outcome> phase1;
  // Engine::counts: whether Phase 1 was run by counts (false: the states engine ran instead).
  bool phase1_by_counts = false;
};

// The exact distribution of run_ssac(X, oracle, chooser, params) over every chooser and oracle
// branch; `labels` (1..K) is the oracle's clustering. Throws ParameterError for the interactive
// oracle, a q outside (0, 1], or when options.max_branches (or, under Engine::counts,
// options.max_states) would be exceeded.
// What the refusal before any work compares with options.max_branches: a lower bound on the
// re-executions of the Phase 1 of one iteration from a state with `rows` rows in S_i and
// `draws` draws of Z under Engine::paths (rows^draws), an estimate under Engine::states (one
// re-execution per row from each multiset of the draws so far, at most rows^s of them after s
// draws: the count when every draw is placed with certainty), and under Engine::counts `rows`
// (one re-execution per row from the start's configuration; the count arithmetic has its own
// budget, max_states).
long double exact_phase1_cost(ExactOptions::Engine engine, std::size_t rows, std::uint64_t draws);
// The same for S_i = `rows` of X, where the states engine's count after s draws is also at most
// the number of distinct left-to-right sums of s of the rows (the states merge on Z_t's count and
// sum, proofs-notes/exact.md): on points of a lattice far fewer than the multisets. Stops
// counting once the total exceeds `cap`.
long double exact_phase1_cost(ExactOptions::Engine engine, const Matrix& X,
                              const std::vector<std::size_t>& rows, std::uint64_t draws,
                              long double cap);
ExactResult exact_distribution(const Matrix& X, const std::vector<int>& labels,
                               const ExactOracle& oracle, const Params& params,
                               const ExactOptions& options = {});

// `x` rounded to `places` decimal places (half away from zero), in fixed notation.
std::string decimal_string(const Rational& x, int places = 20);
// "a/b" in lowest terms ("0/1" and "1/1" for the ends).
std::string fraction_string(const Rational& x);

}  // namespace ssac
