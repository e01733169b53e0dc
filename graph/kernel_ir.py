"""The kernel IR: what the fusion planner (passes/) produces and every backend (runtime/) runs.

A `Program` is an ordered list of steps over numbered buffer slots: generated `Kernel`s and
`LibraryCall`s (matmul through BLAS/cuBLAS; opaque ops through their NumPy reference).

A `Kernel` iterates an index space `space = outer + inner`. The outer dims are independent (parallel);
the inner dims are the reduced ones (empty for a purely elementwise kernel). For each outer index the
kernel runs its `stages` in order:

    for o in outer:                       # parallel
        stage 0 (reduce, inner):  acc0 = fold(combine, expr(o, i) for i in inner)
        stage 1 (reduce, inner):  acc1 = fold(..., expr(o, i, acc0))       # e.g. softmax's sum
        stage 2 (store, inner):   out[o, i] = expr(o, i, acc0, acc1)       # softmax's write-back
     or stage 2 (store, outer):   out[o] = expr(o, acc0)                    # mean's sum / n

Memory is addressed only by `Load`/`Store`: element offset + sum(index[d] * strides[d]) over all
space dims, in elements; a Load's offset may also have a run-time part, sum(scalar[k] * c) over
its `dynamic` pairs (k, c): a slice start given as a scalar argument (`x[i:i+m]`, `A[i]`), so
one plan and one compile serve every start. Broadcast dims have stride 0; transposes permute
strides; slices change the offset and strides (negative for flips). So views never copy. Sizes and strides are concrete here;
backends pass them as run-time arguments so that compiled code depends only on their *pattern*.

Expressions are SSA lists local to a stage: an operand is the position of an earlier expression.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from collections.abc import Callable
from typing import Any, Union

import numpy as np

from .registry import OpDef, get_op


# --- expressions -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Load:
    """buffer[slot][offset + sum(scalar[k] * c for k, c in dynamic) + sum(index[d] * strides[d])];
    len(strides) == len(kernel.space). `dynamic` names scalar arguments (int64 slice starts), never
    their values: the kernel's structure holds which argument and its element stride."""

    slot: int
    strides: tuple[int, ...]
    offset: int
    dtype: np.dtype
    dynamic: tuple[tuple[int, int], ...] = ()


@dataclass(frozen=True)
class ScalarArg:
    """The program's k-th scalar argument (a Python scalar bound at run time, never baked in)."""

    index: int
    dtype: np.dtype


@dataclass(frozen=True)
class Const:
    """A literal the planner introduced (an identity, a count); user scalars are ScalarArgs."""

    value: Any
    dtype: np.dtype


@dataclass(frozen=True)
class Index:
    """The loop index along space dim `dim`, as int64."""

    dim: int
    dtype: np.dtype = np.dtype("int64")


@dataclass(frozen=True)
class Apply:
    """An elementwise op of the registry on earlier expressions (positions in the stage's list).
    For `cast`, the source dtype is the argument's dtype and `dtype` the target."""

    op: OpDef
    args: tuple[int, ...]
    dtype: np.dtype


@dataclass(frozen=True)
class AccRef:
    """The value of reduction `k` of an earlier stage `stage` of the same kernel."""

    stage: int
    k: int
    dtype: np.dtype


@dataclass(frozen=True)
class RowValue:
    """The value of expression `pos` of an earlier inner stage `stage`, at the same inner index: a
    row's producer computed once (passes/row_reuse.py). A backend keeps it in a row workspace or
    recomputes it (`recompute_row_values`); both give the same bits (docs/semantics.md)."""

    stage: int
    pos: int
    dtype: np.dtype


Expr = Union[Load, ScalarArg, Const, Index, Apply, AccRef, RowValue]


