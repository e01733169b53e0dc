"""Plans, caches and backends. Imports graph/ and passes/, never lazyarray's user API."""

# Importing a backend's module registers it: `auto` prefers c where a compiler works; the dask and
# cupy backends import Dask and CuPy only when used.
from . import numpy_backend  # noqa: F401
from .c import backend as _c_backend  # noqa: F401
from .dask import backend as _dask_backend  # noqa: F401
from .cuda import backend as _cuda_backend  # noqa: F401
from .backend import (Backend, BackendUnavailable, available_backends, backend_names, get_backend,
                      source_backend)
from .evaluate import EvaluateOptions, ReferencePlan, evaluate, split_leaves
from .interpreter import EvaluationError, run_reference

__all__ = [
    "Backend", "BackendUnavailable", "available_backends", "EvaluateOptions", "EvaluationError", "backend_names",
    "evaluate", "get_backend", "source_backend", "run_reference", "ReferencePlan", "split_leaves",
]
