"""Indexing: basic indices (ints, slices with steps, None, Ellipsis) become one slice view and one
reshape; integer-array indices gather through `take` (advanced_index.py); `x.at[idx].op(v)` builds
a functional update. A boolean mask is rewritten by masking.py into one of these."""

from __future__ import annotations

import operator
from typing import Any

import numpy as np

from .eager import LIMIT as _EAGER_LIMIT
from .eager import element as _eager_element
from .eager import fill_read as _eager_fill_read
from .eager import advanced_now as _eager_advanced, gather as _eager_gather
from .eager import masked as _eager_masked
from .eager import is_same_view as _is_same_view, view_value as _view_value
from .cache import _state as _TRACE  # (its `stand_ins`: a la.jit trace, which computes nothing)
from . import _axis_args, _bind, advanced_index, masking
from .writes import rebind, release_dead_root, resolve_view, same_view, view_of
from .result_layout import written_into
from .array import Array
from .graph import dtypes, get_op
from .graph.node import Node, cuts_paused, user_site
from .manipulation import reshape_node, slice_node
from .reductions import _as_node
from ._index_values import (NOT_AN_INDEX, _holds_no_array, _is_array_index, _is_int,
                            _is_int_index, int_index_error, is_basic_key, numpy_key, numpy_packed,
                            set_values, update_values, warn_complex_cast)
from .creation import full
from ._handled import checked_here, user_line_handles_errors
from . import elementwise as ew

_TAKE, _SCATTER, _RESHAPE = get_op("take"), get_op("scatter"), get_op("reshape")
_SLICE, _BROADCAST = get_op("slice"), get_op("broadcast_to")


def _index_node(idx: Any, site: _bind.Site) -> Node:
    if isinstance(idx, list):
        as_array = np.asarray(idx)
        if as_array.size == 0:  # NumPy takes `[]` as an int index
            idx = np.zeros(as_array.shape, np.int64)
        elif as_array.dtype == object:  # `[0, None]`: NumPy's IndexError, not a dtype's TypeError
            raise _bind.fail(IndexError, NOT_AN_INDEX, site)
    node = _as_node(idx, site)
    if node.dtype.kind not in "iu":
        if node.dtype.kind == "b":
            raise _bind.fail(TypeError, "boolean mask indexing has a data-dependent shape, which a "
                             "lazy graph cannot know; use la.where(mask, x, fill) instead", site)
        raise _bind.fail(IndexError, NOT_AN_INDEX if isinstance(idx, (list, tuple)) else
                         "arrays used as indices must be of integer (or boolean) type", site)
    if node.dtype == dtypes.uint64 and node.ndim == 0:
        node = ew.minimum(Array(node), _INT64_MAX)._node
    return _bind.cast(node, dtypes.int64, site)


# NumPy takes a 0-d index as a Python int (`__index__`), so a 0-d uint64 of 2**63 or more raises
# (OverflowError) where the int64 cast would wrap it to a valid negative index (`n - 1 - k` past
# 0 in uint64 read the row from the end); clamped to int64's largest, it is out of bounds on every
# axis and the take or scatter raises IndexError at evaluation. An n-d uint64 index wraps in NumPy
# too (its `same_kind` cast to intp), so only 0-d ones are clamped.
_INT64_MAX = 2**63 - 1


def _expand(key: Any, ndim: int, site: _bind.Site) -> list[Any]:
    key = list(key) if isinstance(key, tuple) else [key]
    for i, k in enumerate(key):
        if isinstance(k, slice):
            _bind.refuse_traced(k.start, k.stop, k.step)  # a traced bound would change the shape
        elif getattr(k, "_lazyarray_weak_type", None) is int:
            key[i] = _traced_index(k, site)
        else:
            _bind.refuse_traced(k)
    ellipses = [i for i, k in enumerate(key) if k is Ellipsis]
    if len(ellipses) > 1:
        raise _bind.fail(IndexError, "an index can only have a single ellipsis ('...')", site)
    consumed = sum(1 for k in key if k is not None and k is not Ellipsis)
    if consumed > ndim:
        raise _bind.fail(IndexError, f"too many indices for array: array is {ndim}-dimensional, "
                         f"but {consumed} were indexed", site)
    fill = [slice(None)] * (ndim - consumed)
    if ellipses:
        i = ellipses[0]
        return key[:i] + (fill or [EMPTY_ELLIPSIS]) + key[i + 1:]
    return key + fill


class _EmptyEllipsis:
    """An Ellipsis that covers no dimension: it indexes nothing, yet it still separates advanced
    indices for NumPy's placement rule (`x[:, [0, 1], ..., 0, 0]` puts the index dims first)."""

    __slots__ = ()


EMPTY_ELLIPSIS = _EmptyEllipsis()


def _traced_index(k: Any, site: _bind.Site) -> Array:
    """la.jit's traced int as an index (`x[t]`, `x.at[t].set(v)`): a 0-d integer index array, so
    the position is read at run time (a gather or scatter; out of bounds raises IndexError then),
    where a Python int would be baked into the trace."""
    return full((), k, dtypes.int64)


def _empty_broadcast(shapes: list) -> bool:
    """Whether index arrays of these shapes broadcast to an empty selection: NumPy then checks
    none of their values (`A[[], [7]]` of a (3, 4) A is empty, no IndexError); lazyarray checked
    each array on its own (fuzz41). False where they do not broadcast (NumPy's IndexError)."""
    try:
        return len(shapes) > 0 and 0 in np.broadcast_shapes(*shapes)
    except ValueError:
        return False


def _check_bounds(k: Any, n: int, dim: int, site: _bind.Site) -> None:
    """A concrete index array (list, ndarray) out of bounds raises now, as NumPy does."""
    if isinstance(k, Array):
        return
    arr = np.asarray(k)
    if arr.size and arr.dtype.kind in "iu":
        bad = (arr < -n) | (arr >= n)
        if bad.any():
            raise _bind.fail(IndexError, f"index {int(arr[bad].flat[0])} is out of bounds for "
                             f"axis {dim} with size {n}", site)


# NumPy's integer scalar types (np.int64, np.intp, ...): basic indices like Python ints (a loop over
# np.arange, a NumPy result); lazyarray/_trace.c gets the same set (set_index_types).
NUMPY_INTS = _bind.NUMPY_INTS


def _is_index(k: Any) -> bool:
    t = type(k)
    return t is int or t in NUMPY_INTS


