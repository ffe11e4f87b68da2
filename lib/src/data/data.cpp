#include "ssac/data.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>

#include "ssac/csv.hpp"
#include "ssac/error.hpp"
#include "ssac/numbers.hpp"
#include "ssac/ranges.hpp"

namespace ssac {

int Dataset::num_labels() const {
  return labels.empty() ? 0 : *std::max_element(labels.begin(), labels.end());
}

double squared_distance(const double* a, const double* b, std::size_t m) {
  double s = 0.0;
  for (std::size_t c = 0; c < m; ++c) {
    const double d = a[c] - b[c];
    s += d * d;
  }
  return s;
}

double distance(const double* a, const double* b, std::size_t m) {
  const double s = squared_distance(a, b, m);
  if (std::isfinite(s)) return std::sqrt(s);
  // The squares overflowed (coordinates near 1e154 or beyond) although the points are finite:
  // the distance again, from halved differences (a - b itself may overflow) scaled by the
  // largest, as hypot does (proofs-notes/semantics.md, "Distances of huge coordinates"). Only
  // this case takes the path, so every distance the plain sum can hold stays bit-identical.
  double big = 0.0;
  for (std::size_t c = 0; c < m; ++c)
    big = std::max(big, std::fabs(a[c] * 0.5 - b[c] * 0.5));
  if (!(big > 0.0) || !std::isfinite(big)) return s;  // NaN input: left as the plain sum has it
  double t = 0.0;
  for (std::size_t c = 0; c < m; ++c) {
    const double d = (a[c] * 0.5 - b[c] * 0.5) / big;
    t += d * d;
  }
  return 2.0 * big * std::sqrt(t);  // +inf only when the distance itself exceeds the largest double
}

void distances(const Matrix& X, const std::vector<std::size_t>& rows, const Vector& c,
               double* out) {
  const auto m = static_cast<std::size_t>(X.cols());
  const double* mu = c.data();
  constexpr std::size_t kLanes = 8;
  std::size_t i = 0;
  for (; i + kLanes <= rows.size(); i += kLanes) {
    const double* x[kLanes];
    for (std::size_t b = 0; b < kLanes; ++b)
      x[b] = X.row(static_cast<Eigen::Index>(rows[i + b])).data();
    double acc[kLanes] = {};
    for (std::size_t k = 0; k < m; ++k)
      for (std::size_t b = 0; b < kLanes; ++b) {
        const double d = x[b][k] - mu[k];
        acc[b] += d * d;
      }
    for (std::size_t b = 0; b < kLanes; ++b)
      // An overflowed sum takes distance()'s scaled path, as it would there.
      out[i + b] = std::isfinite(acc[b]) ? std::sqrt(acc[b]) : distance(x[b], mu, m);
  }
  for (; i < rows.size(); ++i)
    out[i] = distance(X, rows[i], c);
}

Vector mean_of_rows(const Matrix& X, const std::vector<std::size_t>& rows) {
  Vector mu = Vector::Zero(X.cols());
  for (std::size_t r : rows)
    for (Eigen::Index c = 0; c < X.cols(); ++c)
      mu[c] += X(static_cast<Eigen::Index>(r), c);
  const double count = static_cast<double>(rows.size());
  for (Eigen::Index c = 0; c < X.cols(); ++c) {
    if (std::isinf(mu[c])) {
      // The sum overflowed although every coordinate is finite (near the largest double): the
      // mean again as the sum of the coordinates each divided by the count, which stays within
      // the largest coordinate (proofs-notes/semantics.md, "Means of huge coordinates"). Only
      // this case takes the path, so every mean the plain sum can hold keeps its bits.
      // The mean lies between the smallest and the largest coordinate; clamping to them only
      // undoes a rounding past the largest double.
      double m = 0.0, lo = std::numeric_limits<double>::infinity(), hi = -lo;
      for (std::size_t r : rows) {
        const double x = X(static_cast<Eigen::Index>(r), c);
        m += x / count;
        lo = std::min(lo, x);
        hi = std::max(hi, x);
      }
      mu[c] = std::clamp(m, lo, hi);
      continue;
    }
    mu[c] /= count;
  }
  return mu;
}

double cluster_ratio(double radius, double nearest_outsider) {
  if (radius > 0.0) return nearest_outsider / radius;
  return nearest_outsider > 0.0 ? std::numeric_limits<double>::infinity() : 0.0;
}

ClusterStats cluster_stats(const Matrix& X, const std::vector<int>& labels) {
  const int K = labels.empty() ? 0 : *std::max_element(labels.begin(), labels.end());
  std::vector<std::vector<std::size_t>> members(static_cast<std::size_t>(K));
  for (std::size_t r = 0; r < labels.size(); ++r)
    members[static_cast<std::size_t>(labels[r] - 1)].push_back(r);
  ClusterStats st;
  const double inf = std::numeric_limits<double>::infinity();
  st.gamma = inf;
  for (int i = 0; i < K; ++i) {
    const auto& rows = members[static_cast<std::size_t>(i)];
    st.sizes.push_back(rows.size());
    st.means.push_back(mean_of_rows(X, rows));
    double radius = 0.0, outsider = inf;
    for (std::size_t r = 0; r < labels.size(); ++r) {
      const double d = distance(X, r, st.means.back());
      // The mean is finite (mean_of_rows), so an infinite distance is one beyond the largest
      // double: the ratio would be inf/inf, 0 or inf instead of its value, so no gamma is given
      // (proofs-notes/semantics.md, "Means of huge coordinates").
      if (std::isinf(d) && X.row(static_cast<Eigen::Index>(r)).allFinite())
        throw DataError("data row " + std::to_string(r + 1) +
                        ": its distance to the mean of cluster " + std::to_string(i + 1) +
                        " exceeds the largest double (about 1.8e308), so gamma is not defined for "
                        "these coordinates; scale the data down");
      if (labels[r] == i + 1)
        radius = std::max(radius, d);
      else
        outsider = std::min(outsider, d);
    }
    st.radii.push_back(radius);
    st.nearest_outsider.push_back(outsider);
    // Definition 2: gamma d(x, mu_i) < d(y, mu_i) for all members x and outsiders y. With
    // r(C_i) = 0 the cluster constrains nothing (0 < d(y, mu_i) for every gamma) unless an
    // outsider sits on its mean: then 0 < 0 fails for every gamma, and gamma = 0
    // (proofs-notes/semantics.md, "Coincident points with different labels").
    st.gamma = std::min(st.gamma, cluster_ratio(radius, outsider));
  }
  return st;
}

namespace {

using csv::where;

// A field as the data reader takes it: spaces inside the quotes are trimmed as well (the writer
// never quotes, so a name " label" kept with its space would come back as the label column, and
// " " as an empty name); a quoted field is reported from its first character, an empty one from
// its opening quote.
struct Field {
  std::string_view text;
  std::size_t column;
};

// The next record's fields as the data reader takes them.
bool next_fields(csv::Reader& reader, std::vector<csv::Field>& raw, std::vector<Field>& out) {
  if (!reader.next(raw)) return false;
  out.clear();
  for (const csv::Field& f : raw) {
    Field g{f.text, f.column};
    if (f.quoted) {
      ++g.column;
      while (!g.text.empty() && (g.text.front() == ' ' || g.text.front() == '\t')) {
        g.text.remove_prefix(1);
        ++g.column;
      }
      while (!g.text.empty() && (g.text.back() == ' ' || g.text.back() == '\t'))
        g.text.remove_suffix(1);
      if (g.text.empty()) g.column = f.column;
    }
    out.push_back(g);
  }
  return true;
}

// The byte offset of the first invalid UTF-8 sequence in `s` (overlong forms, surrogates and
// code points beyond U+10FFFF included), or npos.
std::size_t invalid_utf8(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size()) {
    const auto b = static_cast<unsigned char>(s[i]);
    std::size_t len = 0;
    unsigned lo = 0x80, hi = 0xBF;  // the range of the second byte
    if (b < 0x80) {
      ++i;
      continue;
    } else if (b >= 0xC2 && b <= 0xDF) {
      len = 2;
    } else if (b >= 0xE0 && b <= 0xEF) {
      len = 3;
      if (b == 0xE0) lo = 0xA0;
      if (b == 0xED) hi = 0x9F;
    } else if (b >= 0xF0 && b <= 0xF4) {
      len = 4;
      if (b == 0xF0) lo = 0x90;
      if (b == 0xF4) hi = 0x8F;
    } else {
      return i;
    }
    if (i + len > s.size()) return i;
    for (std::size_t k = 1; k < len; ++k) {
      const auto c = static_cast<unsigned char>(s[i + k]);
      if (c < (k == 1 ? lo : 0x80) || c > (k == 1 ? hi : 0xBF)) return i;
    }
    i += len;
  }
  return std::string_view::npos;
}

}  // namespace

