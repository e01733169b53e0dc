"""Computed results in NumPy's memory order: what a later reduction of them folds along.

NumPy allocates a ufunc's result in its operands' memory order (order='K'): `P = A.T * 2` is
Fortran-ordered when A is C-ordered, `np.asarray(P).flags.f_contiguous` is True, and `P.sum(1)`
folds along P's memory, pairwise, where a C-ordered P adds row after row (a last bit off on most
sums). A pending Array has no layout (passes/numpy_layout.py replays NumPy's within one graph),
but a computed one is a buffer: written in C order, every later graph read it as a C-ordered
value (a held intermediate, a root the user evaluated, a `la.eval` output, a cut's output).

So an output whose NumPy layout is not C order is computed as the C-ordered value of its axes
in memory order (a permute of it), and the Array is rebound to a permute view of that buffer,
as lazyarray/creation.py holds a Fortran-ordered input: later graphs see NumPy's strides, and
`np.asarray` hands out NumPy's (Fortran-ordered) view. The layout is structural (ops, attrs,
shapes), so it is worked out once per structural key: a cached evaluation pays a dict lookup
per output.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from .graph import get_op
from .graph.node import Node, build_node as _build_node, cuts_paused
from .passes.numpy_layout import memory_order

_PERMUTE, _RESHAPE = get_op("permute"), get_op("reshape")
_INPUT = get_op("input")
_UNSEEN = object()


def build_node(*fields: Any) -> Node:
    """graph.node's build_node without the pending-node budget: these nodes are built while an
    evaluation (maybe a cut's own) binds its results, where a cut would evaluate again."""
    with cuts_paused():
        return _build_node(*fields)


# structural key -> the output's axes in NumPy's memory order, outermost first (None: C order).
# Keys are never reused (graph/node.py), so a stale entry is only memory: bounded.
_AXES: dict[int, tuple[int, ...] | None] = {}
MAX_ENTRIES = 4096


def result_axes(node: Node) -> tuple[int, ...] | None:
    """The axes of `node`'s value in NumPy's memory order where that is not C order, else
    None (memoized by structural key)."""
    axes = _AXES.get(node.key, _UNSEEN)
    if axes is _UNSEEN:
        if len(_AXES) >= MAX_ENTRIES:
            _AXES.clear()
        axes = _AXES[node.key] = _find_axes(node)
    return axes  # type: ignore[return-value]


def _find_axes(node: Node) -> tuple[int, ...] | None:
    """passes/numpy_layout.py's memory order of the value; None for C order (length-1 axes
    have no say) and for leaves, whose buffers are C-ordered already."""
    if len(node.shape) < 2 or not node.inputs or 0 in node.shape:
        return None
    axes = memory_order(node)
    moved = [d for d in axes if node.shape[d] > 1]
    return None if moved == sorted(moved) else tuple(axes)


def computed(node: Node, axes: tuple[int, ...]) -> Node:
    """What the plan computes for output `node`: its value with the axes in memory order, a
    C-ordered buffer of the permuted shape."""
    shape = tuple(node.shape[a] for a in axes)
    return build_node(_PERMUTE, (node,), (axes,), shape, node.dtype, None, node.site)


def bound(node: Node, axes: tuple[int, ...], buffer: object, attrs: tuple = ()) -> Node:
    """The node an Array of `node` holds once `computed(node, axes)` ran into `buffer`: a
    permute view of the buffer's leaf with NumPy's strides (creation.py's `_in_memory_order`).
    `attrs`: the leaf's mark (eager.py's for its results)."""
    shape = tuple(node.shape[a] for a in axes)
    leaf = build_node(_INPUT, (), attrs, shape, node.dtype, buffer, node.site)
    inverse = tuple(axes.index(d) for d in range(len(axes)))
    return build_node(_PERMUTE, (leaf,), (inverse,), node.shape, node.dtype, None, node.site)



def written_into(value: Node, target: Node, view_value: Callable[[Node], Any]) -> Node:
    """`value` as the new value of a handle whose value was `target`, written whole (`x[...] =
    v`, a ufunc's `out=`): NumPy copies v into x's memory, so the result keeps x's layout, not
    v's (`out[...] = A.T * 2` stays C-ordered). Where the two differ: a view of a computed
    buffer (`view_value`: eager.py's NumPy view of it, else None) is copied now in x's order,
    as NumPy's write does (a view would stay one); a pending value goes through a reshape to
    its own shape (a C-ordered copy for passes/numpy_layout.py; the passes drop it) and, for a
    target in another order, the permutes that lay it out in that order."""
    want, have = result_axes(target), result_axes(value)
    if want == have:
        return value
    view = view_value(value) if value.inputs and value.op.write_back is not None else None
    if view is not None:
        if want is None:
            return build_node(_INPUT, (), (), value.shape, value.dtype, np.array(view, order="C"),
                              value.site)
        return bound(value, want, np.array(view.transpose(want), order="C"))
    if want is None:
        return _c_ordered(value)
    inverse = tuple(want.index(d) for d in range(len(want)))
    moved = _c_ordered(computed(value, want))
    return build_node(_PERMUTE, (moved,), (inverse,), value.shape, value.dtype, None, value.site)


def c_ordered_copy(value: Node) -> Node:
    """A copy of `value` that NumPy lays out in C order (`np.ascontiguousarray(B)`,
    `np.asarray(B, order='C')` of a strided or Fortran-ordered root B): a new root of the view's
    own node kept B's layout, so its `reshape(-1)` was a copy where NumPy's is a view, and its
    reductions folded along B's memory (fuzz53). A leaf is C-ordered already."""
    return _c_ordered(value) if value.inputs else value


def _c_ordered(value: Node) -> Node:
    return build_node(_RESHAPE, (value,), (value.shape,), value.shape, value.dtype, None,
                      value.site)

def memory_axes(obj: np.ndarray) -> tuple[int, ...] | None:
    """The axes of a NumPy array in the order its memory runs, outermost first, where that is not
    C order (a Fortran-ordered array, pandas' `to_numpy()` of a float frame, a transposed view);
    None for C order. NumPy reduces such an array along its memory (and its copies keep the
    order), so lazyarray holds it as a view of a C-ordered leaf in that order: the planner then
    folds its reductions as NumPy does (passes/numpy_layout.py). Stable on ties (length-1 axes)."""
    if obj.ndim < 2 or obj.flags.c_contiguous:
        return None
    strides, shape = obj.strides, obj.shape
    axes = tuple(sorted(range(obj.ndim), key=lambda d: -abs(strides[d]) if shape[d] > 1 else 0))
    moved = [d for d in axes if shape[d] > 1]
    return None if moved == sorted(moved) else axes


def strided_layout(obj: np.ndarray) -> tuple[tuple[int, ...], tuple[tuple[int, int, int], ...]] | None:
    """For a non-contiguous ndarray whose axes run in C order (a slice, `x[:, ::2]`, `x[::-1]`):
    the shape of a C-contiguous leaf and the slice of it (start, step, length per axis) whose
    view has `obj`'s contiguity, None for a contiguous array or another order. NumPy's
    `np.asarray(x)` is `x` itself, and whether its `ravel()`/`reshape()` are views or copies
    follows from which adjacent axes merge (stride[a] == shape[b] * stride[b]) and whether the
    last one is unit-stride: a copy held C-contiguous made `A.ravel()` a view of `A` where
    NumPy's is a copy, so writes to it changed `A` (fuzz52, seed 2201552). A leaf padded by one
    along each axis that does not merge with the one before it (two-fold along a strided last
    axis), sliced back, merges the same axes. Signs follow the strides' (a flipped axis)."""
    if obj.ndim == 0 or obj.size == 0 or obj.flags.c_contiguous:
        return None
    shape, strides = obj.shape, obj.strides
    axes = [d for d in range(obj.ndim) if shape[d] > 1]
    if not axes or any(abs(strides[a]) < abs(strides[b]) for a, b in zip(axes, axes[1:])):
        return None
    leaf = list(shape)
    step = [1] * obj.ndim
    last = axes[-1]
    if abs(strides[last]) != obj.itemsize:
        step[last] = 2
        leaf[last] = 2 * shape[last]
    for a, b in zip(axes, axes[1:]):
        if strides[a] != shape[b] * strides[b]:
            leaf[b] += 1
    spec = tuple((0, step[d], shape[d]) if strides[d] >= 0 or shape[d] == 1
                 else (leaf[d] - 1, -step[d], shape[d]) for d in range(obj.ndim))
    return tuple(leaf), spec


def fill_strided(data: np.ndarray, leaf: tuple[int, ...],
                 spec: tuple[tuple[int, int, int], ...]) -> np.ndarray:
    """The C-contiguous leaf of `strided_layout`, holding `data` where its slice reads."""
    out = np.zeros(leaf, data.dtype)
    out[tuple(slice(start, (start + step * n) if start + step * n >= 0 else None, step)
              for start, step, n in spec)] = data
    return out
