// Data: n points in R^m, optional oracle labels, CSV input/output, and the quantities of the
// paper's Section 2.1 -- cluster means, radii r(C_i) and the gamma-margin (Definition 2).
#pragma once

#include <Eigen/Core>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "ssac/input.hpp"

namespace ssac {

// Row-major so that a point's coordinates are contiguous.
using Matrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using Vector = Eigen::VectorXd;

struct Dataset {
  Matrix points;            // n x m
  std::vector<int> labels;  // empty, or n cluster ids in 1..K with every id in 1..K present
  std::vector<std::string> column_names;  // the m coordinate columns' names

  std::size_t n() const { return static_cast<std::size_t>(points.rows()); }
  std::size_t m() const { return static_cast<std::size_t>(points.cols()); }
  bool has_labels() const { return !labels.empty(); }
  int num_labels() const;  // K, the largest label (0 without labels)
};

// Euclidean distance d(x, y). The sum of squares is taken coordinate by coordinate in index order
// (not through Eigen's vectorised reductions, whose summation order depends on the SIMD width)
// so that a distance is the same double on every platform.
double squared_distance(const double* a, const double* b, std::size_t m);
double distance(const double* a, const double* b, std::size_t m);
inline double distance(const Matrix& X, std::size_t row, const Vector& c) {
  return distance(X.row(static_cast<Eigen::Index>(row)).data(), c.data(), c.size());
}
// out[i] = distance(X, rows[i], c) for every i, bit for bit: the same sums in the same order, eight
// rows at a time in separate sums so that their additions overlap (Phase 2's line 10 computes one
// per point of S_i).
void distances(const Matrix& X, const std::vector<std::size_t>& rows, const Vector& c, double* out);
inline double distance(const Matrix& X, std::size_t a, std::size_t b) {
  return distance(X.row(static_cast<Eigen::Index>(a)).data(),
                  X.row(static_cast<Eigen::Index>(b)).data(), static_cast<std::size_t>(X.cols()));
}

// Mean of the given rows (with multiplicity), summed in the order given; when that sum overflows
// (finite coordinates near the largest double), taken again from the coordinates divided by the
// count (proofs-notes/semantics.md, "Means of huge coordinates").
Vector mean_of_rows(const Matrix& X, const std::vector<std::size_t>& rows);

// Section 2.1 and Definition 2 for the clustering given by `labels` (ids 1..K).
struct ClusterStats {
  std::vector<Vector> means;             // mu_i, index i-1 for cluster i
  std::vector<double> radii;             // r(C_i) = max_{x in C_i} d(x, mu_i)
  std::vector<double> nearest_outsider;  // min_{y not in C_i} d(y, mu_i); +inf when K = 1
  std::vector<std::size_t> sizes;        // |C_i|
  // gamma = min_i nearest_outsider_i / r(C_i): the supremum of the gammas for which the
  // clustering has the gamma-margin property (Definition 2 is a strict inequality, so the
  // property holds for every gamma' < gamma and fails at gamma itself). A cluster with
  // r(C_i) = 0 constrains nothing (ratio +inf) unless an outsider lies on its mean (ratio 0,
  // cluster_ratio); so gamma = +inf when K = 1.
  double gamma = 0.0;
};
// Throws DataError "data row R: ..." when a point's distance to a cluster's mean exceeds the
// largest double (finite coordinates about 1e308 apart): no ratio, hence no gamma, is defined.
ClusterStats cluster_stats(const Matrix& X, const std::vector<int>& labels);
// One cluster's nearest_outsider / r(C_i): +inf when r(C_i) = 0 and every outsider is away from
// the mean, 0 when r(C_i) = 0 and an outsider lies on it (coincident points with different
// labels: no gamma has the property).
double cluster_ratio(double radius, double nearest_outsider);

// CSV: a header row naming the columns; every field numeric; a column named exactly `label`,
// if present, holds the integer cluster ids 1..K. Blank lines are allowed only at the end, CRLF
// line ends are accepted, fields may carry surrounding spaces. Errors throw DataError with
// "FILE:LINE:COLUMN: message".
// A file (or a pipe such as `<(cat f)`, whose first bytes must arrive within kPipeWaitSeconds)
// of at most kMaxCsvBytes, lines of at most kMaxCsvLine bytes; devices are refused. A UTF-8 byte
// order mark before the header is skipped; fields follow RFC 4180 (ssac/csv.hpp: quoted fields
// with commas and doubled quotes inside), a line break inside a field only in a text column.
// Numbers are decimal (ssac/numbers.hpp): "+1" is 1, "1e400" out of range.
inline constexpr std::uint64_t kMaxCsvBytes = std::uint64_t{16} << 30;
inline constexpr std::size_t kMaxCsvLine = std::size_t{16} << 20;
Dataset read_csv(const std::string& path);
Dataset parse_csv(const std::string& text, const std::string& name);
// The columns of a CSV read as text rather than coordinates (ssac label --show): their cells may
// hold anything RFC 4180 allows, line breaks included, but must be UTF-8 (a byte that is not is
// refused with its position).
struct CsvText {
  std::vector<std::string> names;              // in: the columns to read as text
  std::vector<std::string> header;             // out: those present, in the file's order
  std::vector<std::vector<std::string>> rows;  // out: their cells, row by row
};
Dataset parse_csv(const std::string& text, const std::string& name, CsvText* text_columns);

// Columns x1..xm (or the dataset's names) and, when labels are given, `label`. Doubles are
// written in the shortest form that reads back exactly.
std::string format_csv(const Dataset& data);

}  // namespace ssac
