"""Which CUDA frame runs a kernel-IR Kernel, with which index width, on which grid. No device needed.

Everything here depends on sizes only (never on the device), so a shape always gets the same frame,
grid and reduction order — results are deterministic and identical across GPUs — and the compiled code
depends only on (frame, index width), not on the sizes themselves.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ...graph.kernel_ir import Kernel, Load, Stage

BLOCK = 256  # threads per block for every frame; __launch_bounds__ lets ptxas budget registers
# __launch_bounds__(BLOCK, 2): at most 128 registers per thread. Plain __launch_bounds__(256) made
# ptxas (NVRTC 13) cap a fused argmax+mean at 32 registers and spill, and 4 blocks (64 registers)
# spilled float64 softmax+logsumexp+log_softmax (4 block reductions) in the corpus test; simple
# kernels still take 20-40 registers.
MIN_BLOCKS_PER_SM = 2
PARTIAL_BLOCKS = 512  # stage-one blocks per row of a two-stage reduction (fixed: deterministic)
MAX_BLOCKS = 1 << 16  # grid-stride loops cover the rest; a cap keeps per-block work meaningful
# 32-bit indices below this: a grid-stride step (at most MAX_BLOCKS * BLOCK) past the last index
# must still fit in int, or `o += step` would overflow (UB).
INT32_LIMIT = 2**31 - 1 - MAX_BLOCKS * BLOCK
TWO_STAGE_MIN_INNER = 1 << 16  # shorter rows: one block per row is already enough work
TWO_STAGE_MAX_ROWS = 64  # more rows than this fill the GPU with one block per row


@dataclass(frozen=True)
class LaunchShape:
    grid: tuple[int, ...]
    block: tuple[int, ...]


def _extent(strides: tuple[int, ...], offset: int, space: tuple[int, ...]) -> int:
    """Largest |element offset| an access reaches."""
    return abs(offset) + sum((s - 1) * abs(st) for s, st in zip(space, strides) if s > 0)


def index_type(kernel: Kernel) -> str:
    """"int" when every index and offset fits in 31 bits, else "long long" (64-bit integer division
    is emulated on GPUs: several times slower than 32-bit in index decoding)."""
    biggest = math.prod(kernel.space)
    for stage in kernel.stages:
        for e in stage.exprs:
            if isinstance(e, Load):
                biggest = max(biggest, _extent(e.strides, e.offset, kernel.space))
        for s in stage.stores:
            biggest = max(biggest, _extent(s.strides, s.offset, kernel.space))
    return "int" if biggest <= INT32_LIMIT else "long long"


def _is_reduce_then_store(stages: tuple[Stage, ...]) -> bool:
    first, *rest = stages
    return (first.inner and bool(first.reduces)
            and all("index" not in r.op.properties for r in first.reduces)
            and all(not s.inner and not s.reduces for s in rest))


def choose_frame(kernel: Kernel) -> str:
    """"elementwise" (no inner space), "two_stage" (few long rows, reduce then store), or "rows"."""
    if not kernel.inner:
        return "elementwise"
    n_outer, n_inner = math.prod(kernel.outer), math.prod(kernel.inner)
    if (n_outer <= TWO_STAGE_MAX_ROWS and n_inner >= TWO_STAGE_MIN_INNER
            and _is_reduce_then_store(kernel.stages)):
        return "two_stage"
    return "rows"


def row_block(n_inner: int) -> int:
    """Threads per row: a multiple of 32 up to BLOCK, no wider than the row needs."""
    return min(BLOCK, max(32, -(-n_inner // 32) * 32))


def launch_shapes(kernel: Kernel) -> tuple[LaunchShape, ...]:
    """One shape per entry function the frame emits (two for two_stage: partial, final)."""
    n_outer, n_inner = math.prod(kernel.outer), math.prod(kernel.inner)
    frame = choose_frame(kernel)
    if frame == "elementwise":
        return (LaunchShape((max(1, min(-(-n_outer // BLOCK), MAX_BLOCKS)),), (BLOCK,)),)
    rows = max(1, min(n_outer, MAX_BLOCKS))
    if frame == "rows":
        return (LaunchShape((rows,), (row_block(n_inner),)),)
    return (LaunchShape((PARTIAL_BLOCKS, rows), (BLOCK,)), LaunchShape((rows,), (BLOCK,)))


def partials_shape(kernel: Kernel) -> int:
    """Elements of each reduction's partials workspace in the two-stage frame."""
    return max(1, math.prod(kernel.outer)) * PARTIAL_BLOCKS


__all__ = ["LaunchShape", "choose_frame", "index_type", "launch_shapes", "partials_shape",
           "row_block"]
