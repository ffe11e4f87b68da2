// ssac.TraceWriter (python/trace_writer.cpp): an outside implementation's run written as a trace.
#pragma once

#include <pybind11/pybind11.h>

#include "ssac/data.hpp"

namespace ssac::python {

// Registers the class on `mod`; `points` turns the constructor's data argument (an array or a CSV
// path) into the points, as the module's other functions do.
void bind_trace_writer(pybind11::module_& mod, Matrix (*points)(const pybind11::object&));

}  // namespace ssac::python
