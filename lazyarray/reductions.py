"""Reductions with NumPy's axis/keepdims/dtype rules; mean, var and std are compositions that fuse."""

from __future__ import annotations

import builtins
import math
import operator
import sys
import warnings
from typing import Any

import numpy as np

from . import _axis_args, _bind
from .array import Array, scalar_result
from .graph import dtypes, get_op
from .graph.complex_ops import supports_complex
from .graph.ops_buffered import SUM_BUFFERED, buffers_reduction
from .graph.ops_unchecked import out_cast
from .graph.node import Node, user_site
from .eager import arg_now as _arg_now
from .eager import reduce_now as _reduce_now
from .evaluation import eval as _evaluate
from .outputs import into
from .creation import arange, full
from ._bind import as_node as _as_node  # (the name the API modules import from here)
from .complex_functions import imag, real
from .elementwise import astype, maximum, minimum, sqrt, square as _square, where as _where
from .manipulation import broadcast_to, concat, reshape


DUPLICATE = "duplicate value in 'axis'"  # a ufunc reduction's text for axis=(0, 0)
_UFUNC_NAME = {"max": "maximum", "min": "minimum"}  # NumPy names the ufunc that reduces
_EMPTY_TEXT = {n: f"attempt to get {n} of an empty sequence" for n in ("argmax", "argmin")}


def _reduced_shape(shape: tuple[int, ...], axes: tuple[int, ...], keepdims: bool) -> tuple[int, ...]:
    if keepdims:
        return tuple(1 if i in axes else s for i, s in enumerate(shape))
    return tuple(s for i, s in enumerate(shape) if i not in axes)


def _sum_dtype(dt: np.dtype) -> np.dtype:
    """NumPy's accumulator for sum/prod/cumsum: small ints widen to the platform int (int64/uint64)."""
    if dt.kind == "b" or (dt.kind == "i" and dt.itemsize < 8):
        return dtypes.int64
    if dt.kind == "u" and dt.itemsize < 8:
        return dtypes.uint64
    return dt


def _is_scalar_axis(axis: Any) -> bool:
    return (isinstance(axis, (int, np.integer)) and not isinstance(axis, (bool, np.bool_))
            and axis in (0, -1))


# (axis, input shape, keepdims) -> (normalized axes, result shape), for axes given as an int, a
# tuple of ints or None (an invalid axis raises before it is remembered)
_SHAPES: dict[tuple, tuple[tuple[int, ...], tuple[int, ...]]] = {}


# NumPy's order of complex numbers for these reductions: (name, node, axes, keepdims) -> Array,
# set by lazyarray/complex_ordering.py (which builds on this module)
COMPLEX_EXTREME: list = [None]
_COMPLEX_ORDERED = frozenset({"max", "min", "argmax", "argmin"})


def _reduce(name: str, x: Any, axis: Any, keepdims: bool, dtype: np.dtype | None,
            site: _bind.Site, op: Any = None) -> Array:
    op = op or get_op(name)
    if keepdims is not False and keepdims is not True:
        keepdims = _axis_args.keepdims_flag(keepdims, site)
    node = x if type(x) is Node else _as_node(x, site)  # callers that have the node pass it
    if node.ndim == 0 and _is_scalar_axis(axis):
        axis = ()  # NumPy's ufunc reductions take axis 0 or -1 of a 0-d array (mean/var do not)
    t = type(axis)  # (True == 1: a bool axis must not find an int's entry)
    memo = (axis, node.shape, bool(keepdims)) if t is int or axis is None or (
        t is tuple and builtins.all(type(a) is int for a in axis)) else None
    known = _SHAPES.get(memo) if memo is not None else None
    if known is not None:  # an index loop's `np.sum(window * w, axis=(1, 2, 3))`: ~1 us less
        axes, shape = known
    else:
        _refuse_bool_axis(axis, site)
        axes = _bind.normalize_axes(axis, node.ndim, site, repeated=DUPLICATE)
        shape = _reduced_shape(node.shape, axes, keepdims)
        if memo is not None:
            if len(_SHAPES) >= 4096:
                _SHAPES.clear()
            _SHAPES[memo] = axes, shape
    complex_order = node.dtype.kind == "c" and not supports_complex(op)
    if complex_order and (name not in _COMPLEX_ORDERED or COMPLEX_EXTREME[0] is None):
        raise _bind.fail(TypeError, f"{name} is not defined for complex inputs ({node.dtype}); the "
                         "Array API standard defines it for real numbers only", site)
    if "needs_nonempty" in op.properties and builtins.any(node.shape[a] == 0 for a in axes):
        raise _bind.fail(ValueError, _EMPTY_TEXT.get(name) or "zero-size array to reduction "
                         f"operation {_UFUNC_NAME.get(name, name)} which has no identity", site)
    if complex_order:  # NumPy's lexicographic order (lazyarray/complex_ordering.py)
        return COMPLEX_EXTREME[0](name, node, axes, bool(keepdims))
    if "index" in op.properties:  # argmax/argmin: compare in the input dtype, return int64
        out_dtype = dtypes.int64
    else:
        if dtype is not None and node.dtype != dtype:
            node = cast_warned(node, dtype, site, reduce=True)
            if op is _SUM and node.dtype.kind in "fc" and buffers_reduction(node.shape, axes):
                op = SUM_BUFFERED  # NumPy casts through its buffers: their sums in order
        out_dtype = node.dtype
    out = _bind.primitive(op, (node,), (axes, bool(keepdims)), shape, out_dtype, site)
    if node.inputs and node.op.write_back is not None or (  # a view, or a leaf of the rule:
            node.attrs is _AT_ONCE and not node.inputs):  # an index loop's value, now, directly
        done = _reduce_now(out)
        if done is not None:
            return Array(done)
    return Array(out)


_SUM = get_op("sum")
_SCALAR_OP = get_op("scalar")
_REDUCE_ALL = getattr(_bind.FAST, "reduce_all", None)  # (lazyarray/_trace.c; None: pure Python)
_NO_VALUE = np._NoValue  # NumPy's "not given" (initial=); None: no initial value, no identity
_AT_ONCE = _bind.AT_ONCE_MARK
_FLOAT64 = np.dtype(np.float64)
_FLOAT16 = np.dtype(np.float16)