def recompute_row_values(kernel: "Kernel") -> "Kernel":
    """`kernel` with every RowValue replaced by a copy of the expression it names (for backends
    without row workspaces). Positions are renumbered; reduces and stores follow."""
    if not any(isinstance(e, RowValue) for st in kernel.stages for e in st.exprs):
        return kernel
    stages: list[Stage] = []
    for st in kernel.stages:
        out: list = []
        new_pos: list[int] = []
        for e in st.exprs:
            new_pos.append(_copy_into(out, stages, e, new_pos))
        stages.append(Stage(st.inner, tuple(out),
                            tuple(replace(r, value=new_pos[r.value]) for r in st.reduces),
                            tuple(Store(s.slot, s.strides, s.offset, new_pos[s.value])
                                  for s in st.stores)))
    return Kernel(kernel.name, kernel.space, kernel.n_outer, tuple(stages), kernel.fused,
                  kernel.sites)


def _copy_into(out: list, stages: list, e, new_pos: list[int]) -> int:
    """Append `e` (its args renumbered by `new_pos`) to `out`; a RowValue appends the earlier
    stage's (already recomputed) expression tree. Returns the position of the value in `out`."""
    if isinstance(e, Apply):
        out.append(Apply(e.op, tuple(new_pos[a] for a in e.args), e.dtype))
        return len(out) - 1
    if not isinstance(e, RowValue):
        out.append(e)
        return len(out) - 1
    src = stages[e.stage].exprs
    needed = sorted(_tree(src, e.pos))
    where: dict[int, int] = {}
    for p in needed:
        se = src[p]
        out.append(Apply(se.op, tuple(where[a] for a in se.args), se.dtype)
                   if isinstance(se, Apply) else se)
        where[p] = len(out) - 1
    return where[e.pos]


def _tree(exprs, root: int) -> set[int]:
    seen, todo = set(), [root]
    while todo:
        p = todo.pop()
        if p not in seen:
            seen.add(p)
            if isinstance(exprs[p], Apply):
                todo.extend(exprs[p].args)
    return seen


def dynamic_offset(load: Load, scalars) -> int:
    """The element offset of `load` for these scalar arguments (the run-time value)."""
    return load.offset + sum(int(scalars[k]) * c for k, c in load.dynamic)


def has_dynamic_offsets(kernel: "Kernel") -> bool:
    return any(isinstance(e, Load) and e.dynamic for st in kernel.stages for e in st.exprs)


def resolve_dynamic_offsets(kernel: "Kernel", scalars) -> "Kernel":
    """`kernel` with every dynamic Load offset made concrete for these scalar arguments: for
    executors that read `offset` alone (Dask's chunked loads, the tiered flat kernels)."""
    if not has_dynamic_offsets(kernel):
        return kernel
    stages = tuple(Stage(st.inner, tuple(
        Load(e.slot, e.strides, dynamic_offset(e, scalars), e.dtype)
        if isinstance(e, Load) and e.dynamic else e for e in st.exprs), st.reduces, st.stores)
        for st in kernel.stages)
    return Kernel(kernel.name, kernel.space, kernel.n_outer, stages, kernel.fused, kernel.sites)


# --- stages ------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Reduce:
    """Fold expression `value` over the inner space with a registry reduction op (sum, prod, max,
    min, any, all, argmax, argmin). `dtype` is the result dtype; argmax/argmin yield the row-major
    flat position within the inner space (int64), first occurrence wins, NaN counts as maximal.

    `sequential_dims`: NumPy's fold order, for backends that follow it (runtime/c/printer.py).
    NumPy reduces a C-contiguous operand in its memory order: the reduced dims after its last
    kept dim (of length above 1) are one contiguous block that its `add` sums pairwise, and the
    reduced dims before that dim are added one block after another, in the result dtype
    (`x.sum(axis=0)`: row after row, float32 in float32). The first `sequential_dims` inner dims
    are those folded one after another (all of them: a column reduction; 0: one pairwise block,
    `x.sum(axis=-1)`, `x.sum()`, and every Reduce the planner did not make from an axis list)."""

    op: OpDef
    value: int
    dtype: np.dtype
    sequential_dims: int = 0


