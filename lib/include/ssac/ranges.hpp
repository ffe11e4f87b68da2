// The admissible range of every parameter of a run, in one place. The library's checks, the
// command line, the trace reader and the conformance corpus all take their bounds from here, so a
// value accepted by one entry point is accepted by all of them.
//
// The paper fixes the open ends: k >= 1 clusters (Algorithm 1), eta > 0 and beta >= 1 sampling
// numbers (Theorem 1), q in (0, 1] (Definition 5), nu >= 1 and rho in (0, 1] (Definitions 6, 7).
// The closed upper ends are the project's: past them a number is no longer a sampling number but a
// typo, and a run would only exhaust memory.
#pragma once

#include <cstddef>
#include <cstdint>

namespace ssac::range {

// beta in [1, kMaxBeta].
inline constexpr long long kMaxBeta = 1000000;
// r = ceil(k eta) in [1, kMaxSampleSize]: Phase 1 stores its r draws, about 120 bytes each with
// their bookkeeping (measured: r = 1e6 on 4 points peaks at 125 MB resident), so 1e6 keeps a run
// within what a laptop has; 1e8 needed 12 GB.
inline constexpr std::uint64_t kMaxSampleSize = 1000000;
// Cluster labels of a data file: 1..kMaxLabel.
inline constexpr long long kMaxLabel = 1000000;

// The generator of Section 5.1 (GeneratorParams, ssac generate, ssac experiment): n points in
// [kMinPoints, kMaxPoints], m coordinates in [1, kMaxDimension], and k clusters in
// [1, kMaxClusters] and at most n. kMaxClusters is kMaxLabel, so that the labels 1..k it writes
// read back as a data file's labels.
inline constexpr long long kMinPoints = 2;
inline constexpr long long kMaxPoints = 100000000;
inline constexpr long long kMaxDimension = 100000;
inline constexpr long long kMaxClusters = kMaxLabel;
// The reps of an experiment (N_rep, Section 5.2): [1, kMaxReps].
inline constexpr long long kMaxReps = 1000000000;

// Each throws ParameterError "NAME = VALUE is outside its admissible range RANGE".
void check_k(long long k, std::size_t n);  // [1, n]
void check_eta(double eta, int k);         // (0, inf) and ceil(k eta) <= kMaxSampleSize
void check_beta(long long beta);           // [1, kMaxBeta]
void check_q(double q);                    // (0, 1]
void check_nu(double nu);                  // [1, inf)
void check_rho(double rho);                // (0, 1]
void check_points(long long n);            // the generator's n: [kMinPoints, kMaxPoints]
void check_dimension(long long m);         // the generator's m: [1, kMaxDimension]
void check_clusters(long long k);          // the generator's k: [1, kMaxClusters] (k <= n apart)
void check_reps(long long reps);           // [1, kMaxReps]

}  // namespace ssac::range
