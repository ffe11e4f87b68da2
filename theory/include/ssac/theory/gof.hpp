// Goodness of fit of observed outcome counts to an exact law (`ssac gof`, docs/conformance.md,
// "Distributional conformance"): the exact multinomial test where its tables can be enumerated,
// else the G-test (likelihood ratio) with Williams' correction and its chi-square p-value, and
// exact two-sided Clopper-Pearson intervals for the single outcomes.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

namespace ssac::theory {

// The number of count vectors (y_1..y_K) of whole numbers >= 0 with sum n, C(n + K - 1, K - 1),
// as a double (+inf beyond the largest double).
double multinomial_tables(std::uint64_t n, std::size_t K);

// The exact multinomial test: P(Y's probability <= the observed counts' probability) for
// Y ~ Multinomial(n, p), n = the counts' sum; tables within a relative 1e-9 of the observed
// table's log-probability count as equal. p: positive, summing to 1 (within 1e-9). Throws
// ParameterError when more than `max_tables` tables would have to be enumerated.
double exact_multinomial_p(const std::vector<double>& p, const std::vector<std::uint64_t>& counts,
                           double max_tables = 1e6);

struct GTest {
  double g = 0;         // 2 sum O ln(O / E)
  double williams = 1;  // Williams' divisor q = 1 + (K + 1) / (6 n), K cells
  double df = 0;        // K - 1
  double p_value = 1;   // P(chi-square(df) >= g / q)
};

// The G-test of counts against the probabilities p (positive, summing to 1). Needs K >= 2 cells.
GTest g_test(const std::vector<double>& p, const std::vector<std::uint64_t>& counts);

// Cells for the G-test: outcome i goes to cell[i]. Outcomes whose expected count n p_i is below
// `min_expected` share one cell, which is merged into the smallest other cell when its own
// expected count is still below `min_expected`; the others keep a cell each, in order. Returns
// the cell of every outcome and the number of cells.
std::pair<std::vector<std::size_t>, std::size_t> pool_cells(const std::vector<double>& p,
                                                            std::uint64_t n,
                                                            double min_expected = 5.0);

// The exact two-sided Clopper-Pearson interval for a binomial proportion after `x` successes in
// `n` trials at confidence 1 - alpha (alpha / 2 in each tail).
std::pair<double, double> clopper_pearson(std::uint64_t x, std::uint64_t n, double alpha);

}  // namespace ssac::theory
