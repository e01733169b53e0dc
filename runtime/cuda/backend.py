"""The `cupy` backend: generated CUDA compiled by NVRTC and run through CuPy, matmul through cuBLAS, async.

`import lazyarray` never imports CuPy: this module imports it on first use. Rendering CUDA source needs
no CuPy and no GPU (`kernel_source`, so `la.explain(y, backend="cupy")` works in CI).

Execution (JAX-style async dispatch): `run` enqueues every kernel and library call on the backend's
stream and returns device buffers at once; `to_host` and `synchronize` wait. Memory comes from CuPy's
pool. Plan workspaces (intermediate slots, two-stage partials, the size/stride blocks) are allocated on
the plan's first run and reused: later runs of the same plan enqueue behind the earlier ones on the same
stream, so reuse is ordered. Outputs are fresh each run (they are handed to users).

Opaque library ops (concat, take, scatter, cumsum) run through their NumPy reference on the host: the
stream is synchronized, the inputs copied down, the result copied up — a full round trip each (cost:
one sync plus 2 PCIe copies of the operands). Matmul never leaves the device.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import numpy as np

from ...graph import OpKind
from ...graph.kernel_ir import BufferSpec, Kernel, LibraryCall, Program, holds_float16
from .. import cache_security
from ..backend import DATA_ERRORS, Backend, at_site, fresh_outputs, register_backend
from .launch import partials_shape as partials_size
from .modules import load_module
from .printer import CudaKernelSpec, CudaModule, render_cuda_kernel_source, render_cuda_program

INSTALL_HINT = ("install CuPy for your CUDA version: `pip install 'lazyarray-fusion[cuda12]'` or "
                "`pip install 'lazyarray-fusion[cuda13]'`")


def cupy() -> Any:
    """The cupy module, imported on first use."""
    return importlib.import_module("cupy")


@lru_cache(maxsize=1)
def _unavailable_reason() -> str | None:
    if importlib.util.find_spec("cupy") is None:
        return f"CuPy is not installed; {INSTALL_HINT}"
    try:
        cp = cupy()
        count = cp.cuda.runtime.getDeviceCount()
    except Exception as exc:  # CuPy reports a missing driver or a broken install in many ways
        return f"CuPy cannot reach a CUDA device ({type(exc).__name__}: {exc})"
    return None if count > 0 else "no CUDA device is visible (CUDA_VISIBLE_DEVICES?)"


class CupyBackend(Backend):
    name = "cupy"
    device = "cuda:0"

    def __init__(self) -> None:
        self._modules: dict[tuple[int, str], Any] = {}  # (device id, source hash) -> loaded module
        self._stream: Any = None
        self.stats = {"compiles": 0, "disk_hits": 0, "module_hits": 0, "plans": 0}

    @classmethod
    def unavailable_reason(cls) -> str | None:
        return _unavailable_reason()

    # --- rendering: no device needed ------------------------------------------------------------------
    def kernel_source(self, kernel: Any) -> str | None:
        return render_cuda_kernel_source(kernel)

    # --- device ---------------------------------------------------------------------------------------
    @staticmethod
    def cupy_module() -> Any:
        return cupy()

    @property
    def stream(self) -> Any:
        if self._stream is None:
            self._stream = cupy().cuda.Stream(non_blocking=True)
        return self._stream

    def module(self, module: CudaModule) -> Any:
        """The loaded module for this source on the current device (compiled once per device and
        process, by lazyarray's NVRTC call: runtime/cuda/modules.py says why not CuPy's)."""
        cp = cupy()
        key = (cp.cuda.runtime.getDevice(), module.key)
        raw = self._modules.get(key)
        if raw is None:
            cache_security.check_cupy_cache()  # CuPy's disk cache (its own kernels): private
            raw, compiled = load_module(cp, module.source, module.options)
            self._modules[key] = raw
            self.stats["compiles" if compiled else "disk_hits"] += 1
        else:
            self.stats["module_hits"] += 1
        return raw

    def from_host(self, array: np.ndarray) -> Any:
        cp = cupy()
        with self.stream:
            return cp.ascontiguousarray(cp.asarray(array))

    def to_host(self, buffer: Any) -> np.ndarray:
        if isinstance(buffer, np.ndarray):
            return buffer
        self.stream.synchronize()
        return cupy().asnumpy(buffer)

    def allocate(self, shape: tuple[int, ...], dtype: np.dtype) -> Any:
        with self.stream:
            return cupy().empty(shape, dtype)

    def synchronize(self) -> None:
        if self._stream is not None:
            self._stream.synchronize()

    def compile(self, program: Program) -> CupyPlan:
        if holds_float16(program):  # (the C backend runs these on NumPy's half loops)
            raise TypeError("float16 values on the cupy backend: its generated CUDA has no half "
                            "arithmetic yet; use float32 there (x.astype(la.float32)), or the C "
                            "or numpy backend (docs/semantics.md)")
        self.stats["plans"] += 1
        return CupyPlan(self, program, render_cuda_program(program))

    def run(self, plan: CupyPlan, leaves: Any) -> list[Any]:
        arrays, scalars = leaves
        return plan.run(arrays, scalars)


class CupyPlan:
    """Steps of one Program on the GPU, with the C plan's semantics (runtime/c/backend.py): inputs
    bound per run, outputs fresh per run, intermediates in a workspace per plan (allocated on the
    first run, reused: later runs queue behind earlier ones on the one stream), scalars passed as
    kernel arguments, library calls in step order."""

    def __init__(self, backend: CupyBackend, program: Program, module: CudaModule) -> None:
        self.backend, self.program, self.module = backend, program, module
        self.raw = backend.module(module)
        self.functions = {e: self.raw.get_function(e) for s in module.kernels for e in s.entries}
        inputs, outputs = set(program.inputs), set(program.outputs)
        self.intermediates = tuple(s for s in range(len(program.buffers))
                                   if s not in inputs and s not in outputs)
        self.workspace: dict[int, Any] | None = None  # slot -> device array (intermediates)
        self.meta: list[Any] = []  # per kernel: the int64 size/stride block on the device
        self.partials: list[list[Any]] = []  # per kernel: two-stage workspaces
        specs = iter(module.kernels)
        self.steps: list[tuple[int, Any]] = [  # (kernel number, its spec) or (-1, library call)
            (n, next(specs)) if n >= 0 else (-1, step) for n, step in _numbered(program.steps)]

    def _allocate_workspace(self) -> dict[int, Any]:
        """Intermediate slots as views of per-storage device buffers (the memory plan's sharing)."""
        cp = cupy()
        sizes: dict[int, int] = {}
        for slot in self.intermediates:
            spec = self.program.buffers[slot]
            sizes[spec.storage] = max(sizes.get(spec.storage, 0), spec.nbytes)
        storage = {k: cp.cuda.alloc(max(n, 1)) for k, n in sizes.items()}
        views = {}
        for slot in self.intermediates:
            spec = self.program.buffers[slot]
            views[slot] = cp.ndarray(spec.shape, spec.dtype, storage[spec.storage])
        for s in self.module.kernels:
            self.meta.append(cp.asarray(np.asarray(s.meta, np.int64)))
            self.partials.append([cp.empty(partials_size(s.kernel), dt) for dt in s.partials])
        return views

    def run(self, arrays: Sequence[Any], scalars: Sequence[Any]) -> list[Any]:
        cp, backend = cupy(), self.backend
        with backend.stream:
            if self.workspace is None:
                self.workspace = self._allocate_workspace()
            slots: dict[int, Any] = dict(self.workspace)
            for slot, value in zip(self.program.inputs, arrays):
                slots[slot] = _device_input(cp, value, self.program.buffers[slot])
            for slot in self.program.outputs:
                if slot not in slots:
                    spec = self.program.buffers[slot]
                    slots[slot] = cp.empty(spec.shape, spec.dtype)
            with np.errstate(over="ignore"):  # 1e300 into a float32 scalar is inf, as in NumPy
                typed = [np.asarray(v).astype(dt)[()] for v, dt in
                         zip(scalars, self.program.scalars)]
            for n, step in self.steps:
                if n < 0:
                    self._library_call(cp, step, slots)
                elif not step.skip:
                    self._launch_kernel(n, step, slots, typed)
            return fresh_outputs(self.program, slots)

    def _launch_kernel(self, n: int, spec: CudaKernelSpec, slots: dict[int, Any], scalars: list) -> None:
        args = []
        for kind, k in spec.args:
            if kind == "slot":
                args.append(slots[k])
            elif kind == "meta":
                args.append(self.meta[n])
            elif kind == "scalar":
                args.append(scalars[k])
            else:
                args.append(self.partials[n][k])
        packed = tuple(args)
        for entry, shape in zip(spec.entries, spec.shapes):
            self.functions[entry](shape.grid, shape.block, packed, stream=self.backend.stream)

    def _library_call(self, cp: Any, call: LibraryCall, slots: dict[int, Any]) -> None:
        out = slots[call.output]
        inputs = list(call.arguments(slots.__getitem__))
        if call.op.kind is OpKind.MATMUL:  # cuBLAS, writing straight into the planned buffer
            cp.matmul(*inputs, out=out)
            return
        if call.op.cupy is not None:  # the op's own device path (cupy.linalg, cupy.fft)
            try:
                result = call.op.cupy(tuple(inputs), call.attrs, out.dtype)
            except DATA_ERRORS as exc:  # a singular matrix: NumPy's error at the user's line
                raise at_site(exc, call.op.name, call.site) from None
            out[...] = result.reshape(out.shape)
            return
        host = tuple(self.backend.to_host(x) for x in inputs)  # the documented round trip
        try:
            with np.errstate(all="ignore"):
                result = call.op.reference(host, call.attrs, out.dtype)
        except DATA_ERRORS as exc:
            raise at_site(exc, call.op.name, call.site) from None
        host_out = np.empty(out.shape, out.dtype)
        np.copyto(host_out, np.asarray(result).reshape(out.shape), casting="unsafe")
        out.set(host_out, stream=self.backend.stream)


def _numbered(steps) -> list[tuple[int, Any]]:
    """Steps with the running number of each Kernel among the kernels (-1 for library calls)."""
    out, n = [], 0
    for step in steps:
        out.append((n if isinstance(step, Kernel) else -1, step))
        n += isinstance(step, Kernel)
    return out


def _device_input(cp: Any, value: Any, spec: BufferSpec) -> Any:
    """A C-contiguous device array of the planned dtype: device data is used as is (no copy)."""
    arr = cp.asarray(value)
    if arr.dtype != spec.dtype or not arr.flags.c_contiguous:
        arr = cp.ascontiguousarray(arr, dtype=spec.dtype)
    if arr.shape != spec.shape:
        arr = arr.reshape(spec.shape)
    return arr


register_backend("cupy", CupyBackend)

__all__ = ["INSTALL_HINT", "CudaKernelSpec", "CudaModule", "CupyBackend", "CupyPlan"]
