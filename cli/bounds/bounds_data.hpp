// ssac bounds --data: Theorems 2 and 3 evaluated on a labelled CSV, one row per oracle and
// parameter combination, in every output format of `ssac bounds`.
#pragma once

#include <string>
#include <vector>

namespace ssac::cli {

struct DataRequest {
  std::string file;
  std::string oracle;  // local, global, both, or empty: both when --nu was given, else global
  bool nu_given = false;
  std::string format;                       // text, csv, markdown, latex or json
  std::vector<std::string> nu, rho, delta;  // the typed decimals
};

// Prints the rows and returns the exit status; errors are thrown (ParameterError, DataError)
// before anything is printed.
int run_data(const DataRequest& request);

}  // namespace ssac::cli
