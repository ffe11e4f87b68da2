// Phase 2's order of S_i (Algorithm 1, line 10): the pairs (d(x, mu'_p), row) in lexicographic
// order, ties in distance broken by row (S6). Rows are distinct, so this is a strict total order
// and "the entry at position j" is one definite pair however it is found.
//
// The binary search of Algorithms 2-4 looks at only about log2 |S_i| positions of the order, and
// line 13 needs only the first j* entries as a set. So the order can be settled lazily: `select`
// finds the entry at a probed position by selection (a quickselect, order.cpp) within the stretch
// between the nearest positions already settled, which for a binary search is within its [lo, hi];
// the stretches shrink geometrically, so a whole search costs O(|S_i|) expected comparisons instead
// of the sort's O(|S_i| log |S_i|) (proofs-notes/corollary1-complexity.md). Before the first
// selection a long order is distributed once into about |S_i| / 2 buckets (256 at the most) by
// the distances' leading bits (two passes that compare nothing, O(|S_i|)), and each selection then
// stays within its bucket as well: the probes of a binary search pick among a bucket's keys instead
// of partitioning half of S_i and more. `sort` sorts everything once: the readable reference the
// selection is tested against (tests/test_phase2_order.cpp).
//
// Entries are kept as one 128-bit key each, the distance's bits above the row: a distance is a
// square root of a sum of squares, so +0 or positive (a -0 is made +0), and non-negative doubles
// order as their bit patterns; the key order is therefore exactly the (distance, row) order, and
// one integer comparison replaces two floating-point ones and their branches. The reversed tie
// order keeps the row's complement instead.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <utility>
#include <vector>

namespace ssac::detail {

// An allocator whose vectors leave new elements uninitialised on resize(): for working storage
// that is written in full before it is read and grows again at every run (a run's S_1 is longer
// than the last run's S_k), where the vector would otherwise zero the new part first.
template <class T>
struct UninitAllocator : std::allocator<T> {
  using value_type = T;
  UninitAllocator() = default;
  template <class U>
  UninitAllocator(const UninitAllocator<U>&) noexcept {}
  template <class U>
  struct rebind {
    using other = UninitAllocator<U>;
  };
  template <class U>
  void construct(U* p) noexcept {
    ::new (static_cast<void*>(p)) U;
  }
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
};

enum class OrderMethod { sort, select };

// How equal distances are ordered. `by_row` is S6, the reference's rule. `by_row_reversed` is its
// opposite, never a run's rule: a replay under it tells which traces depend on S6 at all (the
// conformance corpus's flag TieOrderS6, docs/conformance.md).
enum class TieOrder { by_row, by_row_reversed };

// Another order among equal distances, given row by row: a replay's, following the order a trace
// shows among rows at exactly equal distance (ReplayOptions::follow_ties). rank[row] takes the
// row's place as the tie key, and row_of[rank[row]] == row for every row of S_i; distinct rows of
// S_i have distinct ranks.
struct TieRanks {
  std::vector<std::size_t> rank, row_of;
};

class DistanceOrder {
 public:
  using Entry = std::pair<double, std::size_t>;  // (d(x, mu'_p), row), d >= 0 and not NaN

  // `ranks`, when given, orders equal distances instead of `ties`; it must outlive the order.
  DistanceOrder(const std::vector<Entry>& entries, OrderMethod method,
                TieOrder ties = TieOrder::by_row, const TieRanks* ranks = nullptr);
  // An empty order, for assign() to fill (a run keeps one and reuses its storage).
  DistanceOrder() = default;
  // The order of the entries (d[i], rows[i]), i < count, as the constructor makes it from them;
  // the storage already held is reused.
  void assign(const double* d, const std::size_t* rows, std::size_t count, OrderMethod method,
              TieOrder ties = TieOrder::by_row, const TieRanks* ranks = nullptr);

  std::size_t size() const { return e_.size(); }
  // The entry at position j < size() of the order.
  Entry at(std::size_t j);
  // The entries at positions 0..j-1 of the order (j <= size()), as a set: sorted under `sort`, in
  // no particular order under `select`.
  std::vector<Entry> prefix(std::size_t j);
  // f(entry) for each entry of prefix(j), in the same order, without copying them out.
  template <class F>
  void for_prefix(std::size_t j, F f) {
    settle_prefix(j);
    const Key* const e = e_.data();
    if (ranks_ || reversed_) {
      for (std::size_t i = 0; i < j; ++i)
        f(entry(e[i]));
      return;
    }
    // S6's tie order, the runs' own: the row is the key's lower half. A separate loop, so that
    // f's stores (which may alias the members) do not make every step reload them.
    for (std::size_t i = 0; i < j; ++i)
      f(Entry{std::bit_cast<double>(bits(e[i])), static_cast<std::size_t>(e[i])});
  }
  // Comparisons of two entries made so far (Result::comparisons).
  std::uint64_t comparisons() const { return comparisons_; }

 private:
  // (bits of the distance) * 2^64 + row, or + (2^64 - 1 - row) under TieOrder::by_row_reversed,
  // or + rank[row] under TieRanks.
  __extension__ using Key = unsigned __int128;
  Key key(const Entry& e) const;
  static std::uint64_t bits(Key k) { return static_cast<std::uint64_t>(k >> 64); }  // distance's
  Entry entry(Key k) const {  // here, so that for_prefix's loop inlines it
    const auto row = static_cast<std::uint64_t>(k);
    return {std::bit_cast<double>(static_cast<std::uint64_t>(k >> 64)),
            ranks_ ? ranks_->row_of[row] : static_cast<std::size_t>(reversed_ ? ~row : row)};
  }
  // Puts exactly the entries of positions 0..j-1 at those positions (in some order).
  void settle_prefix(std::size_t j);
  void sort_all();
  // Puts the entry of position j at j within the stretch [lo, hi) (lo < j < hi - 1), by
  // quickselect; the positions its pivots landed on are left in pivots_.
  std::size_t select_in(std::size_t lo, std::size_t hi, std::size_t j);
  // Distributes the stretch [lo, hi) into buckets by the distance's leading bits (a counting
  // sort of the bucket numbers), recording where each bucket begins in buckets_.
  void bucket(std::size_t lo, std::size_t hi);

  std::vector<Key, UninitAllocator<Key>> e_;
  OrderMethod method_ = OrderMethod::select;
  bool reversed_ = false;
  const TieRanks* ranks_ = nullptr;
  // Under `select`: the positions whose entry is settled, increasing. Between two consecutive ones
  // (or an end) lie exactly the entries whose positions lie there, in no particular order.
  std::vector<std::size_t> settled_;
  std::vector<std::size_t> pivots_;
  std::vector<Key, UninitAllocator<Key>>
      buffer_;  // select_in's partitions and bucket() write here first
  // Under `select`, after bucket(): increasing positions b_0 <= b_1 <= ... such that positions
  // [b_i, b_i+1) hold exactly the entries of those positions (a bucket of distances), in no
  // particular order; empty before. cursor_ is bucket()'s working copy.
  std::vector<std::size_t> buckets_, cursor_;
  std::uint64_t least_ = 0, most_ = 0;  // the least and greatest distance bits of all entries
  std::uint64_t comparisons_ = 0;
};

}  // namespace ssac::detail
