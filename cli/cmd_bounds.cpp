// ssac bounds: the paper's sampling numbers for every combination of the given parameter lists,
// computed by theory/ (proofs-notes/bounds.md). Integers are exact (boost cpp_int) and printed
// digit for digit, also in JSON, where they may exceed 2^64.
#include <cmath>
#include <cstdio>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "commands.hpp"
#include "ssac/data.hpp"
#include "ssac/error.hpp"
#include "ssac/theory/bounds.hpp"

namespace ssac::cli {

namespace {

using theory::BigInt;
using theory::Certified;
using theory::Real50;

struct Row {
  theory::Inputs in;
  Certified eta_perfect, eta_random, beta_random, eta_perfect_pinelis, eta_random_pinelis,
      beta_union;
  std::optional<theory::BinomialEta> binom, binom_pinelis;
  Real50 p_exact, p_paper, p_lower, dim_log10, cor_expr;
  theory::Corollary1Counts counts;
};

Row compute(const theory::Inputs& in) {
  Row r;
  r.in = in;
  r.eta_perfect = theory::certified_eta_perfect(in);
  r.eta_random = theory::certified_eta_random(in);
  r.beta_random = theory::certified_beta_random(in);
  r.eta_perfect_pinelis = theory::certified_eta_perfect_pinelis(in);
  r.eta_random_pinelis = theory::certified_eta_random_pinelis(in);
  r.beta_union = theory::certified_beta_union(in);
  r.binom = theory::eta_random_binomial(in, false);
  r.binom_pinelis = theory::eta_random_binomial(in, true);
  const Real50 q(in.q), delta(in.delta), gamma(in.gamma);
  r.p_exact = theory::assign_success_exact<Real50>(in.k, q);
  r.p_paper = theory::assign_success_paper<Real50>(in.k, q);
  r.p_lower = theory::assign_success_lower<Real50>(in.k, q);
  r.dim_log10 = theory::dim_threshold_log10<Real50>(in.k, delta, gamma);
  r.cor_expr = theory::corollary1_expression<Real50>(in.k, in.m, in.n, delta, gamma, q);
  if (r.eta_random.ceil && r.beta_random.ceil)
    r.counts = theory::corollary1_counts(in.k, in.m, in.n, *r.eta_random.ceil, *r.beta_random.ceil);
  return r;
}

std::string int_or(const std::optional<BigInt>& x, const std::string& none) {
  return x ? x->str() : none;
}

// 1 - tight/paper: the fraction of the paper's integer that the tighter bound saves (negative:
// the tighter reading needs more).
std::string saving(const std::optional<BigInt>& tight, const std::optional<BigInt>& paper,
                   const std::string& none) {
  if (!tight || !paper || *paper == 0) return none;
  if (*tight == *paper) return "0.000000";
  const Real50 s = 1 - tight->convert_to<Real50>() / paper->convert_to<Real50>();
  std::ostringstream o;
  o << s.str(6, std::ios_base::fixed);
  return o.str();
}
std::string percent(const std::optional<BigInt>& tight, const std::optional<BigInt>& paper) {
  if (!tight || !paper || *paper == 0) return "-";
  if (*tight == *paper) return "0.0%";
  const Real50 s = 100 * (1 - tight->convert_to<Real50>() / paper->convert_to<Real50>());
  return s.str(1, std::ios_base::fixed) + "%";
}

std::optional<BigInt> binom_ceil(const std::optional<theory::BinomialEta>& b) {
  if (!b) return std::nullopt;
  return b->s;
}

std::string v(const Real50& x) {
  return theory::to_string(x, 20);
}

// ---- json ------------------------------------------------------------------------------------
std::string jstr(const std::string& s) {
  return "\"" + s + "\"";
}  // our strings need no escapes
std::string jbound(const Certified& c) {
  return "{\"value\": " + jstr(v(c.value)) + ", \"ceil\": " + int_or(c.ceil, "null") + "}";
}
std::string jbinom(const std::optional<theory::BinomialEta>& b) {
  if (!b) return "null";
  return "{\"ceil\": " + b->s.str() + ", \"tail\": " + jstr(v(b->tail)) +
         ", \"tail_prev\": " + jstr(v(b->tail_prev)) + "}";
}

void print_json(const std::vector<Row>& rows) {
  std::cout << "[";
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const Row& r = rows[i];
    const auto& in = r.in;
    std::cout << (i ? ",\n " : "\n ") << "{\"k\": " << in.k << ", \"m\": " << in.m
              << ", \"n\": " << in.n << ", \"delta\": " << format_double(in.delta)
              << ", \"gamma\": " << format_double(in.gamma) << ", \"q\": " << format_double(in.q)
              << ",\n  \"eta_perfect\": " << jbound(r.eta_perfect)
              << ",\n  \"eta_random\": " << jbound(r.eta_random)
              << ",\n  \"beta_random\": " << jbound(r.beta_random)
              << ",\n  \"eta_perfect_pinelis\": " << jbound(r.eta_perfect_pinelis)
              << ",\n  \"eta_random_pinelis\": " << jbound(r.eta_random_pinelis)
              << ",\n  \"eta_random_binomial\": " << jbinom(r.binom)
              << ",\n  \"eta_random_binomial_pinelis\": " << jbinom(r.binom_pinelis)
              << ",\n  \"beta_union\": " << jbound(r.beta_union)
              << ",\n  \"search_steps\": " << theory::search_steps(in.n)
              << ",\n  \"saving\": {\"eta_random_binomial\": "
              << saving(binom_ceil(r.binom), r.eta_random.ceil, "null")
              << ", \"eta_random_pinelis\": "
              << saving(r.eta_random_pinelis.ceil, r.eta_random.ceil, "null")
              << ", \"eta_random_binomial_pinelis\": "
              << saving(binom_ceil(r.binom_pinelis), r.eta_random.ceil, "null")
              << ", \"eta_perfect_pinelis\": "
              << saving(r.eta_perfect_pinelis.ceil, r.eta_perfect.ceil, "null")
              << ", \"beta_union\": " << saving(r.beta_union.ceil, r.beta_random.ceil, "null")
              << "}"
              << ",\n  \"assign_success\": {\"exact\": " << jstr(v(r.p_exact))
              << ", \"paper\": " << jstr(v(r.p_paper)) << ", \"lower\": " << jstr(v(r.p_lower))
              << "}"
              << ",\n  \"dim_threshold_log10\": " << jstr(v(r.dim_log10))
              << ",\n  \"corollary1\": {\"expression\": " << jstr(v(r.cor_expr))
              << ", \"queries\": " << r.counts.queries.str()
              << ", \"distance_evaluations\": " << r.counts.distance_evaluations.str()
              << ", \"flops\": " << r.counts.flops.str() << "}}";
  }
  std::cout << "\n]\n";
}

// ---- csv -------------------------------------------------------------------------------------
void print_csv(const std::vector<Row>& rows) {
  std::cout << "k,m,n,delta,gamma,q,eta_perfect,eta_perfect_ceil,eta_random,eta_random_ceil,"
               "beta_random,beta_random_ceil,eta_perfect_pinelis,eta_perfect_pinelis_ceil,"
               "eta_random_pinelis,eta_random_pinelis_ceil,eta_random_binomial_ceil,"
               "eta_random_binomial_pinelis_ceil,beta_union,beta_union_ceil,search_steps,"
               "assign_success_exact,assign_success_paper,assign_success_lower,"
               "dim_threshold_log10,corollary1_expression,corollary1_queries\n";
  for (const Row& r : rows) {
    const auto& in = r.in;
    auto b = [](const Certified& c) { return v(c.value) + "," + int_or(c.ceil, ""); };
    std::cout << in.k << "," << in.m << "," << in.n << "," << format_double(in.delta) << ","
              << format_double(in.gamma) << "," << format_double(in.q) << "," << b(r.eta_perfect)
              << "," << b(r.eta_random) << "," << b(r.beta_random) << ","
              << b(r.eta_perfect_pinelis) << "," << b(r.eta_random_pinelis) << ","
              << int_or(binom_ceil(r.binom), "") << "," << int_or(binom_ceil(r.binom_pinelis), "")
              << "," << b(r.beta_union) << "," << theory::search_steps(in.n) << "," << v(r.p_exact)
              << "," << v(r.p_paper) << "," << v(r.p_lower) << "," << v(r.dim_log10) << ","
              << v(r.cor_expr) << "," << r.counts.queries.str() << "\n";
  }
}

// ---- text: one block per combination ---------------------------------------------------------
void print_text(const std::vector<Row>& rows) {
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const Row& r = rows[i];
    const auto& in = r.in;
    if (i) std::cout << "\n";
    std::cout << "k = " << in.k << ", m = " << in.m << ", n = " << in.n
              << ", delta = " << format_double(in.delta) << ", gamma = " << format_double(in.gamma)
              << ", q = " << format_double(in.q) << "\n";
    auto line = [](const char* name, const std::string& integer, const std::string& value,
                   const std::string& note) {
      std::printf("  %-28s %24s  %-28s %s\n", name, integer.c_str(), value.c_str(), note.c_str());
    };
    const std::string na = "n/a";
    line("eta_perfect", int_or(r.eta_perfect.ceil, na), v(r.eta_perfect.value), "");
    line("eta_perfect_pinelis", int_or(r.eta_perfect_pinelis.ceil, na),
         v(r.eta_perfect_pinelis.value),
         "saves " + percent(r.eta_perfect_pinelis.ceil, r.eta_perfect.ceil));
    line("eta_random", int_or(r.eta_random.ceil, na), v(r.eta_random.value), "");
    line("eta_random_pinelis", int_or(r.eta_random_pinelis.ceil, na), v(r.eta_random_pinelis.value),
         "saves " + percent(r.eta_random_pinelis.ceil, r.eta_random.ceil));
    line("eta_random_binomial", int_or(binom_ceil(r.binom), na), "",
         "saves " + percent(binom_ceil(r.binom), r.eta_random.ceil));
    line("eta_random_binomial_pinelis", int_or(binom_ceil(r.binom_pinelis), na), "",
         "saves " + percent(binom_ceil(r.binom_pinelis), r.eta_random.ceil));
    line("beta_random", int_or(r.beta_random.ceil, na), v(r.beta_random.value), "");
    line("beta_union", int_or(r.beta_union.ceil, na), v(r.beta_union.value),
         "saves " + percent(r.beta_union.ceil, r.beta_random.ceil) +
             " (S = " + std::to_string(theory::search_steps(in.n)) + " search steps)");
    line("assign_success exact/paper/lower", "", v(r.p_exact), v(r.p_paper) + " / " + v(r.p_lower));
    line("dim_threshold_log10", "", v(r.dim_log10), "");
    line("corollary1 queries", r.counts.queries.str(), v(r.cor_expr),
         "(explicit count; corollary's expression)");
  }
}

