// The conformance corpus's content (docs/conformance.md): its data sets, its cases (one list per
// Phase-2 search, in the fixed order that gives the test ids) and the notes on the cases' flags.
// cmd_conformance.cpp runs the cases and lays out the files.
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "ssac/data.hpp"
#include "ssac/observer.hpp"
#include "ssac/oracle_spec.hpp"
#include "ssac/rules.hpp"
#include "ssac/ssac.hpp"

namespace ssac::cli::conformance {

struct Data {
  std::string name, description;
  Matrix X;
  std::vector<int> labels;
};

// Every data set, in the corpus's order.
std::vector<Data> datasets();

// The run's state at a RunState report (ssac/observer.hpp): after Phase 1 (cluster_chosen) and
// after line 13 (iteration_ended). The cases on the authors-code rules read what happened to the
// known clusters, their openers and the labels from these.
struct State {
  RunState::Stage stage = RunState::Stage::iteration_ended;
  int iteration = 0;
  std::vector<int> labels, known;
  std::vector<std::size_t> openers;
};

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
  // Cases on the authors-code profile (S9): the profile's rules (elimination stays in
  // `elimination`), the one rule the case pins (a name of describe()), and what the run must show,
  // read from its states. The generator also requires that the trace with only the pinned rule
  // flipped in its header fails validation: that rule provably changes this trace.
  Rules rules{};
  std::string pins{};
  std::function<bool(const Result&, const Data&, const Params&, const std::vector<State>&)>
      history{};
  // The run at the same seed with a fresh oracle (OracleMemory::fresh, else the same spec) must
  // end otherwise: fail where this one recovers k clusters, or the reverse.
  bool differs_from_fresh = false;
};

// The cases of the file for search s, in the order of their test ids.
std::vector<Case> cases(Search s);

// Appends the cases on the authors-code profile (S9), one per rule that changes a run
// (conformance_rules.cpp); not for the plain search, which is the original SSAC.
void add_authors_code_cases(std::vector<Case>& c);
// Appends the notes on the flags those cases carry.
void add_authors_code_notes(nlohmann::ordered_json& n);
// Appends the two cases of B's argument order in Algorithm 4 (b-order, S5 and S9), one run under
// each order (conformance_rules.cpp); for the unified search only, the one that asks B as Algorithm
// 4 does.
void add_b_order_cases(std::vector<Case>& c);
// Appends the notes on the flags those cases carry.
void add_b_order_notes(nlohmann::ordered_json& n);

// {"Flag": {"description": ...}} for every flag a case may carry.
nlohmann::ordered_json notes();

}  // namespace ssac::cli::conformance
