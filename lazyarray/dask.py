"""Dask interop: `la.from_dask(darr)` and `Array.to_dask()` (docs/dask.md).

`from_dask` makes an Array whose leaf is a dask array: nothing is read until the plan runs. On the
`dask` backend (`la.config(backend="dask")`) evaluating such an Array computes the plan over the dask
array's own chunks; on other backends the dask array is computed into memory first. `to_dask`
returns the plan as a lazy dask array (the fused kernels as tasks per chunk), to be stored chunk by
chunk (`.to_zarr`, `dask.array.store`) when the result does not fit in memory. Dask is imported
here only when these are called.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from . import _bind
from .array import Array
from .graph import Graph, dtypes
from .graph.node import user_site
from .passes import optimize
from .runtime.dask.backend import DaskPlan, describe
from .runtime.evaluate import split_leaves


def from_dask(darr: Any) -> Array:
    """An Array over a dask array, without computing it."""
    import dask.array as da  # Dask is optional (the dask extra): imported when used

    site = user_site(1)
    if not isinstance(darr, da.Array):
        raise _bind.fail(TypeError, f"from_dask expects a dask.array.Array, got "
                         f"{type(darr).__name__}", site)
    meta = getattr(darr, "_meta", None)
    if meta is not None and type(meta) is not np.ndarray:
        kind = f"{type(meta).__module__}.{type(meta).__name__}"
        hint = (" (CUDA chunks, dask-cuda, are not supported yet: docs/dask.md)"
                if kind.startswith("cupy") else "")
        raise _bind.fail(TypeError, f"from_dask expects a dask array of NumPy chunks, got chunks "
                         f"of {kind}{hint}", site)
    if darr.dtype not in dtypes.SUPPORTED:
        raise _bind.fail(TypeError, f"unsupported dtype {darr.dtype} for from_dask", site)
    return Array(_bind.leaf(darr, site))


def _plan(arrays: tuple[Array, ...]) -> tuple[DaskPlan, list[Any], list[Any]]:
    graph = Graph([a._node for a in arrays])
    values, scalars = split_leaves(graph)
    return DaskPlan(optimize(graph)), values, scalars


def to_dask(*arrays: Array) -> Any:
    """The arrays' plan as dask arrays (one per argument; one argument: the array itself)."""
    plan, values, scalars = _plan(arrays)
    outs = plan.build(values, scalars)
    return outs[0] if len(arrays) == 1 else tuple(outs)


def dask_report(*arrays: Array) -> str:
    """Each step's chunk grid and tasks (for `la.explain(..., backend="dask")`)."""
    plan, values, scalars = _plan(arrays)
    return describe(plan, values, scalars)
