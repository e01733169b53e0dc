"""Boolean-mask indexing `x[mask]` and `x.at[mask].op(v)` against NumPy, on every backend."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy_oracle import assert_matches, draw

import lazyarray as la
from sites import notes_of

DTYPES = [np.dtype(t) for t in ("bool", "int8", "uint32", "int64", "float32", "float64")]


def _keys(a: np.ndarray) -> list:
    """Masks over (3, 4) data: 2-d, 1-d, all-true, all-false, empty-selection, 0-d, mixed."""
    m = np.random.default_rng(3).random(a.shape) > 0.5
    return [m, m[:, 0], np.ones(a.shape, bool), np.zeros(3, bool), np.array(True),
            np.array(False), True, (slice(None), m[0]), (Ellipsis, m[1]), (1, m[2]),
            (m[:, 1], 2), (None, m[:, 3]), [True, False, True], (m[:, 2], Ellipsis)]


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_mask_getitem_matches_numpy(backend, dtype):
    a = draw(np.random.default_rng(0), dtype, (3, 4))
    x = la.asarray(a) + la.zeros((), dtype)  # pending: the gather fuses with the producer
    keys = _keys(a)
    lazy_mask = x[la.asarray(a) != a.flat[0]] if dtype.kind != "b" else x[la.asarray(a)]
    got = la.eval([x[la.asarray(k) if isinstance(k, np.ndarray) else k] for k in keys])
    for k, g in zip(keys, got):
        assert_matches(g, a[k])
    assert_matches(lazy_mask, a[a != a.flat[0]] if dtype.kind != "b" else a[a])


def test_mask_getitem_empty_array(backend):
    a = np.zeros((0, 3))
    x = la.asarray(a)
    got = la.eval(x[np.zeros(0, bool)], x[np.zeros((0, 3), bool)], x[:, np.array([1, 0, 1], bool)])
    for g, w in zip(got, (a[np.zeros(0, bool)], a[np.zeros((0, 3), bool)],
                          a[:, np.array([1, 0, 1], bool)])):
        assert_matches(g, w)


_MODES = {"set": None, "add": np.add, "multiply": np.multiply, "min": np.minimum,
          "max": np.maximum}


@pytest.mark.parametrize("dtype", [np.dtype(t) for t in ("int32", "float32", "float64")], ids=str)
def test_at_mask_matches_numpy(backend, dtype):
    rng = np.random.default_rng(1)
    a = draw(rng, dtype, (3, 4))
    m2, m1 = rng.random((3, 4)) > 0.5, np.array([True, False, True])
    rows = draw(rng, dtype, (2, 4))
    cases = [(m2, 3), (m1, 3), (m1, a[0]), (m1, rows), (m1, rows[:1]), (np.array(True), 5),
             (np.ones((3, 4), bool), a.reshape(-1)[::-1]), (np.zeros(3, bool), 7)]
    x = la.asarray(a) * 1
    got, want = [], []
    for mode, op in _MODES.items():
        for mask, v in cases:
            if mode != "set" and mask.ndim == 0:
                continue
            lazy_v = la.asarray(v) if isinstance(v, np.ndarray) else v
            got.append(getattr(x.at[la.asarray(mask)], mode)(lazy_v))
            w = a.copy()
            vv = np.asarray(v, dtype)
            if op is None:
                w[mask] = vv
            else:
                w[mask] = op(w[mask], vv)
            want.append(w)
    la.eval(got)
    for g, w in zip(got, want):
        assert_matches(g, w)


@pytest.mark.lazy_only  # the graph of a small indexed value (tests/conftest.py)
def test_at_mask_does_not_evaluate_the_mask(reference_backend):
    """A shape-static update stays one lazy graph: nothing runs until the result is read."""
    x = la.asarray(np.arange(6.0)) * 2
    y = x.at[x > 4].set(0.0).at[x < 2].add(1.0)
    assert not y._node.holds_buffer
    np.testing.assert_array_equal(np.asarray(y), [1, 2, 4, 0, 0, 0])
    x = la.asarray(np.arange(6.0)) * 2
    picked = x[x > 4]  # evaluates the mask only (and keeps x, held here and computed by it)
    assert not picked._node.holds_buffer
    np.testing.assert_array_equal(np.asarray(picked), [6, 8, 10])


def test_a_mask_is_evaluated_once_with_the_value_it_reads(backend, fresh_caches):
    """Indexing several arrays by one pending mask evaluates the mask Array itself (it keeps its
    buffer: one plan, run once), and the indexed value the mask's graph computes anyway comes
    back with it as a leaf, so the gathers read buffers instead of computing z again."""
    a = np.linspace(-3.0, 3.0, 20000)  # above eager_size: the gathers stay lazy
    b = np.cos(a)
    x, y = la.asarray(a), la.asarray(b)
    z = x * x - 1.0
    keep = abs(z) < 2.0
    picked = (z[keep], x[keep], y[keep])
    assert keep._node.holds_buffer and z._node.holds_buffer
    info = la.cache_info()
    assert (info.plans_built, info.plan_hits) == (1, 0), info  # keep (and z) once
    zz = a * a - 1.0
    for got, want in zip(picked, (zz[abs(zz) < 2.0], a[abs(zz) < 2.0], b[abs(zz) < 2.0])):
        assert_matches(got, want)
    other = la.asarray(b) * 3.0  # not read by the mask: stays lazy, the gather fuses with it
    assert not other[keep]._node.holds_buffer and not other._node.holds_buffer


@pytest.mark.needs("eager")  # the at-once path; cupy runs the general path
def test_a_pending_masks_read_evaluates_it_as_np_asarray_does(backend, fresh_caches):
    """azimint_naive's `data[np.logical_and(r1 <= radius, radius < r2)]` per bin: the pending
    mask is evaluated as `np.asarray(mask)` is (graph/_node.c's hit path once its plan is
    known), without evaluate_arrays' frames (~6 us of a ~28 us read at 40,000 elements); the
    mask keeps its buffer; NumPy's values."""
    import sys

    rng = np.random.default_rng(5)
    d, r = rng.random(20000), rng.random(20000)  # above eager_size: the mask stays pending
    data, radius = la.asarray(d), la.asarray(r)
    for i in range(4):
        lo, hi = i / 10, (i + 3) / 10
        m = la.logical_and(lo <= radius, radius < hi)
        seen = []
        sys.setprofile(lambda frame, event, arg: seen.append(frame.f_code.co_name) if (
            event == "call") else None)
        try:
            got = data[m]
        finally:
            sys.setprofile(None)
        assert "evaluate_arrays" not in seen, seen
        assert m._node.holds_buffer
        np.testing.assert_array_equal(np.asarray(got), d[(lo <= r) & (r < hi)])


