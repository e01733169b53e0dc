"""The `c` backend: each Kernel of a Program printed as C, compiled as one library, called via ctypes.

`CBackend.compile(program)` renders every kernel for its size-generic layout, loads (or compiles)
them in one translation unit and returns a `CPlan`. `CPlan.run(arrays, scalars)` binds the leaves,
runs the steps in order (kernels; matmul through NumPy's BLAS into the planned buffer; opaque ops
through their NumPy reference) and returns fresh output arrays. Intermediates live in a workspace
per thread, reused between runs, so two threads can run one plan at once.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from ..graph.kernel_ir import Kernel, LibraryCall, Program
from ..graph.registry import OpKind
from . import c_compiler
from .backend import Backend, register_backend
from .c_compiler import ffi
from .c_layout import KernelLayout, plan_layout
from .c_printer import (
    C_DIALECT,
    kernel_slots,
    render_kernel,
    render_translation_unit,
    shared_slots,
)

# Below this many loop iterations a kernel runs on one thread. Measured here (sigmoid, PASSIVE
# wait): 2 threads lose below 2**18 elements (~80 us wake-up) and gain 2.1x from 2**20.
PARALLEL_THRESHOLD = 2**19
num_threads: int | None = None  # lazyarray sets it from settings.num_threads; None: all cores


def configure(cache_dir: str | None, num_threads_: int | None) -> None:
    """Settings the user layer owns (runtime never imports it); called when they change.
    (`compile_stats.set_forbid_compiles` is the third such switch.)"""
    global num_threads
    c_compiler.cache_dir_override = cache_dir
    num_threads = num_threads_


def _threads() -> int:
    if num_threads:
        return num_threads
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


@dataclass
class _KernelCall:
    fn: Any
    slots: tuple[int, ...]
    block: np.ndarray
    nt: int
    skip: bool  # an empty index space: nothing to run


class _Workspace:
    """One thread's buffers for one plan: intermediates (arena views), pointer arrays, scalars."""

    def __init__(self, plan: CPlan) -> None:
        prog = plan.program
        arenas: dict[int, np.ndarray] = {}
        for slot in plan.intermediates:
            spec = prog.buffers[slot]
            size = max(prog.buffers[s].nbytes for s in plan.storage_slots[spec.storage])
            arenas.setdefault(spec.storage, np.empty(max(size, 1), np.uint8))
        self.buffers: list[np.ndarray | None] = [None] * len(prog.buffers)
        for slot in plan.intermediates:
            spec = prog.buffers[slot]
            raw = arenas[spec.storage][: spec.nbytes]
            self.buffers[slot] = raw.view(spec.dtype).reshape(spec.shape)
        self.pointers = [ffi.new(f"char *[{max(len(c.slots), 1)}]") for c in plan.calls]
        for ptrs, call in zip(self.pointers, plan.calls):
            for k, slot in enumerate(call.slots):
                if slot in plan.intermediates:
                    ptrs[k] = ffi.from_buffer(self.buffers[slot])
        self.scalars = np.zeros(max(len(prog.scalars), 1), np.uint64)
        self.scalars_ptr = ffi.from_buffer(self.scalars)
        self.scalar_views = [self.scalars[k:k + 1].view(np.uint8)[: dt.itemsize].view(dt)
                             for k, dt in enumerate(prog.scalars)]


