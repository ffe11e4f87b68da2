// The random-weak oracle's memory in traces (docs/trace-format.md, header field oracle_memory;
// proofs-notes/oracle-independence.md): written only when it is not fresh, read back, and enforced
// by the replay under per-pair memory, where a pair asked again must get the answer it got first.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "ssac/error.hpp"
#include "ssac/oracle.hpp"
#include "ssac/oracle_check.hpp"
#include "ssac/oracle_spec.hpp"
#include "ssac/ssac.hpp"
#include "ssac/trace.hpp"
#include "trace_events.hpp"
#include "trace_fixture.hpp"

using namespace ssac;
using json = nlohmann::ordered_json;

namespace {

using fixtures::square_params;
using fixtures::squares;
const std::vector<int>& kLabels = fixtures::kSquareLabels;

// A run with a random-weak oracle of the given memory (behind coin flips for the plain search,
// as AskedOracle does), its trace's header naming `claimed` as the oracle's memory.
std::vector<json> run(Search s, std::uint64_t seed, OracleMemory memory, OracleMemory claimed,
                      double q = 0.5) {
  RandomWeakOracle base(kLabels, q, Rng::stream(seed, {kStreamOracle}), memory);
  AskedOracle oracle(base, s == Search::plain, Rng::stream(seed, {kStreamCoinFlip}));
  TraceHeader h;
  h.params = square_params(s);
  h.algorithm = s == Search::plain ? "original" : "weak";
  h.memory = claimed;
  fixtures::TraceText t(squares(), h);
  run_ssac(squares(), oracle.get(), h.params, seed, t.writer.get());
  return fixtures::events_of(t.text);
}

ValidationReport check(const std::vector<json>& ev) {
  return fixtures::check_on_squares(ev);
}

// The first query event (0-based) that repeats an earlier query's unordered pair with another
// answer, and that earlier event; {0, 0} when there is none.
std::pair<std::size_t, std::size_t> changed_repeat(const std::vector<json>& ev) {
  std::map<std::pair<std::size_t, std::size_t>, std::size_t> first;
  for (std::size_t e = 0; e < ev.size(); ++e) {
    if (ev[e]["event"] != "query") continue;
    const auto x = ev[e]["x"].get<std::size_t>(), y = ev[e]["y"].get<std::size_t>();
    const auto [f, added] = first.emplace(std::minmax(x, y), e);
    if (!added && ev[f->second]["answer"] != ev[e]["answer"]) return {e, f->second};
  }
  return {0, 0};
}

}  // namespace

TEST(ValidateMemory, OnlyPerPairIsWrittenAndItIsReadBack) {
  const auto fresh = run(Search::unified, 1, OracleMemory::fresh, OracleMemory::fresh);
  EXPECT_FALSE(fresh.front().contains("oracle_memory"));  // the default's bytes do not move
  const auto kept = run(Search::unified, 1, OracleMemory::per_pair, OracleMemory::per_pair);
  EXPECT_EQ(kept.front()["oracle_memory"], "per-pair");
  EXPECT_EQ(kept.front().back(), "per-pair");  // written last in the header
  EXPECT_TRUE(check(kept).conforms);
  auto explicit_fresh = fresh;
  explicit_fresh.front()["oracle_memory"] = "fresh";
  EXPECT_TRUE(check(explicit_fresh).conforms);
}

TEST(ValidateMemory, EveryPerPairRunReplaysAndItsRepeatedPairsAgree) {
  std::size_t repeats = 0;
  for (Search s : {Search::random, Search::distance, Search::unified})
    for (std::uint64_t seed = 0; seed < 30; ++seed) {
      const auto ev = run(s, seed, OracleMemory::per_pair, OracleMemory::per_pair);
      const auto rep = check(ev);
      ASSERT_TRUE(rep.conforms) << rep.divergence->message;
      EXPECT_EQ(changed_repeat(ev).first, 0u);
      std::map<std::pair<std::size_t, std::size_t>, int> asked;
      for (const json& e : ev)
        if (e["event"] == "query")
          repeats += asked[std::minmax(e["x"].get<std::size_t>(), e["y"].get<std::size_t>())]++ > 0;
    }
  EXPECT_GT(repeats, 100u);  // the check above had repeated pairs to look at
}

