// The end page's scatter (pca.hpp): the points centred, the two leading eigenvectors of their
// covariance, and each point's coordinates on them.
#include "label/pca.hpp"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cstdio>
#include <string>

namespace ssac::cli {

Matrix principal_components(const Matrix& X) {
  Matrix out = Matrix::Zero(X.rows(), 2);
  if (X.rows() == 0) return out;
  const Eigen::MatrixXd centred = X.rowwise() - X.colwise().mean();
  const Eigen::MatrixXd cov = centred.transpose() * centred;
  Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(cov);  // eigenvalues in increasing order
  const Eigen::Index m = X.cols();
  for (Eigen::Index c = 0; c < std::min<Eigen::Index>(2, m); ++c) {
    Eigen::VectorXd v = eig.eigenvectors().col(m - 1 - c);
    Eigen::Index at;
    v.cwiseAbs().maxCoeff(&at);
    if (v(at) < 0) v = -v;
    out.col(c) = centred * v;
  }
  return out;
}

Html pca_svg(const Matrix& pc, const std::vector<int>& labels) {
  static constexpr Markup colours[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
                                       "#8c564b", "#e377c2", "#17becf", "#bcbd22", "#7f7f7f"};
  const double W = 480, H = 360, pad = 16;
  double x0 = 0, x1 = 1, y0 = 0, y1 = 1;
  if (pc.rows() > 0) {
    x0 = pc.col(0).minCoeff();
    x1 = pc.col(0).maxCoeff();
    y0 = pc.col(1).minCoeff();
    y1 = pc.col(1).maxCoeff();
  }
  if (!(x1 > x0)) x1 = x0 + 1;
  if (!(y1 > y0)) y1 = y0 + 1;
  Html svg;
  svg << "<svg class=\"pca\" width=\"480\" height=\"360\" viewBox=\"0 0 480 360\" "
         "role=\"img\"><rect width=\"480\" height=\"360\" fill=\"#fff\" "
         "stroke=\"#ccc\"/>";
  auto coordinate = [](double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.1f", v);
    return std::string(buf);
  };
  for (Eigen::Index i = 0; i < pc.rows(); ++i) {
    const double x = pad + (pc(i, 0) - x0) / (x1 - x0) * (W - 2 * pad);
    const double y = H - pad - (pc(i, 1) - y0) / (y1 - y0) * (H - 2 * pad);
    const int l = labels[static_cast<std::size_t>(i)];
    svg << "<circle cx=\"" << Text(coordinate(x)) << "\" cy=\"" << Text(coordinate(y))
        << "\" r=\"3.5\" fill=\"" << (l == 0 ? Markup("#bbb") : colours[(l - 1) % 10]) << "\"/>";
  }
  svg << "</svg>";
  return svg;
}

}  // namespace ssac::cli
