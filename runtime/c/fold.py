"""The C backend's reduction fold order, replayed with NumPy: reductions can run tiered.

A C reduction stage folds each output's values into `lane_count(stage)` partial results
(runtime/c/printer.py `emit_reduce_stage`): along the last collapsed inner dim in chunks of L
lanes (lane l takes element c*L + l), the rest of each row into lane 0, row after row; then the
lanes in order, lane 0 first, and a cast to the result dtype. NumPy's own sum is pairwise, so its
bits differ, and a plan with a float sum used to wait for its compile (runtime/c/tiered.py).
`fold_rows` does the same additions in the same order: each lane's sequence through
`ufunc.accumulate` (sequential by definition), starting from the identity as C's accumulators
do, in the accumulator's dtype (float32 sums and products in float64, except those folded in
NumPy's order, in their own dtype: printer.py `folds_in_dtype`, `folds_pairwise`).

    sum over n = 19, L = 8:  lane 0: id + x0 + x8 + x16 + x17 + x18   lane l: id + x_l + x_(8+l)
                             result: ((lane0 + lane1) + lane2) + ... + lane7

A column reduction (printer.py `folds_columns`: `x.sum(axis=0)`) has no lanes: each output is
id + x0 + x1 + ... in the inner space's row-major order. A float32/float64 sum of values of its
dtype (printer.py `folds_pairwise`) is NumPy's pairwise sum of the inner space's row-major values:
NumPy's `add.reduce` over the last axis of a contiguous copy gives its bits; a float product and
a column reduction's float sum (`folds_sequentially`) are one value after another from the
identity in the result dtype, NumPy's `multiply.reduce` and its row-by-row `add`.

Which reductions replay (`replays`): those whose registry entry names the NumPy ufunc of its
C combine (`OpDef.fold`: sum, prod) on real numbers; integer and bool reductions that no order
can change (wrapping sums and products, extremes, any/all: NumPy's reference gives C's bits);
arg reductions (the first index of the extreme, the first NaN, in both). Not float max/min: their
lanes may pick the other zero's sign (docs/semantics.md), nor float16 or complex accumulators.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np

from ...graph.kernel_ir import Kernel, Reduce, Stage
from .layout import plan_layout
from ...graph.ops_buffered import buffered_sum
from .printer import (folds_columns, folds_in_dtype, folds_sequentially, lane_count,
                      pairwise_block, pairwise_buffers, sums_in_trees)

_F32, _F64 = np.dtype(np.float32), np.dtype(np.float64)


def replays(red: Reduce, stage: Stage) -> bool:
    """Whether `fold_rows` (or the NumPy reference) gives this reduction's C bits."""
    value, acc = np.dtype(stage.exprs[red.value].dtype), _acc_dtype(red)
    if value.kind == "f" and value.itemsize < 4:
        return False  # float16: C computes in float32 (docs/semantics.md)
    if "index" in red.op.properties:
        return value.kind in "biuf"
    if value.kind in "biu" and acc.kind in "biu":
        return True
    return (red.op.fold is not None and value.kind in "biuf" and acc.kind == "f"
            and acc.itemsize >= 4 and np.dtype(red.dtype).itemsize >= 4)


