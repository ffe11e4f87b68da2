// `ssac cluster --plot`: the projection, the files the committed script cli/plots/cluster_plot.gp
// reads, and gnuplot run on them in a scratch directory.
#include "plots/cluster_plot.hpp"

#include <Eigen/Eigenvalues>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "cluster_plot_template.hpp"
#include "output/output_file.hpp"
#include "plots/gnuplot.hpp"
#include "ssac/error.hpp"

namespace ssac::cli {

namespace {

std::string num(double x) {
  return format_double(x);
}

}  // namespace

Eigen::Vector2d Projection::apply(const Vector& x) const {
  return (axes.transpose() * (x - mean)).head<2>();
}

Projection projection_of(const Matrix& X, const std::vector<std::string>& names) {
  Projection p;
  const Eigen::Index m = X.cols();
  auto name = [&](Eigen::Index j) {
    return static_cast<std::size_t>(j) < names.size() ? names[static_cast<std::size_t>(j)]
                                                      : "x" + std::to_string(j + 1);
  };
  if (m <= 2) {
    p.mean = Vector::Zero(m);
    p.axes = Matrix::Zero(m, 2);
    for (Eigen::Index j = 0; j < m; ++j)
      p.axes(j, j) = 1.0;
    p.xlabel = name(0);
    p.ylabel = m == 2 ? name(1) : "0";
    return p;
  }
  p.mean = X.colwise().mean().transpose();
  const Matrix C = X.rowwise() - p.mean.transpose();
  const Eigen::MatrixXd cov =
      (C.transpose() * C) / static_cast<double>(std::max<Eigen::Index>(1, X.rows() - 1));
  Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> es(cov);  // eigenvalues ascending
  p.axes = Matrix(m, 2);
  for (int c = 0; c < 2; ++c) {
    Vector v = es.eigenvectors().col(m - 1 - c);
    Eigen::Index big = 0;
    for (Eigen::Index j = 1; j < m; ++j)
      if (std::abs(v(j)) > std::abs(v(big))) big = j;
    if (v(big) < 0) v = -v;
    p.axes.col(c) = v;
  }
  const double total = es.eigenvalues().sum();
  p.explained = total > 0 ? (es.eigenvalues()(m - 1) + es.eigenvalues()(m - 2)) / total : 1.0;
  p.xlabel = "first principal component";
  p.ylabel = "second principal component";
  return p;
}

std::string plot_points_csv(const Dataset& data, const Result& R, const Evaluation& ev,
                            const Projection& p) {
  std::string s = "x,y,truth,recovered,status\n";
  for (std::size_t x = 0; x < data.n(); ++x) {
    const Eigen::Vector2d xy = p.apply(data.points.row(static_cast<Eigen::Index>(x)).transpose());
    const int l = R.labels[x];
    const int mapped = l == 0 ? 0 : ev.greedy_map[static_cast<std::size_t>(l)];
    const int status = l == 0 ? 2 : mapped == data.labels[x] ? 0 : 1;
    s += num(xy(0)) + "," + num(xy(1)) + "," + std::to_string(data.labels[x]) + "," +
         std::to_string(mapped) + "," + std::to_string(status) + "\n";
  }
  return s;
}

std::string plot_centers_csv(const Result& R, const Evaluation& ev, const Projection& p) {
  std::string s = "x,y,cluster\n";
  for (const Iteration& it : R.iterations) {
    if (it.p == 0) continue;
    const Eigen::Vector2d xy = p.apply(it.center);
    // A cluster that holds no point is past the map's end (evaluate): drawn as unmatched.
    const auto q = static_cast<std::size_t>(it.p);
    s += num(xy(0)) + "," + num(xy(1)) + "," +
         std::to_string(q < ev.greedy_map.size() ? ev.greedy_map[q] : 0) + "\n";
  }
  return s;
}

void check_plot_gnuplot(const std::string& gnuplot) {
  check_gnuplot(gnuplot, "drop --plot");
}

std::string cluster_plot_png(const Dataset& data, const Result& R, const Evaluation& ev,
                             const std::string& title, const std::string& gnuplot) {
  namespace fs = std::filesystem;
  check_plot_gnuplot(gnuplot);
  const Projection p = projection_of(data.points, data.column_names);
  std::size_t wrong = 0, unassigned = 0;
  for (std::size_t x = 0; x < data.n(); ++x) {
    const int l = R.labels[x];
    if (l == 0)
      ++unassigned;
    else if (ev.greedy_map[static_cast<std::size_t>(l)] != data.labels[x])
      ++wrong;
  }
  char right[200];
  std::snprintf(right, sizeof right,
                "accuracy %.2f%%: %zu wrong (x), %zu unassigned (o), "
                "triangles mu'_p",
                ev.accuracy_pct, wrong, unassigned);
  std::string xname = p.xlabel, yname = p.ylabel;
  if (data.m() > 2) {
    char share[80];
    std::snprintf(share, sizeof share, " (the two carry %.1f%% of the variance)",
                  100.0 * p.explained);
    xname += share;
  }
  const ScratchDir scratch("ssac-plot-");  // removed on every exit, a signal included
  const fs::path dir = scratch.path();
  auto put = [&](const char* name, const std::string& content) {
    std::ofstream f(dir / name, std::ios::binary);
    f << content;
    if (!f) throw DataError("cannot write the scratch file " + (dir / name).string());
  };
  put("points.csv", plot_points_csv(data, R, ev, p));
  put("centers.csv", plot_centers_csv(R, ev, p));
  put("values.gp", "title = " + gp_string(title) + "\nright_title = " + gp_string(right) +
                       "\nxname = " + gp_string(xname) + "\nyname = " + gp_string(yname) + "\n");
  put("plots.gp", kClusterPlotTemplate);
  run_gnuplot(gnuplot, dir);
  std::ifstream in(dir / "plot.png", std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  if (bytes.str().empty()) throw DataError("gnuplot wrote no image for --plot");
  return bytes.str();
}

}  // namespace ssac::cli
