"""The fusion planner: decide which values own buffers and which roots share a kernel.

Rules (docs/passes.md has the long form):
- Outputs, library-call results (matmul, opaque ops) and library-call inputs own buffers: BLAS reads
  whole C-contiguous arrays ("matmul input must be materialized", Alea TK's LValue requirement).
- Every other value is computed inline by the kernels that read it: elementwise ops, casts and
  views fuse; a reduction becomes a stage of the kernel over its (outer, inner) loop, and the
  elementwise consumers on its index space are stored by the same kernel.
- Lowering reports what a kernel cannot express (a reduction read on another index space, a
  reshape that is not a stride pattern); that value gets a buffer and planning repeats.
- A value computed by several kernels is recomputed or materialized by `recompute_cost_rule`.
- Roots over the same loop space share one kernel (multi-output) when everything they read is
  produced by earlier steps, up to MAX_BUFFERS_PER_KERNEL buffers read or written (compile time).

    before: %2 = matmul(%0, %1)  %4 = add(%2, %3)  %5 = maximum(%4, %s) -> out0
    after:  step 0: LibraryCall matmul -> buf2
            step 1: Kernel k1_add_maximum: out0[i, j] = max(buf2[i, j] + %3[j], s)
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..graph import Graph, Node, OpKind, get_op
from ..graph.kernel_ir import BufferSpec, LibraryCall, Program
from ..graph.node import format_site
from .fuse_lower import (
    KernelBuilder,
    NeedsBuffer,
    NeedsOwnKernel,
    Space,
    reduction_space,
    root_placement,
)

_INPUT, _SCALAR, _PERMUTE = get_op("input"), get_op("scalar"), get_op("permute")
_BROADCAST = get_op("broadcast_to")
_LIBRARY = (OpKind.MATMUL, OpKind.OPAQUE)
_LOOKBACK = 8  # groups of one space a root tries to join (bounds planning cost on huge graphs)

RECOMPUTE_MAX_OPS = 16
# Reductions one kernel computes: each is a loop nest of its own, and gcc's time on a function grows
# faster than its loop count (100 row sums in one kernel: 6.7 s to compile). Kernels of at most 8
# have the same structure, so the printer's per-kernel numbering (runtime/c/canonical.py) lets
# them share one compiled function.
MAX_REDUCTIONS_PER_KERNEL = 8
# Buffers one kernel reads or writes (its inputs and its roots' outputs): each is a stream of
# loads or stores in the kernel's one loop, and gcc -O3's time on a loop grows much faster than
# its streams (worst with mixed widths: bool masks beside complex128). `la.eval(*outs)` of many
# same-shape results joined them all: test_at_values' complex128 updates, 60 outputs over 198
# buffers, ran cc1 for minutes at 1.3 GB. Compiler CPU per kernel of those updates, by buffers
# (benchmarks/bench_many_outputs.py, fresh cache, 2 shared vCPUs at load 4-7): 24: 0.3 s, 48:
# 1.2 s, 96: 8.7 s, 198: > 240 s; 32 results of `(x_k * 3 + y_k) / 7` (96 buffers) 2.1 s, but
# 32 reading the same two inputs (34 buffers) 0.3 s: streams, not results, cost. Past the cap a
# root starts another kernel (kernels of one structure then share one compiled function,
# runtime/c/canonical.py); a root reading more than the cap by itself still gets its kernel.
# Ordinary fused programs are far below it: the LSTM cell's gradient's largest kernel has 17.
MAX_BUFFERS_PER_KERNEL = 32
RECOMPUTE_MAX_LOADS = 2
# A value broadcast to at least BROADCAST_EXPANSION times its size, over at least
# BROADCAST_MIN_ELEMENTS results, is materialized when it costs BROADCAST_MIN_OPS ops or more:
# inline, the kernel recomputes it per result element (heat_1d's `sin(pi * xs) * sin(pi * ys)`,
# 5001 and 6667 values to 33M results: 66M sines, ~36x NumPy's two small sines and a multiply).
BROADCAST_EXPANSION = 8
BROADCAST_MIN_ELEMENTS = 1 << 16
BROADCAST_MIN_OPS = 2
# ...and one of them is no cheap arithmetic: a recomputed product or sum costs less than the
# buffer's traffic (nbody's size-generic plans, whose stand-in sizes make every broadcast "far",
# materialized `mass * mass.T`-like sources: 18.8 -> 25.3 ms a call), a recomputed sine does not
_CHEAP = frozenset({"add", "subtract", "multiply", "negative", "positive", "cast", "where",
                    "maximum", "minimum", "abs", "absolute", "square", "greater", "less",
                    "greater_equal", "less_equal", "equal", "not_equal", "logical_and",
                    "logical_or", "logical_not", "broadcast_to",
                    "dot_multiply", "dot_add"})  # (graph/ops_unchecked.py's twins)


def recompute_cost_rule(kernels: int, ops: int, loads: int, has_reduction: bool) -> str | None:
    """Why a value read by `kernels` (>= 2) kernels should be materialized once, or None to
    recompute it in each. Recomputing re-reads its inputs and redoes its arithmetic per kernel;
    materializing costs one write plus one read per kernel. A reduction re-reads a whole inner
    space, so it is never recomputed; neither is a value over more than two buffers or more than
    16 ops. A cheap value over at most two buffers costs about what its buffer would."""
    if kernels < 2:
        return None
    if has_reduction:
        return f"it contains a reduction and is read by {kernels} kernels"
    if loads > RECOMPUTE_MAX_LOADS:
        return f"it reads {loads} buffers and is read by {kernels} kernels"
    if ops > RECOMPUTE_MAX_OPS:
        return f"it costs {ops} ops and is read by {kernels} kernels"
    return None


def leaf_key(node: Node) -> tuple:
    """Array leaves holding the same data object are one leaf (see cse.py)."""
    return ("data", id(node.data)) if node.data is not None else ("node", id(node))


@dataclass
class FusionPlan:
    """The program (one storage per buffer: memory planning comes next) and, for explain and
    to_dot, the optimized graph and the nodes each step computes."""

    program: Program
    graph: Graph
    step_nodes: list[list[Node]]
    buffer_nodes: list[Node]


@dataclass
class _Group:
    space: Space
    index: int
    roots: list[Node] = field(default_factory=list)
    solo: bool = False
    reductions: int = 0
    buffers: set[int] = field(default_factory=set)  # ids of the values it loads or stores

    def has_room(self, buffers: set[int], reductions: int) -> bool:
        """Another root touching `buffers` (what it reads, and itself) and computing
        `reductions` inline keeps this kernel within the caps (see MAX_BUFFERS_PER_KERNEL)."""
        return (len(self.buffers | buffers) <= MAX_BUFFERS_PER_KERNEL
                and self.reductions + reductions <= MAX_REDUCTIONS_PER_KERNEL)

    def add(self, root: Node, buffers: set[int], reductions: int) -> None:
        self.roots.append(root)
        self.buffers |= buffers
        self.reductions += reductions


def _space_key(space: Space) -> tuple:
    return (space.sizes, space.n_outer, space.full, space.positions)


class _Attempt:
    """One planning attempt under a fixed set of buffer-owning values."""

    def __init__(self, graph: Graph, owned: dict[int, str], solo: set[int]) -> None:
        self.graph, self.owned, self.solo = graph, owned, solo
        self.steps: list = []
        self.step_of: dict[int, int] = {}
        self.groups: dict[tuple, list[_Group]] = {}

    def scan(self, root: Node) -> tuple[Node | None, list[Node], int]:
        """(first reduction computed inline, buffers read, reductions computed inline) for a
        root, by DFS over inline nodes. Past MAX_REDUCTIONS_PER_KERNEL inline reductions the
        rest must own buffers (one NeedsBuffer for all of them: one more planning attempt)."""
        first, frontier, seen, stack = None, [], {id(root)}, [root]
        reductions: list[Node] = []
        owned, add = self.owned, seen.add
        while stack:
            n = stack.pop()
            if n is not root and (n.op is _INPUT or id(n) in owned):  # a buffer: not inlined
                frontier.append(n)
                continue
            if n.op.kind is OpKind.REDUCTION:
                first = first or n
                reductions.append(n)
            for i in n.inputs:
                if id(i) not in seen:
                    add(id(i))
                    stack.append(i)
        extra = [r for r in reductions[MAX_REDUCTIONS_PER_KERNEL:] if r is not root]
        if extra:
            raise NeedsBuffer(extra[0], f"more than {MAX_REDUCTIONS_PER_KERNEL} reductions in one "
                              "kernel (compile time)", also=extra[1:])
        return first, frontier, len(reductions)

    def schedule(self) -> None:
        for n in self.graph.nodes:
            if id(n) not in self.owned or n.op is _INPUT:
                continue
            if n.op.kind in _LIBRARY:
                self.step_of[id(n)] = len(self.steps)
                self.steps.append(n)
                continue
            first, frontier, reductions = self.scan(n)
            space = reduction_space(first) if first is not None else Space(n.shape, n.ndim)
            if root_placement(n.shape, space) is None:
                raise NeedsBuffer(first, f"different index space: {n.op.name} at "
                                  f"{format_site(n.site)} is not over {first.op.name}'s loop")
            buffers = {id(f) for f in frontier} | {id(n)}
            if space.full is not None:
                self._absorb_elementwise(space, frontier, buffers, reductions)
            group = self._join(n, space, frontier, buffers, reductions)
            group.add(n, buffers, reductions)
            self.step_of[id(n)] = group.index

    def _absorb_elementwise(self, space: Space, frontier: list[Node], buffers: set[int],
                            reductions: int) -> None:
        """A reduction over values the last step just stored (`la.eval(e, la.sum(e))`): that
        elementwise group becomes the reduction's kernel, storing `e` from its inner stage, so
        `e` is computed and written once and never read back (unless the reduction's root
        would not fit in that kernel: then the reduction reads `e`'s buffer)."""
        plain = self.groups.get(_space_key(Space(space.full, len(space.full))))
        if not plain:
            return
        g = plain[-1]
        members = {id(r) for r in g.roots}
        if (g.solo or g.index != len(self.steps) - 1 or not g.has_room(buffers, reductions)
                or not any(id(f) in members for f in frontier)):
            return
        plain.pop()
        g.space = space
        self.groups.setdefault(_space_key(space), []).append(g)

    def _join(self, n: Node, space: Space, frontier: list[Node], buffers: set[int],
              reductions: int) -> _Group:
        key = _space_key(space)
        candidates = self.groups.setdefault(key, [])
        if id(n) not in self.solo:
            for g in reversed(candidates[-_LOOKBACK:]):
                if (not g.solo and g.has_room(buffers, reductions)
                        and self._ready_before(frontier, g)):
                    return g
        g = _Group(space, len(self.steps), solo=id(n) in self.solo)
        self.steps.append(g)
        candidates.append(g)
        return g

    def _ready_before(self, frontier: list[Node], g: _Group) -> bool:
        members = {id(r) for r in g.roots}
        return all(f.op is _INPUT or id(f) in members or self.step_of[id(f)] < g.index
                   for f in frontier)


class _Planner:
    def __init__(self, graph: Graph, array_leaves: list[Node], scalar_leaves: list[Node]) -> None:
        self.graph = graph
        self.array_leaves = array_leaves
        self.scalar_dtypes = [n.dtype for n in scalar_leaves]
        self.scalar_index = {id(n): k for k, n in enumerate(scalar_leaves)}
        self.notes: list[str] = []
        self.owned: dict[int, str] = {}
        self.solo: set[int] = set()
        self.transposed: dict[int, set[int]] = {}  # matmul node -> inputs read transposed
        self._initial_buffers()

    def _own(self, n: Node, reason: str) -> None:
        if id(n) not in self.owned and n.op is not _INPUT:
            self.owned[id(n)] = reason
            self.notes.append(f"{n.op.name} at {format_site(n.site)}: {reason}")

    def _initial_buffers(self) -> None:
        for o in self.graph.outputs:
            if o.op is not _INPUT:
                self.owned.setdefault(id(o), "output")
        for n in self.graph.nodes:
            if n.op.kind in _LIBRARY:
                self.owned.setdefault(id(n), "library call")
                for k, i in enumerate(n.inputs):
                    if n.op.kind is OpKind.MATMUL and _swaps_last_two(i):
                        self.transposed.setdefault(id(n), set()).add(k)
                        i = i.inputs[0]  # BLAS reads the source through its transpose flag
                    self._own(i, f"{n.op.name} input must be materialized (a library call reads "
                                 "whole contiguous buffers)")
        for n in self.graph.nodes:
            if n.op is _BROADCAST:
                self._own_broadcast_source(n)
            if n.size == 0:
                self._own_sources_of_empty(n)

    def _own_sources_of_empty(self, n: Node) -> None:
        """Materialize the computed non-empty values an empty `n` reads (through views): NumPy
        computes them at their line and raises their flags, where a kernel over n's no elements
        would compute none of them (`B[0:0] = x / 0`, `empty + x / 0`: no 'divide by zero')."""
        for i in n.inputs:
            while i.size and i.op.kind is OpKind.VIEW and i.inputs:
                i = i.inputs[0]
            if i.size and i.inputs and i.op is not _SCALAR:
                self._own(i, "materialized: an empty value reads it, NumPy computes it (and "
                             "raises its flags) at its line")

    def _own_broadcast_source(self, n: Node) -> None:
        """Materialize a broadcast's computed source that fusion would recompute per element of
        a much larger result (see BROADCAST_EXPANSION)."""
        src = n.inputs[0]
        if (src.op is _INPUT or id(src) in self.owned or n.size < BROADCAST_MIN_ELEMENTS
                or src.size * BROADCAST_EXPANSION > n.size):
            return
        ops, costly, seen, stack = 0, False, {id(src)}, [src]
        while stack and not (ops >= BROADCAST_MIN_OPS and costly):
            m = stack.pop()
            if m.op.kind is OpKind.REDUCTION:
                return  # a reduction stage of the reading kernel: fusion's own rules place it
            if m.op.kind is not OpKind.VIEW and m.inputs:
                ops += 1
                costly = costly or m.op.name not in _CHEAP
            for i in m.inputs:
                if id(i) not in seen and i.op is not _INPUT and id(i) not in self.owned:
                    seen.add(id(i))
                    stack.append(i)
        if ops >= BROADCAST_MIN_OPS and costly:
            self._own(src, f"materialized once: broadcast to {n.size // max(src.size, 1)}x its "
                           "size, it would be recomputed per element")

    def plan(self) -> FusionPlan:
        while True:
            attempt = _Attempt(self.graph, self.owned, self.solo)
            try:
                attempt.schedule()
                built = self._lower(attempt)
            except NeedsBuffer as e:
                if id(e.node) in self.owned:  # stored, but by the kernel that reads it (a
                    if id(e.node) in self.solo:  # reduction absorbed its group): its own kernel
                        raise
                    self.solo.add(id(e.node))
                    continue
                for n in (e.node, *e.also):
                    self._own(n, e.reason)
                continue
            except NeedsOwnKernel as e:
                if id(e.root) in self.solo:
                    raise
                self.solo.add(id(e.root))
                self.notes.append(f"{e.root.op.name} at {format_site(e.root.site)} gets its own "
                                  f"kernel: {e.reason}")
                continue
            if not self._apply_cost_rule(built[1]):
                return self._assemble(attempt, built[0])

    def _slots(self) -> tuple[dict[int, int], list[Node]]:
        slot: dict[int, int] = {}
        nodes: list[Node] = []
        by_key: dict[tuple, int] = {}
        for n in self.graph.nodes:
            if n.op is _INPUT:
                by_key[leaf_key(n)] = slot[id(n)] = len(nodes)
                nodes.append(n)
        self.input_slots = []
        for leaf in self.array_leaves:  # a leaf a pass made unused still binds a slot
            k = leaf_key(leaf)
            if k not in by_key:
                by_key[k] = len(nodes)
                nodes.append(leaf)
            self.input_slots.append(by_key[k])
        for n in self.graph.nodes:
            if id(n) in self.owned and n.op is not _INPUT:
                slot[id(n)] = len(nodes)
                nodes.append(n)
        return slot, nodes

    def _lower(self, attempt: _Attempt) -> tuple[list, dict[int, int]]:
        self.slot, self.buffer_nodes = self._slots()
        scalar_index = lambda n: self.scalar_index[id(n)]
        built, readers = [], {}
        for k, step in enumerate(attempt.steps):
            if isinstance(step, Node):
                flipped = self.transposed.get(id(step), set())
                ins = [i.inputs[0] if k in flipped else i for k, i in enumerate(step.inputs)]
                built.append((LibraryCall(step.op, tuple(self.slot[id(i)] for i in ins),
                                          self.slot[id(step)], step.attrs, format_site(step.site),
                                          tuple(sorted(flipped))), [step]))
                continue
            kb = KernelBuilder(step.space, self.slot, scalar_index, {id(r) for r in step.roots})
            for r in step.roots:
                kb.store_root(r, self.slot[id(r)])
            lowered = kb.finish(_kernel_name(k, kb))
            self._own_kernel_for_two_pass_roots(kb)
            built.append((lowered.kernel, lowered.nodes))
            for n in lowered.nodes:
                if n.op.kind is not OpKind.VIEW and id(n) not in self.owned:
                    readers[id(n)] = readers.get(id(n), 0) + 1
        return built, readers

    def _own_kernel_for_two_pass_roots(self, kb: KernelBuilder) -> None:
        """A root a kernel computes in a reduction's pass and again in the pass that reads the
        accumulator (hist_equalize's `blurred` and `where(blurred > blurred.mean(), 255, 0)`:
        a 3x3 box sum and an integer division, twice) leaves for a kernel of its own when rule 5
        would not recompute it: it is stored anyway, so both passes then read its buffer, and
        it is computed once, in a plain loop gcc vectorizes."""
        twice = kb.roots_in_two_passes()
        if not twice:
            return
        ops, loads, reduces = self._recompute_stats()
        for r in twice:
            reason = recompute_cost_rule(2, ops[id(r)], loads[id(r)], False)
            if reason and not reduces[id(r)]:
                raise NeedsOwnKernel(r, f"computed in two passes of one kernel: {reason}")

    def _apply_cost_rule(self, readers: dict[int, int]) -> bool:
        if all(count < 2 for count in readers.values()):
            return False  # no value is computed by two kernels: nothing to weigh
        ops, loads, reduces = self._recompute_stats()
        added = False
        # Latest first: a value computed inside one just materialized is then computed once, in
        # that buffer's kernel, and needs no buffer of its own (kepler's step stored two
        # intermediates of dE that no other kernel read). The next attempt counts again.
        covered: set[int] = set()
        for n in reversed(self.graph.nodes):
            count = readers.get(id(n), 0)
            if count < 2 or id(n) in covered:
                continue
            reason = recompute_cost_rule(count, ops[id(n)], loads[id(n)], reduces[id(n)])
            if reason:
                self._own(n, f"materialized once: {reason} (cost rule)")
                added = True
                todo = list(n.inputs)
                while todo:
                    i = todo.pop()
                    if id(i) not in covered and i.op is not _INPUT and id(i) not in self.owned:
                        covered.add(id(i))
                        todo.extend(i.inputs)
        return added

    def _recompute_stats(self) -> tuple[dict, dict, dict]:
        """Per inline value: ops it costs, buffers it reads, whether it holds a reduction (all
        over its inline sub-DAG, counted as a tree and capped, so shared parts count twice)."""
        ops: dict[int, int] = {}
        loads: dict[int, int] = {}
        reduces: dict[int, bool] = {}
        cap = 1 << 20
        for n in self.graph.nodes:
            o = 0 if n.op.kind is OpKind.VIEW or not n.inputs else 1
            ld, red = 0, n.op.kind is OpKind.REDUCTION
            for i in n.inputs:
                if i.op is _INPUT or id(i) in self.owned:
                    ld += 1
                else:
                    o, ld, red = o + ops[id(i)], ld + loads[id(i)], red or reduces[id(i)]
            ops[id(n)], loads[id(n)], reduces[id(n)] = min(o, cap), min(ld, cap), red
        return ops, loads, reduces

    def _assemble(self, attempt: _Attempt, built: list) -> FusionPlan:
        steps = [s for s, _ in built]
        step_nodes = [nodes for _, nodes in built]
        outputs = []
        for o in self.graph.outputs:
            if o.op is _INPUT:  # an output must be a fresh array: copy the input
                out = len(self.buffer_nodes)
                self.buffer_nodes.append(o)
                kb = KernelBuilder(Space(o.shape, o.ndim), self.slot,
                                   lambda n: 0, set())
                kb.store_root(o, out)
                steps.append(kb.finish(f"k{len(steps)}_copy").kernel)
                step_nodes.append([o])
                outputs.append(out)
            else:
                outputs.append(self.slot[id(o)])
        buffers = tuple(BufferSpec(n.shape, n.dtype, k) for k, n in enumerate(self.buffer_nodes))
        scalars = tuple(self.scalar_dtypes)
        program = Program(buffers, tuple(self.input_slots), scalars, tuple(outputs), tuple(steps),
                          notes=tuple(dict.fromkeys(self.notes)))
        return FusionPlan(program, self.graph, step_nodes, self.buffer_nodes)


def _kernel_name(index: int, kb: KernelBuilder) -> str:
    names = [n.op.name for n in kb.nodes.values() if n.op.kind is not OpKind.VIEW]
    unique = list(dict.fromkeys(names))
    body = "_".join(unique[:4]) if unique else "copy"
    return f"k{index}_{body}"


def plan_fusion(graph: Graph, array_leaves: list[Node], scalar_leaves: list[Node]) -> FusionPlan:
    """Plan kernels and library calls for an optimized graph. `array_leaves` / `scalar_leaves` are
    the leaves of the *original* graph in its order: they define Program.inputs and scalars."""
    return _Planner(graph, array_leaves, scalar_leaves).plan()


def _swaps_last_two(n: Node) -> bool:
    """`n` is a permute that only swaps the last two axes (`w.T` of a matrix, `swapaxes(-1, -2)`)."""
    if n.op is not _PERMUTE or n.ndim < 2:
        return False
    axes = tuple(n.attrs[0])
    return axes == tuple(range(n.ndim - 2)) + (n.ndim - 1, n.ndim - 2)
