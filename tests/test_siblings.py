"""Siblings share their work (issue 25): an implicit evaluation (`np.asarray(c)`) also computes
the pending Arrays held in the user's frames whose graphs read a node it computes
(lazyarray/evaluation.py `_siblings`), so `np.asarray(h)` afterwards runs nothing again."""

import numpy as np
import pytest

import lazyarray as la


def _sigmoid(xp, x):
    return 1.0 / (1.0 + xp.exp(-x))


def _cell(xp, x, h0, c0, w, u, b):
    """An LSTM cell: one pair of matmuls feeds both results."""
    n = h0.shape[1]
    g = x @ w + h0 @ u + b
    i, f, o, gg = (g[:, k * n:(k + 1) * n] for k in range(4))
    c = _sigmoid(xp, f) * c0 + _sigmoid(xp, i) * xp.tanh(gg)
    h = _sigmoid(xp, o) * xp.tanh(c)
    return c, h


def _runs() -> int:
    info = la.cache_info()
    return info.plans_built + info.plan_hits


def _args(batch=4, n=8, dtype=np.float32):
    rng = np.random.default_rng(0)
    shapes = ((batch, n), (batch, n), (batch, n), (n, 4 * n), (n, 4 * n), (4 * n,))
    return [(rng.standard_normal(s) * 0.5).astype(dtype) for s in shapes]


@pytest.mark.parametrize("first", ["c", "h"])
def test_the_second_asarray_of_an_lstm_cell_runs_nothing(backend, first):
    args = _args()
    want_c, want_h = _cell(np, *args)
    for _ in range(3):  # the first round builds the plans; later rounds take the hit paths
        c, h = _cell(la, *[la.asarray(a) for a in args])
        a, b = (c, h) if first == "c" else (h, c)
        runs = _runs()
        np.asarray(a)
        assert _runs() == runs + 1  # one graph for both
        got_b = np.asarray(b)
        assert _runs() == runs + 1  # no matmul and no kernel again
        np.testing.assert_allclose(np.asarray(c), want_c, rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(got_b if first == "c" else np.asarray(h), want_h, rtol=1e-5,
                                   atol=1e-6)


def test_a_sibling_reading_only_the_output_is_computed_with_it(backend):
    """h reads c itself (no intermediate shared): the hit path's reference count of c sees it."""
    x0 = np.random.default_rng(1).standard_normal((6, 6))
    x = la.asarray(x0)
    for _ in range(3):
        c = (x @ x) * 2.0
        h = la.tanh(c) + 1.0
        runs = _runs()
        np.testing.assert_allclose(np.asarray(c), (x0 @ x0) * 2.0, rtol=1e-12)
        np.testing.assert_allclose(np.asarray(h), np.tanh((x0 @ x0) * 2.0) + 1.0, rtol=1e-12,
                                   atol=1e-12)
        assert _runs() == runs + 1
        assert float(h.sum()) == pytest.approx(float(np.sum(np.tanh((x0 @ x0) * 2.0) + 1.0)))


def test_a_pending_array_alone_still_takes_the_hit_path(backend):
    """Nothing else reads it: one evaluation each, and on C the compiled hit path serves."""
    from lazyarray import cache

    x = la.asarray(np.arange(8.0))
    before = cache.plan_cache.fast_hits[0]
    for k in range(5):
        y = x * 3.0 + float(k)
        runs = _runs()
        np.testing.assert_array_equal(np.asarray(y), np.arange(8.0) * 3.0 + k)
        assert _runs() == runs + 1
    if backend == "c" and la.cache_info().tracing == "compiled":
        assert cache.plan_cache.fast_hits[0] > before


def test_a_failing_sibling_does_not_fail_the_evaluation(backend):
    """A sibling whose own op fails (an index out of bounds) is left pending: the Array asked
    for is computed, and the sibling raises when it is looked at, as NumPy would have."""
    x0 = np.arange(6.0)
    x = la.asarray(x0)
    c = x * 2.0
    bad = c[la.asarray(np.array([1, 7]))] + 1.0  # reads c: a sibling
    np.testing.assert_array_equal(np.asarray(c), x0 * 2.0)
    with pytest.raises(IndexError, match="out of bounds"):
        np.asarray(bad)


def test_siblings_keep_their_values_when_the_source_is_written(backend):
    """Evaluating h early must not change what it means: a later write to x leaves h alone."""
    x0 = np.arange(6.0)
    x = la.asarray(x0.copy())
    c = x * 2.0
    h = c + x
    np.asarray(c)
    x += 100.0
    np.testing.assert_array_equal(np.asarray(h), x0 * 3.0)
    np.testing.assert_array_equal(np.asarray(x), x0 + 100.0)


def _evaluate_each(results: tuple) -> list:
    """The corpus harness's way (tests/test_programs.py `to_numpy`): results read one by one
    from the tuple a function returned, none of them a local of their own."""
    return [np.asarray(r) for r in results]


def test_results_returned_as_a_tuple_are_siblings(backend):
    """`out = f(x)` then `np.asarray` of each: the tuple a frame holds is looked into (one level,
    evaluation.HELD_TUPLE_MAX), so the first result's evaluation also computes the later ones
    that read its nodes (uint8_image's `mag` and `edges` recomputed `luminance` six times per
    element in kernels of their own: 25 of 37 ms a call)."""
    args = _args()
    want = _cell(np, *args)
    for _ in range(3):
        out = _cell(la, *[la.asarray(a) for a in args])
        runs = _runs()
        got = _evaluate_each(out)
        assert _runs() == runs + 1  # one graph for both results
        for g, w in zip(got, want):
            np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-6)


