"""NumPy's ordering of complex numbers, which the Array API leaves undefined (lazyarray raised
TypeError): the comparisons `<`, `<=`, `>`, `>=`, `maximum`/`minimum`/`fmax`/`fmin` (so `clip`)
and the `max`/`min`/`argmax`/`argmin` reductions (so `ptp`); with them the logical ops, which
NumPy also defines for complex (truth: `z != 0`). (`exp2` is not here: as exp(z ln 2) its values
are NumPy's, but its warnings would name `exp`.)

Lexicographic, real part first, NaNs as NumPy's loops treat them (numpy/_core/src/umath/
loops.c.src): CGT(x, y) = (xr > yr and neither imaginary part NaN) or (xr == yr and xi > yi), and
CGE, CLT, CLE alike; `maximum` keeps x where x has a NaN part or CGE(x, y), else y (`fmax`/`fmin`,
lazyarray/numpy_math.py's, build on these); a `max` reduction is `maximum.reduce`, so its first NaN
element in order, else the lexicographic maximum; `argmax` (arraytypes) the first NaN's index,
else the first maximum's. Composites of real/imag/isnan/where: lazy and fused like any
expression, on every backend. Registered into `_bind` and `reductions` at import (the layers
below cannot import these)."""

from __future__ import annotations

import functools
import math
from typing import Any

import numpy as np

from . import _bind, elementwise as ew, reductions
from .array import Array, scalar_result
from .complex_functions import from_parts, imag, real
from .creation import asarray
from .graph import get_op
from .graph.node import Node
from .manipulation import moveaxis, reshape
from .shaping import take_along_axis


def _parts(x: Array) -> tuple[Array, Array, Array]:
    re, im = real(x), imag(x)
    return re, im, ew.logical_or(ew.isnan(re), ew.isnan(im))


def _order(name: str, a: Array, b: Array) -> Array:
    """CGT/CGE/CLT/CLE of NumPy's complex loops."""
    ar, ai = real(a), imag(a)
    br, bi = real(b), imag(b)
    strict = ew.greater(ar, br) if name in ("greater", "greater_equal") else ew.less(ar, br)
    tie = getattr(ew, name)(ai, bi)
    no_nan = ew.logical_and(ew.logical_not(ew.isnan(ai)), ew.logical_not(ew.isnan(bi)))
    return ew.logical_or(ew.logical_and(strict, no_nan), ew.logical_and(ew.equal(ar, br), tie))


def _binary(name: str, args: tuple, dtype: np.dtype, site: Any) -> Node:
    a, b = [x.astype(dtype) if type(x) is Array else asarray(x, dtype=dtype) for x in args]
    if name in ("greater", "greater_equal", "less", "less_equal"):
        return _order(name, a, b)._node
    keeps_a = ew.logical_or(_parts(a)[2],  # a NaN in x propagates; one in y wins the comparison
                            _order("greater_equal" if name == "maximum" else "less_equal", a, b))
    return ew.where(keeps_a, a, b)._node


def _last_axes(z: Array, axes: tuple[int, ...]) -> Array:
    """z with `axes` moved last and merged into one (the reduced one)."""
    kept = [d for d in range(z.ndim) if d not in axes]
    moved = moveaxis(z, list(axes), list(range(len(kept), z.ndim)))
    return reshape(moved, tuple(z.shape[d] for d in kept) + (math.prod(z.shape[d] for d in axes),))


def _extreme(name: str, node: Node, axes: tuple[int, ...], keepdims: bool) -> Array:
    """max/min/argmax/argmin of a complex array over `axes` (argmax/argmin: one axis)."""
    z = _last_axes(Array(node), axes)
    re, im, nan = _parts(z)
    big = name in ("max", "argmax")
    extreme = reductions.max if big else reductions.min
    fill = -np.inf if big else np.inf
    top_re = extreme(ew.where(nan, fill, re), axis=-1, keepdims=True)
    at_top = ew.logical_and(ew.logical_not(nan), ew.equal(re, top_re))
    top_im = extreme(ew.where(at_top, im, fill), axis=-1, keepdims=True)
    first_nan = reductions.argmax(nan, axis=-1, keepdims=True)
    any_nan = reductions.any(nan, axis=-1, keepdims=True)
    if name in ("argmax", "argmin"):
        first_top = reductions.argmax(ew.logical_and(at_top, ew.equal(im, top_im)), axis=-1,
                                      keepdims=True)
        out = ew.where(any_nan, first_nan, first_top)
    else:
        out = ew.where(any_nan, take_along_axis(z, first_nan, axis=-1), from_parts(top_re, top_im))
    kept = tuple(n for d, n in enumerate(node.shape) if d not in axes)
    shape = tuple(1 if d in axes else n for d, n in enumerate(node.shape)) if keepdims else kept
    out = reshape(out, shape)
    return out if shape else scalar_result(out._node)  # (NumPy's scalar, as a real reduction's)


def _logical(name: str, args: tuple, dtype: np.dtype, site: Any) -> Node:
    """NumPy's logical ops of complex numbers: each operand's truth is `z != 0`."""
    truths = [ew.not_equal(x.astype(dtype) if type(x) is Array else asarray(x, dtype=dtype), 0)
              for x in args]
    return getattr(ew, name)(*truths)._node


for _name in ("greater", "greater_equal", "less", "less_equal", "maximum", "minimum"):
    _bind.COMPLEX_ORDERING[get_op(_name)] = functools.partial(_binary, _name)
for _name in ("logical_and", "logical_or", "logical_xor", "logical_not"):
    _bind.COMPLEX_ORDERING[get_op(_name)] = functools.partial(_logical, _name)
reductions.COMPLEX_EXTREME[0] = _extreme
