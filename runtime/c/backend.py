"""The `c` backend: each Kernel of a Program printed as C, compiled as one library, called via ctypes.

`CBackend.compile(program)` renders every kernel for its size-generic layout, loads (or compiles)
them in one translation unit and returns a `CPlan`. `CPlan.run(arrays, scalars)` binds the leaves,
runs the steps in order (kernels; matmul through NumPy's BLAS into the planned buffer; opaque ops
through their NumPy reference) and returns fresh output arrays. Intermediates live in a workspace
per thread, reused between runs, so two threads can run one plan at once.
"""

from __future__ import annotations

import hashlib
import os
import struct
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache, partial
from operator import itemgetter
from typing import Any

import numpy as np

from ... import graph
from ...graph.kernel_ir import Apply, Kernel, Load, Program, needs_half_loops
from . import background as c_background, compiler as c_compiler, quick as c_quick
from .. import compile_stats, spare_outputs
from ..backend import Backend, fresh_outputs, register_backend
from .canonical import canonical_kernel
from .compiler import ffi
from .launch import make_launcher
from .layout import KernelLayout, plan_layout
from .printer import (
    C_DIALECT,
    kernel_scalars,
    kernel_slots,
    render_kernel,
    render_translation_unit,
    shared_slots,
    source_name,
)
from .split import split_full_reductions
from .library_call import run_library_call
from .tiered import TieredPlan, worth_interpreting
from ..kernel_numpy import NumpyProgramPlan

# Below this much work a kernel runs on one thread. Work is loop iterations, weighted by ops per
# element (`parallel_work`). Measured here (sigmoid, PASSIVE wait): 2 threads lose below 2**18
# elements (~80 us wake-up) and gain 2.1x from 2**20; the LSTM nonlinearity (29 ops per element)
# gains 1.4x at 2**18 elements (1.99 -> 1.38 ms through the API).
PARALLEL_THRESHOLD = 2**19
OPS_PER_UNIT = 4  # a kernel counts one unit of work per element per this many ops


