// Real-valued command-line lists read as exact decimals (ssac/theory/decimal.hpp), so that a
// bound is computed for the number typed rather than for its nearest double.
#pragma once

#include <string>
#include <vector>

#include "ssac/theory/decimal.hpp"

namespace ssac::cli {

// Each text of --NAME as a decimal. "inf" and "nan" are read too (the range check reports them);
// anything else that is not a decimal (hexadecimal, too many digits, an exponent out of bounds,
// a word) throws ssac::ParameterError with one line naming --NAME, the text, the reason and
// NAME's admissible range.
std::vector<theory::Decimal> decimals(const std::string& name,
                                      const std::vector<std::string>& texts,
                                      const std::string& range);

}  // namespace ssac::cli
