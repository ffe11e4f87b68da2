// The property harness itself (props/support.hpp): a falsification counts only a genuine
// counterexample, never RapidCheck giving up on discarded cases, and a positive control passes only
// when every case held.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "support.hpp"

namespace ssac::props {

// A generator that discards every case: a falsification run through it finds nothing.
TEST(PropsHarness, AllDiscardedIsNotACounterexample) {
  EXPECT_FALSE(expect_caught("every case discarded", [] {
    const int x = *rc::gen::inRange(0, 10);
    RC_PRE(x < 0);
  }));
  EXPECT_FALSE(expect_holds("every case discarded", [] {
    const int x = *rc::gen::inRange(0, 10);
    RC_PRE(x < 0);
  }));
}

// The harness's negative control: a property that fails on its first case is caught, and one that
// holds everywhere is not.
TEST(PropsHarness, GenuineFailureIsCaughtAndATruePropertyIsNot) {
  EXPECT_TRUE(expect_caught("x < 5 is false for half of [0, 10)", [] {
    const int x = *rc::gen::inRange(0, 10);
    RC_ASSERT(x < 5);
  }));
  EXPECT_FALSE(expect_caught("x < 11 holds", [] {
    const int x = *rc::gen::inRange(0, 11);
    RC_ASSERT(x < 11);
  }));
  EXPECT_TRUE(expect_holds("x < 11 holds", [] {
    const int x = *rc::gen::inRange(0, 11);
    RC_ASSERT(x < 11);
  }));
}

}  // namespace ssac::props
