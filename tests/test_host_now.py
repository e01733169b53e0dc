"""NumPy's own function at the line on small computed arguments (lazyarray/host_now.py)."""

import numpy as np
import pytest

import lazyarray as la
import lazyarray.contraction as contraction
import lazyarray.numpy_histograms as histograms


def test_interp_and_einsum_of_small_computed_arrays_are_numpys_calls(backend, backend_does,
                                                                     monkeypatch):
    """`np.interp` of 20 points was a lazy composition run op by op (~330 us, NumPy 0.9);
    `np.einsum('ij,j', A, v)` of a (20, 20) A ~44 us (NumPy 1.9). With every Array argument
    computed and small, NumPy's function on the host values is the answer, bit for bit: no
    lazy op is built. Pending or large arguments keep the lazy composition."""
    built = []
    lazy_search, lazy_einsum = histograms.searchsorted, contraction._einsum
    monkeypatch.setattr(histograms, "searchsorted", lambda *a, **k: built.append("interp")
                        or lazy_search(*a, **k))
    monkeypatch.setattr(contraction, "_einsum", lambda *a, **k: built.append("einsum")
                        or lazy_einsum(*a, **k))
    rng = np.random.default_rng(5)
    xp = np.sort(rng.random(20))
    fp, x = rng.random(20), rng.random(30) * 1.2 - 0.1
    A, v = rng.random((20, 20)), rng.random(20)
    cases = [
        (lambda m, c: m.interp(c(x), c(xp), c(fp)), (np.interp, (x, xp, fp))),
        (lambda m, c: m.interp(0.5, c(xp), c(fp), left=-1.0, right=2.0), None),
        (lambda m, c: m.interp(c(x), c(xp), c(fp + 1j * fp), period=0.7), None),
        (lambda m, c: m.einsum("ij,j->i", c(A), c(v)), None),
        (lambda m, c: m.einsum("ij,jk", c(A), c(A), optimize=True), None),
        (lambda m, c: m.einsum(c(A), [0, 1], c(v), [1], [0]), None),
    ]
    for k, (make, _) in enumerate(cases):
        want = make(np, lambda a: a)
        got = make(la, la.asarray)
        assert type(np.asarray(got)) is np.ndarray
        if k >= 3 and not backend_does("eager"):  # einsum as a lazy matmul: not NumPy's order
            np.testing.assert_allclose(np.asarray(got), want, rtol=1e-14)
        else:
            np.testing.assert_array_equal(np.asarray(got), want)
        assert np.asarray(got).dtype == np.asarray(want).dtype
        assert repr(got).startswith("np.") == repr(want).startswith("np.")  # a scalar stays one
    assert built == [] or not backend_does("eager")
    built.clear()
    pending = la.asarray(x) * 1.0 if not backend_does("eager") else la.asarray(
        np.resize(x, 10_000)) * 1.0  # (past the at-once size: the lazy composition)
    np.asarray(la.interp(pending, la.asarray(xp), la.asarray(fp)))
    assert built == ["interp"]
    with pytest.raises(ValueError, match="fp and xp are not of the same length") as info:
        la.interp(la.asarray(x), la.asarray(xp), la.asarray(fp[:5]))
    assert any("test_host_now.py" in n for n in getattr(info.value, "__notes__", []))


def test_joins_of_a_few_small_computed_arrays_are_numpys_join_now(backend, backend_does,
                                                                 monkeypatch):
    """`np.vstack([a, b])`, `np.stack`, `np.concatenate` of fewer than JOIN_NOW_MIN arrays were
    lazy joins run op by op (atleast_2d reshapes, then the concat: vstack ~14 us, NumPy 1.9);
    small ones are NumPy's join at the line now (manipulation.join_now), a buffer. Large ones
    stay lazy (a join of large values fuses onward)."""
    import lazyarray.manipulation as mp

    concats = []
    primitive = mp._bind.primitive
    monkeypatch.setattr(mp._bind, "primitive", lambda op, *a: (
        concats.append(op) if op is mp._CONCAT else None) or primitive(op, *a))
    rng = np.random.default_rng(2)
    a, b = rng.random(20), rng.random(20)
    joins = [("vstack", {}), ("hstack", {}), ("stack", {"axis": 1}), ("concatenate", {})]
    for name, kwargs in joins:
        got = getattr(la, name)([la.asarray(a), la.asarray(b)[::2][:10].reshape(10)
                                 if name in ("hstack", "concatenate") else la.asarray(b)],
                                **kwargs)
        want = getattr(np, name)([a, b[::2][:10] if name in ("hstack", "concatenate") else b],
                                 **kwargs)
        np.testing.assert_array_equal(np.asarray(got), want)
        assert not got._node.inputs or not backend_does("eager"), name
    assert concats == [] or not backend_does("eager")
    big = la.asarray(rng.random(5000)) * 2.0
    assert la.vstack([big, big])._node.inputs  # (lazy, either way)


