// How `ssac bounds` and `ssac bounds --data` print the numbers of theory/: 50-digit values with
// 21 significant digits, exact integers digit for digit, exact decimals in their shortest form.
#pragma once

#include <optional>
#include <string>

#include "output/json_rows.hpp"
#include "ssac/theory/bounds.hpp"

namespace ssac::cli {

// A 50-digit value rounded to 21 significant digits in scientific notation, "1.23...e+03".
inline std::string value_text(const theory::Real50& x) {
  return theory::to_string(x, 20);
}

// An exact result when it has at most kExactDigits significant digits, printed in its shortest
// form ("0.847"); otherwise the 50-digit value, rounded (value_text). A rounded value always
// shows 21 significant digits, an exact one at most 20, so the two cannot be confused
// (proofs-notes/bounds.md, "Exact decimal inputs").
inline constexpr std::size_t kExactDigits = 20;
inline std::string exact_or_rounded(const std::optional<theory::Decimal>& exact,
                                    const theory::Real50& value) {
  return exact && exact->digits() <= kExactDigits ? exact->str() : value_text(value);
}

inline std::string int_or(const std::optional<theory::BigInt>& x, const std::string& none) {
  return x ? x->str() : none;
}

// {"value": "...", "ceil": digits or null}
inline Json certified_json(const theory::Certified& c) {
  Json j;
  j["value"] = value_text(c.value);
  j["ceil"] = c.ceil ? number_token(c.ceil->str()) : Json(nullptr);
  return j;
}

}  // namespace ssac::cli
