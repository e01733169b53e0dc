"""Tiered execution: a C plan whose kernels are still compiling runs through the NumPy executor.

A cold compile costs 60-500 ms (the compiler's start dominates a small kernel); a loop never
evaluated inside builds 2-3 plans and runs each segment in well under a millisecond. So the C
backend need not wait: `CBackend.compile_without_waiting` queues the missing kernels on the
background compiler (runtime/c/background.py) and returns a `TieredPlan`, which runs the same
Program through `kernel_numpy` (the executable definition of the kernel IR) until every kernel
has arrived, then the compiled plan.

One value, one bit pattern (issue 9): a loop may switch executors between two iterations, so
only programs whose every result is bit-identical in both executors are tiered
(`runs_same_bits`): elementwise ops the registry marks "numpy_bits" (correctly rounded or exact,
with the same edge cases), "numpy_bits_integer" ops on integer inputs, loads, stores,
indices, scalars and library calls (run by the same NumPy code in both), and reductions whose C
fold order `c_fold` replays (float sums and products in the C kernel's lanes; integer, bool and
arg reductions, which no order changes). Transcendental functions (our own C formulas differ
from NumPy's by an ulp), float max/min (a lane may keep the other zero) and complex values
run on quick builds of their kernels (runtime/c/quick.py) while the -O3 build compiles. So does
a program too large for the NumPy executor (INTERPRET_MAX_WORK, INTERPRET_MAX_BYTES).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import Future, wait
from time import perf_counter
from typing import Any

import numpy as np

from ...graph.kernel_ir import (Apply, Const, Index, Kernel, Load, Program, ScalarArg,
                                has_dynamic_offsets)
from .. import compile_stats
from ..backend import fresh_outputs
from ..fp_status import numpy_errstate
from .fold import fold_rows, replays
from .library_call import run_library_call
from ..kernel_numpy import _Frame, _strided, as_input, run_kernel

# Element-ops above which a program does not run through the NumPy executor. NumPy runs ~1e8-1e9
# element-ops a second here, so 2**28 is ~0.3-2 s per run. A run interpreted while the compiler
# works costs at most one run more than waiting for the compile (the compiled plan takes over at
# the next run), and a plan built once (nan_cleaning builds 18, each run once) never gains from
# the wait: 2**22 (about a compile's cost, stop 22) made that program wait for 16 compiles.
INTERPRET_MAX_WORK = 2**28
# Seconds of stand-in (quick, -O0) runs after which a plan waits for its -O3 build: unoptimised
# kernels run 2-10x slower, and a loop that keeps the main thread busy on them starves the
# compiler (niced, on 2 shared cores): logreg ran 30 stand-in runs and no -O3 kernel arrived
# in its cold call (6.3 s, 3.0 s waiting for the compile). Rent until the rent paid is about
# what a compile costs, then buy.
STAND_IN_PATIENCE_S = 0.3
# Bytes of one kernel's interpreted values held at once (the flat executor keeps every
# expression's array until the kernel's stores; NumPy frees its temporaries as it goes).
INTERPRET_MAX_BYTES = 2**29


def runs_same_bits(program: Program) -> bool:
    """Whether the NumPy executor gives this program's C results bit for bit (NaN as one value)."""
    for step in program.steps:
        if not isinstance(step, Kernel):
            continue  # library calls run through the same NumPy code in both executors
        for stage in step.stages:
            if not all(replays(r, stage) for r in stage.reduces):
                return False
            for e in stage.exprs:
                if getattr(e, "dtype", None) is not None and e.dtype.kind == "c":
                    return False
                if isinstance(e, Apply) and not _same_bits(e, stage.exprs):
                    return False
    return True


def _same_bits(e: Apply, exprs: Sequence[Any]) -> bool:
    props = e.op.properties
    if "numpy_bits" in props:
        return True
    return "numpy_bits_integer" in props and all(exprs[a].dtype.kind in "iu" for a in e.args)


def worth_interpreting(program: Program) -> bool:
    """Same bits in both executors, and small enough that NumPy runs it faster than the
    compiler would build it."""
    return (runs_same_bits(program) and interpreted_work(program) <= INTERPRET_MAX_WORK
            and interpreted_bytes(program) <= INTERPRET_MAX_BYTES)


def interpreted_work(program: Program) -> int:
    """Element-ops of one run: what the NumPy executor's time grows with."""
    return sum(k.elements * max(1, sum(len(st.exprs) for st in k.stages))
               for k in program.kernels)


def interpreted_bytes(program: Program) -> int:
    """The most bytes one kernel's computed values take in the NumPy executor (each expression a
    full array of the kernel's space: an upper bound)."""
    return max((k.elements * sum(e.dtype.itemsize for st in k.stages for e in st.exprs
                                 if isinstance(e, Apply)) for k in program.kernels), default=0)


