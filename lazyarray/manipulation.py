"""Shape functions. Views (reshape, permute, slice, broadcast) are index arithmetic, never copies;
concat is a library call."""

from __future__ import annotations

import operator
from typing import Any, Sequence

import numpy as np

from . import _axis_args, _bind
from ._reshape import _shape_arg, reshape_node  # noqa: F401  (reshape_node: also the API modules')
from .array import Array
from .graph import SUPPORTED as _SUPPORTED, dtypes, get_op
from .graph.node import Node, user_site
from ._bind import as_node as _as_node
from .writes import numpy_layout, ravels_in_place, released, reshapes_in_place, view_of
from .eager import LIMIT as _EAGER_LIMIT, buffer as _eager_buffer, value_now as _eager_value_now
from ._layout import check_casting, check_order
from .result_layout import copied, memory_axes

_FLIP_VIEW = getattr(_bind.FAST, "flip_view", None)  # lazyarray/_trace.c: x[::-1, ...], a view

_RESHAPE, _PERMUTE, _SLICE, _CONCAT = (get_op(n) for n in ("reshape", "permute", "slice", "concat"))
_INPUT = get_op("input")


def memory_order(order: Any, site: Any, reshaping: bool = False, x: Any = None) -> Any:
    """NumPy's `order` argument of reshape/ravel/flatten: 'C' or 'F' (None is 'C'); 'A' is 'F'
    where `x` is Fortran- and not C-contiguous, else 'C'; 'K' (not for reshaping) is 'C' or 'F'
    where x is contiguous so, else the axes by memory order (`keep_order`)."""
    key = check_order(order, site)
    if key == "K" and reshaping:
        raise _bind.fail(ValueError, "order 'K' is not permitted for reshaping", site)
    if key in ("A", "K"):
        layout = _layout_of(x)
        if layout is None or layout.flags.c_contiguous:
            return "C"
        if layout.flags.f_contiguous:
            return "F"
        return "C" if key == "A" else keep_order(layout.shape, layout.strides)
    return key


def _layout_of(x: Any) -> np.ndarray | None:
    """A stand-in with NumPy's strides for x (writes.numpy_layout), None where NumPy's is
    C-contiguous (a copy)."""
    if type(x) is Array:
        return numpy_layout(x)
    return x if isinstance(x, np.ndarray) else None


def keep_order(shape: Sequence[int], strides: Sequence[int]) -> tuple[int, ...]:
    """NumPy's order 'K' of a non-contiguous array, slowest axis first: the order its flat copy
    (PyArray_CopyAsFlat's nditer, npyiter_find_best_axis_ordering) reads it in. An insertion
    sort, fastest first, by absolute stride; a zero stride (a broadcast or length-1 axis) is
    ambiguous and moves nothing (`np.broadcast_to(a[:, :1], s).ravel('K')` reads in C order); a
    negative stride's axis keeps its direction."""
    def stride(axis: int) -> int:
        return 0 if shape[axis] == 1 else abs(strides[axis])

    perm = list(range(len(shape)))[::-1]  # fastest first
    for i0 in range(1, len(perm)):
        s0, at = stride(perm[i0]), i0
        for i1 in range(i0 - 1, -1, -1):
            s1 = stride(perm[i1])
            if s0 and s1:
                if s1 <= s0:
                    break
                at = i1
        perm.insert(at, perm.pop(i0))
    return tuple(perm[::-1])


def _of_scalar(a: Any, out: Array) -> Array:
    """NumPy's squeeze/transpose/reshape/moveaxis call their input's own method: a NumPy
    scalar's 0-d result is that scalar's kind (`np.squeeze(np.float64(1))` is np.float64; a 0-d
    array here, fuzz57), where expand_dims and broadcast_to take the 0-d array of it."""
    if isinstance(a, np.generic) and not out.ndim:
        out._view = False
    return out


