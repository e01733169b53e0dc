"""NumPy shape, stacking and product functions outside the Array API, as compositions of views,
concat, matmul and reductions (NumPy's own definitions, by axis conventions)."""

from __future__ import annotations

import warnings
from typing import Any, Sequence

import numpy as np

from . import _linalg_compose as lc
from . import elementwise as ew, host_now
from . import manipulation as mp
from .array import Array, Array as _A, scalar_result
from .elementwise import asarray_operand
from .graph.node import user_site
from .graph.ops_unchecked import named as _named
from ._reshape import reshape_node
from .outputs import into
from .reductions import sum as sum_
from . import _dot_loops as _dot
from .creation import asarray, zeros
from .linalg import matmul, tensordot
from . import linalg
from .complex_functions import conj
from .searching import nonzero
from ._host_results import _leaf as _host_leaf
from ._axis_args import index_arg
from . import _bind
from ._bind import FAST as _FAST
from .eager import LIMIT as _EAGER_LIMIT, buffer as _eager_buffer
from .eager import matrix_product as _eager_product, outer_now as _eager_outer
from .graph import SUPPORTED as _SUPPORTED, get_op
from .eager import vector_dot as _eager_vector_dot
from .jit import differentiating

_COMPUTED_DOT = getattr(_FAST, "computed_dot", None)  # lazyarray/_trace.c: dot of computed values
_OUTER_NOW = getattr(_FAST, "outer_now", None)  # and the outer of computed float vectors


_INPUT = get_op("input")
_DOT_ND = get_op("dot_nd")  # np.dot past 2-D in NumPy's loop (graph/ops_einsum.py)


def _array(x: Any) -> Array:
    return x if isinstance(x, Array) else asarray_operand(x)


def fliplr(m: Any) -> Array:
    """numpy.fliplr: reverse axis 1 (at least 2-D)."""
    v = _array(m)
    if v.ndim < 2:
        raise ValueError("Input must be >= 2-d.")
    return mp.flip(v, axis=1)


def flipud(m: Any) -> Array:
    """numpy.flipud: reverse axis 0 (at least 1-D)."""
    v = _array(m)
    if v.ndim < 1:
        raise ValueError("Input must be >= 1-d.")
    return mp.flip(v, axis=0)


def rot90(m: Any, k: int = 1, axes: Sequence[int] = (0, 1)) -> Array:
    """numpy.rot90: rotate by 90 degrees k times in the plane of `axes` (flips and a transpose)."""
    v = _array(m)
    axes = tuple(axes)
    if len(axes) != 2:
        raise ValueError("len(axes) must be 2.")
    if axes[0] == axes[1] or abs(axes[0] - axes[1]) == v.ndim:  # NumPy's checks and texts
        raise ValueError("Axes must be different.")
    if not all(-v.ndim <= a < v.ndim for a in axes):
        raise ValueError(f"Axes={axes} out of range for array of ndim={v.ndim}.")
    a0, a1 = (a + v.ndim if a < 0 else a for a in axes)
    k %= 4
    if k == 0:
        return v
    if k == 2:
        return mp.flip(mp.flip(v, axis=a0), axis=a1)
    perm = list(range(v.ndim))
    perm[a0], perm[a1] = perm[a1], perm[a0]
    if k == 1:
        return mp.permute_dims(mp.flip(v, axis=a1), perm)
    return mp.flip(mp.permute_dims(v, perm), axis=a1)


def _atleast(n: int, arrays: tuple[Any, ...]) -> Any:
    out = []
    for a in arrays:
        v = _array(a)
        if v.ndim < n:
            if v.ndim == 0:
                shape = (1,) * n
            elif v.ndim == 1:
                shape = (1,) + v.shape + ((1,) if n == 3 else ())
            else:  # 2-D, n == 3
                shape = v.shape + (1,)
            v = mp.reshape(v, shape)
        out.append(v)
    return out[0] if len(out) == 1 else tuple(out)


