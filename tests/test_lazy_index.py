"""A pending 0-d integer Array used as an index stays lazy (issue 25; docs/semantics.md
"Indexing", docs/caching.md "Indices and slice bounds as arguments"): `A[la.argmax(x)]` is a
`take` with the index as a node input, so the indexing line evaluates nothing and a loop over
such indices is one structure, one plan. NumPy takes a 0-d integer ndarray as an *advanced*
index, so the result is a copy (a write through it does not reach A); the values, dtypes and
shapes below are NumPy's with the same index as a 0-d ndarray. An index out of bounds raises
IndexError at evaluation (checked, never clamped or wrapped, on every backend: the take and the
scatter run their NumPy reference; on cupy on the host), naming the indexing line.

A pending 0-d integer Array that stands for NumPy's integer *scalar* (a reduction's result,
`la.argmax(x)`) is a basic index: `A[i]` is a view. It stays lazy too, as the same gather linked
to A as a *dynamic view* (lazyarray/writes.py, indexing.py `DynamicIndex`): writes into A show
in it, writes through it reach A, as scatters by the same key (the tests below `_scalar`).

The module runs with `eager_size=0` (`lazy_only`): small computed operands would otherwise be
indexed at once, with nothing pending to look at.
"""

from __future__ import annotations

import sys

import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import lazyarray as la
from lazyarray import writes
from lazyarray.graph import dtypes
from sites import assert_site

pytestmark = pytest.mark.lazy_only
_FIXTURE = [HealthCheck.function_scoped_fixture]  # `backend` only selects the backend
_A = np.arange(60.0).reshape(5, 4, 3) * 1.5 - 7.0


def _evaluations() -> int:
    """Plans built plus plans reused: every evaluation of a pending graph is one of the two."""
    info = la.cache_info()
    return info.plans_built + info.plan_hits


def _pending(value: int, dtype=np.int64) -> la.Array:
    """A pending 0-d integer *array* of `dtype` holding `value` (a one-element max reshaped to
    ()): NumPy's 0-d ndarray, an advanced index. (A reduction's own 0-d result, `la.max(x)`, is
    NumPy's scalar: a basic index, read at the line for its view, test_writes.py
    `test_a_row_by_an_element_index_is_a_view_as_numpys`.)"""
    idx = la.reshape(la.max(la.asarray(np.full(3, value, dtype)), keepdims=True), ())
    assert idx.dtype == dtype and idx.shape == () and not idx._node.holds_buffer
    assert idx._view is not False
    return idx


def _line() -> int:
    return sys._getframe(1).f_lineno


# Keys with the pending index as `i` (and `j`), and the same key for NumPy with 0-d ndarrays.
KEYS = {
    "A[i]": lambda i, j: i,
    "A[i, 1:3]": lambda i, j: (i, slice(1, 3)),
    "A[:, j]": lambda i, j: (slice(None), j),
    "A[i, 2]": lambda i, j: (i, 2),
    "A[i, j]": lambda i, j: (i, j),
    "A[i, j, -1]": lambda i, j: (i, j, -1),
    "A[i, :, j]": lambda i, j: (i, slice(None), j),
    "A[[0, 4], j]": lambda i, j: ([0, 4], j),
    "A[i, [3, 0, 1]]": lambda i, j: (i, [3, 0, 1]),
    "A[i, :, [2, 0]]": lambda i, j: (i, slice(None), [2, 0]),
    "A[None, ..., j]": lambda i, j: (None, Ellipsis, j),
    "A[i, ::-1, None]": lambda i, j: (i, slice(None, None, -1), None),
}


@pytest.mark.parametrize("name", list(KEYS))
def test_reads_evaluate_nothing_at_the_line_and_match_numpy(backend, name):
    a = la.asarray(_A)
    i, j = _pending(3), _pending(-2)
    before = _evaluations()
    out = a[KEYS[name](i, j)]
    assert _evaluations() == before
    assert not i._node.holds_buffer and not j._node.holds_buffer
    want = _A[KEYS[name](np.array(3), np.array(-2))]
    assert (out.shape, out.dtype) == (want.shape, want.dtype)
    np.testing.assert_array_equal(np.asarray(out), want)


@pytest.mark.parametrize("dtype", dtypes.INTEGER, ids=str)
def test_every_integer_dtype_as_a_pending_index(backend, dtype):
    a = la.asarray(_A)
    for value in (0, 4, -5) if dtype.kind == "i" else (0, 4):
        i = _pending(value, dtype)
        before = _evaluations()
        out = a[i, 1]
        assert _evaluations() == before
        np.testing.assert_array_equal(np.asarray(out), _A[np.array(value, dtype), 1])


