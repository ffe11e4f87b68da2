// JSON output of ssac's row-wise results: an array with one object per row, built as
// nlohmann::ordered_json values (key order kept) and written in the layout the commands have always
// printed, with exact numbers (cpp_int ceilings, decimals as typed) as JSON number tokens.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

namespace ssac::cli {

using Json = nlohmann::ordered_json;

// A JSON number given by its text, e.g. the digits of an integer beyond 2^64 or the decimal
// 1.000001. nlohmann's number types would round it, so it travels as a binary value of subtype
// kNumberToken, a type JSON text has no other use for, and write_rows prints its bytes as they
// are. Throws std::invalid_argument unless `token` is a JSON number.
inline constexpr std::uint64_t kNumberToken = 0x4e;
Json number_token(const std::string& token);

// "[\n {row},\n {row}\n]\n". Members are separated by ", " and key and value by ": ", except that
// a top-level member whose key is in `break_before` starts a new line indented by two spaces.
// Strings are escaped by nlohmann; floating-point values are refused (std::logic_error): reals
// are written as number_token or as strings, so that their digits are the caller's.
std::string write_rows(const std::vector<Json>& rows, const std::set<std::string>& break_before);

}  // namespace ssac::cli
