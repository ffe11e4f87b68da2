// The two kinds of error a caller can act on, mapped to the command line's exit statuses
// (docs/conventions.md): a parameter outside its admissible range is the caller's to fix
// (exit 2, like any usage error); a file that cannot be read or written, or whose content is not
// what the format allows, is a data error (exit 1). Every message is one line that names the
// parameter and its range, or the file and the line and column. A verdict is no error: `ssac gof`
// returns 4 itself for a well-formed sample that does not fit the law, and a file that is no
// sample of that law (another instance's outcomes, a law given as outcomes) is a DataError.
#pragma once

#include <stdexcept>
#include <string>

namespace ssac {

class ParameterError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

class DataError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// "name = value is outside its admissible range RANGE", the wording every range check uses.
[[noreturn]] void throw_out_of_range(const std::string& name, double value,
                                     const std::string& range);
[[noreturn]] void throw_out_of_range(const std::string& name, long long value,
                                     const std::string& range);

// Shortest decimal that reads back as the same double (std::to_chars), e.g. "0.1", "1e-12".
std::string format_double(double x);

}  // namespace ssac
