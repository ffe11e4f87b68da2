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

DistanceOrder::DistanceOrder(const std::vector<Entry>& entries, OrderMethod method, TieOrder ties,
                             const TieRanks* ranks) {
  std::vector<double> d;
  std::vector<std::size_t> rows;
  d.reserve(entries.size());
  rows.reserve(entries.size());
  for (const auto& [distance, row] : entries) {
    d.push_back(distance);
    rows.push_back(row);
  }
  assign(d.data(), rows.data(), entries.size(), method, ties, ranks);
}

void DistanceOrder::assign(const double* d, const std::size_t* rows, std::size_t count,
                           OrderMethod method, TieOrder ties, const TieRanks* ranks) {
  method_ = method;
  reversed_ = ties == TieOrder::by_row_reversed;
  ranks_ = ranks;
  e_.resize(count);
  Key* const e = e_.data();
  // The least and greatest distance bits, for bucket(), taken while the keys are made: two of
  // each over alternate entries, so that each step's compare and select need not wait for the
  // last one's.
  std::uint64_t least[2] = {~std::uint64_t{0}, ~std::uint64_t{0}}, most[2] = {0, 0};
  std::size_t i = 0;
  if (!ranks && !reversed_) {  // S6's ties, the runs' own: key() with the row as it is
    for (; i + 2 <= count; i += 2)
      for (std::size_t l = 0; l < 2; ++l) {
        const auto b = std::bit_cast<std::uint64_t>(d[i + l] + 0.0);  // as key() makes -0 +0
        e[i + l] = (static_cast<Key>(b) << 64) | static_cast<std::uint64_t>(rows[i + l]);
        least[l] = std::min(least[l], b);
        most[l] = std::max(most[l], b);
      }
  }
  for (; i < count; ++i) {
    const Key k = key({d[i], rows[i]});
    e[i] = k;
    least[0] = std::min(least[0], bits(k));
    most[0] = std::max(most[0], bits(k));
  }
  least_ = std::min(least[0], least[1]);
  most_ = std::max(most[0], most[1]);
  settled_.clear();
  buckets_.clear();
  comparisons_ = 0;
  if (method_ == OrderMethod::sort) sort_all();
}

void DistanceOrder::sort_all() {
  // Sorted in place as keys: a sort of indices into a distance table costs twice as much for the
  // same order.
  std::uint64_t count = 0;  // a local for the reason given in select_in()
  std::sort(e_.begin(), e_.end(), [&count](Key a, Key b) {
    ++count;
    return a < b;
  });
  comparisons_ = count;
}

namespace {

__extension__ using Key = unsigned __int128;

// Partitions [first, last) around the key at `pivot` and returns where that key ends: every key
// before it is smaller, every key after it larger (keys are distinct). The keys are written into
// `out` (as long as the stretch) from both ends, each one to both ends with only the right end's
// cursor moving on, and copied back. No branch depends on a comparison (on distances in no
// useful order such a branch is mispredicted about half the time, which cost more than the
// comparisons), and no key is read back from where the loop has just written (an in-place scheme
// reloads its store position every step).
Key* partition_around(Key* first, Key* last, Key* pivot, Key* out) {
  std::iter_swap(first, pivot);
  const Key p = *first;
  Key* left = out;
  Key* right = out + (last - first) - 1;
  for (const Key* it = first + 1; it != last; ++it) {
    const Key v = *it;
    const bool smaller = v < p;
    *left = v;
    *right = v;
    left += smaller;
    right -= !smaller;
  }
  *left = p;  // left == right: the one place left
  std::copy(out, out + (last - first), first);
  return first + (left - out);
}

// Where the smallest (least = true) or the largest key of a[0..n) is, n >= 1. Four running
// extremes over interleaved quarters: one would make each step wait for the last one's compare
// and select; the keys are distinct, so the extreme found does not depend on the grouping.
template <bool least>
Key* extreme(Key* a, std::size_t n) {
  const auto better = [](Key x, Key y) { return least ? x < y : y < x; };
  std::size_t best[4] = {0, 0, 0, 0};
  std::size_t i = 0;
  for (; i + 4 <= n; i += 4)
    for (std::size_t l = 0; l < 4; ++l)
      best[l] = better(a[i + l], a[best[l]]) ? i + l : best[l];
  std::size_t at = best[0];
  for (std::size_t l = 1; l < 4; ++l)
    if (better(a[best[l]], a[at])) at = best[l];
  for (; i < n; ++i)
    if (better(a[i], a[at])) at = i;
  return a + at;
}

// The median of the keys at a, b and c (by position).
Key* median3(Key* a, Key* b, Key* c) {
  if (*a < *b) return *b < *c ? b : *a < *c ? c : a;
  return *a < *c ? a : *b < *c ? c : b;
}

}  // namespace

