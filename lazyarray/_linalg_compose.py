"""The fused half of la.linalg: compositions of views, elementwise ops and reductions.

trace, diagonal, outer, vector_norm and the Frobenius / 1 / inf matrix norms bind no library call:
they fuse into kernels with whatever surrounds them. The spectral norms (2, -2, 'nuc') and
matrix_rank reduce svdvals (a library call) in a fused kernel; matrix_power is matmuls (BLAS).
"""

from __future__ import annotations

import math
import operator
from typing import Any

import numpy as np

from . import _axis_args, _bind
from . import elementwise as ew
from .array import Array
from .graph import dtypes, get_op
from .graph.node import user_site
from ._linalg_calls import _default_rtol, _matrix, _rank_of, array_rtol, eigvalsh, inv, svdvals
from ._matmul import matmul
from .complex_functions import conj
from .manipulation import concat, expand_dims, moveaxis, permute_dims, reshape_node, slice_node
from .reductions import _as_node, all as _all, max as _max, min as _min, sum as _sum
from .writes import view_of


def diagonal(x: Any, /, *, offset: int = 0) -> Array:
    """The diagonal of the last two dims as a view: the matrix seen flat, every (n+1)-th element."""
    site = user_site(1)
    a = _as_node(x, site)
    if a.ndim < 2:
        raise _bind.fail(ValueError, "diagonal: x must have at least two dimensions", site)
    offset = _axis_args.index_arg(offset, "offset", site)
    batch, (m, n) = a.shape[:-2], a.shape[-2:]
    length = max(0, min(m, n - offset) if offset >= 0 else min(m + offset, n))
    start = offset if offset >= 0 else -offset * n
    spec = tuple((0, 1, s) for s in batch) + ((start if length else 0, n + 1, length),)

    def build(node: Any) -> Any:
        return slice_node(reshape_node(node, batch + (m * n,), site), spec, site)

    # NumPy's diagonal is a read-only view: it follows writes to x and refuses its own
    return view_of(x, Array(build(a)), build, writable=False)


def trace(x: Any, /, *, offset: int = 0, dtype: Any = None) -> Array:
    """Sum of the diagonal (NumPy's accumulator dtype rules, as la.sum)."""
    return _sum(diagonal(x, offset=offset), axis=-1, dtype=dtype)


def outer(x1: Any, x2: Any, /) -> Array:
    site = user_site(1)
    a, b = _as_node(x1, site), _as_node(x2, site)
    if a.ndim != 1 or b.ndim != 1:
        raise _bind.fail(ValueError, "outer: both inputs must be 1-D", site)
    return Array(reshape_node(a, (a.shape[0], 1), site)) * Array(reshape_node(b, (1, b.shape[0]),
                                                                              site))


def cross(x1: Any, x2: Any, /, *, axis: int = -1) -> Array:
    """The 3-vector cross product along `axis`: each component is fused from views of the inputs;
    the three are then concatenated (one library call)."""
    site = user_site(1)
    a, b = _as_node(x1, site), _as_node(x2, site)
    if a.shape[axis] != 3 or b.shape[axis] != 3:  # (each input's own axis, first: NumPy's)
        raise _bind.fail(ValueError, "Both input arrays must be (arrays of) 3-dimensional "
                         f"vectors, but they are {a.shape[axis]} and {b.shape[axis]} "
                         "dimensional instead.", site)
    if axis != -1:  # NumPy's np.cross(x1, x2, axis=axis): the vectors' axis moved last in each
        # input, then the rest broadcast (`cross(A (3, 4), v (3,), axis=0)`: a broadcast error
        # here, fuzz56)
        moved = cross(moveaxis(Array(a), axis, -1), moveaxis(Array(b), axis, -1))
        return moveaxis(moved, -1, axis)
    shape = _bind.broadcast_shapes([a.shape, b.shape], site)
    ax = len(shape) - 1
    a, b = (_bind.broadcast_to(n, shape, site) for n in (a, b))

    def comp(n, i):
        spec = tuple((i, 1, 1) if d == ax else (0, 1, s) for d, s in enumerate(shape))
        return Array(slice_node(n, spec, site))

    parts = []
    for i in range(3):
        j, k = (i + 1) % 3, (i + 2) % 3
        parts.append(comp(a, j) * comp(b, k) - comp(a, k) * comp(b, j))
    return concat(parts, axis=ax)


def _float(x: Array) -> Array:
    return x if x.dtype.kind in "fc" else ew.astype(x, dtypes.float64)