def reshape(a: Any, /, shape: Any, order: str = "C", *, copy: bool | None = None) -> Array:
    """numpy.reshape / Array API `reshape`: a view; `copy` is accepted and ignored (immutable).
    order='F' reshapes the reversed axes (NumPy's definition), a view where NumPy's is one."""
    site = user_site(1)
    if order != "C" and memory_order(order, site, reshaping=True, x=a) == "F":
        dims = (shape,) if isinstance(shape, int) else tuple(shape)
        return transpose(reshape(transpose(a), dims[::-1]))
    node = a._node if type(a) is Array else _as_node(a, site)
    out = Array(reshape_node(node, shape, site))
    if type(a) is Array and reshapes_in_place(a, out.shape):  # NumPy's view, else its copy
        return view_of(a, out, lambda n: reshape_node(n, out.shape, site))
    released.add(out, node.shape)  # (NumPy's is a view of its copy, of a's shape: OWNDATA False)
    return _of_scalar(a, out)


def permute_node(node: Node, axes: Sequence[int], site: _bind.Site) -> Node:
    """One loop, no generator or comprehension frames (~0.3 us each on Python 3.11): loops call
    this for every transpose."""
    shape, ndim = node.shape, len(node.shape)
    ints, norm, out = [], [], []
    for a in axes:
        a = int(a)
        ints.append(a)
        a = a + ndim if a < 0 else a
        norm.append(a)
        if 0 <= a < ndim:
            out.append(shape[a])
    if sorted(norm) != list(range(ndim)):
        raise _permute_error(ints, ndim, site)
    norm = tuple(norm)
    if norm == tuple(range(ndim)):
        return node
    return _bind.primitive(_PERMUTE, (node,), (norm,), tuple(out), node.dtype, site)


def _permute_error(axes: list[int], ndim: int, site: _bind.Site) -> Exception:
    """NumPy's transpose errors, in its order: the count, an axis out of range, a repeat."""
    if len(axes) != ndim:
        return _bind.fail(ValueError, "axes don't match array", site)
    for a in axes:
        _bind.normalize_axis(a, ndim, site)  # NumPy's AxisError
    return _bind.fail(ValueError, "repeated axis in transpose", site)


def permute_dims(a: Any, axes: Sequence[int] | None = None) -> Array:
    """Array API `permute_dims` (numpy.permute_dims): a view; no axes reverse them, as NumPy's
    (its `axes=None`, transpose's alias there)."""
    site = user_site(1)
    node = _as_node(a, site)
    axes = tuple(range(node.ndim - 1, -1, -1)) if axes is None else axes
    return _of_scalar(a, view_of(a, Array(permute_node(node, axes, site)),
                                 lambda n: permute_node(n, axes, site)))


def transpose(a: Any, axes: Sequence[int] | None = None) -> Array:
    """numpy.transpose: reverses (or permutes by `axes`) the dimensions, as a view."""
    site = user_site(1)
    node = _as_node(a, site)
    if hasattr(axes, "__index__") and not hasattr(axes, "__len__"):
        axes = (axes,)  # (NumPy reads one int as a 1-tuple: a 1-D array's `axes=0`; fuzz56)
    axes = tuple(axes) if axes is not None else tuple(range(node.ndim - 1, -1, -1))
    return _of_scalar(a, view_of(a, Array(permute_node(node, axes, site)),
                                 lambda n: permute_node(n, axes, site)))


def matrix_transpose(x: Any) -> Array:
    """Array API `matrix_transpose` (numpy.matrix_transpose): swaps the last two axes."""
    site = user_site(1)
    node = _as_node(x, site)
    if node.ndim < 2:
        raise _bind.fail(ValueError, "Input array must be at least 2-dimensional, but it is "
                         f"{node.ndim}", site)  # (NumPy's text)
    axes = list(range(node.ndim))
    axes[-1], axes[-2] = axes[-2], axes[-1]
    return view_of(x, Array(permute_node(node, axes, site)), lambda n: permute_node(n, axes, site))


