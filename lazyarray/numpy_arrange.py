"""NumPy's index builders and rearrangements that were missing: `identity`, `tri`, `indices`,
`tril_indices`/`triu_indices`(`_from`), `diag_indices`(`_from`), `geomspace`/`logspace`,
`unravel_index`/`ravel_multi_index`, `array_split`/`hsplit`/`vsplit`/`dsplit`, `pad`, `delete`,
`diagflat`, `ediff1d`, `rollaxis`, `cross`, `convolve`/`correlate`, `trapezoid`, `select`, `ix_`,
`copy` and the inspection helpers `ndim`/`shape`/`size`/`isscalar`/`iscomplexobj`/`isrealobj`.

Index patterns that depend only on shapes (pad, delete, convolve's windows) are computed on the
host with NumPy itself and applied as one lazy gather, so they are NumPy's by construction and fuse.
Functions whose result is a set of indices or values known only from arguments (`tri`, `indices`,
`tril_indices`, `logspace`) are computed eagerly, as `eye` and `linspace` are; `unravel_index` and
`ravel_multi_index` evaluate their indices (NumPy raises for an out-of-bounds one).
"""

from __future__ import annotations

import operator
import warnings
from typing import Any

import numpy as np

from . import _bind
from . import elementwise as ew
from .array import Array, scalar_result, zero_d_array
from .complex_functions import conj, imag
from .creation import check_like, array, asarray, eye, full, host_result, host_values, zeros_like
from .elementwise import asarray_operand, where
from .graph.dtypes import refuse_array
from .graph.node import user_site
from .indexing import take
from .manipulation import concat, moveaxis, split, stack
from .numpy_shapes import diag
from .linalg import cross as cross_
from .reductions import sum as sum_
from . import _dot_loops as _dot
from ._axis_args import fail_here, refuse_bool_axis


def _array(x: Any) -> Array:
    return x if isinstance(x, Array) else asarray_operand(x)


def _eager(values: Any) -> Array:
    return host_result(values)


# --- builders computed on the host -----------------------------------------------------------------
def _host_dtype(dtype: Any) -> Any:
    """A `dtype=` handed to NumPy's own builder: an Array is refused as NumPy's array is (NumPy
    reads any other object's `.dtype`: `np.tri(2, dtype=x)` of an Array was x's dtype)."""
    refuse_array(dtype)
    return dtype


def identity(n: int, dtype: Any = None, *, like: Any = None) -> Array:
    """numpy.identity: `eye(n)` (float64 unless `dtype`)."""
    check_like(like)
    return eye(n, dtype=dtype if dtype is not None else np.float64)


def tri(N: int, M: int | None = None, k: int = 0, dtype: Any = float, *,  # noqa: N803
        like: Any = None) -> Array:
    """numpy.tri: ones at and below the k-th diagonal."""
    check_like(like)
    return _eager(np.tri(N, M, k, dtype=_host_dtype(dtype)))


def indices(dimensions: Any, dtype: Any = int, sparse: bool = False) -> Any:
    """numpy.indices: a grid of indices (a tuple of broadcastable Arrays when `sparse`)."""
    out = np.indices(dimensions, dtype=_host_dtype(dtype), sparse=sparse)
    return tuple(_eager(o) for o in out) if sparse else _eager(out)


def tril_indices(n: int, k: int = 0, m: int | None = None) -> tuple[Array, ...]:
    """numpy.tril_indices."""
    return tuple(_eager(i) for i in np.tril_indices(n, k, m))


def triu_indices(n: int, k: int = 0, m: int | None = None) -> tuple[Array, ...]:
    """numpy.triu_indices."""
    return tuple(_eager(i) for i in np.triu_indices(n, k, m))


def tril_indices_from(arr: Any, k: int = 0) -> tuple[Array, ...]:
    """numpy.tril_indices_from: of a 2-D array's shape."""
    return tuple(_eager(i) for i in np.tril_indices_from(np.empty(_array(arr).shape, bool), k))


def triu_indices_from(arr: Any, k: int = 0) -> tuple[Array, ...]:
    """numpy.triu_indices_from: of a 2-D array's shape."""
    return tuple(_eager(i) for i in np.triu_indices_from(np.empty(_array(arr).shape, bool), k))


