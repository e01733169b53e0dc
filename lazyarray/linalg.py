"""la.linalg: the Array API linalg extension plus NumPy's norm, lstsq, eig and eigvals.

Decompositions and solvers are library calls (graph/ops_linalg.py: LAPACK through NumPy, cuSOLVER
through CuPy); matmul is BLAS/cuBLAS; trace, diagonal, outer, vector_norm, vecdot and the
elementwise parts of matrix_norm, matrix_rank and lstsq's residuals are fused kernels
(lazyarray/_linalg_compose.py). See docs/linalg_random.md.
"""

from __future__ import annotations

import math
from typing import Any, Sequence

import numpy as np

from .eager import LIMIT as _EAGER_LIMIT
from .eager import vector_dot as _eager_dot
from . import _bind
from .array import Array
from .complex_functions import conj
from .graph import dtypes, get_op
from .graph.node import user_site
from .manipulation import permute_node, reshape_node
from .outputs import into
from .reductions import _as_node, sum as _sum

_MATMUL = get_op("matmul")
_RESHAPE = get_op("reshape")


def matmul(x1: Any, x2: Any, out: Any = None) -> Array:
    """numpy.matmul / Array API `matmul`: 1-D operands gain and then lose a unit dim; batch dims broadcast."""
    site = user_site(1)
    if out is not None:  # NumPy's rules for out (lazyarray/outputs.py), then out[...] = result
        return into(out, matmul(x1, x2), np.matmul, (x1, x2), {}, site)
    if type(x1) is Array and type(x2) is Array:  # two matrices of one float dtype: the node
        a, b = x1._node, x2._node  # `matmul_general` builds, without its ~1.5 us of checks
        sa, sb, dtype = a.shape, b.shape, a.dtype
        if b.dtype is dtype and dtype in _SAME_DTYPE_LOOPS:
            if len(sa) == 2 and len(sb) == 2 and sa[1] == sb[0]:
                return Array(_bind.primitive(_MATMUL, (a, b), (), (sa[0], sb[1]), dtype, site))
            if len(sa) == 1 and len(sb) == 1 and sa == sb and sa[0]:
                return Array(_vector_dot(a, b, site))
    return matmul_general(x1, x2, site)


def _vector_dot(a: Any, b: Any, site: _bind.Site) -> Any:
    """`matmul_general`'s nodes for two vectors of one float dtype and size k > 0 (an index
    loop's `np.dot(A[i, :j], A[j, :j])`), built without its checks: (1, k) @ (k, 1) -> ()."""
    k, dtype = a.shape[0], a.dtype
    if _EAGER_LIMIT[0]:  # an index loop's dot of two computed slices: at once (lazyarray/eager.py)
        done = _eager_dot(a, b, site)
        if done is not None:
            return done
    row = _bind.primitive(_RESHAPE, (a,), ((1, k),), (1, k), dtype, site)
    col = _bind.primitive(_RESHAPE, (b,), ((k, 1),), (k, 1), dtype, site)
    out = _bind.primitive(_MATMUL, (row, col), (), (1, 1), dtype, site)
    return _bind.primitive(_RESHAPE, (out,), ((),), (), dtype, site)


_SAME_DTYPE_LOOPS = frozenset(dtypes.FLOATING + dtypes.COMPLEX)  # NumPy's matmul loop is theirs


def matmul_general(x1: Any, x2: Any, site: _bind.Site) -> Array:
    """`matmul` for every operand (the reference its fast path is compared with)."""
    a, b = _as_node(x1, site), _as_node(x2, site)
    if a.ndim == 0 or b.ndim == 0:
        raise _bind.fail(ValueError, "matmul: Input operand does not have enough dimensions "
                         "(0-d arrays are not allowed; use multiply)", site)
    try:
        loop = dtypes.resolve_ufunc(_matmul_ufunc(), (a.dtype, b.dtype))
    except TypeError:
        raise _bind.fail(TypeError, f"matmul is not supported for input types ({a.dtype}, "
                         f"{b.dtype})", site) from None
    dtype = loop[-1]
    a2 = reshape_node(a, (1, a.shape[0]), site) if a.ndim == 1 else a
    b2 = reshape_node(b, (b.shape[0], 1), site) if b.ndim == 1 else b
    if a2.shape[-1] != b2.shape[-2]:
        raise _bind.fail(ValueError, f"matmul: contracted dimensions differ: {a.shape} @ {b.shape} "
                         f"({a2.shape[-1]} != {b2.shape[-2]})", site)
    batch = _bind.broadcast_shapes([a2.shape[:-2], b2.shape[:-2]], site)
    final = batch + ((a.shape[-2],) if a.ndim > 1 else ()) + ((b.shape[-1],) if b.ndim > 1 else ())
    if len(batch) and all(n == 1 for n in b2.shape[:-2]):
        return Array(reshape_node(_folded_matmul(a2, b2, batch, dtype, site), final, site))
    a2 = _bind.broadcast_to(_bind.cast(a2, dtype, site), batch + a2.shape[-2:], site)
    b2 = _bind.broadcast_to(_bind.cast(b2, dtype, site), batch + b2.shape[-2:], site)
    shape = batch + (a2.shape[-2], b2.shape[-1])
    out = _bind.primitive(_MATMUL, (a2, b2), (), shape, dtype, site)
    return Array(reshape_node(out, final, site))


