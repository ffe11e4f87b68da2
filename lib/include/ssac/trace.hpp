// Traces: a versioned JSON Lines record of one SSAC run (docs/trace-format.md, schema
// schemas/ssac-trace-v1.schema.json), and their replay through the reference (`ssac validate`).
//
// A trace holds every random choice (the Phase-1 draws of Algorithm 1 line 4 and the draws of B in
// Algorithms 2 and 4) and every oracle answer, so a run can be replayed without sharing a random
// number generator: the replay's Chooser hands the reference the recorded draws, its Oracle the
// recorded answers, and the reference's own events are compared with the trace's one by one.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ssac/data.hpp"
#include "ssac/ssac.hpp"

namespace ssac {

inline constexpr const char* kTraceFormat = "ssac-trace";
inline constexpr int kTraceVersion = 1;

// SHA-256 (FIPS 180-4) of `bytes`, as 64 lowercase hex digits.
std::string sha256_hex(std::string_view bytes);

// The canonical byte form of a point set (docs/trace-format.md, "Fingerprint"): the ASCII tag
// "ssac-points-v1\n", n and m as unsigned 64-bit little-endian integers, then the n*m coordinates
// row by row as IEEE-754 binary64 little-endian, with -0.0 written as +0.0 (the two are the same
// point, and a CSV reader may produce either).
std::string canonical_points(const Matrix& X);
// "sha256:" followed by sha256_hex(canonical_points(X)).
std::string points_fingerprint(const Matrix& X);

// What the header records besides the data: the run's parameters, and for people reading the
// trace, where the answers came from (not used by the replay).
struct TraceHeader {
  Params params;
  std::string algorithm = "weak";  // "weak" (this paper) or "original" (search must be plain)
  std::string oracle;              // free text, e.g. "random q=0.7"; empty to omit
  std::optional<std::uint64_t> seed;
  // The random-weak oracle's memory (Definition 5 leaves it open). Written as "oracle_memory" only
  // when it is not fresh, and replayed: under per-pair every repeated pair must have one answer.
  OracleMemory memory = OracleMemory::fresh;
};

// The run as JSON Lines: one event per line, each line terminated by '\n'.
std::string format_trace(const Matrix& X, const TraceHeader& header, const Result& R);

// Tolerance of every floating-point comparison in a replay: |a - b| <= kTraceTolerance *
// max(1, |a|, |b|). Another implementation may sum a mean or a distance in another order; the
// reference's own results are compared bit for bit by the regeneration tests instead.
inline constexpr double kTraceTolerance = 1e-9;

struct Divergence {
  std::size_t event = 0;  // 1-based event number = line number in the trace
  int iteration = 0;      // 0 for the header and the final event
  int phase = 0;          // 1, 2, or 0 outside a phase
  std::string what;       // the field or event that differs
  std::string expected, found;
  bool near_tie =
      false;            // the difference is an order of points whose distances are within tolerance
  std::string message;  // one line: all of the above
};

struct ValidationReport {
  bool conforms = true;
  std::size_t events = 0;   // events in the trace
  std::size_t queries = 0;  // query events compared
  std::optional<Divergence> divergence;
};

// Replays the trace `text` (named `name` in messages) on the points X. Throws DataError with
// "NAME:LINE: message" when the trace does not parse, breaks the format, or was written for other
// data (fingerprint, n or m); a well-formed trace that the reference does not reproduce gives a
// report with the first divergence.
ValidationReport validate_trace(const Matrix& X, const std::string& text, const std::string& name);

}  // namespace ssac
