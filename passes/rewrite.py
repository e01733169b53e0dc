"""The one walk every graph pass shares: rebuild nodes bottom-up, mapping old inputs to new ones.

Nodes are immutable, so a pass returns new nodes where something changed and the old node object
where nothing did (leaves are never rebuilt: their identity binds run-time data). The walk is
iterative over the graph's topological order, so a 100,000-node chain costs one loop.
"""

from __future__ import annotations

from collections.abc import Callable

from ..graph import Graph, Node

# rule(node, new_inputs) -> the node to use instead; returning `node` keeps it.
Rule = Callable[[Node, tuple[Node, ...]], Node]


def same_inputs(node: Node, inputs: tuple[Node, ...]) -> bool:
    old = node.inputs
    return len(old) == len(inputs) and all(a is b for a, b in zip(old, inputs))


def with_inputs(node: Node, inputs: tuple[Node, ...]) -> Node:
    """`node` over new inputs (the same object when the inputs did not change)."""
    if same_inputs(node, inputs):
        return node
    return Node(node.op, inputs, node.attrs, node.shape, node.dtype, site=node.site)


def rebuild(graph: Graph, rule: Rule) -> Graph:
    """Apply `rule` to every node in topological order; returns the graph of the new outputs."""
    new: dict[int, Node] = {}
    for n in graph.nodes:
        if not n.inputs:
            new[id(n)] = rule(n, ())
            continue
        inputs = tuple(new[id(i)] for i in n.inputs)
        new[id(n)] = rule(n, inputs)
    return Graph([new[id(o)] for o in graph.outputs])
