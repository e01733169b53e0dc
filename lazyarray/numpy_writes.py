"""NumPy's functions that write into an argument: `copyto`, `place`, `putmask`,
`put_along_axis`, `fill_diagonal` (`put` is in numpy_index_tricks.py).

Each rebinds the handle it is given, as `a[...] = new` does (docs/semantics.md): the caller's
name sees NumPy's values. The casting rules are NumPy's own, checked on empty stand-ins of the
operands' dtypes, so a refused cast raises NumPy's error at the user's line.
"""

from __future__ import annotations

import operator
import warnings
from typing import Any

import numpy as np

from . import _bind
from . import elementwise as ew
from . import manipulation as mp
from .array import Array
from .creation import asarray
from ._index_values import warn_complex_cast
from .indexing import _broadcasts_into
from .writes import check_writable, same_memory


# NumPy's text for a read-only destination, per function (checked before anything else)
_READ_ONLY = {"putmask": "putmask: output array is read-only",
              "place": "WRITEBACKIFCOPY base is read-only",
              "fill_diagonal": "underlying array is read-only"}


def _target(a: Any, name: str) -> Array:
    if not isinstance(a, Array):
        raise TypeError(f"{name}: the array written to must be a lazyarray Array (it is "
                        f"rebound), not {type(a).__name__}")
    check_writable(a, _READ_ONLY.get(name, "assignment destination is read-only"))
    return a


def check_python_values(values: Any, dtype: np.dtype) -> None:
    """NumPy's conversion of Python values (a number, or lists and tuples of numbers) to the
    written array's dtype, for its errors: put, place, putmask, put_along_axis and insert
    convert them so, and a Python int out of the dtype's range raises NumPy's OverflowError
    (probe54: they wrapped, `np.put(uint8s, [0], 300)` wrote 44). Arrays are cast as each
    function casts them; a list holding Arrays is left to that cast too."""
    if isinstance(values, (Array, np.ndarray, np.generic)) or not _plain(values):
        return
    np.asarray(values, dtype=dtype)


def _plain(values: Any) -> bool:
    """A Python number, or (nested) lists and tuples of them (iteratively)."""
    stack = [values]
    while stack:
        v = stack.pop()
        if isinstance(v, (list, tuple)):
            stack.extend(v)
        elif type(v) not in (bool, int, float, complex):
            return False
    return True


def _stand_in(x: Any) -> Any:
    """An empty array of x's dtype, or x itself when it is a Python scalar (weak, as NumPy's)."""
    if type(x) in (bool, int, float, complex):
        return x
    return np.empty(0, asarray(x).dtype)


def copyto(dst: Array, src: Any, casting: str = "same_kind", where: Any = True) -> None:
    """numpy.copyto: dst takes src (broadcast) where `where` holds; NumPy's casting rule. As
    NumPy's, a src that is dst's own memory (`np.copyto(np.broadcast_to(x, x.shape), x)`)
    writes nothing, so a read-only dst does not raise (fuzz49, at-once seed 1700055)."""
    if isinstance(dst, Array) and isinstance(src, Array) and same_memory(dst, src):
        return
    _target(dst, "copyto")
    site = _bind.user_site(1)
    with warnings.catch_warnings():  # (its ComplexWarning is the one below, at the user's line)
        warnings.simplefilter("ignore", np.exceptions.ComplexWarning)
        np.copyto(np.empty(0, dst.dtype), _stand_in(src), casting=casting)  # NumPy's cast check
    s = asarray(src)
    if not _broadcasts_into(s.shape, tuple(dst.shape)):
        raise ValueError(f"could not broadcast input array from shape "
                         f"{_bind.numpy_shape_text(s.shape)} into shape "
                         f"{_bind.numpy_shape_text(dst.shape)}")
    if s.ndim > dst.ndim:  # (leading length-1 dims NumPy drops: fuzz46)
        s = s.reshape(s.shape[s.ndim - dst.ndim:])
    new = mp.broadcast_to(_cast_once(s, dst.dtype, site), dst.shape)
    dst[...] = new if where is True else ew.where(asarray(where), new, dst)


