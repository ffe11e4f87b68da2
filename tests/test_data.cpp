#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "ssac/csv.hpp"
#include "ssac/data.hpp"
#include "ssac/error.hpp"

using namespace ssac;

namespace {
// Expects parse_csv to fail with exactly this message.
void expect_error(const std::string& text, const std::string& message) {
  try {
    parse_csv(text, "f.csv");
    ADD_FAILURE() << "accepted: " << text;
  } catch (const DataError& e) {
    EXPECT_EQ(std::string(e.what()), message);
  }
}
// The same with the column "name" read as text (ssac label's reading).
void expect_text_error(const std::string& text, const std::string& message) {
  CsvText names;
  names.names = {"name"};
  try {
    parse_csv(text, "f.csv", &names);
    ADD_FAILURE() << "accepted: " << text;
  } catch (const DataError& e) {
    EXPECT_EQ(std::string(e.what()), message);
  }
}
}  // namespace

TEST(Csv, ReadsCoordinatesAndLabelInAnyColumn) {
  const Dataset d = parse_csv("a,label, b\r\n1.5,2,-3\n 4 ,1,5e-1\n\n", "f.csv");
  ASSERT_EQ(d.n(), 2u);
  ASSERT_EQ(d.m(), 2u);
  EXPECT_EQ(d.column_names, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(d.points(0, 0), 1.5);
  EXPECT_EQ(d.points(0, 1), -3.0);
  EXPECT_EQ(d.points(1, 0), 4.0);
  EXPECT_EQ(d.points(1, 1), 0.5);
  EXPECT_EQ(d.labels, (std::vector<int>{2, 1}));
  EXPECT_EQ(d.num_labels(), 2);
}

TEST(Csv, WithoutLabelColumnHasNoLabels) {
  const Dataset d = parse_csv("x,y\n1,2\n3,4\n", "f.csv");
  EXPECT_FALSE(d.has_labels());
  EXPECT_EQ(d.num_labels(), 0);
}

TEST(Csv, ErrorsNameFileLineAndColumn) {
  expect_error("", "f.csv: the file is empty (expected a header row)");
  expect_error("x,y\n", "f.csv:2:1: no data rows after the header");
  expect_error("x,,y\n1,2,3\n", "f.csv:1:3: empty column name in the header");
  expect_error("label\n1\n", "f.csv:1:1: the header names no coordinate column");
  expect_error("x\n1\n", "f.csv:3:1: only one data row; at least two points are needed");
  expect_error("x,y\n1,2\n3\n", "f.csv:3:1: expected 2 fields as in the header, found 1");
  expect_error("x,y\n1,abc\n3,4\n", "f.csv:2:3: column 2 (y): 'abc' is not a number");
  expect_error("x,y\n1,nan\n3,4\n", "f.csv:2:3: column 2 (y): 'nan' is not a finite number");
  expect_error("x,y\n1,-inf\n3,4\n", "f.csv:2:3: column 2 (y): '-inf' is not a finite number");
  expect_error("x,y\n1,\n3,4\n", "f.csv:2:3: column 2 (y): '' is not a number");
  expect_error("x,label\n1,1.5\n2,1\n",
               "f.csv:2:3: column 2 (label): label '1.5' is not an integer");
  expect_error(
      "x,label\n1,-2\n2,1\n",
      "f.csv:2:3: column 2 (label): label -2 is outside 1..1000000 (cluster ids start at 1)");
  expect_error(
      "x,label\n1,0\n2,1\n",
      "f.csv:2:3: column 2 (label): label 0 is outside 1..1000000 (cluster ids start at 1)");
  expect_error("x,label\n1,1\n2,3\n",
               "f.csv: column 'label' uses ids up to 3 but no row has label 2 (ids must be 1..K "
               "without gaps)");
  expect_error("x,y\n1,2\n\n3,4\n", "f.csv:3:1: expected 2 fields as in the header, found 1");
  expect_error("label,x,label\n1,2,3\n", "f.csv:1:9: a second column named 'label'");
  // Found by fuzz/fuzz_csv: a CR inside the header would not survive a write/read round trip.
  expect_error("x,\r y\n1,2\n3,4\n", "f.csv:1:3: control character in a column name");
  // Found by fuzz/fuzz_csv: a name that is a byte order mark became empty when written back first.
  expect_error("label,\t\xEF\xBB\xBF\n1,0.1\n1,0.2\n",
               "f.csv:1:8: a byte order mark inside the header (one may only open the file)");
  // Spaces inside quotes are not part of a name either: " " is empty, as it would be written back.
  expect_error("x,\" \"\n1,2\n3,4\n", "f.csv:1:3: empty column name in the header");
  // DEL is a control character too, named at its own byte; so is a CR that ends no line.
  expect_error("x\x7f,y\n1,2\n3,4\n", "f.csv:1:2: control character in a column name");
  expect_error("x\r,y\n1,2\n3,4\n", "f.csv:1:2: control character in a column name");
  // A quoted field is reported from its first character after the blanks inside the quotes.
  expect_error("x,y\n1,\" z\"\n3,4\n", "f.csv:2:5: column 2 (y): 'z' is not a number");
  // The largest label passes the range check (the gap check then names the missing id), one more
  // does not.
  expect_error("x,label\n1,1000000\n2,1\n",
               "f.csv: column 'label' uses ids up to 1000000 but no row has label 2 (ids must be "
               "1..K without gaps)");
  expect_error(
      "x,label\n1,1000001\n2,1\n",
      "f.csv:2:3: column 2 (label): label 1000001 is outside 1..1000000 (cluster ids start at 1)");
}

TEST(Csv, ByteOrderMarkAndTheLongestLine) {
  // A byte order mark opening the file is not part of the first name.
  EXPECT_EQ(parse_csv("\xEF\xBB\xBFx,y\n1,2\n3,4\n", "f.csv").column_names,
            (std::vector<std::string>{"x", "y"}));
  // A line of exactly kMaxCsvLine bytes is read; one byte more is refused.
  std::string line = "x" + std::string(kMaxCsvLine - 1, ' ');
  EXPECT_EQ(parse_csv(line + "\n1\n2\n", "f.csv").column_names, (std::vector<std::string>{"x"}));
  expect_error(line + " \n1\n2\n",
               "f.csv:1:1: the line is longer than 16 MiB, the most a CSV line may hold");
}

// RFC 4180 through the one tokenizer (ssac/csv.hpp): each record's fields with their positions.
std::vector<std::vector<std::string>> records(const std::string& text, bool multiline,
                                              std::vector<std::string>* where = nullptr) {
  csv::Reader r(text, "t.csv", multiline);
  std::vector<csv::Field> f;
  std::vector<std::vector<std::string>> out;
  while (r.next(f)) {
    out.emplace_back();
    for (const auto& x : f) {
      out.back().emplace_back(x.text);
      if (where)
        where->push_back(std::to_string(x.line) + ":" + std::to_string(x.column) +
                         (x.quoted ? "q" : ""));
    }
  }
  return out;
}

TEST(Csv, Rfc4180QuotedFieldsCommasAndDoubledQuotes) {
  using R = std::vector<std::vector<std::string>>;
  std::vector<std::string> at;
  EXPECT_EQ(records("a,\"b,c\",d\n\"say \"\"hi\"\"\",\"\"\n", false, &at),
            (R{{"a", "b,c", "d"}, {"say \"hi\"", ""}}));
  EXPECT_EQ(at, (std::vector<std::string>{"1:1", "1:3q", "1:9", "2:1q", "2:14q"}));
  // Blanks around a plain field or outside the quotes are not part of it; inside they are.
  EXPECT_EQ(records(" a , \" b \" ,c\r\n", false), (R{{"a", " b ", "c"}}));
  // CRLF; no final line end; an empty line is one empty field.
  EXPECT_EQ(records("a,b\r\n\r\nc", false), (R{{"a", "b"}, {""}, {"c"}}));
  // A line break inside quotes where it is allowed: one field, positions from its opening quote.
  at.clear();
  EXPECT_EQ(records("id,text\n1,\"two\nlines, \"\"q\"\"\"\n2,x\n", true, &at),
            (R{{"id", "text"}, {"1", "two\nlines, \"q\""}, {"2", "x"}}));
  EXPECT_EQ(at, (std::vector<std::string>{"1:1", "1:4", "2:1", "2:3q", "4:1", "4:3"}));
}

TEST(Csv, Rfc4180ColumnsAfterALineBreakAndLineEndsAfterAQuote) {
  using R = std::vector<std::vector<std::string>>;
  // A field after a multi-line one counts its column from the start of its own line.
  std::vector<std::string> at;
  EXPECT_EQ(records("\"a\nb\",c\n", true, &at), (R{{"a\nb", "c"}}));
  EXPECT_EQ(at, (std::vector<std::string>{"1:1q", "2:4"}));
  // CRLF right after a closing quote ends the record, as it does after a plain field.
  EXPECT_EQ(records("\"a\"\r\n\"b\"\r\n", false), (R{{"a"}, {"b"}}));
  // A CR that ends no line stays in its field (RFC 4180 has CR only in CRLF): nothing is lost.
  EXPECT_EQ(records("a\r,b\n", false), (R{{"a\r", "b"}}));
}

void expect_tokenizer_error(const std::string& text, bool multiline, const std::string& message) {
  try {
    records(text, multiline);
    ADD_FAILURE() << "accepted: " << text;
  } catch (const DataError& e) {
    EXPECT_EQ(std::string(e.what()), message);
  }
}

TEST(Csv, Rfc4180ErrorsNameTheirPosition) {
  expect_tokenizer_error("a,\"bc\n", true,
                         "t.csv:1:3: the quoted field opened here is not closed by the end of the "
                         "file");
  expect_tokenizer_error("a\nb,\"c\nd\",e\n", false,
                         "t.csv:2:3: the quoted field opened here runs past the end of its line (a "
                         "line break inside a field is allowed only in ssac label's text columns)");
  expect_tokenizer_error("a,\"b\"c\n", false,
                         "t.csv:1:6: text after the closing quote of a quoted field (a quote "
                         "inside a quoted field is written \"\")");
  expect_tokenizer_error("a,b\"c\n", false,
                         "t.csv:1:4: a double quote inside a field that does not start with one "
                         "(quote the whole field and write the quote \"\")");
}

TEST(Csv, TheDataReaderTakesQuotedFieldsAsOneCell) {
  // A quoted name holding a comma is one column; a quoted number is a number.
  const Dataset d = parse_csv("\"a,b\",y,label\n\"1\",2,1\n3,\" 4 \",2\n", "f.csv");
  ASSERT_EQ(d.column_names, (std::vector<std::string>{"a,b", "y"}));
  EXPECT_EQ(d.points(1, 1), 4.0);
  EXPECT_EQ(d.labels, (std::vector<int>{1, 2}));
  // The error names the column by number and name; a quoted field from its first character.
  expect_error("\"a,b\",y\n1,2\n\"x\",4\n", "f.csv:3:2: column 1 (a,b): 'x' is not a number");
  // A name holding "" is reduced in the reader's own buffer, which the next record frees: the
  // message about a later row must still name the column (the sanitizer build reads freed memory
  // otherwise).
  expect_error("\"say \"\"hi\"\"\",y\n1,2\nx,4\n",
               "f.csv:3:1: column 1 (say \"hi\"): 'x' is not a number");
  // A line break inside quotes is no coordinate: refused where it starts.
  expect_error("x,y\n1,\"2\n\",3\n",
               "f.csv:2:3: the quoted field opened here runs past the end "
               "of its line (a line break inside a field is allowed only "
               "in ssac label's text columns)");
}

TEST(Csv, TextColumnsHoldAnyRfc4180TextButOnlyUtf8) {
  CsvText text;
  text.names = {"name"};
  const Dataset d = parse_csv("x,name,label\n0,\"Smith, \"\"Jo\"\"\nline 2\",1\n1,caf\xC3\xA9,2\n",
                              "f.csv", &text);
  EXPECT_EQ(d.column_names, (std::vector<std::string>{"x"}));
  EXPECT_EQ(d.labels, (std::vector<int>{1, 2}));
  EXPECT_EQ(text.header, (std::vector<std::string>{"name"}));
  EXPECT_EQ(text.rows,
            (std::vector<std::vector<std::string>>{{"Smith, \"Jo\"\nline 2"}, {"caf\xC3\xA9"}}));
  // A record after a multi-line field is reported on its own line.
  expect_text_error("x,name\n0,\"a\nb\"\nz,c\n", "f.csv:4:1: column 1 (x): 'z' is not a number");
  // Latin-1, a lone continuation byte, overlong forms (two and three bytes), a surrogate, a code
  // point beyond U+10FFFF: refused with the position.
  for (const auto& [cell, col] :
       std::vector<std::pair<std::string, int>>{{"caf\xE9", 6},
                                                {"a\x80", 4},
                                                {"\xC0\xAF", 3},
                                                {"\xED\xA0\x80", 3},
                                                {"\xE0\x9F\xBF", 3},
                                                {"\xF4\x90\x80\x80", 3}}) {
    char byte[8];
    std::snprintf(byte, sizeof byte, "0x%02X",
                  static_cast<unsigned char>(cell[static_cast<std::size_t>(col - 3)]));
    expect_text_error("x,name\n0,a\n1," + cell + "\n",
                      "f.csv:3:" + std::to_string(col) + ": column 2 (name): byte " + byte +
                          " is not UTF-8 (save the file as UTF-8)");
  }
}

// A text column named twice is refused at the second (which one ssac label shows would be a
// guess); the fuzz target found the reader accepting it. Numeric columns may share a name.
TEST(Csv, TextColumnNamedTwiceIsRefusedAtTheSecond) {
  expect_text_error("x,name,name\n0,a,b\n1,c,d\n", "f.csv:1:8: a second column named 'name'");
  // Quoted, the name is placed at its first character, inside the quotes.
  expect_text_error("name,x,\"name\"\n\"a\nb\",0,c\n1,2,3\n",
                    "f.csv:1:9: a second column named 'name'");
  CsvText text;
  text.names = {"name"};
  const Dataset d = parse_csv("x,x,name\n0,1,a\n2,3,b\n", "f.csv", &text);
  EXPECT_EQ(d.column_names, (std::vector<std::string>{"x", "x"}));
  EXPECT_EQ(text.header, (std::vector<std::string>{"name"}));
}

TEST(Csv, TextColumnsNameTheBadByteOnItsOwnLineAndCountAQuotedEmptyLast) {
  expect_text_error("x,name\n0,\"a\n\xE9\"\n1,b\n",
                    "f.csv:3:1: column 2 (name): byte 0xE9 is not UTF-8 (save the file as UTF-8)");
  // A last record "" is a field, not a blank line: it is read (and refused as a number).
  expect_text_error("x\n1\n2\n\"\"\n", "f.csv:4:1: column 1 (x): '' is not a number");
}

TEST(Csv, QuotedFieldsAreTrimmedInsideTheQuotes) {
  // Written back unquoted, a coordinate named " label" would come back as the label column.
  const Dataset d = parse_csv("x,\" label \"\n1,2\n3,1\n", "f.csv");
  ASSERT_TRUE(d.has_labels());
  EXPECT_EQ(d.labels, (std::vector<int>{2, 1}));
  const Dataset back = parse_csv(format_csv(d), "round-trip");
  EXPECT_EQ(back.points, d.points);
  EXPECT_EQ(back.labels, d.labels);
}

TEST(Csv, MissingFileIsADataError) {
  EXPECT_THROW(read_csv("/nonexistent/dir/none.csv"), DataError);
}

TEST(Csv, RoundTripsExactly) {
  Dataset d;
  d.points.resize(3, 2);
  d.points << 0.1, -1e-300, 1.0 / 3.0, 12345.678, -0.0, 2.5e10;
  d.labels = {1, 2, 1};
  d.column_names = {"x1", "x2"};
  const Dataset back = parse_csv(format_csv(d), "mem");
  EXPECT_EQ(back.labels, d.labels);
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 2; ++c)
      EXPECT_EQ(back.points(r, c), d.points(r, c));
}

