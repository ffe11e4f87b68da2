#include "ssac/oracle_spec.hpp"

#include <cstdlib>
#include <string>
#include <vector>

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
  for (OracleKind o : oracle_kinds())
    if (s == to_string(o)) return o;
  return std::nullopt;
}

const std::vector<OracleKind>& oracle_kinds() {
  static const std::vector<OracleKind> kinds = {OracleKind::perfect,    OracleKind::random,
                                                OracleKind::local,      OracleKind::global,
                                                OracleKind::correlated, OracleKind::interactive};
  return kinds;
}

std::vector<OracleKind> simulated_oracle_kinds() {
  std::vector<OracleKind> kinds;
  for (OracleKind o : oracle_kinds())
    if (OracleSpec{o}.simulated()) kinds.push_back(o);
  return kinds;
}

std::vector<std::string> oracle_kind_names(const std::vector<OracleKind>& kinds) {
  std::vector<std::string> names;
  for (OracleKind o : kinds)
    names.emplace_back(to_string(o));
  return names;
}

void OracleSpec::check() const {
  if (uses_q()) range::check_q(q);
  if (uses_nu()) range::check_nu(nu);
  if (uses_rho()) range::check_rho(rho);
}

std::string OracleSpec::parameters() const {
  std::string s;
  auto add = [&s](const char* name, double v) {
    s += (s.empty() ? "" : " ") + std::string(name) + "=" + format_double(v);
  };
  if (uses_q()) add("q", q);
  if (uses_nu()) add("nu", nu);
  if (uses_rho()) add("rho", rho);
  return s;
}

std::string OracleSpec::describe() const {
  std::string s = to_string(kind);
  const std::string p = parameters();
  if (!p.empty()) s += " " + p;
  if (uses_memory() && memory != OracleMemory::fresh)
    s += std::string(" memory=") + to_string(memory);
  return s;
}

std::optional<OracleSpec> parse_oracle_spec(std::string_view text) {
  std::vector<std::string> words;
  std::string w;
  for (char c : text) {
    if (c != ' ') {
      w += c;
      continue;
    }
    if (w.empty()) return std::nullopt;  // describe() writes single spaces only
    words.push_back(w);
    w.clear();
  }
  if (w.empty()) return std::nullopt;
  words.push_back(w);
  OracleSpec spec;
  const auto kind = oracle_kind_from_string(words.front());
  if (!kind) return std::nullopt;
  spec.kind = *kind;
  bool has_q = false, has_nu = false, has_rho = false, has_memory = false;
  for (std::size_t i = 1; i < words.size(); ++i) {
    const auto eq = words[i].find('=');
    if (eq == std::string::npos) return std::nullopt;
    const std::string key = words[i].substr(0, eq), value = words[i].substr(eq + 1);
    if (key == "memory" && spec.uses_memory() && !has_memory) {
      if (value != to_string(OracleMemory::per_pair)) return std::nullopt;  // fresh is not written
      spec.memory = OracleMemory::per_pair;
      has_memory = true;
      continue;
    }
    char* end = nullptr;
    const double v = std::strtod(value.c_str(), &end);
    if (value.empty() || end != value.c_str() + value.size()) return std::nullopt;
    if (key == "q" && spec.uses_q() && !has_q) {
      spec.q = v;
      has_q = true;
    } else if (key == "nu" && spec.uses_nu() && !has_nu) {
      spec.nu = v;
      has_nu = true;
    } else if (key == "rho" && spec.uses_rho() && !has_rho) {
      spec.rho = v;
      has_rho = true;
    } else {
      return std::nullopt;
    }
  }
  if (has_q != spec.uses_q() || has_nu != spec.uses_nu() || has_rho != spec.uses_rho())
    return std::nullopt;
  try {
    spec.check();
  } catch (const ParameterError&) {
    return std::nullopt;
  }
  return spec;
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
