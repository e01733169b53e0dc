"""Run a kernel-IR Program with NumPy: the executable definition of the kernel IR.

Every fusion decision is tested through this executor on any machine, no compiler needed:
- a Load is an `as_strided` view over the flat buffer (stride 0 broadcasts, negative steps flip),
  at its offset plus the run-time part its scalar arguments give (`Load.dynamic`);
- an Apply is the op's registry `reference` (the same oracle the node-by-node interpreter uses);
- a reduce stage folds its value over the inner axes with the reduction's `reference`;
- a Store assigns through a strided view of the output buffer;
- buffers sharing a `storage` share memory, so the memory plan (reuse, in place) is exercised.
Stages evaluate on the full loop shape (inner stages) or on outer + (1,) * n_inner (outer stages).
"""

from __future__ import annotations

import math
from functools import lru_cache
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from numpy.lib.stride_tricks import as_strided

from ..graph.kernel_ir import (
    AccRef,
    RowValue,
    Apply,
    Const,
    Index,
    Kernel,
    LibraryCall,
    Load,
    Program,
    Reduce,
    ScalarArg,
    dynamic_offset,
)
from ..graph.ops_buffered import BUFFERED, buffered_sum
from .backend import DATA_ERRORS, at_site, run_in_place
from .fp_status import numpy_errstate
from .interpreter import forward


def _strided(buf: np.ndarray, strides: tuple[int, ...], offset: int,
             shape: tuple[int, ...]) -> np.ndarray:
    if 0 in shape:
        return np.empty(shape, buf.dtype)
    flat = buf.reshape(-1)
    size = buf.dtype.itemsize
    byte_strides = tuple(s * size for s in strides)
    try:  # (np.lib.stride_tricks.as_strided's Python wrapper cost ~10 us of a tiny kernel's run)
        return np.ndarray(shape, buf.dtype, flat, offset * size, byte_strides)
    except (TypeError, ValueError):
        return as_strided(flat[offset:], shape, byte_strides)


def as_input(value: Any, dtype: np.dtype, shape: tuple[int, ...]) -> np.ndarray:
    """A leaf as the C-contiguous array of the planned dtype and shape: the array itself when it
    is one (a result written in a donated input is then that very array, not a view of it)."""
    if (type(value) is np.ndarray and value.dtype == dtype and value.shape == shape
            and value.flags.c_contiguous):
        return value
    return np.ascontiguousarray(value, dtype=dtype).reshape(shape)


class _Frame:
    """Buffers of one run: views of per-storage byte arenas."""

    def __init__(self, program: Program, arrays: Sequence[Any]) -> None:
        self.program = program
        cap: dict[int, int] = {}
        for b in program.buffers:
            cap[b.storage] = max(cap.get(b.storage, 0), b.nbytes)
        self.capacity = cap
        self.arenas: dict[int, np.ndarray] = {}  # allocated at first use, not all up front
        self.bufs: list[np.ndarray | None] = [None] * len(program.buffers)
        for k, slot in enumerate(program.inputs):
            spec = program.buffers[slot]
            self.bufs[slot] = as_input(arrays[k], spec.dtype, spec.shape)
        for slot, owner in program.aliases().items():  # results planned in a donated input
            if owner in program.inputs:
                self.bufs[slot] = self.bufs[owner]

    def buffer(self, slot: int) -> np.ndarray:
        b = self.bufs[slot]
        if b is None:
            spec = self.program.buffers[slot]
            arena = self.arenas.get(spec.storage)
            if arena is None:
                arena = self.arenas[spec.storage] = np.empty(self.capacity[spec.storage], np.uint8)
            raw = arena[:spec.nbytes]
            b = self.bufs[slot] = raw.view(spec.dtype).reshape(spec.shape)
        return b


