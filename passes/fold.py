"""Constant folding and algebraic simplification, read from the registry's properties.

lazyarray has no baked constants: a Python scalar is a run-time `scalar` leaf (so `x * lr` with a
new `lr` reuses the compiled plan). The constant-only subgraphs are therefore the ones built from
scalars alone, broadcast to a shape; folding computes them once, on 0-d values, and broadcasts the
result, instead of once per element:

    before: %0 = scalar  %1 = broadcast_to(%0) [64]  %2 = scalar  %3 = broadcast_to(%2) [64]
            %4 = add(%1, %3) [64]
    after:  %0 = scalar  %1 = scalar  %2 = add(%0, %1) []  %3 = broadcast_to(%2) [64]

Algebra from properties: an `involution` applied twice is the identity (`-(-x)`, `~~x`), an
`idempotent` binary op of one operand with itself is that operand (`maximum(x, x)`), and an
`identity` op (`+x`, which `x ** 1` binds) is its operand.
"""

from __future__ import annotations

from ..graph import Graph, Node, OpKind, get_op
from .rewrite import rebuild, with_inputs

_BROADCAST = get_op("broadcast_to")


def _scalar_source(node: Node) -> Node | None:
    """The 0-d node a value is broadcast from, or None."""
    if node.shape == ():
        return node
    if node.op is _BROADCAST and node.inputs[0].shape == ():
        return node.inputs[0]
    return None


def _hoist_scalars(node: Node, inputs: tuple[Node, ...]) -> Node | None:
    if node.shape == () or not inputs:
        return None
    sources = [_scalar_source(i) for i in inputs]
    if any(s is None for s in sources):
        return None
    small = Node(node.op, tuple(sources), node.attrs, (), node.dtype, site=node.site)
    return Node(_BROADCAST, (small,), (node.shape,), node.shape, node.dtype, site=node.site)


def _simplify(node: Node, inputs: tuple[Node, ...]) -> Node | None:
    props = node.op.properties
    if "identity" in props and inputs[0].dtype == node.dtype:
        return inputs[0]
    if ("involution" in props and inputs[0].op is node.op
            and inputs[0].inputs[0].dtype == node.dtype):
        return inputs[0].inputs[0]
    if "idempotent" in props and len(inputs) == 2 and inputs[0] is inputs[1]:
        return inputs[0]
    return None


def fold_constants(graph: Graph) -> Graph:
    def rule(node: Node, inputs: tuple[Node, ...]) -> Node:
        if node.op.kind is not OpKind.ELEMENTWISE:
            return with_inputs(node, inputs)
        return (_simplify(node, inputs) or _hoist_scalars(node, inputs)
                or with_inputs(node, inputs))

    return rebuild(graph, rule)