def _plan_runs(fn) -> int:
    before = la.cache_info()
    fn()
    after = la.cache_info()
    return (after.plan_hits + after.plans_built) - (before.plan_hits + before.plans_built)


@pytest.mark.needs("eager")  # the at-once path; cupy runs the general path
def test_a_masked_write_evaluates_its_mask_and_value_together(backend, fresh_caches):
    """A masked write's pending mask and pending value (graphs of more than one op, above
    eager_size) are one evaluation (one plan, two outputs), not two; values are NumPy's."""
    rng = np.random.default_rng(7)
    a = rng.standard_normal((100, 100))

    def step():
        r = la.asarray(a) * 1.0
        g = r[r > 0]
        value, mask = (g + 1.0) ** -1.5, (r + 1.0) > 1.0
        return r, lambda: r.__setitem__(mask, value)

    r, write = step()
    write()  # warm: the plans exist
    r, write = step()
    assert _plan_runs(write) == 1
    want = a.copy()
    want[want > 0] = (want[want > 0] + 1.0) ** -1.5
    np.testing.assert_allclose(np.asarray(r), want, rtol=1e-15)


@pytest.mark.needs("eager")
def test_a_masked_writes_one_op_mask_and_value_are_numpys_calls(backend, fresh_caches):
    """nbody's `r[r > 0] = r[r > 0] ** -1.5` of a computed r (10,000 elements, above eager_size):
    the mask `r > 0` and the value (one op over the computed gather) are NumPy's calls at once
    (eager.one_op_now), no plan: NumPy's bits, where a plan's float64 `pow` is libm's (ulps
    apart on ~5% of values); the read's own mask too. Warnings as NumPy's, at the line."""
    rng = np.random.default_rng(7)
    a = rng.uniform(-1.0, 30.0, (100, 100))
    r = la.asarray(a)
    assert _plan_runs(lambda: r.__setitem__(r > 0, r[r > 0] ** -1.5)) == 0
    want = a.copy()
    want[want > 0] = want[want > 0] ** -1.5
    np.testing.assert_array_equal(np.asarray(r), want)
    r = la.asarray(a)
    g = r[r > -0.5]
    with pytest.warns(RuntimeWarning, match="invalid value") as info:
        r[r > -0.5] = g ** 0.25  # negative bases: NaN, NumPy's invalid warning
    assert "test_masking.py" in info[0].filename
    want = a.copy()
    with np.errstate(invalid="ignore"):
        want[want > -0.5] = want[want > -0.5] ** 0.25
    np.testing.assert_array_equal(np.asarray(r), want)


