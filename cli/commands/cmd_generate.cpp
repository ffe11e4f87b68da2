// `ssac generate`: the paper's synthetic data (Section 5.1) drawn inside a gamma window and
// written as a labelled CSV.
#include <iostream>

#include "commands/commands.hpp"
#include "options/option_checks.hpp"
#include "output/output_file.hpp"
#include "ssac/error.hpp"
#include "ssac/generator.hpp"
#include "ssac/ranges.hpp"

namespace ssac::cli {

Command add_generate(CLI::App& root) {
  auto* app = root.add_subcommand(
      "generate",
      "Draw the paper's synthetic data (Section 5.1): k isotropic Gaussian clusters around centers "
      "uniform in [-10,10]^m, redrawn until gamma-min < gamma <= gamma-max. Writes CSV columns "
      "x1..xm,label and prints the achieved gamma-margin.");
  struct Opts {
    long long n = 1500, m = 2, k = 3;
    GeneratorParams p;
    std::string out, gaussians = to_string(GaussianMethod::polar);
    unsigned long long max_draws = 100000;
    unsigned long long seed = 0;
  };
  auto o = std::make_shared<Opts>();
  app->add_option("--n", o->n,
                  "number of points, " + range_help(range::kMinPoints, range::kMaxPoints))
      ->capture_default_str();
  app->add_option("--m", o->m, "dimension, " + range_help(1, range::kMaxDimension))
      ->capture_default_str();
  app->add_option("--k", o->k, "number of clusters, 1..n")->capture_default_str();
  app->add_option("--std", o->p.sigma, "standard deviation sigma > 0")->capture_default_str();
  app->add_option("--gamma-min", o->p.gamma_min, "exclusive lower end of the gamma window, >= 0")
      ->capture_default_str();
  app->add_option("--gamma-max", o->p.gamma_max,
                  "inclusive upper end of the gamma window, > gamma-min (inf allowed)")
      ->capture_default_str();
  app->add_option("--max-draws", o->max_draws, "datasets drawn before giving up, 1..1e9")
      ->capture_default_str();
  add_seed_option(app, o->seed);
  app->add_flag("--shuffle", o->p.shuffle,
                "rows in a random order (as the authors' code's data), not cluster by cluster");
  add_gaussians_option(app, o->gaussians, GaussianMethod::polar);
  app->add_option("--out", o->out, "output CSV file")->required();
  path_options(app, {"--out"});
  return {app, [o]() {
            GeneratorParams p = o->p;
            range::check_points(o->n);
            p.n = static_cast<std::size_t>(o->n);
            range::check_dimension(o->m);
            p.m = static_cast<std::size_t>(o->m);
            p.k = static_cast<int>(to_size("k", o->k, 1, o->n));
            p.max_draws = o->max_draws;
            p.seed = o->seed;
            p.gaussians = parse_gaussian_method("--gaussians", o->gaussians);
            OutputFiles outputs;  // checked before the draws start
            outputs.file("--out", o->out);
            const Generated g = generate(p);
            outputs.stage(o->out, format_csv(g.data));
            outputs.commit();
            std::cout << "wrote " << o->out << ": n = " << p.n << ", m = " << p.m << ", k = " << p.k
                      << "\n"
                      << "gamma = " << format_double(g.gamma) << " (window ("
                      << format_double(p.gamma_min) << ", " << format_double(p.gamma_max)
                      << "], accepted draw " << g.draws << ")\n";
            return 0;
          }};
}

}  // namespace ssac::cli
