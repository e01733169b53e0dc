"""The CUDA dialect of the C-family printer (runtime/c/printer.py): kernel IR -> CUDA for NVRTC.

Only the structure differs from C; expressions, loads/stores, helpers and folds are the shared
printer's. Buffers and scalars are kernel parameters (`const float *__restrict__ b0`, `const float
a1`), the int64 size/stride block `d` is a device array uploaded once per plan. Each kernel is
printed in the frame runtime/cuda/launch.py picks from its sizes:

- **elementwise** (no inner space): a grid-stride loop over the flat outer index, decoded into the
  layout's outer dims; consecutive threads take consecutive (contiguous, coalesced) elements.
- **rows**: one block per outer index (grid-strided); every inner stage is a thread-strided loop
  over the flat inner index; a reduce stage folds one accumulator per thread, then
  `la_block_reduce` (warp shuffles + shared memory, fixed order) hands every thread the result;
  outer-only stages run in thread 0.
- **two_stage** (few long rows, "reduce then outer stores"): `<symbol>_partial` folds chunks of each
  row in `PARTIAL_BLOCKS` blocks into a workspace `w<r>`; `<symbol>_final` folds each row's partials
  in one block and runs the stores.

Indices are `la_idx`: `int` when every extent and reachable offset fits comfortably in 31 bits
(64-bit integer division is emulated on GPUs), else `long long` — the only size-dependent choice.

    for (la_idx o = (la_idx)blockIdx.x * (la_idx)blockDim.x + (la_idx)threadIdx.x; o < n_outer;
         o += (la_idx)gridDim.x * (la_idx)blockDim.x) { <decode o into i0..> <stages> }
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from ...graph.kernel_ir import recompute_row_values, Kernel, Program, ScalarArg, Stage
from ..c.layout import KernelLayout, plan_layout
from ..c.prelude import FPE_VALUES_CUDA, render_helpers
from ..c.printer import (
    Dialect,
    KernelPrinter,
    ReduceSpec,
    kernel_scalars,
    kernel_slots,
    render_kernel,
    render_translation_unit,
    shared_slots,
)
from .launch import (
    BLOCK,
    MIN_BLOCKS_PER_SM,
    PARTIAL_BLOCKS,
    LaunchShape,
    choose_frame,
    index_type,
    launch_shapes,
)
from .prelude import REDUCE, TYPES

# -arch is the current device's (runtime/cuda/modules.py). --fmad=false: no a*b+c contraction, so a
# value recomputed in two kernels or stages has one bit pattern (issue 9), as in the C flags.
# --ftz=false: float32 subnormals are kept, as NumPy keeps them (NVRTC's default, said because
# CuPy's RawModule appends -ftz=true: runtime/cuda/modules.py).
COMPILE_OPTIONS = ("-std=c++17", "--fmad=false", "--ftz=false")


class CudaKernelPrinter(KernelPrinter):
    def __init__(self, *args) -> None:
        super().__init__(*args)
        self.frame = choose_frame(self.k)
        self.index_t = index_type(self.k)

    # --- signature and sizes ----------------------------------------------------------------------
    def params(self) -> str:
        out = [self.pointer_decl(s) for s in self.slots]
        out.append(f"const int64_t *{self.dia.restrict} d")
        out += [f"const {self.ctype(dt)} a{k}" for k, dt in self.scalars()]
        if self.frame == "two_stage":
            out += [f"{spec.acc_t} *{self.dia.restrict} w{r}"
                    for r, spec in enumerate(self.specs(0))]
        return ", ".join(out)

    def scalars(self):
        dtypes = {e.index: e.dtype for st in self.k.stages for e in st.exprs
                  if isinstance(e, ScalarArg)}
        for st in self.k.stages:  # run-time slice starts (Load.dynamic) are int64 arguments
            for e in st.exprs:
                for k, _ in getattr(e, "dynamic", ()):
                    dtypes.setdefault(k, np.dtype(np.int64))
        return [(k, dtypes[k]) for k in kernel_scalars(self.k)]

    def specs(self, n: int) -> list[ReduceSpec]:
        stage = self.k.stages[n]
        return [self.reduce_spec(r, stage) for r in stage.reduces]

    def open_function(self, suffix: str = "") -> None:
        bounds = f"__launch_bounds__({BLOCK}, {MIN_BLOCKS_PER_SM})"
        self.lines.append(f"{self.dia.kernel_qualifier} void {bounds} "
                          f"@SYMBOL@{suffix}({self.params()})")
        self.lines.append("{")
        self.emit(f"typedef {self.index_t} la_idx;")
        self.emit_extents()
        self.emit_access_sizes()
        self.emit(f"const la_idx n_outer = {self.product(range(self.lay.n_outer))};")
        if self.frame != "elementwise":
            self.emit(f"const la_idx n_inner = {self.product(range(self.lay.n_outer, self.rank))};")

    @staticmethod
    def product(dims) -> str:
        return " * ".join(f"n{j}" for j in dims) or "1"

    def decode(self, flat: str, dims: range) -> None:
        """Define the loop indices `i<j>` of `dims` (row-major) from the flat index `flat`."""
        dims = list(dims)
        cur = flat
        for j in reversed(dims[1:]):
            self.emit(f"const la_idx i{j} = {cur} % n{j};")
            nxt = f"q{j}_{flat}"
            self.emit(f"const la_idx {nxt} = {cur} / n{j};")
            cur = nxt
        if dims:
            self.emit(f"const la_idx i{dims[0]} = {cur};")

    def open_loop(self, var: str, start: str, step: str, extent: str) -> None:
        self.open([f"for (la_idx {var} = {start}; {var} < {extent}; {var} += {step}) {{"])

    # --- frames -----------------------------------------------------------------------------------
    def emit_frame(self) -> None:
        if self.frame == "elementwise":
            self.emit_elementwise()
        elif self.frame == "rows":
            self.emit_rows()
        else:
            self.emit_partial()
            self.lines.append("")
            self.emit_final()

    def emit_elementwise(self) -> None:
        self.open_function()
        self.open_loop("o", "(la_idx)blockIdx.x * (la_idx)blockDim.x + (la_idx)threadIdx.x",
                       "(la_idx)gridDim.x * (la_idx)blockDim.x", "n_outer")
        self.decode("o", range(self.lay.n_outer))
        scoped = len(self.k.stages) > 1
        for n, stage in enumerate(self.k.stages):
            if stage.reduces:  # an empty inner space: each reduction folds a single element
                self.emit_thread_fold(n, stage, "0", "1", "1")
                continue
            if scoped:
                self.open(["{"])
            self.emit_body(n, stage)
            if scoped:
                self.close()
        self.close()
        self.lines.append("}")

    def emit_rows(self) -> None:
        self.open_function()
        self.open_loop("o", "(la_idx)blockIdx.x", "(la_idx)gridDim.x", "n_outer")
        self.decode("o", range(self.lay.n_outer))
        for n, stage in enumerate(self.k.stages):
            if stage.reduces:
                self.emit_thread_fold(n, stage, "(la_idx)threadIdx.x", "(la_idx)blockDim.x",
                                      "n_inner")
                self.emit_block_reduce(n, stage)
            elif stage.inner:
                self.open(["{"])
                self.open_loop("q", "(la_idx)threadIdx.x", "(la_idx)blockDim.x", "n_inner")
                self.decode("q", range(self.lay.n_outer, self.rank))
                self.emit_body(n, stage)
                self.close()
                self.close()
            else:
                self.emit_in_thread0(n, stage)
        self.close()
        self.lines.append("}")

    def emit_in_thread0(self, n: int, stage: Stage) -> None:
        self.open(["if (threadIdx.x == 0) {"])
        self.emit_body(n, stage)
        self.close()

    def emit_partial(self) -> None:
        """Stage 0 of a reduce-then-store kernel over chunks of each row: one partial per block."""
        self.open_function("_partial")
        self.open_loop("o", "(la_idx)blockIdx.y", "(la_idx)gridDim.y", "n_outer")
        self.decode("o", range(self.lay.n_outer))
        self.emit_thread_fold(0, self.k.stages[0],
                              "(la_idx)blockIdx.x * (la_idx)blockDim.x + (la_idx)threadIdx.x",
                              "(la_idx)gridDim.x * (la_idx)blockDim.x", "n_inner")
        stage = self.k.stages[0]
        for r, spec in enumerate(self.specs(0)):
            self.emit_reduce_call(f"acc0_{r}", spec, f"{spec.acc_t} acc0_{r}_b")
        self.open(["if (threadIdx.x == 0) {"])
        for r in range(len(stage.reduces)):
            self.emit(f"w{r}[o * (la_idx)gridDim.x + (la_idx)blockIdx.x] = acc0_{r}_b;")
        self.close()
        self.close()
        self.lines.append("}")

    def emit_final(self) -> None:
        """Fold each row's partials in one block, then the outer stores in thread 0."""
        self.open_function("_final")
        self.emit(f"const la_idx n_part = {PARTIAL_BLOCKS};")
        self.emit("(void)n_inner;")
        self.open_loop("o", "(la_idx)blockIdx.x", "(la_idx)gridDim.x", "n_outer")
        self.decode("o", range(self.lay.n_outer))
        stage = self.k.stages[0]
        specs = self.specs(0)
        for r, spec in enumerate(specs):
            self.emit(f"{spec.acc_t} acc0_{r}_p = {spec.identity};")
        self.open_loop("q", "(la_idx)threadIdx.x", "(la_idx)blockDim.x", "n_part")
        for r, spec in enumerate(specs):
            self.emit(self.combine(spec, f"acc0_{r}_p", f"w{r}[o * n_part + q]"))
        self.close()
        for r, (red, spec) in enumerate(zip(stage.reduces, specs)):
            out_t = self.ctype(red.dtype)
            self.emit_reduce_call(f"acc0_{r}", spec, f"const {out_t} acc0_{r}", cast=out_t)
        for n in range(1, len(self.k.stages)):
            self.emit_in_thread0(n, self.k.stages[n])
        self.close()
        self.lines.append("}")

    # --- reductions: one accumulator per thread, then the block -----------------------------------
    def emit_thread_fold(self, n: int, stage: Stage, start: str, step: str, extent: str) -> None:
        """Declare each reduction's per-thread accumulator (`acc<n>_<r>_p`, position `_pi`) and fold
        the thread's elements of the inner space in increasing order."""
        specs = self.specs(n)
        targets = []
        for r, spec in enumerate(specs):
            acc = f"acc{n}_{r}"
            self.emit(f"{spec.acc_t} {acc}_p = {spec.identity};")
            if spec.is_index:
                self.emit(f"int64_t {acc}_pi = 0;")
            targets.append((f"{acc}_p", f"{acc}_pi"))
        self.open(["{"])
        if extent == "1":  # elementwise frame: the single element of an empty inner space
            self.fold(n, stage, specs, targets, "0")
        else:
            self.open_loop("q", start, step, extent)
            self.decode("q", range(self.lay.n_outer, self.rank))
            self.fold(n, stage, specs, targets, "(int64_t)q")
            self.close()
        self.close()
        if extent == "1":
            for r, (red, spec) in enumerate(zip(stage.reduces, specs)):
                out_t, acc = self.ctype(red.dtype), f"acc{n}_{r}"
                src = f"{acc}_pi" if spec.is_index else f"{acc}_p"
                self.emit(f"const {out_t} {acc} = ({out_t}){src};")

    def emit_block_reduce(self, n: int, stage: Stage) -> None:
        for r, (red, spec) in enumerate(zip(stage.reduces, self.specs(n))):
            out_t = self.ctype(red.dtype)
            self.emit_reduce_call(f"acc{n}_{r}", spec, f"const {out_t} acc{n}_{r}", cast=out_t)

    def emit_reduce_call(self, acc: str, spec: ReduceSpec, target: str, cast: str = "") -> None:
        """`target = la_block_reduce(<acc>_p, ...)` with the registry's combine as a lambda; every
        thread of the block receives the result."""
        t = spec.acc_t
        if spec.is_index:
            pair = f"la_pair<{t}>"
            better_ab, better_ba = self.better(spec, "a.v", "b.v"), self.better(spec, "b.v", "a.v")
            self.emit(f"const auto {acc}_f = [](const {pair} a, const {pair} b) {{ return "
                      f"{better_ab} ? a : ({better_ba} ? b : (a.i <= b.i ? a : b)); }};")
            self.emit(f"__shared__ {pair} {acc}_s[33];")
            self.emit(f"const {pair} {acc}_in = {{{acc}_p, {acc}_pi}};")
            self.emit(f"const {pair} {acc}_id = {{{spec.identity}, 0}};")
            value = f"la_block_reduce({acc}_in, {acc}_id, {acc}_f, {acc}_s).i"
        else:
            self.emit(f"const auto {acc}_f = []({t} a, const {t} b) {{ "
                      f"{self.combine(spec, 'a', 'b')} return a; }};")
            self.emit(f"__shared__ {t} {acc}_s[33];")
            value = f"la_block_reduce({acc}_p, ({t}){spec.identity}, {acc}_f, {acc}_s)"
        self.emit(f"{target} = {f'({cast})' if cast else ''}{value};")