def _folded_matmul(a2: Any, b2: Any, batch: tuple[int, ...], dtype: Any, site: _bind.Site) -> Any:
    """A stack of matrices times one matrix (`x @ W` with x of (..., m, k)) as one (batch*m, k)
    @ (k, n) matmul, the batch folded into the rows. Broadcasting W over the batch instead made
    the C backend materialize it: batch * k * n elements (4.3 GB for doitgen's (150, 140, 1,
    160) @ (160, 160)), a workspace past the plan cache's byte bound, so the plan was rebuilt on
    every call. Folding keeps every intermediate the size of an operand or of the result."""
    m, k, n = a2.shape[-2], a2.shape[-1], b2.shape[-1]
    rows = math.prod(batch) * m
    a2 = _bind.broadcast_to(_bind.cast(a2, dtype, site), batch + (m, k), site)
    a_flat = reshape_node(a2, (rows, k), site)
    b_flat = reshape_node(_bind.cast(b2, dtype, site), (k, n), site)
    return _bind.primitive(_MATMUL, (a_flat, b_flat), (), (rows, n), dtype, site)


def _matmul_ufunc() -> Any:
    import numpy as np

    return np.matmul


def tensordot(x1: Any, x2: Any, axes: int | tuple[Sequence[int], Sequence[int]] = 2) -> Array:
    """numpy.tensordot / Array API `tensordot`: reshapes around one matmul library call."""
    site = user_site(1)
    a, b = _as_node(x1, site), _as_node(x2, site)
    if isinstance(axes, int):
        if axes < 0 or axes > min(a.ndim, b.ndim):
            raise _bind.fail(ValueError, f"tensordot: axes={axes} is out of range", site)
        ax_a, ax_b = list(range(a.ndim - axes, a.ndim)), list(range(axes))
    else:
        ax_a = [x % a.ndim for x in axes[0]] if a.ndim else []
        ax_b = [x % b.ndim for x in axes[1]] if b.ndim else []
    if len(ax_a) != len(ax_b) or any(a.shape[i] != b.shape[j] for i, j in zip(ax_a, ax_b)):
        raise _bind.fail(ValueError, "shape-mismatch for sum in tensordot", site)
    free_a = [i for i in range(a.ndim) if i not in ax_a]
    free_b = [i for i in range(b.ndim) if i not in ax_b]
    k = 1
    for i in ax_a:
        k *= a.shape[i]
    m = 1
    for i in free_a:
        m *= a.shape[i]
    n = 1
    for i in free_b:
        n *= b.shape[i]
    a2 = reshape_node(permute_node(a, free_a + ax_a, site), (m, k), site)
    b2 = reshape_node(permute_node(b, ax_b + free_b, site), (k, n), site)
    out = matmul(Array(a2), Array(b2))
    final = tuple(a.shape[i] for i in free_a) + tuple(b.shape[i] for i in free_b)
    return Array(reshape_node(out._node, final, site))


def vecdot(x1: Any, x2: Any, axis: int = -1) -> Array:
    """Array API `vecdot` (numpy.vecdot): sum(x1 * x2, axis), a multiply fused into the
    reduction, no library call."""
    site = user_site(1)
    a, b = _as_node(x1, site), _as_node(x2, site)
    if not a.ndim or not b.ndim:  # NumPy's gufunc core (n),(n)->() needs an axis in each
        raise _bind.fail(ValueError, f"vecdot: input operand {0 if not a.ndim else 1} has 0 "
                         "dimensions; the contracted axis needs at least 1", site)
    shape = _bind.broadcast_shapes([a.shape, b.shape], site)
    ax = axis if axis < 0 else axis - len(shape)
    if a.shape[ax] != b.shape[ax]:
        raise _bind.fail(ValueError, "vecdot: the contracted axis differs in size", site)
    first = Array(a)
    if first.dtype.kind == "c":  # the standard's vecdot conjugates x1 (as NumPy's does)
        first = conj(first)
    product = first * Array(b)
    return _sum(product, axis=axis, dtype=product.dtype)  # NumPy's vecdot keeps the dtype


from ._linalg_calls import (  # noqa: E402
    EigResult, EighResult, QRResult, SlogdetResult, SVDResult, cholesky, det, eig, eigh, eigvals,
    eigvalsh, inv, lstsq, pinv, qr, slogdet, solve, svd, svdvals,
)
from ._linalg_compose import (  # noqa: E402
    cross, diagonal, matrix_norm, matrix_power, matrix_rank, norm, outer, trace, vector_norm,
)
from .manipulation import matrix_transpose  # noqa: E402
from ._linalg_numpy import LinAlgError, cond, multi_dot, tensorinv, tensorsolve  # noqa: E402
from .numpy_coverage import missing as _missing

__all__ = [
    "EigResult", "EighResult", "QRResult", "SVDResult", "SlogdetResult", "cholesky", "cross", "det",
    "diagonal", "eig", "eigh", "eigvals", "eigvalsh", "inv", "lstsq", "matmul", "matrix_norm",
    "matrix_power", "matrix_rank", "matrix_transpose", "norm", "outer", "pinv", "qr", "slogdet",
    "solve", "svd", "svdvals", "tensordot", "trace", "vecdot", "vector_norm",
    "LinAlgError", "cond", "multi_dot", "tensorinv", "tensorsolve",
]


def __getattr__(name: str) -> Any:
    """A NumPy linalg name lazyarray lacks: the reason, from lazyarray/numpy_coverage.py."""
    raise _missing(__name__, name)