def sum(a: Any, axis: Any = None, dtype: Any = None, out: Any = None,  # noqa: A001
        keepdims: bool = False, initial: Any = _NO_VALUE, where: Any = True) -> Array:
    """numpy.sum / Array API `sum`: a fused reduction; small integers accumulate as NumPy's.
    `where=` sums only where it is True, `initial=` is added (NumPy's keywords)."""
    if initial is None:
        initial = _no_initial("add", a, axis, where, user_site(1))
    if (type(a) is Array and axis is None and dtype is None and out is None and keepdims is False
            and initial is _NO_VALUE and where is True and _REDUCE_ALL is not None):
        done = _REDUCE_ALL(0, a)  # `x.sum()`'s C path: a float at-once value's total (~2 us)
        if done is not None:
            return done
    site = user_site(1)
    if out is not None:
        return into(out, sum(a, axis, _out_loop(a, dtype, out), None, keepdims, initial, where),
                    np.sum, (a,),
                    {"axis": axis, "dtype": dtype, "keepdims": keepdims, "initial": initial},
                    site)
    if where is not True and initial is _NO_VALUE:
        node = _as_node(a, site)
        want = dtypes.to_dtype(dtype) if dtype is not None else _sum_dtype(node.dtype)
        return masked_sum(node, where, axis, keepdims, want, site)
    if where is not True or initial is not _NO_VALUE:
        v = _masked("sum", a, where, site)
        folded = _fold_initial("sum", v, axis, dtype, initial, site)
        if folded is not None:
            return sum(folded, axis, dtype, keepdims=keepdims)
        total = sum(v, axis, dtype, keepdims=keepdims)
        return total if initial is _NO_VALUE else total + full(
            (), _integer_initial(initial, total.dtype, site), total.dtype)
    if axis is None and dtype is None and keepdims is False and type(a) is Array:
        node = a._node  # a float array's total (`loss`): `_reduce`'s node without its checks
        if node.dtype.kind == "f":
            axes = tuple(range(len(node.shape)))
            out = _bind.primitive(_SUM, (node,), (axes, False), (), node.dtype, site)
            if node.inputs and node.op.write_back is not None or (  # `row.sum()` at once
                    node.attrs is _AT_ONCE and not node.inputs):
                done = _reduce_now(out)
                if done is not None:
                    return Array(done)
            return Array(out)
    node = _as_node(a, site)
    want = dtypes.to_dtype(dtype) if dtype is not None else _sum_dtype(node.dtype)
    return _reduce("sum", node, axis, keepdims, want, site)


def prod(a: Any, axis: Any = None, dtype: Any = None, out: Any = None, keepdims: bool = False,
         initial: Any = _NO_VALUE, where: Any = True) -> Array:
    """numpy.prod / Array API `prod`: small integers accumulate in int64/uint64, as NumPy;
    NumPy's `where=` and `initial=` (a factor)."""
    site = user_site(1)
    if initial is None:
        initial = _no_initial("multiply", a, axis, where, site)
    if out is not None:
        return into(out, prod(a, axis, _out_loop(a, dtype, out), None, keepdims, initial, where),
                    np.prod, (a,),
                    {"axis": axis, "dtype": dtype, "keepdims": keepdims, "initial": initial},
                    site)
    if where is not True or initial is not _NO_VALUE:
        v = _masked("prod", a, where, site)
        folded = _fold_initial("prod", v, axis, dtype, initial, site)
        if folded is not None:
            return prod(folded, axis, dtype, keepdims=keepdims)
        total = prod(v, axis, dtype, keepdims=keepdims)
        return total if initial is _NO_VALUE else total * full(
            (), _integer_initial(initial, total.dtype, site), total.dtype)
    node = _as_node(a, site)
    want = dtypes.to_dtype(dtype) if dtype is not None else _sum_dtype(node.dtype)
    return _reduce("prod", node, axis, keepdims, want, site)


def max(a: Any, axis: Any = None, out: Any = None, keepdims: bool = False,  # noqa: A001
        initial: Any = _NO_VALUE, where: Any = True) -> Array:
    """numpy.max / Array API `max`: a fused reduction; NaN propagates. NumPy's `initial=` takes
    part (an empty slice gives it) and `where=` needs it."""
    if initial is None:  # (NumPy's: no initial)
        initial = _NO_VALUE
    if out is not None:
        return into(out, max(_first_through_out(a, axis, out, initial), axis, None, keepdims,
                              initial, where),
                    np.max, (a,), {"axis": axis, "keepdims": keepdims, "initial": initial},
                    user_site(1))
    if where is not True or initial is not _NO_VALUE:
        return _extreme("max", a, axis, keepdims, initial, where, user_site(1))
    if type(a) is Array and axis is None and keepdims is False and _REDUCE_ALL is not None:
        done = _REDUCE_ALL(2, a)  # `x.max()`'s C path
        if done is not None:
            return done
    return _reduce("max", a, axis, keepdims, None, user_site(1))


def min(a: Any, axis: Any = None, out: Any = None, keepdims: bool = False,  # noqa: A001
        initial: Any = _NO_VALUE, where: Any = True) -> Array:
    """numpy.min / Array API `min`: a fused reduction; NaN propagates; NumPy's `initial=` and
    `where=` as `max`'s."""
    if initial is None:  # (NumPy's: no initial)
        initial = _NO_VALUE
    if out is not None:
        return into(out, min(_first_through_out(a, axis, out, initial), axis, None, keepdims,
                              initial, where),
                    np.min, (a,), {"axis": axis, "keepdims": keepdims, "initial": initial},
                    user_site(1))
    if where is not True or initial is not _NO_VALUE:
        return _extreme("min", a, axis, keepdims, initial, where, user_site(1))
    if type(a) is Array and axis is None and keepdims is False and _REDUCE_ALL is not None:
        done = _REDUCE_ALL(1, a)  # `x.min()`'s C path
        if done is not None:
            return done
    return _reduce("min", a, axis, keepdims, None, user_site(1))


def _no_initial(ufunc: str, a: Any, axis: Any, where: Any, site: _bind.Site) -> Any:
    """`initial=None`: NumPy's reduction starts from each slice's first element (no identity),
    so `where=` is its ValueError and an empty slice its zero-size one; else it is no initial
    (`np.sum(a, initial=None)` was NaN for floats and a TypeError for ints, fuzz56)."""
    if where is not True:
        raise _bind.fail(ValueError, f"reduction operation '{ufunc}' does not have an identity, "
                         "so to use a where mask one has to specify 'initial'", site)
    node = _as_node(a, site)
    if node.ndim == 0 and _is_scalar_axis(axis):
        return _NO_VALUE
    axes = _bind.normalize_axes(axis, node.ndim, site, repeated=DUPLICATE)
    if builtins.any(node.shape[ax] == 0 for ax in axes):
        raise _bind.fail(ValueError, f"zero-size array to reduction operation {ufunc} which has "
                         "no identity", site)
    return _NO_VALUE


