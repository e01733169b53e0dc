"""Sorting, searching, set membership and the running product and scans: opaque library calls
(NumPy on the CPU backends, CuPy on the GPU), as concat and cumsum are. `argsort`, `sort`,
`partition` and `argpartition` are NumPy's own of the kind asked for, so equal keys and the
parts of a partition come in NumPy's order; under la.grad a sort or partition is the gather of
its indices (its derivative the gather's rule).
"""

from __future__ import annotations

import numpy as np

from . import derivatives as d
from .registry import OPERAND_ORDER, OpDef, OpKind, register


def _cupy():
    import cupy  # optional: CuPy, present with a GPU

    return cupy


def _both(fn):
    """(NumPy reference, CuPy implementation) from one function of the array module."""
    return (lambda xs, a, dt: np.asarray(fn(np, xs, a), dtype=dt),
            lambda xs, a, dt: fn(_cupy(), xs, a).astype(dt, copy=False))


def _argsort(xp, xs, attrs):
    """NumPy's argsort of the given kind (None: its default introsort, on AVX-512 x86-simd-sort,
    whose order of equal keys is neither stable nor documented, but is a function of the lane's
    values: so a program that indexes by it sees NumPy's permutation); "stable" as NumPy's.
    Descending (the standard's, no NumPy twin) = the ascending stable sort of the reversed axis,
    reversed back, which keeps equal elements in their original order."""
    x, (axis, descending, sort_kind) = xs[0], attrs
    kind = {"kind": "stable"} if xp is np else {}
    if not descending:
        if xp is not np:
            return xp.argsort(x, axis=axis)
        return stable_argsort(x, axis) if sort_kind == "stable" else \
            np.argsort(x, axis=axis, kind=sort_kind)
    n = x.shape[axis]
    return (n - 1) - xp.flip(xp.argsort(xp.flip(x, axis), axis=axis, **kind), axis)


FAST_ARGSORT_MIN = 4096  # elements: below, NumPy's stable sort costs about what the check does


def stable_argsort(x: np.ndarray, axis: int) -> np.ndarray:
    """NumPy's stable argsort along `axis`, by its default (introsort, SIMD) argsort where that
    gives the same indices: a float lane whose sorted keys are all distinct (no equal neighbours,
    at most one NaN: -0.0 and 0.0 are equal) has one sorting permutation, so any sort finds it;
    lanes with ties are sorted again stably. aliasing_updates' `np.argsort(A, axis=1)` of
    (1500, 1500) random floats: 121 ms stable, ~65 here, NumPy's own default 52."""
    n = x.shape[axis] if x.ndim else 1
    if x.dtype.kind != "f" or x.size < FAST_ARGSORT_MIN or axis != x.ndim - 1 or n < 2:
        return np.argsort(x, axis=axis, kind="stable")
    order = np.argsort(x, axis=-1)
    keys = np.take_along_axis(x, order, axis=-1)
    ties = (keys[..., 1:] == keys[..., :-1]).any(axis=-1) | np.isnan(keys[..., -2])
    if ties.any():
        order[ties] = np.argsort(x[ties], axis=-1, kind="stable")
    return order


def _sort(xp, xs, attrs):
    """NumPy's sort with NumPy's kind (None: its default introsort): the same bits as
    np.sort, whose unstable kinds may order -0.0 and 0.0 (equal keys) otherwise than a stable
    sort does."""
    x, (axis, kind) = xs[0], attrs
    return xp.sort(x, axis=axis, kind=kind) if xp is np else xp.sort(x, axis=axis)


PARTITION_KTH_MAX = 64  # more distinct ranks than this: one sort costs less than introselect's


def _sorted_rows(xp, xs, attrs):
    """sort(x, axis=0)[rows] along axis 0 (take_along_axis), by NumPy's partition at the distinct
    rows asked for, as NumPy's median and quantile select (the selected values are the sorted
    array's: NaN sorts last in both). `ends`: the first (0) and last (-1) ranks NumPy's caller
    also partitions at (quantile: both; median of floats: the last). They change no value, only
    the selection's cost, which depends on them: hist_equalize's percentile of 1.9M uint8 took
    10.6 ms at its two ranks, NumPy's 4.7 at the four (introselect's pivots from the ends)."""
    (x, rows), (ends,) = xs, attrs
    if xp is np and x.shape[0] and rows.size:
        kth = np.unique(np.concatenate((np.ravel(rows), np.asarray(ends, np.int64) % x.shape[0])))
        if kth.size <= PARTITION_KTH_MAX:
            # columns made contiguous first (introselect along a strided axis is ~1.5x slower;
            # np.partition would copy x anyway), partitioned in place
            lanes = np.moveaxis(x, 0, -1).copy()
            lanes.partition(kth, axis=-1)
            return np.moveaxis(np.take_along_axis(lanes, np.moveaxis(rows, 0, -1), axis=-1),
                               -1, 0)
    return xp.take_along_axis(xp.sort(x, axis=0), rows, axis=0)


