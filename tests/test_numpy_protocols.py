"""NumPy's protocols (NEP 13/18): NumPy calls on Arrays stay lazy where lazyarray has the function;
elsewhere they evaluate, return NumPy's result and warn once naming the function."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import lazyarray as la
from lazyarray import _protocols
from sites import assert_site

X = np.array([[1.0, -2.0, 3.0], [0.5, 4.0, -1.0]])


def _lazy_calls(a, b):
    """(call, NumPy on ndarrays) pairs that must return lazy Arrays."""
    return {
        "np.exp": (np.exp(a), np.exp(X)),
        "np.add": (np.add(a, 1.0), X + 1.0),
        "ndarray + Array": (X + a, X + X),
        "np.matmul": (np.matmul(a, b.T), X @ X.T),
        "np.add.reduce": (np.add.reduce(a, axis=0), X.sum(axis=0)),
        "np.maximum.reduce": (np.maximum.reduce(a, axis=1), X.max(axis=1)),
        "np.add.accumulate": (np.add.accumulate(a[0]), np.cumsum(X[0])),
        "np.sum": (np.sum(a), np.sum(X)),
        "np.sum(axis, keepdims)": (np.sum(a, axis=1, keepdims=True), X.sum(1, keepdims=True)),
        "np.mean": (np.mean(a, axis=0), X.mean(0)),
        "np.std(ddof)": (np.std(a, ddof=1), X.std(ddof=1)),
        "np.concatenate": (np.concatenate([a, b]), np.concatenate([X, X])),
        "np.concatenate(axis)": (np.concatenate([a, b], axis=1), np.concatenate([X, X], 1)),
        "np.where": (np.where(a > 0, a, b * 2), np.where(X > 0, X, X * 2)),
        "np.where(condition)": (np.where(a > 0)[1], np.where(X > 0)[1]),
        "np.clip": (np.clip(a, -1, 2), np.clip(X, -1, 2)),
        "np.reshape": (np.reshape(a, (3, 2)), X.reshape(3, 2)),
        "np.transpose": (np.transpose(a), X.T),
        "np.stack": (np.stack([a, b], axis=1), np.stack([X, X], axis=1)),
        "np.tile": (np.tile(a, 2), np.tile(X, 2)),
        "np.diff": (np.diff(a, 1, 0), np.diff(X, 1, 0)),
        "np.argmax": (np.argmax(a, axis=1), X.argmax(1)),
        "np.sort": (np.sort(a), np.sort(X)),
        "np.linalg.norm": (np.linalg.norm(a), np.linalg.norm(X)),
    }


def test_numpy_calls_on_arrays_stay_lazy(backend):
    a, b = la.asarray(X), la.asarray(X)
    with warnings.catch_warnings():
        warnings.simplefilter("error", _protocols.LazyArrayFallbackWarning)
        calls = _lazy_calls(a, b)
    la.eval(*[got for got, _ in calls.values()])
    for name, (got, want) in calls.items():
        assert isinstance(got, la.Array), name
        assert got.shape == np.shape(want), name
        np.testing.assert_allclose(np.asarray(got), want, rtol=1e-12, err_msg=name)


def test_introspection_does_not_evaluate(reference_backend):
    a = la.asarray(X) * 2.0
    assert np.shape(a) == (2, 3) and np.ndim(a) == 2 and np.size(a) == 6
    c = np.copy(a)  # a new Array (it was `a` itself: a write into the copy changed `a`)
    assert isinstance(c, la.Array) and c is not a
    assert not a.expr.is_evaluated
    c[0, 0] = -1.0
    np.testing.assert_array_equal(np.asarray(a), X * 2.0)
    assert float(c[0, 0]) == -1.0


def test_unknown_functions_evaluate_and_warn_once(reference_backend, monkeypatch):
    # (la.i0 exists since issue 24, la.may_share_memory since stop 55: hidden here, so that
    # NumPy's function has no lazyarray counterpart)
    monkeypatch.delattr(la, "may_share_memory")
    monkeypatch.setattr(_protocols, "_PASS_THROUGH", {})
    _protocols._WARNED.discard("may_share_memory")
    a = la.asarray(X)
    with pytest.warns(_protocols.LazyArrayFallbackWarning, match="numpy.may_share_memory"):
        assert np.may_share_memory(a, a) == np.may_share_memory(X, X)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert np.may_share_memory(a, a) == np.may_share_memory(X, X)  # once per function
    assert np.allclose(a, X) is True  # la.allclose: no fallback


def test_unsupported_keywords_fall_back_to_numpy(reference_backend):
    a = la.asarray(X)
    out = np.empty_like(X)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # out= is lazyarray's ufunc keyword now: no fallback
        result = np.add(a, 1.0, out=out)
    assert result is out and np.array_equal(out, X + 1.0)
    with pytest.warns(_protocols.LazyArrayFallbackWarning):  # matmul's gufunc axes=: not here
        assert isinstance(np.matmul(a, a.T, axes=[(0, 1), (0, 1), (0, 1)]), np.ndarray)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # cumulative_sum's out= is lazyarray's keyword (probe54)
        out = np.empty_like(X)
        assert np.cumulative_sum(a, axis=1, out=out) is out
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # NumPy 2's std(mean=) is lazyarray's keyword (probe53)
        assert isinstance(np.std(a, mean=np.mean(X)), la.Array)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # where= is lazyarray's reduction keyword now
        assert isinstance(np.mean(a, where=X > 0), la.Array)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # la.unique takes NumPy's keywords: no fallback
        values, counts = np.unique(a, return_counts=True)
    assert isinstance(counts, la.Array)
    np.testing.assert_array_equal(np.asarray(counts), np.unique(X, return_counts=True)[1])


def test_foreign_array_types_are_left_to_their_owners():
    class Other:
        def __array_function__(self, func, types, args, kwargs):
            return "other"

    assert _protocols.array_function(la.ones(2), np.sum, (Other,), (), {}) is NotImplemented


def test_errors_through_numpy_name_the_users_line(reference_backend):
    with pytest.raises(ValueError) as info:
        np.add(la.ones(2), la.ones(3))
    assert_site(info, "test_numpy_protocols.py")


@pytest.mark.parametrize("kind", [None, "stable", "quicksort", "mergesort", "heapsort"])
def test_sort_kind_stays_lazy_and_ascending(backend, kind):
    # np.sort(a, kind="stable") bound NumPy's `kind` by position to lazyarray's keyword-only
    # `descending`: the result came back sorted in descending order.
    x = np.array([[2, 1, 2, 1, 0], [3, 3, 1, 0, 1]])
    a = la.asarray(x)
    with warnings.catch_warnings():
        warnings.simplefilter("error", _protocols.LazyArrayFallbackWarning)
        got_sort, got_args = np.sort(a, kind=kind), np.argsort(a, axis=0, kind=kind)
    assert isinstance(got_sort, la.Array) and isinstance(got_args, la.Array)
    np.testing.assert_array_equal(np.asarray(got_sort), np.sort(x, kind=kind))
    np.testing.assert_array_equal(np.asarray(got_args), np.argsort(x, axis=0, kind="stable"))


@pytest.mark.parametrize("kind", [None, "stable", "heapsort"])
def test_sort_gives_numpys_bits_for_signed_zeros_and_nans(backend, kind):
    """-0.0 and 0.0 are equal keys: NumPy's default (unstable) sort orders them otherwise than a
    stable sort does, so sort is NumPy's own sort of that kind (an argsort and a gather before:
    ~2,500 of 10,000 sign bits differed), in every method and axis; the method sorts in place."""
    rng = np.random.default_rng(0)
    x = rng.choice(np.array([0.0, -0.0, 1.0, -1.0, np.nan]), (20, 500))
    # CuPy's sort is stable whatever the kind: the order of equal keys (-0.0, 0.0) is NumPy's only
    # for a stable sort there (docs/cuda_backend.md); the values and NaNs' places are NumPy's
    signs = backend != "cupy" or kind == "stable"
    for axis in (-1, 0, None):
        want = np.sort(x, axis=axis, kind=kind)
        got = np.asarray(np.sort(la.asarray(x), axis=axis, kind=kind))
        if signs:
            np.testing.assert_array_equal(np.signbit(got), np.signbit(want))
        np.testing.assert_array_equal(got, want)
    a, want = la.asarray(x), x.copy()
    a.sort(kind=kind)
    want.sort(kind=kind)
    np.testing.assert_array_equal(np.asarray(a), want)
    if signs:
        np.testing.assert_array_equal(np.signbit(np.asarray(a)), np.signbit(want))


def test_sort_bad_kind_raises_numpys_error(reference_backend):
    """la.sort checks `kind` as NumPy does: NumPy's error, without falling back to NumPy."""
    _protocols._WARNED.discard("sort")
    with pytest.raises(ValueError, match="sort kind"), warnings.catch_warnings():
        warnings.simplefilter("error", _protocols.LazyArrayFallbackWarning)
        np.sort(la.asarray(X), kind="bogus")


