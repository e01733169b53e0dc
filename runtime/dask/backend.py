"""The `dask` backend: a Program (the fusion plan) as a Dask graph over chunks.

Each step of the Program becomes dask.array work over the slots' chunked arrays:

- an elementwise kernel: one `blockwise` task per chunk, running the kernel compiled by the C
  backend on that chunk's blocks (runtime/dask/chunk.py); a kernel that writes several outputs
  runs once per chunk and each output takes its part;
- a kernel that reduces inner dims and keeps outer ones: the inner dims in one chunk, one task
  per chunk of the outer dims;
- a full reduction (`mean((a-b)**2)`): Dask's tree reduction (`dask.array.reduction`) whose chunk
  stage is the kernel's partial (its reduction over one chunk, float32 sums kept in float64),
  whose combine and aggregate stages are generated kernels: the same fold over the partials, and
  the kernel's own later stages (the `/ n`);
- matmul: `dask.array.matmul`; other library calls (concat, take, cumsum, ...): their NumPy
  reference in one task on whole inputs;
- Loads that slice, flip, transpose, reshape or broadcast become dask.array's own views
  (runtime/dask/views.py); addressing they cannot express runs the kernel in one task.

Leaves that are NumPy arrays become `dask.array.from_array` with the configured chunks; leaves
that are dask arrays (`la.from_dask`) keep theirs. `DaskPlan.build` returns dask arrays (lazy,
for `Array.to_dask()` and out-of-core stores); `DaskPlan.run` computes them with the active
scheduler (a `dask.distributed` Client if one exists, else Dask's default) and returns NumPy.
Dask is imported only here and only when a plan is built: `import lazyarray` never imports it.
"""

from __future__ import annotations

import importlib.util
import operator
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import partial
from typing import Any

import numpy as np

from ...graph.kernel_ir import (
    AccRef,
    Index,
    Kernel,
    LibraryCall,
    Load,
    needs_half_loops,
    resolve_program_offsets,
    Program,
    Reduce,
    Stage,
    Store,
)
from ...graph.registry import OpKind
from ..kernel_numpy import NumpyProgramPlan
from ..c import compiler as c_compiler
from ..backend import Backend, register_backend
from ..c.compiler import ffi
from ..c.layout import plan_layout
from ..c.library_call import run_library_call
from ..c.printer import kernel_slots, render_kernel
from .chunk import ChunkKernel, compiled, pack_scalars, run_chunk
from .views import load_view, reshape, store_target

chunks_setting: Any = "auto"  # lazyarray sets it from settings.chunks


def configure(chunks: Any) -> None:
    global chunks_setting
    chunks_setting = "auto" if chunks is None else chunks


_F32, _F64 = np.dtype("float32"), np.dtype("float64")


@dataclass
class StepReport:
    """What one Program step became: for `la.explain(..., backend="dask")`."""

    name: str
    mode: str  # blockwise / rows / tree / whole / matmul / library
    grid: tuple[int, ...]  # chunks per dim of the step's index space
    kernel_tasks: int = 1  # tasks that run a kernel (or the library call)
    tasks: int = 0  # tasks in the graph layers it added (views and rechunks included)


class DaskPlan:
    """Data-free: holds the Program; chunking is decided per run from the leaves."""

    def __init__(self, program: Program) -> None:
        self.program = program

    def build(self, arrays: Sequence[Any], scalars: Sequence[Any],
              reports: list[StepReport] | None = None) -> list[Any]:
        """The outputs as dask arrays (nothing computed)."""
        prog = resolve_program_offsets(self.program, scalars)  # run-time starts: this run's
        slots: dict[int, Any] = {}
        for slot, value in zip(prog.inputs, arrays):
            slots[slot] = as_dask(value, prog.buffers[slot].shape, prog.buffers[slot].dtype)
        scalars = tuple(scalars)
        for step in prog.steps:
            if isinstance(step, Kernel):
                ins, outs = step.input_slots, step.output_slots
                report = _kernel(prog, step, slots, scalars)
            else:
                ins, outs = step.inputs, (step.output,)
                report = _library(prog, step, slots)
            if reports is not None:
                report.tasks = _new_tasks([slots[s] for s in outs], [slots[s] for s in ins])
                reports.append(report)
        return [slots[s] for s in prog.outputs]

    def run(self, arrays: Sequence[Any], scalars: Sequence[Any]) -> list[np.ndarray]:
        import dask  # optional: the dask extra

        outs = dask.compute(*self.build(arrays, scalars))
        return [np.array(o, copy=True) if o.base is not None or not o.flags.writeable
                else o for o in map(np.asarray, outs)]


