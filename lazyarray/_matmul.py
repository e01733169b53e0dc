"""la.matmul (numpy.matmul, the Array API's): one matmul library call (BLAS/cuBLAS) between
reshapes and broadcasts. Its own module below linalg.py: lazyarray/_linalg_calls.py (pinv, lstsq)
and _linalg_compose.py (matrix_power) use it, and linalg.py imports both."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from . import _bind
from .array import Array, scalar_result
from .eager import LIMIT as _EAGER_LIMIT
from .eager import vector_dot as _eager_dot
from .eager import fill_read as _eager_fill_read
from .eager import matrix_product as _eager_product
from .graph import dtypes, get_op
from .graph.node import user_site
from .graph.dtypes import refuse_array
from .manipulation import reshape_node
from .outputs import into
from .reductions import _as_node

_MATMUL = get_op("matmul")
_RESHAPE = get_op("reshape")


def matmul(x1: Any, x2: Any, out: Any = None, *, dtype: Any = None,
           casting: str = "same_kind") -> Array:
    """numpy.matmul / Array API `matmul`: 1-D operands gain and then lose a unit dim; batch dims broadcast.
    `dtype=` (a ufunc keyword: `np.matmul(a, b, dtype=np.float32)`) computes in that dtype, its
    operands cast under `casting` as NumPy's loop casts them."""
    site = user_site(1)
    if dtype is not None or casting != "same_kind":
        refuse_array(dtype)  # (NumPy's TypeError; it read an Array's `.dtype`, fuzz57)
        x1, x2 = _cast_for_loop(x1, x2, dtype, casting, site)
    if out is not None:  # NumPy's rules for out (lazyarray/outputs.py), then out[...] = result
        return into(out, matmul(x1, x2), np.matmul, (x1, x2), {}, site)
    if type(x1) is Array and type(x2) is Array:  # two matrices of one float dtype: the node
        if _EAGER_LIMIT[0]:  # a fill operand (`w = np.full(n, 1 / n)`): its buffer, now, as at
            for x in (x1, x2):  # an indexed read (portfolio's `returns @ w`: the product's walk
                if x._node.op is _BROADCAST:  # ran the fill through its reference, 42 -> 12 us)
                    _eager_fill_read(x)
        a, b = x1._node, x2._node  # `matmul_general` builds, without its ~1.5 us of checks
        sa, sb, dtype = a.shape, b.shape, a.dtype
        if b.dtype is dtype and dtype in _SAME_DTYPE_LOOPS:
            if _EAGER_LIMIT[0] and 0 < len(sa) <= 2 and 0 < len(sb) <= 2 and (
                    len(sa) + len(sb) > 2):  # `x[:, i] @ x[:, i:]`, `A @ v`: at once (eager.py)
                done = _eager_product(a, b, site)
                if done is not None:
                    return Array(done)
            if len(sa) == 2 and len(sb) == 2 and sa[1] == sb[0]:
                return Array(_bind.primitive(_MATMUL, (a, b), (), (sa[0], sb[1]), dtype, site))
            if len(sa) == 1 and len(sb) == 1 and sa == sb and sa[0]:
                return scalar_result(_vector_dot(a, b, site))
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


_BROADCAST = get_op("broadcast_to")
_SAME_DTYPE_LOOPS = frozenset(dtypes.FLOATING + dtypes.COMPLEX)  # NumPy's matmul loop is theirs


def _cast_for_loop(x1: Any, x2: Any, dtype: Any, casting: str, site: _bind.Site
                   ) -> tuple[Array, Array]:
    """The operands cast to the dtype of NumPy's matmul loop for `dtype=`/`casting=`, chosen
    and checked by NumPy on 1x1 stand-ins (its UFuncTypeError and texts where it refuses)."""
    a, b = _as_node(x1, site), _as_node(x2, site)
    loop = np.matmul(np.ones((1, 1), a.dtype), np.ones((1, 1), b.dtype), dtype=dtype,
                     casting=casting).dtype
    return Array(_bind.cast(a, loop, site)), Array(_bind.cast(b, loop, site))


def matmul_general(x1: Any, x2: Any, site: _bind.Site, op: Any = _MATMUL) -> Array:
    """`matmul` for every operand (the reference its fast path is compared with); `op` the
    matmul primitive or its twin of NumPy's dot loops (lazyarray/_dot_loops.py)."""
    a, b = _as_node(x1, site), _as_node(x2, site)
    if a.ndim == 0 or b.ndim == 0:
        raise _bind.fail(ValueError, f"matmul: Input operand {0 if a.ndim == 0 else 1} does not "
                         "have enough dimensions (has 0, gufunc core with signature "
                         "(n?,k),(k,m?)->(n?,m?) requires 1)", site)
    try:
        loop = dtypes.resolve_ufunc(_matmul_ufunc(), (a.dtype, b.dtype))
    except TypeError:
        raise _bind.fail(TypeError, f"matmul is not supported for input types ({a.dtype}, "
                         f"{b.dtype})", site) from None
    dtype = loop[-1]
    a2 = reshape_node(a, (1, a.shape[0]), site) if a.ndim == 1 else a
    b2 = reshape_node(b, (b.shape[0], 1), site) if b.ndim == 1 else b
    if a2.shape[-1] != b2.shape[-2]:
        raise _bind.fail(ValueError, "matmul: Input operand 1 has a mismatch in its core dimension "
                         "0, with gufunc signature (n?,k),(k,m?)->(n?,m?) (size "
                         f"{b2.shape[-2]} is different from {a2.shape[-1]})", site)
    batch = _bind.broadcast_shapes([a2.shape[:-2], b2.shape[:-2]], site)
    final = batch + ((a.shape[-2],) if a.ndim > 1 else ()) + ((b.shape[-1],) if b.ndim > 1 else ())
    if len(batch) and all(n == 1 for n in b2.shape[:-2]):
        return Array(reshape_node(_folded_matmul(a2, b2, batch, dtype, site, op), final, site))
    a2 = _bind.broadcast_to(_bind.cast(a2, dtype, site), batch + a2.shape[-2:], site)
    b2 = _bind.broadcast_to(_bind.cast(b2, dtype, site), batch + b2.shape[-2:], site)
    shape = batch + (a2.shape[-2], b2.shape[-1])
    out = _bind.primitive(op, (a2, b2), (), shape, dtype, site)
    return scalar_result(reshape_node(out, final, site))


def _folded_matmul(a2: Any, b2: Any, batch: tuple[int, ...], dtype: Any, site: _bind.Site,
                   op: Any = _MATMUL) -> Any:
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
    return _bind.primitive(op, (a_flat, b_flat), (), (rows, n), dtype, site)


def _matmul_ufunc() -> Any:
    return np.matmul