class CudaDialect(Dialect):
    name = "cuda"
    kernel_qualifier = 'extern "C" __global__'
    helper_qualifier = "static __device__ __forceinline__"
    restrict = "__restrict__"
    bool_type = "bool"
    bool_storage = "bool"
    index_type = "la_idx"
    printer = CudaKernelPrinter

    def scalar_arg(self, index: int, dtype) -> str:
        return f"a{index}"  # a kernel parameter, passed by value

    def prelude(self, code: str) -> list[str]:
        """NVRTC has no standard headers: the types and macros, the helpers used, the reductions."""
        helpers = render_helpers(code, self.helper_qualifier, self.bool_type)
        return [TYPES.strip(), FPE_VALUES_CUDA, *([helpers] if helpers else []), REDUCE.strip()]


CUDA_DIALECT = CudaDialect()


# --- a program's kernels as one translation unit (one NVRTC compile per plan) ---------------------
@dataclass(frozen=True)
class CudaKernelSpec:
    """How to launch one rendered kernel: entry functions in launch order (two for a two-stage
    reduction), the parameter list, the int64 size/stride block `d`, the launch shapes, and the
    partials workspaces (two-stage: one per reduction, in its accumulator dtype)."""

    kernel: Kernel
    entries: tuple[str, ...]
    args: tuple[tuple[str, int], ...]  # ("slot", s) | ("meta", 0) | ("scalar", k) | ("partial", r)
    meta: tuple[int, ...]
    shapes: tuple[LaunchShape, ...]
    partials: tuple[np.dtype, ...] = ()

    @property
    def skip(self) -> bool:
        """Nothing to run: an empty index space (an empty inner space still writes identities)."""
        return math.prod(self.kernel.outer) == 0 or (
            math.prod(self.kernel.space) == 0 and not self.kernel.inner)


