// Small-scope exact checking of the paper's guarantees: every instance up to a size on a grid,
// each theorem's eta and beta taken as the certified ceilings of bounds.hpp, the exact law of the
// reference's outcome from the exact engine (ssac/exact.hpp), and every instance where the exact
// probability of the theorem's event exceeds delta. The method (Jackson's small-scope hypothesis:
// most counterexamples have a small instance) and what a sweep covers are in
// proofs-notes/smallscope.md; the command is `ssac smallscope` (docs/smallscope.md).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ssac/exact.hpp"
#include "ssac/rules.hpp"
#include "ssac/ssac.hpp"
#include "ssac/theory/bounds.hpp"
#include "ssac/theory/decimal.hpp"

namespace ssac::theory::smallscope {

// A labelled point set on the integer grid: n points of dimension m, labels 1..K in the order of
// first appearance (the canonical relabelling), rows in increasing lexicographic order.
struct Instance {
  int m = 1;
  std::vector<std::vector<int>> points;
  std::vector<int> labels;
  int clusters() const;  // K
  std::size_t n() const { return points.size(); }
};

// The claims checked, each with its search (Phase 2) and a random-weak oracle (Definition 5):
// Theorem 1 is stated for Algorithm 2; Appendix C claims the same eta and beta for Algorithm 4.
enum class Claim { theorem1, appendix_c };
const char* to_string(Claim c);  // "theorem1", "appendix-c"
std::optional<Claim> parse_claim(std::string_view s);
Search search_of(Claim c);  // random (Alg. 2) or unified (Alg. 4)

// Which beta: the paper's (Theorem 1, log log n), the union bound solved with the search's step
// count (beta_union, log of ceil(log2(n+1))), or beta_union minus one: a deliberately too small
// beta, the negative control (a sweep must report it failing where beta_union is tight).
// `paper-log2`: the paper's beta with log2 n for its log n (the base-2 reading of that log).
enum class BetaKind { paper, union_bound, union_minus_one, paper_log2 };
const char* to_string(BetaKind b);  // "paper", "union", "union-minus-one", "paper-log2"
std::optional<BetaKind> parse_beta_kind(std::string_view s);

// The named rules a sweep can run under: "paper" (the paper profile), "self-pairs=off",
// "anchor=lowest-labelled-row", "anchor=random-labelled-row", "anchor=random-known-row"
// (proofs-notes/anchor-rules.md); each is the paper profile with that one rule set.
const std::vector<std::string>& rule_names();
Profile rule_profile(const std::string& name);  // throws ParameterError for another name

struct Grid {
  int min_n = 2, max_n = 5;  // n >= 2: Theorem 1's log log n needs log n > 0
  int max_k = 3;
  std::vector<int> dims = {1, 2};
  int side1 = 6;               // m = 1: coordinates 0 .. side1-1
  int side2 = 3;               // m = 2: coordinates in {0 .. side2-1}^2
  std::vector<Decimal> q;      // fixed q's (each in (0, 1))
  std::vector<Decimal> delta;  // each in (0, 1)
  // Also, per (k, n, delta), the q's just above where each beta (of `betas`) drops to b =
  // 1..threshold_levels: 1 - (delta / (2k L))^(1/b) rounded up to 3 decimals, L = log n or S.
  int threshold_levels = 3;
};

// Which row orders of each instance a sweep runs. `lex`: the rows in lexicographic order of the
// points only (the first committed sweeps). `all`: every order, up to orders that provably give
// the same law (proofs-notes/smallscope.md, "Row orders"): the reference reads row numbers only
// where S6 breaks an exact distance tie and where anchor=lowest-labelled-row takes a cluster's
// lowest row, so orders that agree on every such pair the lexicographic run meets are one run.
enum class Orders { lex, all };
const char* to_string(Orders o);  // "lex", "all"
std::optional<Orders> parse_orders(std::string_view s);

struct Options {
  Grid grid;
  Orders orders = Orders::all;
  std::vector<Claim> claims = {Claim::theorem1, Claim::appendix_c};
  std::vector<BetaKind> betas = {BetaKind::paper, BetaKind::union_bound};
  std::vector<std::string> rules = {"paper"};
  std::uint64_t max_branches = 20'000;   // per exact run; more: the run is skipped, counted
  std::uint64_t max_states = 1'000'000;  // Engine::counts, per exact run; likewise
  ExactOptions::Engine engine = ExactOptions::Engine::counts;  // the exact enumerator's
  std::uint64_t max_runs = 200'000;  // distinct exact runs of a sweep; more: ParameterError
  unsigned threads = 1;
};

// One (instance, q, delta, claim, beta, rule): the theorem's parameters and, when run, the exact
// probability of its event.
struct Check {
  std::size_t instance = 0;
  Decimal q, delta, gamma;  // gamma: the one the bounds are taken at (below the exact margin)
  Claim claim = Claim::theorem1;
  BetaKind beta_kind = BetaKind::paper;
  std::size_t rule = 0;    // index into Options::rules
  Real50 eta, beta_value;  // the real bounds (50 digits)
  std::uint64_t r = 0;     // ceil(k eta), certified
  std::uint64_t beta = 0;  // the integer beta run
  std::size_t run = 0;     // index into Report::runs
  // The row order: empty for the instance's (lexicographic); else row i is the instance's row
  // order[i].
  std::vector<std::size_t> order;
};

struct Run {
  std::size_t instance = 0;
  Decimal q;
  std::uint64_t r = 0, beta = 0;
  Search search = Search::random;
  std::size_t rule = 0;
  bool done = false;  // false: beyond a budget (skipped)
  // Why a run is beyond reach: it exceeded the re-executions (max_branches, or the estimate of
  // Phase 1's made before the run) or the states of Phase 1's count arithmetic (max_states), or
  // its beta is above the largest the reference takes (range::kMaxBeta).
  enum class Beyond { no, reexecutions, states, beta } beyond = Beyond::no;
  Rational p_not_recovered;  // 1 - P(exact recovery): the output is not the oracle's clustering
  Rational p_failure;        // exact's P(failure): fewer than k clusters recovered
  std::uint64_t branches = 0;
  std::uint64_t merged = 0;        // branches merged into a state already reached
  bool by_counts = false;          // Engine::counts: Phase 1 was run by counts
  std::vector<std::size_t> order;  // as Check::order
  std::size_t lex_run = 0;         // with an order: the run of the same check in the lex order
  // The pairs of the instance's rows (lexicographic numbering) whose order this run reads, when
  // done: ExactResult::tied_pairs, and under anchor=lowest-labelled-row every pair of one cluster.
  std::vector<std::pair<std::size_t, std::size_t>> order_reads;
};

struct Report {
  Options options;
  std::vector<Instance> instances;            // after deduplication, every one (hypotheses or not)
  std::vector<std::string> instance_skip;     // per instance: "" or why the theorems do not apply
  std::vector<std::optional<Decimal>> gamma;  // per instance: the gamma used (when they apply)
  std::vector<std::string> margin;  // per instance: the exact margin ("inf", or "sqrt(a/b)")
  std::size_t enumerated = 0;       // labelled point sets before deduplication
  std::vector<Check> checks;
  std::vector<Run> runs;
  std::size_t uncertified = 0;  // checks dropped: a ceiling that 500 digits could not fix
  // Orders::all: the lexicographic runs (the first ones of `runs`), those of them that read some
  // row order, and how many orders of the others' instances their law stands for.
  std::size_t lex_runs = 0, order_sensitive_runs = 0;
  // The instance of a check, its rows in the check's order.
  Instance instance_of(const Check& c) const;
};
// `in` with its rows reordered: row i is in's row order[i] (labels moved with their rows).
Instance reordered(const Instance& in, const std::vector<std::size_t>& order);
// One order of n rows per distinct way of ordering the pairs `reads` (each (a, b), a < b), the
// identity first: every other order of the n rows orders each pair as one of these does.
std::vector<std::vector<std::size_t>> distinct_orders(
    std::size_t n, const std::vector<std::pair<std::size_t, std::size_t>>& reads);

// Every instance of the grid, deduplicated (see proofs-notes/smallscope.md for what is sound):
// translation to the origin, the grid's reflections (and the axis swap for m = 2), cluster
// relabelling. `enumerated` receives the count before deduplication.
std::vector<Instance> enumerate(const Grid& g, std::size_t* enumerated = nullptr);

// The hypotheses of Theorem 1 on an instance, exactly (rational means and squared distances):
// "" when they hold, else which fails (Definition 1 with the means as centres; Definition 2 with
// a margin > 1). `margin2` receives the squared margin (empty: infinite).
std::string hypotheses(const Instance& in, std::optional<Rational>* margin2 = nullptr);
// The gamma the bounds are taken at: 100 when the margin is infinite (every gamma > 1 is
// admissible and eta changes by less than 10^-500 beyond it); otherwise the largest multiple of
// 10^-d strictly below the margin, d >= 2 the smallest that leaves it above 1.
Decimal gamma_below(const std::optional<Rational>& margin2);

// The whole sweep. Throws ParameterError when it would need more than options.max_runs runs.
Report sweep(const Options& options);

// The command line (sh) that reproduces a run with `ssac exact`, writing the instance to
// `file` first.
std::string reproduce_command(const Report& r, const Check& c, const std::string& file);
// The instance as the CSV `ssac exact` reads ("x,label\n0,1\n..." or "x,y,label\n...").
std::string instance_csv(const Instance& in);

}  // namespace ssac::theory::smallscope