def swapaxes(a: Any, axis1: int, axis2: int) -> Array:
    """numpy.swapaxes: a view."""
    site = user_site(1)
    node = _as_node(a, site)
    i1 = _bind.normalize_axis(axis1, node.ndim, site, "axis1")
    i2 = _bind.normalize_axis(axis2, node.ndim, site, "axis2")
    axes = list(range(node.ndim))
    axes[i1], axes[i2] = axes[i2], axes[i1]
    return view_of(a, Array(permute_node(node, axes, site)), lambda n: permute_node(n, axes, site))


def moveaxis(a: Any, source: Any, destination: Any) -> Array:
    """numpy.moveaxis / Array API `moveaxis`: move axes to new positions (ints or sequences of ints, as NumPy)."""
    site = user_site(1)
    node = _as_node(a, site)
    if source is None or destination is None:  # NumPy's TypeError (normalize_axes reads None
        raise _bind.fail(TypeError, "'NoneType' object is not iterable (moveaxis: source and "
                         "destination are ints or sequences of ints)", site)  # as every axis)
    src = _bind.normalize_axes(source, node.ndim, site, "source", ordered=True)
    dst = _bind.normalize_axes(destination, node.ndim, site, "destination", ordered=True)
    if len(src) != len(dst):
        raise _bind.fail(ValueError, "`source` and `destination` arguments must have the same "
                         "number of elements", site)
    axes = [ax for ax in range(node.ndim) if ax not in src]
    for d, s in sorted(zip(dst, src)):
        axes.insert(d, s)
    return _of_scalar(a, view_of(a, Array(permute_node(node, axes, site)),
                                 lambda n: permute_node(n, axes, site)))


def expand_dims(a: Any, axis: Any = 0) -> Array:
    """numpy.expand_dims / Array API `expand_dims`: a reshape view."""
    site = user_site(1)
    node = _as_node(a, site)
    if axis is None:  # NumPy's TypeError (normalize_axes reads None as every axis)
        raise _bind.fail(TypeError, "expand_dims needs an axis: an int or a tuple of ints, "
                         "not None", site)
    axes = _bind.normalize_axes(axis, node.ndim + (len(axis) if isinstance(axis, tuple) else 1), site)
    shape = list(node.shape)
    for ax in axes:
        shape.insert(ax, 1)
    return view_of(a, Array(reshape_node(node, shape, site)), lambda n: reshape_node(n, shape, site))


def squeeze(a: Any, axis: Any = None) -> Array:
    """numpy.squeeze / Array API `squeeze`: a reshape view."""
    site = user_site(1)
    node = _as_node(a, site)
    if axis is None:
        axes = tuple(i for i, s in enumerate(node.shape) if s == 1)
    elif node.ndim == 0 and type(axis) is not tuple and hasattr(axis, "__index__") and \
            type(axis) is not bool and operator.index(axis) in (0, -1):
        axes = ()  # NumPy's squeeze takes axis 0 or -1 of a 0-d array (an AxisError, fuzz56)
    else:
        if type(axis) is list:  # NumPy's squeeze takes an int or a tuple of ints
            raise _bind.fail(TypeError, "'list' object cannot be interpreted as an integer",
                             site)  # (NumPy's text)
        _axis_args.refuse_bool_axis(axis, site)
        axes = _bind.normalize_axes(axis, node.ndim, site)
        for ax in axes:
            if node.shape[ax] != 1:
                raise _bind.fail(ValueError, "cannot select an axis to squeeze out which has size "
                                 "not equal to one", site)
    shape = [s for i, s in enumerate(node.shape) if i not in axes]
    return _of_scalar(a, view_of(a, Array(reshape_node(node, shape, site)),
                                 lambda n: reshape_node(n, shape, site)))


def ravel(a: Any, order: str = "C") -> Array:
    """numpy.ravel: the flattened array (a view where NumPy's is one, else a copy); order='F'
    column by column, 'A' and 'K' by x's memory layout, as NumPy's."""
    site = user_site(1)
    key = memory_order(order, site, x=a) if order != "C" else "C"
    if type(key) is tuple:  # 'K' of a non-contiguous layout: a view where the axes in memory
        return ravel(transpose(a, key))  # order are contiguous, else a copy read in that order
    if key == "F":
        out = reshape(a, (-1,), order="F")  # (a view where reshape's is one and x's memory is
        if type(a) is Array and out._view is not None and not ravels_in_place(a, "F"):
            return Array(out._node)  # Fortran-contiguous, as NumPy's ravel; else a copy)
        return out
    node = _as_node(a, site)
    out = Array(reshape_node(node, (node.size,), site))
    if type(a) is Array and ravels_in_place(a):
        return view_of(a, out, lambda n: reshape_node(n, (node.size,), site))
    return _c_copy(out)