def _integer_initial(initial: Any, dtype: np.dtype, site: _bind.Site) -> Any:
    """A float `initial` of an integer reduction as NumPy takes it: a Python float (and, into a
    signed loop, a NumPy float) through Python's int (inf: OverflowError, NaN: ValueError,
    truncated) and then a C long, so `np.sum(ints, initial=np.inf)` raises
    where a cast gave INT_MIN and a RuntimeWarning, and `np.max(int8s, initial=1000.5)` is the
    int's out-of-bounds error (it wrapped; fuzz56). A NumPy float into an unsigned loop is cast."""
    if not (dtype.kind in "iu" and type(initial) is float or dtype.kind == "i"
            and isinstance(initial, np.floating)):
        return initial
    try:
        value = int(initial)
    except (OverflowError, ValueError) as error:
        raise _bind.fail(type(error), str(error), site) from None
    if not -(1 << 63) <= value < (1 << 64 if dtype.kind == "u" and dtype.itemsize >= 4 else
                                  1 << 63):  # (NumPy's uint32/uint64: a C unsigned long)
        raise _bind.fail(OverflowError, "Python int too large to convert to C long", site)
    return value


def _fold_initial(name: str, x: Any, axis: Any, dtype: Any, initial: Any, site: _bind.Site
                  ) -> Array | None:
    """x with a float `initial` folded into the first element of each slice, where NumPy's fold
    starts from it: a product always (multiply.reduce runs in order from `initial`), a sum over
    leading axes only (over the last axis NumPy adds `initial` to the pairwise sum, as `total +
    initial`). Else None. Added at the end instead, the last bits differed (fuzz42's sweep:
    `np.prod(A, axis=(0, -1), initial=5)`, `np.sum(A, axis=0, initial=0.1)`)."""
    if initial is _NO_VALUE:
        return None
    node = x if type(x) is Node else _as_node(x, site)
    want = dtypes.to_dtype(dtype) if dtype is not None else _sum_dtype(node.dtype)
    axes = _bind.normalize_axes(axis, node.ndim, site, repeated=DUPLICATE)
    if want.kind not in "fc" or not axes or 0 in [node.shape[a] for a in axes] or (
            name == "sum" and node.ndim - 1 in axes):
        return None
    first = None
    for a in axes:
        at = arange(node.shape[a]).reshape(tuple(-1 if d == a else 1 for d in range(node.ndim)))
        first = at == 0 if first is None else first & (at == 0)
    v = astype(Array(node), want)
    step = v + full((), initial, want) if name == "sum" else v * full((), initial, want)
    return _where(first, step, v)


def _first_through_out(x: Any, axis: Any, out: Any, initial: Any) -> Any:
    """x as NumPy's max/min into `out` reads it: in the loop of x's and out's dtypes, each
    slice's first element cast through out's dtype first (NumPy copies it into `out` to start a
    reduction with no identity). `np.max(int16 [-1, 5], out=uint8)` is 255 and `np.min(uint64
    [2**64 - 1, 0], out=int8)` -1; lazyarray gave 5 and 0 (fuzz49, at-once seed 1700513)."""
    out_dtype = getattr(out, "dtype", None)
    node = _as_node(x, None)
    if out_dtype is None or initial is not _NO_VALUE or np.can_cast(node.dtype, out_dtype):
        return x
    loop = np.result_type(node.dtype, out_dtype)
    v = Array(node)
    axes = _bind.normalize_axes(axis, node.ndim, None, repeated=DUPLICATE) if node.ndim else ()
    first = None
    for a in axes:
        at = arange(node.shape[a]).reshape(tuple(-1 if d == a else 1 for d in range(node.ndim)))
        first = at == 0 if first is None else first & (at == 0)
    through = astype(astype(v, out_dtype), loop)
    return through if first is None else _where(first, through, astype(v, loop))


def _out_loop(x: Any, dtype: Any, out: Any, floats_only: bool = False) -> Any:
    """The dtype a sum, product, mean or scan into `out` computes in: `dtype`, else NumPy's loop
    for the input's and out's dtypes together (`np.sum(uint64s, out=float64_out)` sums in
    float64, where the uint64 sum wrapped and was then cast: fuzz45, seed 610093). `floats_only`:
    mean, whose integer inputs NumPy averages in float64 whatever `out`. `out`'s checks: `into`."""
    out_dtype = getattr(out, "dtype", None)
    if dtype is not None or out_dtype is None:
        return dtype
    in_dtype = getattr(x, "dtype", None)
    if in_dtype is None:
        in_dtype = _as_node(x, None).dtype
    if floats_only and np.dtype(in_dtype).kind not in "fc":
        return dtype
    return np.result_type(in_dtype, out_dtype)


def masked_sum(node: Node, where: Any, axis: Any, keepdims: bool, dtype: np.dtype,
               site: _bind.Site) -> Array:
    """sum(x, where=) in NumPy's order: the op masked_sum (graph/ops_structure.py)."""
    if keepdims is not False and keepdims is not True:
        keepdims = _axis_args.keepdims_flag(keepdims, site)
    _refuse_bool_axis(axis, site)
    if node.ndim == 0 and _is_scalar_axis(axis):
        axis = ()
    axes = _bind.normalize_axes(axis, node.ndim, site, repeated=DUPLICATE)
    mask = broadcast_to(astype(Array(_as_node(where, site)), dtypes.bool_), node.shape)
    if node.dtype != dtype:
        node = cast_warned(node, dtype, site, reduce=True)
    shape = _reduced_shape(node.shape, axes, keepdims)
    return Array(_bind.primitive(_MASKED_SUM, (node, mask._node), (axes, bool(keepdims)), shape,
                                 dtype, site))


_MASKED_SUM = get_op("masked_sum")


