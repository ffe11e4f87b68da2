"""ssac: the reference implementation of Semi-Supervised Active Clustering with Weak Oracles
(Kim & Ghosh).

The functions (generate, read_csv, gamma, cluster, validate, check_oracle, choices, bounds,
TraceWriter) are the C++ library's, compiled as ssac._ssac: NumPy arrays in, NumPy arrays and
plain Python objects out. ssac.SSAC is a scikit-learn-style estimator over ssac.cluster, and
ssac.oracles holds the oracles it asks (docs/python.md).
"""
from . import _ssac
from ._ssac import (Divergence, DataError, OracleCheck, ParameterError, TraceWriter,
                    ValidationResult, bounds, check_oracle, choices, cluster, gamma, generate,
                    read_csv, validate)

__version__ = _ssac.__version__

# The compiled names belong to this package as far as messages and reprs go ("ssac.DataError: ...",
# as the command line's users read it), not to the extension module that holds them.
for _cls in (Divergence, DataError, OracleCheck, ParameterError, TraceWriter, ValidationResult):
    _cls.__module__ = "ssac"
del _cls



# The estimator and the oracles need NumPy, and `import ssac` does not (ssac.bounds and
# ssac.validate with paths work without it): they are imported when first used (PEP 562).
def __getattr__(name):
    import importlib
    if name == "oracles":
        return importlib.import_module(".oracles", __name__)
    if name in ("SSAC", "NotFittedError", "transitive_closure"):
        try:
            import numpy  # noqa: F401
        except ImportError:
            import sys
            raise ImportError(f"ssac.{name} needs NumPy, and this interpreter ({sys.executable}) "
                              f"has no numpy; Debian's /usr/bin/python3 has it (python3-numpy)")
        return getattr(importlib.import_module("._estimator", __name__), name)
    raise AttributeError(f"module 'ssac' has no attribute {name!r}")

__all__ = ["SSAC", "NotFittedError", "oracles", "transitive_closure", "Divergence", "DataError",
           "OracleCheck", "ParameterError", "TraceWriter", "ValidationResult", "bounds",
           "check_oracle", "choices", "cluster", "gamma", "generate", "read_csv", "validate",
           "__version__"]