def _c_copy(out: Array) -> Array:
    """A flattened copy as NumPy's, C-contiguous: a 1-D view's reshape is the view's own node
    (`A[::-1].ravel()`), whose layout a root of it kept, so `np.asarray(L, order='F')` of it
    copied where NumPy's is L itself (fuzz53, seed 3810)."""
    node = out._node
    return Array(copied(node, "C")) if node.op is _SLICE or node.op is _PERMUTE else out


def flatten(x: Any, order: str = "C") -> Array:
    """ndarray.flatten: the flattened array, always a copy (writes to it reach nothing else);
    order='F' column by column, 'A' and 'K' by x's memory layout."""
    site = user_site(1)
    key = memory_order(order, site, x=x) if order != "C" else "C"
    if type(key) is tuple:
        x, key = transpose(x, key), "C"
    if key == "F":
        return Array(reshape(x, (-1,), order="F")._node)
    node = _as_node(x, site)
    return _c_copy(Array(reshape_node(node, (node.size,), site)))


def broadcast_to(array: Any, shape: Any, subok: bool = False) -> Array:
    """numpy.broadcast_to / Array API `broadcast_to`: a view (no copy). `subok` is NumPy's (an
    Array has no subclasses)."""
    site = user_site(1)
    node = _as_node(array, site)
    target = _shape_arg(shape, site)
    ok = len(target) >= node.ndim and all(
        s == t or s == 1 for s, t in zip(node.shape[::-1], target[::-1]))
    if not ok or any(t < 0 for t in target):  # NumPy's text, from a 0-stride stand-in (no memory)
        stand_in = np.broadcast_to(np.zeros((), dtype=bool), node.shape)
        _bind.numpy_broadcast_error(lambda: np.broadcast_to(stand_in, target), site)
        raise _bind.fail(ValueError, f"cannot broadcast an array of shape {node.shape} to shape "
                         f"{target}", site)
    _bind.check_size(target, node.dtype.itemsize, site)
    return view_of(array, Array(_bind.broadcast_to(node, target, site)),
                   lambda n: _bind.broadcast_to(n, target, site), writable=False)  # NumPy's too


def broadcast_arrays(*arrays: Any, subok: bool = False) -> tuple[Array, ...]:
    """numpy.broadcast_arrays / Array API `broadcast_arrays`: a tuple of broadcast views, as
    NumPy's (and the standard's from 2025.12; lazyarray returned 2024.12's list until fuzz49).
    `subok` is NumPy's (an Array has no subclasses)."""
    site = user_site(1)
    if not arrays:  # NumPy's empty tuple (an IndexError here, fuzz56)
        return ()
    nodes = [_as_node(a, site) for a in arrays]
    shape = _bind.public_broadcast_shapes([n.shape for n in nodes], site)
    if all(n.shape == shape for n in nodes):  # NumPy's: the arrays themselves
        return tuple([a if type(a) is Array else Array(n) for a, n in zip(arrays, nodes)])

    def build(node: Node) -> Node:
        return _bind.broadcast_to(node, shape, site)
    # views of the arrays, as NumPy's (fuzz47: they were copies): they follow later writes to
    # them; read-only where broadcast (NumPy's warn, DeprecationWarning, and write overlapping
    # memory), writable where not: NumPy's `y[0] = 5` writes the input (refused here, fuzz56)
    return tuple([view_of(a, Array(build(n)), build, writable=n.shape == shape)
                  for a, n in zip(arrays, nodes)])