def _masked(name: str, x: Any, where: Any, site: _bind.Site) -> Any:
    """x with NumPy's `where=` applied: elements where it is False become the reduction's
    identity (0 for sum, 1 for prod, the lowest value for max, False for any, ...)."""
    if where is True:
        return x
    arr = Array(x if type(x) is Node else _as_node(x, site))
    mask = broadcast_to(astype(Array(_as_node(where, site)), dtypes.bool_), arr.shape)
    return _where(mask, arr, _identity(name, arr.dtype))


def _identity(name: str, dt: np.dtype) -> Any:
    if name in ("sum", "prod"):
        return int(name == "prod")
    if name in ("any", "all"):
        return name == "all"
    lowest = name == "max"
    if dt.kind == "b":
        return not lowest
    if dt.kind in "iu":
        info = np.iinfo(dt)
        return int(info.min if lowest else info.max)
    return -math.inf if lowest else math.inf


def _extreme(name: str, x: Any, axis: Any, keepdims: bool, initial: Any, where: Any,
             site: _bind.Site) -> Array:
    """max/min with NumPy's `initial` (compared with every slice's extreme; an empty slice gives
    it) and `where` (which NumPy refuses without `initial`: no identity)."""
    if initial is _NO_VALUE:
        raise _bind.fail(ValueError, f"reduction operation '{name}imum' does not have an "
                         "identity, so to use a where mask one has to specify 'initial'", site)
    node = _as_node(x, site)
    if node.ndim == 0 and _is_scalar_axis(axis):
        axis = ()  # (NumPy's axis 0 or -1 of a 0-d array; `np.max(2.0, axis=1, initial=3)` and a
        # tuple are its AxisError: they returned a value, fuzz56)
    axes = _bind.normalize_axes(axis, node.ndim, site, repeated=DUPLICATE)
    start = full((), _integer_initial(initial, node.dtype, site), node.dtype)
    if builtins.any(node.shape[a] == 0 for a in axes):  # (a 0-d one is NumPy's scalar, not a
        # view: `r = np.max(empty, initial=5); r += c` rebinds r, fuzz51 seed 2101386)
        return scalar_result(_bind.broadcast_to(
            start._node, _reduced_shape(node.shape, axes, keepdims), site))
    masked = _masked(name, Array(node), where, site)
    picked = _reduce(name, masked._node, axes, keepdims, None, site)
    return (maximum if name == "max" else minimum)(picked, start)


def any(a: Any, axis: Any = None, out: Any = None, keepdims: bool = False, *,  # noqa: A001
        where: Any = True) -> Array:
    """numpy.any / Array API `any`: a fused logical-or reduction (over `where` only)."""
    site = user_site(1)
    if out is not None:
        return into(out, any(a, axis, keepdims=keepdims, where=where), np.any, (a,),
                    {"axis": axis, "keepdims": keepdims}, site)
    node = _bind.cast(_as_node(a, site), dtypes.bool_, site)
    if where is not True:
        node = _masked("any", node, where, site)._node
    return _reduce("any", node, axis, keepdims, dtypes.bool_, site)


def all(a: Any, axis: Any = None, out: Any = None, keepdims: bool = False, *,  # noqa: A001
        where: Any = True) -> Array:
    """numpy.all / Array API `all`: a fused logical-and reduction (over `where` only)."""
    site = user_site(1)
    if out is not None:
        return into(out, all(a, axis, keepdims=keepdims, where=where), np.all, (a,),
                    {"axis": axis, "keepdims": keepdims}, site)
    node = _bind.cast(_as_node(a, site), dtypes.bool_, site)
    if where is not True:
        node = _masked("all", node, where, site)._node
    return _reduce("all", node, axis, keepdims, dtypes.bool_, site)


def _refuse_bool_axis(axis: Any, site: _bind.Site) -> None:
    """NumPy's reductions take no bool for an axis (`np.sum(x, axis=True)` raises TypeError),
    where Python's True == 1 passed here as axis 1: a sum over another axis than none; nor a
    list (`axis=[0, 1]`: "'list' object cannot be interpreted as an integer")."""
    if type(axis) is list:
        raise _bind.fail(TypeError, "'list' object cannot be interpreted as an integer",
                         site)  # (NumPy's text: fuzz46)
    items = axis if type(axis) is tuple else (axis,)
    if builtins.any(isinstance(a, (bool, np.bool_)) for a in items):
        raise _bind.fail(TypeError, f"an integer is required for the axis, not {axis!r}", site)


def _refuse_bool_axis_counted(axis: Any, ndim: int, site: _bind.Site) -> None:
    """mean/var/std: NumPy's Python code counts the items first (normalize_axis_index: a True
    past a 1-D array's dims is its AxisError), then sums (any bool axis: TypeError)."""
    items = axis if type(axis) is tuple else (axis,)
    if type(axis) is not list and builtins.any(isinstance(a, (bool, np.bool_)) for a in items):
        _bind.normalize_axes(tuple(int(a) for a in items), ndim, site)
    _refuse_bool_axis(axis, site)


def _arg(name: str, x: Any, axis: int | None, keepdims: bool, site: _bind.Site) -> Array:
    node = _as_node(x, site)
    if axis is None and keepdims is False:  # an index loop's `np.argmin(x)`: NumPy's, now
        done = _arg_now(name, node, site)
        if done is not None:
            return Array(done)
    if axis is None and node.ndim == 1 and keepdims is False:  # `np.argmax(row)`: ~1 us less
        return _reduce(name, node, 0, False, dtypes.int64, site)
    _refuse_bool_axis(axis, site)
    if axis is None or (node.ndim == 0 and _is_scalar_axis(axis)):
        flat = _bind.primitive(get_op("reshape"), (node,), ((node.size,),), (node.size,),
                               node.dtype, site) if node.ndim != 1 else node
        out = _reduce(name, Array(flat), 0, False, dtypes.int64, site)
        if keepdims:
            return reshape(out, (1,) * node.ndim)
        return out
    if not isinstance(axis, (int, np.integer)):
        try:  # a 0-d integer ndarray, as NumPy's argmax takes it
            axis = operator.index(axis)
        except TypeError as exc:  # NumPy's text: operator.index's
            raise _bind.fail(TypeError, str(exc), site) from None
    return _reduce(name, Array(node), int(axis), bool(keepdims), dtypes.int64, site)


def argmax(a: Any, axis: int | None = None, out: Any = None, *, keepdims: bool = False) -> Array:
    """numpy.argmax / Array API `argmax`: int64 indices; the first maximum (NaN counts as it)."""
    if out is not None:
        return into(out, argmax(a, axis, keepdims=keepdims), np.argmax, (a,),
                    {"axis": axis, "keepdims": keepdims}, user_site(1))
    return _arg("argmax", a, axis, keepdims, user_site(1))


