// The depth-first walk over a run's decisions and the branching chooser (ssac/exact.hpp), which
// every engine of the exact enumerator drives the reference with.
#include <algorithm>
#include <stdexcept>

#include "ssac/exact.hpp"

namespace ssac {

namespace mp = boost::multiprecision;

// ---------------------------------------------------------------------------------------------
// The depth-first walk.

std::size_t Branches::take(std::size_t options, bool& counted) {
  counted = pos_ >= prefix_.size();
  if (!counted) return prefix_[pos_++];
  const std::size_t d = pos_ - prefix_.size();
  if (d == path_.size()) {
    path_.push_back(0);
    options_.push_back(static_cast<std::uint32_t>(options));
  } else if (options_[d] != options) {
    // The reference is deterministic given its decisions, so a replay meets the same events.
    throw std::logic_error("exact enumeration: a replay met a different random event");
  }
  ++pos_;
  return path_[d];
}

std::size_t Branches::decide(const std::vector<Rational>& probabilities) {
  bool counted = false;
  const std::size_t o = take(probabilities.size(), counted);
  if (counted) {
    numerator_ *= mp::numerator(probabilities[o]);
    denominator_ *= mp::denominator(probabilities[o]);
  }
  return o;
}

std::size_t Branches::decide(const std::vector<std::size_t>& counts, std::size_t total) {
  bool counted = false;
  const std::size_t o = take(counts.size(), counted);
  if (counted) {
    numerator_ *= counts[o];
    denominator_ *= total;
  }
  return o;
}

std::vector<std::uint32_t> Branches::taken() const {
  std::vector<std::uint32_t> all(
      prefix_.begin(),
      prefix_.begin() + static_cast<std::ptrdiff_t>(std::min(pos_, prefix_.size())));
  const std::size_t used = pos_ > prefix_.size() ? pos_ - prefix_.size() : 0;
  all.insert(all.end(), path_.begin(), path_.begin() + static_cast<std::ptrdiff_t>(used));
  return all;
}

void Branches::restart() {
  pos_ = 0;
  numerator_ = 1;
  denominator_ = 1;
}

bool Branches::next() {
  const std::size_t used = pos_ > prefix_.size() ? pos_ - prefix_.size() : 0;
  path_.resize(std::min(used, path_.size()));
  options_.resize(path_.size());
  while (!path_.empty()) {
    if (path_.back() + 1 < options_.back()) {
      ++path_.back();
      return true;
    }
    path_.pop_back();
    options_.pop_back();
  }
  return false;
}

std::size_t BranchingChooser::choose(const std::vector<std::size_t>& pool, Draw what) {
  // Distinct rows (or labels, when lumped) in order of first position, each with its count.
  first_.clear();
  count_.clear();
  const std::vector<int>* lump = what == Draw::search_sample ? lump_ : nullptr;
  const auto same = [&](std::size_t a, std::size_t b) {
    return lump ? (*lump)[a] == (*lump)[b] : a == b;
  };
  for (std::size_t i = 0; i < pool.size(); ++i) {
    std::size_t f = 0;
    while (f < first_.size() && !same(pool[first_[f]], pool[i]))
      ++f;
    if (f == first_.size()) {
      first_.push_back(i);
      count_.push_back(0);
    }
    ++count_[f];
  }
  return first_[b_.decide(count_, pool.size())];
}

}  // namespace ssac
