// The one reader of numbers typed by a person or stored in a file (command-line options, CSV
// fields, the summaries `ssac merge` reads): decimal only, so that "010" is ten (not octal eight)
// and "0x10" is no number; a leading '+' is accepted; a value that the type cannot hold is "out of
// range", reported with the text as typed, never clamped or wrapped around.
#pragma once

#include <string>
#include <string_view>

namespace ssac::number {

enum class Status { ok, not_a_number, out_of_range };

// [+-]DIGITS in base 10, into -2^63 .. 2^63-1.
Status parse_int(std::string_view text, long long& out);
// [+]DIGITS in base 10, into 0 .. 2^64-1 ("-0" is 0; any other negative is out of range).
Status parse_uint(std::string_view text, unsigned long long& out);
// [+-] then DIGITS[.DIGITS], .DIGITS or DIGITS., then optionally e[+-]DIGITS; or inf, infinity or
// nan in any case. Rounded to the nearest double; a finite text beyond the largest double (1e400)
// is out of range; one below the smallest subnormal reads as zero.
Status parse_real(std::string_view text, double& out);

// The text as it may appear in a one-line message: control characters (NUL, CR, ESC, DEL, ...)
// written as \xHH, and at most `max` bytes kept (then "...").
std::string printable(std::string_view text, std::size_t max = 64);

// The message of a JSON reader's exception (nlohmann's what()) for a one-line error after the
// file's name: a number beyond the largest double ("number overflow parsing '1e400'") in the words
// parse_real's callers use, "'1e400' is out of range (beyond the largest double, about 1.8e308)";
// any other message without its "[json.exception...]" tag, printable.
std::string json_error_text(std::string_view what);

}  // namespace ssac::number
