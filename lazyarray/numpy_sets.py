"""NumPy's set routines and partial sorts: `union1d`/`intersect1d`/`setdiff1d`/`setxor1d`/`in1d`,
`partition`/`argpartition`, `lexsort`.

The set routines' result lengths are data (as `unique`'s): they evaluate their inputs and run
NumPy's own routine on the host, returning Arrays. `in1d` is `isin` of the ravelled input, lazy.
`partition`/`argpartition` are lazy library calls of NumPy's own (graph/ops_sorting.py): the
order inside the parts is NumPy's introselect's, unspecified but a function of each lane's values,
so a program that reads the parts sees NumPy's values (a full sort would satisfy the partition
property and still differ). `lexsort` is a chain of stable argsorts, lazy, NumPy's order exactly.
"""

from __future__ import annotations

import operator
from typing import Any

import numpy as np

from . import _bind, manipulation as mp
from .array import Array
from .jit import differentiating
from .creation import asarray, host_result
from .searching import argsort, isin, sort
from .shaping import gather_along_axis
from ._axis_args import refuse_bool_axis
from .graph import dtypes, get_op
from .graph.node import user_site

_PARTITION, _ARGPARTITION = get_op("partition"), get_op("argpartition")


def _host(x: Any) -> Any:
    """An argument for NumPy's own set routine: an Array's value (no dispatch back here); a
    Python number as it is, weak as NumPy takes it (`union1d(1.5, x32)` is float32 there: an
    array of it promoted to float64, fuzz57)."""
    return x if type(x) in (int, float, complex) else np.asarray(x)


def union1d(ar1: Any, ar2: Any) -> Array:
    """numpy.union1d (evaluates: the length is data)."""
    return asarray(np.union1d(_host(ar1), _host(ar2)))


def intersect1d(ar1: Any, ar2: Any, assume_unique: bool = False,
                return_indices: bool = False) -> Any:
    """numpy.intersect1d (evaluates: the length is data)."""
    out = np.intersect1d(_host(ar1), _host(ar2), assume_unique, return_indices)
    return tuple(asarray(o) for o in out) if return_indices else asarray(out)


def setdiff1d(ar1: Any, ar2: Any, assume_unique: bool = False) -> Array:
    """numpy.setdiff1d (evaluates: the length is data)."""
    return asarray(np.setdiff1d(_host(ar1), _host(ar2), assume_unique))


def setxor1d(ar1: Any, ar2: Any, assume_unique: bool = False) -> Array:
    """numpy.setxor1d (evaluates: the length is data)."""
    return asarray(np.setxor1d(_host(ar1), _host(ar2), assume_unique))


def in1d(ar1: Any, ar2: Any, assume_unique: bool = False, invert: bool = False, *,
         kind: Any = None) -> Array:
    """numpy.in1d (removed in NumPy 2.4; `isin` of the ravelled input), lazy."""
    return isin(mp.ravel(asarray(ar1)), asarray(ar2), invert=invert)


def _check_kth(x: Array, kth: Any, axis: Any, kind: Any, order: Any = None
               ) -> tuple[Array, int, tuple[int, ...]]:
    """NumPy's checks of partition's arguments, in its order (a kind that is no str is its
    TypeError; `order=` of an array without fields its ValueError: it was ignored, fuzz56): the
    Array (ravelled for axis=None), the axis and the ranks as ints."""
    if not isinstance(kind, str):
        raise TypeError(f"select kind must be str, not {type(kind).__name__}")
    if kind != "introselect":
        raise ValueError(f"select kind must be 'introselect' (got {kind!r})")
    if order is not None:
        raise ValueError("Cannot specify order when the array has no fields.")
    if axis is None:
        x, axis = mp.ravel(x), 0
    axis = operator.index(axis)  # (a tuple: NumPy's TypeError, also for a 0-d array)
    if x.ndim == 0:
        raise np.exceptions.AxisError(axis, 0)
    if not -x.ndim <= axis < x.ndim:
        raise np.exceptions.AxisError(axis, x.ndim)
    n = x.shape[axis]
    ks = np.asarray(kth)
    if ks.dtype.kind == "b":  # NumPy's class: kth=True is no index 1
        raise ValueError("Booleans unacceptable as partition index")
    if ks.dtype.kind not in "iu":
        raise TypeError("Partition index must be integer")
    if ks.ndim > 1:
        raise ValueError("setting an array element with a sequence. The requested array would "
                         "exceed the maximum number of dimension of 1.")  # NumPy's text
    for k in ks.ravel():
        if not -n <= k < n:
            raise ValueError(f"kth(={k + n if k < 0 else k}) out of bounds ({n})")  # NumPy
            # names a negative kth after adding n (`kth=-5` of 3: 'kth(=-2)', probe55)
    kths = int(ks) if ks.ndim == 0 else tuple(int(k) for k in ks)
    return x, axis % x.ndim, kths


def partition(a: Any, kth: Any, axis: Any = -1, kind: str = "introselect",
              order: Any = None) -> Array:
    """numpy.partition: NumPy's own, lazy (see the module docstring); while la.grad traces, the
    gather of argpartition's indices (differentiable, the same values)."""
    x, axis, kths = _check_kth(asarray(a), kth, axis, kind, order)
    if differentiating():
        return gather_along_axis(x, argpartition(x, kth, axis), axis, in_bounds=True)
    node = x._node
    return Array(_bind.primitive(_PARTITION, (node,), (kths, axis), node.shape, node.dtype,
                                 user_site(1)))


def argpartition(a: Any, kth: Any, axis: Any = -1, kind: str = "introselect",
                 order: Any = None) -> Array:
    """numpy.argpartition: NumPy's own, lazy (its order of equal keys and inside the parts)."""
    refuse_bool_axis(axis)  # (NumPy's partition takes True as 1)
    x, axis, kths = _check_kth(asarray(a), kth, axis, kind, order)
    node = x._node
    return Array(_bind.primitive(_ARGPARTITION, (node,), (kths, axis), node.shape, dtypes.int64,
                                 user_site(1)))


def lexsort(keys: Any, axis: int = -1) -> Array:
    """numpy.lexsort: indices sorting by the last key, ties broken by the one before, and so on
    (stable argsorts from the first key to the last)."""
    if isinstance(keys, Array) or isinstance(keys, np.ndarray):
        keys = asarray(keys)
        if keys.ndim == 0:
            raise TypeError("need sequence of keys with len > 0 in lexsort")
        keys = [keys[i] for i in range(keys.shape[0])]  # rows are keys (a 1-D x: 0-d keys)
    keys = [asarray(k) for k in keys]
    if not keys:
        raise TypeError("need sequence of keys with len > 0 in lexsort")
    if len({k.shape for k in keys}) != 1:
        raise ValueError("all keys need to be the same shape")
    if keys[0].ndim == 0:  # NumPy: scalar keys sort one element (its scalar: a 0-d array
        return host_result(np.intp(0))  # here, fuzz57)
    idx = argsort(keys[0], axis=axis, stable=True)
    for k in keys[1:]:
        order = argsort(gather_along_axis(k, idx, axis, in_bounds=True), axis=axis, stable=True)
        idx = gather_along_axis(idx, order, axis, in_bounds=True)
    return idx
