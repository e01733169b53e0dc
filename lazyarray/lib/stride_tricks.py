"""la.lib.stride_tricks.sliding_window_view.

NumPy returns a read-only strided *view* (no copy). Here the windows are a lazy gather: index
arrays `start + offset` along each windowed axis, so a consumer such as `.sum(axis=-1)` or a
product with a kernel fuses the gather into its own loop instead of materializing the windows.
The values and shape are NumPy's; writing through the result cannot reach x (NumPy's is
read-only too). `as_strided` (arbitrary strides over raw memory) has no lazy meaning.
"""

from __future__ import annotations

import operator
from typing import Any

import numpy as np

from .. import manipulation as mp
from ..array import Array
from ..creation import asarray


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
    out = v
    for ax, w in zip(axes, shape):
        n = out.shape[ax]
        if n < w:
            raise ValueError("window shape cannot be larger than input array shape")
        starts = np.arange(n - w + 1)[:, None] + np.arange(w)[None, :]
        out = out[(slice(None),) * ax + (asarray(starts),)]
        out = mp.moveaxis(out, ax + 1, -1)
    return out


def __getattr__(name: str) -> Any:
    if name == "as_strided":
        raise AttributeError("lazyarray.lib.stride_tricks.as_strided is not implemented: "
                             "arbitrary strides over memory have no meaning for a lazy value; "
                             "use sliding_window_view, broadcast_to or indexing")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
