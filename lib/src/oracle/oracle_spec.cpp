#include "ssac/oracle_spec.hpp"

#include "ssac/error.hpp"
#include "ssac/ranges.hpp"

namespace ssac {

const char* to_string(OracleKind o) {
  switch (o) {
    case OracleKind::random:
      return "random";
    case OracleKind::local:
      return "local";
    case OracleKind::global:
      return "global";
    case OracleKind::perfect:
      return "perfect";
    case OracleKind::correlated:
      return "correlated";
    case OracleKind::interactive:
      break;
  }
  return "interactive";
}

std::optional<OracleKind> oracle_kind_from_string(std::string_view s) {
  for (OracleKind o : {OracleKind::random, OracleKind::local, OracleKind::global,
                       OracleKind::perfect, OracleKind::interactive, OracleKind::correlated})
    if (s == to_string(o)) return o;
  return std::nullopt;
}

void OracleSpec::check() const {
  if (uses_q()) range::check_q(q);
  if (uses_nu()) range::check_nu(nu);
  if (uses_rho()) range::check_rho(rho);
}

std::string OracleSpec::describe() const {
  std::string s = to_string(kind);
  if (uses_q()) s += " q=" + format_double(q);
  if (uses_nu()) s += " nu=" + format_double(nu);
  if (uses_rho()) s += " rho=" + format_double(rho);
  if (uses_memory() && memory != OracleMemory::fresh)
    s += std::string(" memory=") + to_string(memory);
  return s;
}

std::unique_ptr<Oracle> make_oracle(const OracleSpec& spec, const Matrix& X,
                                    const std::vector<int>& labels, Rng rng) {
  switch (spec.kind) {
    case OracleKind::perfect:
      return std::make_unique<PerfectOracle>(labels);
    case OracleKind::random:
      return std::make_unique<RandomWeakOracle>(labels, spec.q, rng, spec.memory);
    case OracleKind::correlated:
      return std::make_unique<CorrelatedWeakOracle>(X, labels, spec.q, spec.rho, rng);
    case OracleKind::local:
      return std::make_unique<DistanceWeakOracle>(
          DistanceWeakOracle::local(X, labels, spec.nu, spec.rho));
    case OracleKind::global:
      return std::make_unique<DistanceWeakOracle>(DistanceWeakOracle::global(X, labels, spec.rho));
    case OracleKind::interactive:
      break;
  }
  throw ParameterError("the interactive oracle asks a person and cannot be simulated");
}

}  // namespace ssac