def _linalg_calls(monkeypatch, name: str) -> list:
    """np.linalg.<name>'s calls from here on (the library calls the backends make)."""
    calls: list = []
    original = getattr(np.linalg, name)
    monkeypatch.setattr(np.linalg, name, lambda *a, **k: calls.append(1) or original(*a, **k))
    return calls


@pytest.mark.parametrize("eager_size", [0, 4096])
def test_the_parts_of_a_named_tuple_result_are_siblings(backend, monkeypatch, eager_size):
    """`res = np.linalg.svd(a)` then `res.U`, `res.S`, `res[2]` read one by one: the named tuple
    a frame holds is looked into as a tuple is (it was not: the SVD ran once per part read)."""
    a = np.random.default_rng(1).standard_normal((6, 5))
    want = np.linalg.svd(a)
    calls = _linalg_calls(monkeypatch, "svd")
    with la.config(eager_size=eager_size):
        res = la.linalg.svd(la.asarray(a))
        u, s, vt = np.asarray(res.U), np.asarray(res.S), np.asarray(res[2])
    assert len(calls) == 1
    np.testing.assert_allclose(np.abs(u), np.abs(want.U), atol=1e-10)
    np.testing.assert_allclose(s, want.S, rtol=1e-12)
    np.testing.assert_allclose(np.abs(vt), np.abs(want.Vh), atol=1e-10)


@pytest.mark.parametrize("eager_size", [0, 4096])
@pytest.mark.parametrize("name", ["eig", "eigh"])
def test_eig_and_eigh_run_their_library_call_once(backend, monkeypatch, eager_size, name):
    """`w, V = np.linalg.eig(J)`, then both read: one LAPACK call. At once, the vectors' copy was
    computed at the call and the values by a plan that ran eig again (the corpus' stability
    program: twice per call)."""
    r = np.random.default_rng(2).standard_normal((5, 5))
    m = r @ r.T if name == "eigh" else r
    want_w, want_v = getattr(np.linalg, name)(m)
    calls = _linalg_calls(monkeypatch, name)
    with la.config(eager_size=eager_size):
        w, v = getattr(la.linalg, name)(la.asarray(m))
        got_w, got_v = np.asarray(w), np.asarray(v)
    assert len(calls) == 1
    np.testing.assert_allclose(got_w, want_w, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(got_v, want_v, rtol=1e-10, atol=1e-12)
