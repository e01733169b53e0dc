"""The `cupy` backend: generated CUDA through cupy.RawModule (NVRTC), matmul through cuBLAS, async.

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

import hashlib
import importlib
import importlib.util
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from ..graph import OpKind
from ..graph.kernel_ir import BufferSpec, Kernel, LibraryCall, Program
from .backend import Backend, register_backend
from .cuda_launch import LaunchShape, launch_shapes

INSTALL_HINT = ("install CuPy for your CUDA version: `pip install 'lazyarray-fusion[cuda12]'` or "
                "`pip install 'lazyarray-fusion[cuda13]'`")
COMPILE_OPTIONS = ("-std=c++17",)  # -arch comes from CuPy (the current device's)


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


@dataclass(frozen=True)
class CudaKernelSpec:
    """How to launch one rendered kernel: entry functions in launch order (two for a two-stage
    reduction), the argument list, and the int64 size/stride block passed as `meta`."""

    kernel: Kernel
    entries: tuple[str, ...]
    args: tuple[tuple[str, int], ...]  # ("slot", s) | ("scalar", k) | ("meta", 0) | ("partial", r)
    meta: tuple[int, ...]
    partials: tuple[np.dtype, ...] = ()  # two-stage: one workspace per reduction


@dataclass(frozen=True)
class CudaModule:
    """A program's kernels rendered into one translation unit (one NVRTC compile per plan)."""

    source: str
    kernels: tuple[CudaKernelSpec, ...]

    @property
    def key(self) -> str:
        return hashlib.sha256((self.source + "\0" + " ".join(COMPILE_OPTIONS)).encode()).hexdigest()


def render_cuda_program(program: Program) -> CudaModule:
    """All kernels of `program` in the CUDA dialect of the C printer (runtime/c_printer.py)."""
    from .cuda_render import render_cuda_program as render

    return render(program)


class CupyBackend(Backend):
    name = "cupy"
    device = "cuda:0"

    def __init__(self) -> None:
        self._modules: dict[tuple[int, str], Any] = {}  # (device id, source hash) -> RawModule
        self._stream: Any = None
        self.stats = {"compiles": 0, "module_hits": 0, "plans": 0}

    @classmethod
    def unavailable_reason(cls) -> str | None:
        return _unavailable_reason()

    # --- rendering: no device needed ------------------------------------------------------------------
    def kernel_source(self, kernel: Any) -> str | None:
        from .cuda_render import render_cuda_kernel_source

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
        """The loaded RawModule for this source on the current device (compiled once per device;
        CuPy's disk cache keys on source, options, arch and NVRTC version)."""
        cp = cupy()
        key = (cp.cuda.runtime.getDevice(), module.key)
        raw = self._modules.get(key)
        if raw is None:
            raw = cp.RawModule(code=module.source, options=COMPILE_OPTIONS)
            raw.compile()
            self._modules[key] = raw
            self.stats["compiles"] += 1
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
        self.stats["plans"] += 1
        return CupyPlan(self, program, render_cuda_program(program))

    def run(self, plan: CupyPlan, leaves: list[Any]) -> list[Any]:
        arrays = [x for x in leaves if not _is_scalar(x)]
        scalars = [x for x in leaves if _is_scalar(x)]
        return plan.run(arrays, scalars)


def _is_scalar(x: Any) -> bool:
    return isinstance(x, (int, float, bool, np.generic))


class CupyPlan:
    """Steps of one Program on the GPU; workspaces allocated on first run, reused afterwards."""

    def __init__(self, backend: CupyBackend, program: Program, module: CudaModule) -> None:
        self.backend, self.program, self.module = backend, program, module
        self.raw = backend.module(module)
        self.specs = {id(spec.kernel): spec for spec in module.kernels}
        self.functions = {e: self.raw.get_function(e) for s in module.kernels for e in s.entries}
        self.shapes = {id(s.kernel): launch_shapes(s.kernel) for s in module.kernels}
        self.fixed = set(program.inputs) | set(program.outputs)
        self.workspace: dict[int, Any] | None = None  # slot -> device array (intermediates)
        self.meta: dict[int, Any] = {}
        self.partials: dict[int, list[Any]] = {}

    def _allocate_workspace(self) -> dict[int, Any]:
        """Intermediate slots as views of per-storage device buffers (the memory plan's sharing)."""
        cp = cupy()
        sizes: dict[int, int] = {}
        for slot, spec in enumerate(self.program.buffers):
            if slot not in self.fixed:
                sizes[spec.storage] = max(sizes.get(spec.storage, 0), spec.nbytes)
        storage = {k: cp.cuda.alloc(max(n, 1)) for k, n in sizes.items()}
        views = {}
        for slot, spec in enumerate(self.program.buffers):
            if slot not in self.fixed:
                views[slot] = cp.ndarray(spec.shape, spec.dtype, storage[spec.storage])
        for s in self.module.kernels:
            self.meta[id(s.kernel)] = cp.asarray(np.asarray(s.meta or (0,), np.int64))
            self.partials[id(s.kernel)] = [cp.empty(_partials(s), dt) for dt in s.partials]
        return views

    def run(self, arrays: list[Any], scalars: list[Any]) -> list[Any]:
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
            typed = [np.asarray(v, dtype).reshape(()) for v, dtype in
                     zip(scalars, self.program.scalars)]
            for step in self.program.steps:
                if isinstance(step, Kernel):
                    self._launch(step, slots, typed)
                else:
                    self._library_call(cp, step, slots)
        return [slots[s] for s in self.program.outputs]

    def _launch(self, kernel: Kernel, slots: dict[int, Any], scalars: list[np.ndarray]) -> None:
        spec = self.specs[id(kernel)]
        args = []
        for kind, k in spec.args:
            if kind == "slot":
                args.append(slots[k])
            elif kind == "scalar":
                args.append(scalars[k][()])
            elif kind == "meta":
                args.append(self.meta[id(kernel)])
            else:
                args.append(self.partials[id(kernel)][k])
        shape: LaunchShape
        for entry, shape in zip(spec.entries, self.shapes[id(kernel)]):
            self.functions[entry](shape.grid, shape.block, tuple(args), stream=self.backend.stream)

    def _library_call(self, cp: Any, call: LibraryCall, slots: dict[int, Any]) -> None:
        out = slots[call.output]
        inputs = [slots[s] for s in call.inputs]
        if call.op.kind is OpKind.MATMUL:  # cuBLAS, writing straight into the planned buffer
            cp.matmul(*inputs, out=out)
            return
        host = [self.backend.to_host(x) for x in inputs]  # the documented round trip
        result = call.op.reference(tuple(host), call.attrs, out.dtype)
        out[...] = cp.asarray(np.ascontiguousarray(result, dtype=out.dtype))


def _partials(spec: CudaKernelSpec) -> int:
    from .cuda_launch import partials_shape

    return partials_shape(spec.kernel)


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