// ---- markdown and latex: the central integers --------------------------------------------------
void print_table(const std::vector<Row>& rows, bool latex) {
  const std::vector<std::string> head = {
      "k",
      "m",
      "n",
      latex ? "$\\delta$" : "delta",
      latex ? "$\\gamma$" : "gamma",
      "q",
      latex ? "$\\eta_{\\mathrm{perfect}}$" : "eta_perfect",
      latex ? "$\\eta_{\\mathrm{random}}$" : "eta_random",
      latex ? "$\\eta_{\\mathrm{binom}}$" : "eta_binomial",
      latex ? "$\\eta_{\\mathrm{Pinelis}}$" : "eta_pinelis",
      latex ? "$\\eta_{\\mathrm{binom+P}}$" : "eta_binomial_pinelis",
      latex ? "saving" : "saving",
      latex ? "$\\beta_{\\mathrm{random}}$" : "beta_random",
      latex ? "$\\beta_{\\mathrm{union}}$" : "beta_union"};
  auto esc = [latex](std::string s) {
    if (!latex) return s;
    std::string o;
    for (char c : s)
      o += c == '%' ? std::string("\\%") : std::string(1, c);
    return o;
  };
  if (latex) {
    std::cout << "\\begin{tabular}{" << std::string(6, 'r') << std::string(head.size() - 6, 'r')
              << "}\n\\toprule\n";
  }
  const std::string sep = latex ? " & " : " | ";
  std::cout << (latex ? "" : "| ");
  for (std::size_t i = 0; i < head.size(); ++i)
    std::cout << (i ? sep : "") << head[i];
  std::cout << (latex ? " \\\\\n\\midrule\n" : " |\n|");
  if (!latex) {
    for (std::size_t i = 0; i < head.size(); ++i)
      std::cout << "---:|";
    std::cout << "\n";
  }
  for (const Row& r : rows) {
    const auto& in = r.in;
    const std::vector<std::string> cells = {
        std::to_string(in.k),
        std::to_string(in.m),
        std::to_string(in.n),
        format_double(in.delta),
        format_double(in.gamma),
        format_double(in.q),
        int_or(r.eta_perfect.ceil, "-"),
        int_or(r.eta_random.ceil, "-"),
        int_or(binom_ceil(r.binom), "-"),
        int_or(r.eta_random_pinelis.ceil, "-"),
        int_or(binom_ceil(r.binom_pinelis), "-"),
        esc(percent(binom_ceil(r.binom_pinelis), r.eta_random.ceil)),
        int_or(r.beta_random.ceil, "-"),
        int_or(r.beta_union.ceil, "-")};
    std::cout << (latex ? "" : "| ");
    for (std::size_t i = 0; i < cells.size(); ++i)
      std::cout << (i ? sep : "") << cells[i];
    std::cout << (latex ? " \\\\\n" : " |\n");
  }
  if (latex) std::cout << "\\bottomrule\n\\end{tabular}\n";
}