def atleast_1d(*arrays: Any) -> Any:
    """numpy.atleast_1d."""
    return _atleast(1, arrays)


def atleast_2d(*arrays: Any) -> Any:
    """numpy.atleast_2d: a 1-D array becomes one row."""
    return _atleast(2, arrays)


def atleast_3d(*arrays: Any) -> Any:
    """numpy.atleast_3d: (n,) -> (1, n, 1), (m, n) -> (m, n, 1)."""
    return _atleast(3, arrays)


def hstack(tup: Sequence[Any], *, dtype: Any = None, casting: str = "same_kind") -> Array:
    """numpy.hstack: concatenate along axis 1 (axis 0 for 1-D inputs)."""
    if dtype is None and casting == "same_kind":
        done = mp.join_now(tup, np.hstack, {}, user_site(1))
        if done is not None:
            return done
    arrs = [atleast_1d(a) for a in tup]
    return mp.concat(arrs, axis=0 if arrs and arrs[0].ndim == 1 else 1, dtype=dtype,
                     casting=casting)


def vstack(tup: Sequence[Any], *, dtype: Any = None, casting: str = "same_kind") -> Array:
    """numpy.vstack: rows stacked (1-D inputs become rows)."""
    if dtype is None and casting == "same_kind":
        done = mp.join_now(tup, np.vstack, {}, user_site(1))
        if done is not None:
            return done
    return mp.concat([atleast_2d(a) for a in tup], axis=0, dtype=dtype, casting=casting)


def row_stack(tup: Sequence[Any], *, dtype: Any = None, casting: str = "same_kind") -> Array:
    """numpy.row_stack: vstack, with NumPy 2's DeprecationWarning at the caller's line (older
    published programs use it; it raised AttributeError here)."""
    warnings.warn("`row_stack` alias is deprecated. Use `np.vstack` directly.", DeprecationWarning,
                  stacklevel=2)
    return vstack(tup, dtype=dtype, casting=casting)


def dstack(tup: Sequence[Any]) -> Array:
    """numpy.dstack: concatenate along axis 2 after atleast_3d."""
    return mp.concat([atleast_3d(a) for a in tup], axis=2)


def column_stack(tup: Sequence[Any]) -> Array:
    """numpy.column_stack: 1-D inputs become columns."""
    arrs = [_array(a) for a in tup]
    return mp.concat([mp.reshape(a, (-1, 1)) if a.ndim < 2 else a for a in arrs], axis=1)


def diagonal(a: Any, offset: int = 0, axis1: int = 0, axis2: int = 1) -> Array:
    """numpy.diagonal: the diagonal of the (axis1, axis2) planes, appended as the last axis."""
    v = _array(a)
    if v.ndim < 2:
        raise _bind.fail(ValueError, "diag requires an array of at least two dimensions",
                         user_site(1))  # NumPy's text (trace's too)
    return lc.diagonal(mp.moveaxis(v, [axis1, axis2], [-2, -1]), offset=offset)


def trace(a: Any, offset: int = 0, axis1: int = 0, axis2: int = 1, dtype: Any = None,
          out: Any = None) -> Array:
    """numpy.trace: the sum of numpy.diagonal (NumPy's trace at the line for a small computed
    `a`: lazyarray/host_now.py)."""
    if out is None:
        done = host_now.call(np.trace, (a, offset, axis1, axis2, dtype), {}, user_site(1))
        if done is not None:
            return done
    result = sum_(diagonal(a, offset, axis1, axis2), axis=-1, dtype=dtype)
    if out is None:
        return result
    return into(out, result, np.trace, (a,), {"offset": offset, "axis1": axis1, "axis2": axis2,
                                              "dtype": dtype}, user_site(1))