def run_interpreted(program: Program, arrays: Sequence[Any],
                    scalars: Sequence[Any]) -> list[np.ndarray]:
    """The program through the NumPy kernel-IR executor (`kernel_numpy`, step by step); library
    calls as `CPlan` runs them. The reference `FlatProgram` is tested against."""
    frame = _Frame(program, arrays)
    slots = _Slots(frame)
    with numpy_errstate():
        for step in program.steps:
            if isinstance(step, Kernel):
                run_kernel(step, frame, scalars, fold_rows)
            else:
                run_library_call(step, slots)
    return fresh_outputs(program, slots)


class _Slots:
    """A frame's buffers indexed by slot, allocated on first use (what `run_library_call` and
    `fresh_outputs` index)."""

    def __init__(self, frame: _Frame) -> None:
        self.frame = frame

    def __getitem__(self, slot: int) -> np.ndarray:
        return self.frame.buffer(slot)


class FlatProgram:
    """An eligible program prepared once for the NumPy executor: per kernel a flat list of
    instructions (the same registry references `kernel_numpy` applies), loads and stores as
    reshapes where the strides allow, constants made once. `kernel_numpy` re-derives all of
    that on every run: Adam's 76-expression kernel on 8 elements 103 -> 45 us, the accumulator's
    603 expressions on 100 elements 605 -> 335 us (quiet machine, best of 20)."""

    def __init__(self, program: Program) -> None:
        self.program = program
        self.inputs = [(slot, program.buffers[slot].dtype, program.buffers[slot].shape)
                       for slot in program.inputs]
        capacity: dict[int, int] = {}
        for b in program.buffers:
            capacity[b.storage] = max(capacity.get(b.storage, 0), b.nbytes)
        inputs = set(program.inputs)
        # results planned in a donated input's buffer are that buffer (passes/plan_memory.py)
        self.in_inputs = [(s, o) for s, o in program.aliases().items() if o in inputs]
        self.allocated = [(slot, b.storage, capacity[b.storage], b.nbytes, b.dtype, b.shape)
                          for slot, b in enumerate(program.buffers)
                          if slot not in inputs and slot not in dict(self.in_inputs)]
        self.steps = [_flat_kernel(step, program) if isinstance(step, Kernel) else step
                      for step in program.steps]

    def run(self, arrays: Sequence[Any], scalars: Sequence[Any]) -> list[np.ndarray]:
        bufs: list[Any] = [None] * len(self.program.buffers)
        for (slot, dtype, shape), value in zip(self.inputs, arrays):
            bufs[slot] = as_input(value, dtype, shape)
        arenas: dict[int, np.ndarray] = {}
        for slot, storage, capacity, nbytes, dtype, shape in self.allocated:
            arena = arenas.get(storage)
            if arena is None:
                arena = arenas[storage] = np.empty(max(capacity, 1), np.uint8)
            bufs[slot] = arena[:nbytes].view(dtype).reshape(shape)
        for slot, owner in self.in_inputs:
            bufs[slot] = bufs[owner]
        with numpy_errstate():
            for step in self.steps:
                if isinstance(step, _FlatKernel):
                    step.run(bufs, scalars)
                else:
                    run_library_call(step, bufs)
        return fresh_outputs(self.program, bufs)


_LOAD, _APPLY, _VALUE, _SCALAR = range(4)


class _FlatKernel:
    """One single-stage, reduction-free kernel as instructions over a list of values."""

    def __init__(self, code: list[tuple], stores: list[tuple], kernel: Kernel) -> None:
        self.code = code
        self.stores = stores
        self.kernel = kernel

    def run(self, bufs: list[Any], scalars: Sequence[Any]) -> None:
        vals: list[Any] = []
        append = vals.append
        for kind, a, b, c in self.code:
            if kind == _APPLY:  # a: reference, b: argument positions, c: dtype
                out = np.asarray(a(tuple([vals[i] for i in b]), (), c))
                append(out if out.dtype == c else out.astype(c))
            elif kind == _LOAD:  # a: slot, b: view of the buffer
                append(b(bufs[a]))
            elif kind == _VALUE:
                append(a)
            else:  # _SCALAR
                append(np.asarray(scalars[a], dtype=b))
        # Snapshot loads and views of a buffer (np.real of a complex load) before any store: an
        # in-place store may overwrite what another store reads (as kernel_numpy.run_kernel).
        values = [np.array(vals[v]) if copy or (isinstance(vals[v], np.ndarray)
                                                and vals[v].base is not None) else vals[v]
                  for _, _, v, copy in self.stores]
        for (slot, view, _, _), value in zip(self.stores, values):
            view(bufs[slot])[...] = value