// ---- dataset mode: Theorems 2 and 3 on a labelled CSV ------------------------------------------
// One row per oracle and parameter combination. The numbers come from theory::distance_weak_local
// (Theorem 2, (nu, rho) local distance-weak oracle) and theory::distance_weak_global (Theorem 3,
// rho global distance-weak oracle); this file only adds the reason a row's conditions fail.
struct DataRow {
  theory::DistanceWeakReport r;
  double delta = 0;
  std::string reason;  // empty when the theorem's conditions hold
};

struct DataInfo {
  std::size_t k = 0, m = 0, n = 0;
};

// Every condition that theory::DistanceWeakReport::satisfied combines, in words: gamma > 1 and
// finite; gamma <= nu <= gamma + 1 (Theorem 2 only); an x* in every cluster with
// d(x*, mu_i) < (c - 2 epsilon) r(C_i) for some epsilon > 0, i.e. t_max < c; q_d > 0 (the proof's
// q_d = min_i |G_i(c)| / |C_i|).
std::string failure_reason(const theory::DistanceWeakReport& r) {
  std::vector<std::string> why;
  const std::string thm = r.global ? "Theorem 3" : "Theorem 2";
  if (!(r.gamma > 1))
    why.push_back("gamma = " + format_double(r.gamma) + " <= 1 (" + thm + " needs gamma > 1)");
  else if (!std::isfinite(r.gamma))
    why.push_back("gamma = inf (one cluster, or every cluster of radius 0): no finite margin");
  if (!r.nu_in_range)
    why.push_back("nu = " + format_double(r.nu) + " is outside [gamma, gamma+1] = [" +
                  format_double(r.gamma) + ", " + format_double(r.gamma + 1) + "]");
  if (!(r.c > 0)) {
    why.push_back("c = " + format_double(r.c) + " <= 0 leaves every G_i(c) empty, so no x*");
  } else {
    if (!r.x_star)
      why.push_back("no x*: some cluster has no point closer than c r(C_i) to its mean (t_max = " +
                    format_double(r.t_max) + " >= c = " + format_double(r.c) + ")");
    if (r.good == 0)
      why.push_back("q_d = 0: G_" + std::to_string(r.worst_cluster) + "(c) is empty");
  }
  std::string out;
  for (const auto& w : why)
    out += (out.empty() ? "" : "; ") + w;
  return out;
}

