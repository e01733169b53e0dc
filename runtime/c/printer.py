"""One C-family printer for the kernel IR; C and CUDA are two dialects of it.

`KernelPrinter` prints everything the dialects share: the sizes, strides and offsets read from the
int64 block of the size-generic `KernelLayout`, each stage's SSA expressions (registry templates,
`la_*` prelude helpers, constants, scalar arguments), loads and stores through the layout's
addresses, and the per-element fold of a reduction with the registry's combine template. A dialect
is a `Dialect` (qualifiers, `restrict`, the bool and index types, the prelude) plus a printer
subclass with the structural hooks: `emit_signature`, `emit_frame` (outer loops and the stages),
and the reduce stage. The C dialect is here; the CUDA dialect is runtime/cuda/printer.py.

C functions have the signature

    void la_<ops>_<hash>(char *const *p, const int64_t *d, const char *s, int64_t nt)

`p` holds one pointer per buffer slot the kernel touches (`kernel_slots` order), `d` the int64 block
(extents, then the strides and offsets that are neither 0 nor 1), `s` the scalar arguments (8 bytes
each) and `nt` the thread count. One statement per line, variables named after ops, a comment with
the fused ops and user lines.

C reductions fold the innermost reduced dim in `LANES` independent partial results that are combined
in a fixed order at the end (`ORDER_FREE_LANES` for max/min/any/all: `lane_count`): the lane loop
vectorizes without -ffast-math and the result does not depend on the thread count. float32 sums
and products accumulate in double (in both dialects), except where C folds in NumPy's order
(`folds_in_dtype`: a column reduction's sum, any product): one value after another in the result
dtype, float32 in float, as NumPy's own loops.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass

import numpy as np

from ...graph.ops_buffered import BUFFERED, BUFSIZE
from ...graph.kernel_ir import (
    AccRef,
    RowValue,
    Apply,
    Const,
    Index,
    Kernel,
    Load,
    Program,
    Reduce,
    ScalarArg,
    Stage,
    Store,
)
from . import inline_budget as c_inline_budget, trig as c_trig
from .layout import KernelLayout, kernel_accesses, stride_class
from .complex import render_const as render_complex_const
from .prelude import FPE_VALUES, c_type, libm_suffix, render_helpers, suffix

_INT64 = np.dtype(np.int64)  # run-time slice starts (Load.dynamic)
_CALL = re.compile(r"[A-Za-z_][\w{}]*\(")  # a template that calls a function: `la_exp_{S}(`

LANES = 8
# Lanes of reductions whose result does not depend on the fold order (max, min, any, all) over
# 4-byte or smaller values: one 64-byte vector, so the fold's dependence chain (compare, blend)
# covers twice the elements. softmax 4096x1024, one thread: 2.52 -> 2.18 ms (32 lanes: 2.4 ms).
ORDER_FREE_LANES = 16
# Elements per block of a reduction whose folded values call a function (`folds_in_blocks`): a
# multiple of every lane count, so blocks change no fold order; 1024 float32 values stay in L1.
FOLD_BLOCK = 1024
# Tiles of an elementwise loop with a transposed access (`tiles_transposed_access`): rows of the
# second-innermost dim x elements of the innermost. a.T + b on 4096 x 4096 float32, one thread,
# CPU ms (untiled 150; NumPy 150-160): 32x32 52-62, 16x64 75-82, 64x64 73-79, 128x32 52-66,
# 512x16 45 (but exp(a.T) * b 90 against 70-75 for 32x32); float64 32x32 62 (untiled 150).
TILE_OUTER = 32
TILE_INNER = 32
# Columns of the kept dim folded together by a column reduction (`folds_columns`): one
# accumulator each, on the stack (8 KiB of doubles, in L1). sum(axis=0) of 2000 x 2000 float64:
# 256 columns 2.5 ms (short runs of each row), 1024 1.4 ms, 2048 1.4 ms (NumPy 1.5-1.8).
COLUMN_BLOCK = 1024


def kernel_slots(kernel: Kernel) -> tuple[int, ...]:
    """Buffer slots in the order of the pointer array `p` (C) or the pointer parameters (CUDA)."""
    return tuple(dict.fromkeys(a.slot for a in kernel_accesses(kernel)))


def kernel_scalars(kernel: Kernel) -> tuple[int, ...]:
    """Indices of the program's scalar arguments this kernel reads (values and run-time offsets
    of its loads), ascending."""
    read = {e.index for st in kernel.stages for e in st.exprs if isinstance(e, ScalarArg)}
    read.update(k for st in kernel.stages for e in st.exprs if isinstance(e, Load)
                for k, _ in e.dynamic)
    return tuple(sorted(read))


def shared_slots(program: Program, kernel: Kernel) -> frozenset[int]:
    """Slots of this kernel whose storage another of its slots also uses: no `restrict` there."""
    storage = {s: program.buffers[s].storage for s in kernel_slots(kernel)}
    counts: dict[int, int] = {}
    for st in storage.values():
        counts[st] = counts.get(st, 0) + 1
    return frozenset(s for s, st in storage.items() if counts[st] > 1)


def lane_count(stage: Stage) -> int:
    """Partial results of a C reduction stage: `LANES`, fixed, where the fold order decides the
    bits (sums, products); `ORDER_FREE_LANES` where it can only pick which of equal extremes
    (+0 or -0) or which NaN payload comes out, neither of which NumPy specifies."""
    small = all(np.dtype(r.dtype).itemsize <= 4 for r in stage.reduces)
    free = all("order_free" in r.op.properties for r in stage.reduces)
    return ORDER_FREE_LANES if small and free and stage.reduces else LANES


PAIRWISE_BLOCK = 128  # NumPy's PW_BLOCKSIZE (numpy/_core/src/umath/loops_utils.h.src)
_F64 = np.dtype(np.float64)
# NumPy's FLOAT/DOUBLE_pairwise_sum and CFLOAT/CDOUBLE_pairwise_sum
_PAIRWISE_DTYPES = tuple(np.dtype(t) for t in ("float32", "float64", "complex64", "complex128"))


def folds_pairwise(kernel: Kernel, stage: Stage, rank: int, n_outer: int) -> bool:
    """Whether a C reduction stage sums in NumPy's pairwise order (`emit_pairwise`): every
    reduction a float or complex sum of values of its own dtype, over its inner dims in
    row-major order as one row, in that dtype: NumPy's `add.reduce` over a contiguous last
    axis (the order of `np.sum(x)`, `x.sum(axis=-1)`, a sum over a C array's trailing axes, a
    mean's sum); not a column reduction's (`folds_in_dtype`). `runtime/c/fold.py` replays it."""
    return rank > n_outer and bool(stage.reduces) and all(
        r.op.fold is np.add and "index" not in r.op.properties
        and np.dtype(r.dtype) in _PAIRWISE_DTYPES
        and np.dtype(stage.exprs[r.value].dtype) == np.dtype(r.dtype)
        and not folds_in_dtype(r, kernel) for r in stage.reduces) and len(  # one tree:
        {(np.dtype(r.dtype).kind, BUFFERED in r.op.properties, r.sequential_dims)
         for r in stage.reduces}) == 1


def pairwise_block(kernel: Kernel, stage: Stage) -> int | None:
    """The values of a pairwise stage's row that NumPy sums in one tree, where the row holds
    several (`Reduce.sequential_dims` leading reduced dims, added one block after another:
    `axis=(0, 2, 3)` of NCHW, a tree per H x W); None where the whole row is one tree."""
    seq = stage.reduces[0].sequential_dims
    if not seq:
        return None
    return int(np.prod(kernel.space[kernel.n_outer + seq:], dtype=np.int64))


def sums_in_trees(kernel: Kernel, stage: Stage, lay: KernelLayout) -> bool:
    """Whether the C kernel sums `stage` in NumPy's pairwise trees (`emit_pairwise`): a
    pairwise stage (`folds_pairwise`), not a column fold, and where it sums a row block after
    block, a layout that keeps the block's dims apart (layout.py `tree_boundary`: its last
    `tree_dims` loop dims are the block; a kernel whose stages split their rows differently
    has none, and folds in lanes). runtime/c/fold.py asks the same."""
    if folds_columns(kernel, lay) or not folds_pairwise(kernel, stage, len(lay.extents),
                                                         lay.n_outer):
        return False
    block = pairwise_block(kernel, stage)
    return block is None or (lay.tree_dims > 0 and int(
        np.prod(lay.extents[-lay.tree_dims:], dtype=np.int64)) == block)


def pairwise_buffers(stage: Stage) -> bool:
    """Whether a pairwise stage sums NumPy's buffers (graph/ops_buffered.py): each BUFSIZE
    values' tree apart, the trees' sums added in order from 0."""
    return BUFFERED in stage.reduces[0].op.properties


def pairwise_is_complex(stage: Stage) -> bool:
    """Whether a pairwise stage (`folds_pairwise`) sums complex values: NumPy's complex tree
    has 4 lanes and blocks of 64 (it counts 2n real and imaginary parts)."""
    return np.dtype(stage.reduces[0].dtype).kind == "c"


def folds_in_dtype(r: Reduce, kernel: Kernel) -> bool:
    """Whether the C backend folds `r` one value after another, in the inner space's row-major
    order, in its result dtype (no float64 accumulator for float32): NumPy's order and so its
    bits. NumPy's `multiply` reduces in order; its `add` over a column reduction's dims too
    (`Reduce.sequential_dims`: `x.sum(axis=0)`, `mean(axis=0)`, the sum of a `var(axis=0)`),
    one row after another into the float32 result. The same in every kernel shape a planner
    may give (alone, in a column fold, fused with another reduction): the jitted and the plain
    training step sum a bias gradient in different kernels and must agree to the bit."""
    dt = np.dtype(r.dtype)
    if "index" in r.op.properties or dt.kind not in "fc" or dt.itemsize < 4:
        return False
    n_inner = len(kernel.space) - kernel.n_outer
    return r.op.fold is np.multiply or (r.op.fold is np.add and r.sequential_dims >= n_inner)


def _order_free(r: Reduce, stage: Stage) -> bool:
    """No fold order changes this reduction's value (up to a zero's sign or a NaN's payload)."""
    exact = np.dtype(r.dtype).kind in "biu" and np.dtype(stage.exprs[r.value].dtype).kind in "biu"
    return "index" not in r.op.properties and ("order_free" in r.op.properties or exact)


