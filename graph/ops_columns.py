"""`prod`'s twin for NumPy's column products: a complex product over axes before the operand's
last kept one.

NumPy's `multiply.reduce` runs one of two loops. Where the innermost dim it iterates is reduced
(`prod(z)`, `prod(z, axis=-1)`) its reduce loop multiplies one value after another in the plain
form `(a*c - b*d, a*d + b*c)`; where a kept dim is innermost (`prod(z, axis=0)` of a matrix) it
multiplies whole rows with its binary multiply loop, whose SIMD form on an FMA machine rounds
`fma(a, c, -(b*d))`, `fma(a, d, b*c)`: a last bit apart on about a third of complex products
(stop 51). The planner binds this twin where the binary loop runs (passes/fuse_lower.py, from
NumPy's memory order of the operand); the C and CUDA templates fold with `la_fmul`, the
elementwise multiply's helper, and the reference multiplies row after row with NumPy's own
multiply (which takes that SIMD loop).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from .registry import OpDef, get_op


def _reference(xs, attrs, dtype):
    """Row after row from 1 in the reduced dims' row-major order, with `np.multiply` on whole
    rows (NumPy's binary loop, as its column reduction runs it)."""
    x, (axes, keepdims) = np.asarray(xs[0]), attrs
    axes = tuple(sorted(a % max(x.ndim, 1) for a in axes))
    kept = tuple(d for d in range(x.ndim) if d not in axes)
    rows = np.transpose(x, axes + kept).reshape((-1,) + tuple(x.shape[d] for d in kept))
    total = np.ones(rows.shape[1:], dtype)
    for row in rows.astype(dtype, copy=False):
        total = np.multiply(total, np.ascontiguousarray(row))
    if keepdims:
        total = total.reshape(tuple(1 if d in axes else s for d, s in enumerate(x.shape)))
    return np.asarray(total)


_PROD = get_op("prod")
PROD_COLUMNS: OpDef = replace(_PROD, name="prod_columns", reference=_reference,
                              c={**_PROD.c, "c": "{acc} = la_fmul_{S}({acc}, {0})"},
                              doc="product over axes NumPy reduces with its binary loop")