def argmin(a: Any, axis: int | None = None, out: Any = None, *, keepdims: bool = False) -> Array:
    """numpy.argmin / Array API `argmin`: int64 indices; the first minimum (NaN counts as it)."""
    if out is not None:
        return into(out, argmin(a, axis, keepdims=keepdims), np.argmin, (a,),
                    {"axis": axis, "keepdims": keepdims}, user_site(1))
    return _arg("argmin", a, axis, keepdims, user_site(1))


def _count(shape: tuple[int, ...], axes: tuple[int, ...]) -> int:
    return math.prod(shape[a] for a in axes)


def _float_operand(x: Any, dtype: Any, site: _bind.Site) -> Node:
    node = _as_node(x, site)
    want = dtypes.to_dtype(dtype) if dtype is not None else (
        node.dtype if node.dtype.kind in "fc" else dtypes.float64)
    return cast_warned(node, want, site, reduce=True)


def cast_warned(node: Node, dtype: np.dtype, site: _bind.Site, reduce: bool = False) -> Node:
    """The operand of a sum, product, scan or mean in `dtype=`: complex values into a real
    dtype warn NumPy's ComplexWarning at the user's line (`z.sum(dtype=np.float64)`,
    `np.cumprod(z, dtype=np.float32)`: silent here, fuzz55's seeds 242, 381, 391). A reduction's
    (`reduce`) float cast that can raise a flag (into an integer, or narrower) reports it as
    NumPy's buffered reduce does: 'invalid value encountered in reduce' for
    `x.sum(dtype=np.int8)` of a NaN (a scan's says 'cast', as NumPy's; fuzz57's seeds 510423,
    500163)."""
    if node.dtype.kind == "c" and dtype.kind not in "cb":
        warnings.warn_explicit("Casting complex values to real discards the imaginary part",
                               np.exceptions.ComplexWarning, *(site or ("<unknown>", 0)))
    if reduce and node.dtype.kind in "fc" and node.dtype != dtype and node.op is not _SCALAR_OP \
            and (dtype.kind in "biu" or dtype.itemsize < node.dtype.itemsize):
        return _bind.primitive(out_cast("reduce"), (node,), (), node.shape, dtype, site)
    return _bind.cast(node, dtype, site)


def user_stacklevel() -> int:
    """warnings.warn's stacklevel, from its caller here, for the first frame outside lazyarray
    (`np.std(x)` warns through var, `x.mean()` through the method)."""
    frame, level = sys._getframe(2), 2
    while frame is not None and frame.f_globals.get("__name__", "").startswith("lazyarray"):
        frame, level = frame.f_back, level + 1
    return level


def warn_for_slices(result: Array, bad: Array, message: str) -> Array:
    """NumPy's warning for a slice its values make bad (all NaN: 'Mean of empty slice', 'All-NaN
    slice encountered'): whether any is depends on the data, so the result is evaluated with
    that one boolean, in one plan, and the warning comes at the call, as NumPy's (as nanargmax's
    error; lazily, NumPy's warnings were missing and its 0/0 'invalid' came instead: fuzz42)."""
    if result.size:
        _evaluate(result, bad)
        if bool(bad):
            warnings.warn(message, RuntimeWarning, stacklevel=user_stacklevel())
    return result


def _warn_masked(where: Any, shape: tuple[int, ...], axes: tuple[int, ...], count: Array,
                 bound: float, result: Array, message: str) -> None:
    """NumPy's warning where `where=` leaves a slice `bound` or fewer elements (mean's 'Mean of
    empty slice', var's 'Degrees of freedom <= 0 for slice'): counted on the host from a mask
    there, else evaluated with the result (warn_for_slices; fuzz42: it was missing)."""
    if isinstance(where, Array) and where._node.inputs:
        warn_for_slices(result, any(count <= bound), message)
        return
    mask = np.broadcast_to(np.asarray(where, dtype=bool), shape)
    if result.size and np.any(mask.sum(axis=axes) <= bound):
        warnings.warn(message, RuntimeWarning, stacklevel=user_stacklevel())


def mean(a: Any, axis: Any = None, dtype: Any = None, out: Any = None, keepdims: bool = False,
         *, where: Any = True) -> Array:
    """numpy.mean / Array API `mean`: sum / n; integer and bool inputs average in float64, as NumPy. n == 0 gives NaN
    with NumPy's 'Mean of empty slice' RuntimeWarning and 'invalid' flag.
    NumPy's `where=` averages the elements where it is True."""
    if (type(a) is Array and axis is None and dtype is None and out is None and keepdims is False
            and where is True and _REDUCE_ALL is not None and a.dtype is _FLOAT64):
        n = a.size  # `x.sum()`'s C path for a float64 at-once value, over NumPy's count (exact):
        total = _REDUCE_ALL(0, a) if n else None  # its umr_sum / intp(n); an element's
        if total is not None:  # division (azimint_naive's `values_r12.mean()`: 7.2 -> 2.5 us)
            return total / n
    site = user_site(1)
    if out is not None:
        loop = _out_loop(a, dtype, out, floats_only=True)  # (NumPy's mean of ints: float64)
        return into(out, mean(a, axis, loop, keepdims=keepdims, where=where), np.mean, (a,),
                    {"axis": axis, "dtype": dtype, "keepdims": keepdims}, site)
    src = _as_node(a, site)
    node = _float_operand(Array(src), dtype, site)
    _refuse_bool_axis_counted(axis, node.ndim, site)
    axes = _bind.normalize_axes(axis, node.ndim, site, repeated=DUPLICATE)
    # NumPy's mean of float16 sums in float32 and rounds the quotient to float16 once
    acc = np.dtype(np.float32) if node.dtype == _FLOAT16 and dtype is None else node.dtype
    if where is not True:
        total, n = _masked_sum_count(node if acc == node.dtype else astype(Array(node), acc)._node,
                                     axes, keepdims, where, site)
        result = astype(total / n, node.dtype)
        _warn_masked(where, node.shape, axes, n, 0, result, "Mean of empty slice")
        return result
    # NumPy's umr_sum casts an int, bool or narrower float operand as it sums (in buffers)
    summed = src if _casts_in_sum(src.dtype, acc) else node
    total = _reduce("sum", Array(summed), axes, keepdims, acc, site)
    n = _count(node.shape, axes)
    if not n:  # NumPy's warning, then its 0 / 0: NaN and the 'invalid' flag (fuzz41: neither)
        warnings.warn("Mean of empty slice", RuntimeWarning, stacklevel=user_stacklevel())
    out = _divide_by_count(total, n)
    if out.dtype != node.dtype:  # an integer `dtype=` or float16: NumPy divides, then casts back
        out = astype(out, node.dtype)
    return out


