// The labelling session (ssac/session.hpp): the run replayed from the answer log is the run the
// same answers give when asked directly; undo, resume, the log's header and the progress counts.
#include <gtest/gtest.h>

#include "ssac/error.hpp"
#include "ssac/generator.hpp"
#include "ssac/oracle_spec.hpp"
#include "ssac/rules.hpp"
#include "ssac/session.hpp"
#include "ssac/trace.hpp"

using namespace ssac;

namespace {

Dataset blobs(std::uint64_t seed, std::size_t n = 90) {
  GeneratorParams g;
  g.n = n;
  g.k = 3;
  g.sigma = 1.0;
  g.gamma_min = 1.2;
  g.gamma_max = 1e9;
  g.seed = seed;
  g.shuffle = true;
  return generate(g).data;
}

// A person who answers from the labels and is not sure about the pairs a fixed hash picks (about
// one in four); the answer depends on the unordered pair only, as a person with memory's does.
// Self-pairs, which the paper's rules ask (S4), are never shown to the person: the session answers
// them yes, as InteractiveOracle does.
struct Person {
  const std::vector<int>& labels;
  Answer operator()(std::size_t x, std::size_t y) const {
    const std::size_t a = std::min(x, y), b = std::max(x, y);
    if (a == b) return Answer::Yes;  // S4: the oracle answers a self-pair yes without asking
    if ((a * 7919 + b * 104729) % 4 == 0) return Answer::NotSure;
    return labels[a] == labels[b] ? Answer::Yes : Answer::No;
  }
};
class PersonOracle : public Oracle {
 public:
  explicit PersonOracle(Person p) : p_(p) {}
  Answer query(std::size_t x, std::size_t y) override {
    ++asked_;
    return p_(x, y);
  }
  std::size_t asked_ = 0;

 private:
  Person p_;
};

SessionSpec spec_for(Search search, Algorithm algorithm = Algorithm::weak, std::uint64_t seed = 5) {
  SessionSpec s;
  s.params.k = 3;
  s.params.eta = 4;
  s.params.beta = 3;
  s.params.search = search;
  s.algorithm = algorithm;
  s.seed = seed;
  return s;
}

// Answers every question of `s` as `person` would, returning the questions in order.
std::vector<std::pair<std::size_t, std::size_t>> answer_all(Session& s, const Person& person) {
  std::vector<std::pair<std::size_t, std::size_t>> asked;
  while (!s.finished()) {
    asked.push_back(s.question());
    s.answer(person(s.question().first, s.question().second));
  }
  return asked;
}

}  // namespace

TEST(Session, ReplayIsTheRunTheSameAnswersGiveDirectly) {
  for (Search search : {Search::random, Search::distance, Search::unified, Search::plain}) {
    const Algorithm alg = search == Search::plain ? Algorithm::original : Algorithm::weak;
    for (std::uint64_t seed : {1, 2, 3}) {
      const Dataset d = blobs(seed);
      const Person person{d.labels};
      const SessionSpec spec = spec_for(search, alg, seed);
      Session s(d.points, spec);
      answer_all(s, person);
      PersonOracle direct(person);
      AskedOracle asked(direct, alg == Algorithm::original, Rng::stream(seed, {kStreamCoinFlip}));
      const Result R = run_ssac(d.points, asked.get(), spec.params, seed);
      EXPECT_EQ(s.result().labels, R.labels) << to_string(search) << " seed " << seed;
      ASSERT_EQ(s.result().queries.size(), R.queries.size());
      for (std::size_t i = 0; i < R.queries.size(); ++i) {
        EXPECT_EQ(s.result().queries[i].x, R.queries[i].x);
        EXPECT_EQ(s.result().queries[i].answer, R.queries[i].answer);
      }
      // One question per distinct unordered pair of distinct rows.
      std::set<std::pair<std::size_t, std::size_t>> pairs;
      for (const auto& q : R.queries)
        if (q.x != q.y) pairs.insert({std::min(q.x, q.y), std::max(q.x, q.y)});
      EXPECT_EQ(s.log().size(), pairs.size());
      EXPECT_EQ(s.progress().queries, R.queries.size());
      EXPECT_EQ(s.replay(nullptr).labels, R.labels);
    }
  }
}