TEST(Csv, NamesHoldingACommaOrAQuoteAreWrittenQuoted) {
  // Names read from quoted fields (a,b, and a lone quote written as four quotes) come back as
  // themselves; a plain name stays plain.
  const Dataset d = parse_csv("\"a,b\",\"\"\"\",plain\n1,2,3\n4,5,6\n", "f.csv");
  ASSERT_EQ(d.column_names, (std::vector<std::string>{"a,b", "\"", "plain"}));
  EXPECT_EQ(format_csv(d), "\"a,b\",\"\"\"\",plain\n1,2,3\n4,5,6\n");
  EXPECT_EQ(parse_csv(format_csv(d), "back").column_names, d.column_names);
  EXPECT_EQ(csv::field("x"), "x");
  EXPECT_EQ(csv::field("two\nlines"), "\"two\nlines\"");
  EXPECT_EQ(csv::field("cr\r"), "\"cr\r\"");
  EXPECT_EQ(csv::quoted("x"), "\"x\"");
  // Without names the columns are written x1, x2, ... as `ssac generate` names them.
  Dataset plain;
  plain.points.resize(2, 2);
  plain.points << 1, 2, 3, 4;
  EXPECT_EQ(format_csv(plain), "x1,x2\n1,2\n3,4\n");
}