@st.composite
def _cases(draw):
    """A shape, a key with pending 0-d indices at some dims (ints, slices, lists, None beside
    them) and their values, in range or not; the index dtype."""
    shape = tuple(draw(st.lists(st.integers(1, 4), min_size=1, max_size=3)))
    dtype = draw(st.sampled_from(dtypes.INTEGER))
    low = 0 if dtype.kind == "u" else -5
    key, values = [], []
    for n in shape[:draw(st.integers(1, len(shape)))]:
        if draw(st.booleans()):
            key.append(None)
        kind = draw(st.sampled_from(["pending", "pending", "int", "slice", "list"]))
        if kind == "pending":
            values.append(draw(st.integers(low, 5)))
            key.append(len(values) - 1)  # a placeholder: the pending index's number
        elif kind == "int":
            key.append(slice(draw(st.integers(-n, n - 1)), "int"))
        elif kind == "slice":
            key.append(slice(draw(st.integers(-n, n)), None, draw(st.sampled_from([1, -1, 2]))))
        else:
            key.append(draw(st.lists(st.integers(-n, n - 1), min_size=1, max_size=2)))  # broadcast
    if not values:  # the last index becomes a pending one
        values.append(draw(st.integers(low, 5)))
        key[-1] = 0
    return shape, np.dtype(dtype), key, values


def _key(key: list, indices: list) -> tuple:
    out = []
    for k in key:
        if type(k) is int:
            out.append(indices[k])
        elif type(k) is slice and k.stop == "int":
            out.append(k.start)
        else:
            out.append(k)
    return tuple(out)


@settings(max_examples=60, deadline=None, suppress_health_check=_FIXTURE, derandomize=True)
@given(case=_cases())
@example(case=((1, 1), np.dtype(np.int8), [0, slice(1, None, 1)], [1]))  # an empty take, checked
def test_pending_indices_match_numpy(reference_backend, case):
    """Reads through pending 0-d indices of any integer dtype: NumPy's values, dtype and shape,
    or NumPy's IndexError (at evaluation here: the key is not known before)."""
    shape, dtype, key, values = case
    data = np.arange(int(np.prod(shape)), dtype=np.float32).reshape(shape)
    try:
        want = data[_key(key, [np.array(v, dtype) for v in values])]
    except IndexError:
        want = None
    indices = [_pending(v, dtype) for v in values]
    before = _evaluations()
    out = la.asarray(data)[_key(key, indices)]
    assert _evaluations() == before
    if want is None and out.size == 0:  # (docs/semantics.md) np.take's rule, not indexing's:
        try:  # nothing gathered: checked only where the gathered axis itself is not empty
            assert np.asarray(out).shape == out.shape
        except IndexError as exc:  # ((1, 1)[i, 1:], i = 1: np.take's own check)
            assert "out of bounds" in str(exc)
        return
    if want is None:
        with pytest.raises(IndexError, match="out of bounds"):
            np.asarray(out)
        return
    assert (out.shape, out.dtype) == (want.shape, want.dtype)
    np.testing.assert_array_equal(np.asarray(out), want)


@pytest.mark.parametrize("value", [5, -6, 100])
def test_out_of_bounds_raises_at_evaluation_naming_the_indexing_line(backend, value):
    """Checked on every backend (the take's NumPy reference; on cupy after the copy to the
    host): IndexError, never a clamped or wrapped read."""
    a = la.asarray(_A)
    i = _pending(value)
    out = a[i] * 2.0; line = _line()  # noqa: E702 (the line the error names)
    with pytest.raises(IndexError, match="out of bounds") as info:
        np.asarray(out)
    assert_site(info, f"test_lazy_index.py:{line}")


