"""The one walk every graph pass shares: rebuild nodes bottom-up, mapping old inputs to new ones.

Nodes are immutable, so a pass returns new nodes where something changed and the old node object
where nothing did (leaves are never rebuilt: their identity binds run-time data). The walk is
iterative over the graph's topological order, so a 100,000-node chain costs one loop.

Most passes change nothing on most graphs (a loop body of elementwise ops has no view to simplify
and no constant to fold), so the unchanged case is the cheap one: a rule whose inputs were all
kept receives the node's own `inputs` tuple (`same_inputs` is then one identity test), and a pass
that replaced nothing returns the very Graph it was given, without a new topological walk. The
pipeline reads that identity to skip the second CSE.
"""

from __future__ import annotations

from collections.abc import Callable

from ..graph import Graph, Node

# rule(node, new_inputs) -> the node to use instead; returning `node` keeps it.
Rule = Callable[[Node, tuple[Node, ...]], Node]


def same_inputs(node: Node, inputs: tuple[Node, ...]) -> bool:
    old = node.inputs
    # Node has no __eq__: tuple equality compares the inputs by identity
    return inputs is old or inputs == old


def with_inputs(node: Node, inputs: tuple[Node, ...]) -> Node:
    """`node` over new inputs (the same object when the inputs did not change)."""
    if same_inputs(node, inputs):
        return node
    return Node(node.op, inputs, node.attrs, node.shape, node.dtype, site=node.site)


def rebuild(graph: Graph, rule: Rule) -> Graph:
    """Apply `rule` to every node in topological order; returns the graph of the new outputs
    (`graph` itself when every rule kept its node)."""
    replaced: dict[int, Node] = {}  # id(old node) -> its replacement, for the ones replaced
    get = replaced.get
    for n in graph.nodes:
        inputs = n.inputs
        if replaced and inputs:
            moved = tuple([get(id(i), i) for i in inputs])
            if moved != inputs:
                inputs = moved
        out = rule(n, inputs)
        if out is not n:
            replaced[id(n)] = out
    if not replaced:
        return graph
    return Graph([get(id(o), o) for o in graph.outputs])
