// The module's runs of SSAC (python/run.cpp): ssac.cluster, which the estimator ssac.SSAC fits
// with, and ssac._Session, the person at the terminal of ssac.oracles.Console.
#pragma once

#include <pybind11/pybind11.h>

namespace ssac::python {

// Registers ssac.cluster and ssac._Session on `mod`.
void bind_run(pybind11::module_& mod);

}  // namespace ssac::python