def diag(v: Any, k: int = 0) -> Array:
    """numpy.diag: the k-th diagonal of a 2-D array, or a 2-D array with v on its k-th diagonal."""
    x = _array(v)
    k = index_arg(k, "k")
    if x.ndim == 2:
        return lc.diagonal(x, offset=k)
    if x.ndim != 1:
        raise ValueError("Input must be 1- or 2-d.")

    n, rows = x.shape[0] + abs(k), np.arange(x.shape[0])
    return zeros((n, n), dtype=x.dtype).at[rows + max(-k, 0), rows + max(k, 0)].set(x)


def outer(a: Any, b: Any, out: Any = None) -> Array:
    """numpy.outer: inputs flattened; `out` takes NumPy's rules (lazyarray/outputs.py). Of
    computed values in an index loop, at once (eager.outer_now). The flattened inputs are plain
    reshapes, not ravel's views: the product is a copy, no write can reach them."""
    if out is None and _OUTER_NOW is not None:  # float vectors: in C (_trace.c outer_now_c)
        done = _OUTER_NOW(a, b)
        if done is not None:
            return done
    if out is None and type(a) is Array and type(b) is Array and _EAGER_LIMIT[0]:
        done = _eager_outer(a._node, b._node, user_site(1))
        if done is not None:
            return Array(done)
    x, y = _array(a)._node, _array(b)._node
    site = user_site(1)
    result = lc.outer(Array(reshape_node(x, (x.size,), site)),
                      Array(reshape_node(y, (y.size,), site)))
    if out is None:
        return result
    return into(out, result, np.outer, (a, b), {}, user_site(1))


def inner(a: Any, b: Any) -> Array:
    """numpy.inner: sums over the last axes (a product with a 0-d operand)."""
    x, y = _array(a), _array(b)
    if x.ndim == 0 or y.ndim == 0:
        return x * y
    if x.shape[-1] != y.shape[-1]:  # NumPy's text: np.dot's, of b with its last two axes swapped
        ys = y.shape
        _check_aligned(x.shape, ys if len(ys) < 2 else ys[:-2] + (ys[-1], ys[-2]))
    if x.ndim > 2 or y.ndim > 2:
        done = _dot_nd(x, y, "inner")
        if done is not None:
            return done
    return scalar_result(tensordot(x, y, axes=([-1], [-1]))._node)  # (tensordot's 0-d: an array)


_LINALG: list[Any] = []
_DOT = _named("matmul", "dot")  # np.dot's matmul, its report naming 'dot' as NumPy's


def _linalg() -> Any:
    """lazyarray.linalg (which imports this module's neighbours: imported on first use)."""
    if not _LINALG:
        _LINALG.append(linalg)
    return _LINALG[0]


def dot(a: Any, b: Any, out: Any = None) -> Array:
    """numpy.dot: matmul for 1-D/2-D, a product for 0-d, the last axis of a with the second
    to last of b otherwise. `out` takes NumPy's rules (lazyarray/outputs.py)."""
    if out is None and _COMPUTED_DOT is not None:  # computed vectors, matrices: in C, at once
        done = _COMPUTED_DOT(a, b)
        if done is not None:
            return done
    if (out is None and type(a) is Array and type(b) is Array and 0 < len(a.shape) <= 2
            and 0 < len(b.shape) <= 2):
        # an index loop's `dot(A[i, :j], A[j, :j])`: matmul, with nothing more to decide (and
        # no import statement: ~0.5 us a call); two vectors at once with np.dot's own bits
        # (eager.vector_dot: they differ from matmul's for a vector of negative stride)
        if a.shape[-1] != b.shape[0]:  # (b is 1-D or 2-D: its dim 0; no call on the hot path)
            _check_aligned(a.shape, b.shape)
        if a.dtype == b.dtype and _EAGER_LIMIT[0]:
            product = _eager_vector_dot if len(a.shape) == 1 == len(b.shape) else _eager_product
            done = product(a._node, b._node, user_site(1), np.dot)
            if done is not None:
                return Array(done)
        return _linalg().matmul_general(a, b, user_site(1), _DOT)  # (NumPy's report: 'dot')

    if out is not None:
        return into(out, dot(a, b), np.dot, (a, b), {}, user_site(1))
    x, y = _array(a), _array(b)
    if x.ndim == 0 or y.ndim == 0:
        return x * y
    _check_aligned(x.shape, y.shape)
    if x.ndim > 2 or y.ndim > 2:
        done = _dot_nd(x, y)
        if done is not None:
            return done
    if y.ndim <= 2:
        return linalg.matmul_general(x, y, user_site(1), _DOT)
    return tensordot(x, y, axes=([-1], [-2]))


