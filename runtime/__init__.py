"""Plans, caches and backends. Imports graph/ and passes/, never lazyarray's user API."""

from . import numpy_backend  # noqa: F401  (registers the backend)
from . import c_backend  # noqa: F401  (registers the backend; `auto` prefers it where a compiler works)
from . import dask_backend  # noqa: F401  (registers the backend; imports Dask only when used)
from . import cupy_backend  # noqa: F401  (registers the backend; imports CuPy only when used)
from .backend import (Backend, BackendUnavailable, available_backends, backend_names, get_backend,
                      source_backend)
from .evaluate import EvaluateOptions, ReferencePlan, evaluate, split_leaves
from .interpreter import EvaluationError, run_reference

__all__ = [
    "Backend", "BackendUnavailable", "available_backends", "EvaluateOptions", "EvaluationError", "backend_names",
    "evaluate", "get_backend", "source_backend", "run_reference", "ReferencePlan", "split_leaves",
]
