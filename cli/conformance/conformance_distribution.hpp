// The distribution corpus (docs/conformance.md, "Distributional conformance"): small instances,
// each with the exact law of its outcome from the exact enumerator (ssac/exact.hpp). An
// implementation runs an instance N times with its own random numbers and `ssac gof` compares its
// outcomes with the law. Written by `ssac conformance --distribution --out DIR`.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "ssac/exact.hpp"

namespace ssac::cli::distribution {

// The corpus's files (name, content), the manifest last; deterministic, byte for byte.
std::vector<std::pair<std::string, std::string>> corpus_files();

// An instance's JSON: `head` (format, instance, data, parameters, oracle, ...) followed by the
// outcome's description, the support's size, the branches and the joint law of `r` (which needs
// ExactOptions::joint_queries), one outcome per line.
std::string law_text(nlohmann::ordered_json head, const ExactResult& r);

// The outcome written for one run: the final labels joined by ',' then ';' the queries of Phase 1
// and ';' those of Phase 2, e.g. "1,1,2,0;3;5".
std::string outcome_text(const std::vector<int>& labels, unsigned long long queries_phase1,
                         unsigned long long queries_phase2);

}  // namespace ssac::cli::distribution