def _dot_nd(x: Array, y: Array, function: str = "dot") -> Array | None:
    """np.dot (np.inner) past 2-D of floats: NumPy's loop, one BLAS dot per output element
    (probe57: the composition's gemv differed in the last bits, `np.dot(rgb, [0.299, 0.587,
    0.114])` on 65 of 320 pixels); None for the others (exact integer sums, float16's float32
    sums) and while la.grad traces (which differentiates the composition)."""
    dt = np.result_type(x.dtype, y.dtype)
    if dt.kind not in "fc" or dt == np.float16 or differentiating():
        return None
    site = user_site(2)
    if function == "inner":
        shape = x.shape[:-1] + y.shape[:-1]
    else:
        shape = x.shape[:-1] + y.shape[:-2] + y.shape[-1:] if y.ndim > 1 else x.shape[:-1]
    xs = [_bind.cast(v._node, dt, site) if v.dtype != dt else v._node for v in (x, y)]
    return Array(_bind.primitive(_DOT_ND, tuple(xs), (function,), shape, dt, site))


def _check_aligned(a: tuple[int, ...], b: tuple[int, ...]) -> None:
    """np.dot's own mismatch text (tutorials print it), not matmul's gufunc one."""
    k = max(len(b) - 2, 0)
    if a[-1] != b[k]:
        raise _bind.fail(ValueError, f"shapes {_bind.numpy_shape_text(a)} and "
                         f"{_bind.numpy_shape_text(b)} not aligned: {a[-1]} (dim {len(a) - 1}) != "
                         f"{b[k]} (dim {k})", user_site(2))


lc.NUMPY_DOT.append(dot)  # (linalg.norm's way: sqrt(dot(x, x)), as numpy.linalg.norm)


def vdot(a: Any, b: Any) -> Array:
    """numpy.vdot: flattened dot product, the first argument conjugated."""
    if (type(a) is Array and type(b) is Array and len(a.shape) == 1 == len(b.shape)
            and a.dtype == b.dtype and a.dtype.kind in "fc" and _EAGER_LIMIT[0]):
        # computed vectors at once: np.vdot's own bits (a vector of negative stride is summed
        # in its plain loop there, where np.dot copies it for BLAS)
        done = _eager_vector_dot(a._node, b._node, user_site(1), np.vdot)
        if done is not None:
            return Array(done)
    x, y = mp.ravel(_array(a)), mp.ravel(_array(b))
    if x.shape != y.shape:
        raise ValueError(f"cannot reshape array of size {y.size} into shape ({x.size},)")
    if x.dtype.kind == "c":
        x = conj(x)
    kind = np.result_type(x.dtype, y.dtype)
    if kind == np.float16:  # NumPy's half dot: float32, one rounding
        return _dot.astype(vdot(x.astype(np.float32), y.astype(np.float32)), np.float16)
    if kind.kind in "fc":  # NumPy's float/complex vdot is BLAS's dot (zdotc: conj(x) by zdotu
        return _dot.matmul(x, y)  # has its bits), flags unread; a sum of products rounds otherwise
    prod = _dot.multiply(x, y)  # NumPy's dot loop: no floating-point flags checked
    return _dot.sum(prod, dtype=prod.dtype)


