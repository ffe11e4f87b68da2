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
  void before_iterations() override {
    if (!seeds_.known_from_start) return;
    for (std::size_t row : seeds_.rows)
      open_cluster(row);
  }
  // The seed of the oracle's cluster that t's known rows belong to (a known row of t is its
  // opener or a row placed or labelled in t, all of the oracle's one cluster while no answer is
  // wrong, as no answer of a distance-weak oracle is).
  const std::vector<std::size_t>& anchor_pool(int t) override {
    const std::vector<std::size_t>& rows = Run::anchor_pool(t);
    if (rows.empty()) return rows;
    const int cluster = seeds_.labels[rows.front()];
    pool_.assign(1, seeds_.rows[static_cast<std::size_t>(cluster - 1)]);
    return pool_;
  }

 private:
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
  if (seeds.known_from_start && seeds.rows.size() != static_cast<std::size_t>(params.k))
    throw ParameterError("seeded anchors: " + std::to_string(seeds.rows.size()) +
                         " seeds known from the start for k = " + std::to_string(params.k));
  Params P = params;
  P.rules.anchor = seeds.known_from_start ? AnchorRule::opener : AnchorRule::random_known_row;
  UniformChooser chooser(Rng::stream(seed, {kStreamAlgorithm}));
  RunObserver none;
  return SeededRun(X, oracle, chooser, P, observer ? *observer : none, seeds).run();
}

}  // namespace ssac::testing
