"""Kernel IR -> CUDA: the CUDA dialect of the one C-family printer (runtime/c_printer.py).

The printer renders each kernel's pieces (parameters, index decoding, stage statements, reductions)
once for both dialects; the CUDA dialect arranges them with the frames of runtime/cuda_frames.py and
the launch choices of runtime/cuda_launch.py. Until the C printer is on this branch, rendering raises
a clear error instead of emitting CUDA from a second, divergent printer.
"""

from __future__ import annotations

from typing import Any

PENDING = ("CUDA rendering needs the C-family printer (runtime/c_printer.py) with its CUDA dialect "
           "hooks; it is not on this branch yet")


def render_cuda_kernel_source(kernel: Any) -> str:
    """CUDA source of one kernel-IR Kernel, prelude included (no device needed)."""
    raise NotImplementedError(PENDING)


def render_cuda_program(program: Any) -> Any:
    """A CudaModule: all kernels of `program` in one translation unit, with their launch specs."""
    raise NotImplementedError(PENDING)