def diag_indices(n: int, ndim: int = 2) -> tuple[Array, ...]:
    """numpy.diag_indices."""
    return tuple(_eager(i) for i in np.diag_indices(n, ndim))


def diag_indices_from(arr: Any) -> tuple[Array, ...]:
    """numpy.diag_indices_from: of an array whose axes all have one length."""
    return tuple(_eager(i) for i in np.diag_indices_from(np.empty(_array(arr).shape, bool)))


def logspace(start: Any, stop: Any, num: int = 50, endpoint: bool = True, base: Any = 10.0,
             dtype: Any = None, axis: int = 0) -> Array:
    """numpy.logspace (computed on the host, as linspace)."""
    start, stop, num, base = host_values(start, stop, num, base)
    return _eager(np.logspace(start, stop, num, endpoint, base, _host_dtype(dtype), axis))


def geomspace(start: Any, stop: Any, num: int = 50, endpoint: bool = True, dtype: Any = None,
              axis: int = 0) -> Array:
    """numpy.geomspace (computed on the host, as linspace)."""
    start, stop, num = host_values(start, stop, num)
    return _eager(np.geomspace(start, stop, num, endpoint, _host_dtype(dtype), axis))


def unravel_index(indices: Any, shape: Any, order: str = "C") -> tuple[Array, ...]:
    """numpy.unravel_index; evaluates `indices` (an out-of-bounds index raises, as NumPy)."""
    return tuple(_eager(i) for i in np.unravel_index(np.asarray(indices), shape, order))


def ravel_multi_index(multi_index: Any, dims: Any, mode: Any = "raise", order: str = "C") -> Array:
    """numpy.ravel_multi_index; evaluates the indices (mode='raise' checks them, as NumPy)."""
    return _eager(np.ravel_multi_index(tuple(np.asarray(i) for i in multi_index), dims, mode,
                                       order))


def ix_(*args: Any) -> tuple[Array, ...]:
    """numpy.ix_: 1-D index arrays reshaped to broadcast against each other (a bool one is its
    nonzero indices, which evaluates it)."""
    out = []
    for k, a in enumerate(args):
        v = _array(a)
        if v.ndim != 1:
            raise ValueError("Cross index must be 1 dimensional")
        if v.dtype.kind == "b":
            v = _eager(np.nonzero(np.asarray(v))[0])
        shape = [1] * len(args)
        shape[k] = v.shape[0]
        out.append(v.reshape(tuple(shape)))
    return tuple(out)


# --- rearrangements: host index patterns, one lazy gather ------------------------------------------
def _gather(v: Array, idx: np.ndarray, axis: int) -> Array:
    if idx.size == v.shape[axis] and np.array_equal(idx, np.arange(v.shape[axis])):
        return Array(v._node)  # (NumPy's copy: v itself, or delete's flattened view of the
        # input, was an alias that writes into the result wrote through, fuzz42)
    return take(v, asarray(idx.astype(np.int64)), axis=axis)


def array_split(ary: Any, indices_or_sections: Any, axis: int = 0) -> list[Array]:
    """numpy.array_split: like split, but the sections may differ in length by one."""
    v = _array(ary)
    ax = _bind.normalize_axis(operator.index(axis), v.ndim, user_site(1))
    n = v.shape[ax]
    try:  # NumPy: a sequence (len() works) is split points, anything else int(count)
        len(indices_or_sections)
    except TypeError:
        sections = int(indices_or_sections)
        if sections <= 0:
            raise fail_here(ValueError, "number sections must be larger than 0.")
        each, extra = divmod(n, sections)
        sizes = [0] + extra * [each + 1] + (sections - extra) * [each]
        cuts = list(np.cumsum(sizes))
    else:
        cuts = [0, *[operator.index(i) for i in indices_or_sections], n]
    out = []
    for lo, hi in zip(cuts[:-1], cuts[1:]):
        index = [slice(None)] * v.ndim
        index[ax] = slice(int(lo), int(hi))
        out.append(v[tuple(index)])
    return out


def _split_along(ary: Any, indices_or_sections: Any, axis: int, least: int, name: str) -> list:
    v = _array(ary)
    if v.ndim < least:
        raise ValueError(f"{name} only works on arrays of {least} or more dimensions")
    return split(v, indices_or_sections, axis=axis)


