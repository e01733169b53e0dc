"""`x[idx] = v` rebinds the handle to `x.at[idx].set(v)`: NumPy's values for the array written
and for its views (lazyarray/writes.py; tests/test_writes.py has the write rules in full), no
change to values computed from it before, and array-api-extra's writers (`at`, `pad`,
`create_diagonal`), which take every non-JAX array for writable, work on lazyarray."""

from __future__ import annotations

import copy

import numpy as np
import pytest
from numpy_oracle import assert_matches

import lazyarray as la
from sites import notes_of

_KEYS = [1, (slice(None), 2), (Ellipsis, -1), ([0, 2], slice(1, None)), (0, slice(None), [1, 0]),
         np.array([True, False, True]), ()]


@pytest.mark.parametrize("key", _KEYS, ids=str)
def test_setitem_matches_numpy(backend, key):
    want = np.arange(24.0).reshape(3, 4, 2)
    x = la.asarray(want)
    before, view, total = x, x[0], x + 1
    value = -np.ones(want[key].shape[-1:] if want[key].ndim else ())
    want = want.copy()
    want_view = want[0]
    want[key] = value
    x[key] = value
    assert before is x
    assert_matches(x, want)
    assert_matches(view, want_view)  # a view taken before the write sees it, as NumPy's
    assert_matches(total, np.arange(24.0).reshape(3, 4, 2) + 1)


def test_copies_are_new_handles(reference_backend):
    x = la.asarray(np.zeros(3))
    for c in (x.copy(), copy.copy(x), copy.deepcopy(x), la.asarray(x, copy=True), la.array(x)):
        assert c is not x
        c[0] = 5.0
        assert_matches(c, np.array([5.0, 0, 0]))
    assert_matches(x, np.zeros(3))
    assert la.asarray(x) is x


@pytest.mark.lazy_only  # the graph of a small indexed value (tests/conftest.py)
def test_setitem_in_a_loop_is_cut_and_correct(reference_backend):
    """The rebound handle is tracked, so the node budget cuts the loop's graph (twice listed after
    an evaluation: it must be replaced once)."""
    x = la.zeros(4)
    float(x[0])
    cuts = la.cache_info().graph_cuts
    with la.config(max_graph_nodes=20):
        for i in range(200):
            x[i % 4] = x[i % 4] + 1.0
            if i == 100:
                np.asarray(x)
    assert la.cache_info().graph_cuts > cuts
    assert_matches(x, np.full(4, 50.0))


def test_array_api_extra_writers(backend):
    xpx = pytest.importorskip("array_api_extra")
    v = np.array([3.0, 1.0, 2.0, 5.0])
    m = np.arange(12.0).reshape(3, 4)
    x = la.asarray(v)
    assert_matches(xpx.at(x)[1].set(9.0), np.where(np.arange(4) == 1, 9.0, v))
    assert_matches(xpx.at(la.asarray(v), slice(1, 3)).add(1.0), v + [0, 1, 1, 0])
    assert_matches(xpx.at(la.asarray(v))[la.asarray(v) > 2].set(0.0), np.where(v > 2, 0, v))
    copied = la.asarray(v)
    assert_matches(xpx.at(copied)[0].set(1.0, copy=True), np.array([1.0, 1, 2, 5]))
    assert_matches(copied, v)  # copy=True leaves the input alone
    assert_matches(xpx.pad(la.asarray(m), 2), np.pad(m, 2))
    assert_matches(xpx.pad(la.asarray(m), ((1, 0), (0, 2)), constant_values=7),
                   np.pad(m, ((1, 0), (0, 2)), constant_values=7))
    assert_matches(xpx.create_diagonal(la.asarray(v)), np.diag(v))
    assert_matches(xpx.create_diagonal(la.asarray(v), offset=-1), np.diag(v, -1))


def _chain_of_writes(v, n: int):
    for i in range(n):
        v[i % 5] = v[(i + 1) % 5] * 1.01
    return v


def test_grad_vjp_jvp_of_a_function_that_writes_into_its_argument(reference_backend):
    """Inside la.grad & co. `x[i] = v` rebinds only the function's handle: the derivative is
    w.r.t. the argument (it was taken w.r.t. the value stored into it: grad gave 2 * result)."""
    x0 = np.arange(5.0)

    def numeric(n: int) -> np.ndarray:  # central differences of the NumPy program (quadratic)
        def f(a):
            a = a.copy()
            for i in range(n):
                a[i % 5] = a[(i + 1) % 5] * 1.01
            return (a * a).sum()
        return np.array([(f(x0 + e) - f(x0 - e)) / 2e-3 for e in np.eye(5) * 1e-3])

    for n in (1, 6, 50):
        got = la.grad(lambda v: (_chain_of_writes(v, n) ** 2).sum())(la.array(x0))
        np.testing.assert_allclose(np.asarray(got), numeric(n), rtol=1e-9, atol=1e-9)
    _, pullback = la.vjp(lambda v: _chain_of_writes(v, 1), la.array(x0))
    np.testing.assert_array_equal(np.asarray(pullback(la.ones(5))[0]), [0, 2.01, 1, 1, 1])
    _, tangent = la.jvp(lambda v: _chain_of_writes(v, 1), (la.array(x0),), (la.ones(5),))
    np.testing.assert_array_equal(np.asarray(tangent), [1.01, 1, 1, 1, 1])


