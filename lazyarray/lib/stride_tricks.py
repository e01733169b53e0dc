"""la.lib.stride_tricks.sliding_window_view.

NumPy returns a read-only strided *view* (no copy). Here the windows are a lazy gather (views
where they do not overlap: windows of 1 or of the whole axis): index
arrays `start + offset` along each windowed axis, so a consumer such as `.sum(axis=-1)` or a
product with a kernel fuses the gather into its own loop instead of materializing the windows.
The values and shape are NumPy's, and so is the result's being a read-only view: it follows
later writes to x, and writing it raises.

`as_strided` reads the memory NumPy's x would have (its layout: lazyarray/numpy_flags.py) at the
strides given: the positions are computed on the host once, and the result is a gather of x's
root by them, linked as a read-only view (it follows later writes to the root). Where NumPy would
read outside the root's memory (undefined there) or between elements (a stride or offset not a
multiple of the item size) it is a ValueError. NumPy's default `writeable=True` view lets writes
through overlapping windows alias each other; here the result is read-only either way.
"""

from __future__ import annotations

import operator
from typing import Any

import numpy as np

from .. import manipulation as mp, numpy_flags
from ..array import Array
from ..cache import busy
from ..creation import asarray
from .. import writes
from ..writes import view_of


def sliding_window_view(x: Any, window_shape: Any, axis: Any = None, *, subok: bool = False,
                        writeable: bool = False) -> Array:
    """numpy.lib.stride_tricks.sliding_window_view: windowed axes shrink to n - w + 1 and the
    window axes are appended at the end, in the order given."""
    if writeable:
        raise ValueError("writeable=True: lazyarray values are immutable; write into a copy")
    v = asarray(x)
    shape = tuple(window_shape) if np.iterable(window_shape) else (window_shape,)
    shape = tuple(operator.index(w) for w in shape)
    if any(w < 0 for w in shape):
        raise ValueError("`window_shape` cannot contain negative values")
    if axis is None:
        if len(shape) != v.ndim:
            raise ValueError(f"Since axis is `None`, must provide window_shape for all "
                             f"dimensions of `x`; got {len(shape)} window_shape elements and "
                             f"`x.ndim` is {v.ndim}.")
        axes = tuple(range(v.ndim))
    else:
        axes = tuple(axis) if np.iterable(axis) else (axis,)
        axes = tuple(np.lib.array_utils.normalize_axis_index(a, v.ndim) for a in axes)
        if len(shape) != len(axes):
            raise ValueError(f"Must provide matching length window_shape and axis; got "
                             f"{len(shape)} window_shape elements and {len(axes)} axes elements.")
    for ax, w in zip(axes, shape):
        if v.shape[ax] < w:
            raise ValueError("window shape cannot be larger than input array shape")

    def build(node: Any) -> Any:
        out = Array(node)
        with busy():  # (a gather of a computed x stays pending: it reads x's buffer, so an
            for ax, w in zip(axes, shape):  # in-place write to x reaches it)
                out = _window_axis(out, ax, w)
        return out._node

    # NumPy's is a read-only view: it follows writes to x and refuses its own (fuzz47: a copy)
    out = view_of(v, Array(build(v._node)), build, writable=False)
    if any(1 < w < v.shape[ax] for ax, w in zip(axes, shape)):  # (a gather: NumPy's strides)
        strides = numpy_flags.strides(v)
        numpy_flags.declare_layout(out, out.shape, strides + tuple(strides[a] for a in axes))
    return out