def test_ufunc_at_rebinds_the_array_and_never_writes_its_buffer(backend):
    """np.add.at(a, [0], 1) wrote into the Array's buffer once (NumPy's ufunc.at ignores the
    read-only flag of the view a fallback hands it), changing every pending expression reading it.
    Now la's ufunc.at rebinds the handle `a` (as `a[...] = new`): `a` holds NumPy's result, the
    old value and the expressions built on it keep theirs."""
    a = la.asarray(X)
    old = a
    pending = a * 2
    for ufunc in (np.add, np.subtract, np.maximum):
        want = X.copy()
        ufunc.at(want, [0, 0], 1.0)
        a = la.asarray(X)
        ufunc.at(a, [0, 0], 1.0)
        np.testing.assert_array_equal(np.asarray(a), want)
    np.testing.assert_array_equal(np.asarray(old), X)
    np.testing.assert_array_equal(np.asarray(pending), X * 2)
    y = X[0].copy()  # an ndarray destination with Array indices and values: NumPy's, in place
    np.add.at(y, la.asarray(np.array([0, 0])), la.asarray(np.array([1.0, 2.0])))
    want = X[0].copy()
    np.add.at(want, [0, 0], [1.0, 2.0])
    np.testing.assert_array_equal(y, want)


def test_ufunc_calls_on_arrays_take_the_plain_ops_c_path_with_the_same_results():
    """`np.maximum(t, u)` on Arrays reaches _trace.c's __array_ufunc__, which builds the plain op
    (the ops whose lazyarray ufunc is exactly elementwise's function) as `la.maximum` does; other
    calls (keywords, NumPy operands, methods) take the Python dispatch. Same values, dtypes
    and errors as NumPy either way."""
    from lazyarray import _protocols, elementwise
    from lazyarray.graph import get_op

    rng = np.random.default_rng(5)
    a = (rng.standard_normal((3, 4)) * 3).astype(np.float32)
    b = rng.integers(-4, 5, (1, 4)).astype(np.int32)
    A, B = la.asarray(a), la.asarray(b)
    A[0, 0] = a[0, 0]  # computed (the at-once path), and B a user's leaf
    names = [n for n in elementwise.PLAIN_OPS if get_op(n).ufunc is not None]
    assert len(names) > 50
    for name in names:
        u = get_op(name).ufunc
        cases = [((A[1, 2], A[0, 1]), (a[1, 2], a[0, 1])), ((A[2, 3], 2), (a[2, 3], 2))]
        if name in ("maximum", "less", "arctan2"):  # lazy graphs (a kernel each: a few only)
            cases += [((A, B), (a, b)), ((A, 2), (a, 2))]
        for args, want_args in cases:
            if u.nin == 1:
                args, want_args = args[:1], want_args[:1]
            with np.errstate(all="ignore"), la.errstate(all="ignore"):
                try:
                    want = u(*want_args)
                except TypeError:
                    with pytest.raises(TypeError):
                        u(*args)
                    continue
                got = np.asarray(u(*args))
            assert got.dtype == np.asarray(want).dtype, (name, args)
            np.testing.assert_allclose(got, want, rtol=1e-6, equal_nan=True, err_msg=name)
    assert np.maximum(A, B, out=None).shape == (3, 4)  # (the Python dispatch for keywords)
    assert _protocols.install_fast_array_ufunc is not None