def _outcome(xp, write):
    """(the array after `write`, or the exception type; the warnings' categories)."""
    import warnings
    x = xp.array(np.arange(6.0).reshape(2, 3))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            write(xp, x)
            out = np.asarray(x).tolist()
        except Exception as exc:  # noqa: BLE001: NumPy's exception type is the answer
            out = type(exc)
    return out, [w.category for w in caught]


@pytest.mark.parametrize("write", [
    lambda xp, x: x.__setitem__((0, slice(None)), xp.array(np.array([1 + 2j, 3j])).sum()),
    lambda xp, x: x.__setitem__((1, slice(1, 1)), xp.array(np.array([1 + 2j])).sum()),  # empty
    lambda xp, x: x.__setitem__(0, xp.array(np.array([1 + 2j, 3j, 4j]))),
    lambda xp, x: x.__setitem__((0, slice(0, 1)), xp.zeros((6,))),  # (6,) into (1,)
    lambda xp, x: x.__setitem__(0, xp.ones((1, 1, 3))),  # leading ones dropped
    lambda xp, x: x.__setitem__((5, 0), xp.ones((2,))),  # the index first: IndexError
    lambda xp, x: x.__setitem__((1, slice(0, 0)), xp.array(np.array([-1e300]))),  # no cast
], ids=["complex", "complex-empty", "complex-row", "into-smaller", "leading-ones", "index-first",
        "empty-no-cast"])
def test_writes_warn_and_raise_as_numpy(backend, write):
    """tests/test_fuzz_at_once.py: complex values into a real array warn NumPy's ComplexWarning
    (also where the key selects nothing); values must broadcast *into* the target, at the write
    (a (6,) value into a (1,) slice was an EvaluationError at the next read); an element index
    out of range is NumPy's IndexError before the value's shape is looked at; a write that
    selects nothing casts nothing (no `invalid value encountered in cast`)."""
    assert _outcome(la, write) == _outcome(np, write)


@pytest.mark.parametrize("dtype", ["bool", "complex64", "float32", "int8"])
@pytest.mark.parametrize("value", [[1.0], [[2]], [1, 2], [1 + 1j], [0.0]], ids=str)
def test_an_array_at_an_element_is_numpys(backend, dtype, value):
    """`x[0] = array`: NumPy stores a bool array's element as the truth of a one-element value,
    refuses any array value at a complex element with TypeError, elsewhere with ValueError
    (tests/test_fuzz_at_once.py: `A[0][0] ^= v` of a (1,)-shaped v on a bool A)."""
    def outcome(xp):
        a = xp.array(np.zeros(3, dtype))
        try:
            a[0] = xp.array(np.array(value))
            a[1] = np.array(value)
        except Exception as exc:  # noqa: BLE001: NumPy's exception type is the answer
            return type(exc)
        return np.asarray(a).tolist()
    assert outcome(la) == outcome(np)


def test_index_array_write_checks_the_value_shape_before_the_bounds(reference_backend):
    """NumPy checks an index array's bounds as it writes, after broadcasting the value: `A[[0, 1]]
    = V` on a (1,) A with a V of another shape is its ValueError, with a fitting V its IndexError
    (fuzz seed 82307 raised the IndexError for both). An integer key's bounds come first."""
    for value, error in ((np.ones((3, 4)), ValueError), (np.ones(2), IndexError)):
        want = np.zeros(1)
        with pytest.raises(error):
            want[[0, 1]] = value
        a = la.zeros(1)
        with pytest.raises(error):
            a[[0, 1]] = value
        with pytest.raises(error):
            a.at[[0, 1]].set(la.asarray(value))
    with pytest.raises(IndexError):
        np.zeros((1, 2))[5, [0, 1]] = np.ones((3, 4))
    with pytest.raises(IndexError):
        la.zeros((1, 2))[5, [0, 1]] = np.ones((3, 4))


@pytest.mark.parametrize("eager_size", [0, 4096])
def test_a_write_selecting_nothing_casts_nothing_past_leading_ones(backend, eager_size):
    """`I[0:0] = v` with v of shape (1, 1) or (1, 1, 1) (leading ones NumPy drops) casts nothing:
    NaN into an integer array warned `invalid value encountered in cast` (fuzz39's sweep, seed
    122723: `I[0:0] = t2[-1:5][:, None].reshape((1, 1, 1)) / float('nan')`)."""
    import warnings
    for shape in ((1, 1), (1, 1, 1), (1,)):
        for xp in (np, la):
            with la.config(eager_size=eager_size), warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                a = xp.asarray(np.array([], dtype=np.uint64))
                t = xp.asarray(np.array([1, 0, 1], dtype=np.uint64))
                a[0:0] = t[-1:].reshape(shape) / float("nan")
                assert np.asarray(a).shape == (0,)
            assert not caught, (xp.__name__, shape, [str(w.message) for w in caught])


