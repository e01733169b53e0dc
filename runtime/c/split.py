"""Full reductions as two kernels, so the big one runs on all threads with a fixed combine order.

A kernel with no outer dims (`mean((a-b)**2)`, `x.max()`) has no independent iterations to share
between threads. From `min_elements` on, its first reduced dim is cut into C equal chunks:

    before  k           space (N,)       n_outer 0   stage 0: acc = sum(e[i])      stage 1: out = f(acc)
    after   k_partial   space (C, N/C)   n_outer 1   stage 0: acc = sum(e[c, j])   stage 1: part[c] = acc
            k           space (C,)       n_outer 0   stage 0: acc = sum(part[c])   stage 1: out = f(acc)

C depends only on N, never on the thread count, so a result has the same bits for any number of
threads. Only reductions whose partial results combine with the same op are split (every one
without the "index" property: sum, prod, max, min, any, all); the stages after the reduction may use
only its results and scalar arguments. float32 partials of accumulating reductions are kept in
float64, as the unsplit kernel's accumulator is. Reductions in NumPy's order keep its bits: a
float32/float64 sum in its pairwise order is cut only into the two halves NumPy's pairwise sum makes
(`_pairwise_halves`), and one folded one value after another (a product) is not cut.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from ...graph.kernel_ir import AccRef, BufferSpec, Index, Kernel, Load, Program, Reduce, Stage, Store
from .printer import folds_pairwise, folds_sequentially, pairwise_buffers, pairwise_is_complex

CHUNKS = (64, 48, 32, 16, 8)  # the first that divides the reduced dim
_F32, _F64 = np.dtype("float32"), np.dtype("float64")


def split_full_reductions(program: Program, min_elements: int) -> Program:
    """`program` with each splittable full reduction of at least `min_elements` as two kernels."""
    buffers = list(program.buffers)
    steps: list = []
    for step in program.steps:
        parts = _split(step, buffers, min_elements) if isinstance(step, Kernel) else None
        steps.extend(parts or (step,))
    if len(steps) == len(program.steps):
        return program
    return replace(program, buffers=tuple(buffers), steps=tuple(steps))


def _splittable(k: Kernel, min_elements: int) -> int | None:
    """The chunk count for kernel `k`, or None when it is not split."""
    if k.n_outer != 0 or not k.space or int(np.prod(k.space)) < min_elements:
        return None
    first, *rest = k.stages
    if not first.inner or not first.reduces:
        return None
    if any("index" in r.op.properties for r in first.reduces):
        return None
    rank = len(k.space)
    if folds_sequentially(k, first, rank, 0):
        return None  # NumPy's order (its bits) is one fold over the whole row: not cut
    if any(isinstance(e, Index) for e in first.exprs):
        return None
    for st in rest:
        if st.inner or st.reduces or any(isinstance(e, (Load, Index)) for e in st.exprs):
            return None
    if folds_pairwise(k, first, rank, 0):
        if pairwise_buffers(first):
            return None  # NumPy's buffers are added in order: one fold over the whole row
        return _pairwise_halves(k.space, pairwise_is_complex(first))
    return next((c for c in CHUNKS if k.space[0] % c == 0 and k.space[0] > c), None)


def _pairwise_halves(space: tuple[int, ...], complex_values: bool) -> int | None:
    """2 where NumPy's pairwise sum of the flat row (printer.py emit_pairwise) splits it into
    two equal halves along the first dim: its first cut is at n/2 - (n/2) % 8 (above 128
    values; complex: (n - n % 8) / 2 above 64), so each half's pairwise sum and `0.0 + h0 + h1`
    (the combine kernel, a row under 8) are NumPy's own additions. More chunks would add the
    partial sums in another order."""
    n = int(np.prod(space))
    if complex_values:
        return 2 if space[0] % 2 == 0 and n % 8 == 0 and n // 2 > 64 else None
    return 2 if space[0] % 2 == 0 and n % 16 == 0 and n // 2 > 128 else None


def _partial_dtype(r: Reduce, pairwise: bool) -> np.dtype:
    """A partial result's dtype: the unsplit kernel's accumulator's (float64 for float32 sums,
    but for those in NumPy's pairwise order, which adds in float32)."""
    widens = r.dtype == _F32 and "accumulates" in r.op.properties and not pairwise
    return _F64 if widens else r.dtype


def _split(k: Kernel, buffers: list[BufferSpec], min_elements: int) -> tuple[Kernel, ...] | None:
    chunks = _splittable(k, min_elements)
    if chunks is None:
        return None
    first, *rest = k.stages
    pairwise = folds_pairwise(k, first, len(k.space), 0)
    per_chunk = k.space[0] // chunks
    storage = max((b.storage for b in buffers), default=-1) + 1
    slots = []
    for q, r in enumerate(first.reduces):
        slots.append(len(buffers))
        buffers.append(BufferSpec((chunks,), _partial_dtype(r, pairwise), storage + q))
    exprs = tuple(replace(e, strides=(e.strides[0] * per_chunk, *e.strides))
                  if isinstance(e, Load) else e for e in first.exprs)
    stores = tuple(replace(s, strides=(s.strides[0] * per_chunk, *s.strides))
                   for s in first.stores)  # an elementwise output stored beside the reduction
    reduces = tuple(replace(r, dtype=_partial_dtype(r, pairwise)) for r in first.reduces)
    no_inner = (0,) * len(k.space)
    partial = Kernel(
        f"{k.name}_partial", (chunks, per_chunk, *k.space[1:]), 1,
        (Stage(True, exprs, reduces, stores),
         Stage(False, tuple(AccRef(0, q, r.dtype) for q, r in enumerate(reduces)), (),
               tuple(Store(slot, (1, *no_inner), 0, q) for q, slot in enumerate(slots)))),
        k.fused, k.sites)
    loads = tuple(Load(slot, (1,), 0, r.dtype) for slot, r in zip(slots, reduces))
    combine_stage = Stage(True, loads, tuple(Reduce(r.op, q, r.dtype)
                                             for q, r in enumerate(first.reduces)), ())
    later = tuple(replace(st, stores=tuple(replace(s, strides=(0,)) for s in st.stores))
                  for st in rest)
    return partial, Kernel(k.name, (chunks,), 0, (combine_stage, *later), k.fused, k.sites)