// Stretches shorter than this are not worth distributing into buckets.
constexpr std::size_t kBucketed = 64;
constexpr int kBucketBits = 8;  // at most 256 buckets (bucket())

std::size_t DistanceOrder::select_in(std::size_t lo, std::size_t hi, std::size_t j) {
  // Quickselect on [lo, hi): each partition's pivot lands at its own position of the order, so it
  // is settled as well (recorded in pivots_), which narrows the stretches later probes search.
  Key* const base = e_.data();
  // Counted in a local: a member counter might alias the entries and be reloaded and stored at
  // every comparison.
  std::uint64_t count = 0;
  pivots_.clear();
  buffer_.resize(hi - lo);
  // Rounds of partitioning before falling back to std::nth_element's introselect (its own
  // O(n log n) guarantee), should the pivots keep landing near an end.
  int rounds = 2 * static_cast<int>(std::bit_width(hi - lo));
  while (hi - lo > 16) {
    if (rounds-- == 0) {
      std::nth_element(base + lo, base + j, base + hi, [&count](Key a, Key b) {
        ++count;
        return a < b;
      });
      comparisons_ += count;
      return j;
    }
    Key* const first = base + lo;
    Key* const last = base + hi;
    const std::size_t len = hi - lo;
    Key* pivot = len > 128
                     ? median3(median3(first, first + len / 8, first + len / 4),
                               median3(first + 3 * len / 8, first + len / 2, first + 5 * len / 8),
                               median3(first + 3 * len / 4, first + 7 * len / 8, last - 1))
                     : median3(first, first + len / 2, last - 1);
    count += len > 128 ? 12 : 3;
    const auto at =
        static_cast<std::size_t>(partition_around(first, last, pivot, buffer_.data()) - base);
    count += len - 1;
    if (at == j) {
      comparisons_ += count;
      return j;
    }
    pivots_.push_back(at);
    if (j < at)
      hi = at;
    else
      lo = at + 1;
  }
  // A short stretch: insertion sort, which settles all of it.
  for (std::size_t i = lo + 1; i < hi; ++i) {
    const Key v = base[i];
    std::size_t t = i;
    while (t > lo && (++count, v < base[t - 1])) {
      base[t] = base[t - 1];
      --t;
    }
    base[t] = v;
  }
  comparisons_ += count;
  return j;
}