// v() for the dataset rows, with -0 (1 - (1 - 0)^2 in binary floating point) printed as 0.
std::string dv(const Real50& x) {
  return x == 0 ? v(Real50(0)) : v(x);
}

std::string fraction(const theory::DistanceWeakReport& r) {
  return std::to_string(r.good) + "/" + std::to_string(r.size);
}

// Six significant digits, no exponent for ordinary magnitudes (tables only).
std::string short_v(const Real50& x) {
  using boost::multiprecision::isinf;
  if (isinf(x)) return x > 0 ? "inf" : "-inf";
  return x.str(6);
}

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string o = "\"";
  for (char c : s)
    o += c == '"' ? std::string("\"\"") : std::string(1, c);
  return o + "\"";
}

std::string jesc(const std::string& s) {
  std::string o = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') o += '\\';
    o += c;
  }
  return o + "\"";
}

// A finite double as a JSON number (shortest exact form), infinity as null.
std::string jnum(double x) {
  return std::isfinite(x) ? format_double(x) : "null";
}

std::string jeta(const std::optional<Certified>& eta) {
  return eta ? jbound(*eta) : "null";
}

void print_data_json(const DataInfo& info, const std::vector<DataRow>& rows) {
  std::cout << "[";
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const auto& r = rows[i].r;
    std::cout << (i ? ",\n " : "\n ") << "{\"oracle\": " << (r.global ? "\"global\"" : "\"local\"")
              << ", \"theorem\": " << (r.global ? 3 : 2)
              << ", \"nu\": " << (r.global ? "null" : format_double(r.nu))
              << ", \"rho\": " << format_double(r.rho)
              << ", \"delta\": " << format_double(rows[i].delta) << ", \"k\": " << info.k
              << ", \"m\": " << info.m << ", \"n\": " << info.n
              << ",\n  \"gamma\": " << jnum(r.gamma) << ", \"c\": " << jnum(r.c)
              << ", \"worst_cluster\": " << r.worst_cluster << ", \"good\": " << r.good
              << ", \"size\": " << r.size << ", \"q_d\": " << jstr(dv(r.q_d))
              << ", \"q\": " << jstr(dv(r.q)) << ",\n  \"t_max\": " << jnum(r.t_max)
              << ", \"epsilon\": " << jstr(dv(r.epsilon))
              << ", \"nu_in_range\": " << (r.nu_in_range ? "true" : "false")
              << ", \"x_star\": " << (r.x_star ? "true" : "false")
              << ", \"satisfied\": " << (r.satisfied ? "true" : "false")
              << ",\n  \"eta\": " << jeta(r.eta)
              << ", \"reason\": " << (rows[i].reason.empty() ? "null" : jesc(rows[i].reason))
              << "}";
  }
  std::cout << "\n]\n";
}