TEST(Session, UndoAndReanswerGivesTheSameRunAndUndoAsksTheSameQuestionAgain) {
  const Dataset d = blobs(7);
  const Person person{d.labels};
  Session s(d.points, spec_for(Search::unified));
  const auto asked = answer_all(s, person);
  ASSERT_GT(asked.size(), 12u);
  const Result full = s.result();
  const auto full_log = s.log();
  s.undo(9);
  ASSERT_FALSE(s.finished());
  EXPECT_EQ(s.log().size(), 9u);
  EXPECT_EQ(s.question(), asked[9]);
  EXPECT_EQ(s.progress().questions, 9u);
  // A different answer to question 10 changes the run after it.
  const Answer flipped =
      person(asked[9].first, asked[9].second) == Answer::Yes ? Answer::No : Answer::Yes;
  s.answer(flipped);
  const auto after_flip = s.log();
  s.undo(9);
  answer_all(s, person);
  EXPECT_EQ(s.log(), full_log);
  EXPECT_EQ(s.result().labels, full.labels);
  EXPECT_NE(after_flip.back(), full_log[9]);
  EXPECT_THROW(s.undo(s.log().size()), ParameterError);
}

TEST(Session, ResumeFromAPrefixOfTheLogAsksTheNextQuestion) {
  const Dataset d = blobs(8);
  const Person person{d.labels};
  Session s(d.points, spec_for(Search::random));
  const auto asked = answer_all(s, person);
  for (std::size_t keep : {std::size_t{0}, std::size_t{1}, asked.size() / 2, asked.size() - 1}) {
    Session r(d.points, spec_for(Search::random),
              std::vector<LoggedAnswer>(s.log().begin(), s.log().begin() + keep));
    ASSERT_FALSE(r.finished());
    EXPECT_EQ(r.question(), asked[keep]);
  }
  Session done(d.points, spec_for(Search::random), s.log());
  EXPECT_TRUE(done.finished());
  EXPECT_EQ(done.result().labels, s.result().labels);
}

TEST(Session, RefusesALogOfAnotherRun) {
  const Dataset d = blobs(9);
  const Person person{d.labels};
  Session s(d.points, spec_for(Search::unified, Algorithm::weak, 1));
  answer_all(s, person);
  // Another seed asks other questions: the first answer that does not fit is named.
  EXPECT_THROW(Session(d.points, spec_for(Search::unified, Algorithm::weak, 2), s.log()),
               DataError);
  // More answers than the run asks.
  auto longer = s.log();
  longer.push_back({0, 1, Answer::Yes});
  EXPECT_THROW(Session(d.points, spec_for(Search::unified, Algorithm::weak, 1), longer), DataError);
}