def folds_sequentially(kernel: Kernel, stage: Stage, rank: int, n_outer: int) -> bool:
    """Whether a C reduction stage folds one value after another in row-major order
    (`emit_sequential`): some reductions fold in their dtype (`folds_in_dtype`: a float
    product, NumPy's `multiply.reduce`; a column reduction's float sum) and the others cannot
    tell the order. `runtime/c/fold.py` replays it."""
    if rank <= n_outer or not stage.reduces:
        return False
    ordered = [folds_in_dtype(r, kernel) for r in stage.reduces]
    return any(ordered) and all(o or _order_free(r, stage) for o, r in zip(ordered, stage.reduces))


def folds_columns(kernel: Kernel, lay: KernelLayout) -> bool:
    """Whether the C kernel folds its reduction column-wise: the reduced loops outside, and
    inside them a vector loop over a block of the last kept dim, one accumulator per output.
    For a reduction that walks memory across its reduced dims with a stride while the kept
    dim is contiguous: `x.sum(axis=0)`, conv2d's `np.sum(window * w, axis=(1, 2, 3))`. Lane
    by lane, such a fold reads one element per cache line and gathers (500 x 400 float64,
    `sum(axis=0)`: 129 us against NumPy's 55). Each output folds its values one after another
    in the reduced dims' row-major order: the bits do not depend on the thread count, and for
    a float64 sum they are NumPy's own (its reduction over an outer axis is sequential too).
    `runtime/c/fold.py` replays the same order. Decided from stride classes and the stage
    structure only (the source depends on the layout's pattern alone): one reduce stage first,
    with no stores, no arg reduction and no row workspace, then stages that run once per output;
    every access contiguous or broadcast along the last kept dim, a store contiguous there, and
    a load that strides along the innermost reduced dim."""
    n_out, rank = lay.n_outer, len(lay.extents)
    first, rest = kernel.stages[0], kernel.stages[1:]
    if not (0 < n_out < rank) or not first.reduces or first.stores or any(
            st.reduces or st.inner for st in rest):
        return False
    if any("index" in r.op.properties for r in first.reduces) or any(
            isinstance(e, RowValue) for st in kernel.stages for e in st.exprs):
        return False
    if any(r.op.fold is np.add and np.dtype(r.dtype).kind in "fc"
           and r.sequential_dims < len(kernel.inner) for r in first.reduces):
        return False  # NumPy sums along memory pairwise where its layout is not the buffer's (a
        # library result or a Fortran-ordered copy held C-ordered: passes/numpy_layout.py)
    col, last = n_out - 1, rank - 1
    n_loads = sum(isinstance(e, Load) for e in first.exprs)  # stage 0's loads come first
    kinds = [(isinstance(a, Store), strides) for a, (strides, *_) in
             zip(kernel_accesses(kernel), lay.accesses)]
    if any(stride_class(strides[col]) == "s" for _, strides in kinds):
        return False
    return (any(store and stride_class(strides[col]) == "1" for store, strides in kinds)
            and any(stride_class(strides[last]) == "s" for _, strides in kinds[:n_loads]))


_POSITION = re.compile(r"^k\d+_")


def source_name(kernel: Kernel) -> str:
    """The kernel's name without its position in the program (`k5_sqrt_divide` -> `sqrt_divide`):
    the same kernel at another position (every iteration of a loop segment) renders the same
    source, symbol and structural key, so it compiles once."""
    return _POSITION.sub("", kernel.name)


def kernel_symbol(kernel: Kernel, body: str) -> str:
    return f"la_{source_name(kernel)}_{hashlib.sha256(body.encode()).hexdigest()[:10]}"


@dataclass(frozen=True)
class ReduceSpec:
    """How one reduction is accumulated: C type, identity, registry combine, arg-reduction flag."""

    acc_t: str
    identity: str
    template: str
    is_index: bool


MAX_HOISTED = 4  # invariants read before a kernel's loops (KernelPrinter.plain)


def _invariant_count(kernel: Kernel) -> int:
    """Scalar arguments and loads at one address (no loop index moves them: a 0-d operand), an
    upper bound on what `emit_invariants` reads before the loops."""
    scalars = {e.index for st in kernel.stages for e in st.exprs if isinstance(e, ScalarArg)}
    loads = sum(1 for st in kernel.stages for e in st.exprs
                if isinstance(e, Load) and not any(e.strides))
    return len(scalars) + loads