def slice_node(node: Node, spec: tuple[tuple[int, int, int], ...], site: _bind.Site) -> Node:
    """`spec`: (start, step, length) per dimension. List comprehensions, not generators: this
    runs for every `x[...]` (an LSTM cell's four gate slices), and the two generator
    expressions it had cost ~0.9 us of a 1.2 us call."""
    shape = tuple([length for _, _, length in spec])
    if shape == node.shape and all([start == 0 and step == 1 for start, step, _ in spec]):
        return node
    return _bind.primitive(_SLICE, (node,), (spec,), shape, node.dtype, site)


def flip(m: Any, axis: Any = None) -> Array:
    """numpy.flip / Array API `flip`: a negative-step slice view."""
    if axis is None and _FLIP_VIEW is not None:  # every axis: x[::-1, ...] through the C getitem
        done = _FLIP_VIEW(m)
        if done is not None:
            return done
    site = user_site(1)
    node = _as_node(m, site)
    axes = _bind.normalize_axes(axis, node.ndim, site)
    if not node.shape:  # NumPy's `m[()]`: a scalar, a copy (`t = np.flip(z); t += 1` keeps z)
        return Array(node)[()]
    spec = tuple((n - 1, -1, n) if i in axes and n > 0 else (0, 1, n)
                 for i, n in enumerate(node.shape))
    return view_of(m, Array(slice_node(node, spec, site)), lambda n: slice_node(n, spec, site))


def _plain_concat(arrays: Sequence[Any], axis: Any, site: _bind.Site) -> Node | None:
    """concat's node for the common call (an LSTM cell's `concat([x, h], axis=1)` every step):
    Arrays of one dtype and rank, an int axis in range, equal sizes off the axis. The general
    path's checks and promotion find nothing to do there; None for anything else, which it
    converts, promotes or reports."""
    if type(axis) is not int or type(arrays) not in (list, tuple) or not arrays:
        return None
    nodes = []
    for a in arrays:
        if type(a) is not Array:
            return None
        nodes.append(a._node)
    first = nodes[0]
    shape, dtype, ndim = first.shape, first.dtype, len(first.shape)
    if not -ndim <= axis < ndim:  # (a 0-d first input: ndim 0, never in range)
        return None
    ax = axis + ndim if axis < 0 else axis
    before, after, total = shape[:ax], shape[ax + 1:], 0
    for n in nodes:
        s = n.shape
        if n.dtype != dtype or len(s) != ndim or s[:ax] != before or s[ax + 1:] != after:
            return None
        total += s[ax]
    if len(nodes) == 1:
        return first
    return _bind.primitive(_CONCAT, tuple(nodes), (ax,), before + (total,) + after, dtype, site)


JOIN_NOW_MIN = 8  # arrays: fewer are joined lazily unless small (a join of large values fuses)


def join_now(arrays: Any, numpy_join: Any, kwargs: dict, site: _bind.Site) -> Array | None:
    """`np.stack(rows)`, `np.concatenate(parts)` of many host buffers or views of them (a list
    built in a loop, `[r * 2 for r in A]`, pg-pong's `xs.append(frames[t])`), at-once rule on:
    NumPy's own join into a new buffer (300 rows of 10: 1.5 ms -> ~0.1, where a reshape node per
    row cut the graph at the node budget; 200 row views of 1,600: 3.4 ms -> ~0.3, a reshape view
    linked per row). A view's value is NumPy's view of its buffer (eager.value_now: the view's
    node is current, writes into its root re-derive it). None: the lazy path (which also raises
    NumPy's errors at the user's line)."""
    if not _EAGER_LIMIT[0] or type(arrays) not in (list, tuple) or not arrays:
        return None
    few = len(arrays) < JOIN_NOW_MIN  # (then only small ones: `np.vstack([a, b])` in a loop)
    total = 0
    datas = []
    for a in arrays:
        if type(a) is not Array:
            return None
        node = a._node
        total += node.size
        if few and total > _EAGER_LIMIT[0]:
            return None
        if node.op is _INPUT:
            data = node.data
            if type(data) is not np.ndarray:
                return None
        else:
            data = _eager_value_now(node)  # a chain of view ops over a buffer, or None
            if data is None:
                return None
        datas.append(data)
    try:
        out = numpy_join(datas, **kwargs)
    except Exception:
        return None
    if out.dtype not in _SUPPORTED:
        return None
    axes = memory_axes(out)  # NumPy joins Fortran-ordered parts Fortran-ordered: kept, so that
    if axes is None:  # later sums fold as NumPy's (result_layout.py)
        return Array(_eager_buffer(np.ascontiguousarray(out), site))
    leaf = _eager_buffer(np.ascontiguousarray(out.transpose(axes)), site)
    return Array(permute_node(leaf, [axes.index(d) for d in range(len(axes))], site))