def test_mask_errors(reference_backend):
    x = la.zeros((2, 3))
    with pytest.raises(IndexError, match="along axis 0; size of axis is 2 but size of corresponding boolean axis is 3") as info:
        x[np.ones(3, bool)]
    assert "test_masking.py" in notes_of(info)
    with pytest.raises(IndexError, match="too many indices"):
        x[np.ones((2, 3, 1), bool)]
    with pytest.raises(IndexError, match="axis 1; size of axis is 3 but .* boolean axis is 2"):
        x[np.ones(2, bool), np.ones(2, bool)]  # (two masks: NumPy's nonzero() of each)
    with pytest.raises(IndexError, match="axis 0; size of axis is 2 but .* boolean axis is 3") as info:
        x.at[np.ones(3, bool)].set(1.0)
    assert "test_masking.py" in notes_of(info)
    with pytest.raises(IndexError, match="axis 1; size of axis is 3 but .* boolean axis is 2"):
        x.at[:, np.ones(2, bool)].set(1.0)
    with pytest.raises(ValueError, match="broadcast"):
        x.at[np.array([True, True])].set(np.ones((3, 3)))


def test_mask_autodiff(reference_backend):
    a = np.random.default_rng(2).normal(size=(3, 4))
    m = a > 0
    g_take = la.grad(lambda t: la.sum(t[la.asarray(m)] ** 2))(la.asarray(a))
    g_set = la.grad(lambda t: la.sum(t.at[la.asarray(m)].set(0.0) * 3.0))(la.asarray(a))
    g_rows = la.grad(lambda t: la.sum(t[la.asarray(m[:, 0])] * 2.0))(la.asarray(a))
    la.eval(g_take, g_set, g_rows)
    np.testing.assert_allclose(np.asarray(g_take), 2 * a * m)
    np.testing.assert_allclose(np.asarray(g_set), 3.0 * ~m)
    np.testing.assert_allclose(np.asarray(g_rows), 2.0 * m[:, :1] * np.ones((3, 4)))


def test_mask_autodiff_through_the_indexed_value(reference_backend):
    """A mask computed from the indexed value (`z[abs(z) < 2.5]`, z held in a local or not):
    indexing evaluates the mask, but while la.grad traces neither z nor a held intermediate may
    become a leaf (the gradient through it was lost: zeros, or only x[keep]'s part)."""
    a = np.array([-1.0, 2.0, 3.0, -4.0, 0.5])

    def held(t):
        z = la.sin(t) * 3.0
        keep = abs(z) < 2.5
        return la.sum(z[keep] * t[keep])

    def unnamed(t):
        return la.sum((t * 2.0)[(t * 2.0) > 0] ** 2)

    z, keep = np.sin(a) * 3.0, abs(np.sin(a) * 3.0) < 2.5
    np.testing.assert_allclose(np.asarray(la.grad(held)(la.asarray(a))),
                               np.where(keep, 3.0 * np.cos(a) * a + z, 0.0), rtol=1e-12)
    np.testing.assert_allclose(np.asarray(la.grad(unnamed)(la.asarray(a))),
                               np.where(a > 0, 8.0 * a, 0.0), rtol=1e-12)


