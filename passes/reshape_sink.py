"""Reshapes of computed values move down to the leaves, so they cost no kernel of their own.

    before: %1 = exp(%0) : (64, 32)   %2 = reshape(%1) : (32, 64)   %4 = add(%2, %3)
    after:  %1 = reshape(%0) : (32, 64)   %2 = exp(%1)   %4 = add(%2, %3)

The fusion planner follows a reshape only where it is strides of its input: a reshape of a
contiguous buffer always is (a flat address), a reshape of a value computed over another loop shape
in general is not ("non-contiguous merge"), and the planner then gave that value a buffer and a
kernel. An elementwise op commutes with a reshape, so when the reshaped value is elementwise ops
(each used only on this path) over array leaves and broadcast scalars, the reshape goes to the
leaves instead and the whole expression fuses into the consumer's loop. Anything else is left
alone.
"""

from __future__ import annotations

from ..graph import Graph, Node, OpKind, get_op
from .rewrite import with_inputs

_RESHAPE, _BROADCAST, _INPUT = get_op("reshape"), get_op("broadcast_to"), get_op("input")


def sink_reshapes(graph: Graph) -> Graph:
    """`graph` with every movable reshape of an elementwise value moved to its leaves (`graph`
    itself when none moved)."""
    if not any(n.op is _RESHAPE for n in graph.nodes):
        return graph
    uses: dict[int, int] = {}
    for n in graph.nodes:
        for i in n.inputs:
            uses[id(i)] = uses.get(id(i), 0) + 1
    for o in graph.outputs:
        uses[id(o)] = uses.get(id(o), 0) + 2  # an output is a use that needs its own value
    new: dict[int, Node] = {}
    changed = False
    for n in graph.nodes:
        if n.op is _RESHAPE and _movable(n.inputs[0], uses):
            new[id(n)] = _pushed(n, new)
            changed = True
            continue
        new[id(n)] = with_inputs(n, tuple(new[id(i)] for i in n.inputs)) if n.inputs else n
    return Graph([new[id(o)] for o in graph.outputs]) if changed else graph


def _is_scalar_broadcast(n: Node) -> bool:
    return n.op is _BROADCAST and n.inputs[0].ndim == 0


def _movable(src: Node, uses: dict[int, int]) -> bool:
    """`src` is elementwise ops, each read once (by the reshape or by each other), down to array
    leaves and broadcast scalars."""
    if src.op.kind is not OpKind.ELEMENTWISE:
        return False
    stack, seen = [src], set()
    while stack:
        n = stack.pop()
        if id(n) in seen:
            return False  # a diamond: the pushed copy would compute it twice
        seen.add(id(n))
        if n.op is _INPUT or _is_scalar_broadcast(n):
            continue
        if (n.op.kind is not OpKind.ELEMENTWISE or uses.get(id(n), 0) != 1
                or any(i.shape != n.shape for i in n.inputs)):
            return False
        stack.extend(n.inputs)
    return True


def _pushed(reshape: Node, new: dict[int, Node]) -> Node:
    """The reshape's source rebuilt at the reshape's shape, the reshape applied to its leaves."""
    shape = reshape.shape
    built: dict[int, Node] = {}
    stack = [(reshape.inputs[0], False)]
    while stack:
        n, ready = stack.pop()
        if id(n) in built:
            continue
        if n.op is _INPUT:
            built[id(n)] = Node(_RESHAPE, (new[id(n)],), (shape,), shape, n.dtype,
                                site=reshape.site)
        elif _is_scalar_broadcast(n):
            built[id(n)] = Node(_BROADCAST, (new[id(n.inputs[0])],), (shape,), shape, n.dtype,
                                site=n.site)
        elif not ready:
            stack.append((n, True))
            stack.extend((i, False) for i in n.inputs)
        else:
            built[id(n)] = Node(n.op, tuple(built[id(i)] for i in n.inputs), n.attrs, shape,
                                n.dtype, site=n.site)
    return built[id(reshape.inputs[0])]
