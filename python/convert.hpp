// The module's conversions at the boundary (defined in ssac_module.cpp): NumPy arrays in, NumPy
// arrays and plain Python objects out. Shared by the files of the module; the library knows
// nothing of them.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <algorithm>
#include <cstddef>
#include <vector>

#include "ssac/data.hpp"
#include "ssac/oracle.hpp"
#include "ssac/ssac.hpp"

namespace ssac::python {

// ImportError naming python3-numpy when this interpreter has no NumPy; `function` is the
// module's function that needs it.
void need_numpy(const char* function);
// Points: a 2-D array of n >= 1 rows and m >= 1 finite coordinates (the CSV reader's rules);
// DataError otherwise.
Matrix to_points(const pybind11::object& obj);
// Labels: n integers 1..K with every id in 1..K present; DataError otherwise.
std::vector<int> to_labels(const pybind11::object& obj, std::size_t n);

template <class T>
pybind11::array_t<T> to_array(const std::vector<T>& v) {
  pybind11::array_t<T> a(static_cast<pybind11::ssize_t>(v.size()));
  std::copy(v.begin(), v.end(), a.mutable_data());
  return a;
}
pybind11::array_t<double> to_array(const Matrix& X);
pybind11::list to_list(const Vector& v);
// "yes", "no" or "not-sure", the trace's words.
pybind11::object answer(Answer a);
// An iteration in the trace's words (an iteration's x1, a step's x1_answer or, in the plain
// search, z_answer).
pybind11::dict iteration_dict(const Iteration& it, bool plain);

}  // namespace ssac::python