def test_capability_and_array_api_extra(reference_backend):
    """The flag is True (x[mask] and x[mask] = v work; False only while la.jit traces, stop
    56): array-api-extra takes its masked paths, as for NumPy."""
    assert la.__array_namespace_info__().capabilities()["boolean indexing"] is True
    xpx = pytest.importorskip("array_api_extra")
    got = xpx.setdiff1d(la.asarray([5, 1, 3, 1, 7]), la.asarray([1, 7]))
    np.testing.assert_array_equal(np.asarray(got), np.setdiff1d([5, 1, 3, 1, 7], [1, 7]))


@pytest.mark.parametrize("dtype", [np.dtype(t) for t in ("bool", "uint8", "int64", "float32",
                                                         "complex128")], ids=str)
@pytest.mark.needs("eager")  # the at-once path; cupy runs the general path
def test_masked_reads_of_computed_values_now(backend, dtype, fresh_caches):
    """`x[mask]` of a computed x (a buffer, or a view of one) and a computed mask is NumPy's
    `data[mask]` at once (lazyarray/eager.py masked): no plan, a buffer of its own. The values,
    dtypes and copies match NumPy's and the general path's (eager_size=0)."""
    rng = np.random.default_rng(5)
    a = draw(rng, dtype, (6, 5))
    m2, m1 = rng.random((6, 5)) > 0.4, rng.random(6) > 0.5
    cases = [(lambda x: x, m2), (lambda x: x, m1), (lambda x: x[::2, 1:], m2[::2, 1:]),
             (lambda x: x.T, m2.T), (lambda x: x[1], m2[1]), (lambda x: x, np.zeros(6, bool)),
             (lambda x: x[2:], np.vstack([m2, m2])[3:7]),  # (a view of a mask: la's view too)
             (lambda x: x[:0], np.zeros(0, bool))]
    for pick, mask in cases:
        want = pick(a)[mask]
        got = []
        for size in (None, 0):
            with la.config(**({} if size is None else {"eager_size": size})):
                x = la.asarray(a)
                built = la.cache_info().plans_built
                held = la.asarray(np.vstack([mask, mask]) if mask.ndim == 2 else mask)
                for m in (mask, la.asarray(mask), held[:mask.shape[0]] if mask.ndim == 2 else held):
                    r = pick(x)[m]
                    if size is None:
                        assert r._node.holds_buffer and la.cache_info().plans_built == built
                    got.append(r)
                probe = pick(x)[mask]
                probe[...] = 0  # the result is a copy: x keeps its values
                assert_matches(x, a)
        for g in got:
            assert_matches(g, want)


@pytest.mark.needs("eager")  # the at-once path; cupy runs the general path
def test_masked_read_of_a_pending_value_and_mask(backend):
    """A pending x the mask computes (`z[abs(z) < 2]`) reads at once after the mask; one the
    mask does not compute keeps the lazy gather; a write to x after the read leaves the result."""
    a = np.linspace(-3.0, 3.0, 20000)  # above eager_size: `other` stays pending
    x = la.asarray(a)
    z = x * x - 1.0
    keep = abs(z) < 2.0
    got = z[keep]
    other = la.asarray(a) * 3.0
    lazy = other[keep]
    assert got._node.holds_buffer and not lazy._node.holds_buffer
    zz = a * a - 1.0
    z[:] = 0.0
    assert_matches(got, zz[abs(zz) < 2.0])
    assert_matches(lazy, (a * 3.0)[abs(zz) < 2.0])
    with pytest.raises(IndexError, match="size of corresponding boolean axis is 39") as info:
        x[np.ones(39, bool)]
    with pytest.raises(IndexError, match="axis 0; size of axis is 3 but .* boolean axis is 2"):
        la.zeros((3, 2))[la.ones((2, 3), dtype=bool)]
    assert "test_masking.py" in notes_of(info)


@pytest.mark.filterwarnings("ignore:invalid value:RuntimeWarning")  # (drawn values: inf * 2)
@pytest.mark.parametrize("dtype", [np.dtype(t) for t in ("int32", "float64", "complex64")],
                         ids=str)
