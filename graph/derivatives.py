"""Node builders that derivative rules are written in (graph level: no lazyarray import).

A rule in an op's registry entry receives nodes whose shapes and dtypes already agree (primitives are
strict), so these builders bind primitives directly, without promotion or broadcasting: `mul(g, y)`
is one `multiply` node. Constants are run-time `scalar` leaves broadcast to a shape, never baked into
code, so a backward graph has the same structure whatever the numbers. Every node built here carries
the site of the forward op being differentiated (`at`), so errors in a backward graph name the
user's line.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise
from typing import Any

import numpy as np

from .node import Node
from .registry import get_op

_SITE: list = [None]
_BUILT = [0]  # nodes built here so far: an upper bound on the size of a backward graph
_CONSTANTS: dict[tuple, Node] = {}  # (value, dtype, shape) -> node, shared within one walk
_OPS: dict[str, Any] = {}
_BOOL = np.dtype(np.bool_)


def at(site: tuple[str, int] | None) -> None:
    """Label the nodes built from now on with this (forward op's) user site."""
    _SITE[0] = site


def begin() -> None:
    """Start a backward walk: constants built from now on are shared (nodes are immutable), so a
    backward graph holds one `1.0` per shape and dtype instead of one per rule."""
    _CONSTANTS.clear()


def _op(name: str) -> Any:
    op = _OPS.get(name)
    if op is None:
        op = _OPS[name] = get_op(name)
    return op


def built() -> int:
    return _BUILT[0]


def node(name: str, inputs: tuple[Node, ...], attrs: tuple, shape: tuple[int, ...],
         dtype: np.dtype) -> Node:
    _BUILT[0] += 1
    return Node(_op(name), inputs, attrs, shape, dtype, site=_SITE[0])


# --- elementwise ----------------------------------------------------------------------------------
def ew(name: str, *xs: Node | float) -> Node:
    """An elementwise primitive on same-shape, same-dtype operands; Python numbers become constants
    like the first node operand."""
    like = next(x for x in xs if isinstance(x, Node))
    nodes = tuple(x if isinstance(x, Node) else const(x, like) for x in xs)
    return node(name, nodes, (), like.shape, like.dtype)


def compare(name: str, a: Node, b: Node | float) -> Node:
    b = b if isinstance(b, Node) else const(b, a)
    return node(name, (a, b), (), a.shape, _BOOL)


def add(a: Node | float, b: Node | float) -> Node:
    return ew("add", a, b)


def sub(a: Node | float, b: Node | float) -> Node:
    return ew("subtract", a, b)


def mul(a: Node | float, b: Node | float) -> Node:
    return ew("multiply", a, b)


def div(a: Node | float, b: Node | float) -> Node:
    return ew("divide", a, b)


def neg(a: Node) -> Node:
    return ew("negative", a)


def where(cond: Node, a: Node | float, b: Node | float, like: Node | None = None) -> Node:
    """where(cond, a, b); numbers take the dtype of the node operand, or of `like`."""
    like = a if isinstance(a, Node) else b if isinstance(b, Node) else like
    a = a if isinstance(a, Node) else const(a, like)
    b = b if isinstance(b, Node) else const(b, like)
    return node("where", (cond, a, b), (), like.shape, like.dtype)


def const(value: float, like: Node) -> Node:
    """`value` in `like`'s dtype and shape: a run-time scalar broadcast (free inside a kernel)."""
    key = (value, like.dtype, like.shape)
    found = _CONSTANTS.get(key)
    if found is None:
        _BUILT[0] += 1
        leaf = Node(_op("scalar"), (), (), (), like.dtype, data=value, site=_SITE[0])
        found = _CONSTANTS[key] = broadcast(leaf, like.shape)
    return found


def zeros(shape: tuple[int, ...], dtype: np.dtype) -> Node:
    key = (0, dtype, shape)
    found = _CONSTANTS.get(key)
    if found is None:
        _BUILT[0] += 1
        leaf = Node(_op("scalar"), (), (), (), dtype, data=0.0 if dtype.kind == "f" else 0,
                    site=_SITE[0])
        found = _CONSTANTS[key] = broadcast(leaf, shape)
    return found


def cast(x: Node, dtype: np.dtype) -> Node:
    return x if x.dtype == dtype else node("cast", (x,), (), x.shape, dtype)


# --- views ------------------------------------------------------------------------------------------
def broadcast(x: Node, shape: tuple[int, ...]) -> Node:
    return x if x.shape == shape else node("broadcast_to", (x,), (shape,), shape, x.dtype)


def reshape(x: Node, shape: tuple[int, ...]) -> Node:
    return x if x.shape == shape else node("reshape", (x,), (shape,), shape, x.dtype)


def permute(x: Node, axes: Sequence[int]) -> Node:
    axes = tuple(axes)
    if axes == tuple(range(x.ndim)):
        return x
    return node("permute", (x,), (axes,), tuple(x.shape[a] for a in axes), x.dtype)


def inverse_permutation(axes: Sequence[int]) -> tuple[int, ...]:
    inv = [0] * len(axes)
    for i, a in enumerate(axes):
        inv[a] = i
    return tuple(inv)


def matrix_transpose(x: Node) -> Node:
    axes = list(range(x.ndim))
    axes[-1], axes[-2] = axes[-2], axes[-1]
    return permute(x, axes)


def slice_(x: Node, spec: tuple[tuple[int, int, int], ...]) -> Node:
    shape = tuple(length for _, _, length in spec)
    if all(s == (0, 1, n) for s, n in zip(spec, x.shape)):
        return x
    return node("slice", (x,), (spec,), shape, x.dtype)


def flip(x: Node, axis: int) -> Node:
    spec = tuple((n - 1, -1, n) if i == axis and n > 0 else (0, 1, n)
                 for i, n in enumerate(x.shape))
    return slice_(x, spec)


# --- reductions and library ops ---------------------------------------------------------------------
def sum_(x: Node, axes: Sequence[int], keepdims: bool = False) -> Node:
    axes = tuple(sorted(axes))
    if not axes:
        return x
    shape = tuple(1 if i in axes else s for i, s in enumerate(x.shape)) if keepdims else tuple(
        s for i, s in enumerate(x.shape) if i not in axes)
    return node("sum", (x,), (axes, keepdims), shape, x.dtype)


def sum_to(g: Node, shape: tuple[int, ...]) -> Node:
    """The transpose of broadcasting `shape` to g.shape: sum the added and the stretched axes."""
    if g.shape == shape:
        return g
    lead = g.ndim - len(shape)
    stretched = [lead + i for i, s in enumerate(shape) if s == 1 and g.shape[lead + i] != 1]
    out = sum_(g, list(range(lead)) + stretched, keepdims=True)
    return reshape(out, shape)


def unreduce(g: Node, shape: tuple[int, ...], axes: Sequence[int], keepdims: bool) -> Node:
    """A reduction's cotangent `g` spread back over the reduced `axes` of `shape`."""
    kept = tuple(1 if i in axes else s for i, s in enumerate(shape))
    return broadcast(g if keepdims else reshape(g, kept), shape)


def matmul(a: Node, b: Node) -> Node:
    shape = a.shape[:-1] + (b.shape[-1],)
    return node("matmul", (a, b), (), shape, a.dtype)


def cumsum(x: Node, axis: int) -> Node:
    return node("cumsum", (x,), (axis,), x.shape, x.dtype)


def take(x: Node, indices: Node, axis: int) -> Node:
    shape = x.shape[:axis] + indices.shape + x.shape[axis + 1:]
    return node("take", (x, indices), (axis,), shape, x.dtype)


def scatter(x: Node, values: Node, index_nodes: Sequence[Node], mode: str, spec: tuple) -> Node:
    return node("scatter", (x, values, *index_nodes), (mode, spec), x.shape, x.dtype)


def gather(x: Node, spec: tuple, index_nodes: Sequence[Node]) -> Node:
    """x[index] for a scatter's index spec (ints, slices, None, at most one integer array): the
    transpose of scattering into that index."""
    arrays = [i for i, item in enumerate(spec) if item[0] == "array"]
    if len(arrays) > 1:
        raise NotImplementedError("the derivative of an update at several integer-array indices")
    view, shape, dim, array_axis = [], [], 0, None
    for item in spec:
        tag = item[0]
        if tag == "ellipsis":
            continue
        if tag == "none":
            shape.append(1)
            continue
        n = x.shape[dim]
        if tag == "int":
            view.append((item[1] % n, 1, 1))
        elif tag == "slice":
            start, stop, step = slice(item[1], item[2], item[3]).indices(n)
            view.append((start, step, len(range(start, stop, step))))
            shape.append(view[-1][2])
        else:
            view.append((0, 1, n))
            array_axis = len(shape)
            shape.append(n)
        dim += 1
    view += [(0, 1, n) for n in x.shape[dim:]]
    shape += list(x.shape[dim:])
    out = reshape(slice_(x, tuple(view)), tuple(shape))
    if array_axis is not None:
        out = take(out, index_nodes[0], array_axis)
        advanced = [i for i, item in enumerate(spec) if item[0] in ("int", "array")]
        if advanced != list(range(advanced[0], advanced[-1] + 1)) and array_axis:
            # NumPy puts the index's dims first when a slice or None separates advanced indices
            k = index_nodes[0].ndim
            moved = list(range(array_axis, array_axis + k))
            out = permute(out, moved + [a for a in range(out.ndim) if a not in moved])
    return out


# --- summing cotangents ----------------------------------------------------------------------------
def total(parts: Sequence[Node]) -> Node:
    """The sum of one node's cotangent contributions. Slices of one axis (an LSTM's four gates cut
    from one matmul) each contribute g written into zeros; disjoint ones merge into one concat of
    their g's (and zero gaps) instead of one scatter and one add per slice."""
    by_axis: dict[int, list] = {}
    rest = []
    for p in parts:
        pad = _padding(p)
        if pad is None:
            rest.append(p)
        else:
            by_axis.setdefault(pad[0], []).append(pad)
    for axis, pads in by_axis.items():
        merged = _concat_pads(parts[0].shape, axis, sorted(pads, key=lambda t: t[1]))
        rest.extend(merged if isinstance(merged, list) else [merged])
    out = rest[0]
    for p in rest[1:]:
        out = add(out, p)
    return out


def _padding(n: Node) -> tuple[int, int, int, Node, Node] | None:
    """(axis, start, length, g, n) if n writes g into zeros at a step-1 range of one axis."""
    if n.op is not _op("scatter") or n.attrs[0] != "set" or len(n.inputs) != 2:
        return None
    base = n.inputs[0]
    if not (base.op is _op("broadcast_to") and base.inputs[0].op is _op("scalar")
            and base.inputs[0].data == 0):
        return None
    cut = []
    for dim, (tag, start, stop, step) in enumerate(n.attrs[1]):
        lo, hi, stride = slice(start, stop, step).indices(n.shape[dim])
        if (lo, hi, stride) != (0, n.shape[dim], 1):
            cut.append((dim, lo, hi - lo, stride))
    if len(cut) != 1 or cut[0][3] != 1 or tag != "slice":
        return None
    dim, lo, length, _ = cut[0]
    return dim, lo, length, n.inputs[1], n


def _concat_pads(shape: tuple[int, ...], axis: int, pads: list) -> Node | list[Node]:
    if len(pads) < 2 or any(a[1] + a[2] > b[1] for a, b in pairwise(pads)):
        return [p[4] for p in pads]  # one slice, or overlapping slices: keep the scatters
    pieces, at = [], 0
    for _, lo, length, g, _ in pads:
        if lo > at:
            pieces.append(zeros(shape[:axis] + (lo - at,) + shape[axis + 1:], g.dtype))
        pieces.append(g)
        at = lo + length
    if at < shape[axis]:
        pieces.append(zeros(shape[:axis] + (shape[axis] - at,) + shape[axis + 1:], g.dtype))
    return node("concat", tuple(pieces), (axis,), shape, g.dtype)