@dataclass(frozen=True)
class CudaModule:
    source: str
    kernels: tuple[CudaKernelSpec, ...]
    options: tuple[str, ...] = COMPILE_OPTIONS

    @property
    def key(self) -> str:
        return hashlib.sha256((self.source + "\0" + " ".join(self.options)).encode()).hexdigest()


@lru_cache(maxsize=1024)
def render_cuda_kernel(kernel: Kernel, shared: frozenset[int] = frozenset()
                       ) -> tuple[KernelLayout, str, str]:
    """(layout, symbol, CUDA function source); rendering costs ~0.5 ms, so it is memoized."""
    kernel = recompute_row_values(kernel)
    layout = plan_layout(kernel)
    symbol, source = render_kernel(kernel, layout, CUDA_DIALECT, shared)
    return layout, symbol, source


def render_cuda_kernel_source(kernel: Kernel) -> str:
    """One kernel as a complete NVRTC translation unit (what la.explain shows)."""
    return render_translation_unit([render_cuda_kernel(kernel)[2]], CUDA_DIALECT)


def kernel_spec(kernel: Kernel, layout: KernelLayout, symbol: str) -> CudaKernelSpec:
    frame = choose_frame(kernel)
    args = [("slot", s) for s in kernel_slots(kernel)] + [("meta", 0)]
    args += [("scalar", k) for k in kernel_scalars(kernel)]
    partials: tuple[np.dtype, ...] = ()
    entries = (symbol,)
    if frame == "two_stage":
        entries = (f"{symbol}_partial", f"{symbol}_final")
        partials = tuple(_acc_dtype(r, kernel.stages[0]) for r in kernel.stages[0].reduces)
        args += [("partial", r) for r in range(len(partials))]
    return CudaKernelSpec(kernel, entries, tuple(args), tuple(int(v) for v in layout.block()),
                          launch_shapes(kernel), partials)


def _acc_dtype(r, stage: Stage) -> np.dtype:
    """The accumulator dtype the printer uses (ReduceSpec); two-stage excludes arg-reductions."""
    dt = np.dtype(r.dtype)
    if "accumulates" in r.op.properties and dt == np.float32:
        return np.dtype(np.float64)
    return dt


def render_cuda_program(program: Program) -> CudaModule:
    """All kernels of `program` in one translation unit, with their launch specs."""
    specs, functions = [], []
    for kernel in program.kernels:
        kernel = recompute_row_values(kernel)  # no row workspaces on the GPU yet: recompute
        layout, symbol, source = render_cuda_kernel(kernel, shared_slots(program, kernel))
        specs.append(kernel_spec(kernel, layout, symbol))
        if source not in functions:  # equal kernels of one plan share one function
            functions.append(source)
    return CudaModule(render_translation_unit(functions, CUDA_DIALECT), tuple(specs))
