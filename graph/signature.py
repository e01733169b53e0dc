"""Graph signatures: the plan-cache key of a graph, found in one walk that also collects its leaves.

A node's interned `key` already names its structure exactly, with every leaf anonymous (by shape and
dtype). Two graphs with equal output keys can still differ in *which leaves are the same object*:
`a * b` and `a * a` share keys. The walk adds exactly that: it visits the graph depth-first, inputs
left to right (the order `topological_order` numbers leaves in), and records every edge that reaches
an already-visited node as (nodes visited so far, that node's visit number). Output keys plus these
back-references determine the graph up to renaming of leaves, so equal signatures mean the same
computation with leaves in the same slots, and a dict lookup on the signature is the verification.

    a * b   ->  (key(mul),)  refs ()        leaves [a, b]
    a * a   ->  (key(mul),)  refs (2, 1)    leaves [a]       (the 2nd operand is visit #1 again)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .node import Node


def graph_signature(outputs: Sequence[Node]) -> tuple[tuple, list[Node]]:
    """(signature, leaves in canonical order) of the graph that computes `outputs`.

    The signature is a tuple of ints, hashable and exact. Leaves are in the order `Graph.leaves`
    lists them (depth-first, inputs left to right), so they line up with a plan's leaf slots.
    """
    seen: dict[int, int] = {}
    leaves: list[Node] = []
    sig: list[Any] = [len(outputs)]
    stack = list(reversed(outputs))
    pop, push = stack.pop, stack.extend
    while stack:
        node = pop()
        visit = seen.get(id(node))
        if visit is not None:
            sig.append(len(seen))
            sig.append(visit)
            continue
        seen[id(node)] = len(seen)
        inputs = node.inputs
        if inputs:
            push(inputs[::-1])
        elif node.op.is_leaf:
            leaves.append(node)
    sig.extend(o.key for o in outputs)
    return tuple(sig), leaves
