"""Dead-code elimination: keep only the nodes the outputs need.

A Graph is built by walking back from its outputs, so dead nodes are simply the ones a rewrite
left behind; this pass re-derives the node list from the outputs.

    before: %0 = input  %1 = exp(%0)  %2 = neg(%0) -> out0      (%1 was orphaned by a rewrite)
    after:  %0 = input  %1 = neg(%0) -> out0
"""

from __future__ import annotations

from ..graph import Graph


def eliminate_dead_code(graph: Graph) -> Graph:
    return Graph(graph.outputs)
