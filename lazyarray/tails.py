"""A cut loop's tail, evaluated in chunks whose structures repeat (issue 25, "cuts that amortize").

A loop never evaluated inside is cut every k-th time around (lazyarray/cuts.py): its steady
segments are one plan. What the program evaluates at the end is the tail, the `r` iterations
since the last cut plus whatever follows the loop, and `r` is `steps mod k`: evaluated as one
graph, every remainder was a new structure and a new plan (`acc = acc + v * 0.5` over 200..239
steps: 42 plans in 40 calls).

Nodes are numbered in build order (`Node.order`, moved only by building a node). After a cut at a
point that recurs, the cut hook watches for the point's next two visits (`cuts._survey`): the first
iteration after the cut ends at `first`, and the next one built `period` nodes, so later iteration
boundaries fall at `first + j * period`. An evaluation whose graph reads the last cut's leaves and
spans whole iterations that repeat is run in chunks of whole iterations, each chunk's graph rebuilt
on the leaves the previous chunk produced (the state crossing the boundary: nodes read after it,
and requested outputs), then the final piece (the last, partial iteration and what follows the
loop) with the requested outputs. Chunk lengths follow the base-4 digits of the number of whole
iterations (largest first), so the tails of every remainder below k share at most `log4(k) + 1`
chunk plans plus the final piece's, and one evaluation runs at most three chunks per base-4 digit,
and the final piece. The iterations are checked to repeat first (equal node counts, and the same
nodes in the first and last iteration relative to their boundaries: op, attributes, shape, dtype,
which inputs are inside it); the first one or two iterations after a cut may differ (a cut inside
`x[a:b] += v`) and then run as a chunk of their own (`_lead`). A loop whose iterations differ (an
index loop: `A[i, :j]`) is evaluated whole, as before. So is a cut point's first tail and any tail
whose own plan is cached: a program called once, or always with the same steps, builds and hits the
one plan it did before; only tails of other lengths run in chunks.

The split only reorders where buffers materialize: every node runs once, on the same inputs, so
the values are those of the whole graph.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import Any

from .graph import get_op
from .graph.node import Node, _compiled, build_node, cuts_paused

# (start, first, period, cut leaves, point) of the last cut at a recurring point, or None: `start`
# is the order of the node built at the point by the cut, `first` that of the point's next node
# (the end of the first iteration after the cut), `period` the nodes one later iteration builds,
# the cut leaves {id: weak reference} tell a graph that continues from that cut, and `point` is
# the cut point (code, offset, op).
TAIL: list = [None]
# Cut points whose tail was evaluated whole once (see `evaluate_tail`); emptied by
# `la.clear_caches()` with the plans, so a fresh process and a cleared one behave alike.
_WHOLE: set = set()
_INPUT = get_op("input")


def forget_tail() -> None:
    TAIL[0] = None


def forget_whole() -> None:
    _WHOLE.clear()


def evaluate_tail(outputs: list[Node], run: Callable[[list[Node]], list[Any]],
                  cached: Callable[[], bool]) -> list[Any] | None:
    """The buffers of `outputs` evaluated in repeating chunks (`run` evaluates a list of nodes),
    or None where the caller evaluates the graph whole: it is not a tail of whole, repeating
    iterations; or its own plan is cached (`cached()`: a step count seen before, one run); or it
    is the first tail of its cut point (a program called once, or again with the same steps,
    builds one plan for it as before; only another step count starts the chunks)."""
    start, first, period, cut_leaves, point = TAIL[0]
    last = 0
    for n in outputs:
        if not n.inputs:
            return None
        if n.order > last:
            last = n.order
    if last < first or period < 1:
        return None
    whole = (last - first) // period + 1  # the first iteration after the cut, then the rest
    if not any(r() is not None for r in cut_leaves.values()):
        forget_tail()  # the tail was evaluated and dropped: nothing can read that cut any more
        return None
    nodes = _graph(outputs, cut_leaves)
    if nodes is None:
        return None
    by_piece: list[list[Node]] = [[] for _ in range(whole + 1)]
    for n in nodes:  # in build order
        p = 0 if n.order < first else (n.order - first) // period + 1
        by_piece[whole if p > whole else p].append(n)
    bases = [start] + [first + p * period for p in range(whole)]
    lead = _lead(by_piece, bases, whole)
    if lead is None or cached():
        return None
    if point not in _WHOLE:
        if len(_WHOLE) > 1000:
            _WHOLE.clear()
        _WHOLE.add(point)
        return None
    lengths = ([lead] if lead else []) + _chunks(whole - lead)
    chunk_of_piece = [c for c, length in enumerate(lengths) for _ in range(length)]
    chunk_of_piece.append(len(lengths))  # the final piece
    chunk: dict[Node, int] = {}
    members: list[list[Node]] = [[] for _ in range(len(lengths) + 1)]
    for p, group in enumerate(by_piece):
        c = chunk_of_piece[p]
        members[c].extend(group)
        for n in group:
            chunk[n] = c
    return _run_chunks(outputs, chunk, members, run)


def _graph(outputs: list[Node], cut_leaves: dict[int, weakref.ref]) -> list[Node] | None:
    """The operation nodes of the outputs' graph in build order, or None when it reads none of
    the last cut's leaves (another computation, built after the loop)."""
    seen, reads_cut = operations_reading(outputs, cut_leaves)
    if not reads_cut:
        return None
    return sorted(seen, key=_order)


