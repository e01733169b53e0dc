"""View simplification: chains of views of one kind become one view; identity views disappear.

    before: %1 = permute(%0) axes=(1, 0)  %2 = permute(%1) axes=(1, 0)  %3 = exp(%2)
    after:  %1 = exp(%0)

    before: %1 = slice(%0) spec=((2, 1, 6),)  %2 = slice(%1) spec=((5, -1, 3),)
    after:  %1 = slice(%0) spec=((7, -1, 3),)

Fewer views mean fewer index maps to compose in the fusion planner and shorter `la.explain` output;
every view is still index arithmetic, never a copy.
"""

from __future__ import annotations

from ..graph import Graph, Node, get_op
from .rewrite import rebuild, with_inputs

_BROADCAST, _RESHAPE, _PERMUTE, _SLICE = (
    get_op(n) for n in ("broadcast_to", "reshape", "permute", "slice"))


def _view(op, src: Node, attrs: tuple, like: Node) -> Node:
    return Node(op, (src,), attrs, like.shape, like.dtype, site=like.site)


def compose_slices(inner: tuple, outer: tuple) -> tuple:
    """The one slice spec equal to applying `inner`, then `outer`: (start, step, length) per dim."""
    spec = []
    for (s1, k1, _), (s2, k2, n2) in zip(inner, outer):
        spec.append((s1 + k1 * s2, k1 * k2, n2) if n2 else (0, 1, 0))
    return tuple(spec)


def _is_identity(node: Node, src: Node) -> bool:
    if node.op is _PERMUTE:
        return node.attrs[0] == tuple(range(node.ndim))
    if node.op is _SLICE:  # a run-time start (None) is never the identity
        return all(st == 0 and k == 1 and n == s for (st, k, n), s in zip(node.attrs[0], src.shape))
    return node.shape == src.shape  # broadcast_to, reshape


def _simplify(node: Node, src: Node) -> Node:
    if _is_identity(node, src):
        return src
    if src.op is not node.op or len(node.inputs) > 1 or len(src.inputs) > 1:
        return with_inputs(node, (src, *node.inputs[1:]))  # run-time starts: composed as maps
    base = src.inputs[0]
    if node.op is _PERMUTE:
        axes = tuple(src.attrs[0][a] for a in node.attrs[0])
        merged = _view(_PERMUTE, base, (axes,), node)
    elif node.op is _SLICE:
        merged = _view(_SLICE, base, (compose_slices(src.attrs[0], node.attrs[0]),), node)
    else:  # broadcast of broadcast, reshape of reshape: the last target wins
        merged = _view(node.op, base, node.attrs, node)
    return base if _is_identity(merged, base) else merged


def simplify_views(graph: Graph) -> Graph:
    views = (_BROADCAST, _RESHAPE, _PERMUTE, _SLICE)

    def rule(node: Node, inputs: tuple[Node, ...]) -> Node:
        if node.op in views:
            return _simplify(node, inputs[0]) if len(inputs) == 1 else with_inputs(node, inputs)
        return with_inputs(node, inputs)

    return rebuild(graph, rule)