def _cast_once(s: Array, dtype: np.dtype, site: Any) -> Array:
    """copyto's source in dst's dtype, with NumPy's one ComplexWarning for complex values into
    a real dtype, at the user's line: the cast check's stand-in and the astype warned one each
    (`np.copyto(a, z, casting='unsafe')` warned twice; fuzz55's seed 228)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", np.exceptions.ComplexWarning)
        cast = s.astype(dtype)
    warn_complex_cast(s, dtype, site)
    return cast


def _cycled(values: Any, n: int) -> Array:
    v = mp.ravel(asarray(values))
    if v.size == n:
        return v
    return v[asarray(np.arange(n) % v.size)]


def putmask(a: Array, mask: Any, values: Any) -> None:
    """numpy.putmask: a.flat[i] = values.flat[i % len(values)] where mask.flat[i]."""
    _target(a, "putmask")
    m = asarray(mask)
    if m.shape != a.shape:
        raise ValueError("putmask: mask and data must be the same size")
    check_python_values(values, a.dtype)
    np.putmask(np.empty(0, a.dtype), np.empty(0, bool), _stand_in(values))  # NumPy's cast check
    if asarray(values).size == 0:
        return
    v = mp.reshape(_cycled(values, a.size), a.shape).astype(a.dtype)
    a[...] = ew.where(m.astype(bool), v, a)


def place(arr: Array, mask: Any, vals: Any) -> None:
    """numpy.place: the masked positions, in order, take vals cycled. The mask is read (its
    count of true values sets how many of vals are used)."""
    _target(arr, "place")
    m = np.asarray(mask).astype(bool).ravel()
    if m.size != arr.size:
        raise ValueError("place: mask and data must be the same size")
    where = np.flatnonzero(m)
    check_python_values(vals, arr.dtype)
    if isinstance(vals, (Array, np.ndarray)) and not np.can_cast(vals.dtype, arr.dtype):
        raise TypeError(f"Cannot cast array data from {vals.dtype!r} to {arr.dtype!r} according "
                        "to the rule 'safe'")  # (NumPy's place converts its values safely)
    v = mp.ravel(asarray(vals))
    if not where.size:
        return
    if v.size == 0:
        raise ValueError("Cannot insert from an empty array!")
    flat = mp.ravel(arr)
    flat[asarray(where)] = v[asarray(np.arange(where.size) % v.size)].astype(arr.dtype)
    arr[...] = mp.reshape(flat, arr.shape)


def put_along_axis(arr: Array, indices: Any, values: Any, axis: Any) -> None:
    """numpy.put_along_axis: arr[i..., indices, k...] = values, broadcast as NumPy's."""
    _target(arr, "put_along_axis")
    check_python_values(values, arr.dtype)
    idx = asarray(indices)
    if idx.dtype.kind not in "iu":
        raise IndexError("`indices` must be an integer array")
    if axis is None:
        if idx.ndim != 1:
            raise ValueError("when axis=None, `indices` must have a single dimension.")
        flat = mp.ravel(arr)
        flat[idx] = mp.broadcast_to(asarray(values).astype(arr.dtype), idx.shape)
        arr[...] = mp.reshape(flat, arr.shape)
        return
    axis = np.lib.array_utils.normalize_axis_index(operator.index(axis), arr.ndim)
    if idx.ndim != arr.ndim:
        raise ValueError("`indices` and `arr` must have the same number of dimensions")
    key = []
    for d in range(arr.ndim):
        if d == axis:
            key.append(idx)
        else:
            shape = [1] * arr.ndim
            shape[d] = arr.shape[d]
            key.append(asarray(np.arange(arr.shape[d]).reshape(shape)))
    shape = np.broadcast_shapes(*(k.shape for k in key))
    arr[tuple(key)] = mp.broadcast_to(asarray(values).astype(arr.dtype), shape)


def fill_diagonal(a: Array, val: Any, wrap: bool = False) -> None:
    """numpy.fill_diagonal: a.flat[:end:step] = val, NumPy's step and end (tall 2-D arrays
    wrap after N columns only with wrap=True)."""
    _target(a, "fill_diagonal")
    if a.ndim < 2:
        raise ValueError("array must be at least 2-d")
    if np.ndim(val) == 0 and (a.ndim > 2 or not wrap or a.shape[0] <= a.shape[1]) and (
            a.ndim == 2 or len(set(a.shape)) == 1):
        # the diagonal by index arrays: the same elements and NumPy's scalar assignment, an
        # at-once write (the flat view's write took ~60 us for a (20, 20) a, NumPy 0.9)
        ar = np.arange(min(a.shape))
        a[(ar,) * a.ndim] = val
        return
    end = None
    if a.ndim == 2:
        step = a.shape[1] + 1
        if not wrap:
            end = a.shape[1] * a.shape[1]
    else:
        if len(set(a.shape)) != 1:
            raise ValueError("All dimensions of input must be of equal length")
        step = 1 + int(np.cumprod(a.shape[:-1]).sum())
    a.flat[:end:step] = val