TEST(ValidateMemory, AFreshRunClaimingPerPairIsRejectedAtTheRepeatNamingBothLines) {
  for (std::uint64_t seed = 0; seed < 200; ++seed) {
    auto ev = run(Search::unified, seed, OracleMemory::fresh, OracleMemory::fresh);
    const auto [e, f] = changed_repeat(ev);
    if (e == 0) continue;
    ASSERT_TRUE(check(ev).conforms);  // negative control: as a fresh oracle's trace it conforms
    ev.front()["oracle_memory"] = "per-pair";
    const auto rep = check(ev);
    ASSERT_FALSE(rep.conforms);
    EXPECT_EQ(rep.divergence->event, e + 1);  // 1-based: the line of the repeat
    EXPECT_EQ(rep.divergence->what, "answer");
    EXPECT_EQ(rep.divergence->expected, ev[f]["answer"].dump());
    EXPECT_EQ(rep.divergence->found, ev[e]["answer"].dump());
    const auto x = ev[e]["x"].get<std::size_t>(), y = ev[e]["y"].get<std::size_t>();
    EXPECT_NE(rep.divergence->message.find(
                  "; the header's oracle_memory is per-pair, and line " + std::to_string(f + 1) +
                  " asked the same pair {" + std::to_string(std::min(x, y)) + ", " +
                  std::to_string(std::max(x, y)) + "} and was answered " + ev[f]["answer"].dump()),
              std::string::npos)
        << rep.divergence->message;
    EXPECT_EQ(rep.divergence->message.rfind("event " + std::to_string(e + 1) + " (iteration ", 0),
              0u)
        << rep.divergence->message;
    return;
  }
  FAIL() << "no fresh run answered a repeated pair differently";
}

TEST(ValidateMemory, TheOriginalSsacsCoinFlipsAreExempt) {
  // Its trace holds the answers after the coin flip, which a remembered not-sure draws afresh.
  for (std::uint64_t seed = 0; seed < 200; ++seed) {
    const auto ev = run(Search::plain, seed, OracleMemory::per_pair, OracleMemory::per_pair);
    if (changed_repeat(ev).first == 0) continue;
    EXPECT_EQ(ev.front()["oracle_memory"], "per-pair");
    const auto rep = check(ev);
    EXPECT_TRUE(rep.conforms) << rep.divergence->message;
    return;
  }
  FAIL() << "no original-SSAC run flipped a remembered not-sure two ways";
}

TEST(ValidateMemory, AnUnknownMemoryIsOneLineWithItsPosition) {
  auto ev = run(Search::unified, 1, OracleMemory::per_pair, OracleMemory::per_pair);
  ev.front()["oracle_memory"] = "always";
  try {
    check(ev);
    FAIL() << "accepted";
  } catch (const DataError& e) {
    EXPECT_STREQ(e.what(),
                 "t.jsonl:1: \"header\" event: \"oracle_memory\" = \"always\" is not one of the "
                 "format's values");
  }
}

TEST(ValidateMemory, TheOracleCheckCountsAPairOnceUnderTheHeadersMemory) {
  // --check-oracle's abstention rate takes the header's oracle_memory, not the oracle field: under
  // per-pair memory only a pair's first answer is a trial of Definition 5's Bernoulli(q).
  auto ev = run(Search::unified, 3, OracleMemory::per_pair, OracleMemory::per_pair);
  ev.front()["oracle"] = {{"kind", "random"}, {"q", 0.5}};  // the object says nothing of memory
  std::string text = fixtures::text_of(ev);
  std::size_t queries = 0;
  std::map<std::pair<std::size_t, std::size_t>, int> pairs;
  for (const json& e : ev) {
    if (e["event"] != "query") continue;
    ++queries;
    ++pairs[std::minmax(e["x"].get<std::size_t>(), e["y"].get<std::size_t>())];
  }
  ASSERT_LT(pairs.size(), queries);  // some pair was asked again
  const OracleCheck kept = check_oracle_answers(squares(), kLabels, text, "t.jsonl", std::nullopt);
  EXPECT_EQ(kept.spec.memory, OracleMemory::per_pair);
  EXPECT_EQ(kept.trials, pairs.size());
  ev.front().erase("oracle_memory");  // control: the same answers counted as a fresh oracle's
  text = fixtures::text_of(ev);
  const OracleCheck fresh = check_oracle_answers(squares(), kLabels, text, "t.jsonl", std::nullopt);
  EXPECT_EQ(fresh.spec.memory, OracleMemory::fresh);
  EXPECT_EQ(fresh.trials, queries);
}
