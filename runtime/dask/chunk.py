"""What a Dask task runs: one kernel of a Program on one chunk, through the C backend's compiled code.

A task carries a `ChunkKernel`: the kernel's stages with every `Load` renumbered to its position
among the task's blocks and every `Store` to its position among the outputs (strides and sizes are
left out: they come from the blocks the task receives). The worker fills them in from the NumPy
blocks' own strides, so a transposed, flipped or broadcast block is read in place, then finds the
function by the C backend's structural key (`c_backend._layout_and_key`): from this process's memory,
else the shared on-disk cache, else one compile. Interior chunks share one pattern, so each worker
process loads or compiles a kernel once, not once per task.

This module imports no Dask: it is what worker processes unpickle and run. OpDefs travel by name
(`copyreg` below), so a kernel pickles without the registry's functions.
"""

from __future__ import annotations

import copyreg
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from ...graph.kernel_ir import Kernel, Load, Stage, Store
from ...graph.registry import OpDef, get_op
from ..c import compiler as c_compiler
from ..c.backend import _layout_and_key, _render_cached, translation_unit
from ..c.compiler import ffi
from ..c.printer import kernel_slots

copyreg.pickle(OpDef, lambda op: (get_op, (op.name,)))


@dataclass(frozen=True)
class ChunkKernel:
    """A kernel with placeholder addressing: Load.slot is a block position (0..n_blocks-1), Store.slot
    an output position; `outputs` the (dtype) of each output position. `n_outer`: how many leading
    block dims are independent (the rest are reduced). Outputs have the shape of the outer dims."""

    name: str
    n_outer: int
    stages: tuple[Stage, ...]
    n_blocks: int
    outputs: tuple[np.dtype, ...]
    scalars: tuple[np.dtype, ...]
    fused: tuple[str, ...] = ()
    sites: tuple[str, ...] = ()


def _element_strides(block: np.ndarray) -> tuple[int, ...]:
    """Strides in elements; a dim of extent 1 counts as stride 0 (one pattern for edge chunks)."""
    size = block.itemsize
    return tuple(0 if n == 1 else s // size for n, s in zip(block.shape, block.strides))


def _c_strides(shape: tuple[int, ...]) -> tuple[int, ...]:
    out, step = [], 1
    for n in reversed(shape):
        out.append(0 if n == 1 else step)
        step *= n
    return tuple(reversed(out))


def concrete_kernel(ck: ChunkKernel, space: tuple[int, ...],
                    blocks: list[np.ndarray]) -> Kernel:
    """The kernel over this chunk's space, addressing the blocks in place; outputs C-contiguous
    over the outer dims (slots n_blocks + output position)."""
    load_strides = [_element_strides(b) for b in blocks]
    out_strides = _c_strides(space[:ck.n_outer]) + (0,) * (len(space) - ck.n_outer)
    stages = []
    for st in ck.stages:
        exprs = tuple(replace(e, strides=_block_strides(e.strides, load_strides[e.slot]),
                              offset=0) if isinstance(e, Load) else e for e in st.exprs)
        stores = tuple(Store(ck.n_blocks + s.slot, out_strides, 0, s.value) for s in st.stores)
        stages.append(Stage(st.inner, exprs, st.reduces, stores))
    return Kernel(ck.name, space, ck.n_outer, tuple(stages), ck.fused, ck.sites)


def _block_strides(kernel_strides: tuple[int, ...], block: tuple[int, ...]) -> tuple[int, ...]:
    """A dim the Load broadcasts over (stride 0 in the kernel) stays stride 0 whatever the block's
    memory: Dask may hand a broadcast block as a copy (a rechunk), and a Load after a reduction
    must not index its reduced dims (it printed `b1[i0 * s + i1]` outside i1's loop). Loads
    without kernel strides (the tree reduction's placeholders) take the block's."""
    if len(kernel_strides) != len(block):
        return block
    return tuple(0 if k == 0 else s for k, s in zip(kernel_strides, block))


def compiled(kernel: Kernel):
    """(function, layout): this process's memory, else the disk cache, else one compile."""
    shared = frozenset()
    layout, key = _layout_and_key(kernel, shared)
    fn = c_compiler.load_by_key(key) if key else None
    if fn is None:
        rendered = [_render_cached(kernel, shared)[1:]]
        fn = c_compiler.load_kernels(rendered, translation_unit, [key] if key else None)[0]
    return fn, layout


def pack_scalars(dtypes: tuple[np.dtype, ...], values: tuple[Any, ...]) -> np.ndarray:
    """Each scalar in its 8-byte slot, converted as NumPy assigns it (the C backend's rule)."""
    packed = np.zeros(max(len(dtypes), 1), np.uint64)
    with np.errstate(over="ignore"):
        for k, (dt, value) in enumerate(zip(dtypes, values)):
            packed[k:k + 1].view(np.uint8)[: dt.itemsize].view(dt)[0] = value
    return packed


def run_chunk(ck: ChunkKernel, scalars: tuple[Any, ...], *blocks: Any,
              space: tuple[int, ...] | None = None) -> Any:
    """Run the kernel on one chunk; returns its output block (a tuple when there are several).
    The chunk's index space is the first block's shape; a kernel that reads no block (`full`, a
    scalar broadcast) is given its `space`."""
    arrays = []
    for pos, b in enumerate(blocks):
        dtype = _load_dtype(ck, pos)
        b = np.asarray(b)
        arrays.append(b if b.dtype == dtype else b.astype(dtype))
    if space is None:
        space = arrays[0].shape if arrays else ()
    outer = space[:ck.n_outer]
    outs = [np.empty(outer, dt) for dt in ck.outputs]
    if 0 not in outer:  # an empty inner space still writes the reductions' identities
        kernel = concrete_kernel(ck, space, arrays)
        fn, layout = compiled(kernel)
        by_slot = {pos: a for pos, a in enumerate(arrays)}
        by_slot.update({ck.n_blocks + q: o for q, o in enumerate(outs)})
        slots = kernel_slots(kernel)
        pointers = c_compiler.new_pointer_array(max(len(slots), 1))
        for k, slot in enumerate(slots):
            pointers[k] = ffi.cast(c_compiler.CHAR_P, by_slot[slot].ctypes.data)
        block = layout.block()
        packed = pack_scalars(ck.scalars, scalars)
        fn(pointers, ffi.from_buffer(c_compiler.INT64_ARRAY, block),
           ffi.from_buffer(packed), 1)
    return outs[0] if len(outs) == 1 else tuple(outs)


def _load_dtype(ck: ChunkKernel, pos: int) -> np.dtype:
    for st in ck.stages:
        for e in st.exprs:
            if isinstance(e, Load) and e.slot == pos:
                return e.dtype
    raise AssertionError(f"block {pos} is read by no Load")
