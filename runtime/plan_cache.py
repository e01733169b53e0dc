"""The plan cache: graph signature → plan, LRU-bounded, with counters tests and users can read.

A plan must be data-free: it may hold the graph's structure (shapes, dtypes, ops) but never a leaf's
buffer or a scalar's value, which are bound at each run. Otherwise a cached plan would keep user data
alive and, worse, could run on it. `data_free_graph` makes the reference path's graph data-free.

Besides the plan, each entry keeps a short description of the graph (its skeleton: op names in order,
and each node's shape and dtype), so that a miss can say what differs from the nearest cached plan.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..graph import Graph, Node, get_op
from .backend import Backend, get_backend
from .evaluate import host_value
from .interpreter import _apply
from .fp_status import collector, numpy_errstate

_INPUT = get_op("input")


@dataclass(frozen=True)
class PlanEntry:
    plan: Any
    nbytes: int  # memory the plan keeps between runs (its workspace), bounded by max_bytes
    skeleton: tuple[str, ...]  # op names in topological order: entries to compare a miss against
    nodes: tuple[tuple[str, tuple[int, ...], np.dtype, tuple, bool], ...]  # see describe_graph


def describe_graph(graph: Graph) -> tuple[tuple[str, ...], tuple]:
    """(skeleton, per-node (op, shape, dtype, attrs, is leaf)) of a graph, for near-miss reports.
    Every plan build pays for it: the dtype is kept as the object (formatted only in a report;
    `str(dtype)` was a third of the cost)."""
    nodes = tuple([(n.op.name, n.shape, n.dtype, n.attrs, n.is_leaf) for n in graph.nodes])
    return tuple(d[0] for d in nodes), nodes


class PlanCache:
    """An LRU map signature → PlanEntry, bounded by count and by the bytes the plans keep
    (their workspaces: a plan's intermediates live as long as the plan); safe from several
    threads. An evicted plan's workspace is freed with it."""

    def __init__(self, max_size: int = 256, max_bytes: int = 256 * 2**20) -> None:
        self.max_size = max_size
        self.max_bytes = max_bytes
        self.nbytes = 0
        self._entries: OrderedDict[Hashable, PlanEntry] = OrderedDict()
        self._by_skeleton: dict[tuple[str, ...], list[Hashable]] = {}
        self._lock = threading.Lock()
        self.plans_built = self._hits = self.plan_evictions = 0
        # Hits graph/_node.c's evaluation hit path counts (lazyarray.cache.remember_hit): one C
        # step under the GIL, so none is lost beside the ones counted here under the lock.
        self.fast_hits = [0]
        self.generation = 0  # moves whenever a plan leaves the cache or is replaced

    @property
    def plan_hits(self) -> int:
        return self._hits + self.fast_hits[0]

    def lookup(self, signature: Hashable) -> Any | None:
        """The cached plan for `signature` (counted as a hit), or None."""
        with self._lock:
            entry = self._entries.get(signature)
            if entry is None:
                return None
            self._entries.move_to_end(signature)
            self._hits += 1
            return entry.plan

    def holds(self, signature: Hashable) -> bool:
        """Whether a plan for `signature` is cached, without counting a hit or moving it."""
        return signature in self._entries

    def count_hit(self) -> None:
        """A hit found without `lookup` (the caller remembered the plan of this generation)."""
        with self._lock:
            self._hits += 1

    def insert(self, signature: Hashable, plan: Any, graph: Graph) -> None:
        """Store a freshly built plan (counted as built), evicting the least recently used."""
        skeleton, nodes = describe_graph(graph)
        with self._lock:
            self.plans_built += 1
            if self.max_size <= 0:
                return
            previous = self._entries.get(signature)
            if previous is None:
                self._by_skeleton.setdefault(skeleton, []).append(signature)
            else:
                self.nbytes -= previous.nbytes
                self.generation += 1
            entry = PlanEntry(plan, _kept_bytes(plan, self.max_bytes), skeleton, nodes)
            self._entries[signature] = entry
            self.nbytes += entry.nbytes
            self._entries.move_to_end(signature)
            self._evict()

    def refresh(self, signature: Hashable) -> None:
        """Re-read a stored plan's workspace bytes (a size-generic plan grows and shrinks as it
        keeps plans per size) and evict past the byte bound."""
        with self._lock:
            entry = self._entries.get(signature)
            if entry is None:
                return
            nbytes = int(getattr(entry.plan, "workspace_bytes", 0))
            self.nbytes += nbytes - entry.nbytes
            self._entries[signature] = PlanEntry(entry.plan, nbytes, entry.skeleton, entry.nodes)
            self._evict()

    def _evict(self) -> None:
        if self.nbytes > self.max_bytes:
            self._release_workspaces()
        while self._entries and (len(self._entries) > max(self.max_size, 0)
                                 or self.nbytes > self.max_bytes):
            old_sig, old = self._entries.popitem(last=False)
            self.generation += 1
            self._forget(old_sig, old.skeleton)
            self.nbytes -= old.nbytes
            self.plan_evictions += 1

    def _release_workspaces(self) -> None:
        """Past the byte bound, the least recently used plans free their workspaces after each
        run (`keep_no_workspace`) before any plan is evicted: a program whose plans each keep a
        large workspace (aliasing_updates at N=3,750: six plans of ~110 MB) evicted and rebuilt
        them all on every call, paying passes and kernel lookups to allocate the same arenas.
        Their memory then lives as long as a run, as NumPy's temporaries do."""
        for signature, entry in list(self._entries.items()):  # least recently used first
            if self.nbytes <= self.max_bytes:
                return
            if entry.nbytes and hasattr(entry.plan, "keep_no_workspace"):
                entry.plan.keep_no_workspace()
                kept = int(getattr(entry.plan, "workspace_bytes", 0))
                self.nbytes -= entry.nbytes - kept
                self._entries[signature] = PlanEntry(entry.plan, kept, entry.skeleton,
                                                     entry.nodes)

    def _forget(self, signature: Hashable, skeleton: tuple[str, ...]) -> None:
        sigs = self._by_skeleton[skeleton]
        sigs.remove(signature)
        if not sigs:
            del self._by_skeleton[skeleton]

    def resize(self, max_size: int, max_bytes: int | None = None) -> None:
        with self._lock:
            self.max_size = max_size
            if max_bytes is not None:
                self.max_bytes = max_bytes
            self._evict()

    def nearest(self, graph: Graph) -> list[str]:
        """What differs between `graph` and the closest cached plan: ["leaf 0 (input): dim 0:
        512 → 513", "leaf 1 (input): dtype float32 → float64"]. Plans of the same skeleton are
        compared node by node; failing those, recent plans with as many leaves, by their leaves."""
        skeleton, nodes = describe_graph(graph)
        with self._lock:
            same = [self._entries[s].nodes for s in self._by_skeleton.get(skeleton, ())]
            recent = [e.nodes for e in list(self._entries.values())[-32:]]
        if same:
            candidates = [(c, nodes, []) for c in same]
        else:
            leaves = tuple(d for d in nodes if d[4])
            candidates = [(cl, leaves, [f"ops differ ({len(c)} → {len(nodes)} nodes)"])
                          for c in recent if len(cl := tuple(d for d in c if d[4])) == len(leaves)]
        best: list[str] = []
        for old, new, extra in candidates:
            diffs = describe_differences(old, new) + extra
            if not best or len(diffs) < len(best):
                best = diffs
        return best

    def __len__(self) -> int:
        return len(self._entries)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self._by_skeleton.clear()
            self.nbytes = 0
            self.generation += 1
            self.plans_built = self._hits = self.plan_evictions = 0
            self.fast_hits[0] = 0


def _kept_bytes(plan: Any, max_bytes: int) -> int:
    """The workspace bytes `plan` keeps between runs. A plan whose workspace alone exceeds the
    bound would be evicted by its own insert and rebuilt on every call (doitgen, issue 25): it is
    kept instead, asked to free its workspace after each run (`keep_no_workspace`), and counts 0."""
    nbytes = int(getattr(plan, "workspace_bytes", 0))
    if nbytes > max_bytes and hasattr(plan, "keep_no_workspace"):
        plan.keep_no_workspace()
        nbytes = int(getattr(plan, "workspace_bytes", 0))
    return nbytes


def describe_differences(old: tuple, new: tuple) -> list[str]:
    """Readable differences between two node descriptions of the same skeleton: the leaves' (inputs
    and scalars, named by leaf position) when they differ, else the other nodes' (by position)."""
    leaf_diffs: list[str] = []
    node_diffs: list[str] = []
    leaf_no = 0
    for i, (a, b) in enumerate(zip(old, new)):
        if a[4]:
            leaf_diffs += _node_differences(f"leaf {leaf_no} ({a[0]})", a, b)
            leaf_no += 1
        else:
            node_diffs += _node_differences(f"%{i} {a[0]}", a, b)
    return leaf_diffs or node_diffs or ["the same ops; which leaves are shared differs"]


def _node_differences(name: str, a: tuple, b: tuple) -> list[str]:
    (_, shape0, dt0, attrs0, _), (_, shape1, dt1, attrs1, _) = a, b
    diffs = [f"{name}: dtype {dt0} → {dt1}"] if dt0 != dt1 else []
    if len(shape0) != len(shape1):
        diffs.append(f"{name}: shape {shape0} → {shape1}")
    else:
        diffs += [f"{name}: dim {d}: {x} → {y}" for d, (x, y) in enumerate(zip(shape0, shape1))
                  if x != y]
    if attrs0 != attrs1 and shape0 == shape1:
        diffs.append(f"{name}: attrs {attrs0} → {attrs1}")
    return diffs


def data_free_graph(graph: Graph) -> Graph:
    """A copy of `graph` whose leaves carry no data (the structure a cached plan may keep)."""
    copies: dict[int, Node] = {}
    nodes: list[Node] = []
    for n in graph.nodes:
        if n.inputs:
            copy = Node(n.op, tuple(copies[id(i)] for i in n.inputs), n.attrs, n.shape, n.dtype,
                        site=n.site)
        else:
            copy = Node(n.op, (), n.attrs, n.shape, n.dtype, site=n.site)
        copies[id(n)] = copy
        nodes.append(copy)
    return Graph([copies[id(o)] for o in graph.outputs], nodes)


class ReferenceStepPlan:
    """The node-by-node NumPy plan, data-free and pre-scheduled: each run walks a ready list of
    (reference, input positions) steps and frees intermediates after their last reader, so the
    reference path pays no per-run graph bookkeeping. Errors are re-raised through the
    interpreter's `_apply`, which names the op and the user line that built it."""

    def __init__(self, graph: Graph) -> None:
        nodes, index = graph.nodes, graph.index
        last_use = {index[id(i)]: k for k, n in enumerate(nodes) for i in n.inputs}
        keep = {index[id(o)] for o in graph.outputs}
        frees: dict[int, list[int]] = {}
        for slot, k in last_use.items():
            if slot not in keep:
                frees.setdefault(k, []).append(slot)
        self.size = len(nodes)
        self.array_slots = [k for k, n in enumerate(nodes) if n.is_leaf and n.op is _INPUT]
        self.scalar_slots = [(k, n.dtype, n.shape) for k, n in enumerate(nodes)
                             if n.is_leaf and n.op is not _INPUT]
        self.steps = [(k, n.op.reference, tuple(index[id(i)] for i in n.inputs), n.attrs, n.dtype,
                       n, tuple(frees.get(k, ()))) for k, n in enumerate(nodes) if not n.is_leaf]
        self.outputs = [index[id(o)] for o in graph.outputs]

    def run(self, arrays: list[Any], scalars: list[Any]) -> list[Any]:
        values: list[Any] = [None] * self.size
        for k, a in zip(self.array_slots, arrays):
            values[k] = a
        for (k, dtype, shape), s in zip(self.scalar_slots, scalars):
            # a weak scalar operand has its op's shape: a broadcast view
            values[k] = np.broadcast_to(np.asarray(s, dtype), shape) if shape else np.asarray(s, dtype)
        report = collector()  # the report's re-run (la.jit's): each message keeps its op's line
        with numpy_errstate():
            for k, reference, inputs, attrs, dtype, node, free in self.steps:
                if report is not None:
                    report.site, report.op = node.site, k
                args = tuple([values[i] for i in inputs])
                try:
                    out = reference(args, attrs, dtype)
                except Exception:
                    _apply(node, args)  # raises the interpreter's error naming the user line
                    raise
                if type(out) is not np.ndarray or out.dtype != dtype or out.shape != node.shape:
                    out = _apply(node, args)
                values[k] = out
                for i in free:
                    values[i] = None
        return [values[k] for k in self.outputs]


class DeviceReferencePlan:
    """The node-by-node plan on a device backend (`optimize=False` on cupy): its array leaves are
    read on the host and its outputs put back on the device, so that the caller gets the
    backend's buffers, as from the backend's compiled plans."""

    def __init__(self, plan: ReferenceStepPlan, backend: Backend) -> None:
        self.plan, self.backend = plan, backend

    def run(self, arrays: list[Any], scalars: list[Any]) -> list[Any]:
        outputs = self.plan.run([host_value(a) for a in arrays], scalars)
        return [self.backend.from_host(np.ascontiguousarray(o)) for o in outputs]


def build_reference_plan(graph: Graph, options: Any = None
                         ) -> ReferenceStepPlan | DeviceReferencePlan:
    """The node-by-node NumPy plan, made data-free so the plan cache may keep it; on a device
    backend, wrapped to read its leaves on the host and return device buffers."""
    plan = ReferenceStepPlan(data_free_graph(graph))
    backend = get_backend(options.backend) if options is not None else None
    if backend is None or backend.device == "cpu":
        return plan
    return DeviceReferencePlan(plan, backend)
