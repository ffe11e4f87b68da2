// Phase 1 by counts (ExactOptions::Engine::counts; proofs-notes/exact.md, "Phase 1 by counts"):
// the law of the state at Algorithm 1, line 8 from a state at an iteration's start, with the
// reference deciding every step of Phase 1 once per configuration of the known clusters rather
// than once per merged state. Private to the exact enumerator (lib/src/exact).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "algorithm/run.hpp"
#include "ssac/exact.hpp"
#include "ssac/observer.hpp"

namespace ssac::exact_internal {

// A state key is a string of whole numbers, each in 7-bit groups (the last group of a number has
// its top bit clear), signed ones zigzag-coded first; a sequence is its length and then its
// elements. So no two different states have the same key, and a key stays short.
void put_int(std::string& key, std::uint64_t v);
void put_signed(std::string& key, std::int64_t v);
void put_bits(std::string& key, double x);
template <class V>
void put(std::string& key, const V& v) {
  put_int(key, v.size());
  for (const auto& e : v)
    put_signed(key, static_cast<std::int64_t>(e));
}

// The per-pair memory of a random-weak oracle: the answer remembered for each pair asked.
using Memo = std::map<std::pair<std::size_t, std::size_t>, Answer>;

// Engine::states and Engine::counts: a state from which runs resume (Run::resume), with the
// oracle's state there.
struct Snapshot {
  detail::Run::Resume run;
  Memo memo;          // per-pair memory only
  int confused = -1;  // the correlated oracle's draw; -1 before it (the run's start)
};

// Thrown by an observer to end a replay at a boundary.
struct StopAtBoundary {};

// Phase 1 of this run is not a product of per-cluster laws (a step's weights into a cluster are
// not proportional across configurations): the enumeration is redone by Engine::states.
struct NotLumpable {};

// The laws of Z_t given its count, kept across the iterations and start states of one
// enumeration (counts.cpp).
struct LawCache;
std::shared_ptr<LawCache> make_law_cache();

struct CountsSetup {
  CountsSetup(const Matrix& points, std::uint64_t r) : X(points), draws(r) {}
  const Matrix& X;
  std::uint64_t draws = 0;  // r_i, the draws of Z in this iteration
  // What line 8 and Phase 2 read of Z_p besides its count and sum: the multiset of its rows (or,
  // with `lump`, of their labels) where Phase 2 draws B, and its first row (the plain search).
  bool reads_b = false, plain = false;
  const std::vector<int>* lump = nullptr;
  // One replay of the reference from `at` under the decisions of `br`, with the caller's
  // branching oracle and chooser, reporting to `obs`; it ends when `obs` throws StopAtBoundary.
  std::function<void(Branches& br, const Snapshot& at, RunObserver& obs)> replay;
  // Called before each replay: counts it against the budget (and throws when it is spent).
  std::function<void()> count_replay;
  // Called after each draw's arithmetic with the number of states it holds (and throws when the
  // budget of states is spent).
  std::function<void(std::size_t)> count_states;
  bool check = true;         // ExactOptions::check_product_form
  LawCache* laws = nullptr;  // null: one for this call
};

// A state at line 8: a representative run to resume from (its Z complete, r draws) and the
// probability, relative to the iteration's start state, of every state merged into it. The
// states merged agree on the known clusters and their openers, on p and on what lines 9-13 read
// of Z_p: the order of S_i by distance to mu'_p with its ties, x_1, and Z_p's multiset or first
// row where read. `p` is the cluster the reference must choose (checked when it runs).
struct CountsEnd {
  std::shared_ptr<const Snapshot> snapshot;
  std::string key;
  Rational probability;
  int p = 0;
};

struct CountsResult {
  std::vector<CountsEnd> ends;
  Rational queries_phase1;  // E[Phase-1 queries of this iteration]
  std::size_t states = 0;   // distinct (configuration, counts) over the draws
};

// The law at line 8 of iteration start.run.iteration from `start` (an iteration's start: no draw
// made, S_i not empty). Throws NotLumpable when the product form does not hold.
CountsResult phase1_by_counts(const CountsSetup& setup, const Snapshot& start);

}  // namespace ssac::exact_internal
