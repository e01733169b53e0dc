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

_PERMUTE, _SLICE, _CONTIGUOUS = get_op("permute"), get_op("slice"), get_op("contiguous")
_INPUT, _SCALAR, _BROADCAST = get_op("input"), get_op("scalar"), get_op("broadcast_to")
_UNSEEN = object()


def build_node(*fields: Any) -> Node:
    """graph.node's build_node without the pending-node budget: these nodes are built while an
    evaluation (maybe a cut's own) binds its results, where a cut would evaluate again."""
    with cuts_paused():
        return _build_node(*fields)


# structural key -> the output's axes in NumPy's memory order, outermost first (None: C order).
# Keys are never reused (graph/node.py), so a stale entry is only memory: bounded.
_AXES: dict[int, tuple[int, ...] | None] = {}
# eager.view_value (NumPy's view of a chain of views over a computed buffer, else None), set by
# lazyarray/eager.py, which imports this module
VIEW_VALUE: list = [lambda node: None]
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
    axes = memory_order(node, constants_held=True)
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
    `contiguous` (NumPy's C-ordered copy) and, for a
    target in another order, the permutes that lay it out in that order."""
    want, have = result_axes(target), result_axes(value)
    if want == have and not _strided_into_c(value, target, want):
        return value
    view = view_value(value) if value.inputs and value.op.write_back is not None else None
    if view is not None:
        if want is None:
            return build_node(_INPUT, (), (), value.shape, value.dtype, np.array(view, order="C"),
                              value.site)
        return bound(value, want, np.array(view.transpose(want), order="C"))
    return _c_ordered(value) if want is None else laid_out(value, want)


def _strided_into_c(value: Node, target: Node, want: tuple[int, ...] | None) -> bool:
    """Whether `value` is a view whose NumPy layout is strided (`t[::-1]`: a negative step)
    written whole into a C-ordered `target`: the axes agree (one axis), but as a root's value the
    view stood for strided memory, so `t.ravel()` after `t[...] = t[::-1]` was a copy and its
    writes never reached t (fuzz55's seed 86)."""
    return want is None and (value.op is _SLICE or value.op is _PERMUTE) \
        and root_is_c_contiguous(target) and not root_is_c_contiguous(value)


def _c_ordered(value: Node) -> Node:
    """NumPy's C-ordered copy of `value` (graph/ops_elementwise.py `contiguous`)."""
    return build_node(_CONTIGUOUS, (value,), (), value.shape, value.dtype, None, value.site)

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


def _c_stand_in(shape: tuple[int, ...], dtype: np.dtype) -> np.ndarray:
    return np.lib.stride_tricks.as_strided(np.zeros(1, dtype), shape, c_strides(shape, dtype),
                                           writeable=False)


def c_strides(shape: tuple[int, ...], dtype: np.dtype) -> tuple[int, ...]:
    """NumPy's strides for a new C-ordered array: all 0 where it has no elements (NumPy 2
    allocates an empty array so: `np.ones((0, 3)).strides` is (0, 0), its `.T`'s too)."""
    if 0 in shape:
        return (0,) * len(shape)
    strides, step = [], dtype.itemsize
    for n in reversed(shape):
        strides.append(step)
        step *= n
    return tuple(reversed(strides))


def root_layout(root_node: Node) -> np.ndarray:
    """A stand-in with NumPy's layout of a root's own value: C order, except a view of a leaf
    that lazyarray/creation.py holds in an input's layout (a Fortran-ordered or transposed
    array: a permute; a strided one: a slice) and a value NumPy lays out in its operands'
    order (`A.T * 2`: result_layout.result_axes). Its `ravel()`, `reshape()` and
    `asarray(order=)` are views or copies as NumPy's: every root was taken as C-contiguous,
    so `A.ravel()` of such an A was a view whose writes changed A (fuzz52, seed 2201552)."""
    views, n = [], root_node
    while n.op is _PERMUTE or n.op is _SLICE:
        views.append(n)
        n = n.inputs[0]
    axes = result_axes(n) if n.inputs else None
    if axes is None:
        layout = _c_stand_in(n.shape, n.dtype)
    else:
        moved = _c_stand_in(tuple(n.shape[d] for d in axes), n.dtype)
        layout = np.transpose(moved, [axes.index(d) for d in range(len(axes))])
    for node in reversed(views):  # (a slice's run-time starts: its other inputs)
        layout = node.op.reference((layout, *[i.data for i in node.inputs[1:]]), node.attrs,
                                   node.dtype)
    return layout


def copied(node: Node, order: str) -> Node:
    """`node`'s value laid out as NumPy's copy of it in `order` ('C', 'F', 'A': F where the source
    is Fortran- and not C-contiguous, 'K': the source's memory order, contiguous). A copy was a
    new handle on the node, so it kept the source's layout: `A.T.copy()` (C-contiguous in NumPy)
    stayed Fortran-ordered, its sums folded down the columns and its `ravel()` was a copy, and
    `np.copy(A[:, ::2])` stayed strided (its ravel's writes never reached it). Where the layouts
    already agree (a C-ordered value's C copy: every leaf, most results) the node itself."""
    ndim = len(node.shape)
    if ndim == 0 or (not node.inputs and order != "F"):
        return node
    if node.op is _BROADCAST and order == "K":
        axes = broadcast_copy_axes(node)
        return node if axes is None else laid_out(node, axes)
    if node.op is not _PERMUTE and node.op is not _SLICE and order != "F":
        if result_axes(node) is None:  # (memoized: a loop's `x.copy()` pays a dict lookup)
            return node
    view, layout = _numpy_layout(node)
    flags = layout.flags
    if order == "A":
        order = "F" if flags.f_contiguous and not flags.c_contiguous else "C"
    if order == "C" or (order == "K" and flags.c_contiguous):
        return node if flags.c_contiguous else laid_out(node, tuple(range(ndim)), view)
    if order == "F" or flags.f_contiguous:
        return node if flags.f_contiguous else laid_out(node, tuple(range(ndim))[::-1], view)
    axes = memory_axes(layout) or tuple(range(ndim))
    return node if np.transpose(layout, axes).flags.c_contiguous else laid_out(node, axes, view)


def broadcast_copy_axes(node: Node) -> tuple[int, ...] | None:
    """The memory order of NumPy's K-order copy of the broadcast `node` (None: C order). NumPy
    sorts the axes by stride, a broadcast axis's 0 last: `np.copy(np.broadcast_to(row, (3, 4)))`
    is Fortran-ordered, so its `ravel()` is a copy; here it was C-ordered and writes through the
    ravel changed it (fuzz54's left class, seen by fuzz55)."""
    source = node.inputs[0]
    if not source.shape:  # a fill (`zeros`, `full`): every stride 0, C order
        return None
    base = _numpy_layout(source)[1] if source.inputs else _c_stand_in(source.shape, source.dtype)
    try:
        stand_in = np.broadcast_to(base, node.shape)
    except ValueError:
        return None
    return memory_axes(np.empty_like(stand_in, order="K"))


def laid_out(node: Node, axes: tuple[int, ...], view: np.ndarray | None = None) -> Node:
    """`node`'s value in a buffer whose memory runs along `axes` (outermost first). A view of a
    computed buffer is copied now, as NumPy's copy (its evaluation would hand out NumPy's view of
    the buffer, in the buffer's layout); a pending value goes through `contiguous` (NumPy's
    C-ordered copy) with the permutes around it that lay that copy out along `axes`."""
    if view is None and (not node.inputs or node.op.write_back is not None):
        view = VIEW_VALUE[0](node)
    if view is None and node.op is _BROADCAST and node.inputs[0].op is _SCALAR:
        view = np.broadcast_to(np.asarray(node.inputs[0].data, node.dtype), node.shape)  # a fill
    if view is not None:
        if axes == tuple(range(len(axes))):
            return build_node(_INPUT, (), (), node.shape, node.dtype, np.array(view, order="C"),
                              node.site)
        return bound(node, axes, np.array(view.transpose(axes), order="C"))
    if axes == tuple(range(len(axes))):
        return _c_ordered(node)
    inverse = tuple(axes.index(d) for d in range(len(axes)))
    moved = _c_ordered(computed(node, axes))
    return build_node(_PERMUTE, (moved,), (inverse,), node.shape, node.dtype, None, node.site)


def node_memory_axes(node: Node) -> tuple[int, ...] | None:
    """The axes of a root's value in NumPy's memory order where that is not C order (a leaf's
    and most results' is: no stand-in built for them)."""
    if not node.inputs:
        return None
    if node.op is not _PERMUTE and node.op is not _SLICE:
        return result_axes(node)
    return memory_axes(root_layout(node))


def root_is_c_contiguous(node: Node) -> bool:
    """Whether NumPy's layout of a root's value is C-contiguous: `root_layout`'s answer without
    its stand-in (~4 us) for a leaf and for a result whose memory order is C (memoized), which is
    most of them (a loop's `h.reshape(b, -1)` of a computed h asks this every time)."""
    if not node.inputs:
        return True
    if node.op is not _PERMUTE and node.op is not _SLICE:
        return result_axes(node) is None
    return bool(root_layout(node).flags.c_contiguous)


def _numpy_layout(node: Node) -> tuple[np.ndarray | None, np.ndarray]:
    """NumPy's view of a view of a computed buffer (~0.3 us in C; None for anything else) and
    an ndarray with NumPy's layout of the value: that view, else `root_layout`'s stand-in."""
    view = VIEW_VALUE[0](node)
    return view, (root_layout(node) if view is None else view)


def fortran_contiguous(node: Node) -> bool:
    """Whether NumPy's layout of a root's value is Fortran-contiguous (`order='A'` asks)."""
    if sum(n > 1 for n in node.shape) <= 1:
        return True
    return bool(node.inputs) and bool(_numpy_layout(node)[1].flags.f_contiguous)