Dataset parse_csv(const std::string& text, const std::string& name, CsvText* text_columns) {
  // Line breaks inside quoted fields are allowed only where a column is read as text.
  const bool multiline = text_columns && !text_columns->names.empty();
  // Lines are visited in place, without a copy or an index of the text, so that a large file
  // costs its own size plus the points (docs/benchmarks.md, "Large inputs"). A first pass finds the
  // last line that is not blank: blank lines are allowed only after it.
  auto next_line = [&](std::size_t& pos, std::string_view& line) {
    if (pos > text.size()) return false;
    std::size_t nl = text.find('\n', pos);
    if (nl == std::string::npos) nl = text.size();
    line = std::string_view(text).substr(pos, nl - pos);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    pos = nl + 1;
    return true;
  };
  // A UTF-8 byte order mark (as some spreadsheets write) is not part of the first column's name.
  const std::size_t start = text.compare(0, 3, "\xEF\xBB\xBF") == 0 ? 3 : 0;
  std::size_t total = 0, last_content = 0;  // lines, and the 1-based number of the last non-blank
  {
    std::size_t pos = start;
    std::string_view line;
    while (next_line(pos, line)) {
      ++total;
      if (line.size() > kMaxCsvLine)
        throw DataError(where(name, total, 1) + "the line is longer than " +
                        std::to_string(kMaxCsvLine >> 20) + " MiB, the most a CSV line may hold");
      if (line.find_first_not_of(" \t") != std::string_view::npos) last_content = total;
    }
  }
  if (last_content == 0) throw DataError(name + ": the file is empty (expected a header row)");
  csv::Reader reader(std::string_view(text).substr(start), name, multiline);
  std::vector<csv::Field> raw;
  std::vector<Field> header, fields;
  std::size_t records = last_content;  // one record per line unless text spans lines
  if (multiline) {
    std::size_t count = 0;
    records = 0;
    while (next_fields(reader, raw, fields)) {
      ++count;
      if (fields.size() > 1 || raw[0].quoted || !fields[0].text.empty()) records = count;
    }
    reader.reset(std::string_view(text).substr(start), 1);
  }
  next_fields(reader, raw, header);
  // The header's names outlive the reader's buffer for reduced "" (the next record frees it), and
  // the messages about a data field name its column.
  std::vector<std::string> header_names;
  for (const Field& h : header)
    header_names.emplace_back(h.text);

  Dataset data;
  std::vector<char> is_text(header.size(), 0);
  int label_col = -1;
  for (std::size_t c = 0; c < header.size(); ++c) {
    if (header[c].text.empty())
      throw DataError(where(name, 1, header[c].column) + "empty column name in the header");
    // Control characters (a stray CR, a tab inside a name, NUL) would not survive being written
    // back, so a name must be printable.
    for (std::size_t i = 0; i < header[c].text.size(); ++i)
      if (static_cast<unsigned char>(header[c].text[i]) < 0x20 || header[c].text[i] == 0x7f)
        throw DataError(where(name, 1, header[c].column + i) +
                        "control character in a column name");
    // A name opening with a byte order mark would lose it when written back as the first
    // column (the reader drops a mark at the start of the file), so the mark may open only the
    // file.
    if (header[c].text.substr(0, 3) == "\xEF\xBB\xBF")
      throw DataError(where(name, 1, header[c].column) +
                      "a byte order mark inside the header (one may only open the file)");
    if (multiline && std::find(text_columns->names.begin(), text_columns->names.end(),
                               header[c].text) != text_columns->names.end()) {
      // A text column is asked for by name, so two of one name would leave it ambiguous which
      // one is shown (as for 'label').
      if (std::find(text_columns->header.begin(), text_columns->header.end(), header[c].text) !=
          text_columns->header.end())
        throw DataError(where(name, 1, header[c].column) + "a second column named '" +
                        header_names[c] + "'");
      is_text[c] = 1;
      text_columns->header.emplace_back(header[c].text);
    } else if (header[c].text == "label") {
      if (label_col >= 0)
        throw DataError(where(name, 1, header[c].column) + "a second column named 'label'");
      label_col = static_cast<int>(c);
    } else {
      data.column_names.emplace_back(header[c].text);
    }
  }
  const std::size_t m = data.column_names.size();
  if (m == 0) throw DataError(where(name, 1, 1) + "the header names no coordinate column");
  const std::size_t n = records - 1;
  if (n == 0) throw DataError(name + ":2:1: no data rows after the header");
  // Clustering, the gamma-margin and every bound of the paper need at least two points.
  if (n == 1) throw DataError(name + ":3:1: only one data row; at least two points are needed");

  data.points.resize(static_cast<Eigen::Index>(n), static_cast<Eigen::Index>(m));
  if (label_col >= 0) data.labels.resize(n);
  if (multiline) text_columns->rows.assign(n, {});
  for (std::size_t r = 0; r < n; ++r) {
    next_fields(reader, raw, fields);
    const std::size_t lineno = reader.line();
    if (fields.size() != header.size())
      throw DataError(where(name, lineno, 1) + "expected " + std::to_string(header.size()) +
                      " fields as in the header, found " + std::to_string(fields.size()));
    std::size_t out_col = 0;
    for (std::size_t c = 0; c < fields.size(); ++c) {
      const Field& f = fields[c];
      auto shown = [&] { return number::printable(f.text); };  // for messages only
      // "NAME:LINE:COL: column C (NAME): ", the field's place and its column's name.
      auto at = [&] {
        return where(name, lineno, f.column) + "column " + std::to_string(c + 1) + " (" +
               number::printable(header_names[c]) + "): ";
      };
      if (is_text[c]) {
        // Text goes into the page as it is: it must be UTF-8 (docs/conventions.md).
        const std::size_t bad = invalid_utf8(f.text);
        if (bad != std::string_view::npos) {
          std::size_t line = lineno, col = f.column;
          for (std::size_t i = 0; i < bad; ++i, ++col)
            if (f.text[i] == '\n') line += 1, col = 0;
          char byte[8];
          std::snprintf(byte, sizeof byte, "0x%02X", static_cast<unsigned char>(f.text[bad]));
          throw DataError(where(name, line, col) + "column " + std::to_string(c + 1) + " (" +
                          number::printable(header_names[c]) + "): byte " + byte +
                          " is not UTF-8 (save the file as UTF-8)");
        }
        text_columns->rows[r].emplace_back(f.text);
      } else if (static_cast<int>(c) == label_col) {
        long long v = 0;
        const number::Status st = number::parse_int(f.text, v);
        if (st == number::Status::not_a_number)
          throw DataError(at() + "label '" + shown() + "' is not an integer");
        if (st == number::Status::out_of_range || v < 1 || v > range::kMaxLabel)
          throw DataError(at() + "label " + shown() + " is outside 1.." +
                          std::to_string(range::kMaxLabel) + " (cluster ids start at 1)");
        data.labels[r] = static_cast<int>(v);
      } else {
        double v = 0;
        const number::Status st = number::parse_real(f.text, v);
        if (st == number::Status::not_a_number)
          throw DataError(at() + "'" + shown() + "' is not a number");
        if (st == number::Status::out_of_range)
          throw DataError(at() + "'" + shown() +
                          "' is out of range (beyond the largest double, about 1.8e308)");
        if (!std::isfinite(v)) throw DataError(at() + "'" + shown() + "' is not a finite number");
        data.points(static_cast<Eigen::Index>(r), static_cast<Eigen::Index>(out_col++)) = v;
      }
    }
  }
  if (!data.labels.empty()) {
    // Labels must name clusters 1..K without gaps: a gap would be a cluster with no points.
    const int K = data.num_labels();
    std::vector<char> seen(static_cast<std::size_t>(K) + 1, 0);
    for (int l : data.labels)
      seen[static_cast<std::size_t>(l)] = 1;
    for (int l = 1; l <= K; ++l)
      if (!seen[static_cast<std::size_t>(l)])
        throw DataError(name + ": column 'label' uses ids up to " + std::to_string(K) +
                        " but no row has label " + std::to_string(l) +
                        " (ids must be 1..K without gaps)");
  }
  return data;
}

