"""NumPy's window functions, `i0` and `unwrap`.

The windows (`bartlett`, `blackman`, `hamming`, `hanning`, `kaiser`) depend on their length only:
NumPy computes the M numbers and they become a constant Array. `i0` is NumPy's Chebyshev
evaluation (Cephes' coefficients, NumPy's own tables) for both ranges, selected per element, lazy.
`unwrap` is NumPy's formula (diff, modulo the period, cumulative correction), lazy.
"""

from __future__ import annotations

import operator
from typing import Any

import numpy as np
from numpy.lib import _function_base_impl as _fb  # NumPy's i0 coefficient tables

from . import elementwise as ew
from . import manipulation as mp
from . import reductions as red
from .array import Array, zero_d_array
from .creation import asarray
from .shaping import diff


def bartlett(M: int) -> Array:  # noqa: N803
    """numpy.bartlett."""
    return asarray(np.bartlett(M))


def blackman(M: int) -> Array:  # noqa: N803
    """numpy.blackman."""
    return asarray(np.blackman(M))


def hamming(M: int) -> Array:  # noqa: N803
    """numpy.hamming."""
    return asarray(np.hamming(M))


def hanning(M: int) -> Array:  # noqa: N803
    """numpy.hanning."""
    return asarray(np.hanning(M))


def kaiser(M: int, beta: float) -> Array:  # noqa: N803
    """numpy.kaiser."""
    return asarray(np.kaiser(M, beta))


def _chbevl(x: Array, vals: Any) -> Array:
    b0, b1, b2 = vals[0], 0.0, 0.0
    for c in vals[1:]:
        b2, b1 = b1, b0
        b0 = x * b1 - b2 + c
    return 0.5 * (b0 - b2)


def i0(x: Any) -> Array:
    """numpy.i0: the modified Bessel function of order 0 (float64 for integer inputs)."""
    v = asarray(x)
    if v.dtype.kind == "c":
        raise TypeError("i0 not supported for complex values")
    if v.dtype.kind != "f":
        v = v.astype(np.float64)
    v = ew.abs(v)
    near = v <= 8.0
    # each branch on its own values, as NumPy's piecewise: the far one's 32 / 0 and the near
    # one's exp of a far value raised flags NumPy's i0 does not (fuzz44)
    vs, vl = ew.where(near, v, 0.0), ew.where(near, 16.0, v)
    small = ew.exp(vs) * _chbevl(vs / 2.0 - 2, _fb._i0A)
    large = ew.exp(vl) * _chbevl(32.0 / vl - 2.0, _fb._i0B) / ew.sqrt(vl)
    out = ew.where(near, small, large)
    return out if out.ndim else zero_d_array(out)  # (NumPy's piecewise: a 0-d array, probe55)


def unwrap(p: Any, discont: Any = None, axis: int = -1, *, period: float = 2 * np.pi) -> Array:
    """numpy.unwrap: jumps larger than max(discont, period/2) replaced by their period
    complement, NumPy's steps."""
    x = asarray(p)
    axis = np.lib.array_utils.normalize_axis_index(operator.index(axis), x.ndim)
    dd = diff(x, axis=axis)
    if discont is None:
        discont = period / 2
    dtype = np.result_type(dd.dtype, period)
    if np.issubdtype(dtype, np.integer):
        high, rem = divmod(period, 2)
        ambiguous = rem == 0
    else:
        high, ambiguous = period / 2, True
    low = -high
    ddmod = ew.remainder(dd - low, period) + low
    if ambiguous:
        ddmod = ew.where((ddmod == low) & (dd > 0), high, ddmod).astype(ddmod.dtype)
    correct = ew.where(ew.abs(dd) < discont, 0, ddmod - dd).astype((ddmod - dd).dtype)
    head = [slice(None)] * x.ndim
    tail = [slice(None)] * x.ndim
    head[axis], tail[axis] = slice(0, 1), slice(1, None)
    rest = x[tuple(tail)] + red.cumsum(correct, axis=axis)
    return mp.concat([x[tuple(head)].astype(dtype), rest.astype(dtype)], axis=axis)