def test_a_pending_uint64_index_past_int64_raises_as_numpy_does(reference_backend):
    """NumPy takes a 0-d index as a Python int: 2**64 - 2 (3 - 5 in uint64) raises. The int64
    cast would wrap it to -2, a valid row; clamped, it is out of bounds on every axis."""
    a = la.asarray(_A)
    i = la.reshape(la.asarray(np.array([3], np.uint64)) - la.asarray(np.array(5, np.uint64)), ())
    with pytest.raises(OverflowError):
        _A[np.array(2**64 - 2, np.uint64)]
    scalar = la.asarray(np.array(3, np.uint64)) - la.asarray(np.array(5, np.uint64))
    with pytest.raises(OverflowError):  # NumPy's scalar: read at the line, as NumPy's is
        a[scalar]
    with pytest.raises(OverflowError):
        _A[np.uint64(3) - np.uint64(5)]
    for out in (a[i], a[i, 1], a[:, i], a.at[i].set(0.0)):
        with pytest.raises(IndexError, match="out of bounds"):
            np.asarray(out)
    rows = la.stack([i, i])  # an n-d uint64 index wraps in NumPy too (its cast to intp)
    np.testing.assert_array_equal(np.asarray(a[rows]), _A[np.array([2**64 - 2] * 2, np.uint64)])


def test_the_result_is_a_copy_as_numpy_s_advanced_index(backend):
    a = la.asarray(_A.copy())
    row = a[_pending(1)]
    row += 100.0
    row[0] = -1.0
    np.testing.assert_array_equal(np.asarray(a), _A)
    np.testing.assert_array_equal(np.asarray(row)[1:], _A[1][1:] + 100.0)


def test_a_computed_index_keeps_the_int_path(reference_backend):
    """A computed 0-d index (a leaf, an evaluated result) is read now, for free: the row is a
    slice with a run-time start, no gather, and still a copy."""
    a = la.asarray(_A)
    i = la.asarray(np.array(2))
    out = a[i]
    assert out._node.op.name != "take"
    np.testing.assert_array_equal(np.asarray(out), _A[2])


def test_writes_evaluate_nothing_at_the_line_and_match_numpy(backend):
    a, want = la.asarray(_A.copy()), _A.copy()
    view, want_view = a[4], want[4]  # a live view sees the writes, as in NumPy
    i, j = _pending(4), _pending(-1)
    before = _evaluations()
    a[i] = 1.0
    a[i, j] += la.asarray(np.arange(3.0))
    a[0, j, i - 3] = -5.0
    b = a.at[j].add(2.0)
    c = a.at[i, :, j].set(9.0)
    assert _evaluations() == before and not i._node.holds_buffer
    want[4] = 1.0
    want[4, 3] += np.arange(3.0)
    want[0, 3, 1] = -5.0
    np.testing.assert_array_equal(np.asarray(a), want)
    np.testing.assert_array_equal(np.asarray(view), want_view)
    want_b = want.copy()
    want_b[-1] += 2.0
    np.testing.assert_array_equal(np.asarray(b), want_b)
    want[4, :, 3 - 4] = 9.0
    np.testing.assert_array_equal(np.asarray(c), want)


def test_an_out_of_bounds_write_raises_at_evaluation_naming_its_line(backend):
    a = la.asarray(_A.copy())
    i = _pending(7)
    a[i] = 1.0; line = _line()  # noqa: E702
    with pytest.raises(IndexError, match="out of bounds") as info:
        np.asarray(a)
    assert_site(info, f"test_lazy_index.py:{line}")


def test_a_loop_over_pending_indices_builds_one_plan(backend, fresh_caches):
    """The index is the take's input, not an attribute: every iteration is one structure."""
    rng = np.random.default_rng(25)
    table, x = rng.standard_normal((300, 40)), rng.standard_normal((8, 300))
    t, xs = la.asarray(table), la.asarray(x)
    got = []
    for k in range(8):
        i = la.reshape(la.argmax(xs[k] * 2.0, keepdims=True), ())  # a 0-d array: lazy
        got.append(float(t[i].sum()))
    info = la.cache_info()
    assert (info.plans_built, info.plan_hits) == (1, 7)
    np.testing.assert_allclose(got, [table[np.argmax(x[k])].sum() for k in range(8)])


def test_with_the_default_at_once_size_an_index_over_large_data_stays_pending(backend):
    """As users run: an index computed from large pending data is not computed at once, and
    indexing with it evaluates nothing either: a gather by a pending 0-d index is not computed
    at once (lazyarray/eager.py `_pending_scalar_index`), which would evaluate `big` now."""
    big = la.asarray(np.linspace(-1.0, 1.0, 100_000)) ** 2
    table = np.arange(300_000.0).reshape(100_000, 3)
    with la.config(eager_size=4096):
        # a 0-d array (a reshape: NumPy's advanced index); an op on argmin's (1,) view would be
        # an op on an indexed read, computed at once
        i = la.reshape(la.argmin(big, keepdims=True), ())
        before = _evaluations()
        out = la.asarray(table * 1.0)[i, 1]
        twice = out * 2.0  # (built in C on the compiled path: the same at-once rule)
        assert _evaluations() == before and not i._node.holds_buffer
        assert not big._node.holds_buffer
        assert not out._node.holds_buffer and not twice._node.holds_buffer
        k = np.argmin(np.linspace(-1.0, 1.0, 100_000) ** 2)
        np.testing.assert_array_equal(np.asarray(out), table[k, 1])


