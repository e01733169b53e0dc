"""Common-subexpression elimination: structurally equal nodes over the same inputs become one.

    before: %2 = multiply(%0, %1)  %3 = multiply(%0, %1)  %4 = add(%2, %3)
    after:  %2 = multiply(%0, %1)  %3 = add(%2, %2)

Input leaves holding the *same* data object are one leaf (plan caches key on which leaves are the
same object, so this is stable across runs). Scalar leaves are never merged by value: their values
are run-time arguments, and a plan must not depend on them.
"""

from __future__ import annotations

from ..graph import Graph, Node, get_op
from .rewrite import rebuild, with_inputs

_INPUT = get_op("input")


def eliminate_common_subexpressions(graph: Graph) -> Graph:
    table: dict[tuple, Node] = {}

    def rule(node: Node, inputs: tuple[Node, ...]) -> Node:
        if not inputs:
            if node.op is not _INPUT or node.data is None:
                return node
            key: tuple = ("leaf", id(node.data), node.shape, node.dtype.str)
        else:
            key = (node.op.name, node.attrs, node.shape, node.dtype.str, *map(id, inputs))
        found = table.get(key)
        if found is None:
            found = table[key] = with_inputs(node, inputs)
        return found

    return rebuild(graph, rule)
