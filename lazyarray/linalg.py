"""la.linalg: the Array API linalg extension plus NumPy's norm, lstsq, eig and eigvals.

Decompositions and solvers are library calls (graph/ops_linalg.py: LAPACK through NumPy, cuSOLVER
through CuPy); matmul is BLAS/cuBLAS; trace, diagonal, outer, vector_norm, vecdot and the
elementwise parts of matrix_norm, matrix_rank and lstsq's residuals are fused kernels
(lazyarray/_linalg_compose.py). See docs/linalg_random.md.
"""

from __future__ import annotations

import builtins

from typing import Any, Sequence

import numpy as np

from . import _axis_args, _bind
from .array import Array, scalar_result
from .complex_functions import conj
from .graph.node import user_site
from .graph.ops_unchecked import named, out_cast
from .outputs import into
from .manipulation import matrix_transpose, moveaxis, permute_node, reshape_node
from .reductions import _as_node, _reduce
from ._matmul import matmul, matmul_general  # noqa: F401  (matmul_general: the fast path's reference)
from ._linalg_calls import (
    EigResult, EighResult, QRResult, SlogdetResult, SVDResult, cholesky, det, eig, eigh, eigvals,
    eigvalsh, inv, lstsq, pinv, qr, slogdet, solve, svd, svdvals,
)
from ._linalg_compose import (
    cross, diagonal, matrix_norm, matrix_power, matrix_rank, norm, outer, trace, vector_norm,
)
from ._linalg_numpy import LinAlgError, cond, multi_dot, tensorinv, tensorsolve
from .numpy_coverage import missing as _missing

_DOT = named("matmul", "dot")  # np.tensordot's and np.dot's matmul (NumPy's report: 'dot')
_VECDOT_MULTIPLY, _VECDOT_SUM = named("multiply", "vecdot"), named("sum", "vecdot")
_VECDOT_MATMUL = named("matmul", "vecdot")  # floats: (1, n) @ (n, 1), reported as 'vecdot'


def tensordot(a: Any, b: Any, axes: int | tuple[Sequence[int], Sequence[int]] = 2) -> Array:
    """numpy.tensordot / Array API `tensordot`: reshapes around one matmul library call."""
    site = user_site(1)
    lhs, rhs = _as_node(a, site), _as_node(b, site)
    if not hasattr(axes, "__iter__") or getattr(axes, "ndim", 1) == 0:  # NumPy: a count
        axes = _axis_args.index_arg(axes, "tensordot axes", site)  # (np.int64, a 0-d array)
        # NumPy's pairs a[-n + k] with b[k] in turn: a shape mismatch is its ValueError, a pair
        # past either's axes its IndexError, a negative n no pairs (an outer product; it was a
        # ValueError here, fuzz57)
        axes = builtins.max(axes, 0)
        for k in range(axes):
            if axes - k > lhs.ndim or k >= rhs.ndim:
                raise _bind.fail(IndexError, "tuple index out of range", site)
            if lhs.shape[k - axes] != rhs.shape[k]:
                raise _bind.fail(ValueError, "shape-mismatch for sum", site)
        ax_a, ax_b = list(range(lhs.ndim - axes, lhs.ndim)), list(range(axes))
    else:  # two axes or two sequences of axes (`axes=(1, 0)`), each in range: NumPy's
        # IndexError for an axis past the end (it was taken modulo ndim here)
        ax_a, ax_b = ([_bind.normalize_axes(_axis_args.index_arg(x, "tensordot axes", site),
                                            n.ndim, site)[0]
                       for x in (side if hasattr(side, "__iter__") else (side,))]
                      for side, n in zip(axes, (lhs, rhs)))
    if len(ax_a) != len(ax_b) or any(lhs.shape[i] != rhs.shape[j] for i, j in zip(ax_a, ax_b)):
        raise _bind.fail(ValueError, "shape-mismatch for sum", site)
    free_a = [i for i in range(lhs.ndim) if i not in ax_a]
    free_b = [i for i in range(rhs.ndim) if i not in ax_b]
    k = 1
    for i in ax_a:
        k *= lhs.shape[i]
    m = 1
    for i in free_a:
        m *= lhs.shape[i]
    n = 1
    for i in free_b:
        n *= rhs.shape[i]
    a2 = reshape_node(permute_node(lhs, free_a + ax_a, site), (m, k), site)
    b2 = reshape_node(permute_node(rhs, ax_b + free_b, site), (k, n), site)
    out = matmul_general(Array(a2), Array(b2), site, _DOT)  # (NumPy's tensordot is its dot)
    final = tuple(lhs.shape[i] for i in free_a) + tuple(rhs.shape[i] for i in free_b)
    return Array(reshape_node(out._node, final, site))  # (NumPy's: a 0-d array, not a scalar)


def vecdot(x1: Any, x2: Any, /, out: Any = None, *, axis: int = -1) -> Array:
    """Array API `vecdot` (numpy.vecdot). Floats and complex as NumPy's: its loop is BLAS's
    dot of each pair of vectors, whose order no fused sum has (a pairwise sum of the products
    was a last bit off on ~70% of rows), so the pairs are (1, n) @ (n, 1) matmuls (BLAS's dot
    bits, one library call for the stack). Integers and bools: sum(x1 * x2, axis) fused,
    exact."""
    site = user_site(1)
    if out is not None:  # NumPy's ufunc out= (a TypeError here before fuzz56)
        return into(out, vecdot(x1, x2, axis=axis), np.vecdot, (x1, x2), {"axis": axis}, site)
    a, b = _as_node(x1, site), _as_node(x2, site)
    if not a.ndim or not b.ndim:  # NumPy's gufunc core (n),(n)->() needs an axis in each
        raise _bind.fail(ValueError, f"vecdot: input operand {0 if not a.ndim else 1} has 0 "
                         "dimensions; the contracted axis needs at least 1", site)
    shape = _bind.broadcast_shapes([a.shape, b.shape], site)
    ax = _bind.normalize_axis(axis, len(shape), site) - len(shape)
    if a.shape[ax] != b.shape[ax]:
        raise _bind.fail(ValueError, "vecdot: the contracted axis differs in size", site)
    first = Array(a)
    if first.dtype.kind == "c":  # the standard's vecdot conjugates x1 (as NumPy's does)
        first = conj(first)
    if np.result_type(first.dtype, b.dtype) == np.float16:  # NumPy's half loop: float32 sums
        r = vecdot(first.astype(np.float32), Array(b).astype(np.float32), axis=axis)
        return Array(_bind.primitive(out_cast("vecdot"), (r._node,), (), r.shape,
                                     np.dtype(np.float16), site))
    if np.result_type(first.dtype, b.dtype).kind in "fc":  # BLAS's dot per pair, as NumPy
        rows = moveaxis(first, ax, -1)[..., None, :]
        cols = moveaxis(Array(b), ax, -1)[..., :, None]
        dots = matmul_general(rows, cols, site, _VECDOT_MATMUL)[..., 0, 0]
        # (a 0-d result is NumPy's scalar, as the gufunc's: it was a 0-d array, fuzz57)
        return scalar_result(dots._node) if not dots.ndim else dots
    product = Array(_bind.elementwise(_VECDOT_MULTIPLY, first, Array(b), site=site))
    # NumPy's vecdot keeps the dtype; its report names 'vecdot', not 'multiply' or 'reduce'
    return _reduce("sum", product._node, axis, False, product.dtype, site, _VECDOT_SUM)


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