# --- NumPy's integer *scalar* as a pending index: lazy, and a view (a dynamic view) ---------------


def _scalar(value: int, dtype=np.int64, size: int = 3) -> la.Array:
    """A pending 0-d integer Array that stands for NumPy's integer scalar (a reduction's result:
    `_view` False), holding `value`: a basic index, so `A[i]` is a view of A."""
    idx = la.max(la.asarray(np.full(size, value, dtype)))
    assert idx._view is False and idx._node.inputs
    return idx


# Keys with scalar indices `i`, `j` (NumPy: np.intp scalars); each is a view, or an element.
SCALAR_KEYS = {
    "A[i]": lambda i, j: i,
    "A[i, 1:3]": lambda i, j: (i, slice(1, 3)),
    "A[:, j]": lambda i, j: (slice(None), j),
    "A[i, j]": lambda i, j: (i, j),
    "A[i, j, -1]": lambda i, j: (i, j, -1),
    "A[i, ::-1, None]": lambda i, j: (i, slice(None, None, -1), None),
    "A[..., j]": lambda i, j: (Ellipsis, j),
    "A[i, j, ...]": lambda i, j: (i, j, 0, Ellipsis),
    "A[None, 2, j]": lambda i, j: (None, 2, j),
}


@pytest.mark.parametrize("name", list(SCALAR_KEYS))
def test_a_scalar_index_reads_lazily_as_numpy_s_basic_index(backend, name):
    """The line evaluates nothing (a gather with the index as its input); NumPy's values, shape
    and dtype; an element is NumPy's scalar (no link), anything else a view of A (a dynamic
    link: writes follow it, below)."""
    a = la.asarray(_A)
    i, j = _scalar(3), _scalar(-2)
    before = _evaluations()
    out = a[SCALAR_KEYS[name](i, j)]
    assert _evaluations() == before and i._node.inputs and j._node.inputs
    want = _A[SCALAR_KEYS[name](np.intp(3), np.intp(-2))]
    assert (out.shape, out.dtype) == (np.shape(want), want.dtype)
    assert (out._view is False) == (type(want) is not np.ndarray)
    assert writes.is_dynamic(out) == (type(want) is np.ndarray)
    np.testing.assert_array_equal(np.asarray(out), want)


def _writes_program(xp, a, i, j):
    """Writes through views by scalar indices and into their base, in NumPy's order."""
    row, col, part = a[i], a[:, j], a[i, 1:3]
    a[1, 0, 0] = 9.0  # into A: every view sees it
    row *= 2.0
    row[0, 1] = -1.0
    col += 100.0
    part[...] = part * 3.0
    xp.add(row, 1.0, out=row)
    a[i] += 0.5  # `t = A[i]; t += 0.5; A[i] = t`
    a[j, 0] -= row[1]
    sub, col_t = row[2], col.T  # views of the views
    sub[1] = 7.0
    col_t[0, 4] = 5.0
    a[i, 2, 0] = 6.0
    return [row, col, part, sub, col_t]


def test_writes_through_a_scalar_index_view_reach_its_base_lazily(backend):
    """`row = A[i]; row *= 2` writes A, and a write into A shows in `row`, as NumPy's views:
    with i pending, every write is a scatter by i (nothing evaluated until the values are
    read)."""
    want = _A.copy()
    want_views = _writes_program(np, want, np.intp(1), np.intp(-3))
    a = la.asarray(_A.copy())
    i, j = _scalar(1), _scalar(-3)
    before = _evaluations()
    views = _writes_program(la, a, i, j)
    assert _evaluations() == before and i._node.inputs
    assert all([writes.is_dynamic(v) for v in views])
    np.testing.assert_array_equal(np.asarray(a), want)
    for v, w in zip(views, want_views):
        np.testing.assert_array_equal(np.asarray(v), w)


