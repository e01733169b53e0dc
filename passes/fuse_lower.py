"""Lowering one kernel: the roots a kernel stores, expanded into kernel-IR stages.

The planner (fuse.py) decides which nodes own buffers and which roots share a kernel; this module
writes the kernel. Starting from each root with its index map, it walks producers (iteratively: a
10,000-op chain must not recurse), turning

    input / buffer-backed node  -> Load with the map's strides (views are already in the map)
    scalar leaf                 -> ScalarArg
    elementwise op              -> Apply over its operands, at the same map
    view                        -> nothing: the map changes on the way down (index_map.py); a
                                   slice's run-time starts become the map's dynamic part, read
                                   by the Load as scalar argument x element stride
    reduction                   -> a reduce stage of its own over the inner loop, read as AccRef
    source (flat_index)         -> the element's row-major position: offset + sum(Index * coeff)

A value is computed once per (stage, map): shared sub-expressions stay shared. When the kernel
cannot express something it raises `NeedsBuffer` (the planner gives that node a buffer and retries)
or `NeedsOwnKernel` (the root must leave this kernel).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace

import numpy as np

from ..graph import Node, OpKind, get_op
from .numpy_layout import memory_order
from .row_reuse import keep_rows
from ..graph.kernel_ir import (AccRef, Apply, Const, Index, Kernel, Load, Reduce, ScalarArg, Stage,
                               Store)
from ..graph.node import format_site
from ..graph.ops_columns import PROD_COLUMNS
from . import index_map as im

_BROADCAST, _RESHAPE, _PERMUTE, _SLICE = (
    get_op(n) for n in ("broadcast_to", "reshape", "permute", "slice"))
_SCALAR = get_op("scalar")
_PROD = get_op("prod")
_ADD, _MUL, _CAST = (get_op(n) for n in ("add", "multiply", "cast"))
_INT64 = np.dtype(np.int64)  # run-time slice starts

# Recomputing one node at more index maps than this inside one kernel means a chain of shifted
# views is re-expanding it (x[1:] + x[:-1], repeated): give it a buffer instead.
MAX_MAPS_PER_NODE = 16


class NeedsBuffer(Exception):
    def __init__(self, node: Node, reason: str, also: tuple | list = ()) -> None:
        super().__init__(reason)
        self.node, self.reason, self.also = node, reason, tuple(also)


class NeedsOwnKernel(Exception):
    def __init__(self, root: Node, reason: str) -> None:
        super().__init__(reason)
        self.root, self.reason = root, reason


@dataclass(frozen=True)
class Space:
    """A kernel's loop: sizes (outer then inner) and, for reduction kernels, the reduced input's
    shape `full` with `positions[d]` = the loop dim of its dim d."""

    sizes: tuple[int, ...]
    n_outer: int
    full: tuple[int, ...] | None = None  # None: an elementwise kernel
    positions: tuple[int, ...] = ()


def reduction_space(r: Node) -> Space:
    src = r.inputs[0].shape
    kept = [d for d in range(len(src)) if d not in r.attrs[0]]
    leading, trailing = _reduced_in_numpys_order(r)
    order = kept + leading + trailing
    positions = [0] * len(src)
    for k, d in enumerate(order):
        positions[d] = k
    return Space(tuple(src[d] for d in order), len(kept), src, tuple(positions))


def sequential_dims(r: Node) -> int:
    """How many of reduction r's inner dims NumPy folds one after another (`Reduce`): its
    reduced dims before the operand's last kept dim of length above 1, in NumPy's memory order
    of the operand (passes/numpy_layout.py; C order for most values). `x.sum(axis=0)` of
    (n, k): 1 (row after row); of (n, 1): 0 (NumPy drops the length-1 dim and sums pairwise);
    `axis=(0, 2)` of (n, k, 1): 2, every inner dim (the reduced length-1 dim changes nothing);
    `x.T.sum(axis=0)`: 0 (memory runs along the reduced axis: pairwise)."""
    leading, trailing = _reduced_in_numpys_order(r)
    shape = r.inputs[0].shape
    if all(shape[d] == 1 for d in trailing):  # length-1 dims change no order
        return len(leading) + len(trailing)
    return len(leading)


def _runs_numpys_binary_loop(r: Node) -> bool:
    """Whether NumPy folds complex reduction r with its binary loop (a kept dim innermost in
    memory: whole rows at a time) rather than its reduce loop (graph/ops_columns.py)."""
    if r.dtype.kind != "c":
        return False
    leading, trailing = _reduced_in_numpys_order(r)
    shape = r.inputs[0].shape
    kept = [d for d in range(len(shape)) if d not in r.attrs[0] and shape[d] != 1]
    return bool(kept) and bool(leading) and all(shape[d] == 1 for d in trailing)


def _reduced_in_numpys_order(r: Node) -> tuple[list[int], list[int]]:
    """Reduction r's axes as NumPy iterates its operand: those before the last kept axis of
    length above 1 in memory order (added block after block), then those after it (one
    pairwise tree), each in memory order. A C-ordered operand: the axes in order."""
    operand, axes = r.inputs[0], r.attrs[0]
    shape = operand.shape
    order = memory_order(operand) if operand.ndim > 1 else tuple(range(operand.ndim))
    place = {d: k for k, d in enumerate(order)}
    last_kept = max((place[d] for d in range(len(shape)) if d not in axes and shape[d] != 1),
                    default=-1)
    reduced = sorted(axes, key=place.__getitem__)
    return ([d for d in reduced if place[d] < last_kept],
            [d for d in reduced if place[d] > last_kept])


def reduced_positions(r: Node) -> tuple[int | None, ...]:
    """For each dim of reduction r's output: the outer loop dim it is (None for keepdims 1s)."""
    axes, keepdims = r.attrs
    out: list[int | None] = []
    k = 0
    for d in range(len(r.inputs[0].shape)):
        if d in axes:
            if keepdims:
                out.append(None)
        else:
            out.append(k)
            k += 1
    return tuple(out)


