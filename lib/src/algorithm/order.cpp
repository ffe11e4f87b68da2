#include "algorithm/order.hpp"

#include <algorithm>
#include <bit>

namespace ssac::detail {

DistanceOrder::Key DistanceOrder::key(const Entry& e) const {
  const double d = e.first + 0.0;  // -0 + 0 = +0; every other value is unchanged
  const auto row = static_cast<std::uint64_t>(e.second);
  const std::uint64_t tie = ranks_ ? ranks_->rank[e.second] : reversed_ ? ~row : row;
  return (static_cast<Key>(std::bit_cast<std::uint64_t>(d)) << 64) | tie;
}

DistanceOrder::Entry DistanceOrder::entry(Key k) const {
  const auto row = static_cast<std::uint64_t>(k);
  return {std::bit_cast<double>(static_cast<std::uint64_t>(k >> 64)),
          ranks_ ? ranks_->row_of[row] : static_cast<std::size_t>(reversed_ ? ~row : row)};
}

DistanceOrder::DistanceOrder(const std::vector<Entry>& entries, OrderMethod method, TieOrder ties,
                             const TieRanks* ranks)
    : method_(method), reversed_(ties == TieOrder::by_row_reversed), ranks_(ranks) {
  e_.reserve(entries.size());
  for (const Entry& x : entries)
    e_.push_back(key(x));
  if (method_ == OrderMethod::sort) sort_all();
}

void DistanceOrder::assign(const double* d, const std::size_t* rows, std::size_t count,
                           OrderMethod method, TieOrder ties, const TieRanks* ranks) {
  method_ = method;
  reversed_ = ties == TieOrder::by_row_reversed;
  ranks_ = ranks;
  e_.resize(count);
  for (std::size_t i = 0; i < count; ++i)
    e_[i] = key({d[i], rows[i]});
  settled_.clear();
  comparisons_ = 0;
  if (method_ == OrderMethod::sort) sort_all();
}

void DistanceOrder::sort_all() {
  // Sorted in place as keys: a sort of indices into a distance table costs twice as much for the
  // same order.
  std::uint64_t count = 0;  // a local for the reason given in at()
  std::sort(e_.begin(), e_.end(), [&count](Key a, Key b) {
    ++count;
    return a < b;
  });
  comparisons_ = count;
}

DistanceOrder::Entry DistanceOrder::at(std::size_t j) {
  if (method_ == OrderMethod::sort) return entry(e_[j]);
  const auto next = std::lower_bound(settled_.begin(), settled_.end(), j);
  if (next != settled_.end() && *next == j) return entry(e_[j]);
  // The stretch [lo, hi) between the settled neighbours of j holds exactly the entries of
  // positions lo..hi-1; putting the one of position j at j keeps that true on both sides.
  const std::size_t lo = next == settled_.begin() ? 0 : *(next - 1) + 1;
  const std::size_t hi = next == settled_.end() ? e_.size() : *next;
  // Counted in a local: a member counter might alias the entries and be reloaded and stored at
  // every comparison.
  std::uint64_t count = 0;
  const auto less = [&count](Key a, Key b) {
    ++count;
    return a < b;
  };
  const auto first = e_.begin() + static_cast<std::ptrdiff_t>(lo);
  const auto last = e_.begin() + static_cast<std::ptrdiff_t>(hi);
  const auto nth = e_.begin() + static_cast<std::ptrdiff_t>(j);
  if (j == lo)  // the smallest of the stretch (x_1 of Algorithms 3 and 4): one pass
    std::iter_swap(nth, std::min_element(first, last, less));
  else if (j + 1 == hi)  // the largest
    std::iter_swap(nth, std::max_element(first, last, less));
  else
    std::nth_element(first, nth, last, less);
  comparisons_ += count;
  settled_.insert(next, j);
  return entry(e_[j]);
}

void DistanceOrder::settle_prefix(std::size_t j) {
  // Settling position j puts exactly the entries of positions below j before it.
  if (method_ == OrderMethod::select && j < e_.size()) at(j);
}

std::vector<DistanceOrder::Entry> DistanceOrder::prefix(std::size_t j) {
  settle_prefix(j);
  std::vector<Entry> out;
  out.reserve(j);
  for (std::size_t i = 0; i < j; ++i)
    out.push_back(entry(e_[i]));
  return out;
}

}  // namespace ssac::detail