def kron(a: Any, b: Any) -> Array:
    """numpy.kron: block products, as a broadcast multiply and a reshape."""
    x, y = _array(a), _array(b)
    nd = max(x.ndim, y.ndim)
    xs = (1,) * (nd - x.ndim) + x.shape
    ys = (1,) * (nd - y.ndim) + y.shape
    xe = mp.reshape(x, tuple(s for d in xs for s in (d, 1)))
    ye = mp.reshape(y, tuple(s for d in ys for s in (1, d)))
    return mp.reshape(xe * ye, tuple(p * q for p, q in zip(xs, ys)))


def append(arr: Any, values: Any, axis: int | None = None) -> Array:
    """numpy.append: concatenate, flattening both when axis is None."""
    if axis is None and _EAGER_LIMIT[0]:
        done = _append_now(arr, values)
        if done is not None:
            return done
    x, v = _array(arr), _array(values)
    if axis is None:
        return mp.concat([mp.ravel(x), mp.ravel(v)], axis=0)
    return mp.concat([x, v], axis=axis)


def _host_data(x: Any) -> np.ndarray | None:
    """The host buffer of an Array that is one (a leaf: the user's copy or a computed buffer)."""
    if type(x) is not Array or x._node.op is not _INPUT:
        return None
    data = x._node.data
    return data if type(data) is np.ndarray else None


def _append_now(arr: Any, values: Any) -> Array | None:
    """`x = np.append(x, v)` of a host buffer and a host value (a Python number, a list of them,
    a NumPy array or another buffer), at-once rule on: NumPy's append, a new buffer. A growing
    list in a loop: ~2 us a step, where the two ravels and the at-once concat took ~18."""
    data = _host_data(arr)
    if data is None:
        return None
    if type(values) in (int, float, bool, complex, np.ndarray):
        other = values
    elif type(values) in (list, tuple) and all(type(v) in (int, float, bool) for v in values):
        other = values
    else:
        other = _host_data(values)
        if other is None:
            return None
    try:
        out = np.append(data, other)
    except Exception:
        return None  # (the lazy path raises it, naming the user's line)
    if out.dtype not in _SUPPORTED:
        return None
    return Array(_eager_buffer(out, user_site(2)))


def unique(ar: Any, return_index: bool = False, return_inverse: bool = False,
           return_counts: bool = False, axis: int | None = None, *,
           equal_nan: bool = True, sorted: bool = True) -> Any:  # noqa: A002
    """numpy.unique: evaluates `ar` (the result's length is data) and returns Arrays (NumPy's
    own, `sorted=False` order included)."""
    host = np.asarray(_array(ar))
    out = np.unique(host, return_index=return_index, return_inverse=return_inverse,
                    return_counts=return_counts, axis=axis, equal_nan=equal_nan, sorted=sorted)
    if isinstance(out, tuple):
        return tuple(asarray(o) for o in out)
    return asarray(out) if not isinstance(out, _A) else out


def argwhere(a: Any) -> Array:
    """numpy.argwhere: evaluates `a`; the indices of its non-zero elements, one row each.
    NumPy's argwhere of the host value (its rows, a 0-d input's no columns), int64 on a's
    device: a stack of nonzero's columns cost ~10 us a call on 20 elements, NumPy's 2.7."""
    v = _array(a)
    return _host_leaf(np.argwhere(np.asarray(v)).astype(np.int64, copy=False), user_site(1),
                      v.device)


def flatnonzero(a: Any) -> Array:
    """numpy.flatnonzero: evaluates `a`; the flat indices of its non-zero elements (NumPy's, of
    the host value: a raveled second handle of a pending `a` took evaluation's Python path)."""
    v = _array(a)
    return _host_leaf(np.flatnonzero(np.asarray(v)).astype(np.int64, copy=False), user_site(1),
                      v.device)