def root_placement(shape: tuple[int, ...], sp: Space) -> tuple[tuple, bool] | None:
    """Where a root of `shape` sits in loop space `sp`: (loop dim per root dim, stored by an inner
    stage?), or None when it fits neither the full reduced shape nor the outer space."""
    if sp.full is None:
        return ((tuple(range(len(shape))), False) if shape == sp.sizes else None)
    if shape == sp.full:
        return sp.positions, True
    outer = sp.sizes[:sp.n_outer]
    if tuple(s for s in shape if s != 1) != tuple(s for s in outer if s != 1):
        return None
    k, positions = 0, []
    for s in shape:
        while s != 1 and outer[k] == 1:
            k += 1
        positions.append(k if s != 1 else None)
        k += s != 1
    return tuple(positions), False


@dataclass
class _StageBuilder:
    inner: bool
    exprs: list = field(default_factory=list)
    memo: dict = field(default_factory=dict)
    reduces: list = field(default_factory=list)
    stores: list = field(default_factory=list)
    deps: set = field(default_factory=set)  # earlier stages whose accumulators it reads


@dataclass
class LoweredKernel:
    kernel: Kernel
    nodes: list[Node]  # computed nodes it evaluates, in first-lowered order


class KernelBuilder:
    """Lowers roots into one kernel over `space`. `slots[id(node)]` is the buffer slot of a node
    read from memory (absent: compute it here); `scalar_index(node)` its run-time argument index."""

    def __init__(self, space: Space, slots: dict[int, int],
                 scalar_index: Callable[[Node], int], members: set[int]) -> None:
        self.space = space
        self.slots = slots
        self.scalar_index = scalar_index
        self.members = members  # roots stored by this kernel: computed inline, never loaded
        self.stages: list[_StageBuilder] = []
        self.reduce_stage: dict[int, int] = {}
        self.store_stage: dict[bool, int] = {}
        self.dropped: set[int] = set()  # inner store stages merged into a reduce stage
        self.nodes: dict[int, Node] = {}
        self.maps_seen: dict[int, set] = {}
        self.roots: list[Node] = []

    # --- roots -----------------------------------------------------------------------------------
    def store_root(self, root: Node, slot: int) -> None:
        self.roots.append(root)
        m, inner = self._root_map(root)
        st = self._store_stage(inner)
        value = self.lower(root, m, st)
        strides, offset = im.flat_address(m, root.shape, len(self.space.sizes))
        self.stages[st].stores.append(Store(slot, strides, offset, value))

    def _root_map(self, root: Node) -> tuple[im.IndexMap, bool]:
        placement = root_placement(root.shape, self.space)
        if placement is None:
            raise NeedsOwnKernel(root, "different index space")
        return im.placed(placement[0], self.space.sizes), placement[1]

    def _store_stage(self, inner: bool) -> int:
        if inner not in self.store_stage:
            self.store_stage[inner] = len(self.stages)
            self.stages.append(_StageBuilder(inner))
        return self.store_stage[inner]

    # --- the walk --------------------------------------------------------------------------------
    def lower(self, node: Node, m: im.IndexMap, st: int) -> int:
        """Position of `node` at map `m` in stage `st`, lowering its producers first. A stack
        entry keeps its operands from its first visit: when the walk comes back to it, every
        operand is lowered (they were above it on the stack), so it is emitted at once."""
        stages = self.stages
        stack: list = [(node, m, st, None)]
        while stack:
            n, mm, s, ops = stack[-1]
            if ops is None:
                if (id(n), mm) in stages[s].memo:
                    stack.pop()
                    continue
                ops = self._operands(n, mm, s)
                pending = [(c, cm, cs, None) for c, cm, cs in ops
                           if (id(c), cm) not in stages[cs].memo]
                if pending:
                    stack[-1] = (n, mm, s, ops)
                    stack.extend(pending)
                    continue
            stack.pop()
            stages[s].memo[(id(n), mm)] = self._emit(n, mm, s, ops)
        return stages[st].memo[(id(node), m)]

    def _slot(self, n: Node) -> int | None:
        """The buffer slot `n` is loaded from, or None when this kernel computes it."""
        return None if id(n) in self.members else self.slots.get(id(n))

    def _operands(self, n: Node, m: im.IndexMap, s: int) -> list[tuple[Node, im.IndexMap, int]]:
        """What `n` at (m, s) needs first; empty for loads, scalars and accumulators."""
        if not n.inputs or self._slot(n) is not None:
            return []
        kind = n.op.kind
        if kind is OpKind.ELEMENTWISE or kind is OpKind.SOURCE:
            return [(i, m, s) for i in n.inputs]
        if kind is OpKind.VIEW:
            src = n.inputs[0]
            if n.op is _RESHAPE and self._slot(src) is not None:
                return []
            return [(src, self._view_map(n, m), s)]
        if kind is OpKind.REDUCTION:
            return self._reduction_operands(n, m, s)
        raise NeedsBuffer(n, f"{n.op.name} is a library call: its result must be materialized")

    def _view_map(self, n: Node, m: im.IndexMap) -> im.IndexMap:
        src = n.inputs[0]
        if n.op is _BROADCAST:
            return im.through_broadcast(m, src.shape, n.shape)
        if n.op is _PERMUTE:
            return im.through_permute(m, n.attrs[0])
        if n.op is _SLICE:
            if len(n.inputs) == 1:
                return im.through_slice(m, n.attrs[0])
            given = iter(n.inputs[1:])
            starts = tuple(self.scalar_index(next(given)) if start is None else None
                           for start, _, _ in n.attrs[0])
            return im.through_slice(m, n.attrs[0], starts)
        out = im.through_reshape(m, n.shape, src.shape, self.space.sizes)
        if out is None:
            raise NeedsBuffer(src, "reshape is not expressible as strides of its input "
                              f"(non-contiguous merge) at {format_site(n.site)}")
        return out

    def _reduction_operands(self, r: Node, m: im.IndexMap, s: int) -> list:
        self._check_accumulator_map(r, m)
        if id(r) in self.reduce_stage:
            return []
        sp = reduction_space(r)
        if sp.sizes != self.space.sizes or sp.n_outer != self.space.n_outer:
            self._cannot(r, f"different index space: {r.op.name} over {sp.sizes} in a kernel over "
                            f"{self.space.sizes}")
        k = self.reduce_stage[id(r)] = len(self.stages)
        self.stages.append(_StageBuilder(True))
        return [(r.inputs[0], im.placed(sp.positions, sp.sizes), k)]

    def _check_accumulator_map(self, r: Node, m: im.IndexMap) -> None:
        sizes = self.space.sizes
        for d, p in enumerate(reduced_positions(r)):
            if r.shape[d] != 1 and (m.offs[d] != 0 or m.rows[d] != im.unit(p, sizes)
                                    or (m.dyn and m.dyn[d])):
                self._cannot(r, f"different index space: {r.op.name} result read at another "
                                f"index map at {format_site(r.site)}")

    def _cannot(self, r: Node, reason: str) -> None:
        if id(r) in self.members:
            raise NeedsOwnKernel(r, reason)
        raise NeedsBuffer(r, reason)

    # --- emitting expressions --------------------------------------------------------------------
    def _emit(self, n: Node, m: im.IndexMap, s: int, ops: list) -> int:
        """`n`'s expression at (m, s); `ops` are its operands as `_operands` gave them."""
        stage = self.stages[s]
        slot = self._slot(n)
        if slot is not None:
            strides, offset = im.flat_address(m, n.shape, len(self.space.sizes))
            return self._push(stage, Load(slot, strides, offset, n.dtype,
                                          im.flat_dynamic(m, n.shape)))
        if n.op is _SCALAR:
            return self._push(stage, ScalarArg(self.scalar_index(n), n.dtype))
        self._note_node(n, m)
        kind = n.op.kind
        if kind is OpKind.ELEMENTWISE:
            memo = stage.memo
            args = tuple([memo[(id(i), m)] for i in n.inputs])
            return self._push(stage, Apply(n.op, args, n.dtype))
        if kind is OpKind.VIEW:
            src = n.inputs[0]
            if not ops:  # a reshape of a loaded buffer: a load at the reshape's flat address
                coeffs, offset = im.flat_address(m, n.shape, len(self.space.sizes))
                return self._push(stage, Load(self._slot(src), coeffs, offset, n.dtype,
                                              im.flat_dynamic(m, n.shape)))
            return stage.memo[(id(src), ops[0][1])]
        if kind is OpKind.REDUCTION:
            return self._emit_accumulator(n, s)
        if kind is OpKind.SOURCE:
            return self._emit_position(n, m, stage)
        raise NotImplementedError(f"the fusion planner cannot lower {n.op.kind.value} op "
                                  f"{n.op.name}")

    def _emit_position(self, n: Node, m: im.IndexMap, stage: _StageBuilder) -> int:
        """A SOURCE node's value: its element's row-major position, from the loop indices. Node
        dim d's index (offs[d] + rows[d] . loop, structural) is scaled by the node's run-time
        stride inputs, so the code does not depend on the sizes."""
        push, dt = self._push, n.dtype
        strides = [stage.memo[(id(i), m)] for i in n.inputs] + [None]  # the last dim's is 1

        def const(v: int) -> int:
            return push(stage, Const(v % (1 << 64) if dt.kind == "u" else v, dt))

        pos = None
        for d, (row, off) in enumerate(zip(m.rows, m.offs)):
            e = const(off) if off else None
            for k, c in m.dyn[d] if m.dyn else ():  # a run-time slice start: argument k
                term = push(stage, Apply(_CAST, (push(stage, ScalarArg(k, _INT64)),), dt))
                if c != 1:
                    term = push(stage, Apply(_MUL, (term, const(c)), dt))
                e = term if e is None else push(stage, Apply(_ADD, (e, term), dt))
            for k, c in enumerate(row):
                if c:
                    term = push(stage, Apply(_CAST, (push(stage, Index(k)),), dt))
                    if c != 1:
                        term = push(stage, Apply(_MUL, (term, const(c)), dt))
                    e = term if e is None else push(stage, Apply(_ADD, (e, term), dt))
            if e is None:
                continue
            if strides[d] is not None:
                e = push(stage, Apply(_MUL, (e, strides[d]), dt))
            pos = e if pos is None else push(stage, Apply(_ADD, (pos, e), dt))
        return pos if pos is not None else const(0)

    def _emit_accumulator(self, r: Node, s: int) -> int:
        k = self.reduce_stage[id(r)]
        red = self.stages[k]
        if not red.reduces:
            value = red.memo[(id(r.inputs[0]), im.placed(reduction_space(r).positions,
                                                         self.space.sizes))]
            op = PROD_COLUMNS if r.op is _PROD and _runs_numpys_binary_loop(r) else r.op
            red.reduces.append(Reduce(op, value, r.dtype, sequential_dims(r)))
        self.stages[s].deps.add(k)
        return self._push(self.stages[s], AccRef(k, 0, r.dtype))

    def _note_node(self, n: Node, m: im.IndexMap) -> None:
        self.nodes.setdefault(id(n), n)
        if n.op.kind is OpKind.VIEW:
            return  # free: index arithmetic; its source is what gets recomputed
        seen = self.maps_seen.get(id(n))
        if seen is None:  # the usual case: one map per node
            self.maps_seen[id(n)] = {m}
            return
        seen.add(m)
        if len(seen) > MAX_MAPS_PER_NODE and id(n) not in self.members:
            raise NeedsBuffer(n, f"recomputed at more than {MAX_MAPS_PER_NODE} index maps in one "
                              "kernel")

    @staticmethod
    def _push(stage: _StageBuilder, expr) -> int:
        stage.exprs.append(expr)
        return len(stage.exprs) - 1

    # --- assembly --------------------------------------------------------------------------------
    def finish(self, name: str) -> LoweredKernel:
        self._merge_inner_stores()
        order = self._stage_order()
        where = {old: new for new, old in enumerate(order)}
        stages = []
        for old in order:
            b = self.stages[old]
            exprs = tuple(AccRef(where[e.stage], e.k, e.dtype) if isinstance(e, AccRef) else e
                          for e in b.exprs)
            stages.append(Stage(b.inner, exprs, tuple(b.reduces), tuple(b.stores)))
        nodes = list(self.nodes.values())
        kernel = Kernel(name, self.space.sizes, self.space.n_outer, tuple(stages),
                        fused=tuple(n.op.name for n in nodes),
                        sites=tuple(format_site(n.site) for n in nodes))
        return LoweredKernel(keep_rows(kernel), nodes)

    def _merge_inner_stores(self) -> None:
        """Roots stored from the inner loop that read no accumulator (`e` of `la.eval(e, sum(e))`)
        join a first-level reduce stage: one pass over the data computes `e` once, stores it and
        folds it (equal expressions are shared, so `exp` is evaluated once per element)."""
        s = self.store_stage.get(True)
        if s is None or self.stages[s].deps:
            return
        target = next((k for k, st in enumerate(self.stages)
                       if k != s and st.inner and st.reduces and not st.deps
                       and k not in self.store_stage.values()), None)
        if target is None:
            return
        src, dst = self.stages[s], self.stages[target]
        position = {e: k for k, e in enumerate(dst.exprs)}
        remap: list[int] = []
        for e in src.exprs:
            if isinstance(e, Apply):
                e = replace(e, args=tuple(remap[a] for a in e.args))
            if e not in position:
                position[e] = len(dst.exprs)
                dst.exprs.append(e)
            remap.append(position[e])
        dst.stores.extend(replace(st, value=remap[st.value]) for st in src.stores)
        del self.store_stage[True]
        self.dropped.add(s)

    def roots_in_two_passes(self) -> list[Node]:
        """Roots computed in a reduce stage and again in the inner store stage that reads an
        accumulator (`b` of `la.eval(b, where(b > b.mean(), ...))`): two passes over the data
        computing a value the kernel stores. (Call after `finish`.)"""
        s = self.store_stage.get(True)
        if s is None or not self.stages[s].deps:
            return []
        reduced = {key[0] for k in self.reduce_stage.values() for key in self.stages[k].memo}
        stored = {key[0] for key in self.stages[s].memo}
        return [r for r in self.roots if id(r) in reduced and id(r) in stored]

    def _stage_order(self) -> list[int]:
        """Reduce stages in dependency order, then the store stages (outer before inner)."""
        order: list[int] = []
        placed: set[int] = set()
        stores = set(self.store_stage.values())
        reduce_stages = [k for k in range(len(self.stages))
                         if k not in stores and k not in self.dropped]
        while len(order) < len(reduce_stages):
            for k in reduce_stages:
                if k not in placed and self.stages[k].deps <= placed:
                    order.append(k)
                    placed.add(k)
        return order + [self.store_stage[i] for i in (False, True) if i in self.store_stage]