def _resolve_basic(shape: tuple[int, ...], key: Any
                   ) -> tuple[tuple, tuple[int, ...], tuple[bool, ...]] | None:
    """A basic key against `shape`: (slice spec, result shape, which starts the key gave), or
    None when the key is not one
    (Python or NumPy ints in range, slices of those or None, None, one Ellipsis, no more indices
    than dimensions). ValueError for a zero step (the caller lets the general path raise
    NumPy's)."""
    items = key if type(key) is tuple else (key,)
    spec, out, given, dim, seen_ellipsis = [], [], [], 0, False
    for j, k in enumerate(items):
        t = type(k)
        if k is None:
            out.append(1)
            continue
        if k is Ellipsis:
            rest = sum([1 for r in items[j + 1:] if r is not None and r is not Ellipsis])
            fill = len(shape) - dim - rest
            if seen_ellipsis or fill < 0:
                return None
            seen_ellipsis = True
            for n in shape[dim:dim + fill]:
                spec.append((0, 1, n))
                out.append(n)
                given.append(False)
            dim += fill
            continue
        if dim >= len(shape):
            return None
        n = shape[dim]
        if t is slice:
            if not ((k.start is None or _is_index(k.start))
                    and (k.stop is None or _is_index(k.stop))
                    and (k.step is None or _is_index(k.step))):
                return None
            start, stop, step = k.indices(n)  # ValueError for a zero step
            length = len(range(start, stop, step))
            spec.append((start, step, length))
            out.append(length)
            given.append(k.start is not None)
        elif (t is int or t in NUMPY_INTS) and -n <= k < n:
            spec.append((int(k) % n, 1, 1))
            given.append(True)
        else:
            return None
        dim += 1
    for n in shape[dim:]:
        spec.append((0, 1, n))
        out.append(n)
        given.append(False)
    return tuple(spec), tuple(out), tuple(given)


_INT64 = np.dtype(np.int64)


def index_slice_node(node: Node, spec: tuple[tuple[int, int, int], ...],
                     given: tuple[bool, ...], site: _bind.Site) -> Node:
    """`slice_node` for an indexing key: a start the key gave (`given`: an index, a slice's
    start) in a dim not kept whole becomes a run-time int64 scalar leaf (spec start None), so
    `x[k:k+m]`, `A[i]`, `A[:, j]` in a loop over k, i, j are one structure, one plan and one
    compile (docs/caching.md, "Indices and slice bounds as arguments"). A start the key left out
    (`x[:m]`, `x[::-1]`) follows from the step and the size, so it stays in the attrs. The
    starts were checked against the dims (NumPy's IndexError) and normalized non-negative
    before this; lazyarray/_trace.c's `build_basic` builds the same nodes."""
    shape = tuple([length for _, _, length in spec])
    out, starts = [], []
    for (start, step, length), n, g in zip(spec, node.shape, given):
        if start == 0 and step == 1 and length == n:
            out.append((0, 1, n))
        elif g:
            out.append((None, step, length))
            starts.append(_bind._scalar_operand(start, _INT64, (), site))
        else:
            out.append((start, step, length))
    if shape == node.shape and not starts and all([s[0] == 0 and s[1] == 1 for s in out]):
        return node
    return _bind.primitive(_SLICE, (node, *starts), (tuple(out),), shape, node.dtype, site)


def _basic_getitem(node: Node, key: Any, site: _bind.Site) -> Node | None:
    """`getitem` for the common key: Python ints in range, slices of ints/None, None and one
    Ellipsis (`g[:, h:2*h]`, `x[i]`, `x[..., 0]`, `x[None]`). Builds the same nodes as the
    general path below, in a fraction of its time (an LSTM cell's four gate slices cost ~8 us
    each through it); None for anything else, which the general path handles or reports.
    lazyarray/_trace.c's `try_getitem` is this function in C (the compiled path)."""
    resolved = _resolve_basic(node.shape, key)
    if resolved is None:
        return None
    spec, target, given = resolved
    sliced = index_slice_node(node, spec, given, site)
    if target == sliced.shape:  # what reshape_node returns for a valid shape, without its checks
        return sliced
    return _bind.primitive(_RESHAPE, (sliced,), (target,), target, node.dtype, site)


def getitem(x: Array, key: Any) -> Array:
    """Array.__getitem__'s Python path (the compiled one, lazyarray/_trace.c, takes basic keys
    first and comes here for the rest)."""
    site = user_site(2)
    if x._view is not None:
        release_dead_root(x)  # (then a root: the next read takes the compiled path)
    elif x._node.op is _BROADCAST:
        _eager_fill_read(x)  # (a fill read by an index loop: its buffer, now)
    t = type(key)
    if t is Array or t is tuple:
        # `A[la.argmax(x)]` pending, the at-once rule off (or a la.jit trace): a gather, a view
        lazy = None if _EAGER_LIMIT[0] and not _TRACE.stand_ins else _pending_scalar_key(key)
        if lazy is not None:
            return _dynamic_getitem(x, key, lazy, site)
        scalars = _scalar_indices(key)  # `A[np.argmax(x)]`: NumPy's basic index, a view
        if scalars is not key:  # ints now: the compiled getitem's (`spins[i, j]` with elements
            return x[scalars]  # i, j of an index array: 8.4 -> ~1 us through this path)
    if (t is tuple or t is slice or t is int or key is None or key is Ellipsis
            or t in NUMPY_INTS):
        try:
            basic = _basic_getitem(x._node, key, site)
        except ValueError:
            basic = None
        if basic is None and (t is slice or t is tuple):
            bounded = _int_bounds(key)  # `x[a:]` with a a 0-d Array: a view, as `x[int(a):]`
            if bounded is not key:
                return getitem(x, bounded)
        if basic is not None:
            if basic.shape == () and not (key is Ellipsis or t is tuple and Ellipsis in key):
                out = Array(basic)  # an element: NumPy's scalar, a copy (and so are its views)
                out._view = False
                if _EAGER_LIMIT[0]:  # of a computed array: read now (lazyarray/eager.py)
                    done = _eager_element(basic)
                    if done is not None:
                        out._node = done
                return out
            return view_of(x, Array(basic), lambda n: _basic_getitem(n, key, site))
    if t is list and _EAGER_LIMIT[0]:  # `A[[k, i]]` (a row swap): NumPy's index array
        positions = list_index(key)
        if positions is not None:
            done = _eager_gather(x._node, _bind.leaf(positions, site), site)
            if done is not None:
                return Array(done)
    if t is Array and _EAGER_LIMIT[0]:  # `x[cols]` in an index loop: a gather computed now
        done = _eager_gather(x._node, key._node, site)
        if done is not None:
            return Array(done)
    if (t is Array or t is np.ndarray) and key.dtype == bool and _EAGER_LIMIT[0]:
        done = _masked_now(x, key, site)
        if done is not None:
            return Array(done)
    if (t is np.ndarray or t is tuple) and _EAGER_LIMIT[0]:
        computed = _numpy_advanced_key(key)
        done = _eager_advanced(x._node, computed, site) if computed is not None else None
        if done is not None:
            out = Array(done)
            if not done.shape and not (t is tuple and any(k is Ellipsis for k in key)):
                out._view = False
            return out
    out = Array(general_getitem(x._node, key, site))
    if not out._node.shape and not (key is Ellipsis or t is tuple and any(
            k is Ellipsis for k in key)):
        # an element by 0-d integer Arrays (`A[1, i]`, `x[i]`): NumPy's scalar, a copy, as
        # a basic key's element above (`u = t; t += 1` keeps u; `A[1, i] += 1.5` of an int A is
        # NumPy's read, add and cast write); with an Ellipsis, NumPy's 0-d array
        out._view = False
    return out