def vector_norm(x: Any, /, *, axis: Any = None, keepdims: bool = False, ord: Any = 2) -> Array:
    """NumPy's vector_norm: its norm over one axis of the array NumPy reshapes it into (no axis:
    the raveled array; several: the reduced axes moved first, in the order given, and
    flattened, so their values fold as NumPy's, a column reduction where other axes remain)."""
    site = user_site(1)
    v = _float(Array(_as_node(x, site)))
    axis = _axis_args.norm_axis(axis, site)
    shape = v.shape
    if axis is None:
        axes = tuple(range(v.ndim))
        flat, along = v.reshape(-1), 0
    elif isinstance(axis, tuple):
        _bind.normalize_axes(axis, v.ndim, site)  # NumPy's errors for bad or repeated axes
        axes = tuple(int(a) % v.ndim for a in axis)
        rest = tuple(d for d in range(v.ndim) if d not in axes)
        count = int(np.prod([shape[d] for d in axes], dtype=np.int64))
        flat = permute_dims(v, axes + rest).reshape((count,) + tuple(shape[d] for d in rest))
        along = 0
    else:
        axes = (_bind.normalize_axes(axis, v.ndim, site)[0],)
        flat, along = v, axes[0]
    out = _norm_along(flat, along, ord, site)
    if keepdims:
        out = out.reshape(tuple(1 if d in axes else n for d, n in enumerate(shape)))
    return out


def _norm_along(v: Array, axis: int, ord: Any, site: _bind.Site,
                keepdims: bool = False) -> Array:
    """numpy.linalg.norm over one axis, step by step as NumPy's: 2 is the square root of the
    sum of (conj(x) * x).real (|x|**2 through hypot differs in the last bits for complex), p
    the sum of |x| **= p raised to reciprocal(p) in the sum's dtype (in-place powers: the
    operand's dtype, NumPy's scalar fast paths)."""
    if ord is None or ord == 2:
        squares = ew.real(conj(v) * v) if v.dtype.kind == "c" else v * v
        return ew.sqrt(_sum(squares, axis=axis, keepdims=keepdims))
    if isinstance(ord, str):
        raise _bind.fail(ValueError, f"Invalid norm order '{ord}' for vectors", site)
    a = ew.abs(v)
    if ord == math.inf:
        return _max(a, axis=axis, keepdims=keepdims, initial=0)
    if ord == -math.inf:
        return _min(a, axis=axis, keepdims=keepdims)
    if ord == 0:
        return _sum(ew.astype(v != 0, a.dtype), axis=axis, keepdims=keepdims)
    if ord == 1:
        return _sum(a, axis=axis, keepdims=keepdims)
    if not isinstance(ord, (int, float, np.number)):
        raise _bind.fail(ValueError, f"Invalid norm order {ord!r} for vectors", site)
    powered = ew.astype(a ** ord, a.dtype)  # `absx **= ord`
    total = _sum(powered, axis=axis, keepdims=keepdims)
    return ew.astype(total ** np.reciprocal(ord, dtype=total.dtype), total.dtype)


def matrix_norm(x: Any, /, *, keepdims: bool = False, ord: Any = "fro") -> Array:
    """Norms of the matrices in the last two dims: 'fro', 1, -1, inf, -inf fused; 2, -2, 'nuc'
    from svdvals."""
    site = user_site(1)
    v = _float(Array(_as_node(x, site)))
    if v.ndim < 2:
        raise _bind.fail(ValueError, "matrix_norm: x must have at least two dimensions", site)
    a = ew.abs(v)
    axes = (-2, -1)
    if ord == "fro":  # (NumPy's conj(x) * x, as _norm_along's)
        out = ew.sqrt(_sum(ew.real(conj(v) * v) if v.dtype.kind == "c" else v * v, axis=axes))
    elif ord in (1, -1):  # (the largest with NumPy's initial=0: an empty matrix's norm is 0;
        cols = _sum(a, axis=-2)  # the smallest has none, and raises as NumPy's)
        out = _max(cols, axis=-1, initial=0) if ord == 1 else _min(cols, axis=-1)
    elif ord in (math.inf, -math.inf):
        rows = _sum(a, axis=-1)
        out = _max(rows, axis=-1, initial=0) if ord > 0 else _min(rows, axis=-1)
    elif ord in (2, -2, "nuc"):
        s = svdvals(v)
        out = _sum(s, axis=-1) if ord == "nuc" else (_max(s, axis=-1, initial=0) if ord == 2
                                                      else _min(s, axis=-1))
    else:
        raise _bind.fail(ValueError, "Invalid norm order for matrices.", site)
    return out.reshape(v.shape[:-2] + (1, 1)) if keepdims else out


# numpy.dot as lazyarray has it (numpy_shapes.dot, whose module imports this one: it puts its
# dot here)
NUMPY_DOT: list[Any] = []
_C_UNARY = getattr(_bind.FAST, "unary", None)  # lazyarray/_trace.c: an op of one Array in C
_SQRT = get_op("sqrt")