def concat(arrays: Sequence[Any], axis: int | None = 0, out: Any = None, *, dtype: Any = None,
           casting: str = "same_kind") -> Array:
    """Array API `concat` (numpy.concatenate): a library call; inputs promote together. NumPy's
    `dtype`/`out` take the inputs to that dtype (out's) under `casting`."""
    site = user_site(1)
    if dtype is not None or out is not None or casting != "same_kind":
        return _concat_cast(arrays, axis, out, dtype, casting, site)
    if type(axis) is int:
        done = join_now(arrays, np.concatenate, {"axis": axis}, site)
        if done is not None:
            return done
    plain = _plain_concat(arrays, axis, site)
    if plain is not None:
        return Array(plain)
    nodes = [_as_node(a, site) for a in arrays]
    if not nodes:
        raise _bind.fail(ValueError, "need at least one array to concatenate", site)
    _axis_args.refuse_bool_axis(axis, site)
    if axis is None:
        nodes = [reshape_node(n, (n.size,), site) for n in nodes]
        axis = 0
    if any(n.ndim == 0 for n in nodes):
        raise _bind.fail(ValueError, "zero-dimensional arrays cannot be concatenated", site)
    for k, n in enumerate(nodes[1:], 1):  # NumPy's texts
        if n.ndim != nodes[0].ndim:
            raise _bind.fail(ValueError, "all the input arrays must have same number of "
                             f"dimensions, but the array at index 0 has {nodes[0].ndim} "
                             f"dimension(s) and the array at index {k} has {n.ndim} dimension(s)",
                             site)
    ax = _bind.normalize_axis(axis, nodes[0].ndim, site)
    for k, n in enumerate(nodes[1:], 1):
        for d in range(n.ndim):
            if d != ax and n.shape[d] != nodes[0].shape[d]:
                raise _bind.fail(ValueError, "all the input array dimensions except for the "
                                 f"concatenation axis must match exactly, but along dimension {d}, "
                                 f"the array at index 0 has size {nodes[0].shape[d]} and the "
                                 f"array at index {k} has size {n.shape[d]}", site)
    # (NumPy's concatenate takes a Python int, float or complex entry, 0-d and so only with
    # axis=None, as weak: `concatenate((1.5, x32), axis=None)` and `union1d(1.5, x32)` are
    # float32, `(300, x_int8)` wraps into int8; float64 and int64 here, fuzz57)
    weak = [type(a) if type(a) in (int, float, complex) else None for a in arrays]
    if all(w is None for w in weak) or all(w is not None for w in weak):
        dtype = dtypes.result_type(*(n.dtype for n in nodes))
    else:
        dtype = dtypes.result_type(*(n.dtype if w is None else w for n, w in zip(nodes, weak)))
    nodes = [_bind.cast(n, dtype, site) for n in nodes]
    if len(nodes) == 1:
        return Array(nodes[0])
    shape = list(nodes[0].shape)
    shape[ax] = sum(n.shape[ax] for n in nodes)
    return Array(_bind.primitive(_CONCAT, tuple(nodes), (ax,), tuple(shape), dtype, site))


concatenate = concat