def _is_scalar_index(k: Any) -> bool:
    return (type(k) is Array and k._view is False and not k._node.shape
            and k._node.dtype.kind in "iu")


def _pending_scalar_key(key: Any) -> tuple | None:
    """`key` as a tuple with its computed scalar indices as ints and each pending one as a
    private handle of its node (`DynamicIndex`), where the key has a pending scalar index and is
    basic otherwise (ints, slices of ints or None, None, Ellipsis); else None, for the int path.
    A pending uint64 index keeps the int path: NumPy's OverflowError past int64 is raised at the
    line there (the gather would raise IndexError at evaluation). Only with the at-once rule off
    (eager_size 0; the cupy and dask backends; a la.jit trace, where reading the index at the
    line was a TracerEvaluationError): with it on, a write through the view computes
    its small index and values at once anyway (lazyarray/eager.py `computed_values`), two plans
    where reading the index at the line took one and wrote the row in place (32 row updates
    `row = A[argmax(x_k)]; row *= 0.5`: 32 -> 64 evaluations, 2.0 -> 9-11 ms, C backend)."""
    items = key if type(key) is tuple else (key,)
    pending = False
    for k in items:
        if _is_scalar_index(k):
            if k._node.inputs:
                if k._node.dtype == dtypes.uint64:
                    return None
                pending = True
        elif not (k is None or k is Ellipsis or _is_index(k) or type(k) is slice and all(
                [b is None or _is_index(b) for b in (k.start, k.stop, k.step)])):
            return None
    if not pending:
        return None
    out = []
    for k in items:
        if _is_scalar_index(k):
            k = _snapshot(k) if k._node.inputs else _scalar_int(k)
        out.append(k)
    return tuple(out)


def _snapshot(k: Array) -> Array:
    """A handle of `k`'s node that only the dynamic view holds: a later write into `k` (which
    rebinds k) does not move the view's index, as NumPy's index was read at its line."""
    out = _handle(k._node)
    out._view = False
    return out


def _handle(node: Node) -> Array:
    """An Array of `node` for this module's own use: without Array()'s at-once rule and cut
    tracking (`node` is a value some handle already holds; nothing here is new to compute)."""
    out = Array.__new__(Array)
    out._node, out._view = node, None
    return out


def _dynamic_getitem(x: Array, source: Any, key: tuple, site: _bind.Site) -> Array:
    """`A[i, ...]` with pending scalar indices (NumPy's basic index: a view): the gather the
    0-d-array path builds (`general_getitem`, the index a node input), so the line evaluates
    nothing and every index value is one structure. An element is NumPy's scalar, a copy: no
    link. Anything else is linked to A's root as a *dynamic* view (writes.py): reads follow
    A's writes by gathering again, writes through it scatter by the same key, and whatever needs
    its static chain resolves it first (`DynamicIndex.resolve`: the indices evaluated, the basic
    view's chain). docs/semantics.md "A 0-d integer Array as an index"."""
    over = x._node
    with cuts_paused():  # (a cut inside the build would splice leaves into the gather)
        node = general_getitem(over, key, site)
    if not node.shape and not any([k is Ellipsis for k in key]):
        out = Array(node)
        out._view = False  # an element: NumPy's scalar, a copy
        return out
    if type(x._view) is tuple and len(x._view) == 5:
        resolve_view(x)  # `A[k][j]`: a dynamic view of a dynamic view rests on a static chain
        over = x._node
        with cuts_paused():
            node = general_getitem(over, key, site)
    out = Array(node)
    dynamic = DynamicIndex(key, site, over, _KeySource(source))
    return view_of(x, out, dynamic=dynamic, built=(over, node))


class _KeySource:
    """The key object a dynamic view was made with, and its Arrays' nodes then: `A[k] += v`
    indexes twice with one key object (`t = A[k]; t += v; A[k] = t`), and the second write,
    of the view's own value back to its own place, is a no-op (set_through_view skips it)."""

    __slots__ = ("key", "nodes")

    def __init__(self, key: Any) -> None:
        self.key = key
        self.nodes = tuple([k._node for k in (key if type(key) is tuple else (key,))
                            if type(k) is Array])

    def names(self, key: Any) -> bool:
        """Whether `key` is that object, its Arrays still naming the same values."""
        if key is not self.key:
            return False
        arrays = [k for k in (key if type(key) is tuple else (key,)) if type(k) is Array]
        return all([k._node is n for k, n in zip(arrays, self.nodes)])


class DynamicIndex:
    """The key of a dynamic view (writes.py's link `(root, view node, root node, writable,
    dynamic)`): a basic key whose pending scalar indices (private handles) are read by the
    kernel, over `base`, the node of the view's parent value (a chain of view ops over the
    link's root node, or that node). Its ways to build: the gather (a read), the scatter (a
    write through the view, by the same key), the static view (the indices evaluated), and the
    probe (NumPy's layout, for a reshape)."""

    __slots__ = ("key", "site", "base", "source")

    def __init__(self, key: tuple, site: _bind.Site, base: Node, source: _KeySource) -> None:
        self.key, self.site, self.base, self.source = key, site, base, source

    def at(self, base: Node) -> DynamicIndex:
        return DynamicIndex(self.key, self.site, base, self.source)

    def gather(self, base: Node) -> Node:
        return general_getitem(base, self.key, self.site)

    def scatter(self, base: Node, value: Node) -> Node:
        """`base` with the view's elements set to `value` (the view's new value)."""
        node = _AtUpdate(_handle(base), self.key)._apply_node("set", _handle(value), self.site)
        return node._node if type(node) is Array else node

    def resolve(self, base: Node) -> Node:
        """The basic view's chain over `base`, its indices evaluated now (NumPy's IndexError,
        naming the indexing line, for one out of range)."""
        ints = tuple([_scalar_int(k) if type(k) is Array else k for k in self.key])
        node = _basic_getitem(base, ints, self.site)
        if node is None:
            general_getitem(base, ints, self.site)  # raises NumPy's IndexError
            raise _bind.fail(IndexError, f"invalid index {ints!r}", self.site)  # (not reached)
        return node

    def probe(self, base: Node) -> Node | None:
        """The static view with each pending index 0: NumPy's strides of the view (its layout
        for a reshape), evaluating nothing; None where 0 is out of range (an empty dim)."""
        try:
            return _basic_getitem(base, tuple([0 if type(k) is Array else k for k in self.key]),
                                  self.site)
        except ValueError:
            return None


