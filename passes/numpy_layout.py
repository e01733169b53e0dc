"""NumPy's memory order of a value: the order in which NumPy folds a reduction of it.

NumPy iterates a reduction's operand in memory order (nditer's best axis ordering: axes by
decreasing |stride|, C order where strides tie, are 0 or disagree between operands), and its
ufuncs allocate their results in their operands' order (order='K'). So `x.T.sum(axis=0)` and
`(x.T * w).sum(axis=0)` sum each output's values pairwise along memory (NumPy's inner loop is
the reduced axis), where reading the transposed value in C order adds them row after row: a last
bit off. An Array has no memory layout; `memory_order` replays NumPy's from the graph: leaves
and library results C-contiguous, views carry strides (permute, slice steps, broadcast zeros),
elementwise results take their operands' best order, and so do the library ops NumPy allocates
in their operands' order (OpDefs with the property `OPERAND_ORDER`: the scans, sort, partition,
the FFTs, concatenate); anything else is C order again.
"""

from __future__ import annotations

import numpy as np

from ..graph import Node, OpKind, get_op
from ..graph.registry import OPERAND_ORDER

_BROADCAST, _PERMUTE, _SLICE = (get_op(n) for n in ("broadcast_to", "permute", "slice"))
_SCALAR = get_op("scalar")  # a Python scalar operand, held at its op's shape: stride 0 in NumPy
_CONTIGUOUS = get_op("contiguous")  # NumPy's C-ordered copy of a value
# A write into a value (`A[0] *= 2`, `A[::2] = v`): NumPy writes in place, so the result keeps
# its destination's layout (a Fortran-ordered root stays one: its later ravel a copy; fuzz53)
_SCATTER = get_op("scatter")
MAX_NODES = 256  # a longer elementwise history is read as C order (NumPy's would be too, mostly)


def c_strides(shape: tuple[int, ...]) -> tuple[int, ...]:
    out, step = [], 1
    for n in reversed(shape):
        out.append(step)
        step *= max(n, 1)
    return tuple(reversed(out))


def best_axis_order(strides: list[tuple[int, ...]], shape: tuple[int, ...]) -> tuple[int, ...]:
    """nditer's best axis ordering (nditer_constr.c), outermost axis first: a stable insertion
    sort from the innermost axis, an axis moving outward past another only where some operand
    strides it more and none less (a length-1 axis, stride 0: no say; conflicts: C order)."""
    ops = [tuple(0 if n == 1 else s for s, n in zip(st, shape)) for st in strides]
    perm = list(range(len(shape)))[::-1]  # innermost first, as NumPy's reversed axis data
    for i0 in range(1, len(perm)):
        j0, ipos = perm[i0], i0
        for i1 in range(i0 - 1, -1, -1):
            j1, ambiguous, swap = perm[i1], True, False
            for st in ops:
                if st[j0] != 0 and st[j1] != 0:
                    if abs(st[j1]) <= abs(st[j0]):
                        swap = False
                    elif ambiguous:
                        swap = True
                    ambiguous = False
            if ambiguous:
                continue
            if not swap:
                break
            ipos = i1
        perm.insert(ipos, perm.pop(i0))
    return tuple(reversed(perm))


def _view_strides(n: Node, inner: tuple[int, ...]) -> tuple[int, ...]:
    """The strides of view `n` of a value with strides `inner`."""
    if n.op is _PERMUTE:
        return tuple(inner[a] for a in n.attrs[0])
    if n.op is _SLICE:
        return tuple(s * step for s, (_, step, _) in zip(inner, n.attrs[0]))
    if n.op is _BROADCAST:
        src = n.inputs[0].shape
        pad = len(n.shape) - len(src)
        return tuple(0 if d < pad or src[d - pad] != n.shape[d] else inner[d - pad]
                     for d in range(len(n.shape)))
    return _reshaped_strides(inner, n.inputs[0].shape, n.shape)