def fold_rows(kernel: Kernel, stage: Stage, red: Reduce, rows: np.ndarray) -> np.ndarray:
    """`red` over the last axis of `rows` (outer..., inner elements in row-major order), with
    the C kernel's bits."""
    acc_dt = _acc_dtype(red, kernel)
    ufunc = red.op.fold
    if ufunc is None or acc_dt.kind != "f" or rows.size == 0:
        # order-free (or empty: the identity either way): NumPy's reference is C's answer
        attrs = ((rows.ndim - 1,), False)
        return np.asarray(red.op.reference((rows,), attrs, red.dtype)).astype(red.dtype)
    if _folds_pairwise(kernel, stage):  # NumPy's own pairwise order (printer.py emit_pairwise)
        return _pairwise_trees(kernel, stage, np.ascontiguousarray(rows, red.dtype))
    identity = np.asarray(red.op.reduce_identity(acc_dt), acc_dt)
    if _folds_sequentially(kernel, stage):  # in order, in its dtype (printer.py emit_sequential)
        return _sequential(ufunc, rows.astype(acc_dt), identity).astype(red.dtype)
    if _folds_columns(kernel):  # one accumulator per output: the row in order
        return _sequential(ufunc, rows.astype(acc_dt), identity).astype(red.dtype)
    n, lanes = _row_length(kernel), lane_count(stage)
    values = rows.astype(acc_dt).reshape(rows.shape[:-1] + (-1, n))  # (outer..., rows, n)
    outer, per_row = values.shape[:-2], n // lanes
    body = per_row * lanes
    chunks = values[..., :body].reshape(outer + (values.shape[-2], per_row, lanes))
    first = np.concatenate([chunks[..., 0], values[..., body:]], axis=-1)  # lane 0 takes the rest
    others = np.moveaxis(chunks[..., 1:], -1, -3).reshape(outer + (lanes - 1, -1))
    acc = [_sequential(ufunc, first.reshape(outer + (1, -1)), identity),
           _sequential(ufunc, others, identity)]
    partials = np.concatenate(acc, axis=-1)  # (outer..., lanes), lane 0 first
    return _sequential(ufunc, partials[..., 1:], partials[..., 0]).astype(red.dtype)


def _pairwise_trees(kernel: Kernel, stage: Stage, rows: np.ndarray) -> np.ndarray:
    """printer.py emit_pairwise's sum of each row: one pairwise tree (NumPy's `add.reduce` of
    the row), or a tree per block (`pairwise_block`) and per buffer (`pairwise_buffers`),
    their sums added in order from 0."""
    block = pairwise_block(kernel, stage) or rows.shape[-1]
    if block == rows.shape[-1] and not pairwise_buffers(stage):
        return np.add.reduce(rows, axis=-1)
    blocks = rows.reshape(rows.shape[:-1] + (-1, block))
    if pairwise_buffers(stage):
        return buffered_sum(blocks, rows.dtype)
    return _sequential(np.add, np.add.reduce(blocks, axis=-1), np.zeros((), rows.dtype))


@lru_cache(maxsize=256)
def _row_length(kernel: Kernel) -> int:
    """The extent of the C kernel's innermost reduced loop (its collapsed last inner dim)."""
    lay = plan_layout(kernel)
    return lay.extents[-1] if lay.n_outer < len(lay.extents) else 1


def _folds_pairwise(kernel: Kernel, stage: Stage) -> bool:
    """Whether the C kernel sums this stage in NumPy's pairwise order (printer.py)."""
    return sums_in_trees(kernel, stage, plan_layout(kernel))


def _folds_sequentially(kernel: Kernel, stage: Stage) -> bool:
    """Whether the C kernel folds this stage's values in order, in their dtype (printer.py)."""
    lay = plan_layout(kernel)
    return (not folds_columns(kernel, lay)
            and folds_sequentially(kernel, stage, len(lay.extents), lay.n_outer))


@lru_cache(maxsize=256)
def _folds_columns(kernel: Kernel) -> bool:
    """Whether the C kernel folds column-wise (printer.py `folds_columns`): each output's values
    one after another from the identity, no lanes."""
    return folds_columns(kernel, plan_layout(kernel))


def _sequential(ufunc: np.ufunc, seq: np.ndarray, start: Any) -> np.ndarray:
    """start ⊕ seq[..., 0] ⊕ seq[..., 1] ⊕ ... left to right, over the last axis."""
    start = np.broadcast_to(start, seq.shape[:-1] + (1,)) if np.ndim(start) == 0 else (
        np.asarray(start)[..., None])
    return ufunc.accumulate(np.concatenate([start.astype(seq.dtype), seq], axis=-1),
                            axis=-1)[..., -1]


def _acc_dtype(red: Reduce, kernel: Kernel | None = None) -> np.dtype:
    """The C accumulator's dtype (`KernelPrinter.reduce_spec`)."""
    dt = np.dtype(red.dtype)
    widens = kernel is None or not folds_in_dtype(red, kernel)
    return _F64 if dt == _F32 and "accumulates" in red.op.properties and widens else dt