def _scalar_indices(key: Any) -> Any:
    """`key` with its 0-d integer Arrays that stand for NumPy's integer scalars as ints, or `key`
    itself where it has none. An element, a reduction's or an op's 0-d result (`_view` False)
    is NumPy's scalar there (`np.argmax(x)`, `I[2]`, `n - 1 - k`), and NumPy indexes by it as by
    an int: a basic index, a view (`row = A[np.argmax(x)]; row *= 2` writes A; a copy here
    kept A). A pending one is evaluated at this line where `_pending_scalar_key` leaves it here
    (a uint64, or beside an index array or an Array slice bound). A 0-d
    array (`la.asarray(np.array(2))`, a reshape to ()) stays an advanced index, a copy, as
    NumPy's 0-d ndarray, and lazy (docs/semantics.md "A 0-d integer Array as an index")."""
    items = key if type(key) is tuple else (key,)
    if not any(_is_scalar_index(k) for k in items):
        return key
    out = tuple(_scalar_int(k) if _is_scalar_index(k) else k for k in items)
    return out if type(key) is tuple else out[0]


def list_index(key: list) -> np.ndarray | None:
    """A list of Python ints, NumPy ints and computed elements (`[k, i]` with k an argmax) as
    NumPy's intp index array, or None (bools, nested lists, a pending element, an empty list:
    the general path, which also builds what NumPy's `np.asarray(key)` would). The general path
    normalized it through nodes: `A[[k, i]]` ~24 us, NumPy 1.7."""
    if not key:
        return None
    out = []
    for k in key:
        t = type(k)
        if t is int:
            out.append(k)
        elif t in NUMPY_INTS:
            out.append(int(k))
        elif t is Array and _is_scalar_index(k) and not k._node.inputs and not (
                k._node.dtype.kind == "u" and k._node.dtype.itemsize == 8):
            out.append(operator.index(k))
        else:
            return None
    try:
        return np.array(out, dtype=np.intp)
    except OverflowError:
        return None


def _numpy_advanced_key(key: Any) -> tuple | None:
    """`key` as NumPy would index a computed array with it now: ints, slices, None, `...` and
    index arrays (NumPy's integer and boolean arrays, lists of ints, computed integer Arrays of
    at least one dim), at least one; None where it holds anything else (a pending Array, a 0-d
    Array: NumPy's scalar, a basic index; a float, a nested list)."""
    items = key if type(key) is tuple else (key,)
    out, advanced = [], False
    for k in items:
        t = type(k)
        if t is int or t is slice or k is None or k is Ellipsis or t in NUMPY_INTS:
            out.append(k)
        elif t is np.ndarray and k.dtype.kind in "iub":
            out.append(k)
            advanced = True
        elif t is list:
            positions = list_index(k)
            if positions is None:
                return None
            out.append(positions)
            advanced = True
        elif t is Array and k._node.shape and not k._node.inputs and (
                k._node.dtype.kind in "iub" and type(k._node.data) is np.ndarray):
            out.append(k._node.data)
            advanced = True
        else:
            return None
    return tuple(out) if advanced else None


def computed_scalar_indices(key: Any) -> Any:
    """`key` with its computed element indices (0-d integer Arrays standing for NumPy's
    scalars, already buffers: `i, j = sites[k]`) as ints, for a write's at-once paths; `key`
    itself where it has none, or where one is pending and not a uint64 (the general path takes
    it): `spins[i, j] *= -1` built a scatter's nodes, ~25 us. A uint64 of 2**63 or more is
    NumPy's OverflowError here, at the line; left to the general path, a uint64 was the
    scatter's 0-d index array, checked only at evaluation (fuzz41: `A[a, 1] = 1.0` of a uint64
    element 3 raised IndexError when A was read, 2**63 an IndexError of 2**63 - 1)."""
    items = key if type(key) is tuple else (key,)
    out, changed = [], False
    for k in items:
        if type(k) is Array and _is_scalar_index(k):
            node = k._node
            uint64 = node.dtype.itemsize == 8 and node.dtype.kind == "u"
            if node.inputs and not uint64:
                return key
            # (a pending uint64 is read at the line, as getitem reads it: where the at-once rule
            # is off, cupy, it was the scatter's clamped index, an IndexError at evaluation)
            out.append(_scalar_int(k) if uint64 else operator.index(k))
            changed = True
        else:
            out.append(k)
    if not changed:
        return key
    return tuple(out) if type(key) is tuple else out[0]


def _scalar_int(k: Array) -> int:
    """A scalar index's value; past intp's range NumPy's OverflowError (a uint64 of 2**63 or
    more: `A[np.uint64(3) - np.uint64(5)]`)."""
    value = operator.index(k)
    if not -2**63 <= value < 2**63:
        raise _bind.fail(OverflowError, "Python int too large to convert to C long",
                         user_site(3))
    return value


def _int_bounds(key: Any) -> Any:
    """`key` with its slices' 0-d Array bounds as ints (a bound decides the shape: it is read at
    the line, docs/semantics.md "A 0-d integer Array as an index"), or `key` itself where it has
    none or one is no integer (the general path then raises NumPy's error). The view NumPy
    gives (`v = A[I[0]::-1]; v[-1] = 5` writes A) is then the basic key's, linked to A: the
    general path's result was a copy, which the compiled getitem took for a view only where the
    bound was computed (fuzz39's sweep, seed 110426 with eager_size 0, and every such seed under
    LAZYARRAY_PURE_PYTHON=1)."""
    items = key if type(key) is tuple else (key,)
    if not any(type(k) is slice and Array in (type(k.start), type(k.stop), type(k.step))
               for k in items):
        return key
    try:
        out = tuple(slice(*[operator.index(b) if type(b) is Array else b
                            for b in (k.start, k.stop, k.step)]) if type(k) is slice else k
                    for k in items)
    except TypeError:
        return key
    return out if type(key) is tuple else out[0]


def _masked_now(x: Array, key: Array | np.ndarray, site: _bind.Site) -> Node | None:
    """`x[mask]` computed now (eager.masked) once the mask is: x computed before, or by the
    mask's own graph (`z[abs(z) < 2]`); None for the general path, which also raises NumPy's
    IndexError for a mask that does not match x's dimensions."""
    if not key.ndim or key.ndim > x.ndim or tuple(key.shape) != x.shape[:key.ndim]:
        return None
    mask, node = masking._computed_mask(key, site, x._node)
    return _eager_masked(node, mask, site)


