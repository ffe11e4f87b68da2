// The reader of options/decimal_option.hpp.
#include "options/decimal_option.hpp"

#include "ssac/error.hpp"

namespace ssac::cli {

std::vector<theory::Decimal> decimals(const std::string& name,
                                      const std::vector<std::string>& texts,
                                      const std::string& range) {
  std::vector<theory::Decimal> out;
  for (const std::string& text : texts) {
    theory::DecimalParse p = theory::Decimal::parse(text);
    if (!p.value)
      throw ParameterError("--" + name + ": '" + text + "' " + p.error + "; " + name +
                           " must lie in " + range);
    out.push_back(std::move(*p.value));
  }
  return out;
}

}  // namespace ssac::cli
