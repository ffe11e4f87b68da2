#include "ssac/data.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>

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

std::string where(const std::string& name, std::size_t line, std::size_t col) {
  return name + ":" + std::to_string(line) + ":" + std::to_string(col) + ": ";
}

struct Field {
  std::string_view text;
  std::size_t column;  // 1-based column of the field's first character
};

std::vector<Field> split_fields(std::string_view line) {
  std::vector<Field> out;
  std::size_t start = 0;
  for (;;) {
    const std::size_t comma = line.find(',', start);
    std::string_view f =
        line.substr(start, comma == std::string_view::npos ? line.npos : comma - start);
    std::size_t col = start + 1;
    auto trim = [&] {
      while (!f.empty() && (f.front() == ' ' || f.front() == '\t')) {
        f.remove_prefix(1);
        ++col;
      }
      while (!f.empty() && (f.back() == ' ' || f.back() == '\t'))
        f.remove_suffix(1);
    };
    trim();
    // "name" (spreadsheets quote every field): read without the quotes. Spaces inside the quotes
    // are trimmed as well: the writer never quotes, so a name " label" kept with its space would
    // come back as the label column, and " " as an empty name.
    if (f.size() >= 2 && f.front() == '"' && f.back() == '"' &&
        f.substr(1, f.size() - 2).find('"') == std::string_view::npos) {
      const std::size_t quote = col;
      f = f.substr(1, f.size() - 2);
      ++col;
      trim();
      if (f.empty()) col = quote;  // an empty field is reported where it starts
    }
    out.push_back({f, col});
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return out;
}

}  // namespace

Dataset parse_csv(const std::string& text, const std::string& name) {
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
  std::size_t pos = start;
  std::string_view first;
  next_line(pos, first);

  Dataset data;
  const auto header = split_fields(first);
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
    if (header[c].text == "label") {
      if (label_col >= 0)
        throw DataError(where(name, 1, header[c].column) + "a second column named 'label'");
      label_col = static_cast<int>(c);
    } else {
      data.column_names.emplace_back(header[c].text);
    }
  }
  const std::size_t m = data.column_names.size();
  if (m == 0) throw DataError(where(name, 1, 1) + "the header names no coordinate column");
  const std::size_t n = last_content - 1;
  if (n == 0) throw DataError(name + ":2:1: no data rows after the header");
  // Clustering, the gamma-margin and every bound of the paper need at least two points.
  if (n == 1) throw DataError(name + ":3:1: only one data row; at least two points are needed");

  data.points.resize(static_cast<Eigen::Index>(n), static_cast<Eigen::Index>(m));
  if (label_col >= 0) data.labels.resize(n);
  for (std::size_t r = 0; r < n; ++r) {
    const std::size_t lineno = r + 2;
    std::string_view line;
    next_line(pos, line);
    const auto fields = split_fields(line);
    if (fields.size() != header.size())
      throw DataError(where(name, lineno, 1) + "expected " + std::to_string(header.size()) +
                      " fields as in the header, found " + std::to_string(fields.size()));
    std::size_t out_col = 0;
    for (std::size_t c = 0; c < fields.size(); ++c) {
      const Field& f = fields[c];
      auto shown = [&] { return number::printable(f.text); };  // for messages only
      if (static_cast<int>(c) == label_col) {
        long long v = 0;
        const number::Status st = number::parse_int(f.text, v);
        if (st == number::Status::not_a_number)
          throw DataError(where(name, lineno, f.column) + "label '" + shown() +
                          "' is not an integer");
        if (st == number::Status::out_of_range || v < 1 || v > range::kMaxLabel)
          throw DataError(where(name, lineno, f.column) + "label " + shown() + " is outside 1.." +
                          std::to_string(range::kMaxLabel) + " (cluster ids start at 1)");
        data.labels[r] = static_cast<int>(v);
      } else {
        double v = 0;
        const number::Status st = number::parse_real(f.text, v);
        if (st == number::Status::not_a_number)
          throw DataError(where(name, lineno, f.column) + "'" + shown() + "' is not a number");
        if (st == number::Status::out_of_range)
          throw DataError(where(name, lineno, f.column) + "'" + shown() +
                          "' is out of range (beyond the largest double, about 1.8e308)");
        if (!std::isfinite(v))
          throw DataError(where(name, lineno, f.column) + "'" + shown() +
                          "' is not a finite number");
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
    out += c < data.column_names.size() ? data.column_names[c] : "x" + std::to_string(c + 1);
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