class CPlan:
    def __init__(self, program: Program, calls: list[_KernelCall]) -> None:
        self.program = program
        self.calls = calls
        inputs, outputs = set(program.inputs), set(program.outputs)
        self.intermediates = frozenset(s for s in range(len(program.buffers))
                                       if s not in inputs and s not in outputs)
        self.storage_slots: dict[int, list[int]] = {}
        for slot, spec in enumerate(program.buffers):
            self.storage_slots.setdefault(spec.storage, []).append(slot)
        self._local = threading.local()
        self._inputs = [(s, program.buffers[s].dtype, program.buffers[s].shape)
                        for s in program.inputs]
        self._outputs = [(s, program.buffers[s].dtype, program.buffers[s].shape)
                         for s in dict.fromkeys(program.outputs) if s not in inputs]
        # Per step: a kernel call (with the pointer entries to refresh each run) or a library call.
        self._steps: list[tuple] = []
        calls_iter = iter(enumerate(calls))
        for step in program.steps:
            if isinstance(step, Kernel):
                n, call = next(calls_iter)
                if not call.skip:
                    bound = tuple((k, s) for k, s in enumerate(call.slots)
                                  if s not in self.intermediates)
                    self._steps.append((n, call.fn, ffi.from_buffer("int64_t[]", call.block), call.nt, bound))
            else:
                self._steps.append((-1, step, None, 0, ()))

    def _workspace(self) -> _Workspace:
        ws = getattr(self._local, "ws", None)
        if ws is None:
            ws = self._local.ws = _Workspace(self)
        return ws

    def run(self, arrays: Sequence[Any], scalars: Sequence[Any]) -> list[np.ndarray]:
        ws = self._workspace()
        bufs = ws.buffers.copy()
        for (slot, dtype, shape), value in zip(self._inputs, arrays):
            a = np.ascontiguousarray(value, dtype=dtype)
            bufs[slot] = a if a.shape == shape else a.reshape(shape)
        if scalars:
            with np.errstate(over="ignore"):  # 1e300 into a float32 scalar is inf, as in NumPy
                for view, value in zip(ws.scalar_views, scalars):
                    view[0] = value
        for slot, dtype, shape in self._outputs:
            bufs[slot] = np.empty(shape, dtype)
        sptr, pointers, from_buffer = ws.scalars_ptr, ws.pointers, ffi.from_buffer
        for n, fn, block, nt, bound in self._steps:
            if n < 0:
                run_library_call(fn, bufs)
                continue
            ptrs = pointers[n]
            for k, slot in bound:
                ptrs[k] = from_buffer(bufs[slot])
            fn(ptrs, block, sptr, nt)
        return _fresh_outputs(self.program, bufs)


def run_library_call(step: LibraryCall, bufs: list) -> None:
    """matmul through NumPy's BLAS into the planned buffer; opaque ops through their reference."""
    args = tuple(bufs[s] for s in step.inputs)
    out = bufs[step.output]
    if step.op.kind is OpKind.MATMUL:
        np.matmul(*args, out=out)
        return
    try:
        with np.errstate(all="ignore"):
            result = step.op.reference(args, step.attrs, out.dtype)
    except IndexError as exc:
        raise IndexError(f"{exc} (in {step.op.name} built at {step.site})") from None
    np.copyto(out, np.asarray(result).reshape(out.shape), casting="unsafe")


def _fresh_outputs(prog: Program, bufs: list) -> list[np.ndarray]:
    out, seen = [], set()
    for slot in prog.outputs:
        value = bufs[slot]
        out.append(value.copy() if slot in seen or slot in prog.inputs else value)
        seen.add(slot)
    return out


def render_program(program: Program) -> list[tuple[Kernel, KernelLayout, str, str]]:
    return [(kernel, *_render_cached(kernel, shared_slots(program, kernel)))
            for kernel in program.kernels]


@lru_cache(maxsize=1024)
def _render_cached(kernel: Kernel, shared: frozenset[int]) -> tuple[KernelLayout, str, str]:
    """Rendering costs ~0.5 ms; plans rebuilt for an already seen kernel skip it."""
    layout = plan_layout(kernel)
    symbol, source = render_kernel(kernel, layout, C_DIALECT, shared)
    return layout, symbol, source


def translation_unit(functions: list[str]) -> str:
    return render_translation_unit(functions, C_DIALECT, c_compiler.toolchain().vector_math)


class CBackend(Backend):
    name = "c"
    device = "cpu"

    @classmethod
    def unavailable_reason(cls) -> str | None:
        return c_compiler.unavailable_reason()

    def kernel_source(self, kernel: Any) -> str:
        return render_kernel(kernel, plan_layout(kernel))[1]

    def compile(self, program: Program) -> CPlan:
        rendered = render_program(program)
        fns = c_compiler.load_kernels([(sym, src) for _, _, sym, src in rendered],
                                      translation_unit)
        threads = _threads()
        calls = []
        for (kernel, layout, _, _), fn in zip(rendered, fns):
            size = layout.n_elements
            calls.append(_KernelCall(fn, kernel_slots(kernel), layout.block(),
                                     threads if size >= PARALLEL_THRESHOLD else 1,
                                     skip=(size == 0 and not _reduces_empty(kernel))))
        return CPlan(program, calls)

    def run(self, plan: CPlan, leaves: list[Any]) -> list[np.ndarray]:
        arrays, scalars = leaves
        return plan.run(arrays, scalars)


def _reduces_empty(kernel: Kernel) -> bool:
    """An empty inner space still writes identities to a non-empty output."""
    outer = 1
    for n in kernel.outer:
        outer *= n
    return outer > 0


register_backend("c", CBackend)
