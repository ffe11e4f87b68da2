// `ssac cluster --plot`: the plane of the figure (cli/plots/cluster_plot.hpp) and the points'
// status.
#include <gtest/gtest.h>

#include "plots/cluster_plot.hpp"

namespace ssac::cli {
namespace {

// Points along (1, 2, 2)/3 with a small spread along (4, -1, -1)/sqrt 18: the components are these
// two directions, each with the sign convention making its entry of largest magnitude positive;
// a negated dataset gives the same axes.
TEST(ClusterPlot, PrincipalComponentsAndSignConvention) {
  Matrix X(7, 3);
  for (int i = 0; i < 7; ++i) {
    const double t = i - 3.0, s = (i % 2 == 0 ? 0.1 : -0.1);
    const double w = s / std::sqrt(18.0);
    X.row(i) << t / 3 + 4 * w, t * 2 / 3 - w, t * 2 / 3 - w;
  }
  for (const double sign : {1.0, -1.0}) {
    const Projection p = projection_of(sign * X, {});
    EXPECT_NEAR(p.axes(0, 0), 1.0 / 3, 1e-12);
    EXPECT_NEAR(p.axes(1, 0), 2.0 / 3, 1e-12);
    EXPECT_NEAR(p.axes(2, 0), 2.0 / 3, 1e-12);
    EXPECT_NEAR(p.axes(0, 1), 4.0 / std::sqrt(18.0), 1e-9);
    EXPECT_NEAR(p.axes(1, 1), -1.0 / std::sqrt(18.0), 1e-9);
    EXPECT_GT(p.explained, 0.999999);
    EXPECT_EQ(p.xlabel, "first principal component");
  }
  // Negative control: without the convention the eigenvector's sign is free, so a flipped axis
  // must change the projected coordinate.
  const Projection p = projection_of(X, {});
  Projection flipped = p;
  flipped.axes.col(0) *= -1.0;
  EXPECT_NE(p.apply(X.row(0).transpose())(0), flipped.apply(X.row(0).transpose())(0));
}

TEST(ClusterPlot, PlanarDataIsDrawnAsIs) {
  Matrix X(2, 2);
  X << 1, 2, 3, 4;
  const Projection p = projection_of(X, {"a", "b"});
  EXPECT_EQ(p.apply(X.row(1).transpose()), Eigen::Vector2d(3, 4));
  EXPECT_EQ(p.xlabel, "a");
  EXPECT_EQ(p.ylabel, "b");
}

// Status: 0 correct, 1 wrong, 2 unassigned, with the recovered label renamed by greedy_map.
TEST(ClusterPlot, PointStatus) {
  Dataset d;
  d.points = Matrix(3, 2);
  d.points << 0, 0, 1, 0, 2, 0;
  d.labels = {1, 2, 2};
  Result R;
  R.labels = {2, 2, 0};  // recovered cluster 2 is true cluster 1
  Evaluation ev;
  ev.greedy_map = {0, 2, 1};
  const std::string csv = plot_points_csv(d, R, ev, projection_of(d.points, {}));
  EXPECT_EQ(csv, "x,y,truth,recovered,status\n0,0,1,1,0\n1,0,2,1,1\n2,0,2,0,2\n");
}

}  // namespace
}  // namespace ssac::cli