def _reshaped_strides(inner: tuple[int, ...], shape: tuple[int, ...],
                      new: tuple[int, ...]) -> tuple[int, ...]:
    """NumPy's reshape: a view with these strides where the memory allows one (`P[..., None]`,
    `expand_dims`, `squeeze` of a Fortran-ordered P keep its order), else a C-ordered copy."""
    if 0 in shape or any(s < 0 for s in inner):
        return c_strides(new)
    stand_in = np.lib.stride_tricks.as_strided(np.zeros(1), shape, [8 * s for s in inner])
    try:
        view = np.reshape(stand_in, new, copy=False)
    except ValueError:
        return c_strides(new)
    return tuple(s // 8 for s in view.strides)


def _destination_strides(n: Node, strides: tuple[int, ...]) -> tuple[int, ...]:
    """A write's destination: its axes in the order of `strides`, as a contiguous buffer (a
    write into a view of a buffer, lazily: its value is a new buffer in the view's order)."""
    return _in_order(n, best_axis_order([strides], n.shape))


def _elementwise_strides(n: Node, operands: list[tuple[int, ...]]) -> tuple[int, ...]:
    """A ufunc's result in its operands' best order (order='K'), contiguous."""
    padded = [(0,) * (n.ndim - len(st)) + st for st in operands if len(st) <= n.ndim]
    return _in_order(n, best_axis_order(padded, n.shape))


def _reduced_strides(n: Node, inner: tuple[int, ...]) -> tuple[int, ...]:
    """A ufunc reduction's result: its operand's kept axes in the operand's order (NumPy's
    `x.sum(axis=2)` of a Fortran-ordered x is Fortran-ordered: its ravel a copy, its own sums
    along that memory; fuzz53). argmax/argmin (op property "index") are C order, as NumPy's."""
    axes, keepdims = n.attrs
    order = best_axis_order([inner], n.inputs[0].shape)
    if keepdims:
        return _in_order(n, order)
    kept = [d - sum(a < d for a in axes) for d in order if d not in axes]
    return _in_order(n, tuple(kept))


def _in_order(n: Node, order: tuple[int, ...]) -> tuple[int, ...]:
    out, step = [0] * n.ndim, 1
    for d in reversed(order):
        out[d] = step
        step *= max(n.shape[d], 1)
    return tuple(out)


def strides_of(node: Node, constants_held: bool = False) -> tuple[int, ...]:
    """NumPy's strides (in elements) for the value of `node`, as far as the graph tells them.
    `constants_held`: the traced graph (lazyarray/result_layout.py, before passes/scalars.py
    spells Python scalars as broadcasts of 0-d ones), where broadcast_to of a 0-d scalar is a
    created constant, `zeros(s)`, `full(s, v)`: a C-contiguous buffer in NumPy, so that
    `zeros(s).T * 2` is Fortran-ordered and its ravel a copy (it was taken as C: a write into
    the ravel reached it). A 0-d created constant broadcast as an operand (`x.T + zeros(())`)
    is taken as such a buffer too (NumPy's stride 0: the result's order may differ)."""
    memo: dict[int, tuple[int, ...]] = {}
    stack, seen = [(node, False)], 0
    while stack:
        n, ready = stack.pop()
        if id(n) in memo:
            continue
        follows = n.inputs and (n.op.kind in (OpKind.VIEW, OpKind.ELEMENTWISE)
                                or OPERAND_ORDER in n.op.properties or (
            n.op.kind is OpKind.REDUCTION and "index" not in n.op.properties))
        if n.op is _SCALAR:
            memo[id(n)] = (0,) * len(n.shape)
            continue
        if n.op is _CONTIGUOUS or constants_held and n.op is _BROADCAST \
                and n.inputs[0].op is _SCALAR and not n.inputs[0].shape:
            memo[id(n)] = c_strides(n.shape)
            continue
        if n.op is _SCATTER and seen <= MAX_NODES and n.shape == n.inputs[0].shape:
            if not ready:
                seen += 1
                stack.append((n, True))
                stack.append((n.inputs[0], False))
                continue
            memo[id(n)] = _destination_strides(n, memo[id(n.inputs[0])])
            continue
        if not follows or seen > MAX_NODES:
            memo[id(n)] = c_strides(n.shape)
            continue
        args = n.inputs[:1] if n.op.kind is OpKind.VIEW else n.inputs
        if not ready:
            seen += 1
            stack.append((n, True))
            stack.extend((a, False) for a in args if id(a) not in memo)
            continue
        inner = [memo[id(a)] for a in args]
        memo[id(n)] = (_view_strides(n, inner[0]) if n.op.kind is OpKind.VIEW
                       else _reduced_strides(n, inner[0]) if n.op.kind is OpKind.REDUCTION
                       else _elementwise_strides(n, inner))
    return memo[id(node)]


def memory_order(node: Node, constants_held: bool = False) -> tuple[int, ...]:
    """The axes of `node`'s value as NumPy iterates them in a reduction, outermost first."""
    return best_axis_order([strides_of(node, constants_held)], node.shape)