Dataset parse_csv(const std::string& text, const std::string& name) {
  return parse_csv(text, name, nullptr);
}

Dataset read_csv(const std::string& path) {
  static const InputKind csv{
      "cannot open the file for reading", "is a directory, not a CSV file", kMaxCsvBytes,
      "longer than " + std::to_string(kMaxCsvBytes >> 30) + " GiB, the most a CSV may hold"};
  return parse_csv(read_input(path, csv), path);
}

std::string format_csv(const Dataset& data) {
  std::string out;
  const std::size_t m = data.m();
  for (std::size_t c = 0; c < m; ++c) {
    if (c) out += ',';
    // A name holding a comma or a quote was read from a quoted field and is written as one.
    out += c < data.column_names.size() ? csv::field(data.column_names[c])
                                        : "x" + std::to_string(c + 1);
  }
  if (data.has_labels()) out += ",label";
  out += '\n';
  for (std::size_t r = 0; r < data.n(); ++r) {
    for (std::size_t c = 0; c < m; ++c) {
      if (c) out += ',';
      out += format_double(data.points(static_cast<Eigen::Index>(r), static_cast<Eigen::Index>(c)));
    }
    if (data.has_labels()) out += "," + std::to_string(data.labels[r]);
    out += '\n';
  }
  return out;
}

}  // namespace ssac
