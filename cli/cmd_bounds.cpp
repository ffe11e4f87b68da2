// ssac bounds: the paper's sampling numbers for every combination of the given parameter lists,
// computed by theory/ (proofs-notes/bounds.md). Integers are exact (boost cpp_int) and printed
// digit for digit, also in JSON, where they may exceed 2^64.
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "commands.hpp"
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

}  // namespace

Command add_bounds(CLI::App& root) {
  auto* app = root.add_subcommand(
      "bounds",
      "Print the paper's sampling numbers (eta, beta) for every combination of the given lists, "
      "with exact integer ceilings and the tighter variants (proofs-notes/bounds.md).");
  struct Opts {
    std::vector<long long> k{3}, m{2}, n{1000};
    std::vector<double> delta{0.05}, gamma{1.1}, q{0.9};
    std::string format = "text";
  };
  auto o = std::make_shared<Opts>();
  app->add_option("--k", o->k, "clusters, >= 1 (default 3)")->delimiter(',');
  app->add_option("--m", o->m, "dimension, >= 1 (default 2)")->delimiter(',');
  app->add_option("--n", o->n, "points, >= 2 (default 1000)")->delimiter(',');
  app->add_option("--delta", o->delta, "failure probability in (0, 1) (default 0.05)")
      ->delimiter(',');
  app->add_option("--gamma", o->gamma, "margin in (1, inf) (default 1.1)")->delimiter(',');
  app->add_option("--q", o->q, "random-weak oracle's q in (0, 1] (default 0.9)")->delimiter(',');
  app->add_option("--format", o->format, "text|csv|markdown|latex|json (default text)")
      ->check(CLI::IsMember({"text", "csv", "markdown", "latex", "json"}));
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
      "eta_random_binomial_pinelis against eta_random.");
  return {app, [o]() {
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
