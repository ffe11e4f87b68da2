#include <gtest/gtest.h>
#include "ssac/rng.hpp"
TEST(Rng, Smoke) {
  ssac::Rng r(0);
  EXPECT_NE(r.next_u64(), 0u);
}