def general_getitem(node: Node, key: Any, site: _bind.Site) -> Node:
    """Every key NumPy takes: masks, None, Ellipsis, integer arrays, 0-d integer Arrays."""
    node, key = masking.rewrite_getitem(node, key, site)
    items = _expand(key, node.ndim, site)
    empty = _empty_broadcast([np.shape(k) for k in items if k is not EMPTY_ELLIPSIS and k is not None
                              and not _is_int_index(k) and not isinstance(k, slice)
                              and _is_array_index(k)])
    spec, out_shape, positions, indices, advanced, dim = [], [], [], [], [], 0
    given = []  # the key gave the start: a run-time scalar (index_slice_node)
    for pos, k in enumerate(items):
        if k is EMPTY_ELLIPSIS:
            continue
        if k is None:
            out_shape.append(1)
            continue
        n = node.shape[dim]
        if _is_int_index(k):
            i = operator.index(k) if not isinstance(k, Array) else int(k)
            if not -n <= i < n:
                raise _bind.with_site(int_index_error(i, n, dim), site)
            spec.append((i % n, 1, 1))
            given.append(True)
            advanced.append(pos)
        elif isinstance(k, slice):
            start, stop, step = k.indices(n)
            spec.append((start, step, len(range(start, stop, step))))
            given.append(k.start is not None)
            out_shape.append(spec[-1][2])
        elif _is_array_index(k):
            if not empty:
                _check_bounds(k, n, dim, site)
            spec.append((0, 1, n))
            given.append(False)
            positions.append(len(out_shape))
            indices.append(_index_node(k, site))
            advanced.append(pos)
            out_shape.append(n)
        else:
            raise _bind.fail(IndexError, NOT_AN_INDEX, site)
        dim += 1
    result = reshape_node(index_slice_node(node, tuple(spec), tuple(given), site), out_shape,
                          site)
    if indices:
        adjacent = advanced == list(range(advanced[0], advanced[-1] + 1))
        result = advanced_index.gather(result, positions, indices, adjacent,
                                       lambda n, i, a: _take_node(n, i, a, site), site)
    return result


def _take_node(node: Node, indices: Node, axis: int, site: _bind.Site) -> Node:
    if node.shape[axis] == 0 and indices.size:
        if indices.holds_buffer and indices.data is not None:  # NumPy's indexing text (fuzz46)
            raise _bind.fail(IndexError, f"index {int(np.asarray(indices.data).flat[0])} is out "
                             f"of bounds for axis {axis} with size 0", site)
        raise _bind.fail(IndexError, f"cannot do a non-empty take from an empty axis {axis}", site)
    shape = node.shape[:axis] + indices.shape + node.shape[axis + 1:]
    return _bind.primitive(_TAKE, (node, indices), (axis,), shape, node.dtype, site)


def take(a: Any, indices: Any, axis: int | None = None, out: Any = None,
         mode: str = "raise") -> Array:
    """numpy.take / Array API `take`: gather along `axis` (flattened when None). Out-of-bounds
    indices raise IndexError when the result is evaluated, naming this line; NumPy's
    mode='wrap' takes them modulo the length, 'clip' clips them (negative ones to 0). `out`
    receives the result (cast as NumPy's take casts: unsafely) and is returned."""
    site = user_site(1)
    if out is not None:
        if not isinstance(out, (Array, np.ndarray)):  # (NumPy's; an AttributeError here)
            raise _bind.fail(TypeError, "output must be an array", site)
        result = take(a, indices, axis, mode=mode)
        if tuple(out.shape) != result.shape:
            raise _bind.fail(ValueError, "output array does not match result of ndarray.take",
                             site)
        out[...] = result if isinstance(out, Array) else np.asarray(result)
        return out
    if mode not in ("raise", "wrap", "clip"):
        raise _bind.fail(ValueError, "clipmode must be one of 'clip', 'raise', or 'wrap' "
                         f"(got {mode!r})", site)
    node = _as_node(a, site)
    _axis_args.refuse_bool_axis(axis, site)
    if axis is None or (node.ndim == 0 and axis in (0, -1)):  # NumPy: a 0-d x is 1 element
        node = reshape_node(node, (node.size,), site)
        axis = 0
    ax = _bind.normalize_axis(axis, node.ndim, site)
    indices = numpy_key(indices)  # (a user's integer type: an int, as NumPy's take)
    if isinstance(indices, list) and np.asarray(indices).size == 0:  # `[]`: no indices
        indices = np.zeros(np.asarray(indices).shape, np.int64)
    if mode == "raise" and isinstance(indices, (list, tuple, np.ndarray, int, np.integer)) \
            and node.shape[ax]:
        _check_bounds(indices, node.shape[ax], ax, site)  # host indices (an int too): NumPy's
        # error now, on every path (with the at-once path off, eager_size=0 and CuPy, it came at
        # evaluation)
    index = _as_node(indices, site)
    if index.dtype.kind not in "iub":  # np.take casts 'same_kind': bools count, floats do not
        raise _bind.fail(TypeError, f"Cannot cast array data from dtype('{index.dtype}') to "
                         "dtype('int64') according to the rule 'same_kind'", site)
    index = _bind.cast(index, dtypes.int64, site)
    if mode != "raise":
        index = _bounded(index, node.shape[ax], mode, site)
    if mode == "raise" and user_line_handles_errors():  # NumPy's IndexError inside the try
        return checked_here(lambda: Array(_take_node(node, index, ax, site)), site)
    return Array(_take_node(node, index, ax, site))


def _bounded(index: Node, n: int, mode: str, site: _bind.Site) -> Node:
    """np.take's mode='wrap' (index mod n) or 'clip' (into [0, n - 1]) of int64 indices."""
    if n == 0:
        if index.size:
            raise _bind.fail(IndexError, "cannot do a non-empty take from an empty axes.", site)
        return index
    bounded = ew.remainder(Array(index), n) if mode == "wrap" else ew.clip(Array(index), 0, n - 1)
    return bounded._node


def _exact_in(dtype: np.dtype, promoted: np.dtype) -> bool:
    """Whether every value of `dtype` survives the round trip through `promoted`: not so for
    64-bit integers through float64 (or complex128), beyond 2**53."""
    return dtype == promoted or dtype.kind in "fc" or dtype.itemsize <= 4


def _packs_as_numpy_scalar(values: Array, dtype: np.dtype, key: Any) -> bool:
    """Whether a 0-d Array standing for NumPy's scalar (`a[:k].sum()`, `a[i] + 1`: `_view` False)
    is written through a basic key into an integer array of another dtype: NumPy stores its
    scalar item by item (`a[k] = np.int64(200)` into int8 is OverflowError, a NaN ValueError),
    where an array cast wrapped silently (fuzz55's seed 2236, `a[k] += a[:k].sum()`)."""
    node = values._node
    return (not node.shape and node.dtype.kind in "iuf" and node.dtype != dtype
            and is_basic_key(key) and not _TRACE.stand_ins)


