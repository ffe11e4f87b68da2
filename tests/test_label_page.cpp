// The labelling page's HTML (cli/label/html.hpp, server.hpp): text is escaped by construction.
// Every place text of the person's data or of the machine enters the page -- a row's text, a
// column's name, the data file's and the answer file's names, an error message -- is fed a string
// holding every character HTML gives a meaning to and a marker of the page's shell; the page must
// hold it escaped at each of those places and have the same elements as a page of plain strings.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <set>
#include <string>
#include <type_traits>
#include <vector>

#include "label/answer_file.hpp"
#include "label/html.hpp"
#include "label/items.hpp"
#include "label/server.hpp"
#include "options/run_params.hpp"
#include "ssac/error.hpp"
#include "ssac/oracle_spec.hpp"
#include "ssac/session.hpp"

namespace ssac::cli {
namespace {

// Every character html_escape changes, a quoted attribute's end, and the shell's body marker.
const std::string kHostile = "<i id='x' class=\"y\">&amp;{{body}}";

// Run-time strings are no markup: only Text appends them, escaped.
template <class T>
concept Appendable = requires(Html& h, T t) {
  h << t;
};
static_assert(!Appendable<std::string>);
static_assert(!Appendable<std::string_view>);
static_assert(!Appendable<char>);
static_assert(Appendable<Text> && Appendable<Markup> && Appendable<std::size_t>);
static_assert(!std::is_constructible_v<Markup, std::string>);
static_assert(!std::is_constructible_v<Markup, std::string_view>);
static_assert(!std::is_convertible_v<std::string, Text>);

// The start tags of `page` in order: "<name" up to a blank, '>' or '/'.
std::multiset<std::string> tags(const std::string& page) {
  std::multiset<std::string> out;
  for (std::size_t at = page.find('<'); at != std::string::npos; at = page.find('<', at + 1)) {
    const std::size_t end = page.find_first_of(" >/\n", at + 1);
    if (end != at + 1) out.insert(page.substr(at + 1, end - at - 1));
  }
  return out;
}

std::size_t count(const std::string& s, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = s.find(what); at != std::string::npos; at = s.find(what, at + 1))
    ++n;
  return n;
}

// A session over six points in two clusters: the data file, the answer file, the text column and
// the shown coordinate column are named after `word`, and the text cells are `word` and the row.
struct Page {
  explicit Page(const std::string& word) : file(word + ".txt", "# header") {
    data.data.points.resize(6, 2);
    data.data.points << 0, 0, 0.1, 0, 0.2, 0.1, 5, 5, 5.1, 5, 5.2, 5.1;
    data.data.column_names = {"x", word + "#"};
    data.text_names = {word};
    for (int r = 0; r < 6; ++r)
      data.text.push_back({word + std::to_string(r)});
    view.emplace(data, std::vector<std::string>{word, word + "#"}, "");
    SessionSpec spec;
    spec.params.k = 2;
    spec.params.eta = 2;
    spec.params.beta = 2;
    spec.seed = 3;
    session.emplace(data.data.points, spec, std::vector<LoggedAnswer>{}, "answers");
    page = LabelPage{word + ".csv", &data, &*view, &*session, &file, {}, 12};
  }
  LabelData data;
  std::optional<ItemView> view;
  std::optional<Session> session;
  AnswerFile file;  // not opened: only its name is shown
  LabelPage page;
};

TEST(Html, TextIsEscapedMarkupIsNotAndMarkersAreFilledOnce) {
  Html h;
  h << "<p title=\"" << Text(kHostile) << "\">" << std::size_t{42} << -1 << "</p>";
  EXPECT_EQ(h.str(),
            "<p title=\"&lt;i id=&#39;x&#39; class=&quot;y&quot;&gt;&amp;amp;{{body}}\">42-1</p>");
  // A value holding a marker is not searched again; every marker of the page is filled.
  Html a, b;
  a << Text("{{b}}");
  b << "<b>";
  EXPECT_EQ(Html::fill("[{{a}}|{{b}}|{{a}}]", {{"{{a}}", &a}, {"{{b}}", &b}}).str(),
            "[{{b}}|<b>|{{b}}]");
  EXPECT_EQ(html_escape("plain text, é"), "plain text, é");
}

// The text of an escaped string, read back as a browser reads the five references html_escape
// writes; any other '&' is left as it is (and fails the comparison below).
std::string unescape(const std::string& s) {
  static const std::vector<std::pair<std::string, char>> refs = {
      {"&amp;", '&'}, {"&lt;", '<'}, {"&gt;", '>'}, {"&quot;", '"'}, {"&#39;", '\''}};
  std::string out;
  for (std::size_t i = 0; i < s.size();) {
    bool matched = false;
    for (const auto& [ref, c] : refs)
      if (s.compare(i, ref.size(), ref) == 0) {
        out += c;
        i += ref.size();
        matched = true;
        break;
      }
    if (!matched) out += s[i++];
  }
  return out;
}

// The escaper's exact output: each of the five characters becomes its own reference and nothing
// else, every other byte stays, so the text reads back exactly as written.
TEST(Html, EscapedTextReadsBackExactly) {
  EXPECT_EQ(html_escape("&"), "&amp;");
  EXPECT_EQ(html_escape("<"), "&lt;");
  EXPECT_EQ(html_escape(">"), "&gt;");
  EXPECT_EQ(html_escape("\""), "&quot;");
  EXPECT_EQ(html_escape("'"), "&#39;");
  std::string all;
  for (int c = 1; c < 256; ++c)
    all += static_cast<char>(c);
  for (const std::string& s : {all, kHostile, std::string("a<b>c&d\"e'f"), std::string()}) {
    const std::string e = html_escape(s);
    EXPECT_EQ(unescape(e), s);
    EXPECT_EQ(e.find_first_of("<>\"'"), std::string::npos);
  }
  EXPECT_EQ(html_escape(all).size(), all.size() - 5 + 5 + 4 + 4 + 6 + 5);
}

TEST(LabelPage, EveryTextInsertionPointEscapes) {
  const std::string escaped = html_escape(kHostile);
  ASSERT_NE(escaped, kHostile);
  Page hostile(kHostile), plain("plain");
  for (int step = 0; step < 2; ++step) {
    const std::string page = render_page(hostile.page), control = render_page(plain.page);
    EXPECT_EQ(count(page, kHostile), 0u) << page;
    EXPECT_EQ(tags(page), tags(control));
    // The about line (data file, answer file), then per item its field names and values.
    EXPECT_NE(page.find("<p class=\"about\">" + escaped + ".csv &middot;"), std::string::npos);
    EXPECT_NE(page.find("answers saved in " + escaped + ".txt</p>"), std::string::npos);
    if (step == 0) {
      const auto [x, y] = hostile.session->question();
      for (std::size_t row : {x, y})
        EXPECT_NE(page.find("<dl class=\"item-fields\"><dt>" + escaped + "</dt><dd>" + escaped +
                            std::to_string(row) + "</dd><dt>" + escaped + "#</dt><dd>"),
                  std::string::npos)
            << row;
      EXPECT_EQ(count(page, escaped), 2 + 2 * 3u);
      // The body went into the shell once, after the header: the marker in the names stayed text.
      EXPECT_EQ(count(page, "id=\"pair\""), 1u);
      EXPECT_LT(page.find("</header>"), page.find("id=\"pair\""));
    } else {
      // The end page shows a few members of each cluster.
      EXPECT_GE(count(page, escaped), 2 + 3 * 2u);
      EXPECT_NE(page.find("id=\"done\""), std::string::npos);
    }
    while (!hostile.session->finished()) {
      hostile.session->answer(Answer::Yes);
      plain.session->answer(Answer::Yes);
    }
  }
  const std::string message = render_message(hostile.page, "cannot write " + kHostile);
  EXPECT_NE(message.find("<p class=\"error\">cannot write " + escaped + "</p>"), std::string::npos);
  EXPECT_EQ(count(message, kHostile), 0u);
  EXPECT_EQ(tags(message), tags(render_message(plain.page, "cannot write plain")));
}

// The check above can fail: a page with one text put in unescaped has another set of elements.
TEST(LabelPage, NegativeControlAnUnescapedTextChangesTheElements) {
  Page plain("plain");
  const std::string page = render_page(plain.page);
  std::string broken = page;
  broken.insert(page.find("</dd>"), kHostile);
  EXPECT_NE(tags(broken), tags(page));
  EXPECT_EQ(count(broken, kHostile), 1u);
}

// --show names columns as a CSV record: a name holding a comma is quoted, blanks around a name are
// not part of it (as in the data's header), a quote out of place is a usage error at its column.
TEST(LabelOptions, ShowIsReadAsCsvRecords) {
  PersonOptions o;
  o.show = {"\"Last, First\", age", "x"};
  EXPECT_EQ(o.columns(), (std::vector<std::string>{"Last, First", "age", "x"}));
  o.show = {"\" say \"\"hi\"\" \""};
  EXPECT_EQ(o.columns(), (std::vector<std::string>{"say \"hi\""}));
  o.show = {"a,b\"c"};
  try {
    o.columns();
    ADD_FAILURE() << "accepted";
  } catch (const ParameterError& e) {
    EXPECT_EQ(std::string(e.what()),
              "--show:1:4: a double quote inside a field that does not start with one (quote the "
              "whole field and write the quote \"\")");
  }
}

// An answer file edited by hand may end without a line break; the next answer goes on a line of
// its own, and the file reads back with both answers.
TEST(LabelAnswerFile, AnAnswerAfterALastLineWithoutLineBreakGoesOnItsOwnLine) {
  const std::string dir = ::testing::TempDir();
  for (const std::string& text : {std::string("# h\n0,1,yes"), std::string("# h")}) {
    const std::string path = dir + "/answers-no-line-end.txt";
    std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
    std::size_t before = 0;
    {
      AnswerFile f(path, "# h");
      before = f.open(10).size();
      f.append({2, 3, Answer::No}, before + 1);
    }
    std::ifstream in(path, std::ios::binary);
    const std::string now((std::istreambuf_iterator<char>(in)), {});
    EXPECT_EQ(now, text + "\n2,3,no\n");
    EXPECT_EQ(parse_answer_log(now, path, 10, "# h").size(), before + 1);
    std::remove(path.c_str());
  }
}

// ssac cluster --oracle interactive shows the same cells at the terminal: a control character
// in a cell is shown, never obeyed (it would clear the screen, move the cursor, retitle the
// window); a line break goes on indented; other text, a no-break space and é among it, is as it is.
TEST(LabelTerminal, ControlCharactersInACellAreShownNotObeyed) {
  EXPECT_EQ(terminal_text("a\x1b[2Jb\r\x7f\tc\xc2\x9b"
                          "1m\xc2\xa0\xc3\xa9\nd",
                          "  "),
            "a\\x1B[2Jb\\x0D\\x7F\tc\\u009B1m\xc2\xa0\xc3\xa9\n  d");
  Page p("plain");
  p.data.text[0][0] = "\x1b]0;owned\x07";
  EXPECT_EQ(p.view->text(0), "    plain: \\x1B]0;owned\\x07\n    plain#: 0\n");
  p.data.text[0][0] = "two\nlines";
  EXPECT_EQ(p.view->text(0), "    plain: two\n      lines\n    plain#: 0\n");
}

}  // namespace
}  // namespace ssac::cli