def _dot_norm(v: Array) -> Array:
    """NumPy's norm of a whole array at ord None (2 of a vector, 'fro' of a matrix): the square
    root of the flattened array's dot with itself, as numpy.linalg.norm computes it (BLAS's dot:
    NumPy's bits, where a sum of squares differs in the last ones; one call, at once for small
    arrays). Integers and bools as float64, complex as the real and imaginary parts' dots."""
    dot = NUMPY_DOT[0]
    if v.dtype.kind not in "fc":
        v = ew.astype(v, dtypes.float64)
    flat = v if v.ndim == 1 else v.reshape(-1)
    if flat.dtype.kind == "c":
        re, im = ew.real(flat), ew.imag(flat)
        return ew.sqrt(dot(re, re) + dot(im, im))
    return ew.sqrt(dot(flat, flat))


def norm(x: Any, ord: Any = None, axis: Any = None, keepdims: bool = False) -> Array:
    """NumPy's norm: a vector norm over one axis (or the whole array when ord is None), a matrix
    norm over two."""
    if ord is None and axis is None and not keepdims and type(x) is Array and (
            len(x._node.shape) == 1 and x._node.dtype.kind == "f"):  # a row's norm in a loop:
        squares = NUMPY_DOT[0](x, x)  # _dot_norm's case without the general steps (~1 us)
        done = _C_UNARY(_SQRT, squares) if _C_UNARY is not None else None  # (la.sqrt's C path)
        return done if done is not None else ew.sqrt(squares)
    site = user_site(1)
    v = Array(_as_node(x, site))
    axis = _axis_args.norm_axis(axis, site)
    if axis is None:
        if ord is None or (ord == 2 and v.ndim == 1) or (ord in ("f", "fro") and v.ndim == 2):
            out = _dot_norm(v)
            return out.reshape((1,) * v.ndim) if keepdims else out
        axis = tuple(range(v.ndim))
    axes = (axis,) if isinstance(axis, int) else tuple(axis)
    if len(axes) == 1:
        if v.dtype.kind not in "fc":
            v = ew.astype(v, dtypes.float64)
        along = _bind.normalize_axes(axes[0], v.ndim, site)[0]
        return _norm_along(v, along, ord, site, keepdims)
    if len(axes) != 2:
        raise _bind.fail(ValueError, "Improper number of dimensions to norm.", site)  # NumPy's
    r, c = (ax % v.ndim for ax in axes)

    moved = moveaxis(v, (r, c), (-2, -1))
    out = matrix_norm(moved, ord="fro" if ord is None else ord)
    if keepdims:
        shape = tuple(1 if i in (r, c) else s for i, s in enumerate(v.shape))
        out = out.reshape(shape)
    return out


def matrix_rank(A: Any, tol: Any = None, hermitian: bool = False, *,
                rtol: float | Any | None = None) -> Array | int:
    """Singular values above rtol * the largest (default max(M, N) * eps), counted in a fused
    reduction over svdvals. An array rtol broadcasts against the stack of matrices. NumPy's
    `tol` is an absolute threshold; hermitian=True takes |eigenvalues| as the singular values."""
    site = user_site(1)
    if tol is not None and rtol is not None:
        raise _bind.fail(ValueError, "`tol` and `rtol` can't be both set.", site)
    node = _as_node(A, site)
    if node.ndim < 2:  # NumPy's `int(not all(A == 0))`: a Python int, no SVD (not an error)
        return int(not _all(Array(node) == 0))
    a = _matrix(Array(node), "matrix_rank", site)
    s = ew.abs(eigvalsh(Array(a))) if hermitian else svdvals(Array(a))
    if tol is not None:  # NumPy: S > asarray(tol)[..., newaxis]
        limit = expand_dims(Array(_as_node(tol, site)), axis=-1)
        return _sum(s > limit, axis=-1)
    rel = array_rtol(rtol, "matrix_rank", site) if rtol is not None else _default_rtol(a)
    return _rank_of(s, rel)


def matrix_power(a: Any, n: int) -> Array:
    """x**n by repeated squaring (matmuls); n < 0 inverts first, n == 0 gives identities."""
    site = user_site(1)
    try:
        n = operator.index(n)  # (NumPy's: a user's integer type too)
    except TypeError:
        raise _bind.fail(TypeError, "exponent must be an integer", site) from None  # NumPy's texts
    node = _as_node(a, site)
    if node.ndim < 2:
        raise _bind.fail(np.linalg.LinAlgError, f"{node.ndim}-dimensional array given. Array must "
                         "be at least two-dimensional", site)
    if node.shape[-1] != node.shape[-2]:
        raise _bind.fail(np.linalg.LinAlgError, "Last 2 dimensions of the array must be square",
                         site)
    power = Array(node)
    if n == 0:
        eye = Array(_bind.leaf(np.eye(node.shape[-1], dtype=node.dtype), site))
        return Array(_bind.broadcast_to(eye._node, node.shape, site))
    if n < 0:
        power, n = inv(Array(_matrix(power, "matrix_power", site))), -n
    result = None
    while n:
        if n & 1:
            result = power if result is None else matmul(result, power)
        n >>= 1
        if n:
            power = matmul(power, power)
    return result
