#include "algorithm/order.hpp"

#include <algorithm>

namespace ssac::detail {

DistanceOrder::DistanceOrder(std::vector<Entry> entries, OrderMethod method, TieOrder ties)
    : e_(std::move(entries)), method_(method), reversed_(ties == TieOrder::by_row_reversed) {
  if (method_ != OrderMethod::sort) return;
  // Sorted in place as (distance, row) pairs: a sort of indices into a distance table costs twice
  // as much for the same order.
  std::sort(e_.begin(), e_.end(), [this](const Entry& a, const Entry& b) { return less(a, b); });
}

const DistanceOrder::Entry& DistanceOrder::at(std::size_t j) {
  if (method_ == OrderMethod::sort) return e_[j];
  const auto next = std::lower_bound(settled_.begin(), settled_.end(), j);
  if (next != settled_.end() && *next == j) return e_[j];
  // The stretch [lo, hi) between the settled neighbours of j holds exactly the entries of
  // positions lo..hi-1; putting the one of position j at j keeps that true on both sides.
  const std::size_t lo = next == settled_.begin() ? 0 : *(next - 1) + 1;
  const std::size_t hi = next == settled_.end() ? e_.size() : *next;
  const auto less = [this](const Entry& a, const Entry& b) { return this->less(a, b); };
  const auto first = e_.begin() + static_cast<std::ptrdiff_t>(lo);
  const auto last = e_.begin() + static_cast<std::ptrdiff_t>(hi);
  const auto nth = e_.begin() + static_cast<std::ptrdiff_t>(j);
  if (j == lo)  // the smallest of the stretch (x_1 of Algorithms 3 and 4): one pass
    std::iter_swap(nth, std::min_element(first, last, less));
  else if (j + 1 == hi)  // the largest
    std::iter_swap(nth, std::max_element(first, last, less));
  else
    std::nth_element(first, nth, last, less);
  settled_.insert(next, j);
  return e_[j];
}

std::span<const DistanceOrder::Entry> DistanceOrder::prefix(std::size_t j) {
  // Settling position j puts exactly the entries of positions below j before it.
  if (method_ == OrderMethod::select && j < e_.size()) at(j);
  return {e_.data(), j};
}

}  // namespace ssac::detail