class KernelPrinter:
    """The shared part of printing one kernel; dialect subclasses add the structural hooks."""

    def __init__(self, kernel: Kernel, layout: KernelLayout, dialect: Dialect, shared) -> None:
        self.k, self.lay, self.dia = kernel, layout, dialect
        self.slots = kernel_slots(kernel)
        self.written = {st.slot for stage in kernel.stages for st in stage.stores}
        # one elementwise stage with few invariants: the loops gcc vectorizes whole, where
        # reading the invariants before them and dividing in float pay (a fused reduction's
        # scalar loop got slower; a kernel of hundreds of scalar arguments read before its loop
        # took gcc's unswitching 8+ minutes to compile: test_python_int_bounds)
        self.plain = (len(kernel.stages) == 1 and not kernel.stages[0].reduces
                      and _invariant_count(kernel) <= MAX_HOISTED)
        self.shared = shared
        self.lines: list[str] = []
        self.depth = 1
        self.rank = len(layout.extents)
        self.index_loop = dict(layout.index_dims)
        # (stage, position) of values later stages read from a row workspace, with their dtypes
        self.kept = {(e.stage, e.pos): e.dtype for st in kernel.stages for e in st.exprs
                     if isinstance(e, RowValue)}
        self.access_of: dict[tuple, int] = {}
        for n, stage in enumerate(kernel.stages):  # the order of kernel_accesses / layout.accesses
            for pos, e in enumerate(stage.exprs):
                if isinstance(e, Load):
                    self.access_of[n, "e", pos] = len(self.access_of)
            for q in range(len(stage.stores)):
                self.access_of[n, "s", q] = len(self.access_of)

    # --- emission helpers -------------------------------------------------------------------------
    def emit(self, line: str) -> None:
        self.lines.append("    " * self.depth + line)

    def open(self, header: list[str]) -> None:
        for h in header:
            self.emit(h)
        self.depth += 1

    def close(self) -> None:
        self.depth -= 1
        self.emit("}")

    def ctype(self, dtype) -> str:
        return c_type(dtype, self.dia.bool_type)

    # --- the function: comment, signature hook, frame hook ----------------------------------------
    def render(self) -> str:
        k = self.k
        # (no user lines: the same kernel built at another line, in another file or after an edit
        # above it is the same source, library and structural key; la.explain names the lines)
        head = [f"/* {source_name(k)}: {', '.join(k.fused) or source_name(k)} */"]
        self.emit_frame()
        return "\n".join(head + self.lines)

    def emit_frame(self) -> None:
        """The dialect's hook: signature, loops over the index space, and the stages in them."""
        raise NotImplementedError

    def slot_dtype(self, slot: int):
        for st in self.k.stages:
            for e in st.exprs:
                if isinstance(e, Load) and e.slot == slot:
                    return e.dtype
            for s in st.stores:
                if s.slot == slot:
                    return st.exprs[s.value].dtype
        raise AssertionError(slot)

    def storage_type(self, dtype) -> str:
        """The element type of a buffer pointer: the value type, but a bool array as the dialect's
        `bool_storage` (C: uint8_t)."""
        if np.dtype(dtype) == np.bool_:
            return self.dia.bool_storage
        return self.ctype(dtype)

    def pointer_decl(self, slot: int) -> str:
        """`const float *restrict b0` (read-only, unaliased) / `float *b1` (shares storage)."""
        t = self.storage_type(self.slot_dtype(slot))
        restrict = "" if slot in self.shared else f"{self.dia.restrict} "
        const = "" if slot in self.written else "const "
        return f"{const}{t} *{restrict}b{slot}"

    def read_size(self, name: str, pos: int) -> None:
        idx = self.dia.index_type
        cast = "" if idx == "int64_t" else f"({idx})"
        self.emit(f"const {idx} {name} = {cast}d[{pos}];")

    def emit_extents(self) -> None:
        for j in range(self.rank):
            self.read_size(f"n{j}", j)

    def emit_access_sizes(self) -> None:
        """Names for the strides and offsets the block carries (`KernelLayout.block` order), and
        each access's address expression in `self.addr`."""
        self.addr: list[str] = []
        self.fixed_addr: set[int] = set()  # accesses whose address no loop index moves
        pos = self.rank
        for a, (strides, offset, dynamic) in enumerate(self.lay.accesses):
            terms = []
            for j, stv in enumerate(strides):
                cls = stride_class(stv)
                if cls == "s":
                    self.read_size(f"s{a}_{j}", pos)
                    pos += 1
                    terms.append(f"i{j} * s{a}_{j}")
                elif cls == "1":
                    terms.append(f"i{j}")
            if offset:
                self.read_size(f"o{a}", pos)
                pos += 1
                terms.insert(0, f"o{a}")
            for q, (k, c) in enumerate(dynamic):  # a run-time slice start x its element stride,
                start = f"(int64_t){self.dia.scalar_arg(k, _INT64)}"  # in 64 bits: where it lands
                if stride_class(c) == "s":  # is known only at launch (CUDA may index in 32)
                    self.emit(f"const int64_t c{a}_{q} = d[{pos}];")
                    pos += 1
                    start = f"{start} * c{a}_{q}"
                self.emit(f"const int64_t do{a}_{q} = {start};")
                terms.insert(q, f"do{a}_{q}")
            self.addr.append(" + ".join(terms) or "0")
            if not any(t.startswith("i") for t in terms):
                self.fixed_addr.add(a)
        self.emit_invariants()

    def emit_invariants(self) -> None:
        """The values every iteration reads alike, read once before the loops: the scalar
        arguments, and loads at a fixed address of a buffer the kernel does not write (a 0-d
        operand, `x // y.max()`). Read in the loop body (from `s` or a buffer, through the
        parallel region's shared frame) gcc could not prove them invariant, so a division by one
        (`img // 9`: zero and -1 tests around a vector division) was not unswitched and stayed
        scalar. A load is guarded by the index space being non-empty (an empty broadcast operand
        has no element 0)."""
        scalars: dict = {}
        loads: dict = {}
        for n, st in enumerate(self.k.stages if self.plain else ()):
            for pos, e in enumerate(st.exprs):
                if isinstance(e, ScalarArg):
                    scalars.setdefault((e.index, np.dtype(e.dtype)), None)
                elif isinstance(e, Load) and self.invariant_load(n, pos, e):
                    loads.setdefault(self.access_of[n, "e", pos], e)
        for index, dtype in scalars:
            self.emit(f"const {self.ctype(dtype)} {self.scalar_name(index, dtype)} = "
                      f"{self.dia.scalar_arg(index, dtype)};")
        if loads:
            nonempty = " && ".join(f"n{j} > 0" for j in range(self.rank)) or "1"
            for a, e in loads.items():
                t = self.ctype(e.dtype)
                self.emit(f"const {t} lv{a} = {nonempty} ? b{e.slot}[{self.addr[a]}] : ({t})0;")

    def invariant_load(self, n: int, pos: int, e: Load) -> bool:
        """(Real numbers only: a complex struct has no `(T)0` for the empty space's branch.)"""
        return (self.plain and self.access_of[n, "e", pos] in self.fixed_addr
                and e.slot not in self.written
                and e.slot not in self.shared and np.dtype(e.dtype).kind in "biuf")

    @staticmethod
    def scalar_name(index: int, dtype: np.dtype) -> str:
        return f"sa{index}_{suffix(dtype)}"

    # --- stage bodies -----------------------------------------------------------------------------
    def emit_body(self, n: int, stage: Stage) -> list[str]:
        """Emit the stage's expressions and stores; return the C names of its values."""
        names: list[str] = []
        for pos, e in enumerate(stage.exprs):
            names.append(self.emit_expr(n, pos, e, names, stage))
        for q, st in enumerate(stage.stores):
            self.emit(f"b{st.slot}[{self.addr[self.access_of[n, 's', q]]}] = {names[st.value]};")
        return names

    def emit_expr(self, n: int, pos: int, e, names: list[str], stage: Stage) -> str:
        t = self.ctype(e.dtype)
        if isinstance(e, Load) and self.invariant_load(n, pos, e):
            name = value = f"lv{self.access_of[n, 'e', pos]}"  # read before the loops
        elif isinstance(e, Load):
            name, value = f"ld{pos}", f"b{e.slot}[{self.addr[self.access_of[n, 'e', pos]]}]"
        elif isinstance(e, ScalarArg) and self.plain:
            name = value = self.scalar_name(e.index, np.dtype(e.dtype))  # read before the loops
        elif isinstance(e, ScalarArg):
            name, value = f"arg{e.index}_{pos}", self.dia.scalar_arg(e.index, e.dtype)
        elif isinstance(e, Const):
            name, value = f"c{pos}", render_const(e.value, e.dtype, self.dia)
        elif isinstance(e, Index):
            name, value = f"idx{pos}", f"(int64_t)i{self.index_loop[e.dim]}"
        elif isinstance(e, AccRef):
            return f"acc{e.stage}_{e.k}"
        elif isinstance(e, RowValue):
            name, value = f"row{pos}", f"ws{e.stage}_{e.pos}[{self.row_position()}]"
        else:
            # op_position: `log2` (log's value at position 2) would shadow libm's log2 for the
            # rest of the kernel; no C library name has an underscore before a digit.
            name, value = f"{e.op.name}_{pos}", self.render_apply(e, names, stage)
        if name != value:
            self.emit(f"const {t} {name} = {value};")
        if (n, pos) in self.kept:
            self.emit(f"ws{n}_{pos}[{self.row_position()}] = {name};")
        return name

    def row_position(self) -> str:
        """Row-major position within the inner space: where a row workspace keeps a value."""
        raise NotImplementedError(f"{self.dia.name} has no row workspaces")

    def render_apply(self, e: Apply, names: list[str], stage: Stage) -> str:
        src_dt = np.dtype(stage.exprs[e.args[0]].dtype) if e.args else np.dtype(e.dtype)
        template = e.op.template(src_dt.kind, self.dia.name)
        if template is None:
            raise NotImplementedError(f"op {e.op.name} has no {self.dia.name} template for {src_dt}")
        value = template.format(*(names[i] for i in e.args), T=self.ctype(src_dt),
                                F=libm_suffix(src_dt), S=suffix(src_dt), D=suffix(e.dtype))
        if self.fixed_unsigned_divisor(e, stage, src_dt):
            # no branch: vectorized in any loop shape (prelude.py `_floordiv_fq_select`)
            value = value.replace("la_floordiv_", "la_fqsdiv_").replace("la_rem_", "la_fqsrem_")
        elif self.plain and src_dt.kind in "iu" and src_dt.itemsize <= 4:
            # integer division through the float quotient, which gcc vectorizes where the
            # divisor is fixed (prelude.py `_floordiv_fq`; slower in a scalar loop)
            value = value.replace("la_floordiv_", "la_fqdiv_").replace("la_rem_", "la_fqrem_")
        if _float_int_float(e, stage):
            # gcc folds (float)(int)x into trunc(x) under -fno-trapping-math, in the scalar tail
            # only: -0.3 -> -0.0 where NumPy (and the vector body) give +0.0. The select keeps
            # every value and makes the zero +0.0 (the loop then stays scalar: a rare pattern).
            value = f"({value} == 0 ? ({self.ctype(np.dtype(e.dtype))})0 : {value})"
        return value

    def fixed_unsigned_divisor(self, e: Apply, stage: Stage, src_dt: np.dtype) -> bool:
        """An unsigned division of at most 32 bits (C) whose divisor is the same over the loop (a
        scalar argument, a constant, a 0-d operand), in a plain kernel: in a reduction's scalar
        loops the float conversions cost more than the integer `div`."""
        if not (self.plain and self.dia.name == "c" and src_dt.kind == "u"
                and src_dt.itemsize <= 4 and len(e.args) == 2):
            return False
        divisor = stage.exprs[e.args[1]]
        return isinstance(divisor, (ScalarArg, Const)) or (
            isinstance(divisor, Load) and not any(divisor.strides))

    # --- reductions: what both dialects fold per element ------------------------------------------
    def reduce_spec(self, r: Reduce, stage: Stage) -> ReduceSpec:
        acc_dt = np.dtype(r.dtype)
        is_index = "index" in r.op.properties
        if is_index:
            acc_dt = np.dtype(stage.exprs[r.value].dtype)
        if ("accumulates" in r.op.properties and acc_dt == np.float32
                and not self.folds_in_dtype(r) and not self.sums_pairwise(stage)):
            acc_dt = np.dtype(np.float64)
        ident = render_const(r.op.reduce_identity(acc_dt), acc_dt, self.dia)
        template = r.op.template(acc_dt.kind, self.dia.name)
        return ReduceSpec(self.ctype(acc_dt), ident, template, is_index)

    def folds_in_dtype(self, r: Reduce) -> bool:
        """Whether `r` folds in its own dtype (C: `folds_in_dtype`; CUDA's tree folds: never)."""
        return False

    def sums_pairwise(self, stage: Stage) -> bool:
        """Whether `stage` is NumPy's pairwise sum, in its dtype (C: `emit_pairwise`; CUDA:
        never)."""
        return False

    def combine(self, spec: ReduceSpec, acc: str, value: str) -> str:
        """`acc = combine(acc, value)` as a statement (registry template)."""
        return spec.template.format(value, acc=acc, S=_suffix_of_ctype(spec.acc_t)) + ";"

    def better(self, spec: ReduceSpec, value: str, best: str) -> str:
        """Arg-reductions: the condition under which `value` replaces `best`."""
        return spec.template.format(value, best=best)

    def fold(self, n: int, stage: Stage, specs, targets, position: str) -> None:
        """Emit the stage's body for one element and fold it into each reduction's accumulator.
        `targets[r]`: (value lvalue, position lvalue or None); `position`: the flat inner index."""
        names = self.emit_body(n, stage)
        for r, spec, (acc, acc_i) in zip(stage.reduces, specs, targets):
            value = names[r.value]
            if spec.is_index:
                self.open([f"if ({self.better(spec, value, acc)}) {{"])
                self.emit(f"{acc} = {value};")
                self.emit(f"{acc_i} = {position};")
                self.close()
                continue
            if self.ctype(stage.exprs[r.value].dtype) != spec.acc_t:
                value = f"({spec.acc_t}){value}"
            self.emit(self.combine(spec, acc, value))


