// ssac conformance: writes the conformance corpus (docs/conformance.md) -- deterministic test
// vectors in the style of Project Wycheproof. One file per Phase-2 search; each test is a complete
// trace (docs/trace-format.md) of the reference on a small data set, with the random choices and
// oracle answers that produced it, so that another implementation can replay the same choices and
// answers and compare every query, decision, radius and label. The generator owns the test ids:
// the cases (conformance_cases.cpp) are enumerated in a fixed order, and each case's seed is the
// smallest seed in [0, kMaxSeed) whose run exercises the situation the case's flags name (the
// generator refuses to write a case that does not).
#include <filesystem>
#include <functional>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>

#include "commands/commands.hpp"
#include "conformance/conformance_cases.hpp"
#include "conformance/conformance_distribution.hpp"
#include "options/option_checks.hpp"
#include "output/output_file.hpp"
#include "ssac/data.hpp"
#include "ssac/error.hpp"
#include "ssac/observer.hpp"
#include "ssac/oracle.hpp"
#include "ssac/oracle_spec.hpp"
#include "ssac/rules.hpp"
#include "ssac/ssac.hpp"
#include "ssac/trace.hpp"

namespace ssac::cli {

namespace {

using json = nlohmann::ordered_json;
using conformance::Case;
using conformance::Data;

constexpr std::uint64_t kMaxSeed = 20000;

// The oracle of a vector, as the corpus writes it: {"model": kind, and the parameters it uses}.
json oracle_json(const OracleSpec& o) {
  json j;
  j["model"] = to_string(o.kind);
  if (o.uses_q()) j["q"] = o.q;
  if (o.uses_nu()) j["nu"] = o.nu;
  if (o.uses_rho()) j["rho"] = o.rho;
  // Written only when the random-weak oracle remembers, as the trace header's oracle_memory.
  if (o.uses_memory() && o.memory != OracleMemory::fresh) j["memory"] = to_string(o.memory);
  return j;
}

std::string file_stem(Search s) {
  return std::string("ssac_") + to_string(s) + "_search_test.json";
}

// Records the run's state at every RunState report (conformance::State).
class StateRecorder : public RunObserver {
 public:
  std::vector<conformance::State> states;
  void run_state(const RunState& s) override {
    states.push_back({s.stage, s.iteration, s.labels, s.known, s.openers});
  }
};

// The trace `events` with only the rule `name` flipped in its header: on and off swap, anchor
// lowest-labelled-row and opener, phase2 prefix and radius, b-order b-first and xj-first;
// elimination also flips "assignment". b-order, which a header's rules name only as b-first, is
// flipped in the profile the header names (the paper's when it names none) and the rules written
// in the format's form.
std::string with_rule_flipped(const std::vector<std::string>& events, const std::string& name) {
  json h = json::parse(events.front());
  if (name == "b-order") {
    Profile p{{}, h["assignment"] == "paper"};
    if (h.contains("rules")) {
      std::istringstream words(h["rules"].get<std::string>());
      for (std::string w; words >> w;)
        set_rule_given_rows(p, w);
    }
    p.rules.b_first = !p.rules.b_first;
    h["semantics"] = profile_name(p);
    h["rules"] = describe(p);
  } else {
    std::istringstream words(h["rules"].get<std::string>());
    std::string rules;
    for (std::string w; words >> w;) {
      if (w.rfind(name + "=", 0) == 0) {
        const std::string v = w.substr(name.size() + 1);
        const std::string flipped = v == "on"                    ? "off"
                                    : v == "off"                 ? "on"
                                    : v == "prefix"              ? "radius"
                                    : v == "radius"              ? "prefix"
                                    : v == "lowest-labelled-row" ? "opener"
                                                                 : "lowest-labelled-row";
        w = name + "=" + flipped;
        if (name == "elimination") h["assignment"] = assignment_name(flipped == "on");
      }
      rules += (rules.empty() ? "" : " ") + w;
    }
    h["rules"] = rules;
  }
  std::string text = h.dump() + "\n";
  for (std::size_t i = 1; i < events.size(); ++i)
    text += events[i] + "\n";
  return text;
}

// The first seed whose run exercises the case; the trace of that run, one event per line as the
// trace writer wrote it while the run reported its events. A case that pins a rule of the
// authors-code profile also needs the trace with that rule flipped to fail validation.
std::vector<std::string> run_case(const Case& c, const Data& d, Search s, std::uint64_t& seed_out) {
  Params P;
  P.k = c.k;
  P.eta = c.eta;
  P.beta = c.beta;
  P.search = s;
  P.elimination = c.elimination;
  P.rules = c.rules;
  P.oracle_clusters = *std::max_element(d.labels.begin(), d.labels.end());  // labels are 1..K
  // The case's run at `seed`, its events told to `observer`; whether it exercises the case.
  auto run = [&](std::uint64_t seed, RunObserver* observer) {
    const auto base = make_oracle(c.oracle, d.X, d.labels, Rng::stream(seed, {kStreamOracle}));
    RecordingOracle recorded(*base);
    AskedOracle oracle(recorded, s == Search::plain, Rng::stream(seed, {kStreamCoinFlip}));
    StateRecorder states;
    const Result R = run_ssac(d.X, oracle.get(), P, seed, observer ? observer : &states);
    if (!c.exercises(R, d, P) || (c.history && !c.history(R, d, P, states.states)) ||
        (c.needs_abstention &&
         std::none_of(recorded.entries().begin(), recorded.entries().end(),
                      [](const RecordingOracle::Entry& e) { return e.answer == Answer::NotSure; })))
      return false;
    if (!c.differs_from_fresh) return true;
    // The same seed under a fresh oracle: the two runs agree up to the first repeated pair, where
    // the fresh oracle draws again.
    OracleSpec fresh = c.oracle;
    fresh.memory = OracleMemory::fresh;
    const auto fresh_base = make_oracle(fresh, d.X, d.labels, Rng::stream(seed, {kStreamOracle}));
    AskedOracle fresh_oracle(*fresh_base, s == Search::plain, Rng::stream(seed, {kStreamCoinFlip}));
    return run_ssac(d.X, fresh_oracle.get(), P, seed, nullptr).failed != R.failed;
  };
  for (std::uint64_t seed = 0; seed < kMaxSeed; ++seed) {
    if (!run(seed, nullptr)) continue;
    TraceHeader th;
    th.params = P;
    th.algorithm = to_string(s == Search::plain ? Algorithm::original : Algorithm::weak);
    // The original SSAC's answers are the oracle's after the coin flip (algorithm "original").
    th.oracle = c.oracle;
    if (c.oracle.uses_memory()) th.memory = c.oracle.memory;
    th.seed = seed;
    std::vector<std::string> events;
    const auto writer =
        trace_writer(d.X, th, [&events](const std::string& line) { events.push_back(line); });
    run(seed, writer.get());  // the same run again, written this time
    if (!c.pins.empty() &&
        validate_trace(d.X, with_rule_flipped(events, c.pins), "flipped").conforms)
      continue;
    seed_out = seed;
    return events;
  }
  throw DataError(std::string(file_stem(s)) + ": no seed below " + std::to_string(kMaxSeed) +
                  " exercises the case \"" + c.comment + "\"");
}

// Whether the trace `events` of a run on d depends on S6's tie rule: its replay with equal
// distances ordered by decreasing row, the opposite rule, diverges. Found by replaying, not by
// looking for equal distances, so that only ties that change a probe, x_1 or C'_p count.
bool depends_on_tie_order(const std::vector<std::string>& events, const Data& d) {
  std::string text;
  for (const std::string& e : events)
    text += e + "\n";
  ReplayOptions reversed;
  reversed.reversed_ties = true;
  return !validate_trace(d.X, text, "reversed ties", reversed).conforms;
}

// Wycheproof-like layout: objects one key per line, arrays of scalars on one line, arrays of
// objects and a test's trace events one element per line, so that a diff of two corpora shows the
// changed event. A test's "trace" holds the lines the trace writer wrote (as JSON strings here),
// and they are copied as written (`lines`).
void pretty(const json& v, std::string& out, int depth, bool lines = false) {
  const std::string ind(static_cast<std::size_t>(2 * depth), ' ');
  const std::string ind2(static_cast<std::size_t>(2 * depth + 2), ' ');
  if (v.is_object() && !v.empty()) {
    out += "{\n";
    std::size_t i = 0;
    for (const auto& [key, val] : v.items()) {
      out += ind2 + json(key).dump() + ": ";
      pretty(val, out, depth + 1, key == "trace");
      out += ++i < v.size() ? ",\n" : "\n";
    }
    out += ind + "}";
  } else if (v.is_array() && !v.empty() &&
             (lines || v.front().is_object() || v.front().is_array())) {
    out += "[\n";
    for (std::size_t i = 0; i < v.size(); ++i) {
      out += ind2;
      if (lines)
        out += v[i].get_ref<const std::string&>();
      else
        pretty(v[i], out, depth + 1);
      out += i + 1 < v.size() ? ",\n" : "\n";
    }
    out += ind + "]";
  } else {
    out += v.dump();
  }
}

std::string corpus_file(Search s) {
  const std::vector<Data> all = conformance::datasets();
  json groups = json::array();
  int tc = 0;
  const std::vector<Case> cs = conformance::cases(s);
  for (const Data& d : all) {
    json tests = json::array();
    for (const Case& c : cs) {
      if (c.data != d.name) continue;
      std::uint64_t seed = 0;
      const std::vector<std::string> trace = run_case(c, d, s, seed);
      json t;
      t["tcId"] = ++tc;
      t["comment"] = c.comment;
      t["flags"] = c.flags;
      if (depends_on_tie_order(trace, d)) t["flags"].push_back("TieOrderS6");
      t["params"] = {{"k", c.k},
                     {"eta", c.eta},
                     {"beta", c.beta},
                     {"assignment", assignment_name(c.elimination)}};
      // A run under other rules than the paper's names them as its trace's header does (S9).
      if (c.rules != Rules{}) {
        const Profile profile{c.rules, c.elimination};
        t["params"]["semantics"] = profile_name(profile);
        t["params"]["rules"] = describe(profile);
      }
      t["oracle"] = oracle_json(c.oracle);
      t["seed"] = seed;
      t["result"] = c.acceptable ? "acceptable" : "valid";
      t["trace"] = trace;
      tests.push_back(t);
    }
    // Parameters outside their ranges (Params::check); one per parameter, on the first data set.
    if (&d == &all.front()) {
      const std::size_t n = d.labels.size();
      struct Bad {
        const char* param;
        int k;
        double eta;
        int beta;
        const char* comment;
      };
      const Bad bad[] = {{"k", 0, 2.0, 2, "k = 0"},
                         {"k", static_cast<int>(n) + 1, 2.0, 2, "k = n + 1"},
                         {"eta", 2, 0.0, 2, "eta = 0"},
                         {"beta", 2, 2.0, 0, "beta = 0"}};
      for (const Bad& b : bad) {
        Params P;
        P.k = b.k;
        P.eta = b.eta;
        P.beta = b.beta;
        P.search = s;
        bool refused = false;
        try {
          P.check(n);
        } catch (const ParameterError&) {
          refused = true;
        }
        if (!refused) throw DataError(std::string("conformance: ") + b.comment + " was accepted");
        json t;
        t["tcId"] = ++tc;
        t["comment"] = std::string(b.comment) + ": the implementation must refuse to run";
        t["flags"] = {"InvalidParameter"};
        t["params"] = {
            {"k", b.k}, {"eta", b.eta}, {"beta", b.beta}, {"assignment", assignment_name(true)}};
        t["oracle"] = oracle_json(OracleSpec{});
        t["result"] = "invalid";
        t["error"] = {{"parameter", b.param}};
        tests.push_back(t);
      }
    }
    if (tests.empty()) continue;
    json g;
    g["type"] = "SsacRun";
    g["dataset"] = d.name;
    g["description"] = d.description;
    g["n"] = d.labels.size();
    g["m"] = d.X.cols();
    std::vector<std::vector<double>> pts;
    for (Eigen::Index i = 0; i < d.X.rows(); ++i)
      pts.emplace_back(d.X.row(i).data(), d.X.row(i).data() + d.X.cols());
    g["points"] = pts;
    g["labels"] = d.labels;
    g["fingerprint"] = points_fingerprint(d.X);
    g["tests"] = tests;
    groups.push_back(g);
  }
  json f;
  f["algorithm"] = "SSAC";
  f["schema"] = "ssac-conformance-v2.schema.json";
  f["generatorVersion"] = "ssac 0.1.0";
  // The corpus's vectors are runs under rules that draw no anchor: their traces are version 3.
  f["traceFormat"] = std::string(kTraceFormat) + "/" + std::to_string(kTraceVersionFixedAnchors);
  f["search"] = to_string(s);
  f["numberOfTests"] = tc;
  f["header"] = {
      "Test vectors for SSAC with weak oracles (Kim & Ghosh), one Phase-2 search per file.",
      "Each test's trace holds the random choices and oracle answers of one reference run;",
      "replaying them must reproduce every query, decision, radius and label "
      "(docs/conformance.md)."};
  f["notes"] = conformance::notes();
  f["testGroups"] = groups;
  std::string out;
  pretty(f, out, 0);
  return out + "\n";
}

int run_conformance(const std::string& dir, bool distribution) {
  OutputFiles outputs;  // replaced as a whole (an earlier corpus holds manifest.json)
  outputs.directory("--out", dir, "manifest.json");
  // Everything is generated before anything is written, so a failure leaves no partial corpus.
  std::vector<std::pair<std::string, std::string>> files;
  if (distribution) {
    files = distribution::corpus_files();
    std::size_t bytes = 0;
    for (const auto& [name, text] : files) {
      outputs.stage_in(dir, name, text);
      bytes += text.size();
    }
    outputs.commit();
    std::cout << "wrote " << files.size() << " files (" << bytes << " bytes) to " << dir << "\n";
    return 0;
  }
  for (Search s : {Search::random, Search::distance, Search::unified, Search::plain})
    files.emplace_back(file_stem(s), corpus_file(s));
  json manifest;
  manifest["schema"] = "ssac-conformance-manifest-v1.schema.json";
  manifest["hash"] = "sha256";
  json entries = json::array();
  for (const auto& [name, text] : files)
    entries.push_back({{"file", name}, {"bytes", text.size()}, {"sha256", sha256_hex(text)}});
  manifest["files"] = entries;
  std::string mtext;
  pretty(manifest, mtext, 0);
  files.emplace_back("manifest.json", mtext + "\n");
  std::size_t bytes = 0;
  for (const auto& [name, text] : files) {
    outputs.stage_in(dir, name, text);
    bytes += text.size();
  }
  outputs.commit();
  std::cout << "wrote " << files.size() << " files (" << bytes << " bytes) to " << dir << "\n";
  return 0;
}

}  // namespace

Command add_conformance(CLI::App& root) {
  auto* app = root.add_subcommand(
      "conformance",
      "Write the conformance corpus: deterministic test vectors (one JSON file per Phase-2 "
      "search, each test a reference trace) and a SHA-256 manifest; docs/conformance.md.");
  auto dir = std::make_shared<std::string>();
  auto distribution = std::make_shared<bool>(false);
  app->add_option("--out", *dir, "directory to write (created if missing)")->required();
  app->add_flag("--distribution", *distribution,
                "write the distribution corpus instead: small instances, each with the exact law "
                "of its outcome, for `ssac gof` (docs/conformance.md)");
  path_options(app, {"--out"});
  return {app, [dir, distribution]() { return run_conformance(*dir, *distribution); }};
}

}  // namespace ssac::cli