@pytest.mark.needs("eager")  # the at-once path; cupy runs the general path
def test_a_write_by_computed_index_arrays_goes_into_a_buffer_only_its_handle_holds(
        backend, fresh_caches):
    """`N_[Xi[rem], Yi[rem]] = i + 1` (mandelbrot): a write by computed integer index arrays is
    NumPy's `data[key] = v` into the handle's own buffer, no plan and no copy (eager.
    write_indexed); NumPy's values for duplicates, negatives, unsigned and mixed int/array keys,
    scalar and broadcast values; an index out of range raises NumPy's IndexError at this line
    and writes nothing; an old value still read elsewhere keeps its value."""
    from lazyarray.graph.node import built_count
    rng = np.random.default_rng(5)
    base = rng.standard_normal((7, 5))
    rows = np.array([0, 6, -1, 3, 3], np.int64)
    cols = np.array([4, 0, 2, 1, 1], np.uint32)
    cases = [((rows, cols), 2.5), ((rows,), -1.0), ((2, cols), 7), ((rows, 1), 0.5),
             ((rows[:, None], cols[None, :2]), np.arange(10.0).reshape(5, 2)),
             ((rows,), np.arange(5.0)[None, :] * np.ones((5, 1)))]
    for key, value in cases:
        want = base.copy()
        want[key] = value
        x = la.asarray(base) * 1.0
        la.eval(x)
        lazy_key = tuple(la.asarray(k) + 0 if isinstance(k, np.ndarray) else k for k in key)
        la.eval(*[k for k in lazy_key if isinstance(k, la.Array)])
        lazy_value = la.asarray(value) * 1.0 if isinstance(value, np.ndarray) else value
        la.eval(*[v for v in (lazy_value,) if isinstance(v, la.Array)])  # (computed values)
        address, before = x._node.data.__array_interface__["data"][0], la.cache_info()
        nodes = built_count()
        x[lazy_key if len(lazy_key) > 1 else lazy_key[0]] = lazy_value
        assert built_count() == nodes  # (the general path built the scatter's nodes)
        after = la.cache_info()
        assert after.plans_built == before.plans_built and after.plan_hits == before.plan_hits
        assert x._node.data.__array_interface__["data"][0] == address, key
        assert_matches(x, want)
    x = la.asarray(base) * 1.0
    kept, export = x + 0.0, None
    x[la.asarray(rows) + 0, la.asarray(cols) + 0] = 9.0
    want = base.copy()
    want[rows, cols] = 9.0
    assert_matches(x, want)
    assert_matches(kept, base)
    x = la.asarray(base) * 1.0
    la.eval(x)
    export = np.asarray(x)
    x[la.asarray(rows) + 0] = 3.0
    np.testing.assert_array_equal(export, base)
    with pytest.raises(IndexError) as info:
        x[la.asarray(np.array([0, 7])) + 0, la.asarray(cols[:2]) + 0] = 1.0
    assert "test_setitem.py" in notes_of(info)
    want = base.copy()
    want[rows] = 3.0
    assert_matches(x, want)  # nothing of the failed write went in


@pytest.mark.needs("eager")  # the at-once path; cupy runs the general path
def test_a_write_by_pending_gathers_of_computed_arrays_goes_into_the_fills_buffer(backend):
    """mandelbrot's first step: `N_[Xi[rem], Yi[rem]] = i + 1` and `Z_[...] = Z[rem]` with the
    gathers above eager_size (pending takes of computed arrays by computed positions): they are
    computed at the write (eager._gathered: the index Arrays take the leaves) and the write goes
    into the fill's buffer, so the next steps' writes find a buffer (a scatter left there was
    every later write's base: 19 of mandelbrot's 41 ms). NumPy's values."""
    n = 6000
    rng = np.random.default_rng(9)
    xi, yi = rng.integers(0, 80, n).astype(np.uint32), rng.integers(0, 90, n).astype(np.uint32)
    z = rng.standard_normal(n)
    Xi, Yi, Z = la.asarray(xi), la.asarray(yi), la.asarray(z)
    N_, Z_ = la.zeros((80, 90), dtype=np.int64), la.zeros((80, 90))
    want_n, want_z = np.zeros((80, 90), np.int64), np.zeros((80, 90))
    with la.config(eager_size=64):
        for step in range(3):
            p = np.flatnonzero(z > step * 0.5)
            P = la.asarray(p)
            a, b, v = Xi[P], Yi[P], Z[P]
            assert a._node.inputs and v._node.inputs  # (pending takes: above eager_size)
            N_[a, b] = step + 1
            Z_[a, b] = v
            assert not a._node.inputs and not N_._node.inputs and not Z_._node.inputs
            want_n[xi[p], yi[p]] = step + 1
            want_z[xi[p], yi[p]] = z[p]
    assert_matches(N_, want_n)
    assert_matches(Z_, want_z)
