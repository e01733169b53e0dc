"""A Graph: the nodes reachable from some outputs, in a deterministic topological order.

Walks are iterative (a 100,000-op chain must not hit Python's recursion limit). networkx is used for
plan-time algorithms and export only, never per op: building its graphs costs ~10x a slots node;
it is imported on first use (~0.2 s of `import lazyarray` otherwise).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from .node import Node, format_site

if TYPE_CHECKING:
    import networkx as nx


def topological_order(outputs: Iterable[Node]) -> list[Node]:
    """Postorder DFS from the outputs, inputs left to right: each node after all of its inputs."""
    order: list[Node] = []
    seen: set[int] = set()
    for out in outputs:
        if id(out) in seen:
            continue
        seen.add(id(out))
        stack = [(out, iter(out.inputs))]
        while stack:
            node, pending = stack[-1]
            for child in pending:
                if id(child) not in seen:
                    seen.add(id(child))
                    stack.append((child, iter(child.inputs)))
                    break
            else:
                stack.pop()
                order.append(node)
    return order


class Graph:
    """Outputs plus the nodes they need. Nodes are immutable, so a Graph is a cheap snapshot."""

    __slots__ = ("outputs", "nodes", "_index")

    def __init__(self, outputs: Sequence[Node], nodes: list[Node] | None = None) -> None:
        self.outputs = tuple(outputs)
        self.nodes = nodes if nodes is not None else topological_order(self.outputs)
        self._index: dict[int, int] | None = None

    @property
    def index(self) -> dict[int, int]:
        """id(node) → position in `nodes`."""
        if self._index is None:
            self._index = {id(n): i for i, n in enumerate(self.nodes)}
        return self._index

    @property
    def leaves(self) -> list[Node]:
        return [n for n in self.nodes if n.is_leaf]

    def consumers(self) -> dict[int, list[Node]]:
        """id(node) → the nodes that read it, in topological order."""
        users: dict[int, list[Node]] = {id(n): [] for n in self.nodes}
        for n in self.nodes:
            for i in n.inputs:
                users[id(i)].append(n)
        return users

    def __len__(self) -> int:
        return len(self.nodes)

    def to_networkx(self) -> nx.MultiDiGraph:
        import networkx as nx  # optional: networkx, for graph export only

        g = nx.MultiDiGraph()
        idx = self.index
        for i, n in enumerate(self.nodes):
            g.add_node(i, op=n.op.name, attrs=repr(n.attrs), shape=n.shape, dtype=str(n.dtype),
                       site=format_site(n.site))
            for pos, src in enumerate(n.inputs):
                g.add_edge(idx[id(src)], i, operand=pos)
        return g

    def to_text(self) -> str:
        """One line per node: `%3 = add(%1, %2) : float32[64, 32]  # user.py:12`."""
        idx = self.index
        outs = {id(o): k for k, o in enumerate(self.outputs)}
        lines = []
        for i, n in enumerate(self.nodes):
            args = ", ".join(f"%{idx[id(x)]}" for x in n.inputs)
            attrs = "".join(f" {name}={val!r}" for name, val in zip(n.op.attr_names, n.attrs))
            mark = f"  -> out{outs[id(n)]}" if id(n) in outs else ""
            where = f"  # {format_site(n.site)}" if n.site else ""
            lines.append(
                f"%{i} = {n.op.name}({args}){attrs} : {n.dtype}{list(n.shape)}{mark}{where}"
            )
        return "\n".join(lines)

    def to_dot(self) -> str:
        lines = ["digraph lazyarray {", "  node [shape=box, fontname=monospace];"]
        idx = self.index
        for i, n in enumerate(self.nodes):
            label = f"{n.op.name}\\n{n.dtype}{list(n.shape)}"
            lines.append(f'  n{i} [label="{label}"];')
            for src in n.inputs:
                lines.append(f"  n{idx[id(src)]} -> n{i};")
        lines.append("}")
        return "\n".join(lines)
