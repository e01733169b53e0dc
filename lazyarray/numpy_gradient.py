"""numpy.gradient: NumPy's formulas and operands step for step, lazy.

Central differences inside, one-sided differences (first or second order) at the two ends,
joined by one concat per axis (NumPy writes the three parts into an `empty_like` buffer of the
output dtype; the concat of the same values cast to that dtype is the same array). Spacings are
host values, as NumPy's: coordinate arrays are read (evaluated) so that NumPy's "all differences
equal -> scalar spacing" shortcut, and its coefficient arrays, are NumPy's own numbers.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from . import manipulation as mp
from .array import Array
from .creation import asarray


def _spacings(varargs: tuple, f: Array, axes: tuple[int, ...]) -> list[Any]:
    n = len(varargs)
    if n == 0:
        return [1.0] * len(axes)
    if n == 1 and np.ndim(varargs[0]) == 0:
        return list(varargs) * len(axes)
    if n != len(axes):
        raise TypeError("invalid number of arguments")
    dx = list(varargs)
    for i, distances in enumerate(dx):
        d = np.asarray(distances)
        if d.ndim == 0:
            continue
        if d.ndim != 1:
            raise ValueError("distances must be either scalars or 1d")
        if len(d) != f.shape[axes[i]]:
            raise ValueError("when 1d, distances must match the length of the corresponding "
                             "dimension")
        if np.issubdtype(d.dtype, np.integer):
            d = d.astype(np.float64)
        diffx = np.diff(d)
        dx[i] = diffx[0] if (diffx == diffx[0]).all() else diffx
    return dx


def gradient(f: Any, *varargs: Any, axis: Any = None, edge_order: int = 1) -> Any:
    """numpy.gradient (spacing scalars or coordinate arrays per axis; edge_order 1 or 2)."""
    f = asarray(f)
    n = f.ndim
    axes = tuple(range(n)) if axis is None else tuple(
        np.lib.array_utils.normalize_axis_tuple(axis, n))
    dx = _spacings(varargs, f, axes)
    if edge_order > 2:
        raise ValueError("'edge_order' greater than 2 not supported")
    otype = f.dtype
    if otype.kind not in "fc":
        if otype.kind in "iu":
            f = f.astype(np.float64)
        otype = np.dtype(np.float64)
    outs = [_along(f, ax, d, edge_order, otype) for ax, d in zip(axes, dx)]
    return outs[0] if len(axes) == 1 else tuple(outs)


def _along(f: Array, axis: int, ax_dx: Any, edge_order: int, otype: np.dtype) -> Array:
    if f.shape[axis] < edge_order + 1:
        raise ValueError("Shape of array too small to calculate a numerical gradient, at least "
                         "(edge_order + 1) elements are required.")

    def part(start: Any, stop: Any) -> Array:
        key = [slice(None)] * f.ndim
        key[axis] = slice(start, stop)
        return f[tuple(key)]

    uniform = np.ndim(ax_dx) == 0
    if uniform:
        inner = (part(2, None) - part(None, -2)) / (2. * ax_dx)
    else:
        shape = [1] * f.ndim
        shape[axis] = -1
        dx1, dx2 = ax_dx[0:-1], ax_dx[1:]
        a = asarray((-(dx2) / (dx1 * (dx1 + dx2))).reshape(shape))
        b = asarray(((dx2 - dx1) / (dx1 * dx2)).reshape(shape))
        c = asarray((dx1 / (dx2 * (dx1 + dx2))).reshape(shape))
        inner = a * part(None, -2) + b * part(1, -1) + c * part(2, None)
    if edge_order == 1:
        dx_0 = ax_dx if uniform else ax_dx[0]
        dx_n = ax_dx if uniform else ax_dx[-1]
        first = (part(1, 2) - part(0, 1)) / dx_0
        last = (part(-1, None) - part(-2, -1)) / dx_n
    else:
        a, b, c = _second_order(ax_dx, uniform, start=True)
        first = a * part(0, 1) + b * part(1, 2) + c * part(2, 3)
        a, b, c = _second_order(ax_dx, uniform, start=False)
        last = a * part(-3, -2) + b * part(-2, -1) + c * part(-1, None)
    return mp.concat([first.astype(otype), inner.astype(otype), last.astype(otype)], axis=axis)


def _second_order(ax_dx: Any, uniform: bool, start: bool) -> tuple[Any, Any, Any]:
    if uniform:
        return (-1.5 / ax_dx, 2. / ax_dx, -0.5 / ax_dx) if start else (
            0.5 / ax_dx, -2. / ax_dx, 1.5 / ax_dx)
    if start:
        dx1, dx2 = ax_dx[0], ax_dx[1]
        return (-(2. * dx1 + dx2) / (dx1 * (dx1 + dx2)), (dx1 + dx2) / (dx1 * dx2),
                - dx1 / (dx2 * (dx1 + dx2)))
    dx1, dx2 = ax_dx[-2], ax_dx[-1]
    return ((dx2) / (dx1 * (dx1 + dx2)), - (dx2 + dx1) / (dx1 * dx2),
            (2. * dx2 + dx1) / (dx2 * (dx1 + dx2)))
