#include "ssac/rules.hpp"

#include "ssac/error.hpp"

namespace ssac {

const char* to_string(AnchorRule a) {
  switch (a) {
    case AnchorRule::opener:
      return "opener";
    case AnchorRule::lowest_labelled_row:
      return "lowest-labelled-row";
    case AnchorRule::random_labelled_row:
      return "random-labelled-row";
    case AnchorRule::random_known_row:
      break;
  }
  return "random-known-row";
}

const char* to_string(Phase2Labels a) {
  return a == Phase2Labels::radius ? "radius" : "prefix";
}

const char* assignment_name(bool elimination) {
  return elimination ? "paper" : "code";
}

std::optional<bool> parse_assignment(std::string_view name) {
  for (bool elimination : {true, false})
    if (name == assignment_name(elimination)) return elimination;
  return std::nullopt;
}

const std::vector<std::string>& assignment_names() {
  static const std::vector<std::string> names = {assignment_name(true), assignment_name(false)};
  return names;
}

// The paper's generator writes each cluster's rows as one block (Section 5.1).
Profile paper_profile() {
  Profile p;
  p.rows = RowOrder::blocks;
  return p;
}

Profile former_paper_profile() {
  Profile p = paper_profile();
  p.rules.self_pairs = false;
  return p;
}

// The rules of the authors' published code, as read from it (proofs-notes/semantics.md, "The
// authors-code profile").
Profile authors_code_profile() {
  Profile p;
  p.rules.anchor = AnchorRule::lowest_labelled_row;
  p.rules.assignment = Phase2Labels::prefix;
  p.rules.overwrite = true;
  p.rules.sample_cap = true;
  p.rules.self_pairs = true;
  p.rules.empty_recovers = true;
  p.rules.b_first = true;  // its Algorithm-4 search asks weakQuery(b, x_j)
  p.elimination = false;
  p.rows = RowOrder::shuffled;  // make_blobs shuffles the rows
  return p;
}

Profile profile_named(std::string_view name) {
  if (name == "paper") return paper_profile();
  if (name == "authors-code") return authors_code_profile();
  throw ParameterError("semantics = '" + std::string(name) + "' is not one of paper, authors-code");
}

std::string profile_name(const Profile& p) {
  auto is = [&](const Profile& named) {
    return p.rules == named.rules && p.elimination == named.elimination &&
           (!p.rows || p.rows == named.rows);
  };
  if (is(paper_profile())) return "paper";
  if (is(authors_code_profile())) return "authors-code";
  return "custom";
}

std::string describe(const Profile& p) {
  auto on = [](bool b) { return b ? "on" : "off"; };
  return std::string("anchor=") + to_string(p.rules.anchor) +
         " phase2=" + to_string(p.rules.assignment) + " overwrite=" + on(p.rules.overwrite) +
         " sample-cap=" + on(p.rules.sample_cap) + " self-pairs=" + on(p.rules.self_pairs) +
         " empty-recovers=" + on(p.rules.empty_recovers) + " elimination=" + on(p.elimination) +
         (p.rules.b_first ? " b-order=b-first" : "") +
         (p.rows == RowOrder::shuffled ? " rows=shuffled" : "");
}

void set_rule(Profile& p, std::string_view text) {
  const auto eq = text.find('=');
  const std::string name(text.substr(0, eq)), value(eq == text.npos ? "" : text.substr(eq + 1));
  auto bad = [&](const std::string& admissible) {
    throw ParameterError("rule '" + std::string(text) + "': " + admissible);
  };
  auto on_off = [&](bool& field) {
    if (value != "on" && value != "off") bad(name + " takes on or off");
    field = value == "on";
  };
  if (name == "anchor") {
    for (AnchorRule a : {AnchorRule::opener, AnchorRule::lowest_labelled_row,
                         AnchorRule::random_labelled_row, AnchorRule::random_known_row})
      if (value == to_string(a)) {
        p.rules.anchor = a;
        return;
      }
    bad("anchor takes opener, lowest-labelled-row, random-labelled-row or random-known-row");
  } else if (name == "phase2") {
    if (value != "radius" && value != "prefix") bad("phase2 takes radius or prefix");
    p.rules.assignment = value == "radius" ? Phase2Labels::radius : Phase2Labels::prefix;
  } else if (name == "overwrite") {
    on_off(p.rules.overwrite);
  } else if (name == "sample-cap") {
    on_off(p.rules.sample_cap);
  } else if (name == "self-pairs") {
    on_off(p.rules.self_pairs);
  } else if (name == "empty-recovers") {
    on_off(p.rules.empty_recovers);
  } else if (name == "elimination") {
    on_off(p.elimination);
  } else if (name == "b-order") {
    if (value != "xj-first" && value != "b-first") bad("b-order takes xj-first or b-first");
    p.rules.b_first = value == "b-first";
  } else if (name == "rows") {
    if (value != "shuffled" && value != "blocks") bad("rows takes shuffled or blocks");
    p.rows = value == "shuffled" ? RowOrder::shuffled : RowOrder::blocks;
  } else {
    bad("the rules are anchor, phase2, overwrite, sample-cap, self-pairs, empty-recovers, "
        "elimination, b-order, rows");
  }
}

void set_rule_given_rows(Profile& p, std::string_view text) {
  if (text.substr(0, text.find('=')) == "rows")
    throw ParameterError("rule '" + std::string(text) +
                         "': the row order is a rule of generated data (ssac experiment); a run "
                         "on given rows takes them in their order");
  set_rule(p, text);
}

}  // namespace ssac