TEST(Session, ALogOfAnotherRunIsNamedByTheAnswerFilesLine) {
  const Dataset d = blobs(9);
  const Person person{d.labels};
  Session s1(d.points, spec_for(Search::unified, Algorithm::weak, 1));
  answer_all(s1, person);
  Session s2(d.points, spec_for(Search::unified, Algorithm::weak, 2));
  answer_all(s2, person);
  std::size_t j = 0;  // the first question the two seeds ask differently
  while (j < s1.log().size() && j < s2.log().size() && s1.log()[j] == s2.log()[j])
    ++j;
  ASSERT_LT(j, s1.log().size());
  ASSERT_LT(j, s2.log().size());
  // The file: a header, a blank line (skipped, but counted), then seed 1's answers.
  const std::string h = answer_log_header(d.points, spec_for(Search::unified, Algorithm::weak, 2));
  std::string body;
  for (const auto& e : s1.log())
    body += format_logged_answer(e) + "\n";
  const auto log = parse_answer_log(h + "\n\n" + body, "a.txt", d.n(), h);
  auto rows = [](const LoggedAnswer& e) { return std::to_string(e.x) + "," + std::to_string(e.y); };
  try {
    Session(d.points, spec_for(Search::unified, Algorithm::weak, 2), log, "a.txt");
    ADD_FAILURE() << "seed 1's answers were replayed into seed 2's run";
  } catch (const DataError& e) {
    EXPECT_EQ(std::string(e.what()),
              "a.txt:" + std::to_string(j + 3) + ": answer " + std::to_string(j + 1) +
                  " is for rows " + rows(s1.log()[j]) + " but the run asks " + rows(s2.log()[j]) +
                  " there: the answers were given to another run");
  }
  // One answer more than the run asks: named by its line.
  const std::string h1 = answer_log_header(d.points, spec_for(Search::unified, Algorithm::weak, 1));
  const std::string extra = h1 + "\n\n" + body + "0,1,yes\n";
  try {
    Session(d.points, spec_for(Search::unified, Algorithm::weak, 1),
            parse_answer_log(extra, "a.txt", d.n(), h1), "a.txt");
    ADD_FAILURE() << "an answer past the run's end was accepted";
  } catch (const DataError& e) {
    const std::size_t k = s1.log().size();
    EXPECT_EQ(std::string(e.what()), "a.txt:" + std::to_string(k + 3) + ": the run ends after " +
                                         std::to_string(k) + " answers but there are " +
                                         std::to_string(k + 1) +
                                         ": the answers were given to another run");
  }
}

TEST(AnswerLog, HeaderNamesTheFieldThatDiffersAndLinesRoundTrip) {
  const Dataset d = blobs(4, 30);
  const SessionSpec spec = spec_for(Search::unified);
  const std::string h = answer_log_header(d.points, spec);
  SessionSpec other = spec;
  other.params.k = 2;
  const std::string body = "3,1,yes\n0,2,not-sure\n4,5,no\n";
  const auto log = parse_answer_log(h + "\n" + body, "a.txt", d.n(), h);
  ASSERT_EQ(log.size(), 3u);
  EXPECT_EQ(log[0], (LoggedAnswer{1, 3, Answer::Yes}));
  EXPECT_EQ(format_logged_answer(log[1]), "0,2,not-sure");
  EXPECT_EQ(parse_answer_log(body, "a.txt", d.n(), h), log);  // no header: read as it is
  try {
    parse_answer_log(answer_log_header(d.points, other) + "\n" + body, "a.txt", d.n(), h);
    ADD_FAILURE() << "a header of other parameters was accepted";
  } catch (const DataError& e) {
    EXPECT_EQ(std::string(e.what()),
              "a.txt:1: the answers were given for other data or parameters ('k=2', not 'k=3'); "
              "use another answer file");
  }
  const Dataset moved = blobs(5, 30);
  EXPECT_THROW(parse_answer_log(answer_log_header(moved.points, spec) + "\n", "a.txt", d.n(), h),
               DataError);
  SessionSpec seeded = spec;
  seeded.seed = 6;
  EXPECT_NE(answer_log_header(d.points, seeded), h);
  try {
    parse_answer_log("0,1,yes\n0,30,no\n", "a.txt", d.n(), h);
    ADD_FAILURE();
  } catch (const DataError& e) {
    EXPECT_EQ(std::string(e.what()), "a.txt:2:3: column 2 (y): '30' is not a row number below 30");
  }
  EXPECT_THROW(parse_answer_log("0,1,maybe\n", "a.txt", d.n(), h), DataError);
  EXPECT_THROW(parse_answer_log("2,2,yes\n", "a.txt", d.n(), h), DataError);
}

