#include "ssac/testing/seeded_anchors.hpp"

#include <string>
#include <vector>

#include "algorithm/run.hpp"
#include "ssac/error.hpp"

namespace ssac::testing {

namespace {

class SeededRun : public detail::Run {
 public:
  SeededRun(const Matrix& X, Oracle& oracle, Chooser& chooser, const Params& params,
            RunObserver& observer, const SeededAnchors& seeds)
      : Run(X, oracle, chooser, params, observer), seeds_(seeds) {}

 protected:
  // The seed of the oracle's cluster that t's known rows belong to (a known row of t is its
  // opener or a row placed or labelled in t, all of the oracle's one cluster while no answer is
  // wrong, as no answer of a distance-weak oracle is).
  const std::vector<std::size_t>& anchor_pool(int t) override {
    const std::vector<std::size_t>& rows = Run::anchor_pool(t);
    if (rows.empty()) return rows;
    pool_.assign(1, seed_of(rows.front()));
    return pool_;
  }
  // Theorem 3': the seeds of the oracle's clusters that no known cluster stands for, in cluster
  // order; the first yes opens a cluster at x (its anchor is then that seed, through anchor_pool).
  int unplaced(std::size_t x) override {
    if (!seeds_.seeds_asked) return 0;
    std::vector<char> known(seeds_.rows.size(), 0);
    for (int t = 1; t <= static_cast<int>(seeds_.rows.size()); ++t) {
      const std::vector<std::size_t> rows = known_rows(t);
      if (!rows.empty()) known[static_cast<std::size_t>(seeds_.labels[rows.front()] - 1)] = 1;
    }
    for (std::size_t c = 0; c < seeds_.rows.size(); ++c)
      if (!known[c] && ask(x, seeds_.rows[c], 1, Purpose::assignment) == Answer::Yes)
        return open_cluster(x);
    return 0;
  }

 private:
  std::size_t seed_of(std::size_t row) const {
    return seeds_.rows[static_cast<std::size_t>(seeds_.labels[row] - 1)];
  }
  const SeededAnchors& seeds_;
  std::vector<std::size_t> pool_;
};

}  // namespace

Result run_ssac_with_seeds(const Matrix& X, Oracle& oracle, const Params& params,
                           std::uint64_t seed, const SeededAnchors& seeds, RunObserver* observer) {
  const std::size_t n = static_cast<std::size_t>(X.rows());
  if (seeds.labels.size() != n)
    throw ParameterError("seeded anchors: " + std::to_string(seeds.labels.size()) + " labels for " +
                         std::to_string(n) + " rows");
  for (std::size_t row : seeds.rows)
    if (row >= n)
      throw ParameterError("seeded anchors: seed row " + std::to_string(row) + " outside 0.." +
                           std::to_string(n - 1));
  if (seeds.rows.size() != static_cast<std::size_t>(params.k))
    throw ParameterError("seeded anchors: " + std::to_string(seeds.rows.size()) +
                         " seeds for k = " + std::to_string(params.k));
  Params P = params;
  P.rules.anchor = AnchorRule::random_known_row;
  UniformChooser chooser(Rng::stream(seed, {kStreamAlgorithm}));
  RunObserver none;
  return SeededRun(X, oracle, chooser, P, observer ? *observer : none, seeds).run();
}

}  // namespace ssac::testing
