// ssac/numbers.hpp: the one reader of typed and stored numbers.
#include "ssac/numbers.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

using ssac::number::Status;

namespace {

TEST(Numbers, IntegersAreDecimalSignedAndExact) {
  long long v = 0;
  EXPECT_EQ(ssac::number::parse_int("010", v), Status::ok);
  EXPECT_EQ(v, 10);  // not octal 8
  EXPECT_EQ(ssac::number::parse_int("+7", v), Status::ok);
  EXPECT_EQ(v, 7);
  EXPECT_EQ(ssac::number::parse_int("-9223372036854775808", v), Status::ok);
  EXPECT_EQ(v, std::numeric_limits<long long>::min());
  EXPECT_EQ(ssac::number::parse_int("9223372036854775808", v), Status::out_of_range);
  EXPECT_EQ(ssac::number::parse_int("99999999999999999999", v), Status::out_of_range);
  for (const char* bad : {"", "+", "-", "0x10", "1.0", "1e3", " 1", "1 ", "+-1", "--1", "١"})
    EXPECT_EQ(ssac::number::parse_int(bad, v), Status::not_a_number) << bad;
}

TEST(Numbers, UnsignedIntegersRefuseNegativesAsOutOfRange) {
  unsigned long long v = 1;
  EXPECT_EQ(ssac::number::parse_uint("18446744073709551615", v), Status::ok);
  EXPECT_EQ(v, std::numeric_limits<unsigned long long>::max());
  EXPECT_EQ(ssac::number::parse_uint("18446744073709551616", v), Status::out_of_range);
  EXPECT_EQ(ssac::number::parse_uint("-1", v), Status::out_of_range);
  EXPECT_EQ(ssac::number::parse_uint("-0", v), Status::ok);
  EXPECT_EQ(v, 0u);
  EXPECT_EQ(ssac::number::parse_uint("+-1", v), Status::not_a_number);
}

TEST(Numbers, RealsAreDecimalWithOverflowReported) {
  double v = 0;
  EXPECT_EQ(ssac::number::parse_real("+1.5", v), Status::ok);
  EXPECT_EQ(v, 1.5);
  EXPECT_EQ(ssac::number::parse_real(".5", v), Status::ok);
  EXPECT_EQ(v, 0.5);
  EXPECT_EQ(ssac::number::parse_real("5.", v), Status::ok);
  EXPECT_EQ(v, 5.0);
  EXPECT_EQ(ssac::number::parse_real("0.1", v), Status::ok);
  EXPECT_EQ(v, 0.1);  // the nearest double, as from_chars reads it
  EXPECT_EQ(ssac::number::parse_real("-2.5E-3", v), Status::ok);
  EXPECT_EQ(v, -2.5e-3);
  EXPECT_EQ(ssac::number::parse_real("1e400", v), Status::out_of_range);
  EXPECT_EQ(ssac::number::parse_real("-1e400", v), Status::out_of_range);
  EXPECT_EQ(ssac::number::parse_real("1e-400", v), Status::ok);
  EXPECT_EQ(v, 0.0);
  EXPECT_EQ(ssac::number::parse_real("4.9e-324", v), Status::ok);
  EXPECT_EQ(v, std::numeric_limits<double>::denorm_min());
  EXPECT_EQ(ssac::number::parse_real("-Infinity", v), Status::ok);
  EXPECT_EQ(v, -std::numeric_limits<double>::infinity());
  EXPECT_EQ(ssac::number::parse_real("NaN", v), Status::ok);
  EXPECT_TRUE(std::isnan(v));
  for (const char* bad : {"", ".", "e5", "1e", "1e+", "0x1p3", "1,5", "1.2.3", " 1", "++1", "infx"})
    EXPECT_EQ(ssac::number::parse_real(bad, v), Status::not_a_number) << bad;
}

TEST(Numbers, PrintableEscapesControlsAndCuts) {
  EXPECT_EQ(ssac::number::printable(std::string("a\0b\r\x1b", 5)), "a\\x00b\\x0d\\x1b");
  EXPECT_EQ(ssac::number::printable(std::string(100, 'x'), 4), "xxxx...");
  EXPECT_EQ(ssac::number::printable("plain é"), "plain é");
}

}  // namespace
