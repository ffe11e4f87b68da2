// ssac smallscope: exhaustive exact checking of Theorem 1 and Appendix C on every small instance
// of a grid (ssac/theory/smallscope.hpp; proofs-notes/smallscope.md).
#include <algorithm>
#include <iostream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>

#include "commands/commands.hpp"
#include "options/option_checks.hpp"
#include "output/output_file.hpp"
#include "ssac/csv.hpp"
#include "ssac/error.hpp"
#include "ssac/exact.hpp"
#include "ssac/theory/smallscope.hpp"

namespace ssac::cli {

namespace {

namespace ss = theory::smallscope;

struct Opts {
  long long min_n = 2, max_n = 5, max_k = 3, side1 = 6, side2 = 3, levels = 3;
  std::vector<int> dims = {1, 2};
  std::vector<std::string> q = {"0.5", "0.7", "0.8", "0.9", "0.93", "0.964", "0.99"};
  std::vector<std::string> delta = {"0.1", "0.2"};
  std::vector<std::string> claims = {"theorem1", "appendix-c"};
  std::vector<std::string> betas = {"paper", "union"};
  std::vector<std::string> rules = {"paper"};
  long long max_branches = 20'000, max_states = 1'000'000, max_runs = 200'000, threads = 1,
            top = 20;
  std::string orders = "all";
  std::string engine = "counts";
  std::string format = "text";
  std::string json, csv;
};

theory::Decimal decimal_arg(const char* name, const std::string& text) {
  const theory::DecimalParse p = theory::Decimal::parse(text);
  if (!p.value || !p.value->is_finite())
    throw ParameterError(std::string("--") + name + ": '" + text + "' " +
                         (p.value ? std::string("is not finite") : p.error));
  return *p.value;
}

std::string points_text(const ss::Instance& in) {
  std::string s;
  for (const auto& p : in.points) {
    if (!s.empty()) s += " ";
    if (in.m == 1) {
      s += std::to_string(p[0]);
    } else {
      s += "(" + std::to_string(p[0]) + "," + std::to_string(p[1]) + ")";
    }
  }
  return s;
}

std::string labels_text(const ss::Instance& in) {
  std::string s;
  for (int l : in.labels)
    s += (s.empty() ? "" : " ") + std::to_string(l);
  return s;
}

std::string both(const Rational& x) {
  return fraction_string(x) + " (" + decimal_string(x, 6) + ")";
}

Rational rational_of(const theory::Decimal& d) {
  const long long e = d.exponent();
  const boost::multiprecision::cpp_int scale = boost::multiprecision::pow(
      boost::multiprecision::cpp_int(10), static_cast<unsigned>(e < 0 ? -e : e));
  return e < 0 ? Rational(d.coefficient(), scale) : Rational(d.coefficient() * scale);
}

// What the exact runs of one k reached: the frontier a researcher needs to read a sweep's
// "beyond reach" (which r the engine decided, which r it did not, and which budget stopped it).
struct Reach {
  std::size_t done = 0, reexecutions = 0, states = 0, beta = 0;  // the last three: beyond, by why
  std::uint64_t r_done = 0;                                      // the largest r of a run done
  std::uint64_t r_beyond_min = 0, r_beyond_max = 0;              // over the runs beyond reach
};

// One line of the summary table: a (claim, beta, rule) and what its checks gave.
struct Group {
  std::size_t checked = 0, beyond = 0, violations = 0;
  std::optional<std::size_t> worst;  // the check of the largest P/delta among those run
  Rational worst_ratio;
};

int run_smallscope(const Opts& o) {
  ss::Options opt;
  ss::Grid& g = opt.grid;
  g.min_n = static_cast<int>(to_size("min-n", o.min_n, 2, 8));
  g.max_n = static_cast<int>(to_size("max-n", o.max_n, 2, 8));
  g.max_k = static_cast<int>(to_size("max-k", o.max_k, 1, 3));
  g.side1 = static_cast<int>(to_size("side1", o.side1, 2, 12));
  g.side2 = static_cast<int>(to_size("side2", o.side2, 2, 4));
  g.threshold_levels = static_cast<int>(to_size("threshold-levels", o.levels, 0, 10));
  g.dims = o.dims;
  for (int m : g.dims)
    if (m != 1 && m != 2) throw_out_of_range("dims", static_cast<long long>(m), "{1, 2}");
  for (const auto& q : o.q)
    g.q.push_back(decimal_arg("q", q));
  for (const auto& d : o.delta)
    g.delta.push_back(decimal_arg("delta", d));
  opt.claims.clear();
  for (const auto& c : o.claims)
    opt.claims.push_back(*ss::parse_claim(c));  // CLI11 has checked the names
  opt.betas.clear();
  for (const auto& b : o.betas)
    opt.betas.push_back(*ss::parse_beta_kind(b));
  opt.rules = o.rules;
  opt.orders = *ss::parse_orders(o.orders);  // CLI11 has checked the name
  if (o.rules.size() == 1 && o.rules[0] == "all") opt.rules = ss::rule_names();
  opt.max_branches = to_size("max-branches", o.max_branches, 1, 1'000'000'000'000);
  opt.max_states = to_size("max-states", o.max_states, 1, 1'000'000'000'000);
  opt.max_runs = to_size("max-runs", o.max_runs, 1, 100'000'000);
  if (o.engine == "paths") opt.engine = ExactOptions::Engine::paths;
  if (o.engine == "states") opt.engine = ExactOptions::Engine::states;
  if (o.engine == "counts") opt.engine = ExactOptions::Engine::counts;
  opt.threads = static_cast<unsigned>(to_size("threads", o.threads, 1, 256));
  to_size("top", o.top, 0, 1'000'000);

  OutputFiles outputs;  // --json, --csv: checked before the sweep starts
  if (!o.json.empty()) outputs.file("--json", o.json);
  if (!o.csv.empty()) outputs.file("--csv", o.csv);
  const ss::Report rep = ss::sweep(opt);

  // Violations, ranked by P/delta (largest first; ties in the checks' order), and the groups.
  std::map<std::tuple<int, int, std::size_t>, Group> groups;
  for (ss::Claim c : opt.claims)
    for (ss::BetaKind b : opt.betas)
      for (std::size_t r = 0; r < opt.rules.size(); ++r)
        groups[{static_cast<int>(c), static_cast<int>(b), r}];
  std::vector<std::pair<Rational, std::size_t>> viol;
  for (std::size_t i = 0; i < rep.checks.size(); ++i) {
    const ss::Check& c = rep.checks[i];
    const ss::Run& run = rep.runs[c.run];
    Group& gr = groups[{static_cast<int>(c.claim), static_cast<int>(c.beta_kind), c.rule}];
    ++gr.checked;
    if (!run.done) {
      ++gr.beyond;
      continue;
    }
    const Rational ratio = run.p_not_recovered / rational_of(c.delta);
    if (!gr.worst || ratio > gr.worst_ratio) {
      gr.worst = i;
      gr.worst_ratio = ratio;
    }
    if (ratio > 1) {
      ++gr.violations;
      viol.emplace_back(ratio, i);
    }
  }
  std::stable_sort(viol.begin(), viol.end(),
                   [](const auto& a, const auto& b) { return a.first > b.first; });

  std::size_t meet = 0, def1 = 0, def2 = 0, done = 0, beyond = 0;
  std::uint64_t reexecutions = 0, merged = 0;  // over the runs done
  std::size_t by_counts = 0;                   // runs done with Phase 1 by counts
  for (const auto& why : rep.instance_skip) {
    if (why.empty()) ++meet;
    if (why.rfind("Definition 1", 0) == 0) ++def1;
    if (why.rfind("Definition 2", 0) == 0) ++def2;
  }
  // Runs of another row order whose P (the theorem's event; exact's P(failure)) differs from
  // the lexicographic order's.
  std::size_t other_law = 0, other_failure = 0;
  std::map<long long, Reach> reach;  // by k
  for (const auto& run : rep.runs) {
    (run.done ? done : beyond) += 1;
    Reach& re = reach[rep.instances[run.instance].clusters()];
    if (run.done) {
      ++re.done;
      re.r_done = std::max(re.r_done, run.r);
    } else {
      const bool first = re.reexecutions + re.states + re.beta == 0;
      (run.beyond == ss::Run::Beyond::states ? re.states
       : run.beyond == ss::Run::Beyond::beta ? re.beta
                                             : re.reexecutions) += 1;
      re.r_beyond_min = first ? run.r : std::min(re.r_beyond_min, run.r);
      re.r_beyond_max = std::max(re.r_beyond_max, run.r);
    }
    reexecutions += run.branches;
    merged += run.merged;
    by_counts += run.by_counts ? 1 : 0;
    if (!run.done || run.order.empty()) continue;
    other_law += run.p_not_recovered != rep.runs[run.lex_run].p_not_recovered;
    other_failure += run.p_failure != rep.runs[run.lex_run].p_failure;
  }

  auto check_json = [&](std::size_t i, const Rational& ratio, std::size_t rank) {
    const ss::Check& c = rep.checks[i];
    const ss::Run& run = rep.runs[c.run];
    const ss::Instance in = rep.instance_of(c);
    nlohmann::ordered_json j;
    if (rank) j["rank"] = rank;
    j["claim"] = ss::to_string(c.claim);
    j["search"] = to_string(ss::search_of(c.claim));
    j["beta_kind"] = ss::to_string(c.beta_kind);
    j["rule"] = opt.rules[c.rule];
    j["m"] = in.m;
    j["n"] = in.n();
    j["k"] = in.clusters();
    j["points"] = in.points;
    j["labels"] = in.labels;
    j["margin"] = rep.margin[c.instance];
    j["gamma"] = c.gamma.str();
    j["q"] = c.q.str();
    j["delta"] = c.delta.str();
    j["eta"] = theory::to_string(c.eta, 10);
    j["r"] = c.r;
    j["beta_value"] = theory::to_string(c.beta_value, 10);
    j["beta"] = c.beta;
    j["p_not_recovered"] = {{"fraction", fraction_string(run.p_not_recovered)},
                            {"decimal", decimal_string(run.p_not_recovered, 20)}};
    j["ratio"] = {{"fraction", fraction_string(ratio)}, {"decimal", decimal_string(ratio, 20)}};
    j["p_failure_fewer_than_k"] = fraction_string(run.p_failure);
    j["data_csv"] = ss::instance_csv(in);
    j["reproduce"] = ss::reproduce_command(rep, c, "instance.csv");
    return j;
  };

  const std::string event = "the output is not the oracle's clustering: 1 - P(exact recovery)";
  std::string json_text, csv_text;
  {
    nlohmann::ordered_json j;
    nlohmann::ordered_json s;
    s["event"] = event;
    s["labelled_point_sets"] = rep.enumerated;
    s["instances"] = rep.instances.size();
    s["meet_hypotheses"] = meet;
    s["fail_definition1"] = def1;
    s["fail_definition2"] = def2;
    s["checks"] = rep.checks.size();
    s["exact_runs"] = rep.runs.size();
    s["exact_runs_done"] = done;
    s["exact_runs_beyond_reach"] = beyond;
    s["max_branches"] = opt.max_branches;
    if (opt.engine == ExactOptions::Engine::counts) s["max_states"] = opt.max_states;
    s["engine"] = o.engine;
    s["reexecutions"] = reexecutions;
    s["merged"] = merged;
    if (opt.engine == ExactOptions::Engine::counts) s["phase1_by_counts"] = by_counts;
    s["uncertified"] = rep.uncertified;
    if (opt.orders == ss::Orders::all) {
      s["orders"] = "all";
      s["lexicographic_runs"] = rep.lex_runs;
      s["order_sensitive_runs"] = rep.order_sensitive_runs;
      s["other_order_runs"] = rep.runs.size() - rep.lex_runs;
      s["other_order_runs_another_p"] = other_law;
      s["other_order_runs_another_p_failure"] = other_failure;
    }
    s["violations"] = viol.size();
    j["summary"] = s;
    nlohmann::ordered_json rs = nlohmann::ordered_json::array();
    for (const auto& [k, re] : reach) {
      nlohmann::ordered_json e;
      e["k"] = k;
      e["runs_done"] = re.done;
      e["largest_r_done"] = re.r_done;
      e["beyond_reach_reexecutions"] = re.reexecutions;
      e["beyond_reach_states"] = re.states;
      e["beyond_reach_beta"] = re.beta;
      if (re.reexecutions + re.states + re.beta)
        e["beyond_reach_r"] = {re.r_beyond_min, re.r_beyond_max};
      rs.push_back(e);
    }
    j["reach_by_k"] = rs;
    nlohmann::ordered_json gs = nlohmann::ordered_json::array();
    for (const auto& [key, gr] : groups) {
      nlohmann::ordered_json e;
      e["claim"] = ss::to_string(static_cast<ss::Claim>(std::get<0>(key)));
      e["beta_kind"] = ss::to_string(static_cast<ss::BetaKind>(std::get<1>(key)));
      e["rule"] = opt.rules[std::get<2>(key)];
      e["checks"] = gr.checked;
      e["beyond_reach"] = gr.beyond;
      e["violations"] = gr.violations;
      if (gr.worst) e["worst"] = check_json(*gr.worst, gr.worst_ratio, 0);
      gs.push_back(e);
    }
    j["groups"] = gs;
    nlohmann::ordered_json vs = nlohmann::ordered_json::array();
    for (std::size_t i = 0; i < viol.size(); ++i)
      vs.push_back(check_json(viol[i].second, viol[i].first, i + 1));
    j["violations"] = vs;
    json_text = j.dump(2) + "\n";
  }
  {
    std::ostringstream csv;
    csv << "rank,claim,search,beta_kind,rule,m,n,k,points,labels,margin,gamma,q,delta,eta,r,"
           "beta_value,beta,p_not_recovered,p_decimal,ratio,ratio_decimal,p_failure_fewer_"
           "than_k,reproduce\n";
    for (std::size_t i = 0; i < viol.size(); ++i) {
      const nlohmann::ordered_json j = check_json(viol[i].second, viol[i].first, i + 1);
      const ss::Instance in = rep.instance_of(rep.checks[viol[i].second]);
      const std::string quoted = csv::quoted(j["reproduce"].get<std::string>());
      csv << i + 1 << "," << j["claim"].get<std::string>() << "," << j["search"].get<std::string>()
          << "," << j["beta_kind"].get<std::string>() << "," << j["rule"].get<std::string>() << ","
          << in.m << "," << in.n() << "," << in.clusters() << ",\"" << points_text(in) << "\","
          << labels_text(in) << "," << j["margin"].get<std::string>() << ","
          << j["gamma"].get<std::string>() << "," << j["q"].get<std::string>() << ","
          << j["delta"].get<std::string>() << "," << j["eta"].get<std::string>() << ","
          << j["r"].get<std::uint64_t>() << "," << j["beta_value"].get<std::string>() << ","
          << j["beta"].get<std::uint64_t>() << ","
          << j["p_not_recovered"]["fraction"].get<std::string>() << ","
          << j["p_not_recovered"]["decimal"].get<std::string>() << ","
          << j["ratio"]["fraction"].get<std::string>() << ","
          << j["ratio"]["decimal"].get<std::string>() << ","
          << j["p_failure_fewer_than_k"].get<std::string>() << "," << quoted << "\n";
    }
    csv_text = csv.str();
  }

  std::ostringstream out;
  out << "event: " << event << "\n";
  out << "grid: m in {";
  for (std::size_t i = 0; i < g.dims.size(); ++i)
    out << (i ? ", " : "") << g.dims[i];
  out << "}, n in [" << g.min_n << ", " << g.max_n << "], k <= " << g.max_k;
  for (int m : g.dims) {
    if (m == 1) out << ", coordinates 0.." << g.side1 - 1 << " (m = 1)";
    if (m == 2) out << ", coordinates in {0.." << g.side2 - 1 << "}^2 (m = 2)";
  }
  out << "\nq: ";
  for (std::size_t i = 0; i < o.q.size(); ++i)
    out << (i ? " " : "") << o.q[i];
  if (g.threshold_levels > 0)
    out << ", and each beta's thresholds for b = 1.." << g.threshold_levels;
  out << "; delta: ";
  for (std::size_t i = 0; i < o.delta.size(); ++i)
    out << (i ? " " : "") << o.delta[i];
  out << "\n";
  out << "instances: " << rep.enumerated << " labelled point sets, " << rep.instances.size()
      << " after deduplication (translation, reflection, relabelling); " << meet
      << " meet the hypotheses, " << def1 << " fail Definition 1, " << def2
      << " fail Definition 2\n";
  out << "checks: " << rep.checks.size() << "; distinct exact runs: " << rep.runs.size() << ", "
      << done << " done, " << beyond << " beyond reach (more than " << opt.max_branches
      << " re-executions"
      << (opt.engine == ExactOptions::Engine::counts
              ? " or " + std::to_string(opt.max_states) + " states of the count arithmetic"
              : std::string())
      << "); " << o.engine << " engine: " << reexecutions << " re-executions, " << merged
      << " branches merged into states already reached";
  if (opt.engine == ExactOptions::Engine::counts)
    out << ", " << by_counts << " of the " << done << " runs with Phase 1 by counts";
  out << "; uncertified ceilings: " << rep.uncertified << "\n";
  if (opt.orders == ss::Orders::all)
    out << "row orders: all; of the " << rep.lex_runs << " lexicographic runs, "
        << rep.order_sensitive_runs
        << " done read a row order (an exact distance tie, or the lowest labelled row); "
        << rep.runs.size() - rep.lex_runs << " runs of other orders, " << other_law
        << " of them with another P than the lexicographic order's (" << other_failure
        << " with another P(fewer than k recovered))\n";
  for (const auto& [k, re] : reach) {
    out << "reach at k = " << k << ": " << re.done << " runs done";
    if (re.done) out << " (r up to " << re.r_done << ")";
    const std::size_t skipped = re.reexecutions + re.states + re.beta;
    out << ", " << skipped << " beyond reach";
    if (skipped) {
      out << " (r " << re.r_beyond_min << " to " << re.r_beyond_max << "; " << re.reexecutions
          << " over the re-executions, " << re.states << " over the states";
      if (re.beta) out << ", " << re.beta << " with beta above the reference's largest";
      out << ")";
    }
    out << "\n";
  }
  out << "\n";
  char buf[256];
  std::snprintf(buf, sizeof buf, "%-11s %-16s %-27s %8s %8s %10s  %s\n", "claim", "beta", "rule",
                "checks", "beyond", "violations", "worst P/delta");
  out << buf;
  for (const auto& [key, gr] : groups) {
    std::snprintf(buf, sizeof buf, "%-11s %-16s %-27s %8zu %8zu %10zu  ",
                  ss::to_string(static_cast<ss::Claim>(std::get<0>(key))),
                  ss::to_string(static_cast<ss::BetaKind>(std::get<1>(key))),
                  opt.rules[std::get<2>(key)].c_str(), gr.checked, gr.beyond, gr.violations);
    out << buf;
    if (gr.worst) {
      const ss::Check& c = rep.checks[*gr.worst];
      const ss::Instance in = rep.instance_of(c);
      out << decimal_string(gr.worst_ratio, 6) << " (points " << points_text(in) << ", labels "
          << labels_text(in) << ", q = " << c.q.str() << ", delta = " << c.delta.str() << ")";
    } else {
      out << "-";
    }
    out << "\n";
  }
  const std::size_t top = std::min(viol.size(), static_cast<std::size_t>(o.top));
  out << "\nviolations (P > delta): " << viol.size();
  if (top < viol.size()) out << "; the first " << top << " by P/delta";
  out << "\n";
  for (std::size_t i = 0; i < top; ++i) {
    const ss::Check& c = rep.checks[viol[i].second];
    const ss::Run& run = rep.runs[c.run];
    const ss::Instance in = rep.instance_of(c);
    out << "#" << i + 1 << "  P/delta = " << both(viol[i].first) << "  " << ss::to_string(c.claim)
        << " (" << to_string(ss::search_of(c.claim)) << " search), beta "
        << ss::to_string(c.beta_kind) << ", rule " << opt.rules[c.rule] << "\n";
    out << "    m = " << in.m << ", n = " << in.n() << ", k = " << in.clusters() << "; points "
        << points_text(in) << "; labels " << labels_text(in) << "; margin "
        << rep.margin[c.instance] << ", gamma = " << c.gamma.str() << "\n";
    out << "    q = " << c.q.str() << ", delta = " << c.delta.str()
        << ": eta = " << theory::to_string(c.eta, 6) << " (r = " << c.r
        << "), beta = " << theory::to_string(c.beta_value, 6) << " -> " << c.beta << "\n";
    out << "    P(not the oracle's clustering) = " << both(run.p_not_recovered)
        << "; P(fewer than k recovered) = " << both(run.p_failure) << "\n";
    out << "    " << ss::reproduce_command(rep, c, "instance.csv") << "\n";
  }
  if (!o.json.empty()) outputs.stage(o.json, json_text);
  if (!o.csv.empty()) outputs.stage(o.csv, csv_text);
  outputs.commit();
  std::cout << (o.format == "json" ? json_text : o.format == "csv" ? csv_text : out.str());
  return 0;
}

}  // namespace

Command add_smallscope(CLI::App& root) {
  auto* app = root.add_subcommand(
      "smallscope",
      "Exhaustive exact checking of Theorem 1 and Appendix C on every small instance of a grid: "
      "certified eta and beta, the exact law, every instance where P(the output is not the "
      "oracle's clustering) exceeds delta.");
  auto o = std::make_shared<Opts>();
  app->add_option("--min-n", o->min_n, "fewest points, [2, 8]")->capture_default_str();
  app->add_option("--max-n", o->max_n, "most points, [2, 8]")->capture_default_str();
  app->add_option("--max-k", o->max_k, "most clusters, [1, 3]")->capture_default_str();
  app->add_option("--dims", o->dims, "dimensions, a list of 1 and 2")
      ->delimiter(',')
      ->capture_default_str();
  app->add_option("--side1", o->side1, "m = 1: coordinates 0..side1-1, [2, 12]")
      ->capture_default_str();
  app->add_option("--side2", o->side2, "m = 2: coordinates in {0..side2-1}^2, [2, 4]")
      ->capture_default_str();
  app->add_option("--q", o->q, "random-weak q's, each in (0, 1), exact decimals")
      ->delimiter(',')
      ->capture_default_str();
  app->add_option("--threshold-levels", o->levels,
                  "also the q's just above where each beta drops to 1..L, per (k, n, delta), "
                  "[0, 10]")
      ->capture_default_str();
  app->add_option("--delta", o->delta, "deltas, each in (0, 1), exact decimals")
      ->delimiter(',')
      ->capture_default_str();
  app->add_option("--claim", o->claims, "theorem1 (Algorithm 2) | appendix-c (Algorithm 4), a list")
      ->delimiter(',')
      ->check(CLI::IsMember({"theorem1", "appendix-c"}))
      ->capture_default_str();
  app->add_option("--beta", o->betas,
                  "paper (beta_random) | union (beta_union) | union-minus-one (a negative "
                  "control) | paper-log2 (beta_random with log2 n), a list")
      ->delimiter(',')
      ->check(CLI::IsMember({"paper", "union", "union-minus-one", "paper-log2"}))
      ->capture_default_str();
  std::vector<std::string> rule_choices = theory::smallscope::rule_names();
  rule_choices.push_back("all");
  app->add_option("--rule", o->rules,
                  "paper | self-pairs=off | anchor=lowest-labelled-row | "
                  "anchor=random-labelled-row | anchor=random-known-row, a list, or all")
      ->delimiter(',')
      ->check(CLI::IsMember(rule_choices))
      ->capture_default_str();
  app->add_option("--orders", o->orders,
                  "row orders: all (every order up to those that provably give the same law) | "
                  "lex (the points' lexicographic order only)")
      ->check(CLI::IsMember({"all", "lex"}))
      ->capture_default_str();
  app->add_option("--max-branches", o->max_branches,
                  "the most re-executions of one exact run; a run needing more is counted as "
                  "beyond reach")
      ->capture_default_str();
  app->add_option("--max-states", o->max_states,
                  "--engine counts: the most states of Phase 1's count arithmetic in one exact "
                  "run; a run needing more is counted as beyond reach")
      ->capture_default_str();
  app->add_option("--engine", o->engine,
                  "the exact enumerator's engine: counts (default: Phase 1 by counts where its "
                  "product form holds, else states) | states | paths (docs/exact.md)")
      ->check(CLI::IsMember({"counts", "states", "paths"}))
      ->capture_default_str();
  app->add_option("--max-runs", o->max_runs,
                  "the most distinct exact runs of the sweep; more is an error before any run")
      ->capture_default_str();
  app->add_option("--threads", o->threads, "worker threads, [1, 256]")->capture_default_str();
  app->add_option("--top", o->top, "text: how many violations to print")->capture_default_str();
  app->add_option("--format", o->format, "text | json | csv")
      ->check(CLI::IsMember({"text", "json", "csv"}))
      ->capture_default_str();
  app->add_option("--json", o->json, "also write the JSON report to FILE");
  app->add_option("--csv", o->csv, "also write the violations as CSV to FILE");
  path_options(app, {"--json", "--csv"});
  return {app, [o]() { return run_smallscope(*o); }};
}

}  // namespace ssac::cli