def hsplit(ary: Any, indices_or_sections: Any) -> list[Array]:
    """numpy.hsplit: split along axis 1 (axis 0 of a 1-D array)."""
    v = _array(ary)
    if v.ndim == 0:
        raise ValueError("hsplit only works on arrays of 1 or more dimensions")
    return _split_along(v, indices_or_sections, 1 if v.ndim > 1 else 0, 1, "hsplit")


def vsplit(ary: Any, indices_or_sections: Any) -> list[Array]:
    """numpy.vsplit: split along axis 0 of an array of 2 or more dimensions."""
    return _split_along(ary, indices_or_sections, 0, 2, "vsplit")


def dsplit(ary: Any, indices_or_sections: Any) -> list[Array]:
    """numpy.dsplit: split along axis 2 of an array of 3 or more dimensions."""
    return _split_along(ary, indices_or_sections, 2, 3, "dsplit")


_PAD_GATHERS = ("edge", "reflect", "symmetric", "wrap")


def pad(array: Any, pad_width: Any, mode: Any = "constant", **kwargs: Any) -> Array:
    """numpy.pad. 'constant' (with `constant_values`, cast to the array's dtype) concatenates
    constant blocks; 'edge', 'reflect', 'symmetric' and 'wrap' gather with the index pattern
    NumPy's own pad gives for `arange(n)` along each axis (reflect_type 'even'); 'empty' pads with
    zeros. Other modes run NumPy's pad on the evaluated array."""
    v = _array(array)
    if np.asarray(pad_width).dtype.kind != "i":  # NumPy's check (2.5 and True were widths here)
        raise fail_here(TypeError, "`pad_width` must be of integral type.")
    widths = np.broadcast_to(np.asarray(pad_width, dtype=np.int64), (v.ndim, 2))
    if (widths < 0).any():
        raise ValueError("index can't contain negative values")
    if mode == "constant" or mode == "empty":
        values = kwargs.pop("constant_values", 0) if mode == "constant" else 0
        if kwargs:
            raise ValueError(f"unsupported keyword arguments for mode '{mode}': {set(kwargs)}")
        return _copied(_pad_constant(v, widths, values), v)
    if mode in _PAD_GATHERS and kwargs.get("reflect_type", "even") == "even":
        kwargs.pop("reflect_type", None)
        if kwargs:
            raise ValueError(f"unsupported keyword arguments for mode '{mode}': {set(kwargs)}")
        for ax, (before, after) in enumerate(widths):
            if before or after:
                if v.shape[ax] == 0:
                    raise ValueError(f"can't extend empty axis {ax} using modes other than "
                                     "'constant' or 'empty'")
                v = _gather(v, np.pad(np.arange(v.shape[ax]), (before, after), mode=mode), ax)
        return _copied(v, array)
    return _eager(np.pad(np.asarray(v), pad_width, mode, **kwargs))


def _copied(out: Array, given: Any) -> Array:
    """NumPy's pad copies, also with no width: the given Array itself was an alias, so writes
    into the result wrote it (fuzz42)."""
    return Array(out._node) if out is given else out


def _pad_constant(v: Array, widths: np.ndarray, values: Any) -> Array:
    sides = _numpy_pairs(values, v.ndim)
    for ax, (before, after) in enumerate(widths):
        parts = []
        for width, value in ((before, sides[ax][0]), (after, sides[ax][1])):
            cell = _numpy_cell(value, v.dtype, int(width))
            shape = v.shape[:ax] + (int(width),) + v.shape[ax + 1:]
            parts.append(full(shape, _scalar(cell[0]), dtype=v.dtype) if width else None)
        if parts[0] is not None or parts[1] is not None:
            v = concat([p for p in (parts[0], v, parts[1]) if p is not None], axis=ax)
    return v


def _numpy_pairs(values: Any, ndim: int) -> Any:
    """NumPy pad's `_as_pairs` of `constant_values`: one or two values are NumPy scalars of their
    array's dtype (written by an unsafe cast: 300 into uint8 is 44, a complex one warns), more are
    Python values (`tolist`: NumPy's OverflowError for 300, its TypeError for a complex). lazyarray
    converted every value as a Python one (probe54: `constant_values=300` raised)."""
    x = np.array(values)
    if x.ndim < 3 and x.size == 1:
        x = x.ravel()
        return ((x[0], x[0]),) * ndim
    if x.ndim < 3 and x.size == 2 and x.shape != (2, 1):
        x = x.ravel()
        return ((x[0], x[1]),) * ndim
    return np.broadcast_to(x, (ndim, 2)).tolist()


