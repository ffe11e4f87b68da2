// ssac choices: do the random choices recorded in many traces follow their exact law? Each trace
// is replayed (it must conform, as ssac validate would say), its Phase-1 draws, draws of B and
// random-weak abstentions are transformed to Uniform(0, 1) by their exact conditional laws, and the
// pooled values are tested one at a time and in pairs, bin by bin and by Kolmogorov-Smirnov
// (ssac/choice_law.hpp; docs/conformance.md, "The law of the choices"). The traces may be of one
// data set (--data) or each of its own, found by the fingerprint in its header among the CSV files
// of a directory (--data-dir). Exit 0 the choices fit and every trace conforms; 4 they do not fit,
// or some trace does not conform (it is named and left out of the pool, and the others are tested
// all the same); 1 bad data (a file that cannot be read, a trace that breaks the format or whose
// data is not given); 2 usage.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <new>
#include <nlohmann/json.hpp>
#include <set>

#include "commands/commands.hpp"
#include "options/option_checks.hpp"
#include "output/table.hpp"
#include "ssac/choice_law.hpp"
#include "ssac/data.hpp"
#include "ssac/error.hpp"
#include "ssac/trace.hpp"

namespace ssac::cli {

namespace {

constexpr int kDoesNotConform = 4;

struct Opts {
  std::string data, data_dir;
  std::vector<std::string> traces;
  double alpha = 1e-6;
  long long bins = 10;
  long long grid = 4;
  unsigned long long seed = 0;
};

// The header's "fingerprint" of the trace at `path` (docs/trace-format.md, "Fingerprint"), read
// from its first line alone; the replay checks the rest of the trace.
std::string header_fingerprint(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec))
    throw DataError(path +
                    ": with --data-dir a trace must be a regular file (its header is read "
                    "before the replay reads it again)");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw DataError(path + ": cannot open for reading");
  std::string line;
  // A header is a few hundred bytes; the cap keeps a file with no line break from being read
  // whole here.
  constexpr std::size_t kCap = 1 << 20;
  char c;
  while (line.size() < kCap && in.get(c) && c != '\n')
    line += c;
  const auto j = nlohmann::json::parse(line, nullptr, false);
  if (!j.is_object() || !j.contains("fingerprint") || !j["fingerprint"].is_string())
    throw DataError(path +
                    ":1: no header with a \"fingerprint\" (docs/trace-format.md), so its "
                    "data cannot be found in --data-dir");
  return j["fingerprint"].get<std::string>();
}

// Every CSV file of `dir` (by name, in order), keyed by the fingerprint of its points: the first
// file with given points is the one used.
std::map<std::string, std::pair<std::string, Dataset>> data_by_fingerprint(const std::string& dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) throw DataError(dir + ": not a directory (--data-dir)");
  std::vector<std::string> files;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.path().extension() == ".csv" && e.is_regular_file(ec)) files.push_back(e.path().string());
  if (ec) throw DataError(dir + ": cannot list the directory (--data-dir)");
  std::sort(files.begin(), files.end());
  std::map<std::string, std::pair<std::string, Dataset>> out;
  for (const std::string& f : files) {
    Dataset d = read_csv(f);
    const std::string fp = points_fingerprint(d.points);
    out.emplace(fp, std::make_pair(f, std::move(d)));
  }
  if (out.empty()) throw DataError(dir + ": no CSV file (*.csv) in the directory (--data-dir)");
  return out;
}

int run_choices(const Opts& o) {
  if (o.data.empty() == o.data_dir.empty())
    throw ParameterError("give the traces' data as exactly one of --data FILE and --data-dir DIR");
  ChoiceLawOptions opt;
  opt.alpha = o.alpha;
  opt.bins = static_cast<int>(to_size("bins", o.bins, 2, 1000));
  opt.grid = static_cast<int>(to_size("grid", o.grid, 2, 32));
  opt.seed = o.seed;
  ChoiceLaw law(opt);  // checks alpha
  std::map<std::string, std::pair<std::string, Dataset>> sets;
  if (!o.data.empty()) {
    Dataset d = read_csv(o.data);
    const std::string fp = points_fingerprint(d.points);
    sets.emplace(fp, std::make_pair(o.data, std::move(d)));
  } else {
    sets = data_by_fingerprint(o.data_dir);
  }
  std::set<std::string> used;
  // Every trace is read and replayed before anything is printed: a bad one is one error line.
  for (const std::string& t : o.traces) {
    const Dataset* data = &sets.begin()->second.second;
    if (!o.data_dir.empty()) {
      const std::string fp = header_fingerprint(t);
      const auto it = sets.find(fp);
      if (it == sets.end())
        throw DataError(t + ":1: its data (fingerprint " + fp + ") is none of the CSV files in " +
                        o.data_dir);
      data = &it->second.second;
      used.insert(it->second.first);
    }
    ReplayOptions replay;
    replay.label_clusters = data->has_labels() ? data->num_labels() : 0;
    try {
      law.add_file(data->points, t, replay);
    } catch (const std::bad_alloc&) {
      throw DataError(t + ": not enough memory to replay the trace");
    }
  }
  const ChoiceLawReport r = law.report();
  const int m = r.checked();
  const std::string on = o.data_dir.empty() ? o.data
                                            : std::to_string(used.size()) +
                                                  (used.size() == 1 ? " data set" : " data sets") +
                                                  " of " + o.data_dir;
  std::cout << r.traces << (r.traces == 1 ? " trace on " : " traces on ") << on
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
  for (const std::string& bad : r.nonconforming)
    std::cout << "left out: " << bad << "\n";
  if (!r.nonconforming.empty()) {
    const std::size_t all = r.traces + r.nonconforming.size();
    std::cout << "does not conform: " << r.nonconforming.size() << " of " << all
              << (all == 1 ? " trace does" : " traces do")
              << " not conform to the reference (left out above; `ssac validate` names each "
                 "divergence)\n";
  }
  if (r.impossible > 0) {
    std::cout << "does not conform: " << r.impossible
              << " not-sure answers from an oracle with q = 1, which never abstains\n";
    return kDoesNotConform;
  }
  if (m == 0) {
    std::cout << "no random choices to check\n";
    return r.nonconforming.empty() ? 0 : kDoesNotConform;
  }
  bool pass = r.nonconforming.empty();
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
  auto* data = app->add_option("--data", o->data, "CSV data the traces were written for");
  auto* dir = app->add_option(
      "--data-dir", o->data_dir,
      "a directory of CSV data sets: each trace's is the one whose points have the fingerprint "
      "in its header");
  data->excludes(dir);
  dir->excludes(data);
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
  path_options(app, {"--data", "--data-dir", "traces"});
  return {app, [o]() { return run_choices(*o); }};
}

}  // namespace ssac::cli