def _flat_kernel(kernel: Kernel, program: Program) -> Any:
    if len(kernel.stages) != 1 or kernel.stages[0].reduces or has_dynamic_offsets(kernel):
        return _GenericKernel(kernel)
    stage = kernel.stages[0]
    shape = kernel.space if stage.inner else kernel.outer + (1,) * len(kernel.inner)
    code: list[tuple] = []
    for e in stage.exprs:
        if isinstance(e, Load):
            code.append((_LOAD, e.slot, _viewer(program.buffers[e.slot].shape, e.strides,
                                                e.offset, shape), None))
        elif isinstance(e, Apply):
            code.append((_APPLY, e.op.reference, e.args, e.dtype))
        elif isinstance(e, ScalarArg):
            code.append((_SCALAR, e.index, e.dtype, None))
        elif isinstance(e, Const):
            code.append((_VALUE, np.asarray(e.value, dtype=e.dtype), None, None))
        elif isinstance(e, Index):
            dims = [1] * len(shape)
            dims[e.dim] = shape[e.dim]
            code.append((_VALUE, np.arange(shape[e.dim], dtype=e.dtype).reshape(dims), None, None))
        else:  # AccRef or RowValue: only with reductions
            return _GenericKernel(kernel)
    stores = [(st.slot, _viewer(program.buffers[st.slot].shape, st.strides, st.offset, shape),
               st.value, isinstance(stage.exprs[st.value], Load)) for st in stage.stores]
    return _FlatKernel(code, stores, kernel)


class _GenericKernel(_FlatKernel):
    """A kernel the flat form does not cover, run by `kernel_numpy` as it is."""

    def __init__(self, kernel: Kernel) -> None:
        super().__init__([], [], kernel)

    def run(self, bufs: list[Any], scalars: Sequence[Any]) -> None:
        frame = _Frame.__new__(_Frame)
        frame.bufs = bufs
        run_kernel(self.kernel, frame, scalars, fold_rows)


def _viewer(buffer_shape: tuple[int, ...], strides: tuple[int, ...], offset: int,
            shape: tuple[int, ...]) -> Callable[[np.ndarray], np.ndarray]:
    """buffer -> the strided view a Load/Store addresses: a reshape when the strides are the
    row-major strides of `shape` with broadcast (stride 0) dims kept as 1, else `as_strided`."""
    kept = tuple(1 if st == 0 else n for n, st in zip(shape, strides))
    size = 1
    for n in buffer_shape:
        size *= n
    expected, acc = [], 1
    for n in reversed(kept):
        expected.append(acc)
        acc *= n
    expected.reverse()
    if (offset == 0 and acc == size and 0 not in shape
            and all(st == ex or n == 1 for st, ex, n in zip(strides, expected, kept))):
        return lambda buf: buf.reshape(kept)
    return lambda buf: _strided(buf, strides, offset, shape)


class TieredPlan:
    """A C plan before its kernels arrive: `run` interprets, or runs `stand_in` (the same plan on
    quick builds of the kernels, runtime/c/quick.py) where given; once every future is done it
    builds the compiled plan (`finish(functions)`) and runs that from then on."""

    def __init__(self, program: Program, futures: Sequence[Future],
                 finish: Callable[[list[Any]], Any], workspace_bytes: int,
                 stand_in: Any = None) -> None:
        self.program = program
        self.workspace_bytes = workspace_bytes
        self._futures = tuple(futures)
        self._finish = finish
        self._compiled: Any = None
        self._flat: FlatProgram | None = None
        self._stand_in = stand_in
        self._stand_in_s = 0.0  # seconds its runs took so far
        self._keep_workspace = True

    def keep_no_workspace(self) -> None:
        """CPlan.keep_no_workspace, for the compiled plan this one becomes (the interpreted runs
        keep no workspace)."""
        self._keep_workspace = False
        self.workspace_bytes = 0
        if self._compiled is not None:
            self._compiled.keep_no_workspace()
        if self._stand_in is not None:
            self._stand_in.keep_no_workspace()

    @property
    def compiled(self) -> bool:
        """Whether runs go to the compiled kernels now (checks the futures)."""
        return self._ready() is not None

    def _ready(self) -> Any:
        compiled = self._compiled
        if compiled is None and all(f.done() for f in self._futures):
            # result() raises the compile's error (a CompileError is a lazyarray bug)
            compiled = self._finish([f.result() for f in self._futures])
            if not self._keep_workspace:
                compiled.keep_no_workspace()
            self._compiled = compiled
            self._futures = ()
            self._stand_in = None
        return compiled

    def run(self, arrays: Sequence[Any], scalars: Sequence[Any]) -> list[np.ndarray]:
        compiled = self._compiled or self._ready()
        if compiled is not None:
            return compiled.run(arrays, scalars)
        stand_in = self._stand_in
        if stand_in is not None:
            if self._stand_in_s < STAND_IN_PATIENCE_S:
                compile_stats.count("stand_in_runs")
                start = perf_counter()
                try:
                    return stand_in.run(arrays, scalars)
                finally:
                    self._stand_in_s += perf_counter() - start
            compile_stats.count("compile_waits")
            wait(self._futures)
            return self._ready().run(arrays, scalars)
        compile_stats.count("interpreted_runs")
        flat = self._flat
        if flat is None:
            flat = self._flat = FlatProgram(self.program)
        return flat.run(arrays, scalars)
