"""NumPy 2's `matvec`/`vecmat` (matmul with a vector operand, batched) and `einsum_path`.

`vecmat` conjugates its vector, as NumPy's (a vector-conjugate product); `matvec` does not.
`einsum_path` is NumPy's planner: it reads shapes only, so it runs on zero-strided stand-ins.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .array import Array
from .complex_functions import conj
from .creation import asarray
from .graph.node import user_site
from .graph.ops_unchecked import named
from .linalg import matmul_general
from .outputs import into

_MATVEC, _VECMAT = named("matmul", "matvec"), named("matmul", "vecmat")  # NumPy's report names


def matvec(x1: Any, x2: Any, /, out: Any = None) -> Array:
    """numpy.matvec: (..., m, n) times (..., n) -> (..., m); NumPy's ufunc `out=`."""
    if out is not None:
        return into(out, matvec(x1, x2), np.matvec, (x1, x2), {}, user_site(1))
    a, v = asarray(x1), asarray(x2)
    if a.ndim < 2 or v.ndim < 1:
        raise ValueError("matvec: x1 needs 2 and x2 1 core dimensions")
    return matmul_general(a, v[..., None], user_site(1), _MATVEC)[..., 0]


def vecmat(x1: Any, x2: Any, /, out: Any = None) -> Array:
    """numpy.vecmat: conj((..., n)) times (..., n, m) -> (..., m); NumPy's ufunc `out=`."""
    if out is not None:
        return into(out, vecmat(x1, x2), np.vecmat, (x1, x2), {}, user_site(1))
    v, a = asarray(x1), asarray(x2)
    if a.ndim < 2 or v.ndim < 1:
        raise ValueError("vecmat: x1 needs 1 and x2 2 core dimensions")
    v = conj(v) if v.dtype.kind == "c" else v
    return matmul_general(v[..., None, :], a, user_site(1), _VECMAT)[..., 0, :]


def einsum_path(subscripts: Any, *operands: Any, optimize: Any = "greedy",
                einsum_call: bool = False) -> Any:
    """numpy.einsum_path on the operands' shapes and dtypes (their values are not read)."""
    stand_ins = [np.broadcast_to(np.zeros((), asarray(o).dtype), asarray(o).shape)
                 if not isinstance(o, (str, list)) else o for o in operands]
    return np.einsum_path(subscripts, *stand_ins, optimize=optimize, einsum_call=einsum_call)
