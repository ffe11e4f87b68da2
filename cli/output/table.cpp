// Renderers of output/table.hpp.
#include "output/table.hpp"

#include <cstdio>
#include <stdexcept>

#include "ssac/csv.hpp"

namespace ssac::cli {

namespace {

std::string join(const std::vector<std::string>& cells, const std::string& sep) {
  std::string o;
  for (std::size_t i = 0; i < cells.size(); ++i)
    o += (i ? sep : "") + cells[i];
  return o;
}

std::vector<std::string> names(const Table& t) {
  std::vector<std::string> v;
  for (const Column& c : t.columns)
    v.push_back(c.name);
  return v;
}

std::string markdown_cell(const std::string& s) {
  std::string o;
  for (char c : s)
    o += c == '|' ? std::string("\\|") : std::string(1, c);
  return o;
}

}  // namespace

std::vector<Column> columns(std::string_view names, Align align) {
  std::vector<Column> out;
  for (std::size_t a = 0; a <= names.size();) {
    std::size_t b = names.find(',', a);
    if (b == std::string_view::npos) b = names.size();
    out.emplace_back(std::string(names.substr(a, b - a)), align);
    a = b + 1;
  }
  return out;
}

void Table::add(std::vector<std::string> cells) {
  if (cells.size() != columns.size())
    throw std::invalid_argument("Table::add: " + std::to_string(cells.size()) + " cells for " +
                                std::to_string(columns.size()) + " columns");
  rows.push_back(std::move(cells));
}

std::string to_text(const Table& t, const TextStyle& style) {
  std::string out;
  auto line = [&](std::vector<std::string> cells) {
    if (style.drop_empty_tail)
      while (!cells.empty() && cells.back().empty())
        cells.pop_back();
    out += style.indent;
    for (std::size_t i = 0; i < cells.size(); ++i) {
      const Column& c = t.columns[i];
      if (i) out += c.gap;
      const std::string& s = cells[i];
      const std::size_t pad = s.size() < c.width ? c.width - s.size() : 0;
      if (c.align == Align::right) {
        out += std::string(pad, ' ') + s;
      } else {
        out += s;
        if (i + 1 < cells.size()) out += std::string(pad, ' ');
      }
    }
    out += '\n';
  };
  if (style.header) line(names(t));
  for (const auto& row : t.rows)
    line(row);
  return out;
}

std::string to_csv(const Table& t) {
  std::string out;
  auto line = [&](const std::vector<std::string>& cells) {
    std::vector<std::string> quoted;
    for (const auto& c : cells)
      quoted.push_back(csv::field(c));
    out += join(quoted, ",") + "\n";
  };
  line(names(t));
  for (const auto& row : t.rows)
    line(row);
  return out;
}

std::string to_markdown(const Table& t) {
  std::string out;
  auto line = [&](const std::vector<std::string>& cells) {
    std::vector<std::string> escaped;
    for (const auto& c : cells)
      escaped.push_back(markdown_cell(c));
    out += "| " + join(escaped, " | ") + " |\n";
  };
  line(names(t));
  out += "|";
  for (const Column& c : t.columns)
    out += c.align == Align::right ? "---:|" : "---|";
  out += "\n";
  for (const auto& row : t.rows)
    line(row);
  return out;
}

std::string to_latex(const Table& t) {
  std::string spec, out;
  std::vector<std::string> head;
  for (const Column& c : t.columns) {
    spec += c.align == Align::right ? 'r' : 'l';
    head.push_back(c.latex.empty() ? latex_escape(c.name) : c.latex);
  }
  out += "\\begin{tabular}{" + spec + "}\n\\toprule\n";
  out += join(head, " & ") + " \\\\\n\\midrule\n";
  for (const auto& row : t.rows) {
    std::vector<std::string> cells;
    for (const auto& c : row)
      cells.push_back(latex_escape(c));
    out += join(cells, " & ") + " \\\\\n";
  }
  return out + "\\bottomrule\n\\end{tabular}\n";
}

std::string latex_escape(std::string_view s) {
  std::string o;
  for (char c : s) {
    switch (c) {
      case '%':
      case '&':
      case '#':
      case '_':
      case '{':
      case '}':
      case '$':
        o += '\\';
        o += c;
        break;
      case '^':
        o += "\\^{}";
        break;
      case '~':
        o += "\\~{}";
        break;
      case '\\':
        o += "\\textbackslash{}";
        break;
      case '<':
        o += "$<$";
        break;
      case '>':
        o += "$>$";
        break;
      default:
        o += c;
    }
  }
  return o;
}

std::string printf_text(const char* format, double x) {
  char buf[64];
  std::snprintf(buf, sizeof buf, format, x);
  return buf;
}

}  // namespace ssac::cli
