// Theorem 3: on instances that satisfy the x* condition (generated on purpose: one point at each
// cluster's mean), with eta at theory::distance_weak_global's minimum sufficient value,
// Algorithm 1 with Algorithm 3 and a rho global distance-weak oracle outputs the
// oracle's clustering with probability at least 1 - delta.
// Note: proofs-notes/theorem3-global-distance-weak.md.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cmath>
#include <sstream>

#include "pinned_instances.hpp"
#include "ssac/theory/bounds.hpp"
#include "theorems_common.hpp"

namespace ssac::props {
namespace {

void check_theorem(Fault fault) {
  // 200 runs, not kTheoremRuns: the property is expected to fail (the statement is false, see
  // below) and RapidCheck reruns every shrink candidate; 200 runs still give a Clopper-Pearson
  // lower bound well above delta on the counterexample (0.7 observed against 0.3).
  check_generated_distance_weak("theorem3", /*global=*/true, fault, /*runs=*/200);
}

}  // namespace

// The hand-checked counterexample under each anchor rule (proofs-notes/anchor-rules.md), at
// delta = 0.1 (eta = 2965.6): the opener and the lowest labelled row fail 691 of 1000 runs, a
// random labelled row 426 of 1000, a random known row (placed rows count) 0 of 1000.
TEST(Theorem3GlobalDistanceWeak, HandCheckedCounterexamplePerAnchorRule) {
  check_pinned_per_rule({"theorem3 hand-checked", /*global=*/true, theorem3_hand_checked_instance(),
                         1.0, 0.75, 0.1, /*runs=*/200},
                        {{AnchorRule::opener, Verdict::falsified},
                         {AnchorRule::lowest_labelled_row, Verdict::falsified},
                         {AnchorRule::random_labelled_row, Verdict::falsified},
                         {AnchorRule::random_known_row, Verdict::holds}});
}

// The referee's instance at theory's eta for the data's own gamma (9.95; eps = 0.165, eta = 4578.1)
// and at the referee's reading (gamma = 1.3, eps = 0.15, eta = 5533): a counterexample under the
// opener and both labelled-row rules, not under random-known-row, where mu'_1 settles at 0.12 r_1,
// short of the 0.17 r_1 at which a +0.911 point becomes the nearest (the note's hand check).
TEST(Theorem3GlobalDistanceWeak, RefereeInstancePerAnchorRule) {
  const std::vector<RuleVerdict> verdicts = {{AnchorRule::opener, Verdict::falsified},
                                             {AnchorRule::lowest_labelled_row, Verdict::falsified},
                                             {AnchorRule::random_labelled_row, Verdict::falsified},
                                             {AnchorRule::random_known_row, Verdict::holds}};
  check_pinned_per_rule({"theorem3 referee", /*global=*/true, theorem3_referee_instance(), 1.0,
                         0.95, 0.3, /*runs=*/200},
                        verdicts);
  check_pinned_per_rule({"theorem3 referee, eta at gamma = 1.3", /*global=*/true,
                         theorem3_referee_instance(), 1.0, 0.95, 0.3, /*runs=*/200, /*eta=*/5533},
                        verdicts);
}

// The second referee's instance (the note, "The second referee's instance"), at theory's eta for
// the data's own gamma (eps = 0.1, eta = 89493), delta = 0.1: a counterexample under every anchor
// rule, random-known-row included. Under the opener and the labelled-row rules the first draw
// decides (a 0.25 or -1 opener fails); under random-known-row the -1 rows are placed only when
// cluster 1's anchor is a -1 or 0 row, mu'_1 settles near 0.141 r_1, past the 0.125 midpoint
// between the 0 and 0.25 rows, and x_1 is a 0.25 row, not-sure with every -1 row (condition (b)),
// which Algorithm 3 then cuts off. 20 runs per rule (about 7 s of CPU in all); at seeds 0-39,
// measured once, 35, 35, 35 and 40 of 40 runs fail.
TEST(Theorem3GlobalDistanceWeak, SecondRefereeInstancePerAnchorRule) {
  check_pinned_per_rule({"theorem3 second referee", /*global=*/true,
                         theorem3_second_referee_instance(), 1.0, 0.6, 0.1, /*runs=*/20},
                        {{AnchorRule::opener, Verdict::falsified},
                         {AnchorRule::lowest_labelled_row, Verdict::falsified},
                         {AnchorRule::random_labelled_row, Verdict::falsified},
                         {AnchorRule::random_known_row, Verdict::falsified}});
}

// The instance the generated search below finds on its stream, pinned under each anchor rule at
// its delta = 0.1 (eta = 1195.64), 200 runs per rule. By hand (the note): the first draw opens a
// cluster and anchors it; an edge point as anchor is not-sure with the other edge point of its
// cluster and with every point of the other cluster, so under the opener (and the lowest labelled
// row, which keeps an edge point as anchor here) every run whose first draw is an edge point (4 of
// the 6 rows) fails.
TEST(Theorem3GlobalDistanceWeak, SearchCounterexamplePerAnchorRule) {
  check_pinned_per_rule({"theorem3 search", /*global=*/true, theorem3_search_instance(), 1.0,
                         kTheorem3SearchRho, kTheorem3SearchDelta, /*runs=*/200},
                        {{AnchorRule::opener, Verdict::falsified},
                         {AnchorRule::lowest_labelled_row, Verdict::falsified},
                         {AnchorRule::random_labelled_row, Verdict::falsified},
                         {AnchorRule::random_known_row, Verdict::holds}});
}

// The referee's reading of "random anchors" (proofs-notes/anchor-rules.md): the anchor drawn from
// the placed draws Z_t, each row weighted by how often it was placed. It is not a rule of the
// reference; the test-only variant Fault::anchor_by_placements (lib/testing) runs it on top of
// random-known-row. Under it the referee's instance is a counterexample, at theory's eta and at
// the referee's 5533 (200 runs each) and at 4 eta (100 runs, every one failing); the other pinned
// instances are not (the note's counts).
TEST(Theorem3GlobalDistanceWeak, RefereeInstanceAnchorsWeightedByPlacements) {
  const std::vector<RuleVerdict> verdicts = {
      {AnchorRule::random_known_row, Verdict::falsified, Fault::anchor_by_placements}};
  check_pinned_per_rule({"theorem3 referee", /*global=*/true, theorem3_referee_instance(), 1.0,
                         0.95, 0.3, /*runs=*/200},
                        verdicts);
  check_pinned_per_rule({"theorem3 referee, eta at gamma = 1.3", /*global=*/true,
                         theorem3_referee_instance(), 1.0, 0.95, 0.3, /*runs=*/200, /*eta=*/5533},
                        verdicts);
  check_pinned_per_rule({"theorem3 referee, 4 eta", /*global=*/true, theorem3_referee_instance(),
                         1.0, 0.95, 0.3, /*runs=*/100, /*eta=*/18312},
                        verdicts);
  // The project's other pinned instances are no counterexample under this reading.
  const std::vector<RuleVerdict> holds = {
      {AnchorRule::random_known_row, Verdict::holds, Fault::anchor_by_placements}};
  check_pinned_per_rule({"theorem3 hand-checked", /*global=*/true, theorem3_hand_checked_instance(),
                         1.0, 0.75, 0.1, /*runs=*/200},
                        holds);
  check_pinned_per_rule({"theorem3 search", /*global=*/true, theorem3_search_instance(), 1.0,
                         kTheorem3SearchRho, kTheorem3SearchDelta, /*runs=*/200},
                        holds);
  check_pinned_per_rule({"theorem2 jittered", /*global=*/false, theorem2_jittered_instance(), 1.322,
                         0.75, 0.1, /*runs=*/200},
                        holds);
}

// A fixed regression, independent of what the generated search finds on the current stream. The
// property generates nothing, so its first case is the counterexample (no case holds before it).
TEST(Theorem3GlobalDistanceWeak, HandCheckedCounterexample) {
  const CheckReport r = expect_caught("Theorem 3 on the hand-checked counterexample", [] {
    check_distance_weak("theorem3", /*global=*/true, theorem3_hand_checked_instance(), 1.0, 0.75,
                        0.3, 0, Fault::none, /*runs=*/300);
  });
  EXPECT_TRUE(r) << to_string(r.outcome);
  EXPECT_EQ(r.num_success, 0);
}

// FINDING (proofs-notes/theorem3-global-distance-weak.md): the theorem as stated is false. A
// distance-weak oracle's abstentions depend on where the point lies, so Z_p is not a uniform
// sample of C_p and Lemma distance_ran does not apply; RapidCheck finds (and shrinks) instances
// satisfying the x* condition where the failure rate exceeds delta. This test asserts that the
// counterexample is found, on the suite's stream (RapidCheck seed 1009, 20 cases), after
// kSearchHeld cases that held; it fails if the statement ever holds on every generated case or
// the stream changes. The instance it finds is pinned below (SearchCounterexamplePerAnchorRule).
constexpr Stream kSearchStream{1009, 20};
constexpr int kSearchHeld = 4;
TEST(Theorem3GlobalDistanceWeak, StatedClaimIsFalsified) {
  const CheckReport r = expect_caught(
      "Theorem 3 as stated", [] { check_theorem(Fault::none); }, kSearchStream);
  EXPECT_TRUE(r) << to_string(r.outcome);
  EXPECT_EQ(r.num_success, kSearchHeld);
}

// Positive control: the same generated cases, eta and Algorithm 3 with a perfect oracle in place of
// the global distance-weak one must meet the claim, so the falsification above is the oracle's
// doing and not the harness's. 20 cases of 100 runs, on the search's own stream (the suite's
// seed, 20 cases): the control covers every case the search generates, the counterexample's
// among them, where 3 cases covered fewer than the search reaches.
TEST(Theorem3GlobalDistanceWeak, PositiveControlPerfectOracleHolds) {
  EXPECT_TRUE(expect_holds(
      "Theorem 3's harness with a perfect oracle",
      [] {
        check_generated_distance_weak("theorem3_perfect_oracle", /*global=*/true, Fault::none,
                                      /*runs=*/100, /*perfect_oracle=*/true);
      },
      kSearchStream));
}

TEST(Theorem3GlobalDistanceWeak_Negative, WrongX1IsCaught) {
  EXPECT_TRUE(
      expect_caught("Theorem 3, x_1 = farthest point", [] { check_theorem(Fault::wrong_x1); }));
}

}  // namespace ssac::props
