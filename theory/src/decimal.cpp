// Exact decimal numbers (ssac/theory/decimal.hpp): parsing, printing, comparison and the exact
// arithmetic that forms gamma - 1, 1 - q and the other differences of inputs before rounding.
#include "ssac/theory/decimal.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <stdexcept>

namespace ssac::theory {

namespace {

namespace mp = boost::multiprecision;

const Decimal::Int& ten_to_16() {
  static const Decimal::Int v = mp::pow(Decimal::Int(10), 16);
  return v;
}

Decimal::Int pow10(long long e) {
  return mp::pow(Decimal::Int(10), static_cast<unsigned>(e));
}

long long checked_add(long long a, long long b) {
  long long r = 0;
  if (__builtin_add_overflow(a, b, &r)) throw std::overflow_error("Decimal: exponent overflow");
  return r;
}

std::string lower(std::string_view s) {
  std::string o(s);
  for (char& c : o)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return o;
}

const char* const kNotDecimal = "is not a decimal number such as 0.05 or 1e-9";

}  // namespace

Decimal::Decimal(double x) {
  if (std::isnan(x)) {
    kind_ = Kind::nan;
    return;
  }
  negative_ = std::signbit(x);
  if (std::isinf(x)) {
    kind_ = Kind::infinite;
    return;
  }
  if (x == 0) return;
  // |x| = f 2^e with f in [0.5, 1); f 2^53 is an integer (fewer bits for a subnormal).
  int e = 0;
  const double f = std::frexp(std::fabs(x), &e);
  coef_ = static_cast<long long>(std::ldexp(f, 53));
  const long long e2 = static_cast<long long>(e) - 53;
  if (e2 >= 0) {
    coef_ <<= static_cast<unsigned>(e2);
  } else {
    // 2^-j = 5^j 10^-j
    coef_ *= mp::pow(Int(5), static_cast<unsigned>(-e2));
    exp_ = e2;
  }
  normalize();
}

Decimal::Decimal(std::string_view text) {
  DecimalParse p = parse(text);
  if (!p.value) throw std::invalid_argument("'" + std::string(text) + "' " + p.error);
  *this = std::move(*p.value);
}

DecimalParse Decimal::parse(std::string_view text) {
  DecimalParse out;
  std::size_t i = 0;
  const std::size_t n = text.size();
  bool neg = false;
  if (i < n && (text[i] == '+' || text[i] == '-')) neg = text[i++] == '-';
  const std::string word = lower(text.substr(i));
  if (word == "inf" || word == "infinity" || word == "nan") {
    Decimal d;
    d.kind_ = word == "nan" ? Kind::nan : Kind::infinite;
    d.negative_ = word != "nan" && neg;
    out.value = d;
    return out;
  }
  if (word.starts_with("0x")) {
    out.error = "is a hexadecimal number, not a decimal one";
    return out;
  }
  // Mantissa: its digits without the point, and how many of them follow the point.
  std::string digits;
  long long after_point = 0;
  bool point = false;
  for (; i < n; ++i) {
    const char c = text[i];
    if (c >= '0' && c <= '9') {
      digits += c;
      if (point) ++after_point;
    } else if (c == '.' && !point) {
      point = true;
    } else {
      break;
    }
  }
  if (digits.empty()) {
    out.error = kNotDecimal;
    return out;
  }
  // Exponent, saturated far beyond any admissible value so that it cannot overflow.
  long long e = 0;
  if (i < n && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    bool eneg = false;
    if (i < n && (text[i] == '+' || text[i] == '-')) eneg = text[i++] == '-';
    const std::size_t start = i;
    for (; i < n && text[i] >= '0' && text[i] <= '9'; ++i)
      e = std::min(e * 10 + (text[i] - '0'), 1000000000000000LL);
    if (i == start) {
      out.error = kNotDecimal;
      return out;
    }
    if (eneg) e = -e;
  }
  if (i != n) {
    out.error = kNotDecimal;
    return out;
  }
  Decimal d;
  d.negative_ = neg;
  const std::size_t first = digits.find_first_not_of('0');
  if (first == std::string::npos) {  // zero, whatever its exponent
    out.value = d;
    return out;
  }
  const std::size_t last = digits.find_last_not_of('0');
  const std::size_t sig = last - first + 1;
  if (sig > max_digits) {
    out.error = "has " + std::to_string(sig) + " significant digits, more than the " +
                std::to_string(max_digits) + " accepted";
    return out;
  }
  const long long exponent =
      e - after_point + static_cast<long long>(digits.size() - 1 - last);  // of the last digit
  const long long lead = exponent + static_cast<long long>(sig) - 1;
  if (lead > max_exponent || lead < -max_exponent) {
    out.error = "has its leading digit at 10^" + std::to_string(lead) + ", outside 10^-" +
                std::to_string(max_exponent) + " .. 10^" + std::to_string(max_exponent);
    return out;
  }
  d.coef_ = Int(digits.substr(first, sig));
  d.exp_ = exponent;
  out.value = d;
  return out;
}

void Decimal::normalize() {
  if (coef_ == 0) {
    exp_ = 0;
    return;
  }
  Int q, r;
  for (;;) {
    mp::divide_qr(coef_, ten_to_16(), q, r);
    if (r != 0) break;
    coef_ = q;
    exp_ = checked_add(exp_, 16);
  }
  for (;;) {
    mp::divide_qr(coef_, Int(10), q, r);
    if (r != 0) break;
    coef_ = q;
    exp_ = checked_add(exp_, 1);
  }
}

void Decimal::require_finite(const char* op) const {
  if (kind_ != Kind::finite)
    throw std::logic_error(std::string("Decimal: ") + op + " of a non-finite value");
}

std::size_t Decimal::digits() const {
  return coef_ == 0 ? 0 : coef_.str().size();
}

std::string Decimal::str() const {
  const std::string sign = negative_ ? "-" : "";
  if (kind_ == Kind::nan) return "nan";
  if (kind_ == Kind::infinite) return sign + "inf";
  if (coef_ == 0) return sign + "0";
  const std::string d = coef_.str();
  const auto len = static_cast<long long>(d.size());
  // Fixed: the digits with the point placed by the exponent.
  std::string fixed;
  if (exp_ >= 0)
    fixed = d + std::string(static_cast<std::size_t>(exp_), '0');
  else if (-exp_ < len)
    fixed = d.substr(0, static_cast<std::size_t>(len + exp_)) + "." +
            d.substr(static_cast<std::size_t>(len + exp_));
  else
    fixed = "0." + std::string(static_cast<std::size_t>(-exp_ - len), '0') + d;
  // Scientific: d.ddd e+XX, at least two exponent digits (printf's %e).
  const long long x = exp_ + len - 1;
  std::string ex = std::to_string(x < 0 ? -x : x);
  if (ex.size() < 2) ex = "0" + ex;
  const std::string sci =
      d.substr(0, 1) + (len > 1 ? "." + d.substr(1) : "") + "e" + (x < 0 ? "-" : "+") + ex;
  return sign + (sci.size() < fixed.size() ? sci : fixed);
}

double Decimal::to_double() const {
  const std::string s = str();
  return std::strtod(s.c_str(), nullptr);
}

Decimal Decimal::operator-() const {
  Decimal r = *this;
  if (kind_ != Kind::nan) r.negative_ = !negative_;
  return r;
}

Decimal operator+(const Decimal& a, const Decimal& b) {
  a.require_finite("addition");
  b.require_finite("addition");
  if (a.is_zero() && b.is_zero()) {
    Decimal z;
    z.negative_ = a.negative_ && b.negative_;
    return z;
  }
  // Align to the smaller exponent; both coefficients are then integers of the same unit.
  const long long e = std::min(a.exp_, b.exp_);
  Decimal::Int x = a.coef_ * pow10(a.exp_ - e), y = b.coef_ * pow10(b.exp_ - e);
  if (a.negative_) x = -x;
  if (b.negative_) y = -y;
  Decimal::Int s = x + y;
  Decimal r;
  r.negative_ = s < 0;
  r.coef_ = r.negative_ ? Decimal::Int(-s) : s;
  r.exp_ = e;
  r.normalize();
  return r;
}

Decimal operator-(const Decimal& a, const Decimal& b) {
  return a + (-b);
}

Decimal operator*(const Decimal& a, const Decimal& b) {
  a.require_finite("multiplication");
  b.require_finite("multiplication");
  Decimal r;
  r.negative_ = a.negative_ != b.negative_;
  r.coef_ = a.coef_ * b.coef_;
  r.exp_ = checked_add(a.exp_, b.exp_);
  r.normalize();
  return r;
}

Decimal Decimal::pow(unsigned long long e) const {
  require_finite("power");
  Decimal result(1.0), base = *this;
  for (; e; e >>= 1) {
    if (e & 1) result = result * base;
    if (e > 1) base = base * base;
  }
  return result;
}

std::partial_ordering operator<=>(const Decimal& a, const Decimal& b) {
  using Kind = Decimal::Kind;
  if (a.kind_ == Kind::nan || b.kind_ == Kind::nan) return std::partial_ordering::unordered;
  auto sign = [](const Decimal& d) { return d.is_zero() ? 0 : d.negative_ ? -1 : 1; };
  const int sa = sign(a), sb = sign(b);
  if (sa != sb) return sa <=> sb;
  if (sa == 0) return std::partial_ordering::equivalent;
  // Same sign, both nonzero: compare magnitudes, then flip for negatives.
  std::partial_ordering mag = std::partial_ordering::equivalent;
  if (a.kind_ == Kind::infinite || b.kind_ == Kind::infinite) {
    mag = (a.kind_ == Kind::infinite ? 1 : 0) <=> (b.kind_ == Kind::infinite ? 1 : 0);
  } else {
    const long long la = a.exp_ + static_cast<long long>(a.digits()),
                    lb = b.exp_ + static_cast<long long>(b.digits());
    if (la != lb) {
      mag = la <=> lb;
    } else {
      // Same leading position: the exponents differ by at most the digit counts.
      const long long e = std::min(a.exp_, b.exp_);
      const Decimal::Int x = a.coef_ * pow10(a.exp_ - e), y = b.coef_ * pow10(b.exp_ - e);
      mag = x < y ? std::partial_ordering::less
                  : (x > y ? std::partial_ordering::greater : std::partial_ordering::equivalent);
    }
  }
  return sa > 0 ? mag : 0 <=> mag;
}

}  // namespace ssac::theory
