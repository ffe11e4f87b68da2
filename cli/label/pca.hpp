// The first two principal components of the points, for the end page's scatter.
#pragma once

#include <vector>

#include "label/html.hpp"
#include "ssac/data.hpp"

namespace ssac::cli {

// n x 2: the centred points projected on the two eigenvectors of the covariance with the largest
// eigenvalues (each eigenvector's sign fixed so that its largest coordinate is positive); a second
// column of zeros when m = 1.
Matrix principal_components(const Matrix& X);

// An inline SVG scatter of `pc` (n x 2), each point coloured by its label (0 grey: unassigned).
Html pca_svg(const Matrix& pc, const std::vector<int>& labels);

}  // namespace ssac::cli