_STORE_LINE = re.compile(r"\s*b\d+\[.*\] = [^;]*;$")  # a kernel's store: `b3[i0] = add_4;`
_TRIG_TEMPLATE = re.compile(r"la_(" + "|".join(c_trig.NEAR_NAMES) + r")_\{S\}\(")  # a template of sin/cos/tan
_TRIG_CALL = re.compile(r"\bla_(" + "|".join(c_trig.NEAR_NAMES) + r")_f(32|64)\(")


class CKernelPrinter(KernelPrinter):
    """The C dialect's hooks: pointer-array signature, OpenMP outer loop, serial inner loops,
    reductions in lanes."""

    def __init__(self, *args) -> None:
        super().__init__(*args)
        # aliasing buffers: leave dependence analysis to the compiler, unless they alias in step
        self.simd = not self.shared or self.aliases_in_step()

    def folds_in_dtype(self, r: Reduce) -> bool:
        return folds_in_dtype(r, self.k)

    def sums_pairwise(self, stage: Stage) -> bool:
        return sums_in_trees(self.k, stage, self.lay)

    def aliases_in_step(self) -> bool:
        """Whether the buffers that share storage (an update in place, a donated input) are only
        ever read and written at the loop's own element: an elementwise kernel over one
        contiguous dim, each such access unit-stride from the start, one element size. Then
        element i is read before it is written, in one iteration, and the loop may run as a
        vector (`x += np.sin(x)` ran scalar: ~4x slower). Decided from the layout's pattern,
        as the source must be."""
        if len(self.lay.extents) != 1 or any(st.inner or st.reduces for st in self.k.stages):
            return False
        if len({np.dtype(self.slot_dtype(slot)).itemsize for slot in self.shared}) != 1:
            return False
        for access, (strides, offset, dynamic) in zip(kernel_accesses(self.k), self.lay.accesses):
            if access.slot in self.shared and (stride_class(strides[0]) != "1" or offset
                                               or dynamic):
                return False
        return True

    def open_chunks(self, var: str, extent: str) -> None:
        """Open the chunk loop of the outermost (independent) dim inside the kernel's parallel
        region: each thread claims chunks [var_lo, var_hi) from a shared counter until none is
        left. Chunks, not OpenMP's static halves: the region then never needs a given thread,
        and the thread team (runtime/c/team.py) takes back the share of a thread that did not
        start in time. One chunk per thread-count x 16 (whole 64-element blocks for a
        vectorized loop); with nt == 1 one chunk: the loop as it was. One close."""
        self.open([f"for (int64_t {var}_lo; ({var}_lo = __atomic_fetch_add(&la_next, la_step, "
                   f"__ATOMIC_RELAXED)) < {extent}; ) {{"])
        self.emit(f"const int64_t {var}_hi = {extent} - {var}_lo < la_step ? {extent} : "
                  f"{var}_lo + la_step;")

    def open_outer_loops(self, simd_outer: bool, count: int | None = None) -> int:
        """The loops over the kernel's outer (independent) dims, or the first `count` of them
        (the chunk loop always); returns how many to close. With a transposed access the last
        two run in tiles (`tiles_transposed_access`)."""
        n_out = self.lay.n_outer if count is None else count
        tiled = count is None and self.tiles_transposed_access()
        self.open_chunks("i0", "n0")
        self.chunk_body = len(self.lines)  # where the chunk's loops start (check_far_trig)
        plain = n_out - 2 if tiled else n_out
        for j in range(plain):
            lo, hi = ("i0_lo", "i0_hi") if j == 0 else ("0", f"n{j}")
            self.open(self.serial_loop(f"i{j}", hi, simd_outer and j == n_out - 1, start=lo))
        if tiled:
            self.open_tiles(n_out - 2, n_out - 1)
        return 1 + n_out + (2 if tiled else 0)

    def tiles_transposed_access(self) -> bool:
        """Whether an elementwise kernel reads (or writes) memory whose unit stride is the
        second-innermost loop dim while its innermost loop dim strides: `a.T + b`. Row by row
        such an access touches a new cache line per element and uses one element of it; in
        tiles the lines (and pages) of one tile stay near until every element of them is used:
        `a.T + b` on 4096 x 4096 float32, 150 -> 52-62 ms (TILE_OUTER). Only for pure
        elementwise kernels, whose elements are independent: the order changes no result bit.
        Decided from stride classes only, so the source still depends on the layout's pattern
        alone (the structural key)."""
        n_out = self.lay.n_outer
        if n_out < 2 or not self.simd or self.kept or any(
                st.inner or st.reduces for st in self.k.stages):
            return False
        a, b = n_out - 2, n_out - 1
        return any(stride_class(strides[b]) == "s" and stride_class(strides[a]) == "1"
                   for strides, *_ in self.lay.accesses)

    def open_tiles(self, a: int, b: int) -> None:
        """Loops over dims a (outer) and b (innermost, vectorized) in TILE_OUTER x TILE_INNER
        tiles; dim a keeps its chunk's bounds when it is the parallel dim. Four closes."""
        lo, hi = ("i0_lo", "i0_hi") if a == 0 else ("0", f"n{a}")
        for j, start, end, size in ((a, lo, hi, TILE_OUTER), (b, "0", f"n{b}", TILE_INNER)):
            self.open([f"for (int64_t t{j} = {start}; t{j} < {end}; t{j} += {size}) {{"])
            self.emit(f"const int64_t t{j}_hi = {end} - t{j} < {size} ? {end} : t{j} + {size};")
        self.open(self.serial_loop(f"i{a}", f"t{a}_hi", start=f"t{a}"))
        self.open(self.serial_loop(f"i{b}", f"t{b}_hi", simd=True, start=f"t{b}"))

    def open_region(self, extent: str, simd: bool) -> None:
        """The chunk size and counter the region's threads share, then the region (one close)."""
        chunk = f"({extent} + 16 * nt - 1) / (16 * nt)"
        if simd:
            chunk = f"({chunk} + 63) / 64 * 64"
        self.emit(f"const int64_t la_step = nt > 1 ? {chunk} : {extent};")
        self.emit("int64_t la_next = 0;")
        self.emit("int la_fpe = 0;  /* the region's threads' floating-point flags */")
        self.open(["#pragma omp parallel num_threads(nt) if (nt > 1)", "{"])

    def close_region(self) -> None:
        """Each thread has its own floating-point environment: the region's threads OR their
        exception flags (cleared for their next region) into the calling thread's, which the
        evaluation tests once (runtime/fp_status.py). ~10 ns a thread; nothing when none fired."""
        self.emit("la_fpe_gather(&la_fpe);")
        self.close()
        self.emit("if (la_fpe) feraiseexcept(la_fpe);")

    def serial_loop(self, var: str, extent: str, simd: bool = False, start: str = "0") -> list[str]:
        """`simd`: iterations are independent; vectorize it, vector math included (gcc cannot
        prove it alone when one buffer is read at several offsets, e.g. the LSTM's gates)."""
        head = ["#pragma omp simd"] if simd else []
        return head + [f"for (int64_t {var} = {start}; {var} < {extent}; {var}++) {{"]

    def emit_frame(self) -> None:
        self.lines.append(f"{self.dia.kernel_qualifier} @SYMBOL@(char *const *p, const int64_t *d, "
                          f"const char *s, int64_t nt)")
        self.lines.append("{")
        self.emit("(void)s;")
        self.emit("(void)nt;")
        self.emit_extents()
        for pos, slot in enumerate(self.slots):
            const = "" if slot in self.written else "const "
            t = self.storage_type(self.slot_dtype(slot))
            self.emit(f"{self.pointer_decl(slot)} = ({const}{t} *)p[{pos}];")
        self.emit_access_sizes()
        n_out = self.lay.n_outer
        simd_outer = self.simd and not any(st.inner or st.reduces for st in self.k.stages)
        if n_out:
            self.open_region("n0", simd_outer and n_out == 1)
        if self.kept:  # the region's threads each own their row workspaces
            row = " * ".join(f"(size_t)n{j}" for j in range(n_out, self.rank)) or "1"
            for (s, p), dt in self.kept.items():
                t = self.ctype(dt)
                self.emit(f"{t} *ws{s}_{p} = ({t} *)malloc(sizeof({t}) * {row} + 1);")  # ALLOCATES
            # No error channel in the calling convention: stop loudly rather than write via NULL.
            missing = " || ".join(f"ws{s}_{p} == NULL" for s, p in self.kept)
            self.open([f"if ({missing}) {{"])
            self.emit('fputs("lazyarray: out of memory for a row workspace\\n", stderr);')
            self.emit("abort();")
            self.close()
        if n_out == 1 and simd_outer and not self.kept and self.reruns_safely():
            self.open_chunks("i0", "n0")
            start = len(self.lines)
            self.open(self.serial_loop("i0", "i0_hi", True, start="i0_lo"))
            self.emit_stages()
            self.close()
            self.split_far_trig(start)
            closes = 1
        elif folds_columns(self.k, self.lay):
            closes = self.open_outer_loops(False, n_out - 1)
            self.emit_column_stages()
        elif n_out and not self.kept and not any(st.inner or st.reduces for st in self.k.stages):
            closes = self.open_outer_loops(simd_outer)
            start = self.chunk_body
            self.emit_stages()
            for _ in range(closes - 1):
                self.close()
            self.check_far_trig(start)
            closes = 1
        else:
            closes = self.open_outer_loops(simd_outer) if n_out else 0
            self.emit_stages()
        for _ in range(closes):  # the loops and the chunk loop
            self.close()
        for s, p in self.kept:
            self.emit(f"free(ws{s}_{p});")
        if n_out:
            self.close_region()
        self.lines.append("}")

    def row_position(self) -> str:
        return self.flat_inner()

    def reruns_safely(self) -> bool:
        """Whether running the loop over a chunk twice writes what running it once does: no
        buffer is both read and written (nor aliased), stages are elementwise (no folds)."""
        return (self.stores_rerun_safely()
                and not any(st.inner or st.reduces for st in self.k.stages))

    def stores_rerun_safely(self) -> bool:
        """Whether a loop that only stores (no fold) may run twice over the same elements: no
        buffer is both read and written, nor aliased."""
        loaded = {e.slot for st in self.k.stages for e in st.exprs if isinstance(e, Load)}
        return not self.shared and not (loaded & self.written)

    def split_far_trig(self, start: int) -> None:
        """The chunk's vector loop (lines from `start`) with sin/cos/tan's cheap Cody-Waite
        reduction (`la_sinnear_...`, c_trig.py) while every element is below c_trig.NEAR; a chunk
        with a larger finite element runs the loop again with the full functions, which select
        the same Cody-Waite result below NEAR and the exact reduction beyond: each value keeps
        one bit pattern, and only such chunks pay for the exact reduction. A macro sends the
        loop's calls to the near variants (the body text is the same in both loops)."""
        loop = self.lines[start:]
        found = sorted(set(_TRIG_CALL.findall("\n".join(loop))))
        if not found:
            return
        del self.lines[start:]
        pad = "    " * self.depth
        self.emit("int la_far = 0;")
        self.push_trig_macros(found, record=True)
        assert loop[0].strip() == "#pragma omp simd"
        self.lines.append(f"{pad}#pragma omp simd reduction(|:la_far)")
        self.lines.extend(loop[1:])
        self.pop_trig_macros(found)
        self.open(["if (la_far) {  /* an element beyond the cheap reduction: rerun, full */"])
        self.lines.extend("    " + ln for ln in loop)
        self.close()

    def check_far_trig(self, start: int) -> None:
        """split_far_trig for a chunk that may not run twice (it writes a buffer it reads: an
        update in place, a donated input): a first pass computes only what the chunk's
        sin/cos/tan take (its stores dropped, the rest dead code to the compiler) and notes a far
        element; the chunk then runs once, with the cheap reduction where none was found. A
        donated `x = np.sin(x) * 0.5 + x` paid the exact reduction per element: 40 ns each."""
        loop = self.lines[start:]
        found = sorted(set(_TRIG_CALL.findall("\n".join(loop))))
        if not found:
            return
        del self.lines[start:]
        self.emit("int la_far = 0;")
        self.push_trig_macros(found, record=True)
        for ln in loop:
            if _STORE_LINE.match(ln):
                continue
            self.lines.append(ln.replace("#pragma omp simd", "#pragma omp simd reduction(|:la_far)")
                              if ln.strip() == "#pragma omp simd" else ln)
        self.pop_trig_macros(found)
        self.open(["if (la_far) {  /* an element beyond the cheap reduction: the full functions */"])
        self.lines.extend("    " + ln for ln in loop)
        self.close()
        self.open(["else {"])
        self.push_trig_macros(found, record=False)
        self.lines.extend("    " + ln for ln in loop)
        self.pop_trig_macros(found)
        self.close()

    def push_trig_macros(self, found, record: bool) -> None:
        """Send the calls of `found` ((name, bits) pairs) to their near variants, noting a far
        argument in `la_far` where `record`."""
        for fn, bits in found:
            t = "float" if bits == "32" else "double"
            name = f"la_{fn}_f{bits}"
            note = f"la_far |= (int)la_trigfar_f{bits}(la_x_); " if record else ""
            self.lines.append(f'#pragma push_macro("{name}")')
            self.lines.append(f"#undef {name}")
            self.lines.append(f"#define {name}(x) __extension__ ({{ const {t} la_x_ = (x); "
                              f"{note}la_{fn}near_f{bits}(la_x_); }})")

    def pop_trig_macros(self, found) -> None:
        for fn, bits in found:
            self.lines.append(f'#pragma pop_macro("la_{fn}_f{bits}")')

    def emit_stages(self) -> None:
        for n, stage in enumerate(self.k.stages):
            if stage.reduces:
                self.emit_reduce_stage(n, stage)
                continue
            scoped = len(self.k.stages) > 1  # each stage's names live in their own block
            if scoped:
                self.open(["{"])
            if stage.inner and self.lay.n_outer < self.rank:
                self.emit_inner_loops(n, stage)
            else:
                self.emit_body(n, stage)
            if scoped:
                self.close()

    def emit_inner_loops(self, n: int, stage: Stage) -> None:
        inner = range(self.lay.n_outer, self.rank)
        for j in inner:
            self.open(self.serial_loop(f"i{j}", f"n{j}", self.simd and j == self.rank - 1))
        self.emit_body(n, stage)
        for _ in inner:
            self.close()

    # --- column reductions (`folds_columns`) ------------------------------------------------------
    def emit_column_stages(self) -> None:
        """The last kept dim in blocks of COLUMN_BLOCK (within the thread's chunk when it is the
        parallel dim): the block's accumulators, the reduced loops with the block's vector loop
        innermost folding one value into each, then the later stages per output. One close."""
        c, first = self.lay.n_outer - 1, self.k.stages[0]
        i, (lo, hi) = f"i{c}", (("i0_lo", "i0_hi") if c == 0 else ("0", f"n{c}"))
        block, at = COLUMN_BLOCK, f"i{c} - i{c}_b"
        accs = [f"acc0_{r}" for r in range(len(first.reduces))]
        specs = [self.reduce_spec(r, first) for r in first.reduces]
        self.open([f"for (int64_t {i}_b = {lo}; {i}_b < {hi}; {i}_b += {block}) {{"])
        self.emit(f"const int64_t {i}_e = {hi} - {i}_b < {block} ? {hi} : {i}_b + {block};")
        for acc, spec in zip(accs, specs):
            self.emit(f"{spec.acc_t} {acc}_c[{block}];")
        self.open(self.serial_loop(i, f"{i}_e", simd=self.simd, start=f"{i}_b"))
        for acc, spec in zip(accs, specs):
            self.emit(f"{acc}_c[{at}] = {spec.identity};")
        self.close()
        for j in range(c + 1, self.rank):
            self.open(self.serial_loop(f"i{j}", f"n{j}"))
        self.open(self.serial_loop(i, f"{i}_e", simd=self.simd, start=f"{i}_b"))
        self.fold(0, first, specs, [(f"{acc}_c[{at}]", None) for acc in accs], "0")
        for _ in range(c + 1, self.rank + 1):
            self.close()
        self.open(self.serial_loop(i, f"{i}_e", simd=self.simd, start=f"{i}_b"))
        for r, acc, spec in zip(first.reduces, accs, specs):
            out_t = self.ctype(r.dtype)
            struct = out_t == spec.acc_t and out_t.startswith("la_c")  # C casts no structs
            self.emit(f"const {out_t} {acc} = {'' if struct else f'({out_t})'}{acc}_c[{at}];")
        for n, stage in enumerate(self.k.stages[1:], 1):
            self.open(["{"])
            self.emit_body(n, stage)
            self.close()
        self.close()
        self.close()

    # --- reductions in lanes of partial results ---------------------------------------------------
    def emit_reduce_stage(self, n: int, stage: Stage) -> None:
        accs = [f"acc{n}_{r}" for r in range(len(stage.reduces))]
        specs = [self.reduce_spec(r, stage) for r in stage.reduces]
        lanes = lane_count(stage)
        for acc, spec in zip(accs, specs):
            self.emit(f"{spec.acc_t} {acc}_l[{lanes}];")
            if spec.is_index:
                self.emit(f"int64_t {acc}_i[{lanes}];")
            self.open([f"for (int l = 0; l < {lanes}; l++) {{"])
            self.emit(f"{acc}_l[l] = {spec.identity};")
            if spec.is_index:
                self.emit(f"{acc}_i[l] = 0;")
            self.close()
        self.open(["{"])
        if self.lay.n_outer == self.rank:  # an empty inner space: a single element
            self.fold(n, stage, specs, self.lane_targets(accs, "0"), "0")
        elif self.sums_pairwise(stage):
            self.emit_pairwise(n, stage, accs, specs)
        elif folds_sequentially(self.k, stage, self.rank, self.lay.n_outer):
            self.emit_sequential(n, stage, accs, specs)
            lanes = 1  # lane 0 holds it all: (1 + 0j) * z is not z where z has an inf part
        elif self.folds_kept_rows(n, stage):
            self.emit_inner_loops(n, stage)  # the row's values once, full vector width
            self.emit_lane_loops(n, stage, accs, specs, lanes, self.fold_kept)
        elif self.folds_in_blocks(stage):
            self.emit_block_loops(n, stage, accs, specs, lanes)
        else:
            self.emit_lane_loops(n, stage, accs, specs, lanes)
        self.close()
        self.emit_lane_combine(stage, accs, specs, lanes)

    @staticmethod
    def lane_targets(accs: list[str], lane: str) -> list[tuple[str, str]]:
        return [(f"{acc}_l[{lane}]", f"{acc}_i[{lane}]") for acc in accs]

    def folds_kept_rows(self, n: int, stage: Stage) -> bool:
        """Whether every reduction of this stage folds a value kept in a row workspace. Then the
        stage is two loops: one computes the row (stores, workspaces) as a plain `omp simd` loop,
        which gcc vectorizes at full width (16 float32 lanes here), and the lane loops fold the
        kept values back from the (L1-resident) workspace. Fused in the lane loops, the values
        were computed only `LANES` at a time (8: half a 64-byte vector): softmax 4096x1024 took
        3.75 ms on one thread against 2.6 ms split (docs/c_backend.md). The fold order, and so
        every bit, is the same."""
        return all((n, r.value) in self.kept for r in stage.reduces)

    def fold_kept(self, n: int, stage: Stage, specs, targets, position: str,
                  held=None) -> None:
        """`fold` of values a row workspace holds (or `held(pos)`): read them, compute nothing."""
        for r, spec, (acc, acc_i) in zip(stage.reduces, specs, targets):
            e = stage.exprs[r.value]
            name = f"kept{r.value}"
            where = held(r.value) if held else f"ws{n}_{r.value}[{self.row_position()}]"
            self.emit(f"const {self.ctype(e.dtype)} {name} = {where};")
            if spec.is_index:
                self.open([f"if ({self.better(spec, name, acc)}) {{"])
                self.emit(f"{acc} = {name};")
                self.emit(f"{acc_i} = {position};")
                self.close()
                continue
            value = name if self.ctype(e.dtype) == spec.acc_t else f"({spec.acc_t}){name}"
            self.emit(self.combine(spec, acc, value))

    def folds_in_blocks(self, stage: Stage) -> bool:
        """Whether the folded values call a function (exp, log, a helper) and the row is one
        dim: then `emit_block_loops`. In the lane loop such a value is computed `lanes` at a
        time (8 for sums: half a 64-byte vector); log_softmax 4096x1024, one thread: 3.5 ms ->
        2.35 ms in blocks (docs/c_backend.md)."""
        if not self.simd or self.rank - self.lay.n_outer != 1:
            return False
        return any(self.calls_function(stage, r.value) for r in stage.reduces)

    def calls_function(self, stage: Stage, pos: int, call: re.Pattern = _CALL) -> bool:
        """Whether the value at `pos` or one it is computed from renders a call `call` matches
        at the start of its op's template (any function by default)."""
        todo, seen = [pos], set()
        while todo:
            p = todo.pop()
            e = stage.exprs[p]
            if p in seen or not isinstance(e, Apply):
                continue
            seen.add(p)
            kind = np.dtype(stage.exprs[e.args[0]].dtype if e.args else e.dtype).kind
            if call.match(e.op.template(kind, self.dia.name) or ""):
                return True
            todo.extend(e.args)
        return False

    def emit_block_loops(self, n: int, stage: Stage, accs, specs, lanes: int) -> None:
        """The row in blocks of FOLD_BLOCK: one full-width `omp simd` loop computes a block's
        values (and the stage's stores) into a stack array, then the lane loops fold it. Every
        block but the last is a whole number of lane chunks, so the fold order and every bit are
        those of the plain lane loops."""
        j = self.rank - 1
        i, values = f"i{j}", dict.fromkeys(r.value for r in stage.reduces)
        for pos in values:
            self.emit(f"{self.ctype(stage.exprs[pos].dtype)} blk{pos}[{FOLD_BLOCK}];")
        self.open([f"for (int64_t {i}_b = 0; {i}_b < n{j}; {i}_b += {FOLD_BLOCK}) {{"])
        self.emit(f"const int64_t {i}_e = n{j} - {i}_b < {FOLD_BLOCK} ? n{j} : {i}_b + {FOLD_BLOCK};")
        start = len(self.lines)
        self.open(self.serial_loop(i, f"{i}_e", simd=self.simd, start=f"{i}_b"))
        names = self.emit_body(n, stage)
        for pos in values:
            self.emit(f"blk{pos}[{i} - {i}_b] = {names[pos]};")
        self.close()
        if self.stores_rerun_safely():  # the block loop folds nothing: it may run twice
            self.split_far_trig(start)

        def fold(n, stage, specs, targets, position):
            self.fold_kept(n, stage, specs, targets, position,
                           held=lambda pos: f"blk{pos}[{i} - {i}_b]")

        self.emit(f"int64_t {i}_c = {i}_b;")
        self.open([f"for (; {i}_c + {lanes} <= {i}_e; {i}_c += {lanes}) {{"])
        self.open(["#pragma omp simd", f"for (int l = 0; l < {lanes}; l++) {{"])
        self.emit(f"const int64_t {i} = {i}_c + l;")
        fold(n, stage, specs, self.lane_targets(accs, "l"), i)
        self.close()
        self.close()
        self.open(self.serial_loop(i, f"{i}_e", start=f"{i}_c"))
        fold(n, stage, specs, self.lane_targets(accs, "0"), i)
        self.close()
        self.close()

    def row_folder(self, n: int, stage: Stage, specs, first: int | None = None):
        """`fold_into(targets, position)`: the statements that fold the stage's values at flat
        row-major `position` of its inner dims into `targets` (one per reduction), the inner
        dims' indices split from it; the row's workspace emitted first where the stage keeps
        one. Declares `pw_total`, the row's length. For emit_pairwise and emit_sequential.
        `first`: the position splits into loop dims `first`.. only (a pairwise block's), the
        caller's loops give the others."""
        inner = list(range(self.lay.n_outer if first is None else first, self.rank))
        flat = len(inner) > 1  # several inner dims: a flat row-major position, split per value
        i = "pw_f" if flat else f"i{inner[0]}"
        kept = self.folds_kept_rows(n, stage)
        if kept:
            self.emit_inner_loops(n, stage)  # the row's values (and stores) once, in its workspace
        fold = self.fold_kept if kept else self.fold
        self.emit("const int64_t pw_total = " + " * ".join(f"n{j}" for j in inner) + ";")

        def fold_into(targets: list[str], expr: str) -> None:
            self.emit(f"const int64_t {i} = {expr};")
            rest = i
            for j in reversed(inner) if flat else ():
                self.emit(f"const int64_t i{j} = {rest} % n{j};" if j != inner[0]
                          else f"const int64_t i{j} = {rest};")
                rest = f"({rest} / n{j})"
            fold(n, stage, specs, [(t, None) for t in targets], self.flat_inner())

        def fold_lanes(targets: list[str], start: str, lanes: int) -> None:
            """`lanes` values from flat position `start` into `targets[l]`, vectorized. Several
            inner dims: the start's indices split once per chunk, each lane's by carries (one
            per dim, where the last dim holds `lanes` or more; else a division per value, as
            fold_into: a division per value was ~15 ns, a 100 x 100 sum 171 us)."""
            lane_loop = ["#pragma omp simd", f"for (int l = 0; l < {lanes}; l++) {{"]
            if not flat:
                self.open(lane_loop)
                fold_into([f"{t}[l]" for t in targets], f"{start} + l")
                self.close()
                return
            last = inner[-1]
            self.open([f"if (n{last} >= {lanes}) {{"])
            self.emit(f"const int64_t pw_s = {start};")
            rest = "pw_s"
            for j in reversed(inner):
                self.emit(f"const int64_t pw_c{j} = {rest} % n{j};" if j != inner[0]
                          else f"const int64_t pw_c{j} = {rest};")
                rest = f"({rest} / n{j})"
            self.open(lane_loop)
            self.emit(f"int64_t i{last} = pw_c{last} + l;")
            self.emit(f"int64_t pw_k{last} = i{last} >= n{last};")
            self.emit(f"i{last} = pw_k{last} ? i{last} - n{last} : i{last};")
            carry = f"pw_k{last}"
            for j in reversed(inner[:-1]):
                self.emit(f"int64_t i{j} = pw_c{j} + {carry};")
                if j != inner[0]:
                    self.emit(f"const int64_t pw_k{j} = i{j} >= n{j};")
                    self.emit(f"i{j} = pw_k{j} ? i{j} - n{j} : i{j};")
                    carry = f"pw_k{j}"
            fold(n, stage, specs, [(f"{t}[l]", None) for t in targets], self.flat_inner())
            self.close()
            self.close()
            self.open(["else {"])
            self.open(lane_loop)
            fold_into([f"{t}[l]" for t in targets], f"{start} + l")
            self.close()
            self.close()

        fold_into.lanes = fold_lanes  # type: ignore[attr-defined]
        return fold_into

    def holds_leaf_values(self, n: int, stage: Stage) -> list[int]:
        """The summed values' positions where a pairwise leaf computes them first (one vector
        loop into a stack block, `emit_leaf_values`) and folds them from there: when they call
        a function (exp, log, sin, ...) over one inner dim, so that it runs at full vector width
        (the 8-lane fold loop computes 8 at a time: half an AVX-512 vector of float32; a float32
        `sum(exp(x), axis=1)` 3.3 -> see docs/c_backend.md) and sin/cos/tan take the cheap
        Cody-Waite reduction (split_far_trig) instead of every lane paying the exact one (~20x:
        kepler's `max(abs(dE))`-style sums of trig). The fold order, and so every bit, is
        unchanged."""
        if (self.rank - self.lay.n_outer != 1 or not self.simd or not self.stores_rerun_safely()
                or self.folds_kept_rows(n, stage)):
            return []
        if not any(self.calls_function(stage, r.value) for r in stage.reduces):
            return []
        return list(dict.fromkeys(r.value for r in stage.reduces))

    def emit_leaf_values(self, n: int, stage: Stage, held: list[int]) -> None:
        """A pairwise leaf's values (and the stage's stores) into `pwv<pos>[k]`, k < pw_m."""
        i = f"i{self.rank - 1}"
        for pos in held:
            self.emit(f"{self.ctype(stage.exprs[pos].dtype)} pwv{pos}[{PAIRWISE_BLOCK}];")
        start = len(self.lines)
        self.open(["#pragma omp simd", "for (int64_t k = 0; k < pw_m; k++) {"])
        self.emit(f"const int64_t {i} = pw_a + k;")
        names = self.emit_body(n, stage)
        for pos in held:
            self.emit(f"pwv{pos}[k] = {names[pos]};")
        self.close()
        self.split_far_trig(start)

    def emit_sequential(self, n: int, stage: Stage, accs: list[str], specs) -> None:
        """Each reduction one value after another from its identity in row-major order, in its
        dtype (`folds_sequentially`): NumPy's `multiply.reduce`, and its `add` of a column
        reduction row after row: its bits. Lane 0 takes it, and emit_lane_combine folds no
        other lane in: a complex product times the identity 1 + 0j is NaN in both parts where
        one part is infinite (NumPy's `prod([2, inf + 1j])` is inf+nanj)."""
        fold_into = self.row_folder(n, stage, specs)
        for acc, spec in zip(accs, specs):
            self.emit(f"{spec.acc_t} pwq{acc} = {spec.identity};")
        self.open(["for (int64_t k = 0; k < pw_total; k++) {"])
        fold_into([f"pwq{acc}" for acc in accs], "k")
        self.close()
        for acc in accs:
            self.emit(f"{acc}_l[0] = pwq{acc};")

    def emit_pairwise(self, n: int, stage: Stage, accs: list[str], specs) -> None:
        """A sum in NumPy's pairwise order (its `pairwise_sum`), in the sum's dtype, over the
        inner dims in row-major order, so the sum is NumPy's to the bit. Real: under 8 values
        one after another from 0; up to 128 in 8 lanes (a lane starts at -0.0, which adds
        exactly), the lanes as ((0+1)+(2+3))+((4+5)+(6+7)), then the rest one by one; above,
        the halves split at a multiple of 8, summed apart and added, the recursion on a stack.
        Complex (NumPy counts its real and imaginary parts as 2n values): under 4 values one by
        one, up to 64 in 4 lanes combined as (0+1)+(2+3), halves split at (n - n % 8) / 2. Lane 0
        of the stage's accumulators takes the result; the others keep their identity, so
        emit_lane_combine adds +0.0 as NumPy's reduction adds its initial 0.0. A row of blocks
        (`pairwise_block`: reduced dims on both sides of a kept one) makes a tree per block, a
        buffered sum (`pairwise_buffers`) one per BUFSIZE values of a block, added in order."""
        block, buffered = pairwise_block(self.k, stage), pairwise_buffers(stage)
        lead = range(self.lay.n_outer, self.rank - self.lay.tree_dims) if block else range(0)
        # a block's positions split into its own loop dims; loops over the lead dims give the
        # others (a division per value over all of them made an NCHW mean 7x slower)
        fold_into = self.row_folder(n, stage, specs, self.rank - self.lay.tree_dims
                                    if block else None)
        cx = pairwise_is_complex(stage)
        held = [] if cx else self.holds_leaf_values(n, stage)
        lanes, leaf = (4, PAIRWISE_BLOCK // 2) if cx else (8, PAIRWISE_BLOCK)
        zero, minus_zero = ({spec.acc_t: self.pairwise_zero(spec, z) for spec in specs}
                            for z in (0.0, -0.0))

        def add(spec, a: str, b: str) -> str:
            return f"la_add_{_suffix_of_ctype(spec.acc_t)}({a}, {b})" if cx else f"({a} + {b})"

        trees = block is not None or buffered  # several trees, added in order
        if trees:
            for acc, spec in zip(accs, specs):
                self.emit(f"{spec.acc_t} pwb{acc} = {zero[spec.acc_t]};")
        for j in lead:  # block after block (pw_total: a block's values, layout.py tree_boundary)
            self.open(self.serial_loop(f"i{j}", f"n{j}"))
        self.open(["{"])
        self.emit("const int64_t pw_bo = 0, pw_be = pw_total;")
        if buffered:
            self.open([f"for (int64_t pw_o = pw_bo; pw_o < pw_be; pw_o += {BUFSIZE}) {{"])
            self.emit(f"const int64_t pw_len = pw_be - pw_o < {BUFSIZE} ? pw_be - pw_o "
                      f": {BUFSIZE};")
        else:
            self.open(["{"])
            self.emit("const int64_t pw_o = pw_bo, pw_len = pw_be - pw_bo;")

        def deliver(tree: str) -> None:
            for acc, spec in zip(accs, specs):
                self.emit(f"pwb{acc} = {add(spec, f'pwb{acc}', f'{tree}{acc}')};" if trees
                          else f"{acc}_l[0] = {tree}{acc};")

        self.open([f"if (pw_len < {lanes}) {{"])
        for acc, spec in zip(accs, specs):
            self.emit(f"{spec.acc_t} pws{acc} = {zero[spec.acc_t]};")
        self.open(["for (int64_t k = 0; k < pw_len; k++) {"])
        fold_into([f"pws{acc}" for acc in accs], "pw_o + k")
        self.close()
        deliver("pws")
        self.close()
        self.open(["else {"])
        self.emit("int64_t pw_lo[64], pw_n[64];")
        self.emit("int pw_ph[64], pw_sp = 1;")
        for acc, spec in zip(accs, specs):
            self.emit(f"{spec.acc_t} pwl{acc}[64], pwg{acc} = {zero[spec.acc_t]};")
        self.emit("pw_lo[0] = pw_o, pw_n[0] = pw_len, pw_ph[0] = 0;")
        self.open(["while (pw_sp > 0) {"])
        self.emit("const int pw_t = pw_sp - 1;")
        self.emit("const int64_t pw_a = pw_lo[pw_t], pw_m = pw_n[pw_t];")
        self.emit("const int64_t pw_h = " + ("(pw_m - pw_m % 8) / 2;" if cx
                                              else "pw_m / 2 - (pw_m / 2) % 8;"))
        self.open([f"if (pw_m <= {leaf}) {{"])
        self.emit_pairwise_leaf(n, stage, accs, specs, fold_into, held, add, lanes,
                                minus_zero)
        for acc in accs:
            self.emit(f"pwg{acc} = pwe{acc};")
        self.emit("pw_sp--;")
        self.close()
        self.open(["else if (pw_ph[pw_t] == 0) {"])
        self.emit("pw_ph[pw_t] = 1;")
        self.emit("pw_lo[pw_sp] = pw_a, pw_n[pw_sp] = pw_h, pw_ph[pw_sp] = 0, pw_sp++;")
        self.close()
        self.open(["else if (pw_ph[pw_t] == 1) {"])
        for acc in accs:
            self.emit(f"pwl{acc}[pw_t] = pwg{acc};")
        self.emit("pw_ph[pw_t] = 2;")
        self.emit("pw_lo[pw_sp] = pw_a + pw_h, pw_n[pw_sp] = pw_m - pw_h, pw_ph[pw_sp] = 0, "
                  "pw_sp++;")
        self.close()
        self.open(["else {"])
        for acc, spec in zip(accs, specs):
            self.emit(f"pwg{acc} = {add(spec, f'pwl{acc}[pw_t]', f'pwg{acc}')};")
        self.emit("pw_sp--;")
        self.close()
        self.close()
        deliver("pwg")
        self.close()
        self.close()
        self.close()
        for _ in lead:
            self.close()
        if trees:
            for acc in accs:
                self.emit(f"{acc}_l[0] = pwb{acc};")

    def emit_pairwise_leaf(self, n: int, stage: Stage, accs: list[str], specs, fold_into,
                           held: list[int], add, lanes: int, minus_zero: dict) -> None:
        """One leaf of emit_pairwise's tree, `pw_m` values from `pw_a` into `pwe<acc>`: lanes
        from -0.0, NumPy's neighbour-first combine, then the rest one by one; `held`: the
        values computed first at full width (`emit_leaf_values`)."""
        for acc, spec in zip(accs, specs):
            init = ", ".join([minus_zero[spec.acc_t]] * lanes)
            self.emit(f"{spec.acc_t} pwr{acc}[{lanes}] = {{{init}}};")
        if held:
            self.emit_leaf_values(n, stage, held)
        self.emit("int64_t k = 0;")
        self.open([f"for (; k + {lanes} <= pw_m; k += {lanes}) {{"])
        if held:
            self.open(["#pragma omp simd", f"for (int l = 0; l < {lanes}; l++) {{"])
            self.fold_kept(n, stage, specs, [(f"pwr{acc}[l]", None) for acc in accs], "0",
                           held=lambda pos: f"pwv{pos}[k + l]")
            self.close()
        else:
            fold_into.lanes([f"pwr{acc}" for acc in accs], "pw_a + k", lanes)
        self.close()
        for acc, spec in zip(accs, specs):
            r = [f"pwr{acc}[{l}]" for l in range(lanes)]
            while len(r) > 1:  # ((0+1)+(2+3))+((4+5)+(6+7)): neighbours first
                r = [add(spec, r[i], r[i + 1]) for i in range(0, len(r), 2)]
            self.emit(f"{spec.acc_t} pwe{acc} = {r[0]};")
        self.open(["for (; k < pw_m; k++) {"])
        if held:
            self.fold_kept(n, stage, specs, [(f"pwe{acc}", None) for acc in accs], "0",
                           held=lambda pos: f"pwv{pos}[k]")
        else:
            fold_into([f"pwe{acc}" for acc in accs], "pw_a + k")
        self.close()

    def pairwise_zero(self, spec, value: float) -> str:
        """A pairwise accumulator's start, 0.0 or -0.0, in its C type (complex: both parts)."""
        if spec.acc_t.startswith("la_c"):
            return render_complex_const(complex(value, value), spec.acc_t[3:])
        literal = "-0.0" if str(value).startswith("-") else "0.0"
        return literal + "f" if spec.acc_t == "float" else literal

    def emit_lane_loops(self, n: int, stage: Stage, accs, specs, lanes: int, fold=None) -> None:
        """Innermost reduced dim in `lanes`-wide chunks (vectorizable), then the remainder in lane
        0."""
        fold = fold or self.fold
        last = self.rank - 1
        for j in range(self.lay.n_outer, last):
            self.open(self.serial_loop(f"i{j}", f"n{j}"))
        self.emit(f"int64_t i{last}_c = 0;")
        self.open([f"for (; i{last}_c + {lanes} <= n{last}; i{last}_c += {lanes}) {{"])
        self.open(["#pragma omp simd", f"for (int l = 0; l < {lanes}; l++) {{"])
        self.emit(f"const int64_t i{last} = i{last}_c + l;")
        fold(n, stage, specs, self.lane_targets(accs, "l"), self.flat_inner())
        self.close()
        self.close()
        self.open(self.serial_loop(f"i{last}", f"n{last}", start=f"i{last}_c"))
        fold(n, stage, specs, self.lane_targets(accs, "0"), self.flat_inner())
        self.close()
        for _ in range(self.lay.n_outer, last):
            self.close()

    def flat_inner(self) -> str:
        """Row-major position within the inner space (argmax/argmin's result)."""
        expr = ""
        for j in range(self.lay.n_outer, self.rank):
            expr = f"i{j}" if not expr else f"({expr}) * n{j} + i{j}"
        return expr or "0"

    def emit_lane_combine(self, stage: Stage, accs, specs, lanes: int) -> None:
        """Fold the lanes in a fixed order, then convert to the reduction's result dtype."""
        for r, acc, spec in zip(stage.reduces, accs, specs):
            out_t, acc_t = self.ctype(r.dtype), spec.acc_t
            if spec.is_index:
                self.emit(f"{acc_t} {acc}_b = {acc}_l[0];")
                self.emit(f"int64_t {acc}_x = {acc}_i[0];")
                self.open([f"for (int l = 1; l < {lanes}; l++) {{"])
                v, b = f"{acc}_l[l]", f"{acc}_b"
                same = f"({v} == {b} || ({v} != {v} && {b} != {b}))"
                earlier = f"({same} && {acc}_i[l] < {acc}_x)"
                self.open([f"if ({self.better(spec, v, b)} || {earlier}) {{"])
                self.emit(f"{acc}_b = {v};")
                self.emit(f"{acc}_x = {acc}_i[l];")
                self.close()
                self.close()
                self.emit(f"const {out_t} {acc} = ({out_t}){acc}_x;")
                continue
            self.emit(f"{acc_t} {acc}_t = {acc}_l[0];")
            self.open([f"for (int l = 1; l < {lanes}; l++) {{"])
            self.emit(self.combine(spec, f"{acc}_t", f"{acc}_l[l]"))
            self.close()
            struct = out_t == acc_t and out_t.startswith("la_c")  # complex: C casts no structs
            cast = "" if struct else f"({out_t})"
            self.emit(f"const {out_t} {acc} = {cast}{acc}_t;")


# The C library headers of every unit. Parsing them is most of a small unit's fixed cost: <stdio.h>
# and <stdlib.h> alone took ~6 ms of a ~120 ms compile here (~13 s of compiler CPU over the fast
# tier's ~2,100 units), so they come only with the one code that needs them, a kernel's row
# workspace (malloc, free, and fputs/stderr/abort when it fails: `emit_frame`).
C_HEADERS = "#include <stdint.h>\n#include <string.h>\n#include <math.h>\n#include <fenv.h>"
ALLOC_HEADERS = "\n#include <stdio.h>\n#include <stdlib.h>"
ALLOCATES = "malloc("


class Dialect:
    """What a C-family dialect changes: names, qualifiers and types, the printer subclass with its
    structural hooks, how scalar arguments are read, and the prelude of a translation unit."""

    name = "c"  # key of the registry's templates ("cuda" picks an op's `cuda` override)
    kernel_qualifier = "void"
    helper_qualifier = "static inline"
    restrict = "restrict"
    bool_type = "_Bool"
    # bool arrays are read and written through uint8_t (the same 0/1 bytes): gcc 12 vectorizes
    # no loop that loads or stores `_Bool` beside doubles or complex values (`abs(z) < 2`, a
    # compare masked by a bool array: "no vectype", a scalar loop 3.5x slower)
    bool_storage = "uint8_t"
    index_type = "int64_t"
    printer: type[KernelPrinter] = CKernelPrinter

    def scalar_arg(self, index: int, dtype) -> str:
        """Scalars arrive in the 8-byte slots of `s`, read without aliasing UB."""
        return f"la_arg_{suffix(dtype)}(s + {8 * index})"

    def prelude(self, code: str) -> list[str]:
        headers = C_HEADERS + (ALLOC_HEADERS if ALLOCATES in code else "")
        parts = [headers, FPE_VALUES, FPE_GATHER]
        helpers = render_helpers(code, self.helper_qualifier, self.bool_type)
        out_of_line = c_inline_budget.wrappers(code)  # bounds compile time (issue 11)
        return parts + [h for h in (helpers, out_of_line) if h]


# A thread's exception flags into the region's word (tested ones only: inexact fires always).
FPE_GATHER = """static inline void la_fpe_gather(int *acc)
{
    int f = fetestexcept(FE_DIVBYZERO | FE_OVERFLOW | FE_UNDERFLOW | FE_INVALID);
    if (f) {
        __atomic_fetch_or(acc, f, __ATOMIC_RELAXED);
        feclearexcept(f);
    }
}"""

C_DIALECT = Dialect()


def render_kernel(kernel: Kernel, layout: KernelLayout, dialect: Dialect = C_DIALECT,
                  shared: frozenset[int] = frozenset()) -> tuple[str, str]:
    """(symbol, source of the function). `shared`: slots that may alias a written slot (no
    `restrict`)."""
    body = dialect.printer(kernel, layout, dialect, shared).render()
    symbol = kernel_symbol(kernel, body)
    return symbol, body.replace("@SYMBOL@", symbol)


def _suffix_of_ctype(t: str) -> str:
    table = {"float": "float32", "double": "float64", "_Bool": "bool", "bool": "bool",
             "la_c64": "complex64", "la_c128": "complex128"}
    return suffix(np.dtype(table.get(t, t.replace("_t", ""))))


def render_const(value, dtype, dialect: Dialect) -> str:
    dt = np.dtype(dtype)
    t = c_type(dt, dialect.bool_type)
    if dt.kind == "b":
        return "1" if bool(value) else "0"
    if dt.kind == "c":
        return render_complex_const(value, suffix(dt))
    if dt.kind == "f":
        v = float(value)
        if np.isnan(v):
            return f"({t})NAN"
        if np.isinf(v):
            return f"({t})({'-' if v < 0 else ''}INFINITY)"
        return f"{v!r}{'f' if dt == np.float32 else ''}"
    v = int(value)
    if dt == np.int64 and v == np.iinfo(np.int64).min:
        return "INT64_MIN"
    return f"({t}){v}{'ULL' if dt.kind == 'u' else 'LL'}"


# No libmvec (`__simd__` declarations of libm): its vector `expf` and the scalar `expf` of a loop's
# tail differ in the last bit, and the planner recomputes values in several loops (issue 9). exp,
# expm1, tanh, log, log1p, sin and cos are the project's own vectorizable functions (c_math.py,
# c_trig.py); every other libm function is called as the scalar function in every loop shape, so all
# copies of a value agree.


def render_translation_unit(functions: list[str], dialect: Dialect = C_DIALECT) -> str:
    """One source file: the dialect's prelude (with only the helpers used), then the kernels."""
    code = "\n\n".join(functions)
    parts = ["/* generated by lazyarray */", *dialect.prelude(code), code]
    return "\n\n".join(parts) + "\n"


def _float_int_float(e: Apply, stage: Stage) -> bool:
    """`e` casts to a float an integer that a cast made from a float (`x.astype(int).astype(float)`)."""
    if "conversion" not in e.op.properties or np.dtype(e.dtype).kind != "f" or not e.args:
        return False
    arg = stage.exprs[e.args[0]]
    return (isinstance(arg, Apply) and "conversion" in arg.op.properties and bool(arg.args)
            and np.dtype(arg.dtype).kind in "iu"
            and np.dtype(stage.exprs[arg.args[0]].dtype).kind == "f")
