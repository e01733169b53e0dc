"""The tail of a cut loop, evaluated in pieces whose structures repeat (issue 25, "cuts that amortize").

A loop never evaluated inside is cut every k-th time around (lazyarray/cuts.py): its steady
segments are one plan. What the program evaluates at the end is the tail, the `r` iterations
since the last cut plus whatever follows the loop, and `r` is `steps mod k`: evaluated as one
graph, every remainder was a new structure and a new plan (`acc = acc + v * 0.5` over 200..239
steps: 42 plans in 40 calls).

Nodes are numbered in build order (`Node.order`, moved only by building a node). After a cut at
a point that recurs, the cut hook watches for the point's next visit (`cuts._survey`): one
iteration built `period` nodes, so iteration boundaries fall at `start + j * period`. An
evaluation whose graph reads the last cut's leaves and spans `r >= 1` whole iterations is then
run in chunks of whole iterations, each chunk's graph rebuilt on the leaves the previous chunk
produced (the state crossing the boundary: nodes read after it, and requested outputs), then the
rest (`final`: the last, partial iteration and what follows the loop) with the requested outputs.
Chunk lengths follow the base-4 digits of `r` (largest first), so the tails of every remainder
below k share at most `log4(k) + 1` chunk plans plus the final piece's one, and one evaluation
costs at most `3 log4(k) + 4` runs. The iterations are checked to repeat first (each whole
iteration's nodes, relative to its boundary: op, attributes, shape, dtype, which inputs are
inside it); a loop whose iterations differ (an index loop: `A[i, :j]`) is evaluated whole, as
before. The split only reorders where buffers materialize: every node runs once, on the same
inputs, so the values are those of the whole graph.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import Any

from .graph import get_op
from .graph.node import Node, build_node, cuts_paused

# (start, period, cut leaves) of the last cut at a recurring point, or None: `start` is the order
# of the node built at the point by the cut, `period` the nodes one iteration builds, and the cut
# leaves {id: weak reference} tell a graph that continues from that cut.
TAIL: list = [None]
_INPUT = get_op("input")


def forget_tail() -> None:
    TAIL[0] = None


def evaluate_tail(outputs: list[Node], run: Callable[[list[Node]], list[Any]]
                  ) -> list[Any] | None:
    """The buffers of `outputs` evaluated in repeating chunks (`run` evaluates a list of nodes),
    or None where this graph is not a tail of whole, repeating iterations (then the caller
    evaluates it whole)."""
    start, period, cut_leaves = TAIL[0]
    last = 0
    for n in outputs:
        if not n.inputs:
            return None
        if n.order > last:
            last = n.order
    whole = (last - start) // period
    if whole < 1:
        return None
    if not any(r() is not None for r in cut_leaves.values()):
        forget_tail()  # the tail was evaluated and dropped: nothing can read that cut any more
        return None
    nodes = _graph(outputs, cut_leaves)
    if nodes is None:
        return None
    lengths = _chunks(whole)
    chunk_of_piece = [c for c, length in enumerate(lengths) for _ in range(length)]
    chunk_of_piece.append(len(lengths))  # the final piece
    chunk: dict[Node, int] = {}
    members: list[list[Node]] = [[] for _ in range(len(lengths) + 1)]
    counts = [0] * (whole + 1)
    ends: list[list[tuple]] = [[], []]  # the first and the last whole iteration, described
    for n in nodes:  # in build order
        p = (n.order - start) // period
        p = 0 if p < 0 else whole if p > whole else p
        c = chunk_of_piece[p]
        chunk[n] = c
        members[c].append(n)
        if n.order >= start:
            counts[p] += 1
            if p == 0 or p == whole - 1:
                base = start + p * period
                (ends[0] if p == 0 else ends[1]).append((
                    n.order - base, n.op, n.attrs, n.shape, n.dtype,
                    tuple([i.order - base if i.inputs and i.order >= base else None
                           for i in n.inputs])))
    if whole > 1 and not (counts[1:whole] == counts[:whole - 1] and _same(*ends)):
        return None
    return _run_chunks(outputs, chunk, members, run)


def _graph(outputs: list[Node], cut_leaves: dict[int, weakref.ref]) -> list[Node] | None:
    """The operation nodes of the outputs' graph in build order, or None when it reads none of
    the last cut's leaves (another computation, built after the loop)."""
    seen: set[Node] = set()  # nodes hash by identity
    stack = list(outputs)
    reads_cut = False
    while stack:
        node = stack.pop()
        if node in seen:
            continue
        seen.add(node)
        for i in node.inputs:
            if i.inputs:
                stack.append(i)
            elif not reads_cut and id(i) in cut_leaves and cut_leaves[id(i)]() is i:
                reads_cut = True
    if not reads_cut:
        return None
    return sorted(seen, key=_order)


def _order(node: Node) -> int:
    return node.order


def _same(first: list[tuple], last: list[tuple]) -> bool:
    """Whether the last whole iteration holds the same nodes as the first, relative to its start
    (inputs from before the iteration count alike: the cut's leaves or the last iteration's).
    With equal node counts in every iteration, the two ends stand for the rest: a wrong guess
    costs plans, never values."""
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