def parallel_work(kernel: Kernel, n_elements: int) -> int:
    """Iterations weighted by arithmetic: compute-heavy kernels repay the threads' wake-up on
    fewer elements than memory-bound ones."""
    ops = sum(isinstance(e, Apply) for st in kernel.stages for e in st.exprs)
    return n_elements * max(1, ops // OPS_PER_UNIT)
num_threads: int | None = None  # lazyarray sets it from settings.num_threads; None: all cores
background_compiles: bool = True  # lazyarray sets it from settings.background_compiles


def configure(cache_dir: str | None, num_threads_: int | None,
              background_compiles_: bool = True) -> None:
    """Settings the user layer owns (runtime never imports it); called when they change.
    (`compile_stats.set_forbid_compiles` is another such switch.)"""
    global num_threads, background_compiles
    c_compiler.cache_dir_override = cache_dir
    num_threads = num_threads_
    background_compiles = background_compiles_


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
    scalars: tuple[int, ...] = ()  # the program's scalars it reads, in its own order (c_canonical)


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
        self.pointers = [c_compiler.new_pointer_array(max(len(c.slots), 1))
                         for c in plan.calls]
        for ptrs, call in zip(self.pointers, plan.calls):
            for k, slot in enumerate(call.slots):
                if slot in plan.intermediates:
                    ptrs[k] = ffi.from_buffer(self.buffers[slot])
        self.key = spare_outputs.register(self)  # its large results, kept for its next run
        dtypes = plan.scalar_dtypes
        self.scalars = np.zeros(max(len(dtypes), 1), np.uint64)
        self.scalars_ptr = ffi.from_buffer(self.scalars)
        # Each kernel reads its scalars from its own 8-byte slots (c_canonical): a pointer into
        # the block where they start.
        self.kernel_scalars = [self.scalars_ptr + 8 * at if at else self.scalars_ptr
                               for at in plan.scalar_offsets]
        self.scalar_bytes = memoryview(self.scalars).cast("B")  # struct packs into it ~2x faster
        # Per input pointer entry, a weak reference to the array it points into (the launcher
        # skips re-binding the same array: runtime/c/launch.py). Weak: plans hold no user data.
        self.input_refs: list = []
        self.scalar_views = [self.scalars[k:k + 1].view(np.uint8)[: dt.itemsize].view(dt)
                             for k, dt in enumerate(dtypes)]


def _intermediates(program: Program) -> frozenset[int]:
    """Slots in the workspace: neither inputs nor outputs, nor planned in their buffers."""
    bound = set(program.inputs) | set(program.outputs) | set(program.aliases())
    return frozenset(s for s in range(len(program.buffers)) if s not in bound)


def _storage_slots(program: Program) -> dict[int, list[int]]:
    slots: dict[int, list[int]] = {}
    for slot, spec in enumerate(program.buffers):
        slots.setdefault(spec.storage, []).append(slot)
    return slots


def workspace_bytes(program: Program) -> int:
    """Bytes of the intermediates' arenas a plan of this program keeps between runs."""
    by_storage = _storage_slots(program)
    return sum(max(program.buffers[s].nbytes for s in by_storage[storage])
               for storage in {program.buffers[s].storage for s in _intermediates(program)})


class CPlan:
    def __init__(self, program: Program, calls: list[_KernelCall]) -> None:
        self.program = program
        self.calls = calls
        inputs, outputs = set(program.inputs), set(program.outputs)
        self.intermediates = _intermediates(program)
        self.storage_slots = _storage_slots(program)
        self._local = threading.local()
        # The intermediates' arenas a run keeps for the next one (per thread): the plan cache
        # bounds plans by these bytes, and they are freed with the plan.
        self.workspace_bytes = workspace_bytes(program)
        self._inputs = [(s, program.buffers[s].dtype, program.buffers[s].shape)
                        for s in program.inputs]
        # Outputs that are neither inputs nor repeated are returned as they are (no copy); large
        # ones are given to the spare pool after the run and taken back by the next one.
        self._plain_outputs = (len(set(program.outputs)) == len(program.outputs)
                               and not inputs & outputs)
        # Slots planned in an input's or output's buffer, bound to it on each run: results of
        # in-place chains, and outputs written in a donated input (allocated for no run).
        self._aliases = tuple(program.aliases().items())
        self._outputs = [(s, program.buffers[s].dtype, program.buffers[s].shape,
                          self._plain_outputs
                          and program.buffers[s].nbytes >= spare_outputs.MIN_BYTES)
                         for s in dict.fromkeys(program.outputs)
                         if s not in inputs and s not in dict(self._aliases)]
        order, self.scalar_offsets = scalar_blocks(len(program.scalars),
                                                   [c.scalars for c in calls])
        # values -> the block's order (>= 2 entries when not None: itemgetter gives a tuple)
        self.scalar_order = itemgetter(*order) if order is not None else None
        self.scalar_dtypes = [program.scalars[i] for i in order or range(len(program.scalars))]
        self._pack_scalars = _scalar_packer(self.scalar_dtypes)
        # Per step: a kernel call (with the pointer entries to refresh each run) or a library call.
        self._steps: list[tuple] = []
        calls_iter = iter(enumerate(calls))
        for step in program.steps:
            if isinstance(step, Kernel):
                n, call = next(calls_iter)
                if not call.skip:
                    bound = tuple((k, s) for k, s in enumerate(call.slots)
                                  if s not in self.intermediates)
                    self._steps.append((n, call.fn, ffi.from_buffer(c_compiler.INT64_ARRAY, call.block),
                                        call.nt, bound))
            else:
                self._steps.append((-1, step, None, 0, ()))
        # The hit path: `run`'s loop unrolled into one generated function (runtime/c/launch.py).
        self._launch = make_launcher(self, _bind_scalars, _char_buffer, run_library_call, _abandon)

    def keep_no_workspace(self) -> None:
        """Free the intermediates' arenas after each run instead of keeping them for the next.
        The plan cache asks this of a plan whose workspace alone exceeds `plan_cache_bytes`:
        evicting it instead made every call rebuild it (passes, memory plan, kernel lookups)
        only to allocate the same arenas again. The plan is kept; its memory lives as long as
        a run, as NumPy's temporaries do."""
        launch, local = self._launch, self._local
        if getattr(launch, "releases_workspace", False):
            return
        run = launch if launch is not None else CPlan.run_steps

        def run_and_release(plan: CPlan, arrays: Sequence[Any], scalars: Sequence[Any]) -> list:
            try:
                return run(plan, arrays, scalars)
            finally:
                local.ws = None

        run_and_release.releases_workspace = True  # type: ignore[attr-defined]
        # graph/_node.c's hit path reads this of a launcher (whether to mark the thread busy)
        run_and_release.calls_library = getattr(launch, "calls_library", True)  # type: ignore
        self._launch = run_and_release
        self.workspace_bytes = 0
        local.ws = None

    def _workspace(self) -> _Workspace:
        ws = getattr(self._local, "ws", None)
        if ws is None:
            ws = self._local.ws = _Workspace(self)
        return ws

    def run(self, arrays: Sequence[Any], scalars: Sequence[Any]) -> list[np.ndarray]:
        """Bind leaves, run the steps, return the outputs. This is the plan-cache hit path: each
        line here costs every cached evaluation, so it runs the plan's generated launcher, which
        does what `run_steps` does with every loop unrolled (~0.6 us less for one kernel)."""
        launch = self._launch
        if launch is not None:
            return launch(self, arrays, scalars)
        return self.run_steps(arrays, scalars)

    def run_steps(self, arrays: Sequence[Any], scalars: Sequence[Any]) -> list[np.ndarray]:
        """`run` as a loop over the steps: the reference for the launcher, and the path for plans
        whose outputs must be copied (an output that is an input, or repeated)."""
        ws = self._workspace()
        ws.input_refs = []  # the pointers this loop sets are not the ones the launcher remembers
        bufs = ws.buffers.copy()
        for (slot, dtype, shape), value in zip(self._inputs, arrays):
            # Leaves are usually C-contiguous arrays of the planned dtype: take them as they are.
            if (type(value) is not np.ndarray or value.dtype is not dtype
                    or value.shape != shape or not value.flags.c_contiguous):
                value = np.ascontiguousarray(value, dtype=dtype).reshape(shape)
            bufs[slot] = value
        if scalars:
            if self.scalar_order is not None:
                scalars = self.scalar_order(scalars)
            _bind_scalars(self._pack_scalars, ws, scalars)
        for slot, dtype, shape, reused in self._outputs:
            buf = spare_outputs.take(ws.key, slot) if reused else None
            bufs[slot] = np.empty(shape, dtype) if buf is None else buf
            buf = None
        for slot, owner in self._aliases:
            bufs[slot] = bufs[owner]
        sptrs, pointers = ws.kernel_scalars, ws.pointers
        try:
            for n, fn, block, nt, bound in self._steps:
                if n < 0:
                    run_library_call(fn, bufs)
                    continue
                ptrs = pointers[n]
                for k, slot in bound:
                    ptrs[k] = _char_buffer(bufs[slot])
                fn(ptrs, block, sptrs[n], nt)
        except BaseException:  # Ctrl-C: a watched kernel may still run; its buffers must outlive it
            _abandon(self, bufs, ws)
            raise
        if self._plain_outputs:
            for slot, _, _, reused in self._outputs:
                if reused:
                    spare_outputs.give(ws.key, slot, bufs[slot])
            return [bufs[slot] for slot in self.program.outputs]
        return fresh_outputs(self.program, bufs)


# --- Ctrl-C during long kernels ---------------------------------------------------------------
# A C call cannot see Python's signal handler, so a kernel over at least WATCHED_ELEMENTS runs in a
# worker thread while the main thread waits in 50 ms slices: Ctrl-C raises KeyboardInterrupt at
# once. The abandoned kernel finishes in the background (C cannot be stopped safely); its buffers
# and workspace are kept until it has, and the plan takes a fresh workspace for its next run.
WATCHED_ELEMENTS = 2**24
_running: list[threading.Thread] = []
_abandoned: list[tuple[list[threading.Thread], Any]] = []


def watched(fn: Any) -> Any:
    def launch(ptrs: Any, block: Any, sptr: Any, nt: int) -> None:
        if threading.current_thread() is not threading.main_thread():
            return fn(ptrs, block, sptr, nt)  # only the main thread receives signals
        done = threading.Event()

        def work() -> None:
            try:
                fn(ptrs, block, sptr, nt)
            finally:
                done.set()

        worker = threading.Thread(target=work, name="lazyarray-kernel", daemon=True)
        worker.start()
        _running.append(worker)
        while not done.wait(0.05):
            pass
        _running.remove(worker)

    return launch


def _abandon(plan: CPlan, bufs: list, ws: _Workspace) -> None:
    _abandoned[:] = [a for a in _abandoned if any(t.is_alive() for t in a[0])]
    if _running:
        _abandoned.append((list(_running), (bufs, ws)))
        _running.clear()
        plan._local.ws = None


# `ffi.from_buffer(array)` without its Python wrapper (~0.2 us per pointer on the hit path).
_char_buffer = partial(ffi._backend.from_buffer, ffi.BCharA) \
    if hasattr(ffi, "_backend") and hasattr(ffi, "BCharA") else ffi.from_buffer


def scalar_blocks(n_scalars: int, per_kernel: Sequence[tuple[int, ...]]
                  ) -> tuple[list[int] | None, list[int]]:
    """(order, offsets): which program scalar fills each 8-byte slot of the workspace's scalar
    block (None: the program's order), and where each kernel's scalars start in it. A kernel
    reading consecutive program scalars (the usual case: they are numbered as kernels read them)
    reads them in place; one reading a scattered or shared set gets a copy of them appended."""
    order = list(range(n_scalars))
    offsets = []
    for wanted in per_kernel:
        if not wanted or wanted == tuple(range(wanted[0], wanted[0] + len(wanted))):
            offsets.append(wanted[0] if wanted else 0)
        else:
            offsets.append(len(order))
            order.extend(wanted)
    return (None if len(order) == n_scalars else order), offsets


_SCALAR_CODES = {"b1": "?", "i1": "b", "u1": "B", "i2": "h", "u2": "H", "i4": "i", "u4": "I",
                 "i8": "q", "u8": "Q", "f4": "f", "f8": "d"}


def _scalar_packer(dtypes: Sequence[np.dtype]) -> struct.Struct | None:
    """One `struct` that writes every scalar argument into its 8-byte slot in one call."""
    codes = []
    for dt in dtypes:
        code = _SCALAR_CODES.get(f"{dt.kind}{dt.itemsize}")
        if code is None:
            return None
        codes.append(code + (f"{8 - dt.itemsize}x" if dt.itemsize < 8 else ""))
    return struct.Struct("=" + "".join(codes)) if codes else None


def _bind_scalars(packer: struct.Struct | None, ws: _Workspace, scalars: Sequence[Any]) -> None:
    """struct's conversion agrees with NumPy's for in-range values; anything it refuses (a float
    too large for float32, a float into an int slot) takes NumPy's assignment, which defines it."""
    if packer is not None:
        try:
            packer.pack_into(ws.scalars, 0, *scalars)
            return
        except (struct.error, OverflowError, TypeError, ValueError):
            pass
    with np.errstate(over="ignore"):  # 1e300 into a float32 scalar is inf, as in NumPy
        for view, value in zip(ws.scalar_views, scalars):
            view[0] = value


def render_program(program: Program) -> list[tuple[Kernel, KernelLayout, str, str]]:
    return [(kernel, *_render_cached(kernel, shared_slots(program, kernel)))
            for kernel in program.kernels]


@lru_cache(maxsize=1024)
def _render_cached(kernel: Kernel, shared: frozenset[int]) -> tuple[KernelLayout, str, str]:
    """Rendering costs ~0.5 ms; plans rebuilt for an already seen kernel skip it."""
    layout = plan_layout(kernel)
    symbol, source = render_kernel(kernel, layout, C_DIALECT, shared)
    return layout, symbol, source


@lru_cache(maxsize=1024)
def _layout_and_key(kernel: Kernel, shared: frozenset[int]) -> tuple[KernelLayout, str]:
    """The kernel's layout and its structural key: what its generated source is a function of
    (ops, dtypes, stages, the layout's size-free pattern, the aliasing slots, and the code of
    the generator itself), found without rendering it. "" when the generator's code cannot
    be read: then every lookup renders."""
    layout = plan_layout(kernel)
    version = _generator_fingerprint()
    if not version:
        return layout, ""
    stages = tuple((st.inner, tuple(("load", e.slot, e.dtype.str) if isinstance(e, Load) else e
                                    for e in st.exprs), st.reduces,
                    tuple((t.slot, t.value) for t in st.stores)) for st in kernel.stages)
    structure = (version, source_name(kernel), kernel.fused, kernel.n_outer,
                 len(kernel.space), stages, layout.pattern, tuple(sorted(shared)))
    key = _KEYS.get(structure)
    if key is None:
        if len(_KEYS) >= 4096:
            _KEYS.clear()
        key = _KEYS[structure] = hashlib.sha256(repr(structure).encode()).hexdigest()[:24]
    return layout, key


# Size-free structure -> its key. The cache above is keyed by the kernel, sizes and strides
# included, so every new size of a size-generic plan misses it; its structure (and key) is one
# the plan's first size already had, and the repr (Python-level, dtype reprs included) is most
# of the work.
_KEYS: dict[tuple, str] = {}


@lru_cache(maxsize=1)
def _generator_fingerprint() -> str:
    """A hash of the code that could decide the generated C: every module of `graph/` (IR, op
    templates, semantics) and `runtime/` (printer, prelude, layout, ...). Any edit there changes
    every structural key, so the disk index never names a library built by other generator code
    (at worst an unrelated edit costs one re-render per kernel). ~1 ms, once per process."""
    digest = hashlib.sha256(c_compiler.CODEGEN_VERSION.encode())
    here = os.path.dirname(__file__)  # runtime/c/, and runtime/'s shared modules above it
    for package_dir in (os.path.dirname(graph.__file__), os.path.dirname(here), here):
        try:
            names = sorted(n for n in os.listdir(package_dir) if n.endswith(".py"))
            for name in names:
                with open(os.path.join(package_dir, name), "rb") as f:
                    digest.update(name.encode() + b"\0" + f.read())
        except OSError:
            return ""
    return digest.hexdigest()[:16]


def translation_unit(functions: list[str]) -> str:
    return render_translation_unit(functions, C_DIALECT)


class CBackend(Backend):
    name = "c"
    device = "cpu"

    @classmethod
    def unavailable_reason(cls) -> str | None:
        return c_compiler.unavailable_reason()

    def kernel_source(self, kernel: Any) -> str:
        return render_kernel(kernel, plan_layout(kernel))[1]

    def compile(self, program: Program) -> CPlan:
        """A plan whose kernels are all loaded: compiles what no cache has, and waits for it.
        Programs computing on float16 run on NumPy's half loops (`needs_half_loops`): no kernel,
        no compile; float16 loads, stores and conversions to float32/float64 compile as others."""
        if needs_half_loops(program):
            return NumpyProgramPlan(program)
        program = split_full_reductions(program, PARALLEL_THRESHOLD)
        found = _find_kernels(program, look_up=True)
        missing = [f for f in found if f[4] is None]
        if missing:  # render only what neither memory nor the disk index has
            compile_stats.count("compile_waits")
            rendered = [_render_cached(*canonical)[1:] for _, _, _, canonical, _ in missing]
            # A kernel the background compiler has queued (another size of a size-generic
            # plan, say) is waited for, not compiled twice.
            queued = c_background.queued([symbol for symbol, _ in rendered])
            own = [(r, f[2]) for r, f in zip(rendered, missing) if r[0] not in queued]
            compiled = iter(c_compiler.load_kernels([r for r, _ in own], translation_unit,
                                                    [key for _, key in own]) if own else ())
            loaded = iter([queued[r[0]].result() if r[0] in queued else next(compiled)
                           for r in rendered])
            found = [f if f[4] is not None else (*f[:4], next(loaded)) for f in found]
        return _plan(program, found)

    def compile_without_waiting(self, program: Program) -> CPlan | TieredPlan:
        """As `compile`, but kernels no cache has compile in the background while the plan runs
        through the NumPy executor, where that gives the same bits (runtime/c/tiered.py), else
        through the same kernels compiled quickly (runtime/c/quick.py)."""
        if not background_compiles or compile_stats.forbid_compiles or needs_half_loops(program):
            return self.compile(program)
        split = split_full_reductions(program, PARALLEL_THRESHOLD)
        if not worth_interpreting(split):
            if c_quick.quick_cost(split) > c_quick.QUICK_MAX_COST:
                return self.compile(program)
            return self._compile_quick_first(program, split)
        # Without the compiler's facts on disk (a fresh cache) even a lookup would probe it.
        found = _find_kernels(split, look_up=c_compiler.toolchain_known())
        missing = [f for f in found if f[4] is None]
        if not missing:
            return _plan(split, found)
        rendered = [_render_cached(*canonical)[1:] for _, _, _, canonical, _ in missing]
        compile_stats.count("kernels_queued", len(dict(rendered)))  # one per distinct kernel
        futures = c_background.submit(rendered, [f[2] for f in missing], translation_unit)
        return TieredPlan(split, futures, partial(_finish_plan, split, found),
                          workspace_bytes(split))

    def _compile_quick_first(self, program: Program, split: Program) -> CPlan | TieredPlan:
        """The plan on quick (-O0) builds of its missing kernels while their -O3 builds compile
        in the background: same bits, a fraction of the wait (runtime/c/quick.py)."""
        found = _find_kernels(split, look_up=True)
        missing = [f for f in found if f[4] is None]
        if not missing:
            return _plan(split, found)
        rendered = [_render_cached(*canonical)[1:] for _, _, _, canonical, _ in missing]
        compile_stats.count("kernels_queued", len(dict(rendered)))
        futures = c_background.submit(rendered, [f[2] for f in missing], translation_unit)
        quick = c_quick.quick_kernels(rendered, translation_unit)
        if quick is None:
            return self.compile(program)  # waits for the queued kernels, compiles none twice
        stand_in = _finish_plan(split, found, quick)
        return TieredPlan(split, futures, partial(_finish_plan, split, found),
                          workspace_bytes(split), stand_in=stand_in)

    def run(self, plan: CPlan, leaves: list[Any]) -> list[np.ndarray]:
        arrays, scalars = leaves
        return plan.run(arrays, scalars)


def _find_kernels(program: Program, look_up: bool) -> list[tuple]:
    """Per kernel (kernel, layout, structural key, (kernel, shared slots) in its own numbering,
    C function or None): loaded from memory or the disk cache by structural key when `look_up`.
    Keys and sources are of the renumbered kernel (c_canonical), so the same kernel at another
    position or in another plan is one compile."""
    found = []
    for kernel in program.kernels:
        canonical = canonical_kernel(kernel, shared_slots(program, kernel))
        layout, key = _layout_and_key(*canonical)
        found.append((kernel, layout, key, canonical,
                      c_compiler.load_by_key(key) if key and look_up else None))
    return found


def _finish_plan(program: Program, found: list[tuple], functions: list[Any]) -> CPlan:
    """The compiled plan once the background compiler has delivered the missing `functions`."""
    arrived = iter(functions)
    return _plan(program, [f if f[4] is not None else (*f[:4], next(arrived)) for f in found])


def _plan(program: Program, found: list[tuple]) -> CPlan:
    threads = _threads()
    calls = []
    for kernel, layout, _, _, fn in found:
        size = layout.n_elements
        if size >= WATCHED_ELEMENTS:
            fn = watched(fn)
        calls.append(_KernelCall(fn, kernel_slots(kernel), layout.block(),
                                 threads if parallel_work(kernel, size) >= PARALLEL_THRESHOLD
                                 else 1,
                                 skip=(size == 0 and not _reduces_empty(kernel)),
                                 scalars=kernel_scalars(kernel)))
    return CPlan(program, calls)


def _reduces_empty(kernel: Kernel) -> bool:
    """An empty inner space still writes identities to a non-empty output."""
    outer = 1
    for n in kernel.outer:
        outer *= n
    return outer > 0


register_backend("c", CBackend)
