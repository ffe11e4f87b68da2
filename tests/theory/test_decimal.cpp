// Unit tests of theory::Decimal, the exact decimal inputs of `ssac bounds`: what it parses and
// refuses, that its text is the shortest form std::to_chars would print, that a double converts
// to its exact value, that its conversion to every binary precision is correctly rounded, and
// that its arithmetic and comparisons are exact.
#include <gtest/gtest.h>

#include <boost/multiprecision/cpp_bin_float.hpp>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <random>
#include <string>

#include "ssac/error.hpp"
#include "ssac/theory/bounds.hpp"
#include "ssac/theory/decimal.hpp"

namespace {

namespace mp = boost::multiprecision;
using ssac::theory::Decimal;
using ssac::theory::Real50;
using Ref500 = mp::number<mp::cpp_bin_float<500>, mp::et_off>;

std::string text_of(std::string_view s) {
  return Decimal(s).str();
}

TEST(Decimal, ParsesDecimalTextAndPrintsItsShortestForm) {
  EXPECT_EQ(text_of("0.05"), "0.05");
  EXPECT_EQ(text_of("5e-2"), "0.05");
  EXPECT_EQ(text_of(".050"), "0.05");
  EXPECT_EQ(text_of("+1.000001"), "1.000001");
  EXPECT_EQ(text_of("1."), "1");
  EXPECT_EQ(text_of("100"), "100");
  EXPECT_EQ(text_of("1000"), "1000");
  EXPECT_EQ(text_of("100000"), "1e+05");  // as std::to_chars prints 100000.0
  EXPECT_EQ(text_of("1E-9"), "1e-09");
  EXPECT_EQ(text_of("-2.5e3"), "-2500");
  EXPECT_EQ(text_of("0"), "0");
  EXPECT_EQ(text_of("-0.000"), "-0");
  EXPECT_EQ(text_of("0e99999999999999999999"), "0");
  EXPECT_EQ(text_of("1.0000000000000000000001"), "1.0000000000000000000001");
  EXPECT_EQ(text_of("INF"), "inf");
  EXPECT_EQ(text_of("-Infinity"), "-inf");
  EXPECT_EQ(text_of("nan"), "nan");
  const Decimal d("12.3400");
  EXPECT_EQ(d.coefficient(), 1234);
  EXPECT_EQ(d.exponent(), -2);
  EXPECT_EQ(d.digits(), 4u);
}

TEST(Decimal, RefusesWhatIsNotADecimalWithAReason) {
  auto error = [](std::string_view s) { return Decimal::parse(s).error; };
  for (const char* bad : {"", "abc", ".", "e5", "1e", "1e+", "1.2.3", "1,5", " 1", "1 ", "--1",
                          "0.5x", "nan(1)", "infinite"})
    EXPECT_NE(error(bad).find("is not a decimal number"), std::string::npos) << "'" << bad << "'";
  EXPECT_EQ(error("0x1.8p0"), "is a hexadecimal number, not a decimal one");
  EXPECT_EQ(error("-0X10"), "is a hexadecimal number, not a decimal one");
  // 100 significant digits are accepted, 101 are not; zeros around them do not count.
  const std::string hundred = "0.000" + std::string(99, '3') + "7000";
  EXPECT_TRUE(Decimal::parse(hundred).value.has_value());
  EXPECT_EQ(error(hundred.substr(0, hundred.size() - 3) + "1"),
            "has 101 significant digits, more than the 100 accepted");
  EXPECT_TRUE(Decimal::parse("1e-9999").value.has_value());
  EXPECT_TRUE(Decimal::parse("9.99e9999").value.has_value());
  EXPECT_EQ(error("1e-10000"), "has its leading digit at 10^-10000, outside 10^-9999 .. 10^9999");
  EXPECT_EQ(error("10e9999"), "has its leading digit at 10^10000, outside 10^-9999 .. 10^9999");
  EXPECT_THROW(Decimal("abc"), std::invalid_argument);
}

TEST(Decimal, PrintsTheShortestFormOfADoubleAsFormatDoubleDoes) {
  // For the shortest text of a double, Decimal's choice between fixed and scientific is
  // std::to_chars's, so a typed number prints as ssac printed the double before.
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> mant(1.0, 10.0);
  std::uniform_int_distribution<int> ex(-30, 30);
  for (int i = 0; i < 20000; ++i) {
    const double x = mant(rng) * std::pow(10.0, ex(rng)) * (i % 2 ? -1 : 1);
    const std::string s = ssac::format_double(x);
    EXPECT_EQ(Decimal(s).str(), s);
  }
  for (double x : {0.05, 1.1, 0.9, 1e-300, 1.000000001, 1e21, 123456789012.0, 5e-324})
    EXPECT_EQ(Decimal(ssac::format_double(x)).str(), ssac::format_double(x));
}

TEST(Decimal, ADoubleConvertsToItsExactValue) {
  EXPECT_EQ(Decimal(0.1).str(), "0.1000000000000000055511151231257827021181583404541015625");
  EXPECT_EQ(Decimal(0.5).str(), "0.5");
  EXPECT_EQ(Decimal(-3.0).str(), "-3");
  EXPECT_EQ(Decimal(std::ldexp(1.0, 80)).str(), "1208925819614629174706176");
  EXPECT_EQ(Decimal(1e22).str(), "1e+22");  // 10^22 = 2^22 5^22 is a double
  EXPECT_TRUE(std::isinf(Decimal(std::numeric_limits<double>::infinity()).to_double()));
  EXPECT_TRUE(Decimal(std::nan("")).is_nan());
  // The exact value reads back as the same double, from the smallest subnormal to the largest.
  for (double x : {5e-324, 2.2250738585072014e-308, 0.1, 1.0 / 3, 1e300, 1.7976931348623157e308})
    EXPECT_EQ(Decimal(x).to_double(), x);
}

TEST(Decimal, ConvertsToEveryPrecisionCorrectlyRounded) {
  // Against strtod (correctly rounded) for double, and against a 500-digit conversion of the
  // same text for 50 digits: the error must stay within half a unit in the last place.
  std::mt19937_64 rng(11);
  std::uniform_int_distribution<int> digit(0, 9), len(1, 40), ex(-60, 60);
  for (int i = 0; i < 5000; ++i) {
    std::string s = std::to_string(1 + digit(rng) % 9) + ".";
    for (int j = len(rng); j > 0; --j)
      s += static_cast<char>('0' + digit(rng));
    s += "e" + std::to_string(ex(rng));
    const Decimal d(s);
    EXPECT_EQ(d.to<double>(), std::strtod(s.c_str(), nullptr)) << s;
    const Real50 v = d.to<Real50>();
    const Ref500 exact(s);
    // v = f 2^e with f in [1/2, 1): its unit in the last place is 2^(e - p).
    int e = 0;
    frexp(v, &e);
    const Ref500 ulp = ldexp(Ref500(1), e - std::numeric_limits<Real50>::digits);
    EXPECT_LE(abs(Ref500(v) - exact), ulp / 2 * (1 + Ref500("1e-100"))) << s;
  }
  // A dyadic decimal is exact at every precision, and ties round to even.
  EXPECT_EQ(Decimal("0.125").to<Real50>(), Real50(0.125));
  EXPECT_EQ(Decimal("9007199254740993").to<double>(), 9007199254740992.0);  // 2^53 + 1: tie
  EXPECT_EQ(Decimal("9007199254740995").to<double>(), 9007199254740996.0);  // 2^53 + 3: tie
}

TEST(Decimal, ArithmeticAndComparisonsAreExact) {
  EXPECT_EQ((Decimal("1.000001") - Decimal(1.0)).str(), "1e-06");
  EXPECT_EQ((Decimal(1.0) - Decimal("0.7")).str(), "0.3");
  EXPECT_EQ((Decimal("0.7") * Decimal("0.7")).str(), "0.49");
  EXPECT_EQ(Decimal("0.7").pow(3).str(), "0.343");
  EXPECT_EQ(Decimal("2e-9999").pow(2).str(), "4e-19998");
  EXPECT_EQ((Decimal("0.9") + Decimal("0.9") - Decimal(1.0)).str(), "0.8");
  EXPECT_TRUE(Decimal("1.0000000000000000000001") > Decimal(1.0));
  EXPECT_TRUE(Decimal("0.1") < Decimal(0.1));  // the double 0.1 lies above one tenth
  EXPECT_TRUE(Decimal("-0") == Decimal("0"));
  EXPECT_TRUE(Decimal("-2") < Decimal("-1.5"));
  EXPECT_TRUE(Decimal("1e-9999") < Decimal("1e9999"));
  EXPECT_TRUE(Decimal("inf") > Decimal("9e9999"));
  EXPECT_FALSE(Decimal("nan") < Decimal(1.0));
  EXPECT_FALSE(Decimal("nan") >= Decimal(1.0));
  EXPECT_FALSE(Decimal("nan") == Decimal("nan"));
  EXPECT_THROW(Decimal("inf") - Decimal(1.0), std::logic_error);
}

TEST(Decimal, RangeChecksAreExactAndPrintTheTypedNumber) {
  using ssac::theory::check_q;
  try {
    check_q(Decimal("1.0000000000000000000001"));  // its nearest double is 1, a valid q
    ADD_FAILURE() << "no error";
  } catch (const ssac::ParameterError& e) {
    EXPECT_STREQ(e.what(), "q = 1.0000000000000000000001 is outside its admissible range (0, 1]");
  }
  EXPECT_NO_THROW(ssac::theory::check_gamma(Decimal("1.00000000000000000000000001")));
  EXPECT_THROW(ssac::theory::check_gamma(Decimal("inf")), ssac::ParameterError);
  EXPECT_THROW(ssac::theory::check_delta(Decimal("nan")), ssac::ParameterError);
  EXPECT_THROW(ssac::theory::check_nu(Decimal("0.999999999999999999999")), ssac::ParameterError);
  EXPECT_NO_THROW(ssac::theory::check_rho(Decimal(1.0)));
}

}  // namespace