class HalfLoopsPlan:
    """A program computing on float16 values: its inputs computed, then NumPy's half loops on the
    host, whole (runtime/kernel_numpy.py; the C backend's answer for such programs, docs/dask.md)."""

    def __init__(self, program: Program) -> None:
        self._plan = NumpyProgramPlan(program)

    def run(self, arrays: Sequence[Any], scalars: Sequence[Any]) -> list[np.ndarray]:
        return self._plan.run([np.asarray(a) for a in arrays], scalars)


def as_dask(value: Any, shape: tuple[int, ...], dtype: np.dtype) -> Any:
    import dask.array as da  # optional: the dask extra

    if isinstance(value, da.Array):
        x = value
    else:
        value = np.asarray(value)
        x = da.from_array(value, chunks=row_chunks(value.shape, value.dtype),
                          name=f"leaf-{uuid.uuid4().hex}")
    if x.dtype != dtype:
        x = x.astype(dtype)
    return x if x.shape == shape else reshape(x, shape)


# Chunk boundaries at multiples of this many elements of the flat index keep every element in
# the same code path as the C backend's whole-array loop (vector body or scalar tail: libmvec's
# vector and scalar functions differ in the last bit), so elementwise results match it bit for bit.
ALIGN = 1024


def row_chunks(shape: tuple[int, ...], dtype: Any, first: tuple[int, ...] | None = None) -> tuple:
    """Chunks for elementwise work: whole trailing dims, the first dim cut at aligned rows.
    `first`: the first dim's chunks to start from (else the `chunks` setting's)."""
    from dask.array.core import normalize_chunks  # optional: the dask extra

    if not shape:
        return ()
    if 0 in shape:  # empty: one chunk (Dask's "auto" divides by the zero-sized block)
        return tuple((n,) for n in shape)
    if first is None:
        setting = chunks_setting
        if isinstance(setting, (tuple, list)):
            setting = setting[0] if setting else "auto"
        first = normalize_chunks((setting,) + (-1,) * (len(shape) - 1), shape,
                                 dtype=np.dtype(dtype))[0]
    row = int(np.prod(shape[1:], dtype=np.int64))
    step = ALIGN // np.gcd(max(row, 1), ALIGN)
    size = max(first[0] if first else 1, 1)
    size = -(-size // step) * step
    n = shape[0]
    cuts = tuple(min(size, n - i) for i in range(0, n, size)) or (0,)
    return (cuts,) + tuple((m,) for m in shape[1:])


# --- kernels --------------------------------------------------------------------------------------
def _kernel(prog: Program, k: Kernel, slots: dict[int, Any], scalars: tuple) -> StepReport:
    loads: dict[tuple, int] = {}  # (slot, strides, offset) -> block position
    for st in k.stages:
        for e in st.exprs:
            if isinstance(e, Load):
                loads.setdefault((e.slot, e.strides, e.offset), len(loads))
    views = []
    for slot, strides, offset in loads:
        v = load_view(slots[slot], prog.buffers[slot].shape, strides, offset, k.space)
        if v is None:
            return _whole(prog, k, slots, scalars, "an access dask.array views cannot express")
        views.append(v)
    out_slots = [s.slot for st in k.stages for s in st.stores]
    if len(set(out_slots)) != len(out_slots):
        return _whole(prog, k, slots, scalars, "a buffer stored twice")
    targets = []
    for st in k.stages:
        for s in st.stores:
            spec = prog.buffers[s.slot]
            t = store_target(k.outer, spec.shape, s.strides[:k.n_outer], s.offset)
            if t is None:
                return _whole(prog, k, slots, scalars, "a store that is not one block per chunk")
            targets.append(t)
    if k.n_outer == 0 and k.inner:
        if _tree_reducible(k) and views:
            return _tree(prog, k, slots, scalars, loads, views)
        why = "a full reduction without a partial stage" if views else "a reduction of no chunk"
        return _whole(prog, k, slots, scalars, why)
    ck = _chunk_kernel(k, loads, prog, scalars_dtypes=prog.scalars)
    return _blockwise(prog, k, ck, slots, scalars, views, targets)


def _renumber(k: Kernel, loads: dict[tuple, int]) -> tuple[tuple[Stage, ...], list[int]]:
    """Stages with Loads numbered by block position and Stores by output position."""
    out_slots: list[int] = []
    stages = []
    for st in k.stages:
        exprs = tuple(replace(e, slot=loads[e.slot, e.strides, e.offset])
                      if isinstance(e, Load) else e for e in st.exprs)
        stores = []
        for s in st.stores:
            stores.append(replace(s, slot=len(out_slots)))
            out_slots.append(s.slot)
        stages.append(Stage(st.inner, exprs, st.reduces, tuple(stores)))
    return tuple(stages), out_slots


def _chunk_kernel(k: Kernel, loads: dict[tuple, int], prog: Program,
                  scalars_dtypes: tuple) -> ChunkKernel:
    stages, out_slots = _renumber(k, loads)
    return ChunkKernel(k.name, k.n_outer, stages, len(loads),
                       tuple(prog.buffers[s].dtype for s in out_slots), tuple(scalars_dtypes),
                       k.fused, k.sites)


def _blockwise(prog: Program, k: Kernel, ck: ChunkKernel, slots: dict[int, Any], scalars: tuple,
               views: list, targets: list) -> StepReport:
    import dask.array as da  # optional: the dask extra

    ndim = len(k.space)
    if views and ndim:  # aligned rows of the outer dims; reduced dims whole in each chunk
        real = next((v for v in views if v.numblocks[0] > 1), views[0])
        chunks = row_chunks(k.space, views[0].dtype, real.chunks[0])
        views = [v if v.chunks == chunks else v.rechunk(chunks) for v in views]
    ind = tuple(f"d{d}" for d in range(ndim))
    out_ind = ind[:k.n_outer]
    name = f"{k.name}-{uuid.uuid4().hex}"
    args: list[Any] = []
    for v in views:
        args += [v, ind]
    multi = len(ck.outputs) > 1
    meta_dtype = object if multi else ck.outputs[0]
    fn = partial(run_chunk, ck, scalars)
    if views:
        res = da.blockwise(fn, out_ind, *args, name=name, dtype=meta_dtype,
                           meta=np.empty((0,) * k.n_outer, meta_dtype), concatenate=True)
    else:  # no array input (an arange-like kernel): one task
        res = da.from_delayed(_delayed(partial(fn, space=k.space))(), k.outer, dtype=meta_dtype)
        if res.ndim:  # several outputs travel as an object tuple: size the chunks by the widest
            widest = max(ck.outputs, key=lambda dt: dt.itemsize)  # (auto cannot size objects)
            res = res.rechunk(da.core.normalize_chunks(chunks_setting, res.shape, dtype=widest))
    out_slots = [s.slot for st in k.stages for s in st.stores]
    for q, (slot, target) in enumerate(zip(out_slots, targets)):
        spec = prog.buffers[slot]
        out = res
        if multi:
            out = res.map_blocks(operator.getitem, q, dtype=spec.dtype,
                                 meta=np.empty((0,) * k.n_outer, spec.dtype))
        slots[slot] = _place(out, target, spec.shape)
    grid = tuple(res.numblocks) + (1,) * (ndim - k.n_outer)
    return StepReport(k.name, "rows" if k.inner else "blockwise", grid,
                      int(np.prod(res.numblocks, dtype=np.int64)))


def _place(block_array: Any, target: tuple[str, Any], shape: tuple[int, ...]) -> Any:
    how, detail = target
    x = block_array
    if how == "transpose":
        squeezed, axes = detail
        x = x.reshape(squeezed).transpose(axes)
    return x if x.shape == shape else reshape(x, shape)


def _delayed(fn):
    import dask  # optional: the dask extra

    return dask.delayed(fn, pure=False)


# --- full reductions: Dask's tree with the kernel's partial and combine stages --------------------
def _partial_dtype(r: Reduce) -> np.dtype:
    return _F64 if r.dtype == _F32 and "accumulates" in r.op.properties else r.dtype


def _tree_reducible(k: Kernel) -> bool:
    """The conditions of runtime/c/split.py (the C backend's own partial/combine split), with one
    reduction and one stored result."""
    first, *rest = k.stages
    if not first.inner or len(first.reduces) != 1 or first.stores:
        return False
    if any("index" in r.op.properties for r in first.reduces):
        return False
    if any(isinstance(e, Index) for e in first.exprs):
        return False
    for st in rest:
        if st.inner or st.reduces or any(isinstance(e, (Load, Index)) for e in st.exprs):
            return False
    return sum(len(st.stores) for st in rest) == 1


def _tree(prog: Program, k: Kernel, slots: dict[int, Any], scalars: tuple,
          loads: dict[tuple, int], views: list) -> StepReport:
    import dask.array as da  # optional: the dask extra

    first, *rest = k.stages
    red = first.reduces[0]
    pdt = _partial_dtype(red)
    exprs = tuple(replace(e, slot=loads[e.slot, e.strides, e.offset])
                  if isinstance(e, Load) else e for e in first.exprs)
    keep = Stage(False, (AccRef(0, 0, pdt),), (), (Store(0, (), 0, 0),))
    partial_ck = ChunkKernel(f"{k.name}_partial", 0,
                             (Stage(True, exprs, (replace(red, dtype=pdt),), ()), keep),
                             len(loads), (pdt,), prog.scalars, k.fused, k.sites)
    fold = Stage(True, (Load(0, (), 0, pdt),), (Reduce(red.op, 0, pdt),), ())
    combine_ck = ChunkKernel(f"{k.name}_combine", 0, (fold, keep), 1, (pdt,), (), k.fused,
                             k.sites)
    later, (out_slot,) = _renumber(replace(k, stages=tuple(rest)), {})
    final = Stage(True, (Load(0, (), 0, pdt),), (Reduce(red.op, 0, red.dtype),), ())
    aggregate_ck = ChunkKernel(k.name, 0, (final, *later), 1, (prog.buffers[out_slot].dtype,),
                               prog.scalars, k.fused, k.sites)
    ndim = len(k.space)
    ind = tuple(f"d{d}" for d in range(ndim))
    args: list[Any] = []
    for v in views:
        args += [v, ind]
    name = f"{k.name}_partial-{uuid.uuid4().hex}"
    partials = da.blockwise(partial(_partial_block, partial_ck, scalars, ndim), ind, *args,
                            name=name, dtype=pdt, meta=np.empty((0,) * ndim, pdt),
                            adjust_chunks={i: 1 for i in ind})
    spec = prog.buffers[out_slot]
    total = da.reduction(partials, _keep, partial(_aggregate, aggregate_ck, scalars),
                         combine=partial(_combine, combine_ck),
                         axis=tuple(range(ndim)), keepdims=False, dtype=spec.dtype,
                         concatenate=True, name=f"{k.name}-{uuid.uuid4().hex}",
                         meta=np.empty((), spec.dtype))
    slots[out_slot] = total.reshape(spec.shape) if spec.shape != () else total
    return StepReport(k.name, "tree", tuple(partials.numblocks),
                      _new_tasks([total], [partials]))  # its chunk layer stands for the partials


def _new_tasks(outs: list, ins: list) -> int:
    """Tasks in the layers of `outs` that none of `ins` has: what one step added."""
    seen: set = set()
    for x in ins:
        seen.update(x.__dask_graph__().layers)
    total = 0
    for x in outs:
        for name, layer in x.__dask_graph__().layers.items():
            if name not in seen:
                seen.add(name)
                total += len(layer)
    return total


def _partial_block(ck: ChunkKernel, scalars: tuple, ndim: int, *blocks: Any) -> np.ndarray:
    return np.reshape(run_chunk(ck, scalars, *blocks), (1,) * ndim)


def _keep(x: np.ndarray, axis: Any = None, keepdims: bool = True) -> np.ndarray:
    return x


def _combine(ck: ChunkKernel, x: np.ndarray, axis: Any = None, keepdims: bool = True) -> np.ndarray:
    flat = np.ascontiguousarray(x).reshape(-1)
    out = run_chunk(ck, (), flat)
    return np.reshape(out, (1,) * x.ndim) if keepdims else out


def _aggregate(ck: ChunkKernel, scalars: tuple, x: np.ndarray, axis: Any = None,
               keepdims: bool = False) -> np.ndarray:
    out = run_chunk(ck, scalars, np.ascontiguousarray(x).reshape(-1))
    return np.reshape(out, (1,) * x.ndim) if keepdims else out


# --- whole-buffer fallback and library calls -------------------------------------------------------
def _whole(prog: Program, k: Kernel, slots: dict[int, Any], scalars: tuple,
           why: str) -> StepReport:
    """The kernel as the C backend runs it, on whole buffers in one task."""
    import dask.array as da  # optional: the dask extra

    ins = list(k.input_slots)
    outs = list(k.output_slots)
    specs = [(prog.buffers[s].shape, prog.buffers[s].dtype) for s in outs]
    task = _delayed(partial(_run_whole, k, ins, outs, specs, prog.scalars, scalars))(
        *[slots[s] for s in ins])
    for q, (slot, (shape, dtype)) in enumerate(zip(outs, specs)):
        slots[slot] = da.from_delayed(task[q], shape, dtype=dtype)
    return StepReport(f"{k.name} ({why})", "whole", (1,) * len(k.space))


def _run_whole(k: Kernel, ins: list[int], outs: list[int], specs: list, scalar_dtypes: tuple,
               scalars: tuple, *arrays: np.ndarray) -> tuple[np.ndarray, ...]:
    bufs = {s: np.ascontiguousarray(a) for s, a in zip(ins, arrays)}
    results = tuple(np.empty(shape, dtype) for shape, dtype in specs)
    bufs.update(zip(outs, results))
    fn, layout = compiled(k)
    order = kernel_slots(k)
    pointers = c_compiler.new_pointer_array(max(len(order), 1))
    for j, slot in enumerate(order):
        pointers[j] = ffi.cast(c_compiler.CHAR_P, bufs[slot].ctypes.data)
    fn(pointers, ffi.from_buffer(c_compiler.INT64_ARRAY, layout.block()),
       ffi.from_buffer(pack_scalars(scalar_dtypes, scalars)), 1)
    return results


def _library(prog: Program, step: LibraryCall, slots: dict[int, Any]) -> StepReport:
    import dask.array as da  # optional: the dask extra

    spec = prog.buffers[step.output]
    args = list(step.arguments(slots.__getitem__))
    if step.op.kind is OpKind.MATMUL:
        out = da.matmul(*args)
        out = out.astype(spec.dtype) if out.dtype != spec.dtype else out
        slots[step.output] = out if out.shape == spec.shape else out.reshape(spec.shape)
        return StepReport("matmul", "matmul", tuple(len(c) for c in out.chunks),
                          _new_tasks([out], args))
    out = _dask_own(step, args, spec)
    if out is not None:
        slots[step.output] = out
        return StepReport(f"{step.op.name} (dask.array's own)", "dask.array", out.numblocks,
                          _new_tasks([out], args))
    task = _delayed(partial(_run_reference, step, spec.shape, spec.dtype))(*args)
    slots[step.output] = da.from_delayed(task, spec.shape, dtype=spec.dtype)
    return StepReport(f"{step.op.name} (NumPy reference, whole inputs)", "whole",
                      (1,) * len(spec.shape))


class _WouldCompute(RuntimeError):
    pass


def _refuse(*args: Any, **kwargs: Any) -> Any:
    raise _WouldCompute("the reference computed a dask array")


def _dask_own(step: LibraryCall, args: list, spec: Any) -> Any:
    """The op's NumPy reference applied to the dask arrays themselves: NumPy dispatches
    `np.concatenate`, `np.cumsum`, ... to dask.array's own (NEP 18), so the result stays chunked
    and lazy. None when the reference would compute something (a bounds check) or fails: then
    the caller runs it on whole inputs in one task."""
    import dask  # optional: the dask extra
    import dask.array as da  # optional: the dask extra

    try:
        with dask.config.set(scheduler=_refuse), np.errstate(all="ignore"):
            out = step.op.reference(tuple(args), step.attrs, spec.dtype)
    except Exception:  # noqa: BLE001  (any failure: the one-task path runs the reference as is)
        return None
    if not isinstance(out, da.Array) or int(np.prod(out.shape)) != int(np.prod(spec.shape)):
        return None
    out = out.astype(spec.dtype) if out.dtype != spec.dtype else out
    return out if out.shape == spec.shape else reshape(out, spec.shape)


def _run_reference(step: LibraryCall, shape: tuple[int, ...], dtype: np.dtype,
                   *args: np.ndarray) -> np.ndarray:
    bufs: list[Any] = [np.asarray(a) for a in args] + [np.empty(shape, dtype)]
    run_library_call(replace(step, inputs=tuple(range(len(args))), output=len(args)), bufs)
    return bufs[-1]


# --- the backend ------------------------------------------------------------------------------------
class DaskBackend(Backend):
    name = "dask"
    device = "cpu"

    @classmethod
    def unavailable_reason(cls) -> str | None:
        if importlib.util.find_spec("dask") is None or importlib.util.find_spec("dask.array") is None:
            return "Dask is not installed: pip install 'lazyarray-fusion[dask]'"
        return c_compiler.unavailable_reason()

    def kernel_source(self, kernel: Any) -> str:
        return render_kernel(kernel, plan_layout(kernel))[1]

    def compile(self, program: Program) -> DaskPlan | HalfLoopsPlan:
        if needs_half_loops(program):  # chunks run generated C, which has no half arithmetic
            return HalfLoopsPlan(program)
        return DaskPlan(program)

    def run(self, plan: DaskPlan, leaves: list[Any]) -> list[np.ndarray]:
        arrays, scalars = leaves
        return plan.run(arrays, scalars)


def describe(plan: DaskPlan, arrays: Sequence[Any], scalars: Sequence[Any]) -> str:
    """The chunk grid and the tasks of each step, and the totals before and after Dask's graph
    optimization (which fuses each leaf's chunk getter into the kernel task that reads it)."""
    import dask  # optional: the dask extra

    reports: list[StepReport] = []
    outs = plan.build(arrays, scalars, reports)
    lines = []
    for r in reports:
        grid = " x ".join(map(str, r.grid)) or "scalar"
        lines.append(f"  {r.mode:10s} {r.name}: chunk grid {grid}, {r.kernel_tasks} kernel "
                     f"task(s), {r.tasks} with its views")
    built = len(dict(_merged(outs)))
    optimized = len(dict(_merged(dask.optimize(*outs))))
    lines.append(f"  graph: {built} tasks built, {optimized} after Dask's optimization")
    return "\n".join(lines)


def _merged(outs: Sequence[Any]) -> Any:
    from dask.highlevelgraph import HighLevelGraph  # optional: the dask extra

    graphs = [o.__dask_graph__() for o in outs]
    return HighLevelGraph.merge(*graphs) if graphs else {}


register_backend("dask", DaskBackend)