def _numpy_cell(value: Any, dtype: np.dtype, width: int) -> np.ndarray:
    """`value` written as NumPy pad writes it, into a slice of `width` (or no) elements: its cast,
    errors and warnings (also for an empty side, as NumPy's)."""
    cell = np.empty(1 if width else 0, dtype)
    cell[...] = value
    return cell if width else np.zeros(1, dtype)


def _scalar(value: Any) -> Any:
    return value.item() if isinstance(value, (np.generic, np.ndarray)) else value


def delete(arr: Any, obj: Any, axis: int | None = None) -> Array:
    """numpy.delete: the entries NumPy's delete keeps of `arange(n)`, gathered (`obj` is indices,
    a slice or a bool mask; axis=None works on the flattened array)."""
    v = _array(arr)
    if axis is None:
        v, axis = v.reshape((-1,)), 0
    ax = _bind.normalize_axis(operator.index(axis), v.ndim, user_site(1))
    if isinstance(obj, Array):
        obj = np.asarray(obj)
    return _gather(v, np.delete(np.arange(v.shape[ax]), obj), ax)


def diagflat(v: Any, k: int = 0) -> Array:
    """numpy.diagflat: the flattened input on the k-th diagonal of a 2-D array."""
    return diag(_array(v).reshape((-1,)), k)


def ediff1d(ary: Any, to_end: Any = None, to_begin: Any = None) -> Array:
    """numpy.ediff1d: differences of the flattened array, with optional ends (cast to its dtype,
    which must hold them safely, as NumPy)."""
    v = _array(ary).reshape((-1,))
    parts = [v[1:] - v[:-1]]
    for end, at_start in ((to_begin, True), (to_end, False)):
        if end is None:
            continue
        e = _array(end)
        if not np.can_cast(e.dtype, v.dtype, casting="same_kind"):
            raise TypeError(f"dtype of `{'to_begin' if at_start else 'to_end'}` must be "
                            f"compatible with input `ary` under the `same_kind` rule.")
        e = e.astype(v.dtype).reshape((-1,))
        parts = [e, *parts] if at_start else [*parts, e]
    return concat(parts) if len(parts) > 1 else parts[0]


def rollaxis(a: Any, axis: int, start: int = 0) -> Array:
    """numpy.rollaxis: move `axis` to before position `start`."""
    v = _array(a)
    n = v.ndim
    axis = np.lib.array_utils.normalize_axis_index(axis, n)
    if start < 0:
        start += n
    if not 0 <= start < n + 1:
        raise np.exceptions.AxisError(f"'start' arg requires {-n} <= start < {n + 1}, "
                                      f"but {start} was passed in")
    if axis < start:
        start -= 1
    return v if axis == start else moveaxis(v, axis, start)


def cross(a: Any, b: Any, axisa: int = -1, axisb: int = -1, axisc: int = -1,
          axis: int | None = None) -> Array:
    """numpy.cross of 3-vectors, and of 2-vectors with NumPy 2's DeprecationWarning (the
    static-equilibrium tutorial's `np.cross([1, 2], [3, 4])` is -2 there, an error here before)."""
    if axis is not None:
        axisa = axisb = axisc = axis
    x, y, site = _array(a), _array(b), user_site(1)
    x = moveaxis(x, _bind.normalize_axis(axisa, x.ndim, site, "axisa"), -1)  # NumPy's message
    y = moveaxis(y, _bind.normalize_axis(axisb, y.ndim, site, "axisb"), -1)
    if x.shape[-1] not in (2, 3) or y.shape[-1] not in (2, 3):  # NumPy's text
        raise ValueError("incompatible dimensions for cross product\n(dimension must be 2 or 3)")
    if x.shape[-1] == 3 and y.shape[-1] == 3:
        out = cross_(x, y, axis=-1)
    else:
        warnings.warn_explicit("Arrays of 2-dimensional vectors are deprecated. Use arrays of "
                               "3-dimensional vectors instead. (deprecated in NumPy 2.0)",
                               DeprecationWarning, *(site or ("<unknown>", 0)))
        out = _cross_with_2_vectors(x, y)
    if out.ndim < 2 or out.shape[-1] != 3 or x.shape[-1] == y.shape[-1] == 2:
        return zero_d_array(out)  # two 2-vectors: NumPy's 0-d array, not its scalar (probe55)
    return moveaxis(out, -1, _bind.normalize_axis(axisc, out.ndim, site, "axisc"))