void print_data_csv(const DataInfo& info, const std::vector<DataRow>& rows) {
  std::cout << "oracle,theorem,nu,rho,delta,k,m,n,gamma,c,worst_cluster,good,size,q_d,q,t_max,"
               "epsilon,nu_in_range,x_star,satisfied,eta,eta_ceil,reason\n";
  for (const DataRow& row : rows) {
    const auto& r = row.r;
    std::cout << (r.global ? "global,3," : "local,2,") << (r.global ? "" : format_double(r.nu))
              << "," << format_double(r.rho) << "," << format_double(row.delta) << "," << info.k
              << "," << info.m << "," << info.n << "," << format_double(r.gamma) << ","
              << format_double(r.c) << "," << r.worst_cluster << "," << r.good << "," << r.size
              << "," << dv(r.q_d) << "," << dv(r.q) << "," << format_double(r.t_max) << ","
              << dv(r.epsilon) << "," << (r.nu_in_range ? 1 : 0) << "," << (r.x_star ? 1 : 0) << ","
              << (r.satisfied ? 1 : 0) << "," << (r.eta ? v(r.eta->value) : "") << ","
              << (r.eta ? int_or(r.eta->ceil, "") : "") << "," << csv_field(row.reason) << "\n";
  }
}

void print_data_text(const std::string& file, const DataInfo& info,
                     const std::vector<DataRow>& rows) {
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const auto& r = rows[i].r;
    if (i) std::cout << "\n";
    std::cout << (r.global ? "global" : "local") << " distance-weak oracle (Theorem "
              << (r.global ? 3 : 2)
              << "): " << (r.global ? "" : "nu = " + format_double(r.nu) + ", ")
              << "rho = " << format_double(r.rho) << ", delta = " << format_double(rows[i].delta)
              << "\n";
    auto line = [](const char* name, const std::string& value, const std::string& note) {
      if (note.empty())
        std::printf("  %-12s %s\n", name, value.c_str());
      else
        std::printf("  %-12s %-28s %s\n", name, value.c_str(), note.c_str());
    };
    line("data", file,
         "k = " + std::to_string(info.k) + ", m = " + std::to_string(info.m) +
             ", n = " + std::to_string(info.n));
    line("gamma", format_double(r.gamma), "the dataset's margin (a supremum)");
    line("c", format_double(r.c), r.global ? "2rho-1" : "min{2rho-1, gamma-nu+1}");
    line(r.global ? "q_d'" : "q_d", dv(r.q_d),
         "min_i |G_i(c)|/|C_i| = " + fraction(r) + " (cluster " + std::to_string(r.worst_cluster) +
             ")");
    line("q", dv(r.q), r.global ? "q_d'^2" : "1-(1-q_d)^2");
    line("t_max", format_double(r.t_max), "max_i min_{x in C_i} d(x, mu_i)/r(C_i)");
    line("epsilon", dv(r.epsilon), "min((gamma-1)/2, (c-t_max)/2)");
    line("conditions", r.satisfied ? "hold" : "fail", rows[i].reason);
    if (r.eta)
      line("eta", int_or(r.eta->ceil, "n/a"), v(r.eta->value));
    else
      line("eta", "n/a", "");
  }
}

std::string latex_escape(const std::string& s) {
  std::string o;
  for (char c : s) {
    switch (c) {
      case '%':
      case '&':
      case '#':
      case '_':
      case '{':
      case '}':
      case '$':
        o += '\\';
        o += c;
        break;
      case '^':
        o += "\\^{}";
        break;
      case '~':
        o += "\\~{}";
        break;
      case '\\':
        o += "\\textbackslash{}";
        break;
      case '<':
        o += "$<$";
        break;
      case '>':
        o += "$>$";
        break;
      default:
        o += c;
    }
  }
  return o;
}

