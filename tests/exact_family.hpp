// What the exact engines' differential tests (test_exact_states.cpp, test_exact_counts.cpp) share:
// the oracles and the rules their generated families take by turns, and the law they compare.
#pragma once

#include <map>
#include <utility>
#include <vector>

#include "ssac/exact.hpp"
#include "ssac/oracle_spec.hpp"
#include "ssac/rules.hpp"

namespace ssac::exact_family {

struct OracleCase {
  OracleKind kind;
  OracleMemory memory;
  Rational q;
};

// The rules an instance runs under, one of these by turns: the paper's, self-pairs=off, the
// random anchor rules (one with the sample cap), the authors' code, lowest-labelled-row with
// empty-recovers and prefix labels.
inline Rules rules_of(int which) {
  Rules r;
  switch (which % 6) {
    case 1:
      r.self_pairs = false;
      break;
    case 2:
      r.anchor = AnchorRule::random_known_row;
      break;
    case 3:
      r.anchor = AnchorRule::random_labelled_row;
      r.sample_cap = true;
      break;
    case 4:
      r = authors_code_profile().rules;
      break;
    case 5:
      r.anchor = AnchorRule::lowest_labelled_row;
      r.empty_recovers = true;
      r.assignment = Phase2Labels::prefix;
      break;
    default:
      break;
  }
  return r;
}

using Law = std::map<std::pair<std::vector<int>, int>, Rational>;

// The law of (final labels, clusters recovered).
inline Law law_of(const ExactResult& r) {
  Law l;
  for (const auto& o : r.outcomes)
    l[{o.labels, o.clusters_recovered}] += o.probability;
  return l;
}

}  // namespace ssac::exact_family
