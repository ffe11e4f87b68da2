// Writes the Coq certificates of coq_certificate.hpp. The statement names the Coq definitions of
// proofs-notes/coq/Bounds.v (eta_perfect, eta_random, their *_pinelis variants, beta_random,
// beta_union), BoundsMcDiarmid.v (eta_mcdiarmid) and BinomialTail.v (the binomial sum) applied to
// the exact decimals; only the
// precision of the interval tactic comes from the C++ evaluation, and a wrong precision can make a
// true certificate fail, never a false one pass.
#include "ssac/theory/coq_certificate.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <utility>

#include "bounds_impl.hpp"

namespace ssac::theory {

std::string coq_real(const Decimal& x) {
  std::string c = x.coefficient().str();
  long long e = x.exponent();
  if (e >= 0) return e == 0 ? c : c + std::string(static_cast<std::size_t>(e), '0');
  return "(" + c + " / 1" + std::string(static_cast<std::size_t>(-e), '0') + ")";
}

namespace {

// Bits lost to 2^-b-sized quantities: log2(1/x) for 0 < x < 1, else 0.
double lost_bits(const Real50& x) {
  if (x <= 0 || x >= 1) return 0;
  return static_cast<double>(-log2(x));
}

// The interval precisions (bits) to try, first and fallback. The first separates the value from
// both ends of (c-1, c]: the bits of its relative gap to the nearer end, plus the bits the
// expression loses to cancellation (`lost`), plus a margin. A value certified only at 150 or 500
// digits sits closer to an integer than the 50-digit value can tell: its first try assumes a gap
// of 2^-20 and its fallback the certifying precision.
std::pair<int, int> precision_bits(const Certified& b, double lost) {
  const Real50 c = b.ceil->convert_to<Real50>();
  const Real50 gap = std::min(b.value - (c - 1), c - b.value);
  const double magnitude = static_cast<double>(log2(std::max(Real50(1), abs(b.value))));
  double rel_bits = magnitude + 20;
  if (b.digits <= 50 && gap > 0) rel_bits = magnitude - static_cast<double>(log2(gap));
  const int first = static_cast<int>(std::ceil(48 + rel_bits + lost));
  const int fallback =
      b.digits > 50 ? static_cast<int>(std::ceil(48 + b.digits * 3.33 + lost)) : 2 * first;
  return {first, fallback};
}

// The quantities of BinomialTail.eta_binomial_tail_lower for one row: H, qa = q^{k-1},
// c = (gamma-1)^2/8 and the target delta/(2k).
struct BinomialShape {
  Real50 h, qa, c, target;
};

// Integers a >= 1 and L >= 0 for which the capped terms' bound exp(a ln H + t ln M_{ac}) at size
// t is below e^-L, L = floor(ln(1/margin)) + 5 with margin = H M_c^t - target the closed form's
// margin, with the exponent at least 5 below -L; or none. a minimises the exponent (the Chernoff
// bound of P(Bin(t, qa) <= ln H / c)); at qa = 1 the exponent falls linearly in a.
std::optional<std::pair<BigInt, BigInt>> capped_terms_exponent(const BigInt& t,
                                                               const BinomialShape& b) {
  using std::ceil;
  using std::exp;
  using std::expm1;
  using std::log;
  using std::log1p;
  using std::round;
  const Real50 T = t.convert_to<Real50>();
  const Real50 log_h = log(b.h);
  const auto log_mixture = [&](const Real50& u) { return log1p(b.qa * expm1(-u)); };
  const Real50 margin = b.h * exp(T * log_mixture(b.c)) - b.target;
  if (!(margin > 0)) return std::nullopt;
  const Real50 r = log_h / (b.c * T);  // the cap's reach ln H / c as a fraction of t
  Real50 a_real;
  if (b.qa == 1) {
    if (!(r < 1)) return std::nullopt;
    a_real = ceil((20 - log(margin)) / (b.c * T - log_h));
  } else {
    if (!(r < b.qa)) return std::nullopt;
    a_real = round(-log(r * (1 - b.qa) / (b.qa * (1 - r))) / b.c);
  }
  if (a_real < 1) a_real = 1;
  if (!(a_real * log_h + T * log_mixture(a_real * b.c) < log(margin) - 10)) return std::nullopt;
  using std::floor;
  Real50 l_real = floor(-log(margin)) + 5;
  if (l_real < 0) l_real = 0;
  return std::pair{a_real.convert_to<BigInt>(), l_real.convert_to<BigInt>()};
}

struct Writer {
  std::ostringstream out;
  int lemmas = 0;