def set_node(x: Array, key: Any, values: Any, site: _bind.Site) -> Node:
    """`x[key] = values`: the node of `x.at[key].set(values)` (Array.__setitem__ rebinds x).
    A key that selects everything (`x[...] = v`, `x[:] = v`, `out=`) is the values themselves,
    cast and broadcast: no scatter over x's old value, which nothing reads any more."""
    node = x._node
    key = _uint64_scalars_read(key)
    if isinstance(values, np.generic) and node.dtype.kind in "iu" and values.dtype.kind in "iuf" \
            and values.dtype != node.dtype and is_basic_key(key):
        values = numpy_packed(values, node.dtype, site)  # `a[0] = np.float64(nan)`: ValueError
    elif type(values) is Array and values._view is False and node.dtype.kind in "iu" \
            and _packs_as_numpy_scalar(values, node.dtype, key):
        values = numpy_packed(np.asarray(values)[()], node.dtype, site)  # (evaluates it)
    if _selects_all(key, node.ndim):
        check_sequence_depth(values, node.ndim, site)
        value_node = _update_values(node, values, node.shape, site)
        if value_node.shape == node.shape:
            return written_into(value_node, node, _view_value)  # (in x's order, as NumPy's copy)
    if type(key) is tuple:
        tv = type(values)
        if tv is float and node.dtype is _FLOAT64:
            element = _element_write(node, key, values, site)
            if element is not None:
                return element
        elif tv is Array and values._node.shape == () and values._node.dtype is node.dtype:
            # `A[i, j] -= dot(...)`, `A[i, j] = A[i, j] / A[j, j]`: a 0-d Array of A's dtype
            element = _element_write(node, key, values._node, site)
            if element is not None:
                return element
    if type(values) not in (int, float, bool, complex) and _is_element_key(key, node.ndim) \
            and np.ndim(values) and _in_bounds(key, node.shape):  # (else NumPy's IndexError)
        values = _element_values(node.dtype, values, site)
    out = _AtUpdate(x, key)._apply_node("set", values, site)
    return out._node if type(out) is Array else out  # a masked update comes as an Array


_FLOAT64 = np.dtype(np.float64)


def _uint64_scalars_read(key: Any) -> Any:
    """`key` with its uint64 scalar indices (NumPy's scalars, pending or computed) read as ints
    at the line, as getitem reads them: NumPy takes one through `__index__`, so 2**63 or more is
    its OverflowError at the line. The scatter clamped a pending one (an IndexError only at
    evaluation) where the at-once rule is off: cupy, `eager_size=0` (the stop-43 GPU run)."""
    items = key if type(key) is tuple else (key,)
    if not any(type(k) is Array and k._node.dtype == dtypes.uint64 and _is_scalar_index(k)
               for k in items):
        return key
    out = tuple(_scalar_int(k) if type(k) is Array and k._node.dtype == dtypes.uint64
                and _is_scalar_index(k) else k for k in items)
    return out if type(key) is tuple else out[0]


def _element_write(node: Node, key: tuple, value: float | Node, site: _bind.Site
                   ) -> Node | None:
    """An index loop's `A[i, j] = v` (Python ints in range, one per dim; v a Python float into
    float64, or the node of a 0-d Array of A's dtype): the node `_AtUpdate._apply` builds,
    without its general steps (the key's resolution, NumPy's assignment of the value: a float
    is a float64 as it is; no cast or broadcast of a 0-d value of the same dtype). None for
    anything else, out-of-range indices included (the general path raises NumPy's error)."""
    shape = node.shape
    if len(key) != len(shape):
        return None
    if len(key) == 2:  # a matrix element, the index loops' case: no loop, no list
        (i, j), (m, n) = key, shape
        if type(i) is not int or type(j) is not int or not (-m <= i < m and -n <= j < n):
            return None
        spec: tuple = (("int", i), ("int", j))
    else:
        for k, n in zip(key, shape):
            if type(k) is not int or not -n <= k < n:
                return None
        spec = tuple([("int", k) for k in key])
    value_node = value if type(value) is Node else _bind.scalar_leaf(value, _FLOAT64, site)
    return _bind.primitive(_SCATTER, (node, value_node), ("set", spec), shape, node.dtype, site)


def check_sequence_depth(values: Any, ndim: int, site: _bind.Site) -> None:
    """NumPy converts a list or tuple stored through a basic key into an array of at most the
    selection's `ndim` dims: `a[:2] = [[1, 2]]` is its ValueError, where the array
    `np.ones((1, 2))` broadcasts (its leading 1 dropped). The depth is read down the first items
    (a ragged list fails there too)."""
    if type(values) is not list and type(values) is not tuple:
        return
    depth, v = 0, values
    while depth <= ndim:
        if type(v) is list or type(v) is tuple:
            depth += 1
            if not v:
                break
            v = v[0]
        else:
            depth += len(getattr(v, "shape", ()))
            break
    if depth > ndim:
        raise _bind.fail(ValueError, "setting an array element with a sequence. The requested "
                         f"array would exceed the maximum number of dimension of {ndim}.", site)


def _is_element_key(key: Any, ndim: int) -> bool:
    """An integer per dimension (NumPy's element: values must be 0-d there)."""
    items = key if type(key) is tuple else (key,)
    return len(items) == ndim and all(_is_int(k) for k in items)


def _element_values(dtype: np.dtype, values: Any, site: _bind.Site) -> Any:
    """An array of values at an element: NumPy stores a bool array's element as the truth of a
    one-element value (`b[0] = np.array([[3]])` is True); elsewhere it refuses any array, with a
    TypeError for complex arrays and a ValueError for the others. A list or tuple is NumPy's
    element assignment itself (its errors differ by dtype: int()'s TypeError, the truth of the
    list for bool)."""
    if (type(values) is list or type(values) is tuple) and _holds_no_array(values):
        cell = np.empty(1, dtype)
        try:
            cell[0] = values
        except (OverflowError, ValueError, TypeError) as exc:
            raise _bind.fail(type(exc), str(exc), site) from None
        return cell[0]
    if dtype.kind == "b" and np.size(values) == 1:
        return values.reshape(()) if type(values) is Array else np.asarray(values).reshape(())
    if dtype.kind == "c":
        raise _bind.fail(TypeError, "only 0-dimensional arrays can be converted to Python "
                         "scalars", site)
    raise _bind.fail(ValueError, "setting an array element with a sequence.", site)


def _in_bounds(key: Any, shape: tuple) -> bool:
    """An element key's ints within the dims (NumPy checks them before the value)."""
    items = key if type(key) is tuple else (key,)
    return all(-n <= k < n for k, n in zip(items, shape))


