// ssac bounds: the paper's sampling numbers for every combination of the given parameter lists,
// computed by theory/ (proofs-notes/bounds.md) for the exact decimals typed. Integers are exact
// (boost cpp_int) and printed digit for digit, also in JSON, where they may exceed 2^64. Dataset
// mode (--data, Theorems 2 and 3) lives in bounds_data.cpp.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "bounds/bounds_common.hpp"
#include "bounds/bounds_data.hpp"
#include "bounds/bounds_help.hpp"
#include "commands/commands.hpp"
#include "options/decimal_option.hpp"
#include "options/option_checks.hpp"
#include "output/output_file.hpp"
#include "output/table.hpp"
#include "ssac/error.hpp"
#include "ssac/theory/coq_certificate.hpp"

namespace ssac::cli {

namespace {

using theory::BigInt;
using theory::Certified;
using theory::Real50;

// The *_pinelis bounds replace the vector Hoeffding factor m+1 by the 2 of Pinelis (1994),
// Theorem 3.5, proved for independent sums of finite laws in R^m in proofs-notes/coq/Pinelis.v;
// Theorem 1 at eta_random_pinelis is proved with no probabilistic premise
// (proofs-notes/coq/Theorem1Pinelis.v). Every output that uses the factor says where it is proved.
constexpr const char* kPinelisNote =
    "eta_perfect_pinelis, eta_random_pinelis, eta_random_binomial_pinelis and their savings use "
    "the factor 2 of Pinelis (1994), Theorem 3.5, proved for independent sums in R^m in "
    "proofs-notes/coq/Pinelis.v; Theorem 1 at eta_random_pinelis is machine-checked "
    "(proofs-notes/coq/Theorem1Pinelis.v)";

struct Row {
  theory::Inputs in;
  Certified eta_perfect, eta_random, beta_random, eta_perfect_pinelis, eta_random_pinelis,
      beta_union, eta_mcdiarmid;
  std::optional<theory::BinomialEta> binom, binom_pinelis;
  std::string p_exact, p_paper, p_lower;  // exact decimals or rounded values (exact_or_rounded)
  Real50 dim_log10, cor_expr;
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
  r.eta_mcdiarmid = theory::certified_eta_mcdiarmid(in);
  r.binom = theory::eta_random_binomial(in, false);
  r.binom_pinelis = theory::eta_random_binomial(in, true);
  // Definition 4's probabilities are polynomials in q: exact decimals when short enough.
  const auto exact = theory::assign_success_decimals(in.k, in.q, kExactDigits);
  const Real50 q = in.q.to<Real50>();
  r.p_exact = exact_or_rounded(exact.exact, theory::assign_success_exact<Real50>(in.k, q));
  r.p_paper = exact_or_rounded(exact.paper, theory::assign_success_paper<Real50>(in.k, q));
  r.p_lower = exact_or_rounded(exact.lower, theory::assign_success_lower<Real50>(in.k, q));
  r.dim_log10 = theory::dim_threshold_log10(in);
  r.cor_expr = theory::corollary1_expression(in);
  if (r.eta_random.ceil && r.beta_random.ceil)
    r.counts = theory::corollary1_counts(in.k, in.m, in.n, *r.eta_random.ceil, *r.beta_random.ceil);
  return r;
}

std::optional<BigInt> binom_ceil(const std::optional<theory::BinomialEta>& b) {
  if (!b) return std::nullopt;
  return b->s;
}

// 1 - tight/paper: the fraction of the paper's integer that the tighter bound saves (negative:
// the tighter reading needs more), with six decimals; empty when either integer is missing.
std::optional<std::string> saving(const std::optional<BigInt>& tight,
                                  const std::optional<BigInt>& paper) {
  if (!tight || !paper || *paper == 0) return std::nullopt;
  if (*tight == *paper) return "0.000000";
  const Real50 s = 1 - tight->convert_to<Real50>() / paper->convert_to<Real50>();
  return s.str(6, std::ios_base::fixed);
}
std::string percent(const std::optional<BigInt>& tight, const std::optional<BigInt>& paper) {
  if (!tight || !paper || *paper == 0) return "-";
  if (*tight == *paper) return "0.0%";
  const Real50 s = 100 * (1 - tight->convert_to<Real50>() / paper->convert_to<Real50>());
  return s.str(1, std::ios_base::fixed) + "%";
}

std::vector<std::string> input_cells(const theory::Inputs& in) {
  return {std::to_string(in.k), std::to_string(in.m), std::to_string(in.n),
          in.delta.str(),       in.gamma.str(),       in.q.str()};
}

// ---- json ------------------------------------------------------------------------------------
std::string json_output(const std::vector<Row>& rows) {
  auto binom = [](const std::optional<theory::BinomialEta>& b) {
    if (!b) return Json(nullptr);
    Json j;
    j["ceil"] = number_token(b->s.str());
    j["tail"] = value_text(b->tail);
    j["tail_prev"] = value_text(b->tail_prev);
    return j;
  };
  auto save = [](const std::optional<BigInt>& tight, const std::optional<BigInt>& paper) {
    const auto s = saving(tight, paper);
    return s ? number_token(*s) : Json(nullptr);
  };
  std::vector<Json> out;
  for (const Row& r : rows) {
    const auto& in = r.in;
    Json j;
    j["k"] = in.k;
    j["m"] = in.m;
    j["n"] = in.n;
    j["delta"] = number_token(in.delta.str());
    j["gamma"] = number_token(in.gamma.str());
    j["q"] = number_token(in.q.str());
    j["eta_perfect"] = certified_json(r.eta_perfect);
    j["eta_random"] = certified_json(r.eta_random);
    j["beta_random"] = certified_json(r.beta_random);
    j["eta_perfect_pinelis"] = certified_json(r.eta_perfect_pinelis);
    j["eta_random_pinelis"] = certified_json(r.eta_random_pinelis);
    j["eta_random_binomial"] = binom(r.binom);
    j["eta_random_binomial_pinelis"] = binom(r.binom_pinelis);
    j["eta_mcdiarmid"] = certified_json(r.eta_mcdiarmid);
    j["beta_union"] = certified_json(r.beta_union);
    j["search_steps"] = theory::search_steps(in.n);
    Json& s = j["saving"];
    s["eta_random_binomial"] = save(binom_ceil(r.binom), r.eta_random.ceil);
    s["eta_random_pinelis"] = save(r.eta_random_pinelis.ceil, r.eta_random.ceil);
    s["eta_random_binomial_pinelis"] = save(binom_ceil(r.binom_pinelis), r.eta_random.ceil);
    s["eta_perfect_pinelis"] = save(r.eta_perfect_pinelis.ceil, r.eta_perfect.ceil);
    s["beta_union"] = save(r.beta_union.ceil, r.beta_random.ceil);
    s["eta_mcdiarmid"] = save(r.eta_mcdiarmid.ceil, r.eta_random.ceil);
    j["assign_success"] = {{"exact", r.p_exact}, {"paper", r.p_paper}, {"lower", r.p_lower}};
    j["dim_threshold_log10"] = value_text(r.dim_log10);
    Json& c = j["corollary1"];
    c["expression"] = value_text(r.cor_expr);
    c["queries"] = number_token(r.counts.queries.str());
    c["distance_evaluations"] = number_token(r.counts.distance_evaluations.str());
    c["flops"] = number_token(r.counts.flops.str());
    j["pinelis"] = kPinelisNote;
    out.push_back(std::move(j));
  }
  return write_rows(
      out,
      {"eta_perfect", "eta_random", "beta_random", "eta_perfect_pinelis", "eta_random_pinelis",
       "eta_random_binomial", "eta_random_binomial_pinelis", "eta_mcdiarmid", "beta_union",
       "search_steps", "saving", "assign_success", "dim_threshold_log10", "corollary1", "pinelis"});
}

// ---- csv: every number, and the note on the Pinelis columns
// ---------------------------------------------------------------------------
Table csv_table(const std::vector<Row>& rows) {
  Table t;
  t.columns = columns(
      "k,m,n,delta,gamma,q,eta_perfect,eta_perfect_ceil,eta_random,eta_random_ceil,beta_random,"
      "beta_random_ceil,eta_perfect_pinelis,eta_perfect_pinelis_ceil,eta_random_pinelis,"
      "eta_random_pinelis_ceil,eta_random_binomial_ceil,eta_random_binomial_pinelis_ceil,"
      "eta_mcdiarmid,eta_mcdiarmid_ceil,eta_mcdiarmid_saving,beta_union,beta_union_ceil,search_"
      "steps,assign_success_exact,assign_success_paper,"
      "assign_success_lower,dim_threshold_log10,corollary1_expression,corollary1_queries,"
      "pinelis");
  for (const Row& r : rows) {
    std::vector<std::string> c = input_cells(r.in);
    for (const Certified* b : {&r.eta_perfect, &r.eta_random, &r.beta_random,
                               &r.eta_perfect_pinelis, &r.eta_random_pinelis}) {
      c.push_back(value_text(b->value));
      c.push_back(int_or(b->ceil, ""));
    }
    c.push_back(int_or(binom_ceil(r.binom), ""));
    c.push_back(int_or(binom_ceil(r.binom_pinelis), ""));
    c.push_back(value_text(r.eta_mcdiarmid.value));
    c.push_back(int_or(r.eta_mcdiarmid.ceil, ""));
    c.push_back(saving(r.eta_mcdiarmid.ceil, r.eta_random.ceil).value_or(""));
    c.push_back(value_text(r.beta_union.value));
    c.push_back(int_or(r.beta_union.ceil, ""));
    c.push_back(std::to_string(theory::search_steps(r.in.n)));
    for (const std::string* p : {&r.p_exact, &r.p_paper, &r.p_lower})
      c.push_back(*p);
    c.push_back(value_text(r.dim_log10));
    c.push_back(value_text(r.cor_expr));
    c.push_back(r.counts.queries.str());
    c.push_back(kPinelisNote);  // the JSON row's "pinelis", as its last column
    t.add(std::move(c));
  }
  return t;
}

// ---- text: one block per combination -----------------------------------------------------------
std::string text_output(const std::vector<Row>& rows) {
  std::string out;
  const std::string na = "n/a";
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const Row& r = rows[i];
    const auto& in = r.in;
    if (i) out += "\n";
    out += "k = " + std::to_string(in.k) + ", m = " + std::to_string(in.m) +
           ", n = " + std::to_string(in.n) + ", delta = " + in.delta.str() +
           ", gamma = " + in.gamma.str() + ", q = " + in.q.str() + "\n";
    // name, integer, value, note
    Table t{{{"", Align::left, "", 28, ""},
             {"", Align::right, "", 24, " "},
             {"", Align::left, "", 28, "  "},
             {"", Align::left, "", 0, " "}},
            {}};
    auto saves = [](const std::optional<BigInt>& tight, const std::optional<BigInt>& paper) {
      return "saves " + percent(tight, paper);
    };
    auto bound = [&](const char* name, const Certified& c, std::string note) {
      t.add({name, int_or(c.ceil, na), value_text(c.value), std::move(note)});
    };
    bound("eta_perfect", r.eta_perfect, "");
    // Pinelis's factor 2 is proved (Pinelis.v); Theorem 1 at eta_random_pinelis as a whole is
    // (Theorem1Pinelis.v), the perfect-oracle remark and the binomial-sum reading are not.
    const std::string factor =
        "; factor 2 proved (Pinelis 1994, Thm 3.5, in proofs-notes/coq/Pinelis.v)";
    bound("eta_perfect_pinelis", r.eta_perfect_pinelis,
          saves(r.eta_perfect_pinelis.ceil, r.eta_perfect.ceil) + factor);
    bound("eta_random", r.eta_random, "");
    bound("eta_random_pinelis", r.eta_random_pinelis,
          saves(r.eta_random_pinelis.ceil, r.eta_random.ceil) +
              "; machine-checked (Pinelis 1994, Thm 3.5, proved in proofs-notes/coq/Pinelis.v)");
    t.add({"eta_random_binomial", int_or(binom_ceil(r.binom), na), "",
           saves(binom_ceil(r.binom), r.eta_random.ceil)});
    t.add({"eta_random_binomial_pinelis", int_or(binom_ceil(r.binom_pinelis), na), "",
           saves(binom_ceil(r.binom_pinelis), r.eta_random.ceil) + factor});
    // Proved without a premise (proofs-notes/bounds.md, "eta_mcdiarmid"); no m in it, so it
    // overtakes eta_random as m grows.
    bound("eta_mcdiarmid", r.eta_mcdiarmid,
          saves(r.eta_mcdiarmid.ceil, r.eta_random.ceil) + "; McDiarmid, dimension-free");
    bound("beta_random", r.beta_random, "");
    bound("beta_union", r.beta_union,
          saves(r.beta_union.ceil, r.beta_random.ceil) +
              " (S = " + std::to_string(theory::search_steps(in.n)) + " search steps)");
    t.add({"assign_success exact/paper/lower", "", r.p_exact, r.p_paper + " / " + r.p_lower});
    t.add({"dim_threshold_log10", "", value_text(r.dim_log10), ""});
    t.add({"corollary1 queries", r.counts.queries.str(), value_text(r.cor_expr),
           "(explicit count; corollary's expression)"});
    out += to_text(t, {"  ", false, false});
  }
  return out;
}

// ---- markdown and latex: the central integers --------------------------------------------------
Table central_table(const std::vector<Row>& rows) {
  Table t;
  const std::vector<std::pair<const char*, const char*>> head = {
      {"k", ""},
      {"m", ""},
      {"n", ""},
      {"delta", "$\\delta$"},
      {"gamma", "$\\gamma$"},
      {"q", ""},
      {"eta_perfect", "$\\eta_{\\mathrm{perfect}}$"},
      {"eta_random", "$\\eta_{\\mathrm{random}}$"},
      {"eta_binomial", "$\\eta_{\\mathrm{binom}}$"},
      // Pinelis's factor 2, proved (proofs-notes/coq/Pinelis.v).
      {"eta_pinelis", "$\\eta_{\\mathrm{Pinelis}}$"},
      {"eta_binomial_pinelis", "$\\eta_{\\mathrm{binom+P}}$"},
      {"saving (binomial+Pinelis)", "saving (binom.+P)"},
      // McDiarmid's inequality in place of vector Hoeffding: proved, no m (bounds.md).
      {"eta_mcdiarmid", "$\\eta_{\\mathrm{McD}}$"},
      {"saving (mcdiarmid)", "saving (McD.)"},
      {"beta_random", "$\\beta_{\\mathrm{random}}$"},
      {"beta_union", "$\\beta_{\\mathrm{union}}$"}};
  for (const auto& [name, latex] : head)
    t.columns.push_back({name, Align::right, latex});
  for (const Row& r : rows) {
    std::vector<std::string> c = input_cells(r.in);
    for (const auto& x : {r.eta_perfect.ceil, r.eta_random.ceil, binom_ceil(r.binom),
                          r.eta_random_pinelis.ceil, binom_ceil(r.binom_pinelis)})
      c.push_back(int_or(x, "-"));
    c.push_back(percent(binom_ceil(r.binom_pinelis), r.eta_random.ceil));
    c.push_back(int_or(r.eta_mcdiarmid.ceil, "-"));
    c.push_back(percent(r.eta_mcdiarmid.ceil, r.eta_random.ceil));
    c.push_back(int_or(r.beta_random.ceil, "-"));
    c.push_back(int_or(r.beta_union.ceil, "-"));
    t.add(std::move(c));
  }
  return t;
}

struct Opts {
  std::vector<long long> k{3}, m{2}, n{1000};
  std::vector<std::string> delta{"0.05"}, gamma{"1.1"}, q{"0.9"};
  std::string format = "text";
  std::string data, oracle, coq;
  std::vector<std::string> nu, rho{"1"};
  CLI::Option* data_opt = nullptr;
  CLI::Option* nu_opt = nullptr;
};

int run_table(const Opts& o) {
  const auto deltas = decimals("delta", o.delta, theory::kDeltaRange);
  const auto gammas = decimals("gamma", o.gamma, theory::kGammaRange);
  const auto qs = decimals("q", o.q, theory::kQRange);
  // One row per combination, all held until printed (the text and table formats align their
  // columns): the grid is capped, and checked before anything is computed.
  constexpr std::uint64_t kMaxRows = 10000;  // about 7 ms a row (measured): a few minutes at most
  std::uint64_t combos = 1;
  for (std::size_t len :
       {o.k.size(), o.m.size(), o.n.size(), deltas.size(), gammas.size(), qs.size()}) {
    combos = len > 0 && combos > kMaxRows / len ? kMaxRows + 1 : combos * len;
  }
  if (combos > kMaxRows)
    throw ParameterError("the lists of --k, --m, --n, --delta, --gamma and --q make more than " +
                         std::to_string(kMaxRows) +
                         " combinations, the most one table holds; split them over several runs");
  std::vector<theory::Inputs> inputs;
  for (long long k : o.k)
    for (long long m : o.m)
      for (long long n : o.n)
        for (const auto& delta : deltas)
          for (const auto& gamma : gammas)
            for (const auto& q : qs)
              inputs.push_back({k, m, n, delta, gamma, q});
  // Every combination is checked before any output, so a bad value prints nothing.
  for (const auto& in : inputs)
    theory::check(in);
  OutputFiles outputs;  // --coq: the certificates of the ceilings (proofs-notes/coq/README.md)
  if (!o.coq.empty()) outputs.file("--coq", o.coq);
  std::vector<Row> rows;
  for (const auto& in : inputs)
    rows.push_back(compute(in));
  std::string out;
  if (o.format == "json")
    out = json_output(rows);
  else if (o.format == "csv")
    out = to_csv(csv_table(rows));
  else if (o.format == "markdown")
    out = to_markdown(central_table(rows));
  else if (o.format == "latex")
    out = to_latex(central_table(rows));
  else
    out = text_output(rows);
  if (!o.coq.empty()) {
    outputs.stage(o.coq, theory::coq_certificate(inputs));
    outputs.commit();
  }
  std::cout << out;
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
  auto* coq_opt = app->add_option(
      "--coq", o->coq,
      "also write FILE, a Coq file proving each closed-form ceiling and binomial-sum eta it can "
      "(proofs-notes/coq/README.md)");
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
  for (auto* opt : {k_opt, m_opt, n_opt, gamma_opt, q_opt, coq_opt})
    data_opt->excludes(opt);
  for (auto* opt : {o->nu_opt, rho_opt, oracle_opt})
    opt->needs(data_opt);
  app->footer(kBoundsHelpFooter);
  path_options(app, {"--data", "--coq"});
  return {app, [o]() {
            if (!o->data_opt->count()) return run_table(*o);
            return run_data(
                {o->data, o->oracle, o->nu_opt->count() > 0, o->format, o->nu, o->rho, o->delta});
          }};
}

}  // namespace ssac::cli