@dataclass(frozen=True)
class Store:
    """buffer[slot][offset + sum(index[d] * strides[d])] = value. In an outer-only stage the
    strides of inner dims are ignored (they are 0)."""

    slot: int
    strides: tuple[int, ...]
    offset: int
    value: int


@dataclass(frozen=True)
class Stage:
    inner: bool  # iterates the inner space; False: runs once per outer index
    exprs: tuple[Expr, ...]
    reduces: tuple[Reduce, ...] = ()
    stores: tuple[Store, ...] = ()


@dataclass(frozen=True)
class Kernel:
    name: str  # readable, from the ops it fused: "exp_add_divide"
    space: tuple[int, ...]
    n_outer: int
    stages: tuple[Stage, ...]
    fused: tuple[str, ...] = ()  # user-level ops it computes, for la.explain
    sites: tuple[str, ...] = ()  # user source lines ("file.py:12")

    @property
    def elements(self) -> int:
        """Points of the index space: what a run's work grows with."""
        return math.prod(self.space)

    @property
    def outer(self) -> tuple[int, ...]:
        return self.space[: self.n_outer]

    @property
    def inner(self) -> tuple[int, ...]:
        return self.space[self.n_outer:]

    @property
    def input_slots(self) -> tuple[int, ...]:
        seen: dict[int, None] = {}
        for st in self.stages:
            for e in st.exprs:
                if isinstance(e, Load):
                    seen.setdefault(e.slot)
        return tuple(seen)

    @property
    def output_slots(self) -> tuple[int, ...]:
        return tuple(dict.fromkeys(s.slot for st in self.stages for s in st.stores))


@dataclass(frozen=True)
class LibraryCall:
    """out = op(inputs...) on whole, C-contiguous buffers: matmul via BLAS/cuBLAS, opaque ops via
    their NumPy reference. Inputs are slots; attrs are the node's attrs."""

    op: OpDef
    inputs: tuple[int, ...]
    output: int
    attrs: tuple = ()
    site: str = ""
    transposed: tuple[int, ...] = ()  # inputs read with their last two axes swapped (x @ w.T: the
    # BLAS transpose flag on w's own buffer instead of a copy)

    def arguments(self, buffer: Callable[[int], Any]) -> tuple:
        """The call's operands from `buffer(slot)` (NumPy, CuPy, Dask arrays), transposes applied."""
        if not self.transposed:  # (most calls: no generator per step)
            return tuple([buffer(s) for s in self.inputs])
        return tuple(buffer(s).swapaxes(-1, -2) if k in self.transposed else buffer(s)
                     for k, s in enumerate(self.inputs))


Step = Union[Kernel, LibraryCall]


# --- programs ----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class BufferSpec:
    """A planned buffer: its shape and dtype, and the storage (arena entry) it lives in. Buffers with
    the same storage have disjoint lifetimes (memory planning) or are an in-place update."""

    shape: tuple[int, ...]
    dtype: np.dtype
    storage: int

    @property
    def nbytes(self) -> int:
        n = self.dtype.itemsize
        for s in self.shape:
            n *= s
        return n