def _selects_all(key: Any, ndim: int) -> bool:
    """`...`, `()`, `:` (on each of up to ndim dims, with at most one Ellipsis)."""
    items = key if type(key) is tuple else (key,)
    ellipses = 0
    for k in items:
        if k is Ellipsis:
            ellipses += 1
        elif type(k) is not slice or k != _ALL:
            return False
    return ellipses <= 1 and len(items) - ellipses <= ndim


_ALL = slice(None)


def _update_values(node: Node, values: Any, target_shape: tuple, site: _bind.Site) -> Node:
    """The values of `x[key] = values` into `node` at positions of `target_shape`: NumPy's
    assignment rules for a Python scalar, broadcast to the target, cast to node's dtype."""
    return _fit_values(set_values(values, node.dtype, site, warn=False), node.dtype,
                       target_shape, site)


def _has_array_index(key: Any) -> bool:
    """Whether the key holds an index array or list (NumPy's advanced-assignment error text)."""
    return any(type(k) is list or getattr(k, "ndim", 0) > 0
               for k in (key if type(key) is tuple else (key,)))


def _fit_values(value_node: Node, dtype: np.dtype, target_shape: tuple,
                site: _bind.Site, advanced: bool = False, warn: bool = True) -> Node:
    """Update values broadcast to the target (NumPy's error if they cannot be: its text for an
    `advanced` key's selection differs), cast to the dtype the update computes in. `warn=False`:
    the caller warns NumPy's ComplexWarning (after an index array's bounds)."""
    if value_node.shape and value_node.shape != target_shape:  # () and equal shapes broadcast
        if not _broadcasts_into(value_node.shape, tuple(target_shape)):
            given = value_node.shape
            while not advanced and len(given) > len(target_shape) and given[0] == 1:
                given = given[1:]  # (NumPy's basic assignment names the shape it broadcasts)
            shown = _bind.numpy_shape_text(given)
            into = _bind.numpy_shape_text(target_shape)
            raise _bind.fail(ValueError, f"shape mismatch: value array of shape {shown} could "
                             f"not be broadcast to indexing result of shape {into}" if advanced
                             else f"could not broadcast input array from shape {shown} into "
                             f"shape {into}", site)
    if warn:
        warn_complex_cast(value_node, dtype, site)  # (after the shape check, as NumPy's)
    if not all(target_shape):
        # nothing is written, so nothing is cast (NumPy warns no `invalid value ... in cast`);
        # the leading length-1 dims NumPy drops first (`I[0:0] = t[-1:][:, None] / nan`: fuzz39)
        extra = len(value_node.shape) - len(target_shape)
        if extra > 0:
            value_node = reshape_node(value_node, value_node.shape[extra:], site)
        value_node = _bind.broadcast_to(value_node, target_shape, site)
    value_node = _bind.cast(value_node, dtype, site)
    if value_node.shape != target_shape and len(value_node.shape) <= len(target_shape):
        value_node = _bind.broadcast_to(value_node, target_shape, site)
    return value_node


def _broadcasts_into(shape: tuple, target: tuple) -> bool:
    """NumPy's assignment rule: values broadcast *to* the target's shape (not both ways: (6,)
    into (1,) is NumPy's ValueError), past leading length-1 dims it drops."""
    while len(shape) > len(target) and shape[0] == 1:
        shape = shape[1:]
    try:
        return np.broadcast_shapes(shape, target) == target
    except ValueError:
        return False


def set_through_view(x: Array, key: Any, values: Any, site: _bind.Site) -> None:
    """`x[key] = values` where x is a view or has views: the write reaches x's root and every
    live view of it (lazyarray/writes.py). `A[i, j] -= v` writes twice, as in NumPy (the view
    `A[i, j]` in place, then `A[i, j] = view`): the second write is skipped when `values` is that
    very view, in sync."""
    link = values._view if type(values) is Array else None
    if type(link) is tuple:
        own = x._view
        root, over = (own[0], own[1]) if type(own) is tuple else (x, x._node)
        if link[0] is root:
            if len(link) == 5:  # `A[k] += v` with k pending: the view's value, in its place
                if (type(own) is not tuple and type(link[4]) is DynamicIndex
                        and link[4].base is over and link[2] is over
                        and values._node is link[1] and link[4].source.names(key)):
                    return
            elif type(own) is not tuple and _is_same_view(over, key, link):
                return  # the view's buffer is this very selection of the root's
            try:
                target = _basic_getitem(over, key, site)
            except ValueError:
                target = None
            if target is not None and same_view(target, link[1]):
                return
    rebind(x, set_node(x, key, values, site), site)


class AtIndexer:
    """`x.at[idx]` → an update builder, as in JAX: `.set/.add/.multiply/.min/.max(values)`."""

    __slots__ = ("_array",)

    def __init__(self, array: Array) -> None:
        self._array = array

    def __getitem__(self, key: Any) -> _AtUpdate:
        return _AtUpdate(self._array, key)


