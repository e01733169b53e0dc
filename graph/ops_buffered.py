"""`sum`'s twin for NumPy's buffered reductions: a sum that casts its operand as it reduces.

`np.sum(x32, dtype=np.float64)`, `x32.mean(dtype=np.float64)`, `np.mean(ints)` (float64) and the
float32 sum of `np.mean(halves)` cast the operand inside the reduction, and NumPy's iterator casts
it through buffers of 8192 values (NPY_BUFSIZE): each output's values are summed pairwise one
buffer at a time, and the buffers' sums added in order from 0. `np.sum(x.astype(np.float64))`
sums the cast array in one pairwise tree instead. The two differ in the last bits from 8192
reduced values on (stop 50: 11 of 20 float64 means of 200,000 float32 normals). The twin
differs from `sum` only in that order (the property `BUFFERED`, read by runtime/c/printer.py
`emit_pairwise`) and in its reference; lazyarray/reductions.py binds it where NumPy buffers and
the order can matter (a float result, a cast, more than one buffer per output).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from .registry import OpDef, get_op

BUFFERED = "buffered"
BUFSIZE = 8192  # NumPy's NPY_BUFSIZE: the values one buffer holds


def buffers_reduction(shape: tuple[int, ...], axes: tuple[int, ...]) -> bool:
    """Whether NumPy's buffered sum over `axes` of `shape` takes several buffers per output in
    pairwise trees: the reduced dims trailing the kept ones (length-1 dims aside, which NumPy's
    iterator drops) and more than BUFSIZE values per output. A reduction over leading axes adds
    row after row, whatever the buffers."""
    kept = [d for d in range(len(shape)) if d not in axes and shape[d] != 1]
    reduced = [d for d in axes if shape[d] != 1]
    n = int(np.prod([shape[d] for d in reduced], dtype=np.int64))
    return n > BUFSIZE and all(d > k for d in reduced for k in kept)


def buffered_sum(rows: np.ndarray, dtype) -> np.ndarray:
    """NumPy's buffered sum over the last axis of `rows` (values already in `dtype`): each
    BUFSIZE-value buffer's pairwise sum, added in order from 0. Every addition is an
    `add.reduce`, so a flag it raises is reported as NumPy's ('overflow encountered in
    reduce')."""
    rows = np.ascontiguousarray(rows, dtype)
    total = np.zeros(rows.shape[:-1], dtype)
    for start in range(0, rows.shape[-1], BUFSIZE):
        part = np.add.reduce(rows[..., start:start + BUFSIZE], axis=-1)
        total = np.add.reduce(np.stack([total, part]), axis=0)
    return total


def _reference(xs, attrs, dtype):
    x, (axes, keepdims) = np.asarray(xs[0]), attrs
    if not buffers_reduction(x.shape, axes):
        return np.asarray(np.add.reduce(x, axis=axes, keepdims=keepdims, dtype=dtype))
    kept = tuple(s for d, s in enumerate(x.shape) if d not in axes)
    rows = np.moveaxis(x, axes, tuple(range(x.ndim - len(axes), x.ndim))).reshape(kept + (-1,))
    total = buffered_sum(rows, dtype)
    if keepdims:
        total = total.reshape(tuple(1 if d in axes else s for d, s in enumerate(x.shape)))
    return np.asarray(total)


SUM_BUFFERED: OpDef = replace(get_op("sum"), name="sum_buffered", reference=_reference,
                              properties=get_op("sum").properties | {BUFFERED},
                              doc="sum of an operand NumPy casts in buffers of 8192 values")