def _partition(xp, xs, attrs):
    """NumPy's partition (introselect; x86-simd-sort on AVX-512): the k-th values in place and,
    in the parts between them, NumPy's own order, which is unspecified but a function of each
    lane's values (a full sort would satisfy the partition property and still differ)."""
    kth, axis = attrs
    return xp.partition(xs[0], kth, axis=axis)


def _argpartition(xp, xs, attrs):
    """NumPy's argpartition: _partition's permutation, NumPy's order of equal keys too."""
    kth, axis = attrs
    return xp.argpartition(xs[0], kth, axis=axis)


def _searchsorted(xp, xs, attrs):
    return xp.searchsorted(xs[0], xs[1], side=attrs[0])


def _isin(xp, xs, attrs):
    return xp.isin(xs[0], xs[1], invert=attrs[0])


def _cumprod(xp, xs, attrs):
    return xp.cumprod(xs[0], axis=attrs[0])


def _cumprod_vjp(g, y, xs, attrs):
    """g_i = sum_{j>=i} g_j y_j / x_i: exact wherever x_i != 0 (after a zero every y_j is 0, and so
    is every term); at a zero entry itself it would be 0/0, so the rule gives NaN there instead of
    a silently wrong number."""
    (axis,), x = attrs, xs[0]
    if x.dtype.kind != "f":
        return (None,)
    gy = d.mul(g, y)
    back = d.flip(d.cumsum(d.flip(gy, axis), axis), axis)
    zero = d.compare("equal", x, 0.0)
    return (d.where(zero, float("nan"), d.div(back, d.where(zero, 1.0, x))),)


def _accumulate(xs, attrs, dtype):
    """NumPy's `ufunc.accumulate` along one axis: one library call, NumPy's own order and values
    (a log-step scan in the graph built a structure per power of two of the length)."""
    name, axis = attrs
    return np.asarray(getattr(np, name).accumulate(xs[0], axis=axis), dtype=dtype)


def _register(name, fn, arity, attrs, doc, vjp=None, properties=frozenset()):
    reference, cupy_impl = _both(fn)
    return register(OpDef(name, OpKind.OPAQUE, reference, arity=arity, attr_names=attrs,
                          cupy=cupy_impl, vjp=vjp, differentiable=vjp is not None, doc=doc,
                          properties=properties))


ARGSORT = _register("argsort", _argsort, 1, ("axis", "descending", "kind"),
                    "indices that sort x along axis (int64) by NumPy's argsort of that kind "
                    "(None: NumPy's default, its order of ties; 'stable')")
SORT = _register("sort", _sort, 1, ("axis", "kind"),
                 "x sorted along axis by NumPy's sort of that kind (None: NumPy's default)",
                 properties=frozenset({"derivative_not_implemented", OPERAND_ORDER}))  # (la.grad: argsort)
SORTED_ROWS = _register("sorted_rows", _sorted_rows, 2, ("ends",),
                        "take_along_axis(sort(x1, axis=0), x2, axis=0): order statistics of x1's "
                        "columns by partition (median, quantile)",
                        properties=frozenset({"derivative_not_implemented"}))  # (not zero)
PARTITION = _register("partition", _partition, 1, ("kth", "axis"),
                      "NumPy's partition of x along axis at the ranks kth (its order inside the "
                      "parts)", properties=frozenset({"derivative_not_implemented", OPERAND_ORDER}))
ARGPARTITION = _register("argpartition", _argpartition, 1, ("kth", "axis"),
                         "NumPy's argpartition of x along axis at the ranks kth (int64)")
SEARCHSORTED = _register("searchsorted", _searchsorted, 2, ("side",),
                         "insertion points of x2 in the sorted 1-D x1 (int64)")
ISIN = _register("isin", _isin, 2, ("invert",), "x1 elementwise in the set of x2's values (bool)")
CUMPROD = _register("cumprod", _cumprod, 1, ("axis",), "running product along axis",
                    vjp=_cumprod_vjp, properties=frozenset({OPERAND_ORDER}))
# No CuPy twin: a host round trip on the GPU.
ACCUMULATE = register(OpDef("accumulate", OpKind.OPAQUE, _accumulate, arity=1,
                            attr_names=("ufunc", "axis"), differentiable=False,
                            properties=frozenset({"derivative_not_implemented", OPERAND_ORDER}),
                            doc="NumPy's ufunc.accumulate of x along axis (the ufunc by name)"))