def test_histogram_quantiles_and_trace_of_small_computed_arrays_follow_la_errstate(backend,
                                                                                   backend_does):
    """np.histogram (~385 us here, NumPy 35), np.percentile / np.quantile (~167 us, NumPy 28)
    and np.trace of small computed arrays are NumPy's calls: the same values and warnings, and
    under la.errstate NumPy's run raises what it raises (FloatingPointError at the line)."""
    import warnings

    rng = np.random.default_rng(9)
    v, A = rng.random(40), rng.random((6, 6))
    w = rng.random(40)
    cases = [lambda m, c: m.histogram(c(v), bins=5),
             lambda m, c: m.histogram(c(v), bins=c(np.linspace(0, 1, 4)), weights=c(w),
                                      density=True),
             lambda m, c: m.percentile(c(v), [10, 50.0]),
             lambda m, c: m.quantile(c(A), 0.3, axis=1, keepdims=True),
             lambda m, c: m.percentile(c(v), 50, method="nearest"),
             lambda m, c: m.trace(c(A), offset=1),
             lambda m, c: m.trace(c(np.full((3, 3), 1e308))),  # overflow: NumPy's warning
             ]
    for k, make in enumerate(cases):
        outs = []
        for lib, conv in ((np, lambda a: a), (la, la.asarray)):
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                r = make(lib, conv)  # (evaluated here: a lazy result warns when computed)
                values = [np.asarray(x) for x in r] if type(r) is tuple else [np.asarray(r)]
            outs.append((values, [str(c.message) for c in caught]))
        (want, want_w), (got, got_w) = outs
        for g, x in zip(got, want):
            np.testing.assert_array_equal(g, x)
            assert g.dtype == x.dtype, k
        assert got_w == want_w or not backend_does("fp_errors"), k
    if backend_does("fp_errors"):
        with la.errstate(over="raise"), pytest.raises(FloatingPointError):
            np.asarray(la.trace(la.asarray(np.full((3, 3), 1e308))))


def test_tile_of_a_small_computed_array_is_numpys_new_array(backend):
    """np.tile of a small computed array is NumPy's tile (a new array even with every count 1:
    writing it leaves x alone), its errors at the line."""
    x = np.arange(6.0).reshape(2, 3)
    for reps in (2, (2, 1), (1, 1), (0,), (2, 1, 3)):
        got = la.tile(la.asarray(x), reps)
        np.testing.assert_array_equal(np.asarray(got), np.tile(x, reps))
        X = la.asarray(x)
        t = la.tile(X, reps)
        t[...] = -1.0
        np.testing.assert_array_equal(np.asarray(X), x)
    with pytest.raises(ValueError, match="negative dimensions are not allowed"):
        la.tile(la.asarray(x), -1)


def test_exports_of_small_views_of_computed_arrays_evaluate_nothing(monkeypatch):
    """`np.asarray(A[i])`, `A[:, j].tolist()`, NumPy's functions of `v.ravel()`: a view of a
    computed buffer is NumPy's view of it (read-only, as every export), not an evaluation of
    its chain into a new buffer (lazyarray/array.py
    `_small_view_value`)."""
    import sys
    array_module = sys.modules["lazyarray.array"]  # (la.array is the function)
    evaluated = []
    to_host = array_module._to_host
    monkeypatch.setattr(array_module, "_to_host", lambda a: evaluated.append(a) or to_host(a))
    A = np.arange(20.0).reshape(4, 5)
    a = la.asarray(A)
    for make in (lambda m: m[1], lambda m: m[:, 2], lambda m: m.T[::2], lambda m: m.ravel()):
        got = np.asarray(make(a))
        np.testing.assert_array_equal(got, make(A))
        assert got.dtype == A.dtype and not got.flags.writeable
        assert make(a).tolist() == make(A).tolist()
    assert evaluated == []
    row = a[1]
    held = np.asarray(row)
    a[1, 0] = 99.0  # a write after the export never reaches the exported values
    assert held[0] == 5.0 and float(row[0]) == 99.0
    A[1, 0] = 99.0
    assert np.asarray((a * 2)[1]).tolist() == (A * 2)[1].tolist()  # over a pending value
    assert evaluated


def test_argwhere_and_flatnonzero_are_numpys_of_the_host_value(monkeypatch):
    """np.argwhere stacked nonzero's columns (~10 us on 20 elements, NumPy 2.7) and
    np.flatnonzero raveled a second handle of a pending input (~16 us, NumPy 1.6): both are
    NumPy's function of the evaluated value now, int64, a 0-d input's shapes NumPy's."""
    import lazyarray.numpy_shapes as shapes
    monkeypatch.setattr(shapes, "nonzero", lambda *a: pytest.fail("nonzero's composition"))
    v = np.random.default_rng(3).random(20)
    for x in (v > 0.5, v.reshape(4, 5) > 0.5, np.float64(2.0), np.float64(0.0), v[:0],
              np.arange(12).reshape(3, 4) % 3):
        for name in ("argwhere", "flatnonzero"):
            want = getattr(np, name)(x)
            got = getattr(np, name)(la.asarray(x) if np.ndim(x) else la.asarray(x) + 0)
            assert type(got) is la.Array and got.dtype == want.dtype and got.shape == want.shape
            np.testing.assert_array_equal(np.asarray(got), want)
    got = np.flatnonzero(la.asarray(v) > 0.5)  # pending input
    np.testing.assert_array_equal(np.asarray(got), np.flatnonzero(v > 0.5))