  void lemma(const std::string& name, const std::string& term, const Certified& b, double lost) {
    if (!b.ceil) {
      out << "(* " << name << ": no certified ceiling (value above about 10^484) *)\n";
      return;
    }
    const BigInt lo = *b.ceil - 1;
    const auto [first, fallback] = precision_bits(b, lost);
    out << "Lemma " << name << " : " << lo.str() << " < " << term << " <= " << b.ceil->str()
        << ".\nProof. certify " << first << "%positive " << fallback << "%positive. Qed.\n";
    ++lemmas;
  }

  // The binomial-sum eta s (BinomialTail.v): tail(s) <= delta/(2k) < tail(s-1). Certified only
  // where s equals the closed form's ceiling (the upper half is the closed form) and the capped
  // terms' bound H^a M_{ac}^{s-1} is far below the closed form's margin over the target at s-1.
  void binomial(const std::string& name, const std::string& h_term, const std::string& args,
                const std::string& target, const std::optional<BinomialEta>& bin,
                const Certified& closed, const BinomialShape& shape, double lost) {
    if (!bin) {
      out << "(* " << name << ": none printed (closed form above 10^40) *)\n";
      return;
    }
    if (!closed.ceil || bin->s != *closed.ceil) {
      // Below: the sum's cap saves samples. Above: only within the bisection's relative 1e-30
      // acceptance margin (certify.cpp), where the closed form's ceiling itself would be minimal.
      out << "(* " << name << ": " << bin->s.str() << " not certified: "
          << (closed.ceil && bin->s < *closed.ceil
                  ? "below the closed form's ceiling, the cap min(1, .) decides it"
                  : "not below the closed form's ceiling, no certified closed form to compare")
          << " *)\n";
      return;
    }
    const auto a_l = bin->s == 1 ? std::optional{std::pair{BigInt(1), BigInt(0)}}
                                 : capped_terms_exponent(BigInt(bin->s - 1), shape);
    if (!a_l) {
      out << "(* " << name << ": " << bin->s.str()
          << " not certified: the capped terms' bound exceeds the closed form's margin *)\n";
      return;
    }
    const auto [first, fallback] = precision_bits(closed, lost);
    const std::string tail = "eta_binomial_tail " + h_term + " " + args + " ";
    out << "Lemma " << name << " : " << tail << bin->s.str() << " <= " << target << " < " << tail
        << BigInt(bin->s - 1).str() << ".\nProof. ";
    if (bin->s == 1)
      out << "certify_binomial_1 " << first << "%positive " << fallback << "%positive. Qed.\n";
    else
      out << "certify_binomial " << first << "%positive " << fallback << "%positive "
          << a_l->first.str() << " " << a_l->second.str() << ". Qed.\n";
    ++lemmas;
  }
};

}  // namespace

std::string coq_certificate(const std::vector<Inputs>& rows) {
  Writer w;
  w.out << "(* Generated by `ssac bounds --coq`: each lemma proves c - 1 < value <= c for a "
           "printed ceiling c,\n   or tail(s) <= delta/(2k) < tail(s - 1) for a printed "
           "binomial-sum eta s\n   (proofs-notes/coq/Certificate.v). *)\n"
           "From Coq Require Import Reals.\nFrom SSAC Require Import Bounds BoundsMcDiarmid "
           "BinomialTail Certificate.\n"
           "Open Scope R_scope.\n";
  std::size_t i = 0;
  for (const Inputs& in : rows) {
    check(in);
    ++i;
    const std::string k = std::to_string(in.k), m = std::to_string(in.m), n = std::to_string(in.n),
                      d = coq_real(in.delta), g = coq_real(in.gamma), q = coq_real(in.q);
    w.out << "\n(* row " << i << ": k = " << k << ", m = " << m << ", n = " << n
          << ", delta = " << in.delta.str() << ", gamma = " << in.gamma.str()
          << ", q = " << in.q.str() << " *)\n";
    const std::string row = "row" + std::to_string(i) + "_";
    const Real50 gm1 = in.gamma.to<Real50>() - 1, qv = in.q.to<Real50>();
    // eta: gamma - 1 is formed from gamma (lost_bits(gamma - 1)); the mixture
    // 1 - qa (1 - e^{-c}) loses log2(1/(qa (1 - e^{-c}))) bits.
    const Real50 c = gm1 * gm1 / 8;
    const Real50 qa = pow(qv, in.k - 1);
    const double eta_lost = lost_bits(gm1) + lost_bits(qa * -expm1(-c)) + lost_bits(c);
    w.lemma(row + "eta_perfect", "eta_perfect " + k + " " + m + " " + d + " " + g,
            certified_eta_perfect(in), lost_bits(gm1));
    const Certified closed_random = certified_eta_random(in);
    w.lemma(row + "eta_random", "eta_random " + k + " " + m + " " + d + " " + g + " " + q,
            closed_random, eta_lost);
    w.lemma(row + "eta_perfect_pinelis", "eta_perfect_pinelis " + k + " " + d + " " + g,
            certified_eta_perfect_pinelis(in), lost_bits(gm1));
    const Certified closed_pinelis = certified_eta_random_pinelis(in);
    w.lemma(row + "eta_random_pinelis", "eta_random_pinelis " + k + " " + d + " " + g + " " + q,
            closed_pinelis, eta_lost);
    const std::string target = "(" + d + " / (2 * Rpos " + k + "))";
    const Real50 target_v = in.delta.to<Real50>() / (2 * Real50(in.k));
    w.binomial(row + "eta_random_binomial", "(Rpos " + m + " + 1)", k + " " + g + " " + q, target,
               eta_random_binomial(in, false), closed_random,
               BinomialShape{Real50(in.m + 1), qa, c, target_v}, eta_lost);
    w.binomial(row + "eta_random_binomial_pinelis", "2", k + " " + g + " " + q, target,
               eta_random_binomial(in, true), closed_pinelis,
               BinomialShape{Real50(2), qa, c, target_v}, eta_lost);
    // eta_mcdiarmid: its exponent c w/(1+w), w = sqrt(2 log(2k/delta)), in place of c.
    const Real50 root = sqrt(2 * (log(Real50(2 * in.k)) - log(in.delta.to<Real50>())));
    const Real50 c_mcd = c * (root / (1 + root));
    w.lemma(row + "eta_mcdiarmid", "eta_mcdiarmid " + k + " " + d + " " + g + " " + q,
            certified_eta_mcdiarmid(in),
            lost_bits(gm1) + lost_bits(qa * -expm1(-c_mcd)) + lost_bits(c_mcd));
    if (in.q.to<Real50>() == 1) {
      w.out << "(* beta_random, beta_union: q = 1, beta = 1 by definition (no logarithm) *)\n";
      continue;
    }
    // beta: 1 - q loses log2(1/(1-q)) bits and ln(1/(1-q)) ~ q loses log2(1/q).
    const double beta_lost = lost_bits(1 - qv) + lost_bits(qv);
    w.lemma(row + "beta_random", "beta_random " + k + " " + n + " " + d + " " + q,
            certified_beta_random(in), beta_lost);
    w.lemma(row + "beta_union", "beta_union " + k + " " + n + " " + d + " " + q,
            certified_beta_union(in), beta_lost);
  }
  w.out << "\n(* " << w.lemmas << " certified ceilings *)\n";
  return w.out.str();
}

}  // namespace ssac::theory
