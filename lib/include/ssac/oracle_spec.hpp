// Which oracle answers a run, described once. The command line, the experiment, the conformance
// corpus and the trace header all read, check, build and print an oracle through this one
// description, so "random q=0.7" means the same thing everywhere.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ssac/data.hpp"
#include "ssac/oracle.hpp"
#include "ssac/rng.hpp"

namespace ssac {

// The numbers are part of the experiment's random-stream keys (docs/experiment.md, "Random
// streams"): random, local and global keep the values they have always had.
enum class OracleKind {
  random = 0,
  local = 1,
  global = 2,
  perfect = 3,
  interactive = 4,
  correlated = 5,  // CorrelatedWeakOracle: Definition 5's marginal, abstentions correlated
};
// "random", "local", "global", "perfect", "interactive", "correlated"
const char* to_string(OracleKind o);
std::optional<OracleKind> oracle_kind_from_string(std::string_view s);
// Every kind, in the order the command line lists them: perfect, random, local, global,
// correlated, interactive.
const std::vector<OracleKind>& oracle_kinds();
// The simulated kinds (all but interactive), in that order.
std::vector<OracleKind> simulated_oracle_kinds();
// The names of `kinds`, in their order (a command's choices).
std::vector<std::string> oracle_kind_names(const std::vector<OracleKind>& kinds);

struct OracleSpec {
  OracleKind kind = OracleKind::perfect;
  double q = 1.0;    // random-weak (Definition 5): a definite answer with probability q
  double nu = 1.0;   // local distance-weak (Definition 6)
  double rho = 1.0;  // local and global distance-weak (Definitions 6 and 7); correlated's hard set
  // Whether a repeated pair draws afresh (random-weak only; Definition 5 leaves it open).
  OracleMemory memory = OracleMemory::fresh;

  bool uses_q() const { return kind == OracleKind::random || kind == OracleKind::correlated; }
  bool uses_nu() const { return kind == OracleKind::local; }
  bool uses_rho() const {
    return kind == OracleKind::local || kind == OracleKind::global ||
           kind == OracleKind::correlated;
  }
  bool uses_memory() const { return kind == OracleKind::random; }
  // Whether it answers from the data's labels (every kind but the interactive one).
  bool simulated() const { return kind != OracleKind::interactive; }
  // The number of clusters of the oracle's clustering as far as a run on `data` may assume it:
  // Params::oracle_clusters, which decides whether the elimination rule applies (semantics S2).
  // A simulated oracle answers from the file's labels, so it has their number; a person's
  // clustering is not the file's labels (those only score the run), so 0: k is taken as their
  // claim. The one place where this is decided.
  int clusters(const Dataset& data) const { return simulated() ? data.num_labels() : 0; }

  // Throws ParameterError naming the first parameter of this kind outside its range
  // (ssac/ranges.hpp); parameters the kind does not use are not looked at.
  void check() const;
  // "random q=0.7", "local nu=1.5 rho=0.85", "global rho=0.7", "perfect": the kind, then its
  // parameters(); " memory=per-pair" when a random-weak oracle remembers (fresh, the default, is
  // not written).
  std::string describe() const;
  // "q=0.7", "nu=1.5 rho=0.85", "q=0.7 rho=0.85", "rho=0.7", "" (perfect): each parameter the kind
  // uses, in the order q, nu, rho, as the shortest decimal that reads back as the same double.
  std::string parameters() const;
};

// The inverse of OracleSpec::describe(): the spec whose describe() is `text` up to the order of
// its parameters, or nullopt when `text` is not such a description (an unknown kind, a parameter
// the kind does not use or lacks, a number that is not one, or one outside its range).
std::optional<OracleSpec> parse_oracle_spec(std::string_view text);

// The simulated oracle of `spec` answering from `labels` (1..K, one per row of X); `rng` is the
// random-weak oracle's own stream of abstentions, or the correlated oracle's one draw (unused by
// the other kinds). Throws
// ParameterError for the interactive kind, which needs a terminal (see InteractiveOracle).
std::unique_ptr<Oracle> make_oracle(const OracleSpec& spec, const Matrix& X,
                                    const std::vector<int>& labels, Rng rng);

// The oracle a run asks. This paper's weak SSAC asks `base` itself; the original SSAC of Ashtiani
// et al. assumes a yes/no oracle, so it asks `base` through a fair coin flip (from `coin`)
// wherever `base` abstains.
class AskedOracle {
 public:
  AskedOracle(Oracle& base, bool coin_flip, Rng coin) : base_(base) {
    if (coin_flip) coin_.emplace(base, coin);
  }
  Oracle& get() { return coin_ ? static_cast<Oracle&>(*coin_) : base_; }

 private:
  Oracle& base_;
  std::optional<CoinFlipOracle> coin_;
};

}  // namespace ssac