def test_np_flip_of_an_array_is_numpys_view():
    """np.flip(x) reaches _trace.c's __array_function__, which takes it as x[::-1, ...] through
    the C getitem (the view la.flip builds): NumPy's values for every rank, a view that writes
    reach the base through, as NumPy's flip is; keywords take the Python dispatch."""
    for shape in [(5,), (3, 4), (2, 3, 2), (0, 3)]:
        for flip in (np.flip, la.flip):  # (la.flip(x): the same C view, `flip_view`)
            a = np.arange(float(np.prod(shape))).reshape(shape)
            A = la.asarray(a.copy())
            np.testing.assert_array_equal(np.asarray(flip(A)), np.flip(a))
            np.testing.assert_array_equal(np.asarray(flip(A, axis=0)), np.flip(a, axis=0))
            if a.size:
                f, g = flip(A), np.flip(a)
                f[(0,) * a.ndim] = -1.0
                g[(0,) * a.ndim] = -1.0
                np.testing.assert_array_equal(np.asarray(A), a)
    s = la.asarray(np.float64(3.0))
    assert float(np.flip(s)) == 3.0  # 0-d: the Python path, as NumPy (no axes)


def test_stride_tricks_through_numpy_stay_lazy(reference_backend):
    """np.lib.stride_tricks.sliding_window_view on an Array is la.lib.stride_tricks's (it fell
    back to NumPy, evaluating): programs import it from NumPy even with the array module swapped."""
    x = np.arange(10.0)
    with warnings.catch_warnings():
        warnings.simplefilter("error", _protocols.LazyArrayFallbackWarning)
        got = np.lib.stride_tricks.sliding_window_view(la.asarray(x), 3)
    assert isinstance(got, la.Array)
    np.testing.assert_array_equal(np.asarray(got),
                                  np.lib.stride_tricks.sliding_window_view(x, 3))


def test_a_view_of_a_computed_buffer_exports_without_a_plan(backend, backend_does):
    """`rng.choice(3, p=P[s])` in a loop: `np.asarray` of a view of a computed buffer is NumPy's
    view of it (read-only, as a buffer's export), no plan run (each draw ran a copy's plan:
    markov 135 ms against NumPy's 15); the view Array stays a view of P."""
    P = la.array(np.arange(12.0).reshape(3, 4))
    np.asarray(P)
    before = la.cache_info()
    rows = [np.asarray(P[s]) for s in (2, 0, 1)] + [np.asarray(P[1:, ::2].T)]
    after = la.cache_info()
    want = np.arange(12.0).reshape(3, 4)
    for got, w in zip(rows, [want[2], want[0], want[1], want[1:, ::2].T]):
        np.testing.assert_array_equal(got, w)
        assert not got.flags.writeable
    if backend_does("eager"):
        assert (after.plans_built, after.plan_hits) == (before.plans_built, before.plan_hits)
    row = P[1]
    np.asarray(row)
    P[1, 2] = -1.0  # the view follows its root, as NumPy's
    np.testing.assert_array_equal(np.asarray(row), [4.0, 5.0, -1.0, 7.0])