def _expr(e, vals: list, acc: dict, frame: _Frame, scalars: Sequence[Any], kernel: Kernel,
          shape: tuple[int, ...], stage_vals: dict | None = None) -> np.ndarray:
    if isinstance(e, RowValue):
        return stage_vals[e.stage][e.pos]
    if isinstance(e, Load):
        offset = dynamic_offset(e, scalars) if e.dynamic else e.offset
        return _strided(frame.buffer(e.slot), e.strides, offset, shape)
    if isinstance(e, Apply):
        out = np.asarray(e.op.reference(tuple(forward(vals[a]) for a in e.args), (), e.dtype))
        return out if out.dtype == e.dtype else out.astype(e.dtype)
    if isinstance(e, ScalarArg):
        return np.asarray(scalars[e.index], dtype=e.dtype)
    if isinstance(e, Const):
        return np.asarray(e.value, dtype=e.dtype)
    if isinstance(e, AccRef):
        return acc[(e.stage, e.k)]
    if isinstance(e, Index):
        shape_d = [1] * len(shape)
        shape_d[e.dim] = shape[e.dim]
        return np.arange(shape[e.dim], dtype=e.dtype).reshape(shape_d)
    raise TypeError(f"unknown kernel-IR expression {e!r}")


def _frees(stage: Any, si: int, pinned: set[tuple[int, int]]) -> list[tuple[int, ...]]:
    """Per expression, the values it reads last (stores and reductions read at the end; values a
    later stage reads as a RowValue stay)."""
    last: dict[int, int] = {}
    for j, e in enumerate(stage.exprs):
        for a in getattr(e, "args", ()) if isinstance(e, Apply) else ():
            last[a] = j
    kept = [pos for s, pos in pinned if s == si]  # after the readers: a pinned value has more
    for v in [st.value for st in stage.stores] + [r.value for r in stage.reduces] + kept:
        last[v] = len(stage.exprs)
    frees: list[list[int]] = [[] for _ in stage.exprs]
    for a, j in last.items():
        if j < len(stage.exprs):
            frees[j].append(a)
    return [tuple(f) for f in frees]


@lru_cache(maxsize=512)  # (a function of the kernel, asked per run)
def _kernel_frees(kernel: Kernel) -> tuple[list[tuple[int, ...]], ...]:
    """`_frees` of each stage; values read by later stages (RowValue) are never freed early."""
    pinned = {(e.stage, e.pos) for st in kernel.stages for e in st.exprs
              if isinstance(e, RowValue)}
    return tuple(_frees(stage, si, pinned) for si, stage in enumerate(kernel.stages))


def run_kernel(kernel: Kernel, frame: _Frame, scalars: Sequence[Any],
               fold_rows: Callable[..., np.ndarray] | None = None) -> None:
    """`fold_rows(kernel, stage, reduce, rows)`: how a reduction folds its rows (outer..., inner
    elements); by default the op's NumPy reference (the tiered C plan passes C's fold order)."""
    outer, n_inner = kernel.outer, len(kernel.inner)
    acc_shape = outer + (1,) * n_inner
    acc: dict[tuple[int, int], np.ndarray] = {}
    stage_vals: dict[int, list] = {}  # each stage's values, for RowValue
    stage_frees = _kernel_frees(kernel)
    for si, stage in enumerate(kernel.stages):
        shape = kernel.space if stage.inner else acc_shape
        vals: list[np.ndarray | None] = []
        frees = stage_frees[si]
        for j, e in enumerate(stage.exprs):
            vals.append(_expr(e, vals, acc, frame, scalars, kernel, shape, stage_vals))
            for a in frees[j]:  # full-size temporaries die after their last reader: NumPy
                vals[a] = None  # eager's peak, not one array per op of the chain
        stage_vals[si] = vals
        for k, red in enumerate(stage.reduces):
            rows = np.broadcast_to(vals[red.value], kernel.space).reshape(
                outer + (math.prod(kernel.inner),))
            if fold_rows is None:
                out = _blocks_then_rows(kernel, red, rows)
                if out is None:
                    if red.op.fold is np.add and not red.sequential_dims:  # one pairwise tree
                        rows = np.ascontiguousarray(rows)  # per row (NumPy's own loop would
                        # follow the buffer's memory, not the value's NumPy layout)
                    out = np.asarray(red.op.reference((rows,), ((len(outer),), False), red.dtype))
            else:
                out = fold_rows(kernel, stage, red, rows)
            acc[(si, k)] = out.astype(red.dtype, copy=False).reshape(acc_shape)
        # Snapshot values that are views of buffers first (loads, and an op whose NumPy result is
        # a view of its input: np.real/np.imag of a complex load): an in-place store may
        # overwrite what another store reads (C stores element by element, after reading it).
        values = [np.array(v) if isinstance(stage.exprs[st.value], Load) or (
            isinstance(v, np.ndarray) and v.base is not None) else v
            for st in stage.stores for v in (vals[st.value],)]
        for st, value in zip(stage.stores, values):
            _strided(frame.buffer(st.slot), st.strides, st.offset, shape)[...] = value


