// The conformance corpus's data sets and cases (conformance_cases.hpp). Entries are only ever
// appended: a case's position gives its test id, and the ids of published vectors do not move.
// About 470 lines, one job: the table of data sets and cases, read top to bottom in test-id order
// (the authors-code cases, a table of their own, live in conformance_rules.cpp).
#include "conformance/conformance_cases.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <utility>

namespace ssac::cli::conformance {

using json = nlohmann::ordered_json;

namespace {

Data make_data(std::string name, std::string description,
               const std::vector<std::vector<double>>& pts, std::vector<int> labels) {
  Data d{std::move(name), std::move(description), Matrix(pts.size(), pts.front().size()),
         std::move(labels)};
  for (std::size_t i = 0; i < pts.size(); ++i)
    for (std::size_t c = 0; c < pts[i].size(); ++c)
      d.X(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(c)) = pts[i][c];
  return d;
}

bool any_outcome(const Result& R, Outcome o) {
  for (const auto& it : R.iterations)
    if (it.outcome == o) return true;
  return false;
}
// A probed point x_j of the binary search at exactly the same distance from mu'_p as another
// point of S_i: the order between them is the reference's tie rule (by row, semantics S6).
bool distance_tie(const Result& R, const Data& d) {
  std::vector<char> gone(d.labels.size(), 0);
  for (const auto& it : R.iterations) {
    for (const auto& st : it.steps)
      for (std::size_t x = 0; x < d.labels.size(); ++x)
        if (!gone[x] && x != st.row &&
            distance(d.X, x, it.center) == distance(d.X, st.row, it.center))
          return true;
    for (std::size_t x : it.members)
      gone[x] = 1;
  }
  return false;
}

}  // namespace

// The data sets: integer coordinates, so that every mean of a few points and every distance is
// computed exactly or with one correctly rounded square root, on any IEEE-754 machine.
std::vector<Data> datasets() {
  return {
      make_data("three_squares", "three unit squares 10 apart, 4 points each",
                {{0, 0},
                 {1, 0},
                 {0, 1},
                 {1, 1},
                 {10, 0},
                 {11, 0},
                 {10, 1},
                 {11, 1},
                 {0, 10},
                 {1, 10},
                 {0, 11},
                 {1, 11}},
                {1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3}),
      make_data("two_lines", "two clusters on a line, 0..3 and 20..22",
                {{0}, {1}, {2}, {3}, {20}, {21}, {22}}, {1, 1, 1, 1, 2, 2, 2}),
      make_data(
          "symmetric", "points placed symmetrically, so distances to a mean tie",
          {{-2, 0}, {2, 0}, {0, -2}, {0, 2}, {-1, 0}, {1, 0}, {20, 0}, {22, 0}, {21, 1}, {21, -1}},
          {1, 1, 1, 1, 1, 1, 2, 2, 2, 2}),
      make_data("duplicates", "repeated points inside and across draws",
                {{0, 0}, {0, 0}, {0, 0}, {1, 1}, {1, 1}, {9, 9}, {9, 9}, {10, 10}},
                {1, 1, 1, 1, 1, 2, 2, 2}),
      make_data("five_points", "five points, fewer than one iteration's draws",
                {{0, 0}, {1, 0}, {2, 0}, {10, 0}, {11, 0}}, {1, 1, 1, 2, 2}),
      // Data sets added later come last, so that the ids of the earlier vectors do not move.
      make_data("three_lines", "three clusters on a line, 0..3, 10..13 and 20..23",
                {{0}, {1}, {2}, {3}, {10}, {11}, {12}, {13}, {20}, {21}, {22}, {23}},
                {1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3}),
      // For the authors-code rules (S9): A = 0, 2, 4, 6, 8 with B's 5 and C's 9 among its points,
      // so that a radius around A's centre can take them in, and the rows in shuffled order, so
      // that the lowest labelled row of a cluster need not be one of its own (make_blobs shuffles).
      make_data("overlap_shuffled",
                "three clusters on a line, A = 0..8 holding B's 5 and C's 9, rows shuffled",
                {{20}, {4}, {40}, {5}, {0}, {42}, {8}, {22}, {2}, {9}, {44}, {6}, {24}},
                {2, 1, 3, 2, 1, 3, 1, 2, 1, 3, 3, 1, 2}),
  };
}

std::vector<Case> cases(Search s) {
  const bool plain = s == Search::plain;
  std::vector<Case> c;
  auto ok = [](const Result& R, const Data&, const Params&) { return R.status == "ok"; };
  // Checked by run_case on the weak oracle's own answers (before any coin flip, CoinFlip).
  auto with_not_sure = [](const Result&, const Data&, const Params&) { return true; };
  const OracleSpec perfect, random07{OracleKind::random, 0.7},
      local{OracleKind::local, 1.0, 1.5, 0.5}, global{OracleKind::global, 1.0, 1.0, 0.5},
      random03{OracleKind::random, 0.3}, random05{OracleKind::random, 0.5};
  c.push_back({"three_squares",
               "perfect oracle, every cluster recovered",
               {"PerfectOracle"},
               3,
               2.0,
               3,
               true,
               perfect,
               ok});
  c.push_back({"three_squares",
               "random-weak oracle (Definition 5) with not-sure answers",
               {"RandomWeakOracle"},
               3,
               3.0,
               3,
               true,
               random07,
               with_not_sure});
  c.push_back({"three_squares",
               "local distance-weak oracle (Definition 6) with not-sure answers",
               {"LocalDistanceWeakOracle"},
               3,
               3.0,
               3,
               true,
               local,
               with_not_sure});
  c.push_back({"three_squares",
               "global distance-weak oracle (Definition 7) with not-sure answers",
               {"GlobalDistanceWeakOracle"},
               3,
               3.0,
               3,
               true,
               global,
               with_not_sure});
  c.push_back({"three_squares",
               "authors' cluster-assignment rule (no elimination, semantics S2)",
               {"AssignmentRuleCode", "RandomWeakOracle"},
               3,
               3.0,
               3,
               false,
               random07,
               with_not_sure});
  c.push_back({"two_lines",
               "k = 1: one iteration, every point is one cluster",
               {"KEqualsOne"},
               1,
               3.0,
               2,
               true,
               perfect,
               ok});
  c.push_back({"duplicates",
               "duplicate points: equal distances and repeated draws",
               {"DuplicatePoints"},
               2,
               3.0,
               2,
               true,
               perfect,
               ok});
  Case tie{"symmetric",
           "a binary-search probe at a distance shared with another point",
           {"DistanceTie"},
           2,
           2.0,
           2,
           true,
           perfect,
           [](const Result& R, const Data& d, const Params&) { return distance_tie(R, d); }};
  tie.acceptable = true;
  c.push_back(tie);
  c.push_back({"five_points",
               "r = ceil(k eta) = 8 draws from |S_1| = 5 points",
               {"SampleLargerThanRemainder"},
               2,
               4.0,
               2,
               true,
               perfect,
               [](const Result& R, const Data&, const Params& P) {
                 return P.sample_size() > R.iterations.front().remaining;
               }});
  c.push_back({"two_lines",
               "k = 3 > 2 oracle clusters: S_3 is empty, iteration 3 is skipped",
               {"SEmptiedEarly", "FewerThanK"},
               3,
               2.0,
               2,
               true,
               perfect,
               [](const Result& R, const Data&, const Params&) {
                 return any_outcome(R, Outcome::empty_remainder);
               }});
  c.push_back({"three_squares",
               "Phase 1 of an iteration gets only not-sure answers",
               {"Phase1AllNotSure", "FewerThanK"},
               3,
               1.0,
               2,
               true,
               OracleSpec{OracleKind::random, 0.1},
               [](const Result& R, const Data&, const Params&) {
                 return any_outcome(R, Outcome::phase1_all_not_sure);
               }});
  // With a truthful oracle Algorithm 2 never recovers part of a cluster (a definite answer is
  // correct, all not-sure is fail), so only the other searches can revisit p.
  if (s != Search::random)
    c.push_back({"three_squares",
                 "a cluster chosen again after a partial recovery",
                 {"RevisitedCluster"},
                 3,
                 2.0,
                 2,
                 true,
                 plain ? random05 : random03,
                 [](const Result& R, const Data&, const Params&) {
                   for (const auto& it : R.iterations)
                     if (it.revisited) return true;
                   return false;
                 }});
  if (s == Search::random)
    c.push_back({"three_squares",
                 "Algorithm 2 returns fail: all beta answers not-sure",
                 {"BetaFail", "FewerThanK"},
                 3,
                 3.0,
                 1,
                 true,
                 random03,
                 [](const Result& R, const Data&, const Params&) {
                   return any_outcome(R, Outcome::search_failed);
                 }});
  for (auto& x : c)
    x.needs_abstention = x.comment.find("with not-sure") != std::string::npos ||
                         x.flags.front() == "AssignmentRuleCode";
  for (auto& x : c)
    if (plain && x.oracle.kind != OracleKind::perfect) x.flags.push_back("CoinFlip");
  // k = 2 below the oracle's 3 clusters: a point of the third cluster that answers no to one
  // anchor and not-sure to the other is not eliminated into the not-sure one (Params::eliminates).
  // The original SSAC never sees a not-sure (coin flips), so it has no such case.
  if (!plain)
    c.push_back({"three_lines",
                 "k below the oracle's clusters: elimination does not apply",
                 {"KBelowOracleClusters", "RandomWeakOracle"},
                 2,
                 3.0,
                 3,
                 true,
                 random05,
                 [](const Result& R, const Data& d, const Params&) {
                   std::vector<QueryRecord> q;
                   for (const auto& r : R.queries)
                     if (r.phase == 1 && r.iteration >= 2) q.push_back(r);
                   for (std::size_t i = 0; i + 1 < q.size(); ++i)
                     if (q[i].x == q[i + 1].x && d.labels[q[i].x] == 3 &&
                         ((q[i].answer == Answer::No && q[i + 1].answer == Answer::NotSure) ||
                          (q[i].answer == Answer::NotSure && q[i + 1].answer == Answer::No)))
                       return true;
                   return false;
                 }});
  // Appended later (on three_lines, the last data set, so that no earlier tcId moves).
  // k eta not an integer: r = ceil(k eta) of the exact product (Algorithm 1, line 1). With
  // eta = nextafter(1/3, 1) the exact 3 eta is 1 + 2^-53, which the double product rounds to 1.
  auto non_integer = [](const Result&, const Data&, const Params& P) {
    const double kd = P.k, prod = kd * P.eta;
    return std::ceil(prod) != prod || std::fma(kd, P.eta, -prod) != 0.0;
  };
  c.push_back({"three_lines",
               "k eta = 7.5 is not an integer: r = ceil(k eta) = 8",
               {"NonIntegerKEta"},
               3,
               2.5,
               2,
               true,
               perfect,
               non_integer});
  c.push_back({"three_lines",
               "eta = nextafter(1/3, 1), k = 3: the exact k eta is just above 1, r = 2",
               {"NonIntegerKEta", "KEtaRoundsToInteger"},
               3,
               std::nextafter(1.0 / 3.0, 1.0),
               2,
               true,
               perfect,
               [non_integer](const Result& R, const Data& d, const Params& P) {
                 const double prod = P.k * P.eta;  // rounded: exactly 1
                 return non_integer(R, d, P) && std::ceil(prod) == prod &&
                        P.sample_size() == static_cast<std::uint64_t>(prod) + 1;
               }});
  // Not-sure answers from each condition of Definitions 6 and 7. A distance-weak oracle abstains
  // on a pair of different clusters only by condition (a), on a pair of one cluster only by (b).
  // The original SSAC sees coin flips instead, so it has no such cases.
  auto not_sure = [](bool same) {
    return [same](const Result& R, const Data& d, const Params&) {
      for (const auto& q : R.queries)
        if (q.answer == Answer::NotSure && (d.labels[q.x] == d.labels[q.y]) == same) return true;
      return false;
    };
  };
  if (!plain) {
    // nu = 6: (3, 10) at distance 7 < 5 min(1.5, 1.5); rho = 1: no pair of a cluster is too far.
    c.push_back({"three_lines",
                 "Definition 6 (a): not-sure for a close pair of different clusters",
                 {"NotSureDefinition6a", "LocalDistanceWeakOracle"},
                 3,
                 3.0,
                 3,
                 true,
                 OracleSpec{OracleKind::local, 1.0, 6.0, 1.0},
                 not_sure(false)});
    // nu = 1: condition (a) never holds; rho = 0.8: (0, 3) at distance 3 > 2 rho r(C_1) = 2.4.
    c.push_back({"three_lines",
                 "Definition 6 (b): not-sure for a far pair of one cluster",
                 {"NotSureDefinition6b", "LocalDistanceWeakOracle"},
                 3,
                 3.0,
                 3,
                 true,
                 OracleSpec{OracleKind::local, 1.0, 1.0, 0.8},
                 not_sure(true)});
    // rho = 0.5: the end points of each cluster lie outside rho r(C_i) = 0.75 (condition (a)),
    // pairs of one cluster farther apart than 1.5 are not-sure (condition (b)).
    c.push_back({"three_lines",
                 "Definition 7 (a) and (b): not-sure for hard points and far pairs",
                 {"NotSureDefinition7a", "NotSureDefinition7b", "GlobalDistanceWeakOracle"},
                 3,
                 3.0,
                 3,
                 true,
                 OracleSpec{OracleKind::global, 1.0, 1.0, 0.5},
                 [not_sure](const Result& R, const Data& d, const Params& P) {
                   return not_sure(false)(R, d, P) && not_sure(true)(R, d, P);
                 }});
  }
  // The authors-code profile (S9): appended last (conformance_rules.cpp).
  if (!plain) add_authors_code_cases(c);
  // The random-weak oracle's memory (Definition 5 leaves it open; proofs-notes/
  // oracle-independence.md), appended as one block after the authors-code cases. A repeated
  // unordered pair: its answers (as the algorithm saw them) all equal, or not.
  auto repeated_pair = [](bool same_answers) {
    return [same_answers](const Result& R, const Data&, const Params&) {
      std::map<std::pair<std::size_t, std::size_t>, Answer> first;
      for (const auto& q : R.queries) {
        const auto [f, added] = first.emplace(std::minmax(q.x, q.y), q.answer);
        if (!added && (f->second == q.answer) == same_answers &&
            (!same_answers || q.answer == Answer::NotSure))
          return true;
      }
      return false;
    };
  };
  OracleSpec per_pair = random05;
  per_pair.memory = OracleMemory::per_pair;
  // The original SSAC sees coin flips, never a remembered not-sure: there the repeated pairs are
  // in the oracle's answers before the flip, and only the change of outcome is a vector.
  if (!plain)
    c.push_back({"three_lines",
                 "per-pair oracle memory: a pair asked again gets its first answer, not-sure",
                 {"OracleMemoryPerPair", "RandomWeakOracle"},
                 3,
                 2.0,
                 2,
                 true,
                 per_pair,
                 repeated_pair(true)});
  Case changes{"three_lines",
               "per-pair oracle memory: the run fails where a fresh oracle, same seed, recovers k",
               {"OracleMemoryPerPair", "MemoryChangesOutcome", "FewerThanK", "RandomWeakOracle"},
               3,
               2.0,
               2,
               true,
               per_pair,
               [plain, repeated_pair](const Result& R, const Data& d, const Params& P) {
                 return R.failed && (plain || repeated_pair(true)(R, d, P));
               }};
  changes.differs_from_fresh = true;
  if (plain) changes.flags.push_back("CoinFlip");
  c.push_back(changes);
  if (!plain)  // the original SSAC's coin flips answer a pair anew under either memory
    c.push_back({"three_lines",
                 "fresh oracle memory: a pair asked again is answered otherwise",
                 {"OracleMemoryFresh", "RandomWeakOracle"},
                 3,
                 2.0,
                 2,
                 true,
                 random05,
                 repeated_pair(false)});
  // B's argument order in Algorithm 4 (on overlap_shuffled, the last data set, after its cases).
  if (s == Search::unified) add_b_order_cases(c);
  return c;
}

json notes() {
  json n;
  auto add = [&](const char* flag, const char* text) { n[flag] = {{"description", text}}; };
  add("PerfectOracle", "The oracle answers every query correctly and never abstains.");
  add("RandomWeakOracle",
      "Definition 5: each query is not-sure with probability 1 - q, otherwise correct.");
  add("LocalDistanceWeakOracle",
      "Definition 6: not-sure for close pairs of different clusters or far pairs of one cluster.");
  add("GlobalDistanceWeakOracle",
      "Definition 7: not-sure for pairs relative to the global radius.");
  add("CoinFlip",
      "The original SSAC assumes a yes/no oracle: every not-sure of the weak oracle was replaced "
      "by a fair coin before the algorithm saw it; the trace holds the answers after the flip.");
  add("AssignmentRuleCode",
      "Cluster-assignment without elimination (the authors' code, semantics S2): only a yes, or "
      "a no from every known anchor, assigns a point.");
  add("KEqualsOne", "k = 1: a single iteration.");
  add("KBelowOracleClusters",
      "k is below the number of the oracle's clusters (the header's oracle_clusters): the "
      "elimination rule does not apply, since the point's cluster need not be among the k "
      "(semantics S2); k-1 no and one not-sure leave the point unassigned.");
  add("DuplicatePoints", "The data holds repeated points; they tie in every distance order.");
  add("DistanceTie",
      "A probed point shares its distance from mu'_p with another point of S_i. The reference "
      "orders ties by row (semantics S6); an implementation with another documented tie rule may "
      "differ here, hence the result 'acceptable'.");
  add("SampleLargerThanRemainder",
      "r = ceil(k eta) exceeds |S_i|: Phase 1 draws with replacement (semantics S1).");
  add("SEmptiedEarly",
      "S_i is empty before iteration k; the remaining iterations are skipped (semantics S8).");
  add("Phase1AllNotSure",
      "Every cluster-assignment query of an iteration's Phase 1 was not-sure: no p exists and "
      "the iteration recovers nothing.");
  add("BetaFail", "Algorithm 2 returned fail: all beta answers of a search step were not-sure.");
  add("FewerThanK", "The run recovers fewer than k clusters (the paper's #Failure).");
  add("RevisitedCluster",
      "Phase 1 chooses a cluster p that an earlier iteration already recovered in part "
      "(semantics S7).");
  add("NonIntegerKEta",
      "k eta is not an integer: r = ceil(k eta) of the exact real product (Algorithm 1, line 1).");
  add("KEtaRoundsToInteger",
      "The double product k * eta rounds to an integer that the exact product exceeds: an "
      "implementation that takes the ceiling of the rounded product draws one point too few.");
  add("NotSureDefinition6a",
      "The local distance-weak oracle abstains by condition (a) of Definition 6: a pair of "
      "different clusters closer than (nu - 1) min(d(x, mu_x), d(y, mu_y)).");
  add("NotSureDefinition6b",
      "The local distance-weak oracle abstains by condition (b) of Definition 6: a pair of one "
      "cluster farther apart than 2 rho r(C).");
  add("NotSureDefinition7a",
      "The global distance-weak oracle abstains by condition (a) of Definition 7: a pair of "
      "different clusters with a point outside rho times its cluster's radius.");
  add("NotSureDefinition7b",
      "The global distance-weak oracle abstains by condition (b) of Definition 7: a pair of one "
      "cluster farther apart than 2 rho r(C).");
  add("OracleMemoryPerPair",
      "The random-weak oracle remembers: a pair asked again, in either order, gets the answer it "
      "got first (the trace header's oracle_memory is per-pair; Definition 5 leaves memory open). "
      "A replay must check that every repeated pair of the trace has one answer.");
  add("OracleMemoryFresh",
      "The random-weak oracle draws afresh at every query (Definition 5 as the reference reads "
      "it, the default): a pair asked again may get another answer. The same trace claiming "
      "per-pair memory must be rejected at the repeated pair.");
  add("MemoryChangesOutcome",
      "The same seed with a fresh oracle ends otherwise: the remembered answer of a repeated pair "
      "changed the run's outcome.");
  add("InvalidParameter",
      "A parameter outside its admissible range: an implementation must refuse to run.");
  // Flags added later come last, so that the notes of the earlier ones do not move.
  add_authors_code_notes(n);
  add("TieOrderS6",
      "The trace depends on the tie rule of semantics S6 (equal distances from mu'_p ordered by "
      "row): replayed with equal distances ordered by decreasing row instead, it diverges (a "
      "probe, x_1 or C'_p changes). The generator replays every vector so and flags each that "
      "diverges; an implementation with another deterministic tie rule may fail exactly these.");
  add_b_order_notes(n);
  return n;
}

}  // namespace ssac::cli::conformance
