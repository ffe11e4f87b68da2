// Unit tests of the command line's output building blocks: the table renderers
// (cli/output/table.hpp) and the JSON row writer with exact number tokens
// (cli/output/json_rows.hpp).
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "output/json_rows.hpp"
#include "output/table.hpp"

namespace {

using ssac::cli::Align;
using ssac::cli::Json;
using ssac::cli::Table;

Table sample() {
  Table t;
  t.columns = {{"name", Align::left, "Name"}, {"n", Align::right, "$n$"}, {"note", Align::left}};
  t.add({"a", "1", ""});
  t.add({"b_c", "100%", "x, \"y\""});
  return t;
}

TEST(Table, RowsMustMatchTheColumns) {
  Table t = sample();
  EXPECT_THROW(t.add({"only one"}), std::invalid_argument);
}

TEST(Table, ColumnsFromANameList) {
  const auto c = ssac::cli::columns("a,bc,,d", Align::left);
  ASSERT_EQ(c.size(), 4u);
  EXPECT_EQ(c[1].name, "bc");
  EXPECT_EQ(c[2].name, "");
  EXPECT_EQ(c[3].align, Align::left);
  EXPECT_EQ(ssac::cli::columns("k").size(), 1u);
}

TEST(Table, Csv) {
  EXPECT_EQ(ssac::cli::to_csv(sample()), "name,n,note\na,1,\nb_c,100%,\"x, \"\"y\"\"\"\n");
}

TEST(Table, Markdown) {
  Table t = sample();
  t.add({"p|q", "2", "-"});
  EXPECT_EQ(ssac::cli::to_markdown(t),
            "| name | n | note |\n|---|---:|---|\n| a | 1 |  |\n| b_c | 100% | x, \"y\" |\n"
            "| p\\|q | 2 | - |\n");
}

TEST(Table, Latex) {
  EXPECT_EQ(ssac::cli::to_latex(sample()),
            "\\begin{tabular}{lrl}\n\\toprule\nName & $n$ & note \\\\\n\\midrule\n"
            "a & 1 &  \\\\\nb\\_c & 100\\% & x, \"y\" \\\\\n\\bottomrule\n\\end{tabular}\n");
  EXPECT_EQ(ssac::cli::latex_escape("a<b>c~d^e\\f#&{}$"),
            "a$<$b$>$c\\~{}d\\^{}e\\textbackslash{}f\\#\\&\\{\\}\\$");
}

TEST(Table, TextPadsToMinimumWidthsAndNeverCuts) {
  Table t;
  t.columns = {{"k", Align::left, "", 6, ""},
               {"v", Align::right, "", 5, " "},
               {"w", Align::left, "", 4, "  "},
               {"z", Align::left, "", 0, " "}};
  t.add({"long-name", "1", "ab", ""});
  t.add({"x", "123456", "", "end"});
  // A left-aligned last cell is not padded; an empty one keeps its gap unless dropped.
  EXPECT_EQ(ssac::cli::to_text(t, {"  ", true, false}),
            "  k          v  w    z\n  long-name     1  ab   \n  x      123456       end\n");
  EXPECT_EQ(ssac::cli::to_text(t, {"", false, true}),
            "long-name     1  ab\nx      123456       end\n");
}

TEST(JsonRows, LayoutAndExactNumbers) {
  Json a;
  a["k"] = 3;
  a["big"] = ssac::cli::number_token("123456789012345678901234567890");
  a["x"] = ssac::cli::number_token("1e-09");
  a["s"] = "q\"uote";
  a["inner"] = {{"ceil", nullptr}, {"ok", true}, {"v", ssac::cli::number_token("0.847")}};
  Json b;
  b["k"] = 4;
  b["list"] = Json::array({1, 2});
  EXPECT_EQ(ssac::cli::write_rows({a, b}, {"s", "inner", "list"}),
            "[\n {\"k\": 3, \"big\": 123456789012345678901234567890, \"x\": 1e-09,\n"
            "  \"s\": \"q\\\"uote\",\n  \"inner\": {\"ceil\": null, \"ok\": true, \"v\": 0.847}},\n"
            " {\"k\": 4,\n  \"list\": [1, 2]}\n]\n");
  EXPECT_EQ(ssac::cli::write_rows({}, {}), "[\n]\n");
  // The result parses, with the integer beyond 2^64 as a number.
  const Json parsed = Json::parse(ssac::cli::write_rows({a}, {}));
  EXPECT_TRUE(parsed[0]["big"].is_number());
}

TEST(JsonRows, RefusesWhatIsNotAJsonNumberAndFloatingPointValues) {
  for (const char* bad : {"", "-", "01", "1.", ".5", "1e", "+1", "0x10", "inf", "nan", "1 "})
    EXPECT_THROW(ssac::cli::number_token(bad), std::invalid_argument) << "'" << bad << "'";
  for (const char* good : {"0", "-0", "10", "-1.5e+20", "0.000000", "5E-324"})
    EXPECT_NO_THROW(ssac::cli::number_token(good)) << good;
  Json f;
  f["x"] = 0.5;
  EXPECT_THROW(ssac::cli::write_rows({f}, {}), std::logic_error);
}

}  // namespace