@pytest.mark.parametrize("eager_size", [0, 4096])
def test_views_of_a_scalar_index_view_and_what_resolves_it(backend, backend_does, eager_size):
    """A view of the view and a reshape (NumPy's view or copy by its layout, whose strides no
    index value changes) stay lazy; `v.shape = s` reads the index (docs/semantics.md). NumPy's
    values. (eager_size 4096, the users' default on the CPU: the index is read at the line, as
    before, and the views are static ones.)"""
    got = []
    for xp in (np, la):
        with la.config(eager_size=eager_size):
            a = xp.asarray(_A.copy())
            i = np.intp(2) if xp is np else _scalar(2, size=10_000)
            before = _evaluations()
            row = a[i]
            part = row[1:3]  # a view of the view
            flat = row.reshape(12)  # C-contiguous: NumPy's view
            cols = a[i][:, ::2].reshape(8)  # strided: NumPy's copy
            if xp is la:
                lazy = eager_size == 0 or not backend_does("eager")  # (cupy: the rule is off)
                assert (_evaluations() == before) == lazy
                assert writes.is_dynamic(part) == writes.is_dynamic(flat) == lazy
                assert writes.is_view(part) and writes.is_view(flat)
                assert not writes.is_view(cols)
            part[0, 1] = -4.0
            flat[5] = 60.0
            cols[0] = -99.0
            other = a[i]
            other.shape = (3, 4)
            if xp is la:
                assert writes.is_view(other) and not writes.is_dynamic(other)
            other[0, 0] = 70.0
            a[i, 0, 2] = 80.0
            got.append([np.asarray(v).tolist() for v in (a, row, part, flat, cols, other)])
    assert got[0] == got[1]


def _reshape_program(xp, a, i, j):
    """Writes through a view by scalar indices and its reshapes (NumPy's views here)."""
    v = a[-1:, i, None, j]
    flat = v.reshape(-1)
    flat[0] = 11.0
    v[...] = v + 1.0
    v[-1] = 3.0
    v[-1] = 4.0
    again = v.reshape(-1)
    again[0] = 12.0
    return [v, flat, again]


@pytest.mark.parametrize("budget", [3, 6, 11])
def test_scalar_index_views_across_cuts_match_numpy(reference_backend, budget):
    """A small node budget cuts between and inside the steps (evaluating the root and the views
    to leaves): the links still reach A (a cut inside the reshape's build left the view's
    layout probe unlinked, a copy: the write then missed A)."""
    for program, shape, (vi, vj) in ((_writes_program, (5, 4, 3), (1, -3)),
                                     (_reshape_program, (3, 4, 1), (0, -1))):
        data = np.arange(float(np.prod(shape))).reshape(shape)
        want = data.copy()
        want_views = program(np, want, np.intp(vi), np.intp(vj))
        with la.config(max_graph_nodes=budget):
            a = la.asarray(data.copy())
            views = program(la, a, _scalar(vi), _scalar(vj))
            np.testing.assert_array_equal(np.asarray(a), want)
            for v, w in zip(views, want_views):
                np.testing.assert_array_equal(np.asarray(v), w)


def test_a_loop_over_scalar_indices_builds_one_plan(backend, fresh_caches):
    """`A[la.argmax(x)]` (NumPy's scalar: a view) in a loop: one structure, one plan; the index
    was evaluated at each line before (a plan for it, then one for the sum)."""
    rng = np.random.default_rng(41)
    table, x = rng.standard_normal((300, 40)), rng.standard_normal((8, 300))
    t, xs = la.asarray(table), la.asarray(x)
    got = []
    for k in range(8):
        row = t[la.argmax(xs[k] * 2.0)]
        got.append(float(row.sum()))
    info = la.cache_info()
    assert (info.plans_built, info.plan_hits) == (1, 7)
    assert writes.is_dynamic(row)
    np.testing.assert_allclose(got, [table[np.argmax(x[k])].sum() for k in range(8)])


@pytest.mark.parametrize("value", [5, -6])
def test_an_out_of_range_scalar_index_raises_at_evaluation_naming_the_line(backend, value):
    """NumPy raises IndexError for an int index out of range; a pending one raises it when the
    view is evaluated (checked, never clamped or wrapped), naming the indexing line; a write
    through the view raises it too."""
    with pytest.raises(IndexError):
        _A[np.intp(value)]
    a = la.asarray(_A.copy())
    row = a[_scalar(value)]; line = _line()  # noqa: E702 (the line the error names)
    with pytest.raises(IndexError, match="out of bounds") as info:
        np.asarray(row * 2.0)
    assert_site(info, f"test_lazy_index.py:{line}")
    row += 1.0
    with pytest.raises(IndexError, match="out of bounds"):
        np.asarray(a)