def _cross_with_2_vectors(x: Array, y: Array) -> Array:
    """NumPy's formulas where a 2-vector's third component is 0: `-(a0 * b2)`, not
    `0 * b0 - a0 * b2` (the sign of a zero, and no `0 * inf`); two 2-vectors give the z part."""
    a = [x[..., i] for i in range(x.shape[-1])]
    b = [y[..., i] for i in range(y.shape[-1])]
    z = a[0] * b[1] - a[1] * b[0]
    if len(a) == len(b) == 2:
        return z
    if len(a) == 2:
        parts = [a[1] * b[2], ew.negative(a[0] * b[2]), z]
    else:
        parts = [ew.negative(a[2] * b[1]), a[2] * b[0], z]
    return stack(parts, axis=-1)


def _windows(a: Array, m: int, lead: int, trail: int) -> Array:
    """Rows of m consecutive entries of `a` padded with `lead` zeros before, `trail` after."""
    n = a.shape[0]
    padded = _pad_constant(a, np.array([[lead, trail]]), 0)
    count = n + lead + trail - m + 1
    starts = np.arange(count)[:, None] + np.arange(m)[None, :]
    return _gather(padded, starts.reshape(-1), 0).reshape((count, m))


def correlate(a: Any, v: Any, mode: str = "valid") -> Array:
    """numpy.correlate of 1-D arrays: sum_k a[n + k] * conj(v[k]), 'valid'/'same'/'full'; each
    output is one row of a window matrix times v (a matmul)."""
    x, y = _array(a), _array(v)
    if x.ndim != 1 or y.ndim != 1:
        raise ValueError("object too deep for desired array")
    if x.shape[0] == 0 or y.shape[0] == 0:  # NumPy 2's correlate text
        raise ValueError(f"{'first' if x.shape[0] == 0 else 'second'} array argument cannot be empty")
    swap = y.shape[0] > x.shape[0]
    if swap:  # NumPy: correlate(a, v) = reversed conj correlate(v, a)
        x, y = y, x
    n, m = x.shape[0], y.shape[0]
    lead, trail = {"valid": (0, 0), "same": (m // 2, m - 1 - m // 2),
                   "full": (m - 1, m - 1)}.get(mode, (None, None))
    if lead is None:
        raise ValueError(f"mode must be one of 'valid', 'same', or 'full' (got {mode!r})")
    dt = np.result_type(x.dtype, y.dtype)
    if dt == np.float16:  # NumPy's half dot loop: float32 products and sums, one rounding
        return _dot.astype(correlate(x.astype(np.float32), y.astype(np.float32), mode)
                           if not swap else correlate(y.astype(np.float32), x.astype(np.float32),
                                                      mode), dt)
    x, y = x.astype(dt), y.astype(dt)
    if swap:
        y = conj(y) if dt.kind == "c" else y
        out = _window_dot(x, y, lead, trail)
        out = out[::-1]  # (NumPy's result is a new C-contiguous array, not a reversed view:
        # its ravel and ascontiguousarray are views whose writes reach it, fuzz53/fuzz54)
        return conj(out) if dt.kind == "c" else array(out)
    return _window_dot(x, conj(y) if dt.kind == "c" else y, lead, trail)


SHIFTED_MAX_TAPS = 64  # a longer y: the window matrix and one matmul


def _shifted_dot(x: Array, y: Array) -> Array:
    """The full-overlap windows of x dotted with y, sum_k x[k:k + rows] * y[k] (k ascending): one
    fused kernel reading x, where the window matrix (rows x m values, and its host index array)
    was gathered, stored and read by a matmul (convolve_grid's 200,000 x 25: 40 MB each)."""
    rows, acc = x.shape[0] - y.shape[0] + 1, None
    for k in range(y.shape[0]):  # (NumPy's dot loop: no floating-point flags checked)
        term = _dot.multiply(x[k:k + rows], y[k])
        acc = term if acc is None else _dot.add(acc, term)
    return acc


def _window_dot(x: Array, y: Array, lead: int, trail: int) -> Array:
    """Each window of x (padded with lead/trail zeros) dotted with y. NumPy's edge outputs
    sum only the overlapping terms: a padding zero times an inf or NaN in y would be NaN there
    (convolve([1, 2, 3], [1, nan], 'same')[0] is 1.0), so float edge rows sum their overlap alone
    and the interior rows (full overlap) are one matmul, or for a short y (at most
    SHIFTED_MAX_TAPS) a sum of shifted slices; the edges then gather only their own windows."""
    m = y.shape[0]
    if m <= SHIFTED_MAX_TAPS and x.dtype.kind in "fciu":
        return _shifted_window_dot(x, y, lead, trail)
    windows = _windows(x, y.shape[0], lead, trail)
    if not (lead or trail) or x.dtype.kind not in "fc":
        return _dot.matmul(windows, y)  # integers and bools: no inf/NaN, zero padding is exact
    n, m, count = x.shape[0], y.shape[0], windows.shape[0]
    inside = np.arange(count)[:, None] + np.arange(m)[None, :] - lead
    inside = (inside >= 0) & (inside < n)

    def edge(rows: slice) -> Array:
        return _dot.sum(where(asarray(inside[rows]), _dot.multiply(windows[rows], y), 0),
                        axis=-1, dtype=x.dtype)

    parts = [edge(slice(0, lead))] if lead else []
    parts.append(_dot.matmul(windows[lead:count - trail], y))
    if trail:
        parts.append(edge(slice(count - trail, count)))
    return concat(parts)


def _shifted_window_dot(x: Array, y: Array, lead: int, trail: int) -> Array:
    """_window_dot with the interior by _shifted_dot; each edge from the m - 1 values of x it
    overlaps, its padding positions summed out for floats (zeros for integers: exact)."""
    n, m = x.shape[0], y.shape[0]

    def edge(part: Array, pad_lead: int, pad_trail: int) -> Array:
        windows = _windows(part, m, pad_lead, pad_trail)
        if x.dtype.kind not in "fc":
            return sum_(windows * y, axis=-1, dtype=x.dtype)
        cnt, size = windows.shape[0], part.shape[0]
        inside = np.arange(cnt)[:, None] + np.arange(m)[None, :] - pad_lead
        inside = (inside >= 0) & (inside < size)
        return _dot.sum(where(asarray(inside), _dot.multiply(windows, y), 0), axis=-1,
                        dtype=x.dtype)

    parts = [edge(x[:m - 1], lead, 0)] if lead else []
    parts.append(_shifted_dot(x, y))
    if trail:
        parts.append(edge(x[n - (m - 1):], 0, trail))
    return concat(parts) if len(parts) > 1 else parts[0]


def convolve(a: Any, v: Any, mode: str = "full") -> Array:
    """numpy.convolve of 1-D arrays: correlate with v reversed (NumPy's own definition)."""
    x, y = _array(a), _array(v)
    if x.ndim != 1 or y.ndim != 1:
        raise ValueError("object too deep for desired array")
    if x.shape[0] == 0 or y.shape[0] == 0:  # NumPy's order: a, then v, before the swap
        raise ValueError(f"{'a' if x.shape[0] == 0 else 'v'} cannot be empty")
    if y.shape[0] > x.shape[0]:
        x, y = y, x
    y = y[::-1]
    return correlate(x, conj(y) if y.dtype.kind == "c" else y, mode)


def trapezoid(y: Any, x: Any = None, dx: float = 1.0, axis: int = -1) -> Array:
    """numpy.trapezoid, NumPy's formula: sum(d * (y[1:] + y[:-1]) / 2.0) along `axis`."""
    v = _array(y)
    refuse_bool_axis(axis)  # NumPy's add.reduce refuses True
    ax = np.lib.array_utils.normalize_axis_index(axis, v.ndim)
    hi = tuple(slice(1, None) if d == ax else slice(None) for d in range(v.ndim))
    lo = tuple(slice(None, -1) if d == ax else slice(None) for d in range(v.ndim))
    if x is None:
        d = dx
    else:
        xs = _array(x)
        d = xs[1:] - xs[:-1] if xs.ndim == 1 else xs[hi] - xs[lo]
        if xs.ndim == 1:
            shape = [1] * v.ndim
            shape[ax] = d.shape[0]
            d = d.reshape(tuple(shape))
    return sum_(d * (v[hi] + v[lo]) / 2.0, axis=ax)


def select(condlist: Any, choicelist: Any, default: Any = 0) -> Array:
    """numpy.select: the choice of the first true condition, else `default`."""
    if len(condlist) != len(choicelist):
        raise ValueError("list of cases must be same length as list of conditions")
    if len(choicelist) == 0:
        raise ValueError("select with an empty condition list is not possible")
    conds = [_array(c) for c in condlist]
    for k, c in enumerate(conds):
        if c.dtype.kind != "b":
            raise TypeError(f"invalid entry {k} in condlist: should be boolean ndarray")
    choices = [c if isinstance(c, Array) else asarray(c) for c in choicelist]
    # NumPy's broadcast_arrays of the conditions, then of the choices and default, then of the
    # first of each: its texts ('shape mismatch: ... arg 0 with shape (12,) and arg 1 ...')
    np.broadcast_shapes(*(c.shape for c in conds))
    common = np.broadcast_shapes(*(c.shape for c in choices), np.shape(default))
    if common:
        np.broadcast_shapes(conds[0].shape, common)
    # (NumPy's NEP 50 rule: Python int, float and complex choices are weak, as the default:
    # `select([c], [2], -2**63)` of an int8 c... is int8 there, it was int64 here: fuzz54)
    dtype = np.result_type(*[c if type(c) in (int, float, complex) else k.dtype
                             for c, k in zip(choicelist, choices)],
                           default if type(default) in (int, float, complex)
                           else _array(default).dtype)
    for c in choicelist:  # NumPy burns each choice in by `copyto(result, choice, where=cond)`
        if type(c) in (int, float, complex):  # (same_kind), a Python one as its array (int64:
            have = np.asarray(c).dtype  # into a uint result a TypeError; silent here, fuzz57)
            if not np.can_cast(have, dtype, "same_kind"):
                raise TypeError(f"Cannot cast array data from {have!r} to {dtype!r} according "
                                "to the rule 'same_kind'")
    result = _array(default).astype(dtype)
    for c, choice in zip(reversed(conds), reversed(choices)):
        result = ew.where(c, choice.astype(dtype), result)
    return zero_d_array(result) if not result.shape else result  # (NumPy's: an array)


def copy(a: Any, order: str = "K", subok: bool = False) -> Array:
    """numpy.copy: a new Array of the value (Arrays are values: a new handle on the same node,
    laid out as NumPy's copy in `order`, result_layout.copied)."""
    return array(a, order=order)


def ndim(a: Any) -> int:
    """numpy.ndim."""
    return a.ndim if isinstance(a, Array) else np.ndim(a)


def shape(a: Any) -> tuple[int, ...]:
    """numpy.shape."""
    return a.shape if isinstance(a, Array) else np.shape(a)


def size(a: Any, axis: int | None = None) -> int:
    """numpy.size."""
    if not isinstance(a, Array):
        return np.size(a, axis)
    return a.size if axis is None else a.shape[axis]


def isscalar(element: Any) -> bool:
    """numpy.isscalar: True for NumPy's scalar as an Array stands for it (an element `A[i, j]`, a
    0-d result of an op: NumPy gives an np.float64 there), False for other Arrays (a 0-d array
    `la.asarray(np.array(2.0))` too, as NumPy's 0-d arrays)."""
    if isinstance(element, Array):
        return element._view is False and not element.shape
    return np.isscalar(element)


def iscomplexobj(x: Any) -> bool:
    """numpy.iscomplexobj: whether the dtype is complex."""
    return (x.dtype if isinstance(x, Array) else np.asarray(x).dtype).kind == "c"


def isrealobj(x: Any) -> bool:
    """numpy.isrealobj: whether the dtype is not complex."""
    return not iscomplexobj(x)


def iscomplex(x: Any) -> Array:
    """numpy.iscomplex: a nonzero imaginary part, elementwise."""
    v = _array(x)
    if v.dtype.kind == "c":
        return imag(v) != 0
    out = zeros_like(v, dtype=bool)  # (NumPy's `res[()]`: its scalar where 0-d, probe55)
    return out if v.ndim else scalar_result(out._node)


def isreal(x: Any) -> Array:
    """numpy.isreal: a zero imaginary part, elementwise (NumPy's `imag(x) == 0`: a Python
    bool for a Python number)."""
    if type(x) in (int, float, complex, bool):
        return np.isreal(x)
    return ~iscomplex(x)
