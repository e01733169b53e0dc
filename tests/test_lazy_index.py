"""A pending 0-d integer Array used as an index stays lazy (issue 25; docs/semantics.md
"Indexing", docs/caching.md "Indices and slice bounds as arguments"): `A[la.argmax(x)]` is a
`take` with the index as a node input, so the indexing line evaluates nothing and a loop over
such indices is one structure, one plan. NumPy takes a 0-d integer ndarray as an *advanced*
index, so the result is a copy (a write through it does not reach A); the values, dtypes and
shapes below are NumPy's with the same index as a 0-d ndarray. An index out of bounds raises
IndexError at evaluation (checked, never clamped or wrapped, on every backend: the take and the
scatter run their NumPy reference; on cupy on the host), naming the indexing line.

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
from lazyarray.graph import dtypes

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
    with pytest.raises(IndexError, match=f"out of bounds.*test_lazy_index.py:{line}"):
        np.asarray(out)


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
    with pytest.raises(IndexError, match=f"out of bounds.*test_lazy_index.py:{line}"):
        np.asarray(a)


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