def test_masked_writes_of_computed_values_now(backend, dtype):
    """`x[mask] = v` of computed values is NumPy's masked assignment into a copy, at once
    (masking.write_now): values and dtypes as NumPy's; every other reader of the old value (an
    alias, a pending expression, an export) keeps it; the value's own view of x reads the old
    buffer, as NumPy's copy-on-overlap does; the general path (eager_size=0) agrees."""
    rng = np.random.default_rng(7)
    a = draw(rng, dtype, (5, 4))
    m2, m1 = rng.random((5, 4)) > 0.5, rng.random(5) > 0.4
    for size in (None, 0):
        with la.config(**({} if size is None else {"eager_size": size})):
            cases = [(m2, lambda x: x[m2] * 2), (m1, lambda x: x[m1][:, ::-1]),
                     (m2, lambda x: x.reshape(-1)[::-1][m2.reshape(-1)[::-1]]),
                     (np.zeros(5, bool), lambda x: x[np.zeros(5, bool)])]
            if dtype == np.float64:
                cases.append((m2, lambda x: 2.5))
            for mask, value in cases:
                want = a.copy()
                with np.errstate(all="ignore"):  # (drawn values: inf * 2)
                    want[mask] = value(want)
                x = la.asarray(a)
                alias, pending, export = x, x + 1, np.asarray(x)
                for m in (mask, la.asarray(mask), la.asarray(np.stack([mask, mask]))[1]):
                    y = la.asarray(a)
                    y[m] = value(y)
                    assert_matches(y, want)
                x[la.asarray(mask)] = value(x)
                assert_matches(x, want)
                assert_matches(pending, a + 1)
                np.testing.assert_array_equal(export, a)
                assert alias is x  # (the handle itself rebinds: NumPy's alias sees the write)
    x = la.asarray(a)
    with pytest.raises((ValueError, IndexError)) as info:
        x[m2] = la.asarray(np.ones(int(m2.sum()) + 1, dtype))  # one value too many
    assert "test_masking.py" in notes_of(info)
    assert_matches(x, a)


def _address(buffer) -> int:
    return buffer.__array_interface__["data"][0]


@pytest.mark.needs("eager")  # the at-once path; cupy runs the general path
def test_a_masked_write_goes_into_a_buffer_only_its_handle_holds(backend, fresh_caches):
    """`r[r > 0] = r[r > 0] ** -1.5` of a computed r that nothing else reads writes r's buffer
    in place (nbody copied 80 KB a step); an old value still read elsewhere (a pending
    expression, an export, the user's own NumPy array, a view's base) is copied first and
    keeps its value, as NumPy's copy would."""
    rng = np.random.default_rng(3)
    a = rng.standard_normal((40, 30))
    want = a.copy()
    want[want > 0] = want[want > 0] ** -1.5
    for keep in ("nothing", "pending", "export", "user", "user view"):
        mine = a.copy()
        if keep == "user":
            x = la.asarray(mine, copy=False)
        elif keep == "user view":
            x = la.asarray(mine.reshape(-1)[:].reshape(a.shape), copy=False)
        else:
            x = la.asarray(a) * 1.0
            la.eval(x)
        reader = {"pending": lambda: x - 1.0, "export": lambda: np.asarray(x)}.get(keep)
        held = reader() if reader else None
        address = _address(x._node.data)
        before = la.cache_info().in_place_updates
        x[x > 0] = x[x > 0] ** -1.5
        assert_matches(x, want)
        in_place = la.cache_info().in_place_updates - before
        assert in_place == (keep == "nothing") and (_address(x._node.data) == address) == (
            keep == "nothing"), keep
        if keep == "pending":
            assert_matches(held, a - 1.0)
        elif keep == "export":
            np.testing.assert_array_equal(held, a)
        np.testing.assert_array_equal(mine, a)  # the user's array is never written


_RANDOM_DTYPES = [np.dtype(t) for t in ("bool", "int8", "uint16", "int64", "float32", "float64",
                                        "complex64")]


@settings(max_examples=60, derandomize=True, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(_RANDOM_DTYPES),
       st.lists(st.integers(0, 4), min_size=1, max_size=3), st.integers(1, 3),
       st.sampled_from(["plain", "view", "pending"]))