def _concat_cast(arrays: Sequence[Any], axis: Any, out: Any, dtype: Any, casting: str,
                 site: _bind.Site) -> Any:
    """numpy.concatenate with `dtype=` or `out=`: each input cast to that dtype (out's) under the
    `casting` rule (NumPy's TypeError), then out[...] = the result."""
    if out is not None and dtype is not None:
        raise _bind.fail(TypeError, "concatenate() only takes `out` or `dtype` as an argument, but "
                         "both were provided.", site)
    nodes = [_as_node(a, site) for a in arrays]
    target = (dtypes.to_dtype(dtype) if dtype is not None else out.dtype if out is not None
              else dtypes.result_type(*(n.dtype for n in nodes)) if nodes else None)
    for n in nodes:
        check_casting(n.dtype, target, casting, site)
    result = concat([Array(_bind.cast(n, target, site)) for n in nodes], axis)
    if out is None:
        return result
    if tuple(out.shape) != result.shape:
        raise _bind.fail(ValueError, f"Output array has wrong shape: {tuple(out.shape)}, the "
                         f"result's is {result.shape}", site)
    out[...] = result if isinstance(out, Array) else np.asarray(result)
    return out


def _axis(axis: Any, ndim: int, site: _bind.Site) -> int:
    """_bind.normalize_axis, without NumPy's normalize_axis_tuple (~2 us) for a Python int in
    range."""
    if type(axis) is int and -ndim <= axis < ndim:
        return axis + ndim if axis < 0 else axis
    return _bind.normalize_axis(axis, ndim, site)


def stack(arrays: Sequence[Any], axis: int = 0, out: Any = None, *, dtype: Any = None,
          casting: str = "same_kind") -> Array:
    """numpy.stack / Array API `stack`: reshapes then one concat (NumPy's out/dtype/casting)."""
    site = user_site(1)
    if out is None and dtype is None and casting == "same_kind" and type(axis) is int:
        done = join_now(arrays, np.stack, {"axis": axis}, site)
        if done is not None:
            return done
    nodes = [_as_node(a, site) for a in arrays]
    if not nodes:
        raise _bind.fail(ValueError, "need at least one array to stack", site)
    if len({n.shape for n in nodes}) != 1:
        raise _bind.fail(ValueError, "all input arrays must have the same shape", site)
    ax = _axis(axis, nodes[0].ndim + 1, site)
    shape = list(nodes[0].shape)
    shape.insert(ax, 1)
    return concat([Array(reshape_node(n, shape, site)) for n in nodes], ax, out, dtype=dtype,
                  casting=casting)


def split(ary: Any, indices_or_sections: Any, axis: int = 0) -> list[Array]:
    """numpy.split: equal sections or split points along `axis`, as slice views (a list)."""
    site = user_site(1)
    node = _as_node(ary, site)
    ax = _axis(axis, node.ndim, site)
    n = node.shape[ax]
    try:  # NumPy's rule: a sequence (len() works) is split points, anything else a count
        len(indices_or_sections)
    except TypeError:
        k = indices_or_sections
        if n % k:  # (NumPy's: a float count that divides n is int(count); 0 ZeroDivisionError)
            raise _bind.fail(ValueError, "array split does not result in an equal division", site)
        k = int(k)
        if k <= 0:
            raise _bind.fail(ValueError, "number sections must be larger than 0.", site)
        bounds = [i * (n // k) for i in range(k + 1)]
    else:
        points = [_axis_args.index_arg(i, "split points", site) for i in indices_or_sections]
        bounds = [0] + [min(max(i + (n if i < 0 else 0), 0), n) for i in points] + [n]
    parts = []
    for lo, hi in zip(bounds[:-1], bounds[1:]):
        hi = max(hi, lo)
        if isinstance(ary, Array):  # NumPy's parts are views: x's basic slices, linked to it
            # (writes into a part wrote only the part here: fuzz42)
            parts.append(ary[tuple([slice(lo, hi) if d == ax else slice(None)
                                  for d in range(node.ndim)])])
            continue
        spec = tuple([(lo, 1, hi - lo) if d == ax else (0, 1, s)
                      for d, s in enumerate(node.shape)])
        parts.append(Array(slice_node(node, spec, site)))
    return parts
