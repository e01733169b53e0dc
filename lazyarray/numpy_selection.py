"""NumPy's selection and assembly functions as lazy compositions: `choose`, `compress`,
`extract`, `insert`, `resize`, `block`, `piecewise`, `trim_zeros`, `sort_complex`, and the
`as*array` family.

Where NumPy's result shape or dtype depends on values, the few values that decide it are read
first (`compress`/`extract`'s condition, `trim_zeros`' ends, `real_if_close`'s test,
`asarray_chkfinite`'s check, `choose(mode='raise')`'s bounds); the data itself stays lazy.
`piecewise` calls each function on the whole of x and selects (NumPy calls it on `x[cond]`): the
values are NumPy's, a function with side effects or one that reads its argument's length sees
the whole array.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any, Sequence

import numpy as np

from . import _bind
from . import elementwise as ew
from . import manipulation as mp
from . import reductions as red
from .array import Array, scalar_result, zero_d_array
from .complex_functions import imag, real
from .creation import check_like, asarray, zeros
from .indexing import take
from .searching import sort
from ._axis_args import refuse_bool_axis
from .outputs import into
from .result_layout import copied
from .numpy_writes import check_python_values
from .writes import numpy_layout_copies
from .graph.node import user_site


def asanyarray(a: Any, dtype: Any = None, order: Any = None, *, device: Any = None,
               copy: bool | None = None, like: Any = None) -> Array:
    """numpy.asanyarray: la.asarray (there are no Array subclasses to keep), with NumPy's
    `device=` and `copy=` (a TypeError here before fuzz56)."""
    check_like(like)
    return asarray(a, dtype=dtype, order=order, device=device, copy=copy)


def ascontiguousarray(a: Any, dtype: Any = None, *, like: Any = None) -> Array:
    """numpy.ascontiguousarray: la.asarray with at least one dimension, as NumPy; a copy where
    NumPy's is one (a view NumPy's memory does not hold C-contiguous: later writes to its base
    do not reach it), else the Array itself (a view that follows them, as NumPy's)."""
    check_like(like)
    return _in_order(a, dtype, "C")


def asfortranarray(a: Any, dtype: Any = None, *, like: Any = None) -> Array:
    """numpy.asfortranarray: as ascontiguousarray, for NumPy's Fortran order (values are the
    same; whether it is a copy is NumPy's)."""
    check_like(like)
    return _in_order(a, dtype, "F")


def _in_order(a: Any, dtype: Any, order: str) -> Array:
    x = asarray(a, dtype=dtype)
    if x.ndim == 0:
        return mp.reshape(x, (1,))
    if not numpy_layout_copies(x, order):
        return x
    return Array(copied(x._node, order))  # (x itself where asarray made a new leaf: its buffer)


# numpy.require's flag letters
_REQUIREMENTS = {"C": "C", "C_CONTIGUOUS": "C", "CONTIGUOUS": "C", "F": "F", "F_CONTIGUOUS": "F",
                 "FORTRAN": "F", "A": "A", "ALIGNED": "A", "W": "W", "WRITEABLE": "W",
                 "O": "O", "OWNDATA": "O", "E": "E", "ENSUREARRAY": "E"}


def require(a: Any, dtype: Any = None, requirements: Any = None, *, like: Any = None) -> Array:
    """numpy.require: la.asarray in `dtype`, a copy where NumPy's is one: a layout the memory
    does not have ('C', 'F'), a view for 'O' (OWNDATA), a read-only view for 'W'."""
    check_like(like)
    x = asarray(a, dtype=dtype)
    if not requirements or x is not a:
        return x
    reqs = {_REQUIREMENTS[r.upper()] for r in ([requirements] if isinstance(requirements, str)
                                               else requirements)}
    if "C" in reqs and "F" in reqs:
        raise ValueError('Cannot specify both "C" and "F" order')
    order = "C" if "C" in reqs else "F" if "F" in reqs else "K"
    view = type(x._view) is tuple
    if numpy_layout_copies(x, order):
        return Array(copied(x._node, order))
    if ("O" in reqs and view) or ("W" in reqs and view and not x._view[3]):
        return Array(x._node)
    return x


def asarray_chkfinite(a: Any, dtype: Any = None, order: Any = None) -> Array:
    """numpy.asarray_chkfinite: ValueError for inf or NaN (the check is evaluated)."""
    x = asarray(a, dtype=dtype)
    if x.dtype.kind in "fc" and not bool(red.all(ew.isfinite(x))):
        raise ValueError("array must not contain infs or NaNs")
    return x


def real_if_close(a: Any, tol: float = 100) -> Array:
    """numpy.real_if_close: the real part when every imaginary part is within tol machine
    epsilons of 0 (a value-dependent dtype: the test is evaluated)."""
    x = asarray(a)
    if x.dtype.kind != "c":
        return x
    if tol > 1:
        tol = np.finfo(x.dtype).eps * tol
    return real(x) if bool(red.all(ew.abs(imag(x)) < tol)) else x


def sort_complex(a: Any) -> Array:
    """numpy.sort_complex: sorted (real part first, then imaginary), as complex (NumPy's
    dtype: complex64 for (u)int8/(u)int16, complex128 otherwise)."""
    b = sort(asarray(a))
    if b.dtype.kind == "c":
        return b
    small = b.dtype.char in "bhBH"
    return b.astype(np.complex64 if small else np.complex128)


def choose(a: Any, choices: Sequence[Any], out: Any = None, mode: str = "raise") -> Array:
    """numpy.choose: choices[a] elementwise, broadcast together; mode 'raise' reads the
    indices' range (NumPy's ValueError), 'wrap' takes them modulo n, 'clip' clips."""
    if out is not None:
        raise TypeError("choose: out= is not supported; assign the result instead")
    idx = asarray(a)
    if not np.can_cast(idx.dtype, np.intp, "safe"):  # (uint64 too, NumPy's; its text names the
        # dtype: it said float64 for any; fuzz56)
        raise TypeError(f"Cannot cast array data from dtype('{idx.dtype}') to dtype('int64') "
                        "according to the rule 'safe'")
    opts = [asarray(c) for c in choices]
    n = len(opts)
    # NumPy broadcasts the choices and then `a` first (its text: 'shape mismatch: ... arg 0 with
    # shape (5,) and arg 2 with shape (8,)'; ours was the where chain's, fuzz57)
    shape = np.broadcast_shapes(*(o.shape for o in opts), idx.shape)
    if mode == "raise":
        if idx.size and bool(red.any((idx < 0) | (idx >= n))):
            raise ValueError("invalid entry in choice array")
    elif mode == "wrap":
        idx = idx % n
    elif mode == "clip":
        idx = ew.clip(idx, 0, n - 1)
    else:
        raise ValueError(f"clipmode must be one of 'clip', 'raise', or 'wrap' (got {mode!r})")
    # (NEP 50: Python int, float and complex choices are weak, as NumPy's common type of them:
    # `choose(i, [-129, np.uint64(3)])` is uint64 there, it was float64 here: fuzz54)
    dtype = np.result_type(*(c if type(c) in (int, float, complex) else o.dtype
                             for c, o in zip(choices, opts)))
    result = opts[0].astype(dtype)
    for k in range(1, n):
        result = ew.where(idx == k, opts[k].astype(dtype), result)
    # NumPy's choose is a new array (the broadcast view was read-only: `r[0] = 7` raised), its
    # scalar where 0-d (probe55)
    return scalar_result(mp.broadcast_to(result, shape)._node)


def compress(condition: Any, a: Any, axis: Any = None, out: Any = None) -> Array:
    """numpy.compress: the slices along `axis` where the 1-D condition is true (its values are
    read: they set the length)."""
    cond = np.asarray(condition)
    if cond.ndim != 1:
        raise ValueError("condition must be a 1-d array")
    x = asarray(a)
    if axis is None:
        x, axis = mp.ravel(x), 0
    refuse_bool_axis(axis)  # NumPy's compress is C: no bool axis
    axis = np.lib.array_utils.normalize_axis_index(operator.index(axis), x.ndim)
    picked = np.flatnonzero(cond)
    if picked.size and picked[-1] >= x.shape[axis]:
        raise IndexError(f"index {picked[-1]} is out of bounds for axis {axis} with size "
                         f"{x.shape[axis]}")
    result = take(x, asarray(picked.astype(np.int64)), axis=axis)
    if out is None:
        return result
    return into(out, result, np.compress, (condition, a), {"axis": axis}, user_site(1))


def extract(condition: Any, arr: Any) -> Array:
    """numpy.extract: ravel(arr)[nonzero(ravel(condition))] (the condition is read)."""
    picked = np.flatnonzero(np.asarray(condition))
    return take(mp.ravel(asarray(arr)), asarray(picked.astype(np.int64)))


def resize(a: Any, new_shape: Any) -> Array:
    """numpy.resize: the ravelled values repeated (or cut) to fill new_shape."""
    shape = (new_shape,) if isinstance(new_shape, (int, np.integer)) else tuple(new_shape)
    x = mp.ravel(asarray(a))
    if any(d < 0 for d in shape):
        raise ValueError("all elements of `new_shape` must be non-negative")
    size = int(np.prod(shape))
    if x.size == 0 or size == 0:
        return zeros(shape, dtype=x.dtype)
    reps = -(-size // x.size)
    return mp.reshape(mp.concat([x] * reps)[:size], shape)


def trim_zeros(filt: Any, trim: str = "fb", axis: Any = None) -> Array:
    """numpy.trim_zeros: where the non-zero values start and end is read (it sets the length);
    a 1-D input is then sliced lazily. N-D inputs run NumPy's routine on the evaluated values,
    and so do a list or tuple: "list/tuple in means list/tuple out", as NumPy's (probe49)."""
    if type(filt) is list or type(filt) is tuple:
        return np.trim_zeros(filt, trim, axis=axis)
    x = asarray(filt)
    if not x.ndim:  # NumPy's: no axis to trim, `filt` itself (`trim_zeros(True)` is True)
        np.trim_zeros(np.asarray(x), trim, axis=axis)  # (its errors: a bad `trim`, an axis)
        return filt
    if x.ndim != 1:
        return asarray(np.trim_zeros(np.asarray(x), trim, axis=axis))
    trim = trim.lower()
    nz = np.flatnonzero(np.asarray(x != 0))
    if not nz.size:
        return x[:0] if ("f" in trim or "b" in trim) else x
    start = int(nz[0]) if "f" in trim else 0
    stop = int(nz[-1]) + 1 if "b" in trim else x.shape[0]
    return x[start:stop]


def insert(arr: Any, obj: Any, values: Any, axis: Any = None) -> Array:
    """numpy.insert: NumPy's rules (one index: values as a block, moved to `axis` when the
    index is a scalar; several: one slice each, placed by the stable order of the indices), as
    one gather from [arr, values] along the axis."""
    x = asarray(arr)
    if axis is None:
        x, axis = mp.ravel(x), 0
    axis = np.lib.array_utils.normalize_axis_index(operator.index(axis), x.ndim)
    n = x.shape[axis]
    indices = np.arange(*obj.indices(n)) if isinstance(obj, slice) else np.array(obj)
    if indices.dtype == bool:
        if indices.ndim != 1:
            raise ValueError("boolean array argument obj to insert must be one dimensional")
        indices = np.flatnonzero(indices)
    elif indices.size and indices.dtype.kind not in "iu":
        raise IndexError("arrays used as indices must be of integer (or boolean) type")
    if indices.ndim > 1:
        raise ValueError("index array argument obj to insert must be one dimensional or scalar")
    check_python_values(values, x.dtype)
    v = asarray(values).astype(x.dtype)
    if indices.size == 1:
        index = int(indices.item())
        if index < -n or index > n:
            raise IndexError(f"index {obj} is out of bounds for axis {axis} with size {n}")
        index += n if index < 0 else 0
        v = mp.reshape(v, (1,) * (x.ndim - v.ndim) + v.shape) if v.ndim < x.ndim else v
        if indices.ndim == 0:
            v = mp.moveaxis(v, 0, axis)
        block = list(x.shape)
        block[axis] = v.shape[axis]
        v = mp.broadcast_to(v, tuple(block))
        front = [slice(None)] * x.ndim
        back = [slice(None)] * x.ndim
        front[axis], back[axis] = slice(None, index), slice(index, None)
        return mp.concat([x[tuple(front)], v, x[tuple(back)]], axis=axis)
    indices = indices.astype(np.int64)
    if indices.size and (indices.min() < -n or indices.max() > n):
        bad = indices[(indices < -n) | (indices > n)][0]
        raise IndexError(f"index {bad} is out of bounds for axis {axis} with size {n}")
    numnew = indices.size
    indices = np.where(indices < 0, indices + n, indices)
    order = indices.argsort(kind="mergesort")
    indices[order] += np.arange(numnew)
    old = np.ones(n + numnew, bool)
    old[indices] = False
    perm = np.empty(n + numnew, np.int64)
    perm[old] = np.arange(n)
    perm[indices] = n + np.arange(numnew)
    block = list(x.shape)
    block[axis] = numnew
    v = mp.broadcast_to(v, tuple(block))
    return take(mp.concat([x, v], axis=axis), asarray(perm), axis=axis)


def block(arrays: Any) -> Array:
    """numpy.block: nested lists joined innermost-last (the innermost along the last axis)."""
    depth = _list_depth(arrays)
    leaves = _leaves(arrays)
    ndim = max([depth] + [asarray(a).ndim for a in leaves])
    return _block(arrays, depth, ndim, 0)


def _list_depth(x: Any, where: str = "arrays") -> int:
    if type(x) is tuple:
        raise TypeError(f"{where} is a tuple. Only lists can be used to arrange blocks, and "
                        "np.block does not allow implicit conversion from tuple to ndarray.")
    if type(x) is not list:
        return 0
    if not x:
        raise ValueError(f"List at {where} cannot be empty")
    depths = {_list_depth(e, f"{where}[{i}]") for i, e in enumerate(x)}
    if len(depths) != 1:
        raise ValueError("List depths are mismatched.")
    return depths.pop() + 1


def _leaves(x: Any) -> list[Any]:
    return [leaf for e in x for leaf in _leaves(e)] if type(x) is list else [x]


def _block(x: Any, depth: int, ndim: int, level: int) -> Array:
    if level < depth:
        return mp.concat([_block(e, depth, ndim, level + 1) for e in x], axis=-(depth - level))
    a = asarray(x)
    return mp.reshape(a, (1,) * (ndim - a.ndim) + a.shape) if a.ndim < ndim else a


def piecewise(x: Any, condlist: Any, funclist: Sequence[Any], *args: Any, **kw: Any) -> Array:
    """numpy.piecewise: where(cond_k, f_k(x)) in order (later conditions win, as NumPy's
    successive writes), zeros elsewhere; one extra function is the "otherwise" case."""
    v = asarray(x)
    first = condlist if np.isscalar(condlist) else condlist[0]
    if np.isscalar(condlist) or (  # NumPy's rule for a single condition (a 0-d Array: scalar)
            not (isinstance(first, (list, np.ndarray)) or
                 isinstance(first, Array) and first.ndim > 0) and v.ndim != 0):
        condlist = [condlist]
    conds = [mp.broadcast_to(asarray(c).astype(bool), v.shape) for c in condlist]
    if len(conds) == len(funclist) - 1:
        other = conds[0]
        for c in conds[1:]:
            other = other | c
        conds.append(~other)
    elif len(conds) != len(funclist):
        raise ValueError(f"with {len(conds)} condition(s), either {len(conds)} or "
                         f"{len(conds) + 1} functions are expected")
    y = zeros(v.shape, dtype=v.dtype)
    for cond, func in zip(conds, funclist):
        value = func(v, *args, **kw) if isinstance(func, Callable) else func
        y = ew.where(cond, asarray(value).astype(v.dtype), y)
    return zero_d_array(y)  # (NumPy's writes into zeros: a 0-d x's is a 0-d array, fuzz57)