def test_random_masked_reads_and_writes_match_numpy(seed, dtype, shape, mask_dims, form):
    """Random shapes, dtypes, mask ranks and operand forms (a buffer, a transposed or stepped
    view, a pending value): `x[m]`, `x[m] = x[m] * 2` (or a scalar), `x[m] = v` with a wrong count
    raise as NumPy does, and x's other readers keep their values."""
    rng = np.random.default_rng(seed)
    a = draw(rng, dtype, tuple(shape))
    x = la.asarray(a)
    if form == "view" and a.ndim >= 2:
        a, x = a.T[::-1], x.T[::-1]
    elif form == "pending" and dtype.kind in "iuf":
        a, x = a + a.dtype.type(0), x + la.zeros((), dtype)
    mask = rng.random(a.shape[:min(mask_dims, a.ndim)]) > 0.5
    kept = np.array(a, copy=True)
    with np.errstate(all="ignore"), la.errstate(all="ignore"):
        assert_matches(x[la.asarray(mask)], a[mask])
        assert_matches(x[mask], a[mask])
        if dtype.kind != "b":
            y = la.asarray(np.ascontiguousarray(a))
            b = np.ascontiguousarray(a)
            y[mask] = y[mask] * 2
            b[mask] = b[mask] * 2
            assert_matches(y, b)
    np.testing.assert_array_equal(np.asarray(x), kept)
    if mask.sum() > 1:
        z = la.asarray(np.ascontiguousarray(a))
        with pytest.raises((ValueError, IndexError)):
            z[mask] = la.asarray(np.zeros((int(mask.sum()) + 1,) + a.shape[mask.ndim:], dtype))
        assert_matches(z, np.ascontiguousarray(a))


@pytest.mark.needs("eager")  # the at-once path; cupy runs the general path
def test_a_masked_write_into_a_pending_base_by_a_computed_mask_writes_its_buffer(backend):
    """`y = x * 2; y[m] = v` with m computed before (its graph does not reach y): y is evaluated
    and written in place by NumPy's masked assignment, as when the mask's graph computes y; the
    general path scattered at the mask's nonzero through the host (~165 us at (100, 100), NumPy
    8). Readers of y's old value keep it."""
    got = []
    for xp in (np, la):
        x = xp.asarray(np.random.default_rng(3).random((100, 100)) - 0.2)
        m = x > 0
        np.asarray(m)
        y = x * 2
        reader = y + 1
        before = la.cache_info().in_place_updates
        y[m] = 5.0
        if xp is la:
            assert la.cache_info().in_place_updates == before + 1
        y[~m] = y[~m] * 3
        got.append([np.asarray(a).tolist() for a in (y, reader)])
    assert got[0] == got[1]


@pytest.mark.needs("eager")  # the at-once path; cupy runs the general path
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_a_masked_update_of_a_pending_base_by_a_computed_mask_is_one_evaluation(backend, dtype):
    """`y = x * 2; y[m] = np.log(y[m])` with m computed before: the write evaluates y and the
    value (a gather of y's graph) in one plan, y's graph computed once; the value was a second
    evaluation that computed y's graph again. NumPy's values, and no warning for the unselected
    negatives (the log reads the selected elements only)."""
    import warnings
    got = []
    for xp in (np, la):
        x = xp.asarray((np.random.default_rng(4).random((100, 100)) - 0.3).astype(dtype))
        m = x > 0
        np.asarray(m)
        y = x * 2
        before = la.cache_info()
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            y[m] = np.log(y[m])
            y[m] = y[m] * 3  # (y computed now: the at-once path)
        if xp is la:
            after = la.cache_info()
            assert (after.plans_built + after.plan_hits) - (
                before.plans_built + before.plan_hits) == 1
        got.append(y)
    assert_matches(got[1], got[0])  # (a plan's log: within the oracle's tolerance)