def operations_reading(nodes: list[Node], cut_leaves: dict[int, weakref.ref]
                       ) -> tuple[list[Node], bool]:
    """The distinct nodes of `nodes`' graphs (leaves not counted) in visit order, and whether they
    read a leaf that the last cut made (`cut_leaves`: id -> weak reference). Iterative: loop graphs
    are deep. The reference of graph/_node.c's walk, and the pure-Python path."""
    seen: set[Node] = set()  # nodes hash by identity
    visited: list[Node] = []
    stack = list(nodes)
    reads_cut = False
    while stack:
        node = stack.pop()
        if node in seen:
            continue
        seen.add(node)
        visited.append(node)
        for i in node.inputs:
            if i.inputs:
                stack.append(i)
            elif not reads_cut and id(i) in cut_leaves and cut_leaves[id(i)]() is i:
                reads_cut = True
    return visited, reads_cut


python_operations_reading = operations_reading  # the reference (tests compare the C walk with it)
# graph/_node.c's walk: a cut of a stencil loop walks its graph ~3 times (the crossing test, the
# pending count, a tail's split), ~0.1 ms each in Python on a few hundred nodes.
if getattr(_compiled, "operations_reading", None) is not None:
    operations_reading = _compiled.operations_reading  # noqa: F811


def _order(node: Node) -> int:
    return node.order


_LEAD = 2  # whole iterations after a cut that may differ from the rest (see `_lead`)


def _lead(by_piece: list[list[Node]], bases: list[int], whole: int) -> int | None:
    """How many whole iterations after the cut run as their own first chunk: 0 where every
    iteration holds the same nodes. A cut inside an instruction that builds several nodes (`x[a:b]
    += v`) makes the first one or two iterations after it differ (other attributes, other node
    counts); from there on the loop repeats. None: no repeating run of iterations up to the last
    whole one (an index loop), so the tail is evaluated whole. Repeats are judged on equal node
    counts in every iteration of the run and the same nodes in its first and last iteration,
    relative to their starts (`bases`): a wrong guess costs plans, never values."""
    counts = [len(g) for g in by_piece[:whole]]
    for lead in range(min(_LEAD, whole - 1) + 1):
        if any(c != counts[lead] for c in counts[lead:]):
            continue
        if whole - lead == 1:  # one iteration left to repeat: nothing to compare it with
            if lead == 0:
                return 0  # a single whole iteration: one chunk, as in any repeating loop
            continue  # a lead needs two repeating iterations after it (an index loop has none)
        if _same(_described(by_piece[lead], bases[lead]),
                 _described(by_piece[whole - 1], bases[whole - 1])):
            return lead
    return None


def _described(group: list[Node], base: int) -> list[tuple] | None:
    """One iteration's nodes relative to its start `base` (inputs from before it count alike: the
    cut's leaves or the previous iteration's nodes); None if it holds nodes from before the cut."""
    if group and group[0].order < base:
        return None
    return [(n.order - base, n.op, n.attrs, n.shape, n.dtype,
             tuple([i.order - base if i.inputs and i.order >= base else None for i in n.inputs]))
            for n in group]


def _same(first: list[tuple] | None, last: list[tuple] | None) -> bool:
    if first is None or last is None:
        return False
    try:
        return first == last
    except (TypeError, ValueError):  # attributes that do not compare (arrays): assume not
        return False


_BASE = 4  # chunk lengths are powers of this: 2 made 1.6x the plans, 1-iteration chunks 3x the time


def _chunks(whole: int) -> list[int]:
    """Chunk lengths in iterations: `whole`'s digits in base `_BASE`, largest first (1, 4, 16,
    ...: the tails of every remainder below k share log4(k) + 1 chunk plans; a tail runs at most
    3 chunks per digit). Measured against binary digits and one-iteration chunks in
    docs/caching.md."""
    lengths = []
    size = 1
    while size * _BASE <= whole:
        size *= _BASE
    while whole:
        lengths.extend([size] * (whole // size))
        whole %= size
        size //= _BASE
    return lengths


def _run_chunks(outputs: list[Node], chunk: dict[Node, int], members: list[list[Node]],
                run: Callable[[list[Node]], list[Any]]) -> list[Any]:
    """Evaluate chunk by chunk, each rebuilt on the leaves of the ones before."""
    crossing = set(outputs)  # read after its chunk, or requested: a chunk's outputs
    for c, group in enumerate(members):
        for n in group:
            for i in n.inputs:
                if i.inputs and chunk[i] < c:
                    crossing.add(i)
    now: dict[Node, Node] = {}  # original -> its copy in the chunk being run, then its leaf
    build = build_node
    with cuts_paused():  # copies are not the program's nodes: no cut among them
        for group in members:
            for n in group:
                now[n] = build(n.op, tuple([now.get(i, i) for i in n.inputs]), n.attrs, n.shape,
                               n.dtype, n.data, n.site)
            results = [n for n in group if n in crossing]
            if results:
                for n, b in zip(results, run([now[n] for n in results])):
                    now[n] = build(_INPUT, (), (), n.shape, n.dtype, b, n.site)
    return [now[o].data for o in outputs]
