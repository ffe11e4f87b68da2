// Phase 2's order of S_i (Algorithm 1, line 10): the pairs (d(x, mu'_p), row) in lexicographic
// order, ties in distance broken by row (S6). Rows are distinct, so this is a strict total order
// and "the entry at position j" is one definite pair however it is found.
//
// The binary search of Algorithms 2-4 looks at only about log2 |S_i| positions of the order, and
// line 13 needs only the first j* entries as a set. So the order can be settled lazily: `select`
// finds the entry at a probed position by selection (std::nth_element) within the stretch between
// the nearest positions already settled, which for a binary search is exactly its [lo, hi]; the
// stretches shrink geometrically, so a whole search costs O(|S_i|) expected comparisons instead of
// the sort's O(|S_i| log |S_i|) (proofs-notes/corollary1-complexity.md). `sort` sorts everything
// once: the readable reference the selection is tested against (tests/test_phase2_order.cpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

namespace ssac::detail {

enum class OrderMethod { sort, select };

// How equal distances are ordered. `by_row` is S6, the reference's rule. `by_row_reversed` is its
// opposite, never a run's rule: a replay under it tells which traces depend on S6 at all (the
// conformance corpus's flag TieOrderS6, docs/conformance.md).
enum class TieOrder { by_row, by_row_reversed };

class DistanceOrder {
 public:
  using Entry = std::pair<double, std::size_t>;  // (d(x, mu'_p), row)

  DistanceOrder(std::vector<Entry> entries, OrderMethod method, TieOrder ties = TieOrder::by_row);

  std::size_t size() const { return e_.size(); }
  // The entry at position j < size() of the order.
  const Entry& at(std::size_t j);
  // The entries at positions 0..j-1 of the order (j <= size()), as a set: sorted under `sort`, in
  // no particular order under `select`.
  std::span<const Entry> prefix(std::size_t j);
  // Comparisons of two entries made so far (Result::comparisons).
  std::uint64_t comparisons() const { return comparisons_; }

 private:
  // The order's comparison, counted in comparisons_.
  bool less(const Entry& a, const Entry& b) {
    ++comparisons_;
    if (a.first < b.first) return true;
    if (b.first < a.first) return false;
    return reversed_ ? b.second < a.second : a.second < b.second;
  }

  std::vector<Entry> e_;
  OrderMethod method_;
  bool reversed_;
  // Under `select`: the positions whose entry is settled, increasing. Between two consecutive ones
  // (or an end) lie exactly the entries whose positions lie there, in no particular order.
  std::vector<std::size_t> settled_;
  std::uint64_t comparisons_ = 0;
};

}  // namespace ssac::detail