@pytest.mark.needs("eager")  # the at-once path; cupy runs the general path
@pytest.mark.parametrize("dtype", ["float64", "float32", "int8", "uint16", "int64", "bool"])
def test_masked_writes_of_python_scalars_at_once_store_numpys_value(backend, dtype, monkeypatch):
    """`h[h < 0] = 0` (pg-pong's ReLU: an int into a float array) is NumPy's masked assignment at
    once, as a float was (31 -> 14 us a frame); every Python scalar NumPy stores without a
    warning or an error (eager.masked_scalar); the others take the general path, which raises
    NumPy's OverflowError at the line or warns as NumPy's cast does."""
    import lazyarray.masking as masking

    general = []
    real = masking.at_update
    monkeypatch.setattr(masking, "at_update", lambda *a, **k: general.append(a) or real(*a, **k))
    a = (np.arange(12) - 5).reshape(3, 4).astype(dtype)
    fits = {"float64": [0, -3, 2.5, True, 2**53, float("nan"), float("-inf")],
            "float32": [0, 7, 0.1, False, -1e30, float("inf")],
            "int8": [0, -128, 127, True], "uint16": [0, 65535, False], "int64": [2**63 - 1, -2],
            "bool": [0, 1, True, 2**70]}[dtype]
    with la.config(eager_size=4096):
        for value in fits:
            x = la.asarray(a)
            want = a.copy()
            want[want > 0] = value
            x[x > 0] = value
            np.testing.assert_array_equal(np.asarray(x), want)
            assert np.asarray(x).dtype == want.dtype
        assert not general, general
        if dtype in ("int8", "uint16"):
            x = la.asarray(a)
            with pytest.raises(OverflowError) as info:
                x[x > 0] = 70000
            assert "test_masking.py" in notes_of(info)
            np.testing.assert_array_equal(np.asarray(x), a)
            assert general
        if dtype == "float32":
            x = la.asarray(a)
            with pytest.warns(RuntimeWarning, match="overflow"):
                x[x > 0] = 1e300
                np.asarray(x)
            assert general


@pytest.mark.needs("eager")  # the at-once path; cupy runs the general path
def test_masked_writes_of_a_number_or_an_element_go_into_the_buffer_in_c(backend):
    """dijkstra's `pred[better] = u` (u an argmin element), pong_pg's `h[h < 0] = 0`: a masked
    write of a Python number or a computed 0-d Array of x's dtype into a buffer only x holds is
    NumPy's masked assignment from C (_trace.c try_write_masked): no Python frame, the same
    buffer, counted in `in_place_updates`; a pending one-op mask is computed once (the mask
    Array keeps it). Another reader of x, a value x's dtype cannot hold or a float into ints
    take the general path: the reader keeps its value, NumPy's error and values."""
    import sys
    rng = np.random.default_rng(5)
    a = rng.standard_normal((30, 20))
    k = np.arange(20) - 7
    x, n = la.asarray(a) * 1.0, la.asarray(k) * 1
    la.eval(x, n)
    u, mask = la.argmin(n), n > 2
    la.eval(u, mask)  # a computed int64 element, a computed mask
    negative, not_mask = x < 0, ~mask  # (pending one-op masks, the first over x itself)
    address, before, seen = _address(x._node.data), la.cache_info().in_place_updates, []
    sys.setprofile(lambda frame, event, arg: seen.append(frame.f_code.co_name) if (
        event == "call") else None)
    try:
        x[negative] = 0
        n[mask] = u
        n[not_mask] = -1
    finally:
        sys.setprofile(None)
    x[x > 1] = 1.5
    want_x, want_n = a.copy(), k.copy()
    want_x[want_x < 0] = 0
    want_n[k > 2] = np.argmin(k)
    want_n[~(k > 2)] = -1
    want_x[want_x > 1] = 1.5
    assert not seen or la._bind.FAST is None, seen
    assert la.cache_info().in_place_updates - before == 4
    assert negative._node.data is not None and not_mask._node.data is not None
    assert _address(x._node.data) == address
    assert_matches(x, want_x)
    assert_matches(n, want_n)
    reader = x * 2.0  # a pending reader of x's buffer: the write copies
    x[x > 1] = -3
    assert_matches(reader, want_x * 2.0)
    want_x[want_x > 1] = -3
    assert_matches(x, want_x)
    small = la.asarray(np.arange(6, dtype=np.int8)) * 1
    la.eval(small)
    with pytest.raises(OverflowError):
        small[small > 2] = 300
    small[small > 2] = 1.5  # NumPy's cast: 1
    assert_matches(small, np.array([0, 1, 2, 1, 1, 1], np.int8))
