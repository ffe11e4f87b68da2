// `ssac calibrate`: the empirical eta (or beta) -- the smallest value on a grid whose failure
// probability is at most delta with confidence 1 - alpha, measured on a preset's gamma window or
// a fixed labelled dataset and re-checked on a fresh seed -- beside the theorems' values
// (Theorem 1 and the remark after it, theory/). docs/calibrate.md states the plan.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <memory>
#include <thread>

#include "calibrate/calibrate_counter.hpp"
#include "commands/commands.hpp"
#include "options/option_checks.hpp"
#include "ssac/error.hpp"
#include "ssac/experiment.hpp"
#include "ssac/ranges.hpp"
#include "ssac/theory/bounds.hpp"
#include "ssac/theory/calibrate.hpp"

namespace ssac::cli {

namespace {

struct Opts {
  std::string what = "eta", preset = "paper-main", data, event = "recovery", search, gaussians;
  long long k = 0, beta = 10, threads = 0;
  double q = 0.7, eta = 10, delta = 0.05, alpha = 0.05, gamma_min = 0, gamma_max = 0;
  std::vector<double> grid;
  unsigned long long seed = 0;
  CLI::App* app = nullptr;
  bool given(const char* name) const { return app->get_option(name)->count() > 0; }
};

// docs/calibrate.md: roughly 1-1.5-2-3-4-5-6-8 per decade from 1 to 50,000.
const std::vector<double> kEtaGrid = {
    1,    1.5,  2,    3,    4,    5,    6,    8,    10,    12,    15,    20,    25,   30,
    40,   50,   60,   80,   100,  120,  150,  200,  250,   300,   400,   500,   600,  800,
    1000, 1500, 2000, 3000, 4000, 5000, 6000, 8000, 10000, 15000, 20000, 30000, 50000};
const std::vector<double> kBetaGrid = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 15, 20, 25, 30};

std::string ceil_text(const theory::Certified& c) {
  return c.ceil ? c.ceil->str() : theory::to_string(c.value, 6);
}

void print_theory(const Opts& o, const ExperimentConfig& c, double gamma, bool beta_grid,
                  double empirical) {
  std::printf("\ntheory (k = %d, m = %zu, n = %zu, delta = %s, q = %s, gamma = %s):\n", c.gen.k,
              c.gen.m, c.gen.n, format_double(o.delta).c_str(), format_double(o.q).c_str(),
              format_double(gamma).c_str());
  if (!(gamma > 1.0)) {
    std::printf("  not applicable: the theorems need gamma > 1 (Definition 2)\n");
    return;
  }
  theory::Inputs in;
  in.k = c.gen.k;
  in.m = static_cast<long long>(c.gen.m);
  in.n = static_cast<long long>(c.gen.n);
  // The shortest decimals of the doubles: the numbers as typed (or as the preset states them).
  in.delta = theory::Decimal(format_double(o.delta));
  in.gamma = theory::Decimal(format_double(gamma));
  in.q = theory::Decimal(format_double(o.q));
  auto row = [&](const char* name, const theory::Certified& b) {
    const double v = static_cast<double>(b.value);
    std::printf("  %-38s %12s", name, ceil_text(b).c_str());
    if (empirical > 0 && std::isfinite(v))
      std::printf("   theory / empirical = %.4g", std::ceil(v) / empirical);
    std::printf("\n");
  };
  if (beta_grid) {
    row("beta_random (Theorem 1)", theory::certified_beta_random(in));
    row("beta_union (Theorem 1's union bound)", theory::certified_beta_union(in));
  } else {
    row("eta_random (Theorem 1)", theory::certified_eta_random(in));
    row("eta_random, Pinelis", theory::certified_eta_random_pinelis(in));
    row("eta_perfect (remark after Thm 1)", theory::certified_eta_perfect(in));
    row("eta_perfect, Pinelis", theory::certified_eta_perfect_pinelis(in));
  }
}

int run(const Opts& o) {
  const bool beta_grid = o.what == "beta";
  ExperimentConfig c = preset_config(o.preset);
  if (!o.data.empty()) {
    if (o.given("--k")) throw ParameterError("--k is the dataset's number of labels with --data");
    use_dataset(c, read_csv(o.data), o.data);
  } else {
    if (o.given("--k")) {
      range::check_clusters(o.k);
      c.gen.k = static_cast<int>(o.k);
    }
    if (o.given("--gamma-min")) c.gen.gamma_min = o.gamma_min;
    if (o.given("--gamma-max")) c.gen.gamma_max = o.gamma_max;
    if (o.given("--gaussians")) c.gen.gaussians = parse_gaussian_method("--gaussians", o.gaussians);
  }
  if (!o.data.empty() && (o.given("--gamma-min") || o.given("--gamma-max")))
    throw ParameterError("--gamma-min and --gamma-max set the generator, which --data replaces");
  if (!o.data.empty() && o.given("--gaussians"))
    throw ParameterError("--gaussians sets the generator, which --data replaces");
  range::check_q(o.q);
  c.q = {o.q};
  c.eta = {o.eta};
  range::check_beta(o.beta);
  c.beta = static_cast<int>(o.beta);
  if (!o.search.empty()) c.search = *parse_search(o.search);  // CLI11 admits only weak searches
  std::vector<double> grid = o.grid.empty() ? (beta_grid ? kBetaGrid : kEtaGrid) : o.grid;
  for (double v : grid) {
    if (beta_grid) {
      if (v != std::floor(v)) throw ParameterError("grid: beta values must be whole numbers");
      range::check_beta(static_cast<long long>(v));
    } else {
      range::check_eta(v, c.gen.k);
    }
  }
  c.reps = 1;
  c.check();
  const unsigned threads = [&] {
    const auto t = static_cast<unsigned>(to_size("threads", o.threads, 0, 4096));
    return t == 0 ? std::max(1u, std::thread::hardware_concurrency()) : t;
  }();
  const bool recovery = o.event == "recovery";
  const theory::Calibration cal = theory::calibrate(grid, o.delta, o.alpha, o.seed,
                                                    make_counter(c, beta_grid, recovery, threads));

  const std::string where =
      c.data ? o.data + " (n = " + std::to_string(c.gen.n) + ", m = " + std::to_string(c.gen.m) +
                   ", k = " + std::to_string(c.gen.k) + ", gamma = " + format_double(c.data_gamma) +
                   ")"
             : o.preset + " window " + format_double(c.gen.gamma_min) +
                   " < gamma <= " + format_double(c.gen.gamma_max) +
                   " (n = " + std::to_string(c.gen.n) + ", m = " + std::to_string(c.gen.m) +
                   ", k = " + std::to_string(c.gen.k) + ", a fresh dataset per rep" +
                   // Named when not version 1, as summary.json's "gaussians" is.
                   (c.gen.gaussians == GaussianMethod::polar
                        ? std::string()
                        : ", stream " + to_string(c.gen.gaussians)) +
                   ")";
  std::printf("calibrate %s on %s\n", o.what.c_str(), where.c_str());
  std::printf("random-weak oracle q = %s, %s search, %s = %s; failure event: %s\n",
              format_double(o.q).c_str(), to_string(c.search), beta_grid ? "eta" : "beta",
              beta_grid ? format_double(o.eta).c_str() : std::to_string(c.beta).c_str(),
              recovery ? "the clustering is not recovered exactly (Theorem 1's event)"
                       : "fewer than k clusters (#Failure, Section 5.2)");
  std::printf(
      "plan: %llu reps per value; pass = Clopper-Pearson upper bound (confidence %s) <= delta = "
      "%s, i.e. at most %llu failures;\n      P(pass | rate = delta/2) = %.4f, P(pass | rate = "
      "delta) = %.4f\n\n",
      static_cast<unsigned long long>(cal.plan.reps), format_double(1 - o.alpha).c_str(),
      format_double(o.delta).c_str(), static_cast<unsigned long long>(cal.plan.max_failures),
      cal.plan.power_at_half, cal.plan.false_pass_at_delta);
  std::printf("%8s %9s %9s %9s %11s  %s\n", o.what.c_str(), "event", "#Failure", "phase-2",
              "CP upper", "pass");
  for (const auto& g : cal.grid)
    std::printf("%8s %9llu %9llu %9llu %11.5f  %s\n", format_double(g.value).c_str(),
                static_cast<unsigned long long>(g.counts.event),
                static_cast<unsigned long long>(g.counts.paper_failures),
                static_cast<unsigned long long>(g.counts.search_failures), g.upper,
                g.pass ? "yes" : "no");
  for (const auto& r : cal.rises)
    std::printf(
        "non-monotone: the rate rises from %s = %s to %s (exact conditional test, p = "
        "%.3g < alpha)\n",
        o.what.c_str(), format_double(cal.grid[r.from].value).c_str(),
        format_double(cal.grid[r.to].value).c_str(), r.p_value);
  for (std::size_t i : cal.pass_then_fail)
    std::printf("non-monotone: %s = %s passes but a larger value fails\n", o.what.c_str(),
                format_double(cal.grid[i].value).c_str());
  double empirical = 0;
  if (!cal.chosen) std::printf("\nno value of the grid passes\n");
  std::printf("\n");
  for (std::size_t a = 0; a < cal.rechecks.size(); ++a) {
    const auto& r = cal.rechecks[a];
    std::printf(
        "re-check %zu: %s = %s on the fresh seed %llu: %llu of %llu, Clopper-Pearson upper "
        "bound %.5f: %s\n",
        a + 1, o.what.c_str(), format_double(r.value).c_str(),
        static_cast<unsigned long long>(cal.recheck_seeds[a]),
        static_cast<unsigned long long>(r.counts.event), static_cast<unsigned long long>(r.reps),
        r.upper, r.pass ? "confirmed (<= delta)" : "not confirmed (> delta)");
  }
  if (cal.confirmed) {
    const auto& r = cal.rechecks.back();
    empirical = r.value;
    std::printf(
        "empirical %s = %s (re-check %zu: %llu of %llu, Clopper-Pearson upper bound %.5f; "
        "chance that a value with rate >= delta is confirmed: at most %zu x alpha)\n",
        o.what.c_str(), format_double(r.value).c_str(), cal.rechecks.size(),
        static_cast<unsigned long long>(r.counts.event), static_cast<unsigned long long>(r.reps),
        r.upper, cal.rechecks.size());
  } else if (cal.chosen) {
    std::printf("empirical %s: none confirmed in %zu re-checks\n", o.what.c_str(),
                cal.rechecks.size());
  }
  const double gamma = c.data ? c.data_gamma : c.gen.gamma_max;
  if (!c.data)
    std::printf("(the theory is evaluated at the window's upper end, its most favourable gamma)\n");
  print_theory(o, c, gamma, beta_grid, empirical);
  return 0;
}

}  // namespace

