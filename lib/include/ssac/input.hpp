// The one reader of a whole input file (a CSV, a law or outcomes of `ssac gof`, the answer log of
// the interactive oracle, a trace for the oracle check): a regular file by its size, or a pipe (a
// FIFO, `<(cat f)`) until its writer closes it. A pipe with no writer would block for ever, so its
// first bytes must arrive within kPipeWaitSeconds; a directory, a device (/dev/zero would never
// end) or a socket is refused, and so is an input longer than its cap. Every refusal is one
// DataError line starting with the path.
#pragma once

#include <cstdint>
#include <string>

namespace ssac {

// Long enough for a producer such as `<(zcat f.gz)` to send its first bytes, short enough that a
// FIFO nobody writes to is one error line well within the ten seconds a person or a script waits.
inline constexpr int kPipeWaitSeconds = 5;

// How an input is named in the messages (each after "PATH: "), and its cap.
struct InputKind {
  std::string cannot_open;  // it does not exist or cannot be opened
  std::string directory;    // it is a directory
  std::uint64_t max_bytes;  // longer inputs are refused with "PATH: " + too_long
  std::string too_long;
};

std::string read_input(const std::string& path, const InputKind& kind);

}  // namespace ssac