void DistanceOrder::bucket(std::size_t lo, std::size_t hi) {
  // A distance's bits, the key's upper half, order as the distances do, and so do their leading
  // bits: bucket i holds the keys whose bits lie in [min + i 2^shift, min + (i+1) 2^shift), so
  // every key of a bucket is smaller than every key of the next. A crowded bucket is left to
  // select_in like any stretch.
  Key* const base = e_.data();
  // The range of the whole order's bits (assign()) holds the stretch's.
  const std::uint64_t low = least_, high = most_;
  // About two keys a bucket where the distances are spread evenly, 2^(width-1) <= (hi - lo) / 2 <
  // 2^width, but at most 2^kBucketBits buckets: the counts stay in the first-level cache and the
  // scatter writes to few enough places at once that a long order is not slower than by
  // partitioning (at n = 10^4 .. 10^6, bench_ssac's BM_Phase2Order and BM_FitLarge).
  const int width = std::min(static_cast<int>(std::bit_width((hi - lo) / 2)), kBucketBits);
  const int range = std::bit_width(high - low);  // high - low < 2^range
  const int shift = std::max(0, range - width);  // so the bucket numbers are below 2^width
  const std::size_t count = std::size_t{1} << width;
  buckets_.assign(count + 1, 0);
  for (std::size_t i = lo; i < hi; ++i)
    ++buckets_[((bits(base[i]) - low) >> shift) + 1];
  buckets_[0] = lo;
  for (std::size_t b = 1; b <= count; ++b)
    buckets_[b] += buckets_[b - 1];
  cursor_.assign(buckets_.begin(), buckets_.end() - 1);
  buffer_.resize(e_.size());
  Key* const out = buffer_.data();
  for (std::size_t i = lo; i < hi; ++i)
    out[cursor_[(bits(base[i]) - low) >> shift]++] = base[i];
  // The keys outside the stretch (x_1's, at most) join them there, and the two trade places.
  std::copy(base, base + lo, out);
  std::copy(base + hi, base + e_.size(), out + hi);
  e_.swap(buffer_);
}

DistanceOrder::Entry DistanceOrder::at(std::size_t j) {
  if (method_ == OrderMethod::sort) return entry(e_[j]);
  const auto next = std::lower_bound(settled_.begin(), settled_.end(), j);
  if (next != settled_.end() && *next == j) return entry(e_[j]);
  // The stretch [lo, hi) between the settled neighbours of j holds exactly the entries of
  // positions lo..hi-1; putting the one of position j at j keeps that true on both sides.
  std::size_t lo = next == settled_.begin() ? 0 : *(next - 1) + 1;
  std::size_t hi = next == settled_.end() ? e_.size() : *next;
  // The first long stretch is distributed into buckets once; from then on j's stretch is also
  // within its bucket, and positions holding exactly their own entries on two counts hold them on
  // the overlap. Binary search's probes then select among a bucket's few keys instead of
  // partitioning the whole stretch, several times, around pivots that need not be near j.
  if (buckets_.empty() && hi - lo >= kBucketed) bucket(lo, hi);
  if (!buckets_.empty()) {
    // j's bucket: the last b with buckets_[b] <= j (buckets_[0] = 0 <= j < buckets_.back()), by
    // halving steps over the 2^width buckets with a select each, where std::upper_bound's
    // branches went either way at random.
    const std::size_t* const start = buckets_.data();
    std::size_t b = 0;
    for (std::size_t step = (buckets_.size() - 1) / 2; step > 0; step /= 2)
      b = start[b + step] <= j ? b + step : b;
    lo = std::max(lo, start[b]);
    hi = std::min(hi, start[b + 1]);
  }
  if (hi - lo == 1) {
    settled_.insert(next, j);
    return entry(e_[j]);
  }
  if (j == lo || j + 1 == hi) {
    // The smallest of the stretch (x_1 of Algorithms 3 and 4) or the largest: one pass.
    Key* const first = e_.data() + lo;
    std::iter_swap(e_.data() + j,
                   j == lo ? extreme<true>(first, hi - lo) : extreme<false>(first, hi - lo));
    comparisons_ += hi - lo - 1;
    settled_.insert(next, j);
    return entry(e_[j]);
  }
  select_in(lo, hi, j);
  // j and the pivots that landed on the way, all inside (lo, hi), in increasing order.
  pivots_.push_back(j);
  std::sort(pivots_.begin(), pivots_.end());
  settled_.insert(next, pivots_.begin(), pivots_.end());
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