def _casts_in_sum(src: np.dtype, acc: np.dtype) -> bool:
    """Whether mean/var leave the cast of their operand to the sum (`_reduce`), as NumPy's
    umr_sum(dtype=...) does it in its buffers (graph/ops_buffered.py): any real operand of
    another dtype, a complex one into complex (a complex operand into a real dtype is cast by
    `_float_operand`, with its warning, once)."""
    return src != acc and (src.kind in "biuf" or acc.kind == "c")


def ddof_or_correction(ddof: Any, correction: Any) -> Any:
    """NumPy's rule for var's two names of one number: `correction` given beside a nonzero
    `ddof` is NumPy's ValueError (lazyarray took `ddof`); either, else 0."""
    if correction is not None and ddof not in (None, 0):
        raise _bind.fail(ValueError, "ddof and correction can't be provided simultaneously.",
                         user_site(2))
    return correction if correction is not None else (0 if ddof is None else ddof)


_mean = mean  # (var's and std's `mean=` keyword shadows the function there)


def var(a: Any, axis: Any = None, dtype: Any = None, out: Any = None, ddof: float | None = None,
        keepdims: bool = False, *, where: Any = True, mean: Any = None,
        correction: float | None = None) -> Array:
    """numpy.var / Array API `var`: mean(|x - mean(x)|**2) scaled by n / (n - correction); `ddof` is NumPy's name for it.
    NumPy's `where=` takes the elements where it is True (NumPy's steps: n - ddof floored at 0).
    NumPy 2's `mean=` (the mean, shaped as keepdims=True gives it) replaces the computed one."""
    correction, ddof = ddof_or_correction(ddof, correction), None
    if out is not None:
        return into(out, var(a, axis, dtype, None, ddof, keepdims, where=where, mean=mean,
                             correction=correction), np.var,
                    (a,), {"axis": axis, "dtype": dtype, "keepdims": keepdims,
                           "ddof": correction if ddof is None else ddof}, user_site(1))
    site = user_site(1)
    if ddof is not None:
        correction = ddof
    want = dtypes.to_dtype(dtype) if dtype is not None else None
    if mean is not None and (where is not True or (want is not None and want.kind in "iubc")):
        raise _bind.fail(TypeError, "var/std with mean= and where= or an integer, bool or "
                         "complex dtype= is not supported by lazyarray (NumPy's mean= alone is)",
                         site)
    if mean is not None:
        return _var_of_mean(_as_node(a, site), mean, axis, want, correction, keepdims, site)
    if want is not None and want.kind != "c" and _as_node(a, site).dtype.kind == "c":
        raise _bind.fail(TypeError, f"var of a complex array in dtype {want}: NumPy takes the "
                         "mean of the real parts and the deviations of the complex values (with "
                         "a ComplexWarning); lazyarray does not. Pass a complex dtype, or "
                         "take .real first", site)
    if want is not None and want.kind in "iub" and where is True:
        return _integer_var(_as_node(a, site), axis, want, correction, keepdims, site)
    src = _as_node(a, site)
    node = _float_operand(Array(src), dtype, site)
    _refuse_bool_axis_counted(axis, node.ndim, site)
    axes = _bind.normalize_axes(axis, node.ndim, site, repeated=DUPLICATE)
    if want is not None and want.kind == "c" and where is True:  # NumPy: a complex
        real_var = var(real(Array(node)), axis=axes, correction=correction, keepdims=keepdims)
        imag_var = var(imag(Array(node)), axis=axes, correction=correction, keepdims=keepdims)
        return astype(real_var + imag_var, want)  # dtype= keeps the result complex
    xs = Array(node)
    if where is not True:
        return _masked_var(xs, axes, keepdims, correction, where, site)
    denom = _count(node.shape, axes) - correction
    if denom <= 0:  # NumPy's warning first (before its mean's flags), then its division by
        # max(denom, 0): 0/0 'invalid', x/0 'divide by zero' (fuzz41: NaN came silently)
        warnings.warn("Degrees of freedom <= 0 for slice", RuntimeWarning,
                      stacklevel=user_stacklevel())
        denom = 0
    # (an empty x is its own deviations: no mean, whose empty slice would warn NumPy's mean's
    # 'Mean of empty slice', which NumPy's var does not)
    # (NumPy's var divides its own sum: float16's mean in float16, not np.mean's float32)
    # (NumPy's mean sums an int or narrower float operand as it casts it: mean's buffers)
    casts = _casts_in_sum(src.dtype, node.dtype)
    if mean is not None:  # NumPy's `arr - mean`, broadcast
        centered = xs - mean
    elif not node.size:  # NumPy's mean of no elements: its 0 / 0 (one 'invalid' flag, a complex
        # one's too) where the mean has elements, though the deviations read none (probe54)
        part = real(xs) if node.dtype.kind == "c" else xs
        zero = _reduce("sum", part, axes, True, part.dtype, site) / np.array(0, np.intp)
        centered = xs - astype(zero, part.dtype)
    else:
        centered = xs - (_reduce("sum", xs, axes, True, node.dtype, site) / _count(node.shape, axes)
                         if node.dtype == _FLOAT16 else _mean(
                             Array(src) if casts else xs, axis=axes, keepdims=True,
                             dtype=node.dtype))
    if node.dtype.kind == "c":  # NumPy: the mean of |x - mean(x)|**2, a real number
        re, im = real(centered), imag(centered)
        sq = _reduce("sum", re * re + im * im, axes, keepdims, re.dtype, site)
    else:  # (np.square: its overflow reports 'square', as NumPy's _var)
        sq = _reduce("sum", _square(centered), axes, keepdims, node.dtype, site)
    return _divide_by_count(sq, denom)


_WIDER_QUOTIENT = {np.dtype(np.float32): np.dtype(np.float64),
                   np.dtype(np.complex64): np.dtype(np.complex128)}
_SCALAR_QUOTIENT = (np.dtype(np.float64), np.dtype(np.complex128))  # NumPy's scalar math