def _blocks_then_rows(kernel: Kernel, red: Reduce, rows: np.ndarray) -> np.ndarray | None:
    """NumPy's float sum over reduced dims on both sides of a kept one (`axis=(0, 2)` of a 3-D
    array; `Reduce.sequential_dims`): each trailing block's pairwise sum, the blocks added row
    after row. The op's reference on the flat rows summed the lot pairwise (a last bit off);
    None where it gives NumPy's order already."""
    n_seq = red.sequential_dims
    if (red.op.fold is np.add and n_seq == len(kernel.inner) and n_seq
            and rows.dtype == red.dtype and rows.dtype.kind in "fc"
            and (rows.dtype == np.float16 or BUFFERED not in red.op.properties)):
        # a column sum: NumPy adds the rows one after another (float16: each sum rounded to
        # half, its half add loop; nanvar(axis=0)). The op's reference on the rows summed them
        # pairwise wherever the kernel had made them contiguous (`np.sum(x, axis=1,
        # initial=5.1)` of (6, 40, 3), its where() computed in the kernel's space: fuzz51)
        return np.add.reduce(np.ascontiguousarray(np.moveaxis(rows, -1, 0)), axis=0)
    if (red.op.fold is not np.add or not 0 < n_seq < len(kernel.inner)
            or rows.dtype != red.dtype or rows.dtype.kind not in "fc"):
        return None
    lead = math.prod(kernel.inner[:n_seq])
    blocks = np.ascontiguousarray(rows).reshape(rows.shape[:-1] + (lead, -1))
    if BUFFERED in red.op.properties:  # NumPy's buffers within each block (graph/ops_buffered.py)
        return buffered_sum(blocks, red.dtype)
    sums = np.add.reduce(blocks, -1)
    return np.add.reduce(np.ascontiguousarray(np.moveaxis(sums, -1, 0)), axis=0)


def run_library_call(call: LibraryCall, frame: _Frame) -> None:
    out = frame.buffer(call.output)
    args = call.arguments(frame.buffer)
    try:
        if call.op.in_place is not None:  # scatter: into `out`, in place where planned
            run_in_place(call.op, args, call.attrs, out)
            return
        result = call.op.reference(args, call.attrs, out.dtype)
    except DATA_ERRORS as exc:
        raise at_site(exc, call.op.name, call.site) from None
    out[...] = result


def run_program(program: Program, arrays: Sequence[Any],
                scalars: Sequence[Any]) -> list[np.ndarray]:
    """Outputs as fresh arrays the caller owns (a repeated output slot is copied)."""
    frame = _Frame(program, arrays)
    with numpy_errstate():
        for step in program.steps:
            if isinstance(step, Kernel):
                run_kernel(step, frame, scalars)
            else:
                run_library_call(step, frame)
    outs, seen = [], set()
    for slot in program.outputs:
        b = frame.buffer(slot)
        outs.append(b.copy() if slot in seen else b)
        seen.add(slot)
    return outs


class NumpyProgramPlan:
    """A compiled plan of the numpy backend: the Program, no leaf data (so it can be cached)."""

    def __init__(self, program: Program) -> None:
        self.program = program

    def run(self, arrays: Sequence[Any], scalars: Sequence[Any]) -> list[np.ndarray]:
        return run_program(self.program, arrays, scalars)
