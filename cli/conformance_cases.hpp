// The conformance corpus's content (docs/conformance.md): its data sets, its cases (one list per
// Phase-2 search, in the fixed order that gives the test ids) and the notes on the cases' flags.
// cmd_conformance.cpp runs the cases and lays out the files.
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "ssac/data.hpp"
#include "ssac/oracle_spec.hpp"
#include "ssac/ssac.hpp"

namespace ssac::cli::conformance {

struct Data {
  std::string name, description;
  Matrix X;
  std::vector<int> labels;
};

// Every data set, in the corpus's order.
std::vector<Data> datasets();

struct Case {
  std::string data;  // a dataset name
  std::string comment;
  std::vector<std::string> flags;
  int k = 2;
  double eta = 2.0;
  int beta = 3;
  bool elimination = true;
  OracleSpec oracle;
  std::function<bool(const Result&, const Data&, const Params&)> exercises;
  bool acceptable = false;
  bool needs_abstention = false;  // the weak oracle must have said not-sure at least once
  // The run at the same seed with a fresh oracle (OracleMemory::fresh, else the same spec) must
  // end otherwise: fail where this one recovers k clusters, or the reverse.
  bool differs_from_fresh = false;
};

// The cases of the file for search s, in the order of their test ids.
std::vector<Case> cases(Search s);

// {"Flag": {"description": ...}} for every flag a case may carry.
nlohmann::ordered_json notes();

}  // namespace ssac::cli::conformance