def _divide_by_count(total: Array, n: float) -> Array:
    """NumPy's `true_divide(total, intp(n), out=total, casting='unsafe')` (_methods._mean/_var):
    the intp count promotes float32 to float64 and complex64 to complex128, and the quotient
    is cast back. For complex64 that is another value than a complex64 division (Smith's
    1/n is rounded in float64), for float32 another one from n = 2**24 on. A 0-d total is
    NumPy's scalar divided by its intp count (`ret.dtype.type(ret / rcount)`): its scalar math
    for float64 and complex128 ('scalar divide' in a warning), its ufunc where the count
    promotes the scalar (float16, float32, complex64: 'divide'; probe54: 'scalar divide')."""
    wide = _WIDER_QUOTIENT.get(total.dtype)
    if total.dtype == _FLOAT16 and not total.ndim:
        wide = np.dtype(np.float64)  # (NumPy's scalar math: float16 over intp is float64's)
    if not n and not total.ndim and total.dtype not in _SCALAR_QUOTIENT:
        # (the count as an array leaf: the ufunc's report, 'divide'; only where it reports, an
        # empty count: a leaf input kept the plan's reduction from splitting over threads)
        count = np.array(n, dtype=np.intp)
        return astype(astype(total, wide or total.dtype) / count, total.dtype)
    if wide is None:
        return total / n
    return astype(astype(total, wide) / n, total.dtype)


def _var_of_mean(src: Node, mean: Any, axis: Any, want: np.dtype | None, correction: float,
                 keepdims: bool, site: _bind.Site) -> Array:
    """NumPy's var with `mean=`, step by step as its _methods._var: the deviations are
    `arr - mean` in the input's own dtype promoted with the mean's (an integer input less an
    integer mean stays integer, and its squares wrap), squared in that dtype where the input is
    an integer or float (a complex mean of a real input: complex squares, a complex result),
    |x|**2 where they are complex, summed in `dtype=` (float64 for an integer or bool input),
    divided by the count less ddof. Here the input was cast to float first (float32 less an
    int64 mean was float32, NumPy's float64; an integer's squares did not wrap; fuzz57)."""
    _refuse_bool_axis_counted(axis, src.ndim, site)
    axes = _bind.normalize_axes(axis, src.ndim, site, repeated=DUPLICATE)
    denom = _count(src.shape, axes) - correction
    if denom <= 0:  # (NumPy's warning first, as var's)
        warnings.warn("Degrees of freedom <= 0 for slice", RuntimeWarning,
                      stacklevel=user_stacklevel())
        denom = 0
    centered = Array(src) - mean
    if src.dtype.kind in "iuf":  # (np.square: its overflow reports 'square', as NumPy's)
        sq = _square(centered)
    elif centered.dtype.kind == "c":
        re, im = real(centered), imag(centered)
        sq = re * re + im * im
    else:  # (a bool input: NumPy's multiply(x, conjugate(x)).real)
        sq = centered * centered
    # (the count is the input's, the sum over `axis` of the deviations, which a larger mean
    # broadcasts: `std(x1, mean=[1, 2])` sums both, as NumPy's)
    total = sum(sq, axis=axes if centered.ndim == src.ndim else axis, dtype=want
                if want is not None else (dtypes.float64 if src.dtype.kind in "biu" else None),
                keepdims=keepdims)
    return _divide_by_count(total, denom)


def _integer_var(node: Node, axis: Any, want: np.dtype, correction: float, keepdims: bool,
                 site: _bind.Site) -> Array:
    """NumPy's var with an integer or bool `dtype=`, step by step as its _methods._var: the mean
    summed in `want` and truncated to it, the deviations in the input's type promoted with it,
    their squares summed in `want`, divided and truncated to it (the result was float64 here)."""
    _refuse_bool_axis(axis, site)
    axes = _bind.normalize_axes(axis, node.ndim, site, repeated=DUPLICATE)
    xs = Array(node)
    n = _count(node.shape, axes)
    if n - correction <= 0:  # NumPy's warning, as var's (fuzz42: missing here)
        warnings.warn("Degrees of freedom <= 0 for slice", RuntimeWarning,
                      stacklevel=user_stacklevel())
    centered = xs - astype(_reduce("sum", xs, axes, True, want, site) / n, want)
    sq = _reduce("sum", centered * centered, axes, keepdims, want, site)
    return astype(sq / builtins.max(n - correction, 0), want)


def std(a: Any, axis: Any = None, dtype: Any = None, out: Any = None, ddof: float | None = None,
        keepdims: bool = False, *, where: Any = True, mean: Any = None,
        correction: float | None = None) -> Array:
    """numpy.std / Array API `std`: sqrt(var); `correction` (Array API) or `ddof` (NumPy);
    NumPy 2's `mean=` as var's."""
    correction, ddof = ddof_or_correction(ddof, correction), None
    if out is not None:
        return into(out, std(a, axis, dtype, None, ddof, keepdims, where=where, mean=mean,
                             correction=correction), np.std,
                    (a,), {"axis": axis, "dtype": dtype, "keepdims": keepdims,
                           "ddof": correction if ddof is None else ddof}, user_site(1))
    v = var(a, axis=axis, dtype=dtype, correction=correction, keepdims=keepdims, ddof=ddof,
            where=where, mean=mean)
    if dtype is not None and v.dtype.kind in "iub":  # NumPy: sqrt into the integer dtype
        if v.ndim or keepdims:  # an array result: NumPy's sqrt(out=ret) refuses the cast
            raise _bind.fail(TypeError, f"Cannot cast ufunc 'sqrt' output from dtype('float64') "
                             f"to dtype('{v.dtype}') with casting rule 'same_kind'", user_site(1))
        return astype(sqrt(v), v.dtype)  # a scalar: truncated to it
    return sqrt(v)


def _masked_sum_count(node: Node, axes: tuple[int, ...], keepdims: bool, where: Any,
                      site: _bind.Site) -> tuple[Array, Array]:
    """The sum of the elements where `where` is True and their count (NumPy's `rcount`)."""
    mask = broadcast_to(astype(Array(_as_node(where, site)), dtypes.bool_), node.shape)
    total = masked_sum(node, mask, axes, keepdims, node.dtype, site)
    return total, _reduce("sum", mask._node, axes, keepdims, dtypes.int64, site)