TEST(ClusterStats, HandWorkedOneDimensionalInstance) {
  // C1 = {0, 2}: mean 1, radius 1. C2 = {5, 7, 9}: mean 7, radius 2.
  // Nearest outsider to mu_1 = 1 is 5 (distance 4): ratio 4 / 1 = 4.
  // Nearest outsider to mu_2 = 7 is 2 (distance 5): ratio 5 / 2 = 2.5.
  // gamma = min(4, 2.5) = 2.5 (Definition 2).
  Matrix X(5, 1);
  X << 0, 2, 5, 7, 9;
  const ClusterStats st = cluster_stats(X, {1, 1, 2, 2, 2});
  EXPECT_EQ(st.means[0][0], 1.0);
  EXPECT_EQ(st.means[1][0], 7.0);
  EXPECT_EQ(st.radii[0], 1.0);
  EXPECT_EQ(st.radii[1], 2.0);
  EXPECT_EQ(st.nearest_outsider[0], 4.0);
  EXPECT_EQ(st.nearest_outsider[1], 5.0);
  EXPECT_EQ(st.sizes, (std::vector<std::size_t>{2, 3}));
  EXPECT_EQ(st.gamma, 2.5);
}

TEST(ClusterStats, SinglePointClustersAndOneClusterGiveInfiniteMargin) {
  Matrix X(3, 2);
  X << 0, 0, 3, 4, 3, 4;  // a singleton and a cluster of two duplicate points
  const ClusterStats st = cluster_stats(X, {1, 2, 2});
  EXPECT_EQ(st.radii[0], 0.0);
  EXPECT_EQ(st.radii[1], 0.0);
  EXPECT_EQ(st.gamma, std::numeric_limits<double>::infinity());
  EXPECT_EQ(cluster_stats(X, {1, 1, 1}).gamma, std::numeric_limits<double>::infinity());
}

