"""The Array API functions added for issue 12 against NumPy, on every backend: all outputs of a
case set in one `la.eval` (one plan, one compile), dtypes and shapes checked with the values."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import array_shapes

import lazyarray as la

# Registry ops these tests exercise (tests/test_ops_elementwise.py::test_registry_coverage).
SORTING_TESTS = ("argsort", "searchsorted", "isin", "cumprod")


def _cases(a, b, i):
    """name -> (lazy result, NumPy result) over float a, b (3, 4) and int i (3, 4)."""
    A, B, I = la.asarray(a), la.asarray(b), la.asarray(i)  # noqa: N806
    return {
        "diff": (la.diff(A, axis=1, n=2, prepend=0.0), np.diff(a, 2, axis=1, prepend=0.0)),
        "diff_bool": (la.diff(I > 2, axis=0), np.diff(i > 2, axis=0)),
        "cumulative_sum": (la.cumulative_sum(A, axis=0, include_initial=True),
                           np.cumulative_sum(a, axis=0, include_initial=True)),
        "cumulative_sum_int8": (la.cumulative_sum(la.asarray(i.astype(np.int8)), axis=1),
                                np.cumulative_sum(i.astype(np.int8), axis=1)),
        "cumulative_prod": (la.cumulative_prod(I, axis=1, include_initial=True),
                            np.cumulative_prod(i, axis=1, include_initial=True)),
        "count_nonzero": (la.count_nonzero(I, axis=0, keepdims=True),
                          np.count_nonzero(i, axis=0, keepdims=True)),
        "count_nonzero_all": (la.count_nonzero(I), np.asarray(np.count_nonzero(i))),
        "tril": (la.tril(A, k=-1), np.tril(a, -1)),
        "triu": (la.triu(I > 1, k=1), np.triu(i > 1, 1)),
        "repeat": (la.repeat(A, 2, axis=1), np.repeat(a, 2, axis=1)),
        "repeat_counts": (la.repeat(A, la.asarray([1, 0, 2]), axis=0),
                          np.repeat(a, [1, 0, 2], axis=0)),
        "repeat_flat": (la.repeat(I, 3), np.repeat(i, 3)),
        "roll": (la.roll(A, (1, -2), axis=(0, 1)), np.roll(a, (1, -2), axis=(0, 1))),
        "roll_flat": (la.roll(A, 5), np.roll(a, 5)),
        "tile": (la.tile(A, (2, 1, 3)), np.tile(a, (2, 1, 3))),
        "take_along_axis": (la.take_along_axis(A, I % 4, axis=1),
                            np.take_along_axis(a, i % 4, axis=1)),
        "take_along_axis_neg": (la.take_along_axis(A, -(I % 3) - 1, axis=0),
                                np.take_along_axis(a, -(i % 3) - 1, axis=0)),
        "argsort": (la.argsort(I, axis=1), np.argsort(i, axis=1, kind="stable")),
        "argsort_desc": (la.argsort(I, axis=0, descending=True),
                         _stable_descending_argsort(i, 0)),
        "sort": (la.sort(A, axis=0), np.sort(a, axis=0)),
        "sort_desc": (la.sort(I, descending=True), -np.sort(-i)),
        "searchsorted": (la.searchsorted(la.asarray([1.0, 2.0, 3.0]), A, side="right"),
                         np.searchsorted([1.0, 2.0, 3.0], a, side="right")),
        "searchsorted_sorter": (la.searchsorted(la.asarray([3, 1, 2]), I, sorter=[1, 2, 0]),
                                np.searchsorted([3, 1, 2], i, sorter=[1, 2, 0])),
        "isin": (la.isin(I, la.asarray([1, 3])), np.isin(i, [1, 3])),
        "isin_invert": (la.isin(I, 2, invert=True), np.isin(i, 2, invert=True)),
        "copysign": (la.copysign(A, B), np.copysign(a, b)),
        "nextafter": (la.nextafter(A, B), np.nextafter(a, b)),
        "signbit": (la.signbit(B), np.signbit(b)),
        "moveaxis": (la.moveaxis(la.reshape(A, (3, 2, 2)), 0, -1),
                     np.moveaxis(a.reshape(3, 2, 2), 0, -1)),
        "clip": (la.clip(A, min=-0.5, max=B), np.clip(a, -0.5, b)),
    }


def _stable_descending_argsort(x, axis):
    n = x.shape[axis]
    return (n - 1) - np.flip(np.argsort(np.flip(x, axis), axis=axis, kind="stable"), axis)


def _data(seed=0):
    rng = np.random.default_rng(seed)
    return rng.normal(size=(3, 4)), rng.normal(size=(3, 4)), rng.integers(0, 5, (3, 4))


def test_functions_match_numpy(backend):
    cases = _cases(*_data())
    la.eval(*[lazy for lazy, _ in cases.values()])
    for name, (lazy, want) in cases.items():
        got = np.asarray(lazy)
        assert got.shape == want.shape and got.dtype == want.dtype, (name, got.dtype, want.dtype)
        np.testing.assert_allclose(got, want, rtol=1e-15, err_msg=f"{name} on {backend}")


def test_views_and_tuples(reference_backend):
    x, y, z = la.arange(3), la.arange(4), la.arange(2)
    for indexing in ("xy", "ij"):
        ours = la.meshgrid(x, y, z, indexing=indexing)
        assert type(ours) is tuple  # NumPy's (the standard's from 2025.12; 2024.12: a list)
        for got, want in zip(ours, np.meshgrid(np.arange(3), np.arange(4), np.arange(2),
                                               indexing=indexing)):
            np.testing.assert_array_equal(np.asarray(got), want)
    a, b = np.arange(3.0), np.arange(4.0).reshape(2, 2)  # NumPy flattens N-d inputs
    for kw in ({"sparse": True}, {"sparse": True, "indexing": "ij"}, {}):
        for got, want in zip(la.meshgrid(la.asarray(a), la.asarray(b), **kw),
                             np.meshgrid(a, b, **kw)):
            assert got.shape == want.shape
            np.testing.assert_array_equal(np.asarray(got), want)
    # copy=True (NumPy's default): writable grids, independent of the inputs (a write raised
    # "read-only"); sparse copy=False grids are views whose writes reach the inputs, as NumPy's.
    la_a, np_a = la.asarray(a), a.copy()
    grids = la.meshgrid(la_a, la.asarray(b)), np.meshgrid(np_a, b)
    sparse = la.meshgrid(la_a, la.asarray(b), sparse=True, copy=False), \
        np.meshgrid(np_a, b, sparse=True, copy=False)
    for ours, numpys in (grids, sparse):
        for x_grid, y_grid in (ours, numpys):
            x_grid[0, 1] = -5.0
            y_grid[1, 0] = -7.0
    for got, want in zip([*grids[0], *sparse[0], la_a], [*grids[1], *sparse[1], np_a]):
        np.testing.assert_array_equal(np.asarray(got), want)
    parts = la.unstack(la.reshape(la.arange(6), (2, 3)), axis=1)
    assert isinstance(parts, tuple) and [np.asarray(p).tolist() for p in parts] == \
        [[0, 3], [1, 4], [2, 5]]
    assert la.broadcast_shapes((3, 1), (4,), ()) == (3, 4)
    with pytest.raises(ValueError, match="broadcast"):
        la.broadcast_shapes((3,), (4,))


def test_data_dependent_shapes_evaluate_when_called(reference_backend):
    x = la.asarray([[0, 2, 2], [1, 0, 2]]) * 1  # pending
    rows, cols = la.nonzero(x)
    want = np.nonzero(np.array([[0, 2, 2], [1, 0, 2]]))
    assert rows.expr.is_evaluated and cols.expr.is_evaluated  # leaves: the input was evaluated
    np.testing.assert_array_equal(np.asarray(rows), want[0])
    np.testing.assert_array_equal(np.asarray(cols), want[1])
    full = la.unique_all(x)
    np.testing.assert_array_equal(np.asarray(full.values), [0, 1, 2])
    np.testing.assert_array_equal(np.asarray(full.counts), [2, 1, 3])
    np.testing.assert_array_equal(np.asarray(full.indices), [0, 3, 1])
    assert full.inverse_indices.shape == (2, 3)
    np.testing.assert_array_equal(np.asarray(full.values)[np.asarray(full.inverse_indices)],
                                  np.asarray(x))
    values, counts = la.unique_counts(x)
    assert np.asarray(counts).sum() == 6
    assert la.unique_inverse(x).inverse_indices.shape == (2, 3)
    nans = la.unique_values(la.asarray([np.nan, 1.0, np.nan]))
    assert np.isnan(np.asarray(nans)).sum() == 2  # the standard: NaNs are distinct


@pytest.mark.parametrize("indices, axis", [([[1, 3], [-4, 0]], 1), ([[-3, 0, 1]], 0)])
def test_take_along_axis_out_of_bounds_raises_numpys_error(reference_backend, indices, axis):
    """NumPy's text: the first bad index and x's axis (the flat gather named its sentinel, axis 0)."""
    with pytest.raises(IndexError) as want:
        np.take_along_axis(np.ones((2, 3)), np.asarray(indices), axis=axis)
    with pytest.raises(IndexError) as got:
        np.asarray(la.take_along_axis(la.ones((2, 3)), la.asarray(indices), axis=axis))
    assert str(got.value) == str(want.value)


def test_sort_is_differentiable():
    x = np.array([3.0, 1.0, 2.0])
    g = la.grad(lambda v: la.sum(la.sort(v) * la.asarray([1.0, 10.0, 100.0])))(la.asarray(x))
    np.testing.assert_array_equal(np.asarray(g), [100.0, 1.0, 10.0])


def test_cumulative_prod_derivative_is_nan_at_zeros_only():
    x = la.asarray([2.0, 0.0, 3.0])
    g = np.asarray(la.grad(lambda v: la.sum(la.cumulative_prod(v)))(x))
    assert np.isnan(g[1]) and g[0] == 1.0 and g[2] == 0.0


@settings(max_examples=10, deadline=None)
@given(shape=array_shapes(min_dims=1, max_dims=3, min_side=0, max_side=4),
       seed=st.integers(0, 2**16), descending=st.booleans())
def test_sort_argsort_random_shapes(shape, seed, descending):
    x = np.random.default_rng(seed).integers(-3, 3, shape).astype(np.float32)
    axis = -1
    with la.config(backend="numpy"):
        s, i = la.sort(la.asarray(x), axis=axis, descending=descending), \
            la.argsort(la.asarray(x), axis=axis, descending=descending)
        want_i = _stable_descending_argsort(x, x.ndim - 1) if descending else \
            np.argsort(x, axis=axis, kind="stable")
        np.testing.assert_array_equal(np.asarray(i), want_i)
        np.testing.assert_array_equal(np.asarray(s), np.take_along_axis(x, want_i, axis=axis))


def test_argsort_of_distinct_floats_takes_numpys_default_sort(backend, monkeypatch):
    """graph/ops_sorting.py `stable_argsort`: a float lane whose keys are all distinct has one
    sorting permutation, so NumPy's default argsort (introsort, SIMD; aliasing_updates'
    (1500, 1500) rows: 52 ms against the stable sort's 121) gives the stable indices there;
    lanes with equal keys (-0.0 and 0.0, two NaNs) are sorted again stably. The stable indices
    every time; the stable kind only for the lanes with ties."""
    from lazyarray.graph import ops_sorting

    kinds, real = [], np.argsort
    monkeypatch.setattr(np, "argsort",
                        lambda *a, **k: kinds.append(k.get("kind")) or real(*a, **k))
    x = np.random.default_rng(4).random((4, 2048))
    x[1, ::9] = 0.25  # ties
    x[2, 3], x[2, 7] = 0.0, -0.0
    x[3, 5] = x[3, 6] = np.nan
    y = x.copy()
    y[1:] = np.random.default_rng(5).random((3, 2048))  # one NaN-free distinct lane each
    y[2, 0] = np.nan
    for data, stable_rows in ((x, 3), (y, 0)):
        kinds.clear()
        got = np.asarray(la.argsort(la.asarray(data), axis=-1, stable=True))
        np.testing.assert_array_equal(got, real(data, axis=-1, kind="stable"))
        assert kinds[0] is None and kinds.count("stable") == (stable_rows > 0), kinds
        assert ops_sorting.FAST_ARGSORT_MIN <= data.size


@pytest.mark.exhaustive
@pytest.mark.parametrize("seed", range(5))
def test_functions_match_numpy_more_data(backend, seed):
    cases = _cases(*_data(seed))
    la.eval(*[lazy for lazy, _ in cases.values()])
    for name, (lazy, want) in cases.items():
        np.testing.assert_allclose(np.asarray(lazy), want, rtol=1e-15, err_msg=name)
