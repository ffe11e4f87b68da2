// The power of `ssac choices` (ssac/choice_law.hpp) on the 9-point instance of lib/testing, stated
// as TensorFlow Probability's statistical tests state theirs: both rates. Not a ctest (it runs for
// many minutes); scripts/choice_power.sh runs it once and commits its output
// (docs/choice-power.md). The short version of each claim is a test of tests/test_choice_law.cpp.
//
//   choice_power clean R N       R disjoint seed ranges of N reference traces: the p of each kind
//   choice_power controls R      each negative control: the traces it needs, in R repetitions
//   choice_power power R F       for kind F (0 phase1_draw, 1 b_draw, 2 abstention), the
//                                smallest shift caught w.p. >= 0.95 at N = 200, 1,000, 5,000
//   choice_power anchors R N     under each random anchor rule: R disjoint seed ranges of N
//                                reference traces (anchor_draw's p), and the traces each
//                                negative control of the anchor's law needs, in R repetitions
//
// Every check runs at the default alpha = 1e-6 with its default bins and grid. Repetition i uses
// the seeds 1 + i * 10^6, 2 + i * 10^6, ..., so no two repetitions share a run.
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "ssac/choice_law.hpp"
#include "ssac/testing/choice_bugs.hpp"

namespace {

using ssac::ChoiceLaw;
using ssac::ChoiceLawReport;
using ssac::testing::ChoiceBug;
using ssac::testing::ChoiceBugSpec;

constexpr std::uint64_t kRepStride = 1000000;

// Feeds the traces of one repetition to one check, in batches, and says at each of `at` (increasing
// numbers of traces) whether the check fails: the checks at the smaller numbers see a prefix of the
// same traces. Stops after the first failure when `stop` is set.
std::vector<char> fails_at(const ChoiceBugSpec& bug, int rep, const std::vector<int>& at, bool stop,
                           std::vector<ChoiceLawReport>* reports = nullptr,
                           ssac::AnchorRule anchor = ssac::AnchorRule::opener) {
  const ssac::testing::ChoiceInstance c = ssac::testing::nine_points(anchor);
  ChoiceLaw law({});
  std::vector<char> out(at.size(), 0);
  int done = 0;
  for (std::size_t i = 0; i < at.size(); ++i) {
    const std::uint64_t first =
        1 + static_cast<std::uint64_t>(rep) * kRepStride + static_cast<std::uint64_t>(done);
    const auto ts =
        ssac::testing::buggy_traces(c.X, c.labels, c.params, c.q, bug, first, at[i] - done);
    for (const std::string& t : ts)
      law.add_text(c.X, t, "trace");
    done = at[i];
    const ChoiceLawReport r = law.report();
    if (reports) reports->push_back(r);
    out[i] = r.passes() ? 0 : 1;
    if (out[i] && stop) break;
  }
  return out;
}

// The kinds that fail in a report, comma-separated.
std::string failing(const ChoiceLawReport& r) {
  std::string s;
  for (const auto& k : r.kinds)
    if (k.choices > 0 && k.p <= r.options.alpha / r.checked())
      s += (s.empty() ? "" : ", ") + k.name;
  return s.empty() ? "-" : s;
}

// The smallest number on `ladder` at which every one of `reps` repetitions of `bug` fails the
// check (0 with `never` set when some repetition passes all of it), and the kinds failing there
// in the first repetition ("-" when never).
struct Needed {
  int traces = 0;
  bool never = false;
  std::string kinds = "-";
};
Needed traces_needed(const ChoiceBugSpec& bug, int reps, const std::vector<int>& ladder,
                     ssac::AnchorRule anchor = ssac::AnchorRule::opener) {
  Needed n;
  for (int rep = 0; rep < reps && !n.never; ++rep) {
    const std::vector<char> f = fails_at(bug, rep, ladder, true, nullptr, anchor);
    std::size_t i = 0;
    while (i < f.size() && !f[i])
      ++i;
    if (i == f.size())
      n.never = true;
    else
      n.traces = std::max(n.traces, ladder[i]);
  }
  if (!n.never) {
    std::vector<ChoiceLawReport> rs;
    fails_at(bug, 0, {n.traces}, false, &rs, anchor);
    n.kinds = failing(rs.back());
  }
  return n;
}

void clean(int reps, int n) {
  std::printf("| seeds | traces | passes |");
  const ChoiceLawReport none = ChoiceLaw({}).report();
  for (const auto& k : none.kinds)
    std::printf(" %s |", k.name.c_str());
  std::printf("\n|---|---|---|");
  for (std::size_t i = 0; i < none.kinds.size(); ++i)
    std::printf("---|");
  std::printf("\n");
  for (int rep = 0; rep < reps; ++rep) {
    std::vector<ChoiceLawReport> rs;
    fails_at({ChoiceBug::none, 0}, rep, {n}, false, &rs);
    const ChoiceLawReport& r = rs.back();
    std::printf("| %llu.. | %d | %s |", 1 + static_cast<unsigned long long>(rep) * kRepStride, n,
                r.passes() ? "yes" : "**no**");
    for (const auto& k : r.kinds)
      std::printf(" %.3g |", k.p);
    std::printf("\n");
    std::fflush(stdout);
  }
}

void controls(int reps) {
  const std::vector<int> ladder = {25, 50, 100, 200, 500, 1000, 2000, 5000};
  const std::vector<ChoiceBugSpec> bugs = {
      {ChoiceBug::phase1_without_replacement, 0},
      {ChoiceBug::b_without_replacement, 0},
      {ChoiceBug::b_from_distinct_rows, 0},
      {ChoiceBug::never_last, 0},
      {ChoiceBug::abstention_q_squared, 0},
      {ChoiceBug::front_bias_phase1, 0.1},
      {ChoiceBug::front_bias_b, 0.1},
      {ChoiceBug::b_reused_across_probes, 0},
      {ChoiceBug::phase1_follows_previous, 0.5},
      {ChoiceBug::oracle_repeats_answers, 0},
  };
  std::printf(
      "| negative control | strength | traces needed (all %d repetitions caught) | kinds "
      "that fail there |\n|---|---|---|---|\n",
      reps);
  for (const ChoiceBugSpec& b : bugs) {
    const Needed n = traces_needed(b, reps, ladder);
    std::printf("| %s | %g | %s | %s |\n", ssac::testing::to_string(b.bug).c_str(), b.strength,
                n.never ? "> 5000" : std::to_string(n.traces).c_str(), n.kinds.c_str());
    std::fflush(stdout);
  }
}

// How many of `reps` repetitions of `n` traces with `bug` fail the check.
int caught(const ChoiceBugSpec& bug, int reps, int n) {
  int c = 0;
  for (int rep = 0; rep < reps; ++rep)
    c += fails_at(bug, rep, {n}, false)[0];
  return c;
}

// One row of the power table. At N = 200 and 1,000, the grid is searched upwards (both N at once
// on nested prefixes) for the first shift caught in >= 95% of the repetitions. At N = 5,000 a full
// search costs too much here (10^5 traces per grid point), so one shift is tried: the largest on
// the grid at most half the one found at 1,000 (the statistics' sqrt(N) scaling predicts about
// 1/sqrt(5) of it); the row says "<= eps" when it is caught, "> eps" when not.
void power(int reps, int family) {
  struct Family {
    const char* kind;
    ChoiceBug bug;
    const char* shift;
    std::vector<double> grid;
  };
  const std::vector<Family> families = {
      {"phase1_draw",
       ChoiceBug::front_bias_phase1,
       "front bias eps",
       {0.01, 0.015, 0.02, 0.03, 0.05, 0.07, 0.1, 0.15, 0.2, 0.3, 0.5, 0.7, 1.0}},
      {"b_draw",
       ChoiceBug::front_bias_b,
       "front bias eps",
       {0.02, 0.03, 0.05, 0.07, 0.1, 0.15, 0.2, 0.3, 0.5, 0.7, 1.0}},
      {"abstention",
       ChoiceBug::abstention_shift,
       "not-sure w.p. 1 - q + delta",
       {0.002, 0.003, 0.005, 0.007, 0.01, 0.015, 0.02, 0.03, 0.05, 0.07, 0.1, 0.15}},
  };
  const Family& fam = families.at(static_cast<std::size_t>(family));
  const int need = (19 * reps + 19) / 20;  // at least 0.95 of the repetitions
  const std::vector<int> ns = {200, 1000};
  std::vector<double> found(ns.size(), -1);
  // Upwards from the grid point that a first guess puts below both answers.
  std::size_t g = 0;
  while (g + 1 < fam.grid.size() && fam.grid[g + 1] <= fam.grid[0] * 3)
    ++g;
  const double start = fam.grid[g];
  for (; g < fam.grid.size(); ++g) {
    const double eps = fam.grid[g];
    std::vector<int> open;
    for (std::size_t i = 0; i < ns.size(); ++i)
      if (found[i] < 0) open.push_back(ns[i]);
    if (open.empty()) break;
    std::vector<int> count(open.size(), 0);
    for (int rep = 0; rep < reps; ++rep) {
      const std::vector<char> f = fails_at({fam.bug, eps}, rep, open, false);
      for (std::size_t i = 0; i < open.size(); ++i)
        count[i] += f[i];
    }
    for (std::size_t i = 0; i < open.size(); ++i) {
      std::fprintf(stderr, "%s eps %g N %d: %d of %d\n", fam.kind, eps, open[i], count[i], reps);
      if (count[i] >= need)
        for (std::size_t j = 0; j < ns.size(); ++j)
          if (ns[j] == open[i]) found[j] = eps;
    }
  }
  std::printf("| %s | %s |", fam.kind, fam.shift);
  // Caught at the first shift tried says only that the smallest is at most it.
  for (double f : found) {
    char cell[32];
    std::snprintf(cell, sizeof cell, "%s%g", f == start ? "<= " : "", f);
    std::printf(" %s |", f < 0 ? "> grid" : cell);
  }
  double at5000 = fam.grid.front();
  for (double e : fam.grid)
    if (found[1] > 0 && e <= found[1] / 2) at5000 = e;
  const int c = caught({fam.bug, at5000}, reps, 5000);
  std::fprintf(stderr, "%s eps %g N 5000: %d of %d\n", fam.kind, at5000, c, reps);
  std::printf(" %s %g (%d of %d) |\n", c >= need ? "<=" : ">", at5000, c, reps);
  std::fflush(stdout);
}

// The anchor draws of the two random anchor rules (trace format version 4): the clean reference's
// anchor_draw p over `reps` disjoint seed ranges of n traces, and the traces each negative control
// of the anchor's law needs (as controls() states them).
void anchors(int reps, int n) {
  using ssac::AnchorRule;
  std::printf(
      "| anchor rule | seeds | traces | passes | anchor_draw choices | anchor_draw p | smallest p "
      "of the other kinds |\n|---|---|---|---|---|---|---|\n");
  for (AnchorRule rule : {AnchorRule::random_labelled_row, AnchorRule::random_known_row})
    for (int rep = 0; rep < reps; ++rep) {
      std::vector<ChoiceLawReport> rs;
      fails_at({ChoiceBug::none, 0}, rep, {n}, false, &rs, rule);
      const ChoiceLawReport& r = rs.back();
      double other = 1;
      const ssac::ChoiceKind* a = nullptr;
      for (const auto& k : r.kinds) {
        if (k.name == "anchor_draw") a = &k;
        if (k.name != "anchor_draw" && k.choices > 0) other = std::min(other, k.p);
      }
      std::printf("| %s | %llu.. | %d | %s | %llu | %.3g | %.3g |\n", ssac::to_string(rule),
                  1 + static_cast<unsigned long long>(rep) * kRepStride, n,
                  r.passes() ? "yes" : "**no**", static_cast<unsigned long long>(a->choices), a->p,
                  other);
      std::fflush(stdout);
    }
  const std::vector<int> ladder = {25, 50, 100, 200, 500, 1000, 2000, 5000};
  const std::vector<ChoiceBugSpec> bugs = {{ChoiceBug::anchor_first, 0},
                                           {ChoiceBug::front_bias_anchor, 0.5},
                                           {ChoiceBug::front_bias_anchor, 0.1}};
  std::printf(
      "\n| anchor rule | negative control | strength | traces needed (all %d repetitions "
      "caught) | kinds that fail there |\n|---|---|---|---|---|\n",
      reps);
  for (AnchorRule rule : {AnchorRule::random_labelled_row, AnchorRule::random_known_row})
    for (const ChoiceBugSpec& b : bugs) {
      const Needed n = traces_needed(b, reps, ladder, rule);
      std::printf("| %s | %s | %g | %s | %s |\n", ssac::to_string(rule),
                  ssac::testing::to_string(b.bug).c_str(), b.strength,
                  n.never ? "> 5000" : std::to_string(n.traces).c_str(), n.kinds.c_str());
      std::fflush(stdout);
    }
}

}  // namespace

int main(int argc, char** argv) {
  const std::string what = argc > 1 ? argv[1] : "";
  const int reps = argc > 2 ? std::atoi(argv[2]) : 0;
  if (what == "clean" && argc == 4 && reps > 0) {
    clean(reps, std::atoi(argv[3]));
  } else if (what == "controls" && argc == 3 && reps > 0) {
    controls(reps);
  } else if (what == "power" && argc == 4 && reps > 0) {
    power(reps, std::atoi(argv[3]));
  } else if (what == "anchors" && argc == 4 && reps > 0) {
    anchors(reps, std::atoi(argv[3]));
  } else {
    std::fprintf(stderr,
                 "usage: choice_power clean REPS TRACES | controls REPS | power REPS FAMILY | "
                 "anchors REPS TRACES\n"
                 "  FAMILY: 0 phase1_draw, 1 b_draw, 2 abstention\n");
    return 2;
  }
  return 0;
}
