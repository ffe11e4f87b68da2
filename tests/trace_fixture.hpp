// The data the trace and validation tests share: three 2x2 squares of unit side, 10 apart, and
// their labels; small enough to read a trace of it by eye.
#pragma once

#include <vector>

#include "ssac/data.hpp"

namespace ssac::fixtures {

inline Matrix squares() {
  Matrix X(12, 2);
  X << 0, 0, 1, 0, 0, 1, 1, 1, 10, 0, 11, 0, 10, 1, 11, 1, 0, 10, 1, 10, 0, 11, 1, 11;
  return X;
}
inline const std::vector<int> kSquareLabels = {1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3};

}  // namespace ssac::fixtures
