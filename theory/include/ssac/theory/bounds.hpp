// The sampling numbers of Kim & Ghosh, "Semi-Supervised Active Clustering with Weak Oracles",
// computed exactly. Every function names the statement it implements; proofs-notes/bounds.md
// derives the numerically stable forms, the certification of the integer ceilings and every
// reading the paper leaves open. All logarithms are natural (the paper's log).
//
// Real-valued bounds are templates on the real type, explicitly instantiated for double and
// Real50 (50 decimal digits); other types are not instantiated. Integer arguments are counts
// (k clusters, m dimensions, n points). Every function checks its arguments and throws
// ssac::ParameterError naming the parameter and its admissible range. The functions on Inputs
// take delta, gamma and q as exact decimals (decimal.hpp), so their results are for the numbers
// typed on the command line, not for the nearest doubles.
#pragma once

#include <boost/multiprecision/cpp_bin_float.hpp>
#include <boost/multiprecision/cpp_int.hpp>
#include <cstdint>
#include <optional>
#include <string>

#include "ssac/data.hpp"
#include "ssac/theory/decimal.hpp"

namespace ssac::theory {

using Real50 = boost::multiprecision::cpp_bin_float_50;
using BigInt = boost::multiprecision::cpp_int;

// ---- Argument checks (each throws ssac::ParameterError) ---------------------------------------
// The admissible ranges, as the messages print them.
inline constexpr const char* kDeltaRange = "(0, 1)";
inline constexpr const char* kGammaRange = "(1, inf)";
inline constexpr const char* kQRange = "(0, 1]";
inline constexpr const char* kNuRange = "[1, inf)";
inline constexpr const char* kRhoRange = "(0, 1]";
void check_k(long long k);             // k >= 1
void check_m(long long m);             // m >= 1
void check_n(long long n);             // n >= 2 (log log n of Theorem 1 needs log n > 0)
void check_delta(double delta);        // delta in (0, 1)
void check_gamma(double gamma);        // gamma in (1, inf)
void check_q(double q);                // q in (0, 1]  (Definition 5)
void check_q_assign(double q_assign);  // q_assign in (0, 1]
// The same on exact decimals, compared exactly: 1.0000000000000000000001 is not a q, although
// its nearest double is 1. The message prints the decimal as typed (shortest form).
void check_delta(const Decimal& delta);
void check_gamma(const Decimal& gamma);
void check_q(const Decimal& q);
void check_nu(const Decimal& nu);    // nu in [1, inf)  (Definition 6)
void check_rho(const Decimal& rho);  // rho in (0, 1]  (Definitions 6 and 7)

// ---- Cluster-assignment success probability (Definition 4, appendix paragraph) -----------------
// With all k anchors known, ssac::Run::assign succeeds when the true anchor says yes, or when it
// is not-sure and the other k-1 say no: q + (1-q) q^(k-1) for an oracle that abstains
// independently with probability exactly 1-q.
template <class Real>
Real assign_success_exact(long long k, const Real& q);
// The appendix's expression k(1-q)q^(k-1) + q^k: at least k-1 definite answers. Equal to the
// exact value for k <= 2, a lower bound on it for k >= 3.
template <class Real>
Real assign_success_paper(long long k, const Real& q);
// The appendix's lower bound q^(k-1), used by Lemma distance_ran and Theorem 1. It is also the
// exact success probability in the worst state of the run: k-1 clusters known and x from the
// k-th (all k-1 answers must be no).
template <class Real>
Real assign_success_lower(long long k, const Real& q);
// The three as exact decimals, for a decimal q: each is a polynomial in q with integer
// coefficients, hence a decimal. Each is empty when it has more than `max_digits` significant
// digits (decided without expanding it when it would be long; proofs-notes/bounds.md, "Exact
// decimal inputs").
struct AssignSuccessDecimals {
  std::optional<Decimal> exact, paper, lower;
};
AssignSuccessDecimals assign_success_decimals(long long k, const Decimal& q,
                                              std::size_t max_digits);

// ---- eta: Phase-1 sample size per iteration
// ------------------------------------------------------ Remark after Theorem 1 (and the paragraph
// after Lemma distance_ran): perfect oracle, target probability delta/k:  8 (log k + log(m+1) +
// log(1/delta)) / (gamma-1)^2.
template <class Real>
Real eta_perfect(long long k, long long m, const Real& delta, const Real& gamma);
// Lemma distance_ran, last line of the proof, target delta/(2k):
//   (log(2k) + log(m+1) + log(1/delta)) / log(1/(1 - qa + qa e^{-(gamma-1)^2/8})).
template <class Real>
Real eta_assign(long long k, long long m, const Real& delta, const Real& gamma,
                const Real& q_assign);
// Theorem 1: eta_assign with qa = q^(k-1).
template <class Real>
Real eta_random(long long k, long long m, const Real& delta, const Real& gamma, const Real& q);
// Dimension-free variants: the factor (m+1) of the vector Hoeffding inequality (Theorem 8 of the
// appendix) replaced by Pinelis's 2 (Pinelis 1994, Theorem 3.5, Hilbert space: D = 1).
// Its statement for independent sums of finite laws in R^m is proved in proofs-notes/coq/Pinelis.v.
template <class Real>
Real eta_perfect_pinelis(long long k, const Real& delta, const Real& gamma);
template <class Real>
Real eta_random_pinelis(long long k, const Real& delta, const Real& gamma, const Real& q);
// Theorem 1 with Lemma 7's vector Hoeffding step replaced by McDiarmid's bounded-differences
// inequality on ||Ybar - mu|| (E ||Ybar - mu|| <= r/sqrt(l) by Jensen): dimension-free and proved
// (proofs-notes/bounds.md, "eta_mcdiarmid"). Target delta/(2k), L = log(2k/delta),
// w = sqrt(2L):  (L + w/2) / log(1/(1 - q^(k-1) + q^(k-1) e^{-(gamma-1)^2/8 * w/(1+w)})).
// At q = 1 it is ((1 + w) / eps)^2 with eps = (gamma-1)/2.
template <class Real>
Real eta_mcdiarmid(long long k, const Real& delta, const Real& gamma, const Real& q);
// The tail it inverts at a real size s >= 0: e^{w/2} (1 - qa + qa e^{-(gamma-1)^2/8 w/(1+w)})^s,
// qa = q^(k-1); at most delta/(2k) exactly when s >= eta_mcdiarmid.
template <class Real>
Real mcdiarmid_tail(long long k, const Real& delta, const Real& gamma, const Real& q,
                    const Real& s);
// Theorems 2 and 3 (proof of Theorem 2): target delta/k, margin epsilon <= (gamma-1)/2:
//   (log k + log(m+1) + log(1/delta)) / log(1/(1 - q^(k-1) + q^(k-1) e^{-epsilon^2/2})).
// With epsilon = (gamma-1)/2 this is the paper's expression.
template <class Real>
Real eta_distance_weak(long long k, long long m, const Real& delta, const Real& epsilon,
                       const Real& q);

// ---- beta: queries per binary-search step (Theorem 1)
// -------------------------------------------- (log(2k) + log log n + log(1/delta)) / log(1/(1-q));
// 0 at q = 1 (the paper: "beta >= 0").
template <class Real>
Real beta_random(long long k, long long n, const Real& delta, const Real& q);
// The union bound of Theorem 1's proof solved with this implementation's step count:
// S = bit_width(n) = floor(log2 n) + 1 steps at most (lib/src/algorithm/ssac.cpp,
// Run::binary_search), so beta must satisfy S (1-q)^beta <= delta/(2k):  log(2kS/delta) /
// log(1/(1-q)); 0 at q = 1.
template <class Real>
Real beta_union(long long k, long long n, const Real& delta, const Real& q);
// S above.
long long search_steps(long long n);

// ---- Section 3.2: dimension below which eta_perfect beats Ashtiani et al.'s O(1/(gamma-1)^4) ----
// log10 of (k/delta)^{1/(gamma-1)^2 - 1}; the value itself overflows every floating type at tight
// margins, so the logarithm is the primary result.
template <class Real>
Real dim_threshold_log10(long long k, const Real& delta, const Real& gamma);

// ---- Corollary 1
// --------------------------------------------------------------------------------- The corollary's
// own expression with every O(.) constant set to 1, verbatim (including its e^{-(gamma-1)^2} and
// log m where Theorem 1 has e^{-(gamma-1)^2/8} and log(m+1)):
//   beta_random * k log n + k^2 (log k + log m + log(1/delta)) /
//   log(1/(1-q^(k-1)+q^(k-1)e^{-(gamma-1)^2})).
template <class Real>
Real corollary1_expression(long long k, long long m, long long n, const Real& delta,
                           const Real& gamma, const Real& q);
// Explicit worst-case counts of Algorithm 1 with Algorithm 2 as implemented
// (lib/src/algorithm/ssac.cpp) for integer eta and beta: per iteration r = k eta cluster-assignment
// queries of at most k same-cluster queries each, and at most S = search_steps(n) search steps of
// beta queries each.
struct Corollary1Counts {
  BigInt queries;               // k (k * r + beta * S)
  BigInt distance_evaluations;  // k n: Phase 2 sorts S_i (|S_i| <= n) by d(x, mu_p')
  BigInt flops;                 // k n (3m): m subtractions, m products, m-1 sums and a sqrt
  long long sorts = 0;          // k sorts of at most n keys each
};
Corollary1Counts corollary1_counts(long long k, long long m, long long n, const BigInt& eta,
                                   const BigInt& beta);

// ---- Exact integers -----------------------------------------------------------------------------
// A real bound with its integer. `value` is the 50-digit evaluation; `ceil` is the exact
// ceiling of the real expression (for beta: the smallest integer >= 1 that is >= the value,
// since a search step must ask at least one query), certified by evaluating at 50 digits and
// escalating to 150 and 500 digits while the value lies too close to an integer or is too large
// for 50 digits to fix every integer digit. Empty only when the value exceeds about 10^484.
struct Certified {
  Real50 value;
  std::optional<BigInt> ceil;
  int digits = 0;  // precision (decimal digits) of the evaluation that certified `ceil`
};

// The parameters of one row of `ssac bounds`. A double converts to its exact value, so
// Inputs{3, 2, 1000, 0.05, 1.1, 0.9} means the doubles nearest to those numbers; the command line
// passes the typed decimals (Decimal("0.05")).
struct Inputs {
  long long k = 1, m = 1, n = 2;
  Decimal delta{"0.05"}, gamma{"1.1"}, q{"1"};
};
void check(const Inputs& in);  // all six parameters

Certified certified_eta_perfect(const Inputs& in);
Certified certified_eta_random(const Inputs& in);
Certified certified_eta_perfect_pinelis(const Inputs& in);
Certified certified_eta_random_pinelis(const Inputs& in);
Certified certified_eta_mcdiarmid(const Inputs& in);
// r = ceil(k eta_random) of Algorithm 1, line 1 (the draws per Phase 1 at Theorem 1's eta),
// certified as the eta ceilings are; `value` is k eta_random.
Certified certified_sample_size_random(const Inputs& in);
Certified certified_beta_random(const Inputs& in);
Certified certified_beta_union(const Inputs& in);
// beta_random with its log n read as log2 n (the paper's "log" read as base 2 in log log n only):
// (log(2k) + log(log2 n) + log(1/delta)) / log(1/(1-q)). Not a bound of the paper; the reading
// proofs-notes/smallscope.md checks against the search's ceil(log2(n+1)) steps.
Certified certified_beta_log2(const Inputs& in);
// dim_threshold_log10 and corollary1_expression at 50 digits for the exact inputs.
Real50 dim_threshold_log10(const Inputs& in);
Real50 corollary1_expression(const Inputs& in);

// ---- The tightest eta the proof of Lemma distance_ran supports
// ----------------------------------- The smallest integer s with
//   sum_{l=0..s} C(s,l) qa^l (1-qa)^(s-l) min(1, H e^{-l eps^2/2}) <= target,
// qa = q^(k-1), eps = (gamma-1)/2, target = delta/(2k), H = m+1 (vector Hoeffding) or 2 (Pinelis).
// The sum is evaluated in closed form with Boost.Math's binomial distribution at 50 digits
// (proofs-notes/bounds.md, "Binomial sum"); s is at most the closed form's ceiling.
struct BinomialEta {
  BigInt s;          // the smallest sample size (>= 1: the sum at s = 0 is 1)
  Real50 tail;       // the sum at s, <= target
  Real50 tail_prev;  // the sum at s - 1, > target
};
// Empty when the closed-form ceiling exceeds 10^40: beyond that the number of trials is no
// longer an exact 50-digit number and the bisection could not be certified.
std::optional<BinomialEta> eta_random_binomial(const Inputs& in, bool pinelis);
// The sum itself, for tests and for other callers.
Real50 binomial_tail(const BigInt& s, const Real50& q_assign, const Real50& gamma,
                     const Real50& hoeffding_factor);

// ---- Theorems 2 and 3: distance-weak oracles on a labelled dataset
// -------------------------------- G_i(c) = {x in C_i : d(x, mu_i) < c r(C_i)} (proof of Theorem
// 2). A cluster with r(C_i) = 0 has every point at its mean; it is counted as G_i(c) = C_i and x* =
// its points (ratio 0).
struct DistanceWeakReport {
  bool global = false;             // Theorem 3 (rho global) rather than Theorem 2 ((nu, rho) local)
  Decimal nu, rho;                 // the oracle's parameters (nu unused for the global oracle)
  double gamma = 0;                // the dataset's margin (ssac::cluster_stats), a supremum
  Decimal c_exact;                 // min{2rho-1, gamma-nu+1} (Theorem 2) or 2rho-1 (Theorem 3)
  double c = 0;                    // c_exact rounded to the nearest double, for display
  std::size_t worst_cluster = 0;   // 1-based id of the cluster attaining q_d
  std::size_t good = 0, size = 0;  // |G_i(c)| and |C_i| of that cluster
  Real50 q_d;                      // min_i |G_i(c)| / |C_i|  (q_d of Theorem 2, q_d' of Theorem 3)
  Real50 q;                        // 1 - (1-q_d)^2 (Theorem 2) or q_d^2 (Theorem 3)
  double t_max = 0;         // max_i min_{x in C_i} d(x, mu_i) / r(C_i): the best x* per cluster
                            // (the nearest double to the ratio)
  Real50 epsilon;           // min((gamma-1)/2, (c - t_max)/2): the epsilon that remains, from the
                            // exact c and the exact ratio
  bool nu_in_range = true;  // gamma <= nu <= gamma + 1 (Theorem 2), compared exactly
  bool x_star = false;      // every cluster has x* with d(x*, mu_i) < (c - 2 eps) r(C_i), eps > 0
  bool satisfied = false;   // gamma > 1, nu_in_range, x_star, q_d > 0
  std::optional<Certified> eta;  // eta_distance_weak(k, m, delta, epsilon, q) when satisfied
  // The corrected Theorems 2' and 3' (proofs-notes/distance-weak-corrected.md: anchors in G_i(c),
  // every draw placed): eta_mcdiarmid(k, delta, gamma', q = 1) at gamma' = 1 + 2 epsilon, passed
  // as the largest double at most 1 + 2 epsilon (the data's gamma itself when epsilon is
  // (gamma-1)/2); `ssac bounds --gamma gamma' --q 1 --coq` with gamma' typed as printed (the
  // shortest decimal of that double) evaluates and certifies the same expression at that decimal.
  // Set when satisfied.
  double gamma_corrected = 0;
  std::optional<Certified> eta_corrected;
};
// nu >= 1 (Definition 6) and rho in (0, 1] (Definitions 6 and 7) are checked; the dataset needs
// labels and k = its number of clusters, m = its dimension. nu, rho and delta are exact decimals
// (a double argument converts to its exact value); every comparison with the data's distances is
// exact.
DistanceWeakReport distance_weak_local(const Dataset& data, const Decimal& nu, const Decimal& rho,
                                       const Decimal& delta);
DistanceWeakReport distance_weak_global(const Dataset& data, const Decimal& rho,
                                        const Decimal& delta);
// The 50-digit eta_distance_weak with its certified ceiling.
Certified certified_eta_distance_weak(long long k, long long m, const Decimal& delta,
                                      const Real50& epsilon, const Real50& q);

// ---- Formatting
// ---------------------------------------------------------------------------------- `digits`
// significant decimal digits in scientific notation ("1.2345e+20"), or "inf".
std::string to_string(const Real50& x, int digits = 20);

}  // namespace ssac::theory
