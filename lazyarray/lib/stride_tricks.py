"""la.lib.stride_tricks.sliding_window_view.

NumPy returns a read-only strided *view* (no copy). Here the windows are a lazy gather (views
where they do not overlap: windows of 1 or of the whole axis): index
arrays `start + offset` along each windowed axis, so a consumer such as `.sum(axis=-1)` or a
product with a kernel fuses the gather into its own loop instead of materializing the windows.
The values and shape are NumPy's, and so is the result's being a read-only view: it follows
later writes to x, and writing it raises. `as_strided` (arbitrary strides over raw memory) has no lazy meaning.
"""

from __future__ import annotations

import operator
from typing import Any

import numpy as np

from .. import manipulation as mp
from ..array import Array
from ..cache import busy
from ..creation import asarray
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
    return view_of(v, Array(build(v._node)), build, writable=False)


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


def __getattr__(name: str) -> Any:
    if name == "as_strided":
        raise AttributeError("lazyarray.lib.stride_tricks.as_strided is not implemented: "
                             "arbitrary strides over memory have no meaning for a lazy value; "
                             "use sliding_window_view, broadcast_to or indexing")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
