// A table as column headers and rows of text cells, and its renderings: aligned plain text, CSV
// (RFC 4180), Markdown (pipe table) and LaTeX (booktabs tabular). Commands build a Table and pick
// the renderer their --format names, so every format of a command shows the same cells.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ssac::cli {

enum class Align { left, right };

struct Column {
  std::string name;            // header in text, CSV and Markdown
  Align align = Align::right;  // a right-aligned cell is padded on the left
  std::string latex;           // header in LaTeX, as LaTeX source; empty: the escaped name
  std::size_t width = 0;       // text: cells are padded to at least this width, never cut
  std::string gap = " ";       // text: what separates this column from the one before

  Column(std::string name_, Align align_ = Align::right, std::string latex_ = "",
         std::size_t width_ = 0, std::string gap_ = " ")
      : name(std::move(name_)),
        align(align_),
        latex(std::move(latex_)),
        width(width_),
        gap(std::move(gap_)) {}
};

// Columns named by a comma-separated list ("k,m,n"), all aligned alike.
std::vector<Column> columns(std::string_view names, Align align = Align::right);

struct Table {
  std::vector<Column> columns;
  std::vector<std::vector<std::string>> rows;
  // Appends a row; it must have one cell per column (std::invalid_argument otherwise).
  void add(std::vector<std::string> cells);
};

struct TextStyle {
  std::string indent;            // before every line
  bool header = true;            // print the column names as the first line
  bool drop_empty_tail = false;  // omit a line's trailing empty cells and their gaps
};

// One line per row; a left-aligned cell that ends its line is not padded.
std::string to_text(const Table& t, const TextStyle& style);
// Header line, then one line per row; a cell holding a comma, quote or line break is quoted.
std::string to_csv(const Table& t);
// | a | b | with the alignment row ---: (right) or --- (left); | in a cell is escaped.
std::string to_markdown(const Table& t);
// \begin{tabular}{...} with l/r per column, \toprule, header, \midrule, rows, \bottomrule; cells
// are escaped with latex_escape, headers are taken as LaTeX.
std::string to_latex(const Table& t);

// One number as a cell's text, by a printf format with one double conversion ("%.3f", "%.3g").
std::string printf_text(const char* format, double x);

// Text set verbatim in LaTeX: the ten special characters, and < > (which the default OT1 font
// encoding prints as other glyphs).
std::string latex_escape(std::string_view s);

}  // namespace ssac::cli