// proofs-notes/semantics.md, "Means of huge coordinates": a sum that overflows is taken again
// without overflow; a sum that does not keeps the plain sum's bits.
TEST(MeanOfRows, AnOverflowingSumIsTakenAgainWithoutOverflow) {
  const double big = std::numeric_limits<double>::max();
  Matrix X(3, 2);
  X << 1.5e308, 1, 1.0e308, 2, 0.5e308, 4;
  const Vector mu = mean_of_rows(X, {0, 1, 2});
  EXPECT_TRUE(std::isfinite(mu[0]));
  EXPECT_NEAR(mu[0], 1.0e308, 1e293);  // (1.5 + 1.0 + 0.5) / 3 times 1e308
  EXPECT_EQ(mu[1], 7.0 / 3.0);         // the plain sum: (1 + 2 + 4) / 3
  // Every coordinate the largest double: the rounding past it is clamped back.
  Matrix Y(3, 1);
  Y << big, big, big;
  EXPECT_EQ(mean_of_rows(Y, {0, 1, 2})[0], big);
  Y << -big, -big, -big;
  EXPECT_EQ(mean_of_rows(Y, {0, 1, 2})[0], -big);
  // Negative control: the plain sum of the same rows is infinite, and scaled data whose sums do
  // not overflow are unchanged, bit for bit, from the plain formula.
  EXPECT_TRUE(std::isinf(X(0, 0) + X(1, 0) + X(2, 0)));
  Matrix Z(4, 1);
  Z << 0.1, 0.2, 0.3, 1e-300;
  EXPECT_EQ(mean_of_rows(Z, {0, 1, 2, 3, 1})[0], (0.1 + 0.2 + 0.3 + 1e-300 + 0.2) / 5.0);
}

// A distance beyond the largest double has no ratio: cluster_stats refuses it naming the row.
TEST(ClusterStats, ADistanceBeyondTheLargestDoubleIsAnError) {
  Matrix X(4, 2);
  X << 1.7e308, 1.1e308, 0.2e308, 0, -1.7e308, -1.1e308, -0.2e308, 0;
  try {
    cluster_stats(X, {1, 1, 2, 2});
    FAIL() << "no error";
  } catch (const DataError& e) {
    EXPECT_NE(std::string(e.what()).find("data row 3: its distance to the mean of cluster 1 "
                                         "exceeds the largest double"),
              std::string::npos)
        << e.what();
  }
  // The same points 1e-8 times as large: gamma is defined.
  EXPECT_TRUE(std::isfinite(cluster_stats(X * 1e-8, {1, 1, 2, 2}).gamma));
}

TEST(Distance, IsEuclidean) {
  const double a[] = {1, 2, 3}, b[] = {4, 6, 3};
  EXPECT_EQ(distance(a, b, 3), 5.0);
  EXPECT_EQ(squared_distance(a, b, 3), 25.0);
}