@st.composite
def _scalar_cases(draw):
    """A shape, a basic key with one or two scalar-index placeholders (ints, slices, None, an
    Ellipsis beside them), the index values (in range or not), and a basic key into A."""
    shape = tuple(draw(st.lists(st.integers(1, 4), min_size=1, max_size=3)))
    key, values, ellipsis = [], [], False
    for n in shape[:draw(st.integers(1, len(shape)))]:
        if draw(st.booleans()):
            key.append(None)
        if not ellipsis and draw(st.integers(0, 5)) == 0:
            key.append(Ellipsis)
            ellipsis = True
            continue
        kind = draw(st.sampled_from(["scalar", "scalar", "int", "slice"]))
        if kind == "scalar" and len(values) < 2:
            values.append(draw(st.integers(-n - 1, n)))
            key.append(len(values) - 1)
        elif kind == "int":
            key.append(slice(draw(st.integers(-n, n - 1)), "int"))
        else:
            key.append(slice(draw(st.integers(-n, n)), None, draw(st.sampled_from([1, -1, 2]))))
    if not values:
        values.append(draw(st.integers(-shape[-1], shape[-1] - 1)))
        key.append(len(values) - 1) if len(key) < len(shape) else key.__setitem__(-1, 0)
    write = tuple([draw(st.integers(-n, n - 1)) for n in shape])
    return shape, key, values, write


@settings(max_examples=60, deadline=None, suppress_health_check=_FIXTURE, derandomize=True)
@given(case=_scalar_cases())
def test_scalar_index_views_match_numpy(reference_backend, case):
    """A view by pending scalar indices: the read, then a write into A (the view sees it), then
    a write through the view (A sees it): NumPy's values, with nothing evaluated before the
    reads; NumPy's IndexError (at evaluation) for an index out of range."""
    shape, key, values, write = case
    data = np.arange(int(np.prod(shape)), dtype=np.float64).reshape(shape)
    want_a = data.copy()
    try:
        want = want_a[_key(key, [np.intp(v) for v in values])]
    except IndexError:
        want = None
    a = la.asarray(data.copy())
    before = _evaluations()
    out = a[_key(key, [_scalar(v) for v in values])]
    assert _evaluations() == before
    if want is None:
        with pytest.raises(IndexError, match="out of bounds"):
            np.asarray(out)
        return
    a[write] = -1.0
    want_a[write] = -1.0
    if type(want) is np.ndarray:  # a view (else NumPy's scalar, a copy)
        out *= 2.0
        want *= 2.0
    assert _evaluations() == before
    assert (out.shape, out.dtype) == (np.shape(want), want.dtype)
    np.testing.assert_array_equal(np.asarray(out), want)
    np.testing.assert_array_equal(np.asarray(a), want_a)


def test_an_index_that_reads_its_base_keeps_its_value_across_writes(backend):
    """`k = argmax(A[:, 3]); row = A[k]`, then writes into A: NumPy read k before them, so the
    row stays the one k named then (a view gathers again over A's new value with its own index
    node: rebuilding the gather by substitution would recompute k from the new A)."""
    got = []
    for xp in (np, la):
        a = xp.asarray(np.arange(40.0).reshape(4, 10) % 7)
        k = xp.argmax(a[:, 3] * 1.0)
        row = a[k]
        a[0, 3] = 100.0  # argmax(a[:, 3]) would be 0 now (it was 1)
        a[2] = 5.0
        row[0] = -1.0
        got.append((int(k), np.asarray(row).tolist(), np.asarray(a).tolist()))
    assert got[0] == got[1]


def test_a_scalar_index_into_a_scalar_index_view(backend):
    """`A[k][j, 1]` (an element: a copy) evaluates nothing; `A[k][j]` (a view of a view, both
    indices pending) reads k for the static chain it rests on; writes through either reach A."""
    got = []
    for xp in (np, la):
        a = xp.asarray(_A.copy())
        k, j = (np.intp(2), np.intp(-1)) if xp is np else (_scalar(2), _scalar(-1))
        before = _evaluations()
        element = a[k][j, 1]
        if xp is la:
            assert _evaluations() == before and element._view is False
        row = a[k][j]
        row[0] = 99.0
        col = a[k][:, j]
        col *= 2.0
        got.append([np.asarray(v).tolist() for v in (element, a, row, col)])
    assert got[0] == got[1]
