// The rules on which the paper's algorithm as written (the reference, semantics S1-S8) and the
// authors' published experiment code decide differently, each as one named choice. Two profiles
// name the two sets: `paper` (the reference and the default) and `authors-code` (what the code
// behind the paper's tables does, proofs-notes/semantics.md, "The authors-code profile"). Every
// rule can also be set alone, which is how docs/reproduction.md's ablation attributes the
// difference between the two.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ssac {

// Which row of a known cluster t the cluster-assignment query (Definition 4) asks about.
enum class AnchorRule {
  opener,               // the row that opened t, for the whole run (S3)
  lowest_labelled_row,  // the lowest-index row currently labelled t (moves as labels change)
  random_labelled_row,  // a row labelled t (or t's opener), drawn uniformly at every query
  random_known_row,     // as random_labelled_row, plus the rows a Phase-1 query placed in t
};
// "opener", "lowest-labelled-row", "random-labelled-row", "random-known-row"
const char* to_string(AnchorRule a);
// The two random rules draw anchors through the Chooser (Draw::anchor). A trace of version 4
// records each draw (an `anchor` event, docs/trace-format.md), so a run under either is replayed
// and its draws checked; a trace of an earlier version does not, and one whose header names either
// rule is refused. Neither is part of the authors-code profile.
inline bool draws_anchors(AnchorRule a) {
  return a == AnchorRule::random_labelled_row || a == AnchorRule::random_known_row;
}

// Which rows Phase 2 labels p (Algorithm 1, line 13).
enum class Phase2Labels {
  radius,  // C'_p = {x in S_i : d(x, mu'_p) < r'_i}, strict (S6)
  prefix,  // the first j* rows of the sorted S_i
};
const char* to_string(Phase2Labels a);  // "radius", "prefix"

struct Rules {
  AnchorRule anchor = AnchorRule::opener;
  Phase2Labels assignment = Phase2Labels::radius;
  // Off (S3): labels come only from Phase 2. On: a row that opens a cluster is labelled at once;
  // Phase 2 overwrites whatever label a row of C'_p had (another cluster's opener included); a
  // known cluster left with no labelled row is forgotten, with its centre and recovered mark,
  // and its number is free again.
  bool overwrite = false;
  // Off (S1): r = ceil(k eta) draws. On: r_i = min(ceil(k eta), |S_i|).
  bool sample_cap = false;
  // On (S4): Q(x, x) is asked like any other pair and the oracle answers it as it answers any
  // pair (a random-weak oracle abstains with probability 1 - q), so whether a Phase-1 draw is
  // assignment-known does not depend on which point was drawn, as Theorem 1's proof takes it.
  // Off (S4's former rule, `self-pairs=off`): never asked, taken as yes; a re-drawn anchor is then
  // always assignment-known and Theorem 1 is false (proofs-notes/theorem1-random-weak.md).
  bool self_pairs = true;
  // Off: a cluster whose Phase 2 labelled no row does not count as recovered (S8). On: it does.
  bool empty_recovers = false;
  // Off (S5): Algorithm 4's further queries are Q(x_j, y), y in B, as line 10 writes them. On
  // (`b-order=b-first`): Q(y, x_j), as the authors' code asks them inside its Algorithm-4 search.
  // The answers are the same for every oracle here (all are symmetric); the trace's queries are
  // not.
  bool b_first = false;

  bool operator==(const Rules&) const = default;
};

// The order of a generated dataset's rows: the paper's generator (Section 5.1) writes each
// cluster's rows as one block; the authors' code draws its data with scikit-learn's make_blobs,
// which shuffles them. Only a run on generated data has a row order to choose; with the
// lowest-labelled-row anchor it changes the run (proofs-notes/semantics.md, S9).
enum class RowOrder {
  blocks,    // cluster by cluster, as the generator draws them
  shuffled,  // permuted (ssac generate --shuffle)
};

// Elimination (S2) is the one rule kept in Params (Params::elimination), where it has always been;
// a profile sets it too. The row order is a rule of the data, not of the algorithm: a profile of a
// run on given rows (a file, a trace, a conformance vector) leaves it empty.
struct Profile {
  Rules rules;
  bool elimination = true;
  std::optional<RowOrder> rows = std::nullopt;
  bool operator==(const Profile&) const = default;
};

// The cluster-assignment rule by name (--assignment, and "assignment" in summaries and trace
// headers): "paper" is elimination on (S2), "code" off, as the authors' code assigns.
const char* assignment_name(bool elimination);
// The inverse of assignment_name: whether `name` switches elimination on; nullopt for another name.
std::optional<bool> parse_assignment(std::string_view name);
const std::vector<std::string>& assignment_names();  // "paper", "code"

// The paper's rules with the rows in blocks; the authors' code's with the rows shuffled.
Profile paper_profile();
// The rules a trace of format version 1 or 2, or an experiment summary written before the rules
// were recorded, was made under when it names none: the paper's with self-pairs=off, the default
// before S4 asked self-pairs (proofs-notes/semantics.md, S4).
Profile former_paper_profile();
Profile authors_code_profile();
// "paper" or "authors-code"; throws ParameterError naming the argument for any other name.
Profile profile_named(std::string_view name);
// "paper" or "authors-code" when the rules and elimination are that profile's and so is the row
// order, if there is one (a profile with no row order is named by its rules alone); "custom" for
// any other combination.
std::string profile_name(const Profile& p);
// Every rule as "name=value", space-separated, in a fixed order (for traces and summaries):
// anchor=opener|lowest-labelled-row|random-labelled-row|random-known-row phase2=radius|prefix
// overwrite=on|off sample-cap=on|off self-pairs=on|off empty-recovers=on|off elimination=on|off,
// then b-order=b-first when Algorithm 4 asks Q(y, x_j), then rows=shuffled when the rows are
// shuffled. The paper's b-order (xj-first), rows in blocks, or no row order, add nothing, so that
// the paper profile's string (and every trace's of a profile without them) is what it was before
// these became rules. A trace's header must hold exactly this string (read_header).
std::string describe(const Profile& p);
// Sets one rule from "name=value" in describe()'s vocabulary, rows=shuffled|blocks included;
// throws ParameterError naming the text and the admissible names or values.
void set_rule(Profile& p, std::string_view name_equals_value);
// As set_rule for a run on given rows (ssac cluster, a trace's header), which has no row order to
// choose: rows=... is refused with a ParameterError that says so.
void set_rule_given_rows(Profile& p, std::string_view name_equals_value);

}  // namespace ssac
