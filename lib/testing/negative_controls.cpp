#include "ssac/testing/negative_controls.hpp"

#include <map>
#include <set>
#include <utility>
#include <vector>

#include "algorithm/run.hpp"

namespace ssac::testing {

namespace {

class FaultyRun : public detail::Run {
 public:
  FaultyRun(const Matrix& X, Oracle& oracle, Chooser& chooser, const Params& params,
            RunObserver& observer, Fault fault)
      : Run(X, oracle, chooser, params, observer), fault_(fault) {}

 protected:
  int choose_cluster(const std::vector<std::size_t>& counts) const override {
    int p = Run::choose_cluster(counts);
    if (fault_ != Fault::p_not_argmax || p == 0) return p;
    // The smallest non-empty Z_t instead of the largest (earliest among equals).
    for (std::size_t t = 0; t < counts.size(); ++t)
      if (counts[t] > 0 && counts[t] < counts[static_cast<std::size_t>(p - 1)])
        p = static_cast<int>(t + 1);
    return p;
  }
  Vector estimate_center(const std::vector<std::size_t>& zp, const Iteration& it) const override {
    if (fault_ == Fault::mean_over_all_samples) return mean_of_rows(X_, it.sample);
    return Run::estimate_center(zp, it);
  }
  std::size_t reference_point(detail::DistanceOrder& order) const override {
    if (fault_ == Fault::wrong_x1) return order.at(order.size() - 1).second;
    return Run::reference_point(order);
  }
  std::size_t stop_position(std::size_t lo) const override {
    return Run::stop_position(lo) + (fault_ == Fault::off_by_one_search ? 1 : 0);
  }
  void on_placed(std::size_t x, int t) override {
    if (fault_ != Fault::anchor_by_placements) return;
    Pool& p = pools_[t];
    p.rows.resize(p.rows.size() - p.tail);
    p.tail = 0;
    p.rows.push_back(x);
    placed_in_.insert({x, t});
  }
  // Z_t, every Phase-1 draw placed in t so far (the opener's first draw among them), then each
  // known row of t that was never placed in t (a row labelled by Phase 2 only) once: a uniform
  // position of it draws a row with weight its placements. Z_t is kept across calls and only
  // appended to, so a call costs O(n), not O(|Z_t|).
  const std::vector<std::size_t>& anchor_pool(int t) override {
    if (fault_ != Fault::anchor_by_placements) return Run::anchor_pool(t);
    Pool& p = pools_[t];
    p.rows.resize(p.rows.size() - p.tail);
    p.tail = 0;
    for (std::size_t x : known_rows(t))
      if (placed_in_.count({x, t}) == 0) {
        p.rows.push_back(x);
        ++p.tail;
      }
    return p.rows;
  }

 private:
  struct Pool {
    std::vector<std::size_t> rows;  // Z_t in draw order, then `tail` rows never placed in t
    std::size_t tail = 0;
  };
  Fault fault_;
  std::map<int, Pool> pools_;
  std::set<std::pair<std::size_t, int>> placed_in_;  // (row, t) placed at least once
};

}  // namespace

Result run_ssac_with_fault(const Matrix& X, Oracle& oracle, Chooser& chooser, const Params& params,
                           Fault fault, RunObserver* observer) {
  RunObserver none;
  return FaultyRun(X, oracle, chooser, params, observer ? *observer : none, fault).run();
}

Result run_ssac_with_fault(const Matrix& X, Oracle& oracle, const Params& params,
                           std::uint64_t seed, Fault fault, RunObserver* observer) {
  UniformChooser chooser(Rng::stream(seed, {kStreamAlgorithm}));
  return run_ssac_with_fault(X, oracle, chooser, params, fault, observer);
}

}  // namespace ssac::testing
