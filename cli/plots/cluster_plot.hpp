// `ssac cluster --plot FILE.png`: the paper's Figure 2 for one run -- the ground truth beside the
// recovered clustering, Phase 1's estimated centers mu'_p marked, wrongly labelled and unassigned
// points drawn distinctly. Data of dimension m > 2 is drawn on its first two principal components.
#pragma once

#include <string>

#include "ssac/data.hpp"
#include "ssac/metrics.hpp"
#include "ssac/ssac.hpp"

namespace ssac::cli {

// The plane the points are drawn in: the coordinates themselves when m <= 2 (m = 1: x1 and 0),
// otherwise the first two principal components -- the eigenvectors of the sample covariance
// (Eigen's SelfAdjointEigenSolver) with the two largest eigenvalues, applied to the centred data.
// Sign convention (an eigenvector's sign is arbitrary): each component is flipped so that its
// entry of largest magnitude (the first such entry on a tie) is positive.
struct Projection {
  Vector mean;
  Matrix axes;  // m x 2
  std::string xlabel, ylabel;
  double explained = 1.0;  // share of the total variance the two axes carry (1 when m <= 2)
  Eigen::Vector2d apply(const Vector& x) const;
};
Projection projection_of(const Matrix& X, const std::vector<std::string>& names);

// points.csv for the plot: "x,y,truth,recovered,status" with the recovered label renamed by the
// greedy center matching of Section 5.2 (0 = unassigned) and status 0 correct, 1 wrong,
// 2 unassigned.
std::string plot_points_csv(const Dataset& data, const Result& R, const Evaluation& ev,
                            const Projection& p);
// centers.csv: "x,y,cluster", every Phase-1 estimate mu'_p of an iteration that chose a cluster,
// renamed as above (0 when unmatched).
std::string plot_centers_csv(const Result& R, const Evaluation& ev, const Projection& p);

// Throws DataError when `gnuplot` is not on PATH or cannot draw PNG files (check_gnuplot):
// checked before the run, with the other outputs.
void check_plot_gnuplot(const std::string& gnuplot = "gnuplot");

// Draws the figure with gnuplot (`gnuplot` as in ssac experiment's --gnuplot) in a scratch
// directory and returns the PNG's bytes. Throws DataError when gnuplot is missing or fails.
std::string cluster_plot_png(const Dataset& data, const Result& R, const Evaluation& ev,
                             const std::string& title, const std::string& gnuplot = "gnuplot");

}  // namespace ssac::cli