void print_data_table(const std::vector<DataRow>& rows, bool latex) {
  const std::vector<std::string> head =
      latex ? std::vector<std::string>{"oracle",      "$\\nu$", "$\\rho$", "$\\delta$",
                                       "$\\gamma$",   "$c$",    "$q_d$",   "$q$",
                                       "$\\epsilon$", "holds",  "$\\eta$", "reason"}
            : std::vector<std::string>{"oracle", "nu", "rho",     "delta", "gamma", "c",
                                       "q_d",    "q",  "epsilon", "holds", "eta",   "reason"};
  const std::string sep = latex ? " & " : " | ";
  if (latex) std::cout << "\\begin{tabular}{lrrrrrrrrlrl}\n\\toprule\n";
  std::cout << (latex ? "" : "| ");
  for (std::size_t i = 0; i < head.size(); ++i)
    std::cout << (i ? sep : "") << head[i];
  std::cout << (latex ? " \\\\\n\\midrule\n" : " |\n|");
  if (!latex) std::cout << "---|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---|\n";
  for (const DataRow& row : rows) {
    const auto& r = row.r;
    std::vector<std::string> cells = {r.global ? "global" : "local",
                                      r.global ? "-" : format_double(r.nu),
                                      format_double(r.rho),
                                      format_double(row.delta),
                                      short_v(Real50(r.gamma)),
                                      short_v(Real50(r.c)),
                                      fraction(r),
                                      short_v(r.q == 0 ? Real50(0) : r.q),
                                      short_v(r.epsilon == 0 ? Real50(0) : r.epsilon),
                                      r.satisfied ? "yes" : "no",
                                      r.eta ? int_or(r.eta->ceil, "-") : "-",
                                      row.reason};
    if (latex)
      for (auto& c : cells)
        c = latex_escape(c);
    std::cout << (latex ? "" : "| ");
    for (std::size_t i = 0; i < cells.size(); ++i)
      std::cout << (i ? sep : "") << cells[i];
    std::cout << (latex ? " \\\\\n" : " |\n");
  }
  if (latex) std::cout << "\\bottomrule\n\\end{tabular}\n";
}

struct Opts {
  std::vector<long long> k{3}, m{2}, n{1000};
  std::vector<double> delta{0.05}, gamma{1.1}, q{0.9};
  std::string format = "text";
  std::string data, oracle;
  std::vector<double> nu, rho{1.0};
  CLI::Option* data_opt = nullptr;
  CLI::Option* nu_opt = nullptr;
};

int run_data(const Opts& o) {
  // Which oracles: both when nu is given, else the global one, which needs no nu (Theorem 3).
  const std::string oracle = !o.oracle.empty() ? o.oracle : o.nu_opt->count() ? "both" : "global";
  if (oracle == "global" && o.nu_opt->count())
    throw ParameterError("--nu applies only to --oracle local or both");
  if (oracle != "global" && !o.nu_opt->count())
    throw ParameterError("--oracle " + oracle + " needs --nu (Theorem 2's nu >= 1)");
  const Dataset d = read_csv(o.data);
  if (!d.has_labels())
    throw DataError(o.data + ": no 'label' column; Theorems 2 and 3 need the oracle's clustering");
  const DataInfo info{static_cast<std::size_t>(d.num_labels()), d.m(), d.n()};
  // Every row is computed (and its parameters checked by theory/) before any output, so a bad
  // value prints nothing.
  std::vector<DataRow> rows;
  auto add = [&rows](theory::DistanceWeakReport r, double delta) {
    std::string why = r.satisfied ? std::string() : failure_reason(r);
    rows.push_back({std::move(r), delta, std::move(why)});
  };
  if (oracle != "global")
    for (double nu : o.nu)
      for (double rho : o.rho)
        for (double delta : o.delta)
          add(theory::distance_weak_local(d, nu, rho, delta), delta);
  if (oracle != "local")
    for (double rho : o.rho)
      for (double delta : o.delta)
        add(theory::distance_weak_global(d, rho, delta), delta);
  if (o.format == "json")
    print_data_json(info, rows);
  else if (o.format == "csv")
    print_data_csv(info, rows);
  else if (o.format == "markdown")
    print_data_table(rows, false);
  else if (o.format == "latex")
    print_data_table(rows, true);
  else
    print_data_text(o.data, info, rows);
  return 0;
}

}  // namespace