Command add_calibrate(CLI::App& root) {
  auto* app = root.add_subcommand(
      "calibrate",
      "The empirical eta (or beta): the smallest grid value whose failure probability has an exact "
      "one-sided Clopper-Pearson upper bound <= delta at confidence 1 - alpha, on a preset's gamma "
      "window or a fixed dataset, re-checked on a fresh seed, beside the theorems' values. See "
      "docs/calibrate.md.");
  auto o = std::make_shared<Opts>();
  o->app = app;
  app->add_option("--what", o->what, "eta (default) | beta (at the fixed --eta)")
      ->check(CLI::IsMember({"eta", "beta"}));
  app->add_option("--preset", o->preset,
                  "the gamma window: paper-main | paper-highdim | "
                  "paper-nonsep")
      ->check(CLI::IsMember(preset_names()))
      ->capture_default_str();
  app->add_option("--data", o->data, "a labelled CSV instead of the preset's generator");
  app->add_option("--k", o->k, "override the preset's k (not with --data)");
  app->add_option("--gamma-min", o->gamma_min, "override the window's exclusive lower end");
  app->add_option("--gamma-max", o->gamma_max, "override the window's inclusive upper end");
  add_gaussians_option(app, o->gaussians, preset_config(o->preset).gen.gaussians);
  app->add_option("--q", o->q, "random-weak oracle's q (1 = perfect)")->capture_default_str();
  app->add_option("--beta", o->beta, "beta for --what eta")->capture_default_str();
  app->add_option("--eta", o->eta, "eta for --what beta")->capture_default_str();
  app->add_option("--delta", o->delta, "target failure probability")->capture_default_str();
  app->add_option("--alpha", o->alpha, "1 - confidence")->capture_default_str();
  app->add_option("--grid", o->grid, "the values tried, ascending (default: docs/calibrate.md)")
      ->delimiter(',');
  app->add_option("--event", o->event,
                  "recovery (default: not recovered exactly) | fewer-clusters (#Failure)")
      ->check(CLI::IsMember({"recovery", "fewer-clusters"}));
  app->add_option("--search", o->search, "Phase-2 search: random | distance | unified (preset)")
      ->check(CLI::IsMember(weak_search_names()));
  add_seed_option(app, o->seed);
  app->add_option("--threads", o->threads, "worker threads, 0 = every core")->capture_default_str();
  path_options(app, {"--data"});
  return {app, [o]() { return run(*o); }};
}

}  // namespace ssac::cli