@dataclass(frozen=True)
class Program:
    """Steps over slots. `inputs[k]` is the slot bound to the k-th array leaf, `scalars[k]` the dtype
    of the k-th scalar leaf (in the graph's leaf order, arrays and scalars counted separately), and
    `outputs[j]` the slot holding output j. Input and output slots are never reused."""

    buffers: tuple[BufferSpec, ...]
    inputs: tuple[int, ...]
    scalars: tuple[np.dtype, ...]
    outputs: tuple[int, ...]
    steps: tuple[Step, ...]
    peak_bytes: int = 0  # intermediate bytes alive at once under the memory plan
    notes: tuple[str, ...] = field(default=())  # why fusion stopped where it did, for la.explain
    # Positions k of inputs whose buffers the plan may write over (lazyarray/donation.py found
    # them dead): the memory plan may put results in them (passes/plan_memory.py).
    donated: tuple[int, ...] = ()

    @property
    def kernels(self) -> tuple[Kernel, ...]:
        return tuple(s for s in self.steps if isinstance(s, Kernel))

    @property
    def library_calls(self) -> tuple[LibraryCall, ...]:
        return tuple(s for s in self.steps if isinstance(s, LibraryCall))

    def aliases(self) -> dict[int, int]:
        """Slots planned in a program input's or output's own buffer (passes/plan_memory.py: a
        chain of in-place steps ending at an output, or starting at a donated input), each mapped
        to that input or output slot (same shape and dtype). Executors bind them to that array on
        every run instead of allocating; an output in a donated input's buffer *is* that buffer."""
        owners: dict[int, int] = {}
        for s in (*self.outputs, *self.inputs):  # an input owns a storage it shares
            owners[self.buffers[s].storage] = s
        inputs = set(self.inputs)
        found = {}
        for s, b in enumerate(self.buffers):
            o = owners.get(b.storage)
            if o is not None and o != s and s not in inputs:
                found[s] = o
        return found


_FLOAT16 = np.dtype(np.float16)


def holds_float16(program: Program) -> bool:
    """Whether any buffer, scalar or value of `program` is float16. NumPy computes each half op
    in float32 and rounds it to half; the generated kernels have no half arithmetic, so backends
    run such programs through NumPy's own loops (runtime/kernel_numpy.py)."""
    if _FLOAT16 in program.scalars or any(b.dtype == _FLOAT16 for b in program.buffers):
        return True
    return any(e.dtype == _FLOAT16 for k in program.kernels for st in k.stages
               for e in (*st.exprs, *st.reduces))


def _half_conversion(e: Expr, exprs: tuple) -> bool:
    """A cast between float16 and float32/float64: exact one way, one correctly rounded conversion
    the other, as NumPy's npy_half functions (runtime/c/prelude.py `_half_cast` on the bits). The
    cast's twins (graph/ops_unchecked.py: reports named after a ufunc, unchecked dot loops) share
    its template."""
    if not (isinstance(e, Apply) and e.op.c is get_op("cast").c and len(e.args) == 1):
        return False
    src = exprs[e.args[0]].dtype
    return {np.dtype(src).kind, np.dtype(e.dtype).kind} == {"f"} and _FLOAT16 in (src, e.dtype)


def needs_half_loops(program: Program) -> bool:
    """Whether `program` computes on float16 values (an op, a reduction, a scalar or a constant of
    float16), which NumPy's half loops do in float32, rounding each op to half: backends without
    half arithmetic run such programs through NumPy (runtime/kernel_numpy.py). Kernels that only
    move float16 values or convert them to and from float32/float64 need no half arithmetic."""
    if _FLOAT16 in program.scalars:
        return True
    for k in program.kernels:
        for st in k.stages:
            if any(r.dtype == _FLOAT16 or st.exprs[r.value].dtype == _FLOAT16
                   for r in st.reduces):  # (argmax of halves too: C would compare their bits)
                return True
            for e in st.exprs:
                if isinstance(e, Load) or _half_conversion(e, st.exprs):
                    continue
                if e.dtype == _FLOAT16 or isinstance(e, Apply) and any(
                        st.exprs[a].dtype == _FLOAT16 for a in e.args):
                    return True
    return False


def resolve_program_offsets(program: Program, scalars) -> Program:
    """`program` with every kernel's dynamic offsets concrete (`resolve_dynamic_offsets`)."""
    if not any(isinstance(s, Kernel) and has_dynamic_offsets(s) for s in program.steps):
        return program
    steps = tuple(resolve_dynamic_offsets(s, scalars) if isinstance(s, Kernel) else s
                  for s in program.steps)
    return Program(program.buffers, program.inputs, program.scalars, program.outputs, steps,
                   program.peak_bytes, program.notes)