// The answer file is a CSV (RFC 4180, ssac/csv.hpp): quoted fields read as their text, a quoted
// comma or a doubled quote stays inside its field, and every message names the line and column.
TEST(AnswerLog, LinesAreCsvRecordsAndErrorsNameTheColumn) {
  const Dataset d = blobs(4, 30);
  const std::string h = answer_log_header(d.points, spec_for(Search::unified));
  const auto log =
      parse_answer_log(h + "\r\n\"3\", 1 ,\"not-sure\"\r\n\n0,2,no\n", "a.txt", d.n(), h);
  ASSERT_EQ(log.size(), 2u);
  EXPECT_EQ(log[0], (LoggedAnswer{1, 3, Answer::NotSure}));
  EXPECT_EQ(log[0].line, 2u);
  EXPECT_EQ(log[1], (LoggedAnswer{0, 2, Answer::No}));
  EXPECT_EQ(log[1].line, 4u);
  // Saved by an editor that opens the file with a byte order mark: the same answers.
  EXPECT_EQ(parse_answer_log("\xEF\xBB\xBF" + h + "\n0,2,no\n", "a.txt", d.n(), h),
            (std::vector<LoggedAnswer>{{0, 2, Answer::No}}));
  auto message = [&](const std::string& body) {
    try {
      parse_answer_log(h + "\n" + body, "a.txt", d.n(), h);
    } catch (const DataError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_EQ(message("0,1,yes\n\"1,2\",3,no\n"),
            "a.txt:3:1: column 1 (x): '1,2' is not a row number below 30");
  EXPECT_EQ(message("0,1,\"ye\"\"s\"\n"),
            "a.txt:2:5: column 3 (answer): 'ye\"s' is not an answer yes, no or not-sure");
  EXPECT_EQ(message("0,1,\"yes,no\"\n"),
            "a.txt:2:5: column 3 (answer): 'yes,no' is not an answer yes, no or not-sure");
  EXPECT_EQ(message("0,1\n"), "a.txt:2:1: expected 3 fields x,y,answer, found 2");
  EXPECT_EQ(message("0,1,yes,no\n"), "a.txt:2:1: expected 3 fields x,y,answer, found 4");
  EXPECT_EQ(message("4,\"4\",yes\n"),
            "a.txt:2:3: column 2 (y): a row paired with itself is never asked (a point is in its "
            "own cluster)");
  EXPECT_EQ(message("0,1,\"yes\n\"\n"),
            "a.txt:2:5: the quoted field opened here runs past the end of its line (a line break "
            "inside a field is allowed only in ssac label's text columns)");
  EXPECT_EQ(message("0,1,ye\"s\n"),
            "a.txt:2:7: a double quote inside a field that does not start with one (quote the "
            "whole field and write the quote \"\")");
}

TEST(AnswerLog, TheHeaderIsOneFieldPerParameterAndTheRulesTellRunsApart) {
  const Dataset d = blobs(4, 30);
  const SessionSpec spec = spec_for(Search::unified);
  const std::string rules =
      "phase2=radius,overwrite=off,sample-cap=off,self-pairs=on,empty-recovers=off,elimination=on";
  EXPECT_EQ(answer_log_header(d.points, spec),
            "# ssac-answers 1 points=" + points_fingerprint(d.points) +
                " k=3 eta=4 beta=3 search=unified algorithm=weak rules=anchor=opener," + rules +
                " oracle-clusters=0 seed=5");
  // Two anchor rules whose names have the same length: their headers differ in rules=, and one's
  // answers are refused for the other with that field named.
  SessionSpec lowest = spec, random = spec;
  lowest.params.rules.anchor = AnchorRule::lowest_labelled_row;
  random.params.rules.anchor = AnchorRule::random_labelled_row;
  const std::string hl = answer_log_header(d.points, lowest),
                    hr = answer_log_header(d.points, random);
  EXPECT_EQ(hl, "# ssac-answers 1 points=" + points_fingerprint(d.points) +
                    " k=3 eta=4 beta=3 search=unified algorithm=weak "
                    "rules=anchor=lowest-labelled-row," +
                    rules + " oracle-clusters=0 seed=5");
  try {
    parse_answer_log(hl + "\n0,1,yes\n", "a.txt", d.n(), hr);
    ADD_FAILURE() << "answers for the lowest-labelled-row anchor accepted for the random one";
  } catch (const DataError& e) {
    EXPECT_EQ(std::string(e.what()),
              "a.txt:1: the answers were given for other data or parameters "
              "('rules=anchor=lowest-labelled-row," +
                  rules + "', not 'rules=anchor=random-labelled-row," + rules +
                  "'); use another answer file");
  }
}

TEST(SessionProgress, MaxQueriesIsCorollary8sCountAndBoundsEveryRun) {
  Params P;
  P.k = 3;
  P.eta = 10;
  P.beta = 10;
  // k (k ceil(k eta) + beta bit_width(n)): 3 (3 * 30 + 10 * 8) for n = 150.
  P.search = Search::unified;
  EXPECT_EQ(max_queries(150, P), 3u * (3 * 30 + 10 * 8));
  P.search = Search::random;
  EXPECT_EQ(max_queries(150, P), 3u * (3 * 30 + 10 * 8));
  P.search = Search::distance;
  EXPECT_EQ(max_queries(150, P), 3u * (3 * 30 + 8));
  EXPECT_EQ(max_queries(128, P), 3u * (3 * 30 + 8));
  EXPECT_EQ(max_queries(127, P), 3u * (3 * 30 + 7));
  P.eta = 2.5;  // r = ceil(7.5) = 8
  EXPECT_EQ(max_queries(127, P), 3u * (3 * 8 + 7));
  // Every run stays within it, and the remaining bound falls as the queries are asked.
  for (std::uint64_t seed = 1; seed <= 6; ++seed) {
    const Dataset d = blobs(seed);
    const Person person{d.labels};
    Session s(d.points, spec_for(seed % 2 ? Search::random : Search::unified));
    std::uint64_t last = s.progress().max_remaining;
    EXPECT_EQ(last, s.progress().max_queries);
    while (!s.finished()) {
      s.answer(person(s.question().first, s.question().second));
      const SessionProgress p = s.progress();
      EXPECT_LE(p.queries, p.max_queries);
      if (!s.finished()) {
        EXPECT_EQ(p.max_remaining, p.max_queries - p.queries);
        EXPECT_LT(p.max_remaining, last);
        last = p.max_remaining;
      }
    }
    EXPECT_EQ(s.progress().max_remaining, 0u);
  }
}

TEST(SessionProgress, NotSureRateHasTheExactClopperPearsonInterval) {
  // 0 of 10: the upper end solves (1 - p)^10 = 0.025; the lower end is 0.
  auto [lo, hi] = clopper_pearson(0, 10, 0.05);
  EXPECT_EQ(lo, 0.0);
  EXPECT_NEAR(hi, 1.0 - std::pow(0.025, 0.1), 1e-12);
  // 10 of 10 mirrors it.
  std::tie(lo, hi) = clopper_pearson(10, 10, 0.05);
  EXPECT_NEAR(lo, std::pow(0.025, 0.1), 1e-12);
  EXPECT_EQ(hi, 1.0);
  // 1 of 2: the lower end solves 1 - (1 - p)^2 = 0.025.
  std::tie(lo, hi) = clopper_pearson(1, 2, 0.05);
  EXPECT_NEAR(lo, 1.0 - std::sqrt(0.975), 1e-12);
  EXPECT_NEAR(hi, std::sqrt(0.975), 1e-12);
  std::tie(lo, hi) = clopper_pearson(0, 0, 0.05);
  EXPECT_EQ(lo, 0.0);
  EXPECT_EQ(hi, 1.0);
  const Dataset d = blobs(3);
  const Person person{d.labels};
  Session s(d.points, spec_for(Search::unified));
  answer_all(s, person);
  std::size_t unsure = 0;
  for (const auto& e : s.log())
    unsure += e.answer == Answer::NotSure;
  const SessionProgress p = s.progress();
  EXPECT_EQ(p.not_sure, unsure);
  EXPECT_GT(unsure, 0u);
  const auto [l2, h2] = clopper_pearson(unsure, s.log().size(), 0.05);
  EXPECT_EQ(p.not_sure_low, l2);
  EXPECT_EQ(p.not_sure_high, h2);
}
