"""Graph signatures: the plan-cache key of a graph, found in one walk that also collects its leaves.

A node's interned `key` already names its structure exactly, with every leaf anonymous (by shape and
dtype). Two graphs with equal output keys can still differ in *which leaves are the same object*:
`a * b` and `a * a` share keys. The walk adds exactly that: it visits the graph depth-first, inputs
left to right (the order `topological_order` numbers leaves in), and records every edge that reaches
an already-visited node as (nodes visited so far, that node's visit number). Output keys plus these
back-references determine the graph up to renaming of leaves, so equal signatures mean the same
computation with leaves in the same slots, and a dict lookup on the signature is the verification.

Input leaves holding the same buffer are one leaf to the passes (CSE merges them), so a plan built
for `x * y` with x and y sharing a buffer reads one slot; the walk records that aliasing too, as
(-(nodes visited so far), first leaf with that buffer), so such a plan is never reused for distinct
buffers.

    a * b   ->  (key(mul),)  refs ()        leaves [a, b]
    a * a   ->  (key(mul),)  refs (2, 1)    leaves [a]       (the 2nd operand is visit #1 again)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .node import Node, _compiled
from .registry import OpKind, get_op

_LEAF, _INPUT = OpKind.LEAF, get_op("input")


def graph_signature(outputs: Sequence[Node]) -> tuple[tuple, list[Node]]:
    """(signature, leaves in canonical order) of the graph that computes `outputs`.

    The signature is a tuple of ints, hashable and exact. Leaves are in the order `Graph.leaves`
    lists them (depth-first, inputs left to right), so they line up with a plan's leaf slots.
    """
    seen: dict[Node, int] = {}  # Node hashes by identity (it defines no __eq__)
    leaves: list[Node] = []
    sig: list[Any] = [len(outputs)]
    stack = list(outputs)
    stack.reverse()
    pop, push, push_all, visited = stack.pop, stack.append, stack.extend, seen.get
    count = 0
    buffers: dict[int, int] = {}  # id(data) -> first leaf holding it
    while stack:
        node = pop()
        while True:  # walk down first inputs without the stack: the same pre-order, fewer pops
            visit = visited(node)
            if visit is not None:
                sig += (count, visit)
                break
            seen[node] = count
            count += 1
            inputs = node.inputs
            if inputs:
                n = len(inputs)
                if n == 2:
                    push(inputs[1])
                elif n > 2:
                    push_all(inputs[:0:-1])
                node = inputs[0]
                continue
            if node.op.kind is _LEAF:
                if node.op is _INPUT and node.data is not None:  # same buffer: one leaf
                    first = buffers.get(id(node.data))
                    if first is None:
                        buffers[id(node.data)] = len(leaves)
                    else:
                        sig += (-count, first)
                leaves.append(node)
            break
    sig.extend([o.key for o in outputs])
    return tuple(sig), leaves


python_graph_signature = graph_signature  # the reference (tests compare the compiled walk with it)
if _compiled is not None:  # graph/_node.c: the same walk in C (~10x faster per node)
    _compiled.bind_signature(_LEAF, _INPUT)
    graph_signature = _compiled.graph_signature  # noqa: F811
