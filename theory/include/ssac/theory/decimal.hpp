// Exact decimal numbers: the real inputs of `ssac bounds` as the user typed them. A bound is then
// evaluated for the number typed (0.05, 1.000001) instead of for the nearest double, at every
// precision of the certification (proofs-notes/bounds.md, "Exact decimal inputs").
#pragma once

#include <boost/multiprecision/cpp_int.hpp>
#include <compare>
#include <cstddef>
#include <limits>
#include <optional>
#include <string>
#include <string_view>

namespace ssac::theory {

struct DecimalParse;

// sign * coefficient * 10^exponent with a nonnegative integer coefficient that has no trailing
// zeros (0 is coefficient 0, exponent 0), or +-infinity, or NaN. The non-finite values exist so
// that "inf" and "nan" typed for a parameter reach its range check and are reported there, like
// every other inadmissible value; arithmetic on them is a logic error.
class Decimal {
 public:
  using Int = boost::multiprecision::cpp_int;

  // Limits of the text `parse` accepts (values built otherwise, e.g. from a double, may exceed
  // them). They bound the size of every exact operation on an input; they are not accuracy
  // limits, since each precision rounds the exact value once whatever its length.
  static constexpr std::size_t max_digits = 100;   // significant digits
  static constexpr long long max_exponent = 9999;  // |exponent of the leading digit|

  Decimal() = default;  // 0
  // The exact value of a double: every finite double is a finite decimal. Implicit, so that the
  // double-valued API (tests, props) keeps meaning exactly what it meant.
  Decimal(double x);  // NOLINT(google-explicit-constructor)
  // Parses `text` or throws std::invalid_argument with the reason.
  explicit Decimal(std::string_view text);

  // [+-] digits [. digits] [e [+-] digits] (or [+-] . digits ...), or [+-] inf, infinity, nan
  // in any case.
  static DecimalParse parse(std::string_view text);

  bool is_finite() const { return kind_ == Kind::finite; }
  bool is_nan() const { return kind_ == Kind::nan; }
  bool is_zero() const { return kind_ == Kind::finite && coef_ == 0; }
  bool negative() const { return negative_; }
  // Significant digits of a finite value (0 for zero) and its exponent: |x| = coefficient *
  // 10^exponent.
  std::size_t digits() const;
  const Int& coefficient() const { return coef_; }
  long long exponent() const { return exp_; }

  // The shortest text, chosen as std::to_chars chooses for a double: fixed or scientific
  // (exponent of at least two digits), whichever is shorter, fixed on a tie. So a typed number
  // whose digits are those of its double prints exactly as ssac::format_double prints the double.
  std::string str() const;

  // The nearest value of the binary floating type R (round to nearest, ties to even): the exact
  // quotient is formed with integers and rounded once, so every precision sees the typed number.
  template <class R>
  R to() const;
  double to_double() const;  // strtod of str(): correctly rounded

  Decimal operator-() const;
  friend Decimal operator+(const Decimal& a, const Decimal& b);
  friend Decimal operator-(const Decimal& a, const Decimal& b);
  friend Decimal operator*(const Decimal& a, const Decimal& b);
  // x^e for a finite x, exact.
  Decimal pow(unsigned long long e) const;

  // IEEE-like order: NaN is unordered, -0 == 0.
  friend std::partial_ordering operator<=>(const Decimal& a, const Decimal& b);
  friend bool operator==(const Decimal& a, const Decimal& b) {
    return (a <=> b) == std::partial_ordering::equivalent;
  }

 private:
  enum class Kind : unsigned char { finite, infinite, nan };
  Kind kind_ = Kind::finite;
  bool negative_ = false;
  Int coef_ = 0;
  long long exp_ = 0;

  void normalize();
  void require_finite(const char* op) const;
};

// What Decimal::parse read: the value, or why the text was refused ("is not a decimal number
// such as 0.05 or 1e-9", "has 101 significant digits, ...").
struct DecimalParse {
  std::optional<Decimal> value;
  std::string error;
};

template <class R>
R Decimal::to() const {
  namespace mp = boost::multiprecision;
  using std::ldexp;
  if (kind_ == Kind::nan) return std::numeric_limits<R>::quiet_NaN();
  if (kind_ == Kind::infinite)
    return negative_ ? -std::numeric_limits<R>::infinity() : std::numeric_limits<R>::infinity();
  if (coef_ == 0) return negative_ ? -R(0) : R(0);
  // |x| = num / den * 2^e2, with 10^exp = 5^exp 2^exp moving the fives to num or den.
  Int num = coef_, den = 1;
  if (exp_ >= 0)
    num *= mp::pow(Int(5), static_cast<unsigned>(exp_));
  else
    den = mp::pow(Int(5), static_cast<unsigned>(-exp_));
  const long long p = std::numeric_limits<R>::digits;
  // Scale so that the integer quotient has at least p + 2 bits: a rounding bit and one more.
  long long shift =
      static_cast<long long>(mp::msb(den)) - static_cast<long long>(mp::msb(num)) + p + 2;
  if (shift < 0) shift = 0;
  Int quotient, remainder;
  mp::divide_qr(Int(num << static_cast<unsigned>(shift)), den, quotient, remainder);
  const long long drop = static_cast<long long>(mp::msb(quotient)) + 1 - p;
  Int kept = quotient >> static_cast<unsigned>(drop);
  const Int rest = quotient - (kept << static_cast<unsigned>(drop));
  const Int half = Int(1) << static_cast<unsigned>(drop - 1);
  // Round to nearest; an exact half (nothing below it, remainder 0) goes to the even neighbour.
  if (rest > half || (rest == half && (remainder != 0 || mp::bit_test(kept, 0)))) ++kept;
  // kept <= 2^p, so the conversion is exact and the scaling by a power of two too.
  const R r = ldexp(kept.template convert_to<R>(), static_cast<int>(drop - shift + exp_));
  return negative_ ? R(-r) : r;
}

}  // namespace ssac::theory
