// Uses the installed package as another project would: a dataset from the generator of
// Section 5.1 (well separated), Algorithm 1 with a perfect oracle (Definition 3), and Theorem 1's
// eta for it.
#include <iostream>

#include "ssac/generator.hpp"
#include "ssac/oracle.hpp"
#include "ssac/ssac.hpp"
#include "ssac/theory/bounds.hpp"
#include "ssac/version.hpp"

int main() {
  ssac::GeneratorParams g;  // n = 1500, m = 2, k = 3, sigma = 1.75
  g.gamma_min = 1.3;        // well separated: a perfect oracle recovers every cluster
  g.gamma_max = 1e9;
  g.seed = 7;
  const ssac::Generated data = ssac::generate(g);
  ssac::PerfectOracle oracle(data.data.labels);
  ssac::Params p;
  p.k = 3;
  p.eta = 20;
  const ssac::Result r = ssac::run_ssac(data.data.points, oracle, p, 7);
  const double eta = ssac::theory::eta_random<double>(3, 2, 0.05, 1.5, 1.0);
  std::cout << "ssac " << ssac::kVersion << ": " << r.clusters_recovered << " clusters"
            << (r.failed ? ", failed" : "") << "; Theorem 1 eta(k=3, m=2, delta=0.05, "
            << "gamma=1.5, q=1) = " << eta << "\n";
  return r.failed ? 1 : 0;
}
