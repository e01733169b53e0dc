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


def trailing_block(shape: tuple[int, ...], axes: tuple[int, ...]) -> int:
    """The values NumPy's sum over `axes` adds in one pairwise tree (unbuffered): the reduced
    dims after the last kept one (length-1 dims aside, which its iterator drops). Reduced dims
    before it are added block after block (`axis=(0, 2, 3)` of NCHW: a tree per H x W)."""
    last_kept = max((d for d in range(len(shape)) if d not in axes and shape[d] != 1), default=-1)
    return int(np.prod([shape[d] for d in axes if d > last_kept], dtype=np.int64))


def buffers_reduction(shape: tuple[int, ...], axes: tuple[int, ...]) -> bool:
    """Whether NumPy's buffered sum over `axes` of `shape` cuts a pairwise tree into buffers:
    a trailing block of more than BUFSIZE values. Smaller blocks are each one buffer's tree,
    as unbuffered."""
    return trailing_block(shape, axes) > BUFSIZE


def buffered_sum(blocks: np.ndarray, dtype) -> np.ndarray:
    """NumPy's buffered sum of `blocks` (kept..., blocks, block; values already in `dtype`):
    block after block, each in buffers of BUFSIZE values from the block's start, each buffer's
    pairwise sum added in order to the total from 0. Every addition is an `add.reduce`, so a
    flag it raises is reported as NumPy's ('overflow encountered in reduce')."""
    blocks = np.ascontiguousarray(blocks, dtype)
    total = np.zeros(blocks.shape[:-2], dtype)
    for k in range(blocks.shape[-2]):
        for start in range(0, blocks.shape[-1], BUFSIZE):
            part = np.add.reduce(blocks[..., k, start:start + BUFSIZE], axis=-1)
            total = np.add.reduce(np.stack([total, part]), axis=0)
    return total


def _reference(xs, attrs, dtype):
    x, (axes, keepdims) = np.asarray(xs[0]), attrs
    if not buffers_reduction(x.shape, axes):
        return np.asarray(np.add.reduce(x, axis=axes, keepdims=keepdims, dtype=dtype))
    kept = tuple(s for d, s in enumerate(x.shape) if d not in axes)
    blocks = np.moveaxis(x, axes, tuple(range(x.ndim - len(axes), x.ndim))).reshape(
        kept + (-1, trailing_block(x.shape, axes)))
    total = buffered_sum(blocks, dtype)
    if keepdims:
        total = total.reshape(tuple(1 if d in axes else s for d, s in enumerate(x.shape)))
    return np.asarray(total)


SUM_BUFFERED: OpDef = replace(get_op("sum"), name="sum_buffered", reference=_reference,
                              properties=get_op("sum").properties | {BUFFERED},
                              doc="sum of an operand NumPy casts in buffers of 8192 values")