def _masked_var(xs: Array, axes: tuple[int, ...], keepdims: bool, correction: float, where: Any,
                site: _bind.Site) -> Array:
    """NumPy's _var with `where`: the masked mean, the masked sum of |x - mean|**2, divided by
    max(n - ddof, 0) (0/0: NaN, as NumPy's)."""
    total, n = _masked_sum_count(xs._node, axes, True, where, site)
    centered = xs - astype(total / n, xs.dtype)
    sq = real(centered) ** 2 + imag(centered) ** 2 if xs.dtype.kind == "c" else _square(centered)
    sq_total, count = _masked_sum_count(sq._node, axes, keepdims, where, site)
    result = astype(sq_total / maximum(count - correction, 0), sq.dtype)
    _warn_masked(where, xs.shape, axes, count, correction, result,
                 "Degrees of freedom <= 0 for slice")
    return result


def cumsum(a: Any, axis: int | None = None, dtype: Any = None, out: Any = None) -> Array:
    """numpy.cumsum: running sum; axis=None runs over the flattened array (a library call, not fused)."""
    if out is not None:
        return into(out, cumsum(a, axis, _out_loop(a, dtype, out)), np.cumsum, (a,),
                    {"axis": axis, "dtype": dtype},
                    user_site(1))
    return _numpy_scan("cumsum", a, axis, dtype, user_site(1))


def cumprod(a: Any, axis: int | None = None, dtype: Any = None, out: Any = None) -> Array:
    """numpy.cumprod: running product; axis=None runs over the flattened array (a library call)."""
    if out is not None:
        return into(out, cumprod(a, axis, _out_loop(a, dtype, out)), np.cumprod, (a,),
                    {"axis": axis, "dtype": dtype},
                    user_site(1))
    return _numpy_scan("cumprod", a, axis, dtype, user_site(1))


def _numpy_scan(name: str, x: Any, axis: int | None, dtype: Any, site: _bind.Site) -> Array:
    """NumPy's scans (cumsum, cumprod): axis=None flattens; the accumulator is sum's."""
    node = _as_node(x, site)
    _refuse_bool_axis(axis, site)
    if axis is None or (node.ndim == 0 and _is_scalar_axis(axis)):  # 0-d: a 1-element scan
        node = _bind.primitive(get_op("reshape"), (node,), ((node.size,),), (node.size,),
                               node.dtype, site) if node.ndim != 1 else node
        axis = 0
    scan_axis = node.ndim or axis is not None  # a 0-d array's other axes: AxisError
    ax = _bind.normalize_axis(axis, node.ndim, site) if scan_axis else None
    if ax is None:
        raise _bind.fail(ValueError, f"{name} of a 0-d array needs axis=None", site)
    want = dtypes.to_dtype(dtype) if dtype is not None else _sum_dtype(node.dtype)
    if node.dtype != want:  # NumPy scans in `want` (uint64 products into float64 wrapped here)
        node = cast_warned(node, want, site)
    return Array(_bind.primitive(get_op(name), (node,), (ax,), node.shape, want, site))


def _cumulative(name: str, x: Any, axis: int | None, dtype: Any, include_initial: bool,
                site: _bind.Site) -> Array:
    """The Array API's scans: axis may be None only for 1-D input; `include_initial` prepends the
    identity (0 or 1), so the result is one longer along `axis`."""
    node = _as_node(x, site)
    _axis_args.refuse_bool_axis(axis, site)
    if type(axis) is tuple:  # NumPy's accumulate takes one axis in a tuple
        if len(axis) != 1:
            raise _bind.fail(ValueError, "accumulate does not allow multiple axes", site)
        (axis,) = axis
    if node.ndim == 0 and (axis is None or _is_scalar_axis(axis)):  # NumPy: a 1-element scan
        node, axis = _bind.primitive(get_op("reshape"), (node,), ((1,),), (1,), node.dtype, site), 0
    if node.ndim == 0 and axis is not None:
        _bind.normalize_axes(axis, 0, site)  # AxisError, as NumPy
    if node.ndim == 0 or (axis is None and node.ndim > 1):
        raise _bind.fail(ValueError, f"{name} needs an axis for a {node.ndim}-d array", site)
    ax = _bind.normalize_axis(0 if axis is None else axis, node.ndim, site)
    want = dtypes.to_dtype(dtype) if dtype is not None else _sum_dtype(node.dtype)
    node = _bind.cast(node, want, site)
    op = get_op("cumsum" if name == "cumulative_sum" else "cumprod")
    out = Array(_bind.primitive(op, (node,), (ax,), node.shape, want, site))
    if not include_initial:
        return out
    first = full(tuple(1 if d == ax else s for d, s in enumerate(node.shape)),
                 0 if op.name == "cumsum" else 1, want)
    return concat([first, out], axis=ax)


def cumulative_sum(x: Any, /, *, axis: int | None = None, dtype: Any = None, out: Any = None,
                   include_initial: bool = False) -> Array:
    """Array API `cumulative_sum` (numpy.cumulative_sum): a library call, not fused. NumPy 2's
    `out=` as cumsum's (probe54: a TypeError here)."""
    if out is not None:
        return _cumulative_into(np.cumulative_sum, x, axis, dtype, out, include_initial)
    return _cumulative("cumulative_sum", x, axis, dtype, include_initial, user_site(1))


def cumulative_prod(x: Any, /, *, axis: int | None = None, dtype: Any = None, out: Any = None,
                    include_initial: bool = False) -> Array:
    """Array API `cumulative_prod` (numpy.cumulative_prod): a library call, not fused; `out=`
    as cumulative_sum's."""
    if out is not None:
        return _cumulative_into(np.cumulative_prod, x, axis, dtype, out, include_initial)
    return _cumulative("cumulative_prod", x, axis, dtype, include_initial, user_site(1))


def _cumulative_into(numpy_fn: Any, x: Any, axis: Any, dtype: Any, out: Any,
                     include_initial: bool) -> Any:
    """`out=` of the Array API scans: NumPy's accumulate runs in `dtype`, else in the loop of the
    input's and out's dtypes (_out_loop), and NumPy checks `out` (`into`, on stand-ins)."""
    site = user_site(2)
    result = _cumulative(numpy_fn.__name__, x, axis, _out_loop(x, dtype, out), include_initial,
                         site)
    return into(out, result, numpy_fn, (x,),
                {"axis": axis, "dtype": dtype, "include_initial": include_initial}, site)
