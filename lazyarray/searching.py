"""Sorting, searching, counting and set functions of the Array API standard.

`argsort`, `searchsorted` and `isin` are opaque library calls (graph/ops_sorting.py); `sort` is
`argsort` followed by a fused gather, so it has a derivative. `count_nonzero` is a fused reduction.
`nonzero` and the `unique_*` functions have data-dependent output shapes: they EVALUATE their input
when called (a lazy graph cannot know their shapes) and return Arrays over the results, computed by
NumPy on the host and put on the input's device (`nonzero` itself is in _host_results.py, below
elementwise.py and masking.py, which use it).
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from . import _axis_args, _bind
from .array import Array, zero_d_array
from .jit import differentiating
from .graph import dtypes, get_op
from .graph.node import user_site
from .reductions import _as_node, sum as _sum
from ._host_results import _array, _leaf, nonzero  # noqa: F401  (la.nonzero)
from .indexing import take
from .creation import host_result, host_values
from .shaping import gather_along_axis

_ARGSORT, _SEARCHSORTED, _ISIN = (get_op(n) for n in ("argsort", "searchsorted", "isin"))
_SORTED_ROWS, _SORT = get_op("sorted_rows"), get_op("sort")


def argsort(a: Any, axis: int | None = -1, kind: str | None = None, order: Any = None, *,
            descending: bool | None = None, stable: bool | None = None) -> Array:
    """numpy.argsort / Array API `argsort`: NumPy's argsort of the given kind, so equal keys come
    in NumPy's order (its default is not stable: `stable=True` or kind='stable' is). A call
    that passes the standard's own keyword `descending` is the standard's, whose default is
    `stable=True` (array_api_compat's for NumPy too). axis=None sorts the flattened array."""
    site = user_site(1)
    check_sort_kind(kind, order, stable, site)
    if descending is not None and stable is None and kind is None:
        stable = True
    descending = bool(descending)
    node = _as_node(a, site)
    _axis_args.refuse_bool_axis(axis, site)
    if axis is None or (node.ndim == 0 and axis in (0, -1)):  # NumPy: a 0-d x gives [0]
        node, axis = _flat(node, site), 0
    ax = _bind.normalize_axis(axis, node.ndim, site)
    attrs = (ax, bool(descending), sort_kind(kind, stable))
    return Array(_bind.primitive(_ARGSORT, (node,), attrs, node.shape, dtypes.int64, site))


def sort_kind(kind: str | None, stable: Any) -> str | None:
    """The algorithm NumPy runs for a (checked) `kind`/`stable`: None (its default introsort, as
    'quicksort' and stable=False), 'heapsort' or 'stable' (as 'mergesort' and stable=True)."""
    if stable:
        return "stable"
    first = (kind or "q")[0].lower()
    return {"q": None, "h": "heapsort"}.get(first, "stable")


def sort(a: Any, axis: int | None = -1, kind: str | None = None, order: Any = None, *,
         descending: bool | None = None, stable: bool | None = None) -> Array:
    """numpy.sort / Array API `sort`: NumPy's sort of the given kind (its bits: an unstable kind
    may order -0.0 and 0.0 otherwise than a stable one); descending (the standard's, stable) and
    under la.grad's trace, argsort then a gather (differentiable). axis=None sorts the flattened
    array, as NumPy."""
    site = user_site(1)
    check_sort_kind(kind, order, stable, site)
    if descending is not None and stable is None and kind is None:
        stable = True  # (the standard's call: its default is stable, as argsort's)
    descending = bool(descending)
    a = _array(a, site)
    if type(axis) is bool:  # NumPy's sort (Python code) takes True as 1; argsort refuses it
        axis = int(axis)
    if axis is None:
        a, axis = Array(_flat(a._node, site)), 0
    if a.ndim == 0:  # NumPy: AxisError (a tuple: its TypeError)
        _bind.normalize_axis(axis, 0, site)
    if descending or differentiating():  # the standard's stable descending; la.grad: a gather
        return gather_along_axis(a, argsort(a, axis=axis, descending=descending), axis,
                                 in_bounds=True)
    ax = _bind.normalize_axis(axis, a.ndim, site)
    kind = "stable" if stable else kind
    node = a._node
    return Array(_bind.primitive(_SORT, (node,), (ax, kind), node.shape, node.dtype, site))


def sorted_rows(x: Array, rows: Array, ends: tuple[int, ...] = ()) -> Array:
    """take_along_axis(sort(x, axis=0), rows, axis=0), rows in bounds: a few order statistics per
    column (median, quantile) by NumPy's partition where a sort would order every value, also
    at the `ends` ranks (0, -1) NumPy's caller partitions at (the same cost). The op
    has no derivative rule: while la.grad/vjp trace (jit.differentiating), the sort and gather it
    stands for are built instead, and differentiate as they did."""
    site = user_site(1)
    if differentiating():
        return gather_along_axis(sort(x, axis=0), rows, 0, in_bounds=True)
    node, idx = _as_node(x, site), _as_node(rows, site)
    return Array(_bind.primitive(_SORTED_ROWS, (node, idx), (tuple(ends),), idx.shape,
                                 node.dtype, site))


def check_sort_kind(kind: Any, order: Any, stable: Any, site: _bind.Site) -> None:
    """NumPy's checks of sort/argsort's `kind`, `order` and `stable`."""
    if kind is not None:
        if not isinstance(kind, str):
            raise _bind.fail(TypeError, f"sort kind must be str, not {type(kind).__name__}", site)
        if kind[:1].lower() not in ("q", "h", "m", "s"):
            raise _bind.fail(ValueError, "sort kind must be one of 'quick', 'heap', or 'stable' "
                             f"(got {kind!r})", site)
        if stable is not None:
            raise _bind.fail(ValueError, "`kind` and keyword parameters can't be provided at the "
                             "same time. Use only one of them.", site)
    if order is not None:
        raise _bind.fail(ValueError, "Cannot specify order when the array has no fields.", site)


def _flat(node: _bind.Node, site: _bind.Site) -> _bind.Node:
    """The node as a 1-D array (NumPy's axis=None for sort/argsort)."""
    if node.ndim == 1:
        return node
    return _bind.primitive(get_op("reshape"), (node,), ((node.size,),), (node.size,), node.dtype,
                           site)


def searchsorted(a: Any, v: Any, side: str = "left", sorter: Any = None) -> Array:
    """Array API `searchsorted` (numpy.searchsorted): x1 is 1-D and sorted (or `sorter` sorts it)."""
    site = user_site(1)
    if side not in ("left", "right"):
        raise _bind.fail(ValueError, f"side must be 'left' or 'right', not {side!r}", site)
    haystack = _array(a, site)
    if haystack.ndim != 1:
        raise _bind.fail(ValueError, "object too deep for desired array" if haystack.ndim else
                         "object of too small depth for desired array", site)  # NumPy's texts
    if sorter is not None:
        checked = _checked_sorter(sorter, haystack.size, site)
        if checked is None:  # an entry out of [0, n): NumPy's answer depends on its search path
            return _host_searchsorted(haystack, v, side, sorter)
        haystack = take(haystack, checked)
    needles = _as_node(v, site)
    return Array(_bind.primitive(_SEARCHSORTED, (haystack._node, needles), (side,), needles.shape,
                                 dtypes.int64, site))


def _checked_sorter(sorter: Any, n: int, site: _bind.Site) -> Any:
    """searchsorted's `sorter` after NumPy's checks and texts (1-D, integers that cast safely to
    intp, n of them), or None where an entry is out of [0, n). NumPy reads only the entries its
    binary search visits and raises 'Sorter index out of range.' at a bad one; a take here wrapped
    a negative entry and answered (probe54: `sorter=[0, 1, -1]` gave 2 where NumPy raises). A
    pending sorter is computed to be checked, except argsort's result (a permutation)."""
    s = sorter if isinstance(sorter, Array) else np.asarray(sorter)
    if s.ndim != 1:
        raise _bind.fail(TypeError, "could not parse sorter argument", site)
    if s.dtype.kind not in "iu":
        raise _bind.fail(TypeError, "sorter must only contain integers", site)
    if not np.can_cast(s.dtype, np.intp):
        raise _bind.fail(ValueError, "could not parse sorter argument", site)
    if s.size != n:
        raise _bind.fail(ValueError, "sorter.size must equal a.size", site)
    if isinstance(s, Array) and s._node.op is _ARGSORT:
        return s
    values = np.asarray(s)
    return s if not n or (values.min() >= 0 and values.max() < n) else None


def _host_searchsorted(a: Array, v: Any, side: str, sorter: Any) -> Array:
    """NumPy's own searchsorted on the values: its answer where its search never reads the bad
    sorter entry, else its ValueError."""
    a_host, v_host, s_host = host_values(a, v, sorter)
    return host_result(np.searchsorted(a_host, v_host, side, sorter=s_host))


def isin(element: Any, test_elements: Any, assume_unique: bool = False, invert: bool = False, *,
          kind: str | None = None) -> Array:
    """Array API `isin` (numpy.isin, its positional order): whether each element of x1 is among
    x2's values. `assume_unique` and `kind` pick NumPy's algorithm (checked as NumPy checks them);
    the answer is the same."""
    site = user_site(1)
    a = _as_node(element, site)
    if isinstance(test_elements, (set, frozenset)):  # NumPy: one 0-d object, equal to no
        # element (its documentation's warning: `np.isin(element, set(test_elements))` is all False)
        return Array(_as_node(np.full(a.shape, bool(invert)), site))
    b = _as_node(test_elements, site)
    if kind not in (None, "sort", "table"):
        raise _bind.fail(ValueError, f"Invalid kind: {kind!r}. Please use None, 'sort' or "
                         "'table'.", site)
    if kind == "table" and not (a.dtype.kind in "biu" and b.dtype.kind in "biu"):
        raise _bind.fail(ValueError, "The 'table' method is only supported for boolean or integer "
                         "arrays. Please select 'sort' or None for kind.", site)
    out = Array(_bind.primitive(_ISIN, (a, b), (bool(invert),), a.shape, dtypes.bool_, site))
    return out if a.shape else zero_d_array(out)  # NumPy's 0-d *array* for a 0-d x1 (probe55)


def count_nonzero(a: Any, axis: Any = None, *, keepdims: bool = False) -> Array:
    """Array API `count_nonzero` (numpy.count_nonzero): a fused sum of x != 0, int64."""
    a = _array(a, user_site(1))
    return _sum(a != 0 if a.dtype.kind != "b" else a, axis=axis, dtype=dtypes.int64,
                keepdims=keepdims)


class UniqueAllResult(NamedTuple):
    values: Array
    indices: Array
    inverse_indices: Array
    counts: Array


class UniqueCountsResult(NamedTuple):
    values: Array
    counts: Array


class UniqueInverseResult(NamedTuple):
    values: Array
    inverse_indices: Array


def _unique(x: Any, site: _bind.Site, **want: bool) -> tuple[np.ndarray, ...]:
    """np.unique over the flattened, evaluated input; NaNs stay distinct, as the standard asks."""
    host = np.asarray(_array(x, site)).reshape(-1)
    out = np.unique(host, equal_nan=False, **want)
    return out if isinstance(out, tuple) else (out,)


def _device(x: Any) -> str:
    return x.device if isinstance(x, Array) else "cpu"


def unique_all(x: Any, /) -> UniqueAllResult:
    """Array API `unique_all` (numpy.unique_all); evaluates `x` when called."""
    site = user_site(1)
    shape = _array(x, site).shape
    values, index, inverse, counts = _unique(x, site, return_index=True, return_inverse=True,
                                             return_counts=True)
    dev = _device(x)
    return UniqueAllResult(_leaf(values, site, dev), _leaf(index.astype(np.int64), site, dev),
                           _leaf(inverse.astype(np.int64).reshape(shape), site, dev),
                           _leaf(counts.astype(np.int64), site, dev))


def unique_counts(x: Any, /) -> UniqueCountsResult:
    """Array API `unique_counts` (numpy.unique_counts); evaluates `x` when called."""
    site = user_site(1)
    values, counts = _unique(x, site, return_counts=True)
    dev = _device(x)
    return UniqueCountsResult(_leaf(values, site, dev), _leaf(counts.astype(np.int64), site, dev))


def unique_inverse(x: Any, /) -> UniqueInverseResult:
    """Array API `unique_inverse` (numpy.unique_inverse); evaluates `x` when called."""
    site = user_site(1)
    shape = _array(x, site).shape
    values, inverse = _unique(x, site, return_inverse=True)
    dev = _device(x)
    return UniqueInverseResult(_leaf(values, site, dev),
                               _leaf(inverse.astype(np.int64).reshape(shape), site, dev))


def unique_values(x: Any, /) -> Array:
    """Array API `unique_values` (numpy.unique_values); evaluates `x` when called. Sorted, as
    array-api-strict's: NumPy 2.3+ gives `unique(sorted=False)`'s order (a hash table's, "may
    vary" in its docs), but scikit-learn's LabelEncoder searchsorted()s into these values (its
    consumer test failed with NumPy's order)."""
    site = user_site(1)
    return _leaf(_unique(x, site)[0], site, _device(x))
