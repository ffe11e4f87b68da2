// ssac choices: do the random choices recorded in many traces follow their exact law? Each trace
// is replayed (it must conform, as ssac validate would say), its Phase-1 draws, draws of B and
// random-weak abstentions are transformed to Uniform(0, 1) by their exact conditional laws, and the
// pooled values are tested one at a time and in pairs, bin by bin and by Kolmogorov-Smirnov
// (ssac/choice_law.hpp; docs/conformance.md, "The law of the choices"). Exit 0 the choices fit, 4
// they do not, 1 bad data (a trace that cannot be read or does not conform), 2 usage.
#include <algorithm>
#include <iostream>
#include <new>

#include "commands/commands.hpp"
#include "options/option_checks.hpp"
#include "output/table.hpp"
#include "ssac/choice_law.hpp"
#include "ssac/data.hpp"
#include "ssac/error.hpp"

namespace ssac::cli {

namespace {

constexpr int kDoesNotConform = 4;

struct Opts {
  std::string data;
  std::vector<std::string> traces;
  double alpha = 1e-6;
  long long bins = 10;
  long long grid = 4;
  unsigned long long seed = 0;
};

int run_choices(const Opts& o) {
  ChoiceLawOptions opt;
  opt.alpha = o.alpha;
  opt.bins = static_cast<int>(to_size("bins", o.bins, 2, 1000));
  opt.grid = static_cast<int>(to_size("grid", o.grid, 2, 32));
  opt.seed = o.seed;
  ChoiceLaw law(opt);  // checks alpha
  const Dataset data = read_csv(o.data);
  ReplayOptions replay;
  replay.label_clusters = data.has_labels() ? data.num_labels() : 0;
  // Every trace is read and replayed before anything is printed: a bad one is one error line.
  for (const std::string& t : o.traces) {
    try {
      law.add_file(data.points, t, replay);
    } catch (const std::bad_alloc&) {
      throw DataError(t + ": not enough memory to replay the trace");
    }
  }
  const ChoiceLawReport r = law.report();
  const int m = r.checked();
  std::cout << r.traces << (r.traces == 1 ? " trace on " : " traces on ") << o.data
            << "; alpha = " << format_double(opt.alpha) << " shared by " << m
            << (m == 1 ? " kind" : " kinds") << " of choice, " << opt.bins
            << " bins each, pairs in " << opt.grid << "x" << opt.grid
            << " cells (offsets from seed " << opt.seed << ")\n";
  Table t;
  t.columns = {{"kind", Align::left}, {"choices"}, {"hits"},
               {"expected"},          {"p"},       {"law", Align::left, "", 0, "  "}};
  for (const ChoiceKind& k : r.kinds) {
    if (k.choices == 0) continue;
    t.add({k.name, std::to_string(k.choices), std::to_string(k.hits),
           printf_text("%.1f", k.expected_hits), printf_text("%.3g", k.p), k.law});
  }
  for (std::size_t c = 0; c < t.columns.size(); ++c) {
    t.columns[c].width = t.columns[c].name.size();
    for (const auto& row : t.rows)
      t.columns[c].width = std::max(t.columns[c].width, row[c].size());
  }
  std::cout << to_text(t, {})
            << "(choices: values, or pairs of values; hits: repeats of a row already drawn in the "
               "same sample, not-sure answers, anchors that are the first candidate, pairs in one "
               "diagonal cell, or agreements; "
               "expected: under the law; p: twice the smaller of the smallest bin's exact "
               "two-sided binomial p-value times the bins and the exact Kolmogorov-Smirnov "
               "p-value)\n";
  if (r.answers_not_checked > 0)
    std::cout << r.answers_not_checked
              << " answers not checked (their oracle's answers are not independent draws of a "
                 "law the trace names: perfect, distance-weak, correlated, interactive, or the "
                 "original SSAC's coin flips)\n";
  if (r.impossible > 0) {
    std::cout << "does not conform: " << r.impossible
              << " not-sure answers from an oracle with q = 1, which never abstains\n";
    return kDoesNotConform;
  }
  if (m == 0) {
    std::cout << "no random choices to check\n";
    return 0;
  }
  bool pass = true;
  for (const ChoiceKind& k : r.kinds) {
    if (k.choices == 0 || k.p > opt.alpha / m) continue;
    pass = false;
    std::cout << "does not conform: " << k.name << ": ";
    const auto b = static_cast<std::size_t>(k.worst_bin);
    const auto g = static_cast<std::size_t>(opt.grid);
    const double expected = static_cast<double>(k.choices) / static_cast<double>(k.counts.size());
    if (k.p_ks < k.p_bins)
      std::cout << "Kolmogorov-Smirnov distance " << printf_text("%.3g", k.ks_d) << " over "
                << k.choices << (k.pairs ? " pairs (of frac(u2 - u1))" : " values");
    else if (k.pairs)
      std::cout << "cell (" << b / g << ", " << b % g << ") of the " << opt.grid << "x" << opt.grid
                << " grid holds " << k.counts[b] << " of " << k.choices << " pairs, "
                << printf_text("%.1f", expected) << " expected";
    else
      std::cout << "bin [" << printf_text("%.3g", double(b) / opt.bins) << ", "
                << printf_text("%.3g", double(b + 1) / opt.bins) << ") holds " << k.counts[b]
                << " of " << k.choices << " values, " << printf_text("%.1f", expected)
                << " expected";
    std::cout << " (p = " << printf_text("%.3g", k.p) << " <= alpha / " << m << ")\n";
  }
  if (pass) std::cout << "conforms\n";
  return pass ? 0 : kDoesNotConform;
}

}  // namespace

Command add_choices(CLI::App& root) {
  auto* app = root.add_subcommand(
      "choices",
      "Test the random choices recorded in many traces (Phase-1 draws, draws of B, random-weak "
      "abstentions, anchor draws of the random anchor rules), one at a time and in pairs, against "
      "their exact law; exit 0 they fit, 4 "
      "they do not.");
  auto o = std::make_shared<Opts>();
  app->add_option("--data", o->data, "CSV data the traces were written for")->required();
  app->add_option("traces", o->traces, "traces of independent runs (ssac-trace JSON Lines)")
      ->required();
  app->add_option("--alpha", o->alpha,
                  "false-alarm rate: the probability that an implementation drawing from the "
                  "law is judged not to, in (0, 0.5]")
      ->capture_default_str();
  app->add_option("--bins", o->bins, "equal bins of [0, 1) per kind of choice, 2..1000")
      ->capture_default_str();
  app->add_option("--grid", o->grid,
                  "cells per axis of the unit square for pairs of choices, 2..32")
      ->capture_default_str();
  add_seed_option(app, o->seed)
      ->description("seed of the offsets within each choice's share of [0, 1)")
      ->capture_default_str();
  path_options(app, {"--data", "traces"});
  return {app, [o]() { return run_choices(*o); }};
}

}  // namespace ssac::cli