def _window_axis(out: Array, ax: int, w: int) -> Array:
    """Axis `ax` of `out` in windows of `w`, the window axis appended. Windows that do not
    overlap (w == 1, w == n) are views (a new axis of 1, a transpose), whose layout NumPy's
    would have: `sliding_window_view(x, 1).ravel()` is then a read-only view of x, as NumPy's
    (the gather made every ravel a writable copy that x's later writes did not reach; fuzz49)."""
    n = out.shape[ax]
    if w == 1:
        return mp.expand_dims(out, -1)
    if w == n:
        return mp.moveaxis(mp.expand_dims(out, ax), ax + 1, -1)
    starts = np.arange(n - w + 1)[:, None] + np.arange(w)[None, :]
    return mp.moveaxis(out[(slice(None),) * ax + (asarray(starts),)], ax + 1, -1)


def as_strided(x: Any, shape: Any = None, strides: Any = None, subok: bool = False,
               writeable: bool = True) -> Array:
    """numpy.lib.stride_tricks.as_strided over the memory NumPy's x would have: a read-only
    view (a gather of x's root at the positions the strides name; see the module's text)."""
    if type(x) is not Array:
        return asarray(np.lib.stride_tricks.as_strided(np.asarray(x), shape, strides, subok,
                                                       writeable))
    link = x._view
    root = link[0] if type(link) is tuple else x
    size, item = root.size, x.dtype.itemsize
    if root.dtype != x.dtype:  # (`z.real` of a complex z: items of another size in its memory)
        raise ValueError("as_strided: this view reads items of another size than its base's "
                         "memory holds; take as_strided of a copy")
    memory, root_model = numpy_flags.root_memory(root)
    x_model = writes.numpy_layout_over(x, root_model)
    if x_model is None:
        raise ValueError("as_strided: the memory of this view (a dynamic index, or a view NumPy "
                         "does not take by strides here) is not known; take as_strided of its "
                         "base array, or of a copy")
    shape = x.shape if shape is None else tuple(operator.index(n) for n in shape)
    strides = x_model.strides if strides is None else tuple(operator.index(s) for s in strides)
    if len(strides) != len(shape):
        raise ValueError("mismatch in length of strides and shape")
    if any(n < 0 for n in shape):
        raise ValueError("negative dimensions are not allowed")
    start = memory.__array_interface__["data"][0]
    positions = _positions(x_model.__array_interface__["data"][0] - start, shape, strides, item,
                           size)
    root_positions = _positions(root_model.__array_interface__["data"][0] - start, root.shape,
                                root_model.strides, item, size)
    flat_index = np.empty(max(size, 1), np.int64)  # memory position -> the root's flat index
    flat_index[root_positions.ravel()] = np.arange(size, dtype=np.int64)
    picked = asarray(flat_index[positions])

    def build(node: Any) -> Any:
        with busy():  # (a gather of a computed root stays pending: writes to it reach it)
            return mp.reshape(Array(node), (size,))[picked]._node

    out = view_of(root, Array(build(root._node)), build, writable=False)
    return numpy_flags.declare_layout(out, shape, strides)


def _positions(offset: int, shape: tuple, strides: tuple, item: int, size: int) -> np.ndarray:
    """The element positions (in items from the root's first byte) that NumPy's as_strided view
    with this offset, shape and strides reads; its ValueError where one falls outside the root's
    memory or between items."""
    if offset % item or any(s % item for s in strides):
        raise ValueError("as_strided: an offset or stride that is not a multiple of the item "
                         f"size ({item} bytes) reads between elements; lazyarray refuses it")
    if 0 in shape:
        return np.zeros(shape, np.int64)
    low = offset + sum((n - 1) * s for n, s in zip(shape, strides) if s < 0)
    high = offset + sum((n - 1) * s for n, s in zip(shape, strides) if s > 0)
    if low < 0 or high > (size - 1) * item:
        raise ValueError("as_strided: these shape and strides read outside the array's memory "
                         "(undefined in NumPy); lazyarray refuses them")
    out = np.full(shape, offset // item, np.int64)
    for axis, (n, s) in enumerate(zip(shape, strides)):
        out += (np.arange(n, dtype=np.int64) * (s // item)).reshape(
            (n,) + (1,) * (len(shape) - axis - 1))
    return out
