// The property harness itself (props/support.hpp): a falsification counts only a genuine
// counterexample — never RapidCheck giving up on discarded cases, never an exception thrown inside
// the property — and a positive control passes only when every case held.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <stdexcept>

#include "support.hpp"

namespace ssac::props {

// The harness's own checks need enough cases for x >= 5 to come up, whatever scale RC_PARAMS gets
// (the sanitizer run scales every suite's case count down): a fixed stream of 100 cases.
constexpr Stream kCases{1000, 100};

// A generator that discards every case: a falsification run through it finds nothing.
TEST(PropsHarness, AllDiscardedIsNotACounterexample) {
  const CheckReport r = expect_caught(
      "every case discarded",
      [] {
        const int x = *rc::gen::inRange(0, 10);
        RC_PRE(x < 0);
      },
      kCases);
  EXPECT_FALSE(r);
  EXPECT_EQ(r.outcome, CheckOutcome::gave_up);
  EXPECT_EQ(r.num_success, 0);
  EXPECT_FALSE(expect_holds(
      "every case discarded",
      [] {
        const int x = *rc::gen::inRange(0, 10);
        RC_PRE(x < 0);
      },
      kCases));
}

// A property that only throws (RapidCheck reports that as a failed case) is an error, not a
// counterexample; so is one that throws on some cases and holds on the others, and one whose
// assertion would fail but whose failing cases throw first.
TEST(PropsHarness, ExceptionIsAnErrorNotACounterexample) {
  const CheckReport always = expect_caught(
      "every case throws",
      [] {
        const int x = *rc::gen::inRange(0, 10);
        throw std::runtime_error("thrown on x = " + std::to_string(x));
      },
      kCases);
  EXPECT_FALSE(always);
  EXPECT_EQ(always.outcome, CheckOutcome::error);
  EXPECT_GE(always.exceptions, 1);
  EXPECT_EQ(always.num_success, 0);

  const CheckReport some = expect_caught(
      "x >= 5 throws, x < 5 holds",
      [] {
        const int x = *rc::gen::inRange(0, 10);
        if (x >= 5) throw std::logic_error("thrown on x >= 5");
      },
      kCases);
  EXPECT_FALSE(some);
  EXPECT_EQ(some.outcome, CheckOutcome::error);
  EXPECT_EQ(some.first_exception, "thrown on x >= 5");

  const CheckReport first = expect_caught(
      "x >= 5 throws before its assertion would fail",
      [] {
        const int x = *rc::gen::inRange(0, 10);
        if (x >= 5) throw std::out_of_range("x >= 5");
        RC_ASSERT(x < 10);
      },
      kCases);
  EXPECT_FALSE(first);
  EXPECT_EQ(first.outcome, CheckOutcome::error);

  EXPECT_FALSE(expect_holds(
      "every case throws",
      [] {
        (void)*rc::gen::inRange(0, 10);
        throw std::runtime_error("thrown");
      },
      kCases));
}

// The harness's negative control: a property that fails by its own assertion is caught, with the
// number of cases that held before the counterexample, and one that holds everywhere is not.
TEST(PropsHarness, GenuineFailureIsCaughtAndATruePropertyIsNot) {
  const CheckReport r = expect_caught(
      "x < 5 is false for half of [0, 10)",
      [] {
        const int x = *rc::gen::inRange(0, 10);
        RC_ASSERT(x < 5);
      },
      kCases);
  EXPECT_TRUE(r);
  EXPECT_EQ(r.outcome, CheckOutcome::failed);
  EXPECT_EQ(r.exceptions, 0);
  // RapidCheck's case sizes grow with the case number and inRange scales with them, so x >= 5
  // first comes about half-way; the count is below the case count, and every case before it held.
  EXPECT_LT(r.num_success, 100);
  EXPECT_GT(r.num_success, 0);

  // On a pinned stream the case at which the counterexample is found is fixed: two runs agree,
  // whatever RC_PARAMS says.
  const auto pinned = [] {
    const int x = *rc::gen::inRange(0, 1000);
    RC_ASSERT(x < 900);
  };
  const CheckReport a = expect_caught("x < 900 on a pinned stream", pinned, Stream{7, 200});
  const CheckReport b = expect_caught("x < 900 on a pinned stream", pinned, Stream{7, 200});
  EXPECT_TRUE(a);
  EXPECT_EQ(a.num_success, b.num_success);

  const CheckReport holds = expect_caught(
      "x < 11 holds",
      [] {
        const int x = *rc::gen::inRange(0, 11);
        RC_ASSERT(x < 11);
      },
      kCases);
  EXPECT_FALSE(holds);
  EXPECT_EQ(holds.outcome, CheckOutcome::passed);
  EXPECT_TRUE(expect_holds(
      "x < 11 holds",
      [] {
        const int x = *rc::gen::inRange(0, 11);
        RC_ASSERT(x < 11);
      },
      kCases));
}

}  // namespace ssac::props