class _AtUpdate:
    __slots__ = ("_array", "_key")

    def __init__(self, array: Array, key: Any) -> None:
        self._array, self._key = array, key

    def set(self, values: Any) -> Array:
        return self._apply("set", values, user_site(1))

    def add(self, values: Any) -> Array:
        return self._apply("add", values, user_site(1))

    def multiply(self, values: Any) -> Array:
        return self._apply("multiply", values, user_site(1))

    def min(self, values: Any) -> Array:
        return self._apply("min", values, user_site(1))

    def max(self, values: Any) -> Array:
        return self._apply("max", values, user_site(1))

    def _apply(self, mode: str, values: Any, site: _bind.Site) -> Array:
        node = self._apply_node(mode, values, site)
        return node if type(node) is Array else Array(node)

    def _apply_node(self, mode: str, values: Any, site: _bind.Site) -> Any:
        """`_apply`'s node (a masked update's Array as it is): `x[key] = v` needs no Array."""
        node = self._array._node
        basic = _basic_scatter_key(node.shape, self._key)
        if basic is not None:
            spec, index_nodes, target_shape = basic
            check_sequence_depth(values, len(target_shape), site)
        else:
            masked = masking.at_update(self._array, self._key, mode, values, site)
            if masked is not None:
                return masked
            converted: list = []  # NumPy converts a Python value before it broadcasts index arrays
            spec, index_nodes, target_shape, bounds = self._scatter_key(
                node, site, lambda: converted.append(update_values(node.dtype, values, mode, site,
                                                                   warn=False)))
        given, promoted = (converted[0] if basic is None else
                           update_values(node.dtype, values, mode, site, warn=False))
        # NumPy casts the values before it checks an index array's bounds where the arrays (and
        # ints) index every dim, and per subspace after them where a slice leaves one
        warn_first = basic is not None or not _has_subspace(spec, node.ndim)
        value_node = _fit_values(given, promoted, target_shape, site,
                                 _has_array_index(self._key), warn=warn_first)
        if basic is None:
            for k, n, dim in bounds:  # index arrays: NumPy checks them after the value's shape
                _check_bounds(k, n, dim, site)
            if not warn_first:
                warn_complex_cast(given, promoted, site)

        def scatter(base: Node, values: Node, how: str) -> Node:
            return _bind.primitive(_SCATTER, (base, values, *index_nodes), (how, spec),
                                   base.shape, base.dtype, site)

        if promoted == node.dtype:
            return scatter(node, value_node, mode)
        wide = _bind.cast(scatter(_bind.cast(node, promoted, site), value_node, mode),
                          node.dtype, site)
        if _exact_in(node.dtype, promoted):
            return wide
        # int64 through float64: only the updated elements take the round trip (JAX's values)

        hit = scatter(_bind.scalar_leaf(False, dtypes.bool_, site, node.shape),
                      _bind.scalar_leaf(True, dtypes.bool_, site, target_shape), "set")
        return ew.where(Array(hit), Array(wide), self._array)

    def _scatter_key(self, node: Node, site: _bind.Site, before_broadcast: Any = None
                     ) -> tuple[tuple, list[Node], tuple, list[tuple[Any, int, int]]]:
        """The scatter's key for any index: (spec, index nodes, indexed shape, the index arrays'
        bounds checks left to the caller); the indexed shape is NumPy's, from a probe array of
        the same shape. NumPy checks an index array's bounds as it writes, after the value's
        shape (`A[[0, 1]] = V` on a (1,) A with a V that cannot broadcast: its ValueError).
        `before_broadcast()` runs between the key's own checks (ints' bounds, index types) and
        the index arrays' broadcast, where NumPy converts a written Python value (`x[[0, 1],
        [1, 2, 3]] = 1j`: the value's TypeError)."""
        items = _expand(self._key, node.ndim, site)
        spec, index_nodes, probe, bounds = [], [], [], []
        probed: set = set()  # dims an index array selects from (their length is not the shape's)
        dim = 0
        for k in items:
            if k is EMPTY_ELLIPSIS:
                spec.append(("ellipsis",))
                probe.append(Ellipsis)
                continue
            if k is None:
                spec.append(("none",))
                probe.append(None)
                continue
            n = node.shape[dim]
            if _is_int(k):
                if not -n <= int(k) < n:
                    raise _bind.with_site(int_index_error(int(k), n, dim), site)
                spec.append(("int", int(k)))
                probe.append(int(k))
            elif isinstance(k, slice):
                spec.append(("slice", k.start, k.stop, k.step))
                probe.append(k)
            elif _is_array_index(k):
                bounds.append((k, n, dim))  # a concrete index: at the user's line (NumPy)
                probed.add(dim)
                idx = _index_node(k, site)
                spec.append(("array", len(index_nodes)))
                index_nodes.append(idx)
                probe.append(np.ndarray(idx.shape, np.intp, _ZERO_INDEX, strides=(0,) * idx.ndim))
            else:
                raise _bind.fail(IndexError, NOT_AN_INDEX, site)
            dim += 1
        # (an empty dim an index array selects from probed as length 1: the probe's zeros were
        # out of its bounds, NumPy's IndexError before the value's ValueError, fuzz41's 182348)
        shape = tuple(max(n, 1) if d in probed else n for d, n in enumerate(node.shape))
        if before_broadcast is not None:
            before_broadcast()
        target_shape = _indexed_shape(shape, probe)
        if _empty_broadcast([n.shape for n in index_nodes]):
            bounds = []  # (NumPy checks no index of an empty selection: _empty_broadcast)
        return tuple(spec), index_nodes, target_shape, bounds


def _has_subspace(spec: tuple, ndim: int) -> bool:
    """Whether an advanced key leaves dims to slices (NumPy's subspace: `x[:, idx]`, `x[idx]`
    of a matrix), where NumPy casts written values per subspace, after the index checks."""
    return sum(1 for k in spec if k[0] in ("int", "array")) < ndim


_WHOLE = ("slice", None, None, None)
_ONE_BYTE = bytes(1)  # the zero-stride probes' storage
_ZERO_INDEX = bytes(8)


def _indexed_shape(shape: tuple[int, ...], probe: list) -> tuple:
    """NumPy's shape of an array of `shape` indexed by `probe` (zero-stride zeros at the index
    arrays), found without gathering: the probe's result is as large as the selection (400,000
    indices into a (2000, 5000) base: 2 GB). Index arrays of shapes (0, 1, .., 1) and then
    (0, 2, .., 2) select nothing; the dims that differ between the two results are the broadcast
    block's, which NumPy places by its own rule (in place, or first when the arrays are apart)."""
    base = np.ndarray(shape, bool, _ONE_BYTE, strides=(0,) * len(shape))
    arrays = [p for p in probe if isinstance(p, np.ndarray)]
    try:
        block = np.broadcast(*arrays).shape if 0 < len(arrays) <= 32 else ()
    except ValueError:
        block = ()  # (NumPy's IndexError from the probe itself)
    if not block:  # no index array, 0-d ones, or arrays that do not broadcast
        return base[tuple(probe)].shape
    k = len(block)
    one, two = (base[tuple(np.zeros((0,) + (size,) * k, np.intp) if isinstance(p, np.ndarray)
                           else p for p in probe)].shape for size in (1, 2))
    first = next(d for d, (a, b) in enumerate(zip(one, two)) if a != b) - 1
    return one[:first] + block + one[first + 1 + k:]


def _basic_scatter_key(shape: tuple[int, ...], key: Any) -> tuple[tuple, list, tuple] | None:
    """`_scatter_key` for a basic key (as `_basic_getitem` takes), without the mask check,
    `_expand` and NumPy's probe: the same spec (`_expand`'s items: an Ellipsis becomes whole
    slices, or ("ellipsis",) where it covers no dimension; whole slices fill the rest), no index
    nodes, and the indexed shape from `_resolve_basic`. None for any other key."""
    t = type(key)
    if not (t is tuple or t is slice or t is int or key is None or key is Ellipsis
            or t in NUMPY_INTS):
        return None
    try:
        resolved = _resolve_basic(shape, key)
    except ValueError:  # a zero step: NumPy's error from the general path
        return None
    if resolved is None:
        return None
    items = key if t is tuple else (key,)
    fill = len(shape) - sum([1 for k in items if k is not None and k is not Ellipsis])
    spec, ellipsis = [], False
    for k in items:
        if k is None:
            spec.append(("none",))
        elif k is Ellipsis:
            ellipsis = True
            spec.extend([_WHOLE] * fill if fill else [("ellipsis",)])
        elif type(k) is not slice:  # an index: as `_scatter_key`, int(k)
            spec.append(("int", int(k)))
        else:
            spec.append(("slice", k.start, k.stop, k.step))
    if not ellipsis:
        spec.extend([_WHOLE] * fill)
    return tuple(spec), [], resolved[1]