Command add_bounds(CLI::App& root) {
  auto* app = root.add_subcommand(
      "bounds",
      "Print the paper's sampling numbers (eta, beta) for every combination of the given lists, "
      "with exact integer ceilings and the tighter variants (proofs-notes/bounds.md).");
  auto o = std::make_shared<Opts>();
  auto* k_opt = app->add_option("--k", o->k, "clusters, >= 1 (default 3)")->delimiter(',');
  auto* m_opt = app->add_option("--m", o->m, "dimension, >= 1 (default 2)")->delimiter(',');
  auto* n_opt = app->add_option("--n", o->n, "points, >= 2 (default 1000)")->delimiter(',');
  app->add_option("--delta", o->delta, "failure probability in (0, 1) (default 0.05)")
      ->delimiter(',');
  auto* gamma_opt =
      app->add_option("--gamma", o->gamma, "margin in (1, inf) (default 1.1)")->delimiter(',');
  auto* q_opt = app->add_option("--q", o->q, "random-weak oracle's q in (0, 1] (default 0.9)")
                    ->delimiter(',');
  app->add_option("--format", o->format, "text|csv|markdown|latex|json (default text)")
      ->check(CLI::IsMember({"text", "csv", "markdown", "latex", "json"}));
  // Dataset mode (Theorems 2 and 3): k, m, n and gamma come from the file.
  auto* data_opt = o->data_opt = app->add_option(
      "--data", o->data,
      "labelled CSV (a 'label' column): evaluate Theorems 2 and 3 on it instead of the table");
  o->nu_opt = app->add_option("--nu", o->nu, "with --data: local oracle's nu >= 1 (Theorem 2)")
                  ->delimiter(',');
  auto* rho_opt = app->add_option("--rho", o->rho,
                                  "with --data: distance-weak oracle's rho in (0, 1] (default 1)")
                      ->delimiter(',');
  auto* oracle_opt =
      app->add_option("--oracle", o->oracle,
                      "with --data: local|global|both (default both with --nu, else global)")
          ->check(CLI::IsMember({"local", "global", "both"}));
  for (auto* opt : {k_opt, m_opt, n_opt, gamma_opt, q_opt})
    data_opt->excludes(opt);
  for (auto* opt : {o->nu_opt, rho_opt, oracle_opt})
    opt->needs(data_opt);
  app->footer(
      "Each LIST is comma-separated; one row per combination, in the order k, m, n, delta, gamma,\n"
      "q (q varies fastest). Logarithms are natural. Values are 50-digit evaluations printed with\n"
      "21 significant digits; integers are exact (certified ceilings, possibly above 2^64).\n"
      "\n"
      "Keys (json; csv columns use the same names, with _ceil for the integer):\n"
      "  eta_perfect          remark after Theorem 1: 8(log k+log(m+1)+log(1/delta))/(gamma-1)^2\n"
      "  eta_random           Theorem 1: (log 2k+log(m+1)+log(1/delta)) /\n"
      "                       log(1/(1-q^(k-1)+q^(k-1)e^{-(gamma-1)^2/8}))\n"
      "  beta_random          Theorem 1: (log 2k+log log n+log(1/delta))/log(1/(1-q)); ceil >= 1\n"
      "    each of these: {\"value\": string, \"ceil\": exact integer, null beyond ~1e484}\n"
      "  eta_perfect_pinelis, eta_random_pinelis\n"
      "                       the same with the vector Hoeffding factor m+1 replaced by Pinelis's\n"
      "                       dimension-free 2 (Pinelis 1994, Theorem 3.5)\n"
      "  eta_random_binomial, eta_random_binomial_pinelis\n"
      "                       smallest s with the binomial sum of Lemma distance_ran's proof\n"
      "                       <= delta/(2k): {\"ceil\": s, \"tail\": sum at s, \"tail_prev\": sum "
      "at\n"
      "                       s-1}; null when eta_random exceeds 1e40\n"
      "  beta_union           smallest beta >= 1 with S(1-q)^beta <= delta/(2k), S = search_steps\n"
      "  search_steps         S = floor(log2 n)+1, the longest binary search over n points\n"
      "  saving               1 - tight/paper for each tighter integer (negative: needs more)\n"
      "  assign_success       exact q+(1-q)q^(k-1), paper k(1-q)q^(k-1)+q^k, lower q^(k-1)\n"
      "  dim_threshold_log10  log10 of (k/delta)^(1/(gamma-1)^2-1) (Section 3.2)\n"
      "  corollary1           expression: Corollary 1 with O-constants 1; queries: explicit\n"
      "                       k(k*k*eta+beta*S) for eta, beta = the ceilings above;\n"
      "                       distance_evaluations: k n; flops: 3 k n m\n"
      "Formats markdown and latex (booktabs) show the central integers and the saving of\n"
      "eta_random_binomial_pinelis against eta_random.\n"
      "\n"
      "Dataset mode: ssac bounds --data FILE [--oracle local|global|both] [--nu LIST]\n"
      "  [--rho LIST] [--delta LIST] [--format ...] evaluates Theorem 2 ((nu, rho) local\n"
      "distance-weak oracle) and Theorem 3 (rho global) on a labelled CSV; k, m, n and gamma come\n"
      "from the file (--k --m --n --gamma --q are refused). --oracle defaults to both when --nu "
      "is\n"
      "given, else global; local rows need --nu. Rows: local for every (nu, rho, delta) with "
      "delta\n"
      "fastest, then global for every (rho, delta). Keys (json; csv columns likewise, eta as eta\n"
      "and eta_ceil, booleans as 1/0):\n"
      "  oracle, theorem      local (Theorem 2) or global (Theorem 3)\n"
      "  nu, rho, delta       the row's parameters (nu null/empty for global rows)\n"
      "  k, m, n              clusters (labels), dimension and points of the file\n"
      "  gamma                the file's gamma-margin (as ssac gamma; a supremum; json null if "
      "inf)\n"
      "  c                    min{2rho-1, gamma-nu+1} (Theorem 2) or 2rho-1 (Theorem 3)\n"
      "  worst_cluster, good, size\n"
      "                       the cluster i attaining q_d, |G_i(c)| and |C_i|, where\n"
      "                       G_i(c) = {x in C_i : d(x, mu_i) < c r(C_i)} (proof of Theorem 2)\n"
      "  q_d                  min_i |G_i(c)|/|C_i|: q_d of Theorem 2, q_d' of Theorem 3\n"
      "  q                    the q it implies: 1-(1-q_d)^2 (local) or q_d'^2 (global)\n"
      "  t_max                max_i min_{x in C_i} d(x, mu_i)/r(C_i): the best x* of the worst\n"
      "                       cluster; an x* exists in every cluster iff t_max < c\n"
      "  epsilon              min((gamma-1)/2, (c-t_max)/2): the largest epsilon the theorem's\n"
      "                       epsilon <= (gamma-1)/2 and x* condition leave (<= 0: none)\n"
      "  nu_in_range          gamma <= nu <= gamma+1 (Theorem 2; always true for global rows)\n"
      "  x_star               t_max < c, so some epsilon > 0 remains\n"
      "  satisfied            the theorem's conditions hold: gamma > 1 finite, nu_in_range,\n"
      "                       x_star, q_d > 0\n"
      "  eta                  {\"value\", \"ceil\"} of (log k+log(m+1)+log(1/delta)) /\n"
      "                       log(1/(1-q^(k-1)+q^(k-1)e^{-epsilon^2/2})) (proof of Theorem 2,\n"
      "                       target delta/k) at that epsilon and q; null unless satisfied\n"
      "  reason               why the conditions fail (null/empty when they hold)\n"
      "markdown and latex show oracle, nu, rho, delta, gamma, c, q_d as good/size, q, epsilon,\n"
      "holds, eta's ceiling and reason. Text prints one block per row.");
  return {app, [o]() {
            if (o->data_opt->count()) return run_data(*o);
            std::vector<Row> rows;
            for (long long k : o->k)
              for (long long m : o->m)
                for (long long n : o->n)
                  for (double delta : o->delta)
                    for (double gamma : o->gamma)
                      for (double q : o->q) {
                        const theory::Inputs in{k, m, n, delta, gamma, q};
                        theory::check(in);
                      }
            // Every combination is checked before any output, so a bad value prints nothing.
            for (long long k : o->k)
              for (long long m : o->m)
                for (long long n : o->n)
                  for (double delta : o->delta)
                    for (double gamma : o->gamma)
                      for (double q : o->q)
                        rows.push_back(compute({k, m, n, delta, gamma, q}));
            if (o->format == "json")
              print_json(rows);
            else if (o->format == "csv")
              print_csv(rows);
            else if (o->format == "markdown")
              print_table(rows, false);
            else if (o->format == "latex")
              print_table(rows, true);
            else
              print_text(rows);
            return 0;
          }};
}

}  // namespace ssac::cli
