// Prints random instances of Phase 2's search and lib's own search on each (run_ssac with
// Algorithm 2, Search::random, or Algorithm 4, Search::unified; beta = 1), for comparison with
// the search extracted from proofs-notes/coq/BinarySearch.v (search-differential-test.sh).
//
// Instance: k = 1, eta = 1, so Phase 1 draws row 0 (x = 0) and mu'_1 = 0; rows 1..N-1 lie at
// integer distances 1..1+N/3 on either side (ties, broken by the lower row, S6). The answer to
// Q(row 0, x) is the instance's letter at x's position in the S6 order (Y yes, N no, U not-sure);
// position 0 is row 0 itself, "in" without a query (S4), so its letter is Y. Line printed:
//   A2|A4 LETTERS : PROBED POSITIONS = j* | fail
// Usage: coq_search_driver COUNT SEED
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <random>
#include <string>
#include <vector>

#include "ssac/ssac.hpp"

namespace {

class LetterOracle : public ssac::Oracle {
 public:
  explicit LetterOracle(std::vector<char> by_row) : by_row_(std::move(by_row)) {}
  ssac::Answer query(std::size_t x, std::size_t y) override {
    const char c = by_row_[x == 0 ? y : x];
    return c == 'Y' ? ssac::Answer::Yes : c == 'N' ? ssac::Answer::No : ssac::Answer::NotSure;
  }

 private:
  std::vector<char> by_row_;
};

// Phase 1 draws row 0 (the first of S_1 in row order); B is drawn from Z_1 = {row 0}.
class FirstChooser : public ssac::Chooser {
 public:
  std::size_t choose(const std::vector<std::size_t>&, ssac::Draw) override { return 0; }
};

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: coq_search_driver COUNT SEED\n";
    return 2;
  }
  const long count = std::atol(argv[1]);
  std::mt19937_64 rng(std::strtoull(argv[2], nullptr, 10));
  auto below = [&rng](std::uint64_t m) { return rng() % m; };  // m is small: bias negligible
  for (long i = 0; i < count; ++i) {
    const bool unified = i % 2 == 1;
    const long kind = (i / 2) % 6;
    const std::size_t n = kind == 5 ? 1 : 1 + below(i % 50 == 0 ? 200 : 33);
    // Letters by position: 0 prefix-monotone, 1 all in, 2 all out (but position 0), 3 monotone
    // with not-sure answers after the boundary, 4 and 5 (n = 1) arbitrary.
    const std::size_t b = 1 + below(n);
    std::string letters(n, 'Y');
    for (std::size_t p = 1; p < n; ++p) {
      switch (kind) {
        case 0:
          letters[p] = p < b ? 'Y' : 'N';
          break;
        case 1:
          letters[p] = 'Y';
          break;
        case 2:
          letters[p] = 'N';
          break;
        case 3:
          letters[p] = p < b ? 'Y' : "NU"[below(2)];
          break;
        default:
          letters[p] = "YNU"[below(3)];
          break;
      }
    }
    // Points and their S6 order: (|x|, row).
    ssac::Matrix X(static_cast<Eigen::Index>(n), 1);
    X(0, 0) = 0;
    const std::uint64_t spread = 1 + n / 3;
    for (std::size_t r = 1; r < n; ++r) {
      const double d = static_cast<double>(1 + below(spread));
      X(static_cast<Eigen::Index>(r), 0) = below(2) ? d : -d;
    }
    std::vector<std::size_t> order(n);
    for (std::size_t r = 0; r < n; ++r)
      order[r] = r;
    std::sort(order.begin(), order.end(), [&X](std::size_t a, std::size_t c) {
      const double da = std::abs(X(static_cast<Eigen::Index>(a), 0));
      const double dc = std::abs(X(static_cast<Eigen::Index>(c), 0));
      return da != dc ? da < dc : a < c;
    });
    std::vector<char> by_row(n);
    for (std::size_t p = 0; p < n; ++p)
      by_row[order[p]] = letters[p];
    LetterOracle oracle(by_row);
    FirstChooser chooser;
    ssac::Params P;
    P.k = 1;
    P.eta = 1;
    P.beta = 1;
    P.search = unified ? ssac::Search::unified : ssac::Search::random;
    const ssac::Result R = ssac::run_ssac(X, oracle, chooser, P);
    const ssac::Iteration& it = R.iterations.at(0);
    std::cout << (unified ? "A4 " : "A2 ") << letters << " :";
    for (const auto& s : it.steps)
      std::cout << ' ' << s.j;
    if (it.outcome == ssac::Outcome::search_failed)
      std::cout << " = fail\n";
    else
      std::cout << " = " << it.j_star << '\n';
  }
  return 0;
}
