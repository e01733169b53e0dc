"""Weak scalars with a shape, spelled out for the passes: `scalar [64]` -> `broadcast_to(scalar [])`.

Tracing makes a weak Python scalar operand one node, a `scalar` leaf with the operation's shape
(building a second, `broadcast_to` node per scalar cost every traced op; issue 11). The passes and
backends think of a scalar as a 0-d value broadcast where it is used: constant folding hoists
scalar-only arithmetic by that pattern, fusion turns the broadcast into index arithmetic, and a
kernel takes the 0-d value as an argument. So the pipeline starts here:

    before: %0 = input [64]  %1 = scalar [64]                     %2 = mul(%0, %1) [64]
    after:  %0 = input [64]  %1 = scalar []  %2 = broadcast_to(%1) [64]  %3 = mul(%0, %2) [64]

The 0-d leaf takes the shaped leaf's place in the leaf order (depth-first, it is visited where the
shaped one was), so plans bind the traced graph's leaves to the same slots.
"""

from __future__ import annotations

from ..graph import Graph, Node, get_op
from .rewrite import rebuild, same_inputs

_SCALAR, _BROADCAST = get_op("scalar"), get_op("broadcast_to")


def expand_scalars(graph: Graph) -> Graph:
    """`graph` with every shaped `scalar` leaf replaced by the broadcast of a 0-d one (the same
    graph object when there is none). Runs inside the pipeline's `cuts_paused()`, so building
    nodes here never starts a node-budget cut."""
    if not any(n.op is _SCALAR and n.shape for n in graph.nodes):
        return graph

    def rule(node: Node, inputs: tuple[Node, ...]) -> Node:
        if node.op is _SCALAR and node.shape:
            value = Node(_SCALAR, (), node.attrs, (), node.dtype, data=node.data, site=node.site)
            return Node(_BROADCAST, (value,), (node.shape,), node.shape, node.dtype,
                        site=node.site)
        if not inputs or same_inputs(node, inputs):
            return node
        return Node(node.op, inputs, node.attrs, node.shape, node.dtype, site=node.site)

    return rebuild(graph, rule)
