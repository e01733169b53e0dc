"""The NumPy functions of lazyarray/numpy_arrange.py and lazyarray/numpy_statistics.py against
NumPy, on every backend: dtypes and shapes exactly, values to the last bits (C contracts a*b+c
into FMA where NumPy may not); quantiles exactly on the numpy backend, over random shapes."""

import warnings

import numpy as np
import pytest

import lazyarray as la
from sites import assert_site

rng = np.random.default_rng(0)
F = rng.standard_normal((4, 5))
F32 = F.astype(np.float32)
I = rng.integers(0, 9, (4, 5))  # noqa: E741
FN = F.copy()
FN[1, 2] = np.nan
FN[3, :] = np.nan

CASES = {
    "quantile": lambda m: m.quantile(F, 0.3),
    "quantile_axis": lambda m: m.quantile(F, [0.1, 0.5, 1.0], axis=1),
    "quantile_keepdims": lambda m: m.quantile(F32, 0.75, axis=0, keepdims=True),
    "quantile_f32_q_array": lambda m: m.quantile(F32, np.array([0.25, 0.5])),
    "quantile_int_axes": lambda m: m.quantile(I, 0.5, axis=(0, 1)),
    "quantile_nan": lambda m: m.quantile(FN, 0.5, axis=1),
    "percentile": lambda m: m.percentile(F, [10, 90], axis=0),
    "percentile_f32": lambda m: m.percentile(F32, 33),
    "nanquantile": lambda m: m.nanquantile(FN, [0.2, 0.9], axis=1),
    "nanpercentile": lambda m: m.nanpercentile(FN, 50),
    "nanmedian": lambda m: m.nanmedian(FN, axis=1),
    "nanmedian_f32": lambda m: m.nanmedian(FN.astype(np.float32), axis=0, keepdims=True),
    # complex: a NaN in either part is skipped, as NumPy (it propagated here)
    "nanmedian_complex": lambda m: m.nanmedian(m.asarray(FN + 1j * F), axis=1),
    "nanmedian_complex64": lambda m: m.nanmedian(m.asarray((F + 1j * FN).astype(np.complex64)),
                                                 axis=0, keepdims=True),
    "cov": lambda m: m.cov(F),
    "cov_columns": lambda m: m.cov(F, rowvar=False),
    "cov_xy": lambda m: m.cov(F[0], F[1]),
    "cov_bias": lambda m: m.cov(F, bias=True),
    "cov_weights": lambda m: m.cov(F, fweights=[1, 2, 1, 3, 1], aweights=[0.5, 1, 2, 1, 1]),
    "cov_1d": lambda m: m.cov(F[0]),
    "cov_complex": lambda m: m.cov(F + 1j * F32),
    "corrcoef": lambda m: m.corrcoef(F),
    "corrcoef_complex": lambda m: m.corrcoef(F + 1j * F[::-1]),
    "nancumsum": lambda m: m.nancumsum(FN, axis=1),
    "nancumprod": lambda m: m.nancumprod(FN),
    "digitize": lambda m: m.digitize(F, [-1, 0, 0.5, 2]),
    "digitize_right": lambda m: m.digitize(F, [-1, 0, 0.5, 2], right=True),
    "digitize_decreasing": lambda m: m.digitize(F, [2, 0.5, 0, -1]),
    "bincount": lambda m: m.bincount(m.asarray(I.ravel())),
    "bincount_minlength": lambda m: m.bincount(m.asarray(np.array([1, 1, 0], np.uint8)), minlength=5),
    "bincount_weights": lambda m: m.bincount(m.asarray(I.ravel()), weights=m.asarray(F.ravel())),
    "bincount_f32_weights": lambda m: m.bincount(m.asarray([0, 2, 2]), weights=m.asarray(F32[0, :3])),
    "bincount_bool": lambda m: m.bincount(m.asarray(np.array([True, False, True]))),
    # an empty x: NumPy's int64 zeros, the weights not read (float64 here before)
    "bincount_empty_weights": lambda m: m.bincount(m.asarray(np.zeros(0, np.int64)),
                                                   weights=m.asarray(np.zeros(0)), minlength=3),
    "bincount_empty": lambda m: m.bincount(m.asarray(np.zeros(0, np.int64)), minlength=2),
    "identity": lambda m: m.identity(3, dtype=np.int8),
    "tri": lambda m: m.tri(3, 4, 1),
    "indices": lambda m: m.indices((2, 3)),
    "tril_indices": lambda m: m.stack(m.tril_indices(4, 1)),
    "triu_indices_from": lambda m: m.stack(m.triu_indices_from(m.asarray(F), 1)),
    "diag_indices": lambda m: m.stack(m.diag_indices(3)),
    "logspace": lambda m: m.logspace(0, 2, 5),
    "geomspace": lambda m: m.geomspace(1, 1000, 4),
    "unravel_index": lambda m: m.stack(m.unravel_index([3, 7, 11], (3, 4))),
    "ravel_multi_index": lambda m: m.ravel_multi_index(([0, 2], [1, 3]), (3, 4)),
    "array_split": lambda m: m.array_split(m.asarray(F), 3, axis=1)[2],
    "array_split_indices": lambda m: m.array_split(m.asarray(F), [1, 3])[1],
    "hsplit": lambda m: m.hsplit(m.asarray(F[:, :4]), 2)[1],
    "vsplit": lambda m: m.vsplit(m.asarray(F), [1])[1],
    "pad_constant": lambda m: m.pad(m.asarray(F), ((1, 2), (0, 1)),
                                    constant_values=((7, 8), (9, 10))),
    "pad_int_float_value": lambda m: m.pad(m.asarray(I), 1, constant_values=2.7),
    "pad_edge": lambda m: m.pad(m.asarray(F), 2, mode="edge"),
    "pad_reflect": lambda m: m.pad(m.asarray(F), (3, 6), mode="reflect"),
    "pad_symmetric": lambda m: m.pad(m.asarray(F), ((0, 5), (7, 1)), mode="symmetric"),
    "pad_wrap": lambda m: m.pad(m.asarray(F), 6, mode="wrap"),
    "pad_mean": lambda m: m.pad(m.asarray(F), 1, mode="mean"),
    "delete": lambda m: m.delete(m.asarray(F), [0, 2], axis=1),
    "delete_flat_slice": lambda m: m.delete(m.asarray(F), slice(2, 9, 3)),
    "delete_mask": lambda m: m.delete(m.asarray(F), np.array([True, False, True, False]), axis=0),
    "diagflat": lambda m: m.diagflat(m.asarray(F[:2, :2]), -1),
    "ediff1d": lambda m: m.ediff1d(m.asarray(F), to_begin=[1, 2], to_end=-1),
    "rollaxis": lambda m: m.rollaxis(m.asarray(F[None]), 2, 1),
    "cross": lambda m: m.cross(m.asarray(F[:, :3]), m.asarray(F[::-1, 1:4])),
    "cross_axis": lambda m: m.cross(m.asarray(F[:3, :]), m.asarray(F[1:, :]), axis=0),
    "convolve": lambda m: m.convolve(m.asarray(F[0]), m.asarray(F[1, :3])),
    "convolve_same_swapped": lambda m: m.convolve(m.asarray(F[0, :2]), m.asarray(F[1]), "same"),
    "convolve_int_valid": lambda m: m.convolve(m.asarray(I[0]), m.asarray(I[1, :2]), "valid"),
    "correlate": lambda m: m.correlate(m.asarray(F[0]), m.asarray(F[1, :3]), "full"),
    "correlate_swapped": lambda m: m.correlate(m.asarray(F[0, :2]), m.asarray(F[1]), "full"),
    "correlate_complex": lambda m: m.correlate(m.asarray(F[0] + 1j), m.asarray(F[1, :3] - 2j),
                                               "same"),
    "correlate_complex_swapped": lambda m: m.correlate(m.asarray(F[0, :2] + 1j),
                                                       m.asarray(F[1] - 2j), "full"),
    # a padding zero times an inf/NaN of v made every edge output NaN; NumPy sums the overlap
    "convolve_nan_kernel_same": lambda m: m.convolve(m.asarray(F[0]), m.asarray(FN[1, :3]),
                                                     "same"),
    "convolve_inf_kernel_full": lambda m: m.convolve(m.asarray(F[0]), m.asarray(
        np.array([np.inf, 1.0, 2.0], np.float32)), "full"),
    "correlate_nan_swapped": lambda m: m.correlate(m.asarray(F[0, :2]), m.asarray(FN[1]), "full"),
    "trapezoid": lambda m: m.trapezoid(m.asarray(F)),
    "trapezoid_x": lambda m: m.trapezoid(m.asarray(F), m.asarray(np.arange(4.0) ** 2), axis=0),
    "trapezoid_dx": lambda m: m.trapezoid(m.asarray(I), dx=0.5, axis=1),
    "select": lambda m: m.select([m.asarray(F) > 0.5, m.asarray(F) < -0.5],
                                 [m.asarray(F), m.asarray(I)], default=-3),
    "iscomplex": lambda m: m.iscomplex(m.asarray(F + 1j * (F > 0))),
    "isreal": lambda m: m.isreal(m.asarray(F)),
    "ix_": lambda m: m.asarray(F)[m.ix_(m.asarray([0, 2]),
                                        m.asarray([True, False, True, False, True]))],
}


def test_functions_match_numpy(backend):
    with np.errstate(all="ignore"):
        wants = {k: np.asarray(f(np)) for k, f in CASES.items()}
        lazy = {k: f(la) for k, f in CASES.items()}
    la.eval(*lazy.values())
    for k, want in wants.items():
        got = np.asarray(lazy[k])
        assert got.dtype == want.dtype and got.shape == want.shape, (k, got.dtype, got.shape)
        tight = 1e-5 if want.dtype in (np.float32, np.complex64) else 1e-12
        np.testing.assert_allclose(got, want, rtol=tight, atol=tight, err_msg=k,
                                   equal_nan=True)


@pytest.mark.parametrize("seed", range(3))
def test_quantiles_are_numpys_to_the_bit(reference_backend, seed):
    """NumPy's own steps (virtual index (n-1)*q, _lerp's two branches, weak q blending in the
    data's dtype, NaN slices): equal bit for bit on the numpy backend over random shapes."""
    r = np.random.default_rng(seed)
    for t in range(40):
        shape = tuple(int(s) for s in r.integers(1, 6, r.integers(1, 4)))
        x = r.standard_normal(shape)
        x = x.astype(np.float32) if t % 3 == 0 else (x * 4).astype(np.int16) if t % 7 == 0 else x
        if t % 4 == 0 and x.dtype.kind == "f":
            x[r.random(shape) < 0.3] = np.nan
        axis = None if t % 5 == 0 else int(r.integers(-len(shape), len(shape)))
        q = [0.0, 0.13, 0.5, 0.77, 1.0] if t % 2 else float(r.random())
        for name in ("quantile", "nanquantile", "nanmedian"):
            args = (x,) if name == "nanmedian" else (x, q)
            with np.errstate(all="ignore"), warnings.catch_warnings():
                warnings.simplefilter("ignore")  # all-NaN slices
                want = getattr(np, name)(*args, axis=axis, keepdims=bool(t % 2))
            got = np.asarray(getattr(la, name)(*args, axis=axis, keepdims=bool(t % 2)))
            assert got.dtype == want.dtype and got.shape == want.shape, (name, shape, axis)
            np.testing.assert_array_equal(got, want, err_msg=f"{name} {shape} {axis} {q}")


@pytest.mark.parametrize("call, exc", [
    (lambda m: m.digitize([1.0], [1, 3, 2]), ValueError),
    (lambda m: m.select([m.asarray([1, 0])], [m.asarray([1, 2])]), TypeError),
    (lambda m: m.pad(m.asarray([1, 2]), -1), ValueError),
    (lambda m: m.quantile(m.asarray([1.0, 2.0]), 1.5), ValueError),
    (lambda m: m.quantile(m.asarray([1j]), 0.5), TypeError),
    (lambda m: m.array_split(m.asarray([1, 2]), 0), ValueError),
    (lambda m: m.vsplit(m.asarray([1, 2]), 2), ValueError),
    (lambda m: m.ediff1d(m.asarray([1, 2]), to_end=0.5), TypeError),
    (lambda m: m.unravel_index(12, (3, 4)), ValueError),
    (lambda m: m.pad(m.zeros((0,)), 1, mode="edge"), ValueError),
    (lambda m: m.bincount(m.asarray([1, -1])), ValueError),
    (lambda m: m.bincount(m.asarray([1.0, 2.0])), TypeError),
    (lambda m: m.bincount(m.asarray(np.zeros((2, 2), np.int64))), ValueError),
    (lambda m: m.bincount(m.asarray([1, 2]), minlength=-1), ValueError),
    (lambda m: m.bincount(m.asarray([1, 2]), weights=m.asarray([1.0])), ValueError),
])
def test_errors_match_numpy(reference_backend, call, exc):
    with pytest.raises(exc):
        call(np)
    with pytest.raises(exc):
        call(la)


def test_numpy_calls_stay_lazy(reference_backend):
    """np.pad / np.quantile / np.cov on an Array dispatch here (NEP 18) instead of falling back."""
    x = la.asarray(F) * 2  # pending
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a fallback would warn
        got = [np.pad(x, 1, mode="reflect"), np.quantile(x, 0.5, axis=0), np.cov(x),
               np.trapezoid(x), np.delete(x, 1, axis=0), np.bincount(la.asarray(I.ravel()))]
    assert all(isinstance(g, la.Array) for g in got)
    np.testing.assert_allclose(np.asarray(got[2]), np.cov(F * 2), rtol=1e-12)


_pq = np.random.default_rng(1).standard_normal(50)
_pq_nan = np.where(np.arange(50) % 7 == 3, np.nan, _pq)
_pq_w = np.random.default_rng(2).random(50)
_QUANTILE_METHODS = {
    "percentile nearest": lambda m, a: m.percentile(a(_pq), [10, 50], method="nearest"),
    "percentile lower, scalar q": lambda m, a: m.percentile(a(_pq), 10, method="lower"),
    "nanpercentile higher": lambda m, a: m.nanpercentile(a(_pq_nan), [10, 90], method="higher"),
    "percentile weights": lambda m, a: m.percentile(a(_pq), 30, method="inverted_cdf",
                                                    weights=a(_pq_w)),
    "quantile midpoint": lambda m, a: m.quantile(a(_pq), 0.3, method="midpoint"),
    "nanquantile nearest": lambda m, a: m.nanquantile(a(_pq_nan), [0.3], method="nearest"),
}


@pytest.mark.parametrize("name", sorted(_QUANTILE_METHODS))
def test_quantile_methods_as_numpy(reference_backend, name):
    """percentile/nanpercentile with another method or weights (computed by NumPy on the host)
    take q in percent: they handed NumPy's percentile q / 100 (the 0.1th percentile for 10)."""
    f = _QUANTILE_METHODS[name]
    want, got = f(np, np.asarray), f(la, la.asarray)
    assert got.dtype == np.asarray(want).dtype and got.shape == np.shape(want)
    np.testing.assert_array_equal(np.asarray(got), want)


@pytest.mark.parametrize("weights", [None, np.arange(8.0)])
def test_histogram_of_bools_bins_them_as_uint8(reference_backend, weights):
    """np.histogram of a bool array converts it to uint8 with NumPy's RuntimeWarning (it raised
    TypeError: a bool subtract)."""
    b = np.array([True, False, True, True, False, True, True, False])
    with pytest.warns(RuntimeWarning, match="Converting input from bool"):
        want = np.histogram(b, bins=3, weights=weights)
    with pytest.warns(RuntimeWarning, match="Converting input from bool"):
        got = la.histogram(la.asarray(b), bins=3,
                           weights=None if weights is None else la.asarray(weights))
    for g, w in zip(got, want):
        assert g.dtype == w.dtype and g.shape == w.shape
        np.testing.assert_array_equal(np.asarray(g), w)


def test_short_convolve_gathers_only_its_edges(reference_backend):
    """convolve/correlate with a short y (<= 64 taps) sum shifted slices of x for the interior
    rows: no matmul, and the only gathers are the edge windows ((m - 1) rows of m at most each),
    where the whole window matrix (n x m, and its host index array) was gathered; values as
    NumPy's in every mode, NaN/inf kernels and integers included."""
    from lazyarray.graph import Graph

    rng = np.random.default_rng(41)
    x = rng.standard_normal(500)
    taps = [np.ones(25) / 25, np.array([1.0, -2.0, 1.0]), np.array([np.nan, 1.0, 2.0, 0.5]),
            np.array([3, -1, 2])]
    for v in taps:
        xs = x if v.dtype.kind == "f" else (x * 10).astype(np.int64)
        for mode in ("valid", "same", "full"):
            for name in ("convolve", "correlate"):
                with la.config(eager_size=0):
                    got = getattr(la, name)(la.asarray(xs), la.asarray(v), mode)
                nodes = Graph([got._node]).nodes
                assert not any(n.op.name == "matmul" for n in nodes), (name, mode)
                gathered = [n.size for n in nodes if n.op.name == "take"]
                assert all(size <= (len(v) - 1) * len(v) for size in gathered), gathered
                with np.errstate(all="ignore"):
                    want = getattr(np, name)(xs, v, mode)
                np.testing.assert_allclose(np.asarray(got), want, rtol=1e-12, atol=1e-13,
                                           err_msg=f"{name} {mode} {v}")


def test_bincount_of_host_data_is_numpys_own_loop(reference_backend):
    """x is evaluated for the length anyway: on the CPU the counts are NumPy's bincount (a
    buffer, no scatter plan; a lazy `np.add.at` scatter before, ~10x its time), weights too."""
    b = la.asarray(np.array([3, 1, 4, 1, 5, 9, 2, 6])) * 1
    w = la.asarray(np.linspace(0.0, 1.0, 8)) * 3.0
    la.eval(b, w)
    before = la.cache_info().plans_built + la.cache_info().plan_hits
    counts, sums = la.bincount(b, minlength=12), la.bincount(b, weights=w)
    la.eval(counts, sums)
    assert la.cache_info().plans_built + la.cache_info().plan_hits == before
    np.testing.assert_array_equal(np.asarray(counts), np.bincount(np.asarray(b), minlength=12))
    np.testing.assert_array_equal(np.asarray(sums),
                                  np.bincount(np.asarray(b), weights=np.asarray(w)))


@pytest.mark.parametrize("start, value", [
    (np.arange(3.0), 0.5), (np.arange(3, dtype=np.float32), 0.5), (np.arange(3, dtype=np.int8), 300),
    (np.zeros(0), [1, 2]), (np.ones((2, 2)), np.ones(3, np.int32)), (np.arange(3), True),
    (np.arange(3.0), 1j)])
def test_append_of_a_buffer_is_numpys_append_at_once(reference_backend, start, value):
    """`x = np.append(x, v)` of a buffer and a host value is NumPy's append into a new buffer (no
    node, no plan; two ravels and an at-once concat before, ~6x the time), NumPy's dtype (a
    Python float makes float32 float64, as np.ravel(0.5) is float64); a loop of them too."""
    with la.config(eager_size=4096):
        x = la.asarray(start)
        got = la.append(x, value)
        assert got._node.op is la.graph.get_op("input")
        want = np.append(start, value)
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(np.asarray(got), want)
        acc, ref = la.zeros(0), np.zeros(0)
        for i in range(5):
            acc, ref = la.append(acc, i * 0.5), np.append(ref, i * 0.5)
        np.testing.assert_array_equal(np.asarray(acc), ref)


@pytest.mark.parametrize("join", ["stack", "vstack", "hstack", "concatenate"])
def test_joining_many_buffers_is_numpys_join_at_once(reference_backend, join):
    """A list of computed rows joined (`np.stack([r * 2 for r in A])`) is NumPy's join into a new
    buffer: no node per row (a reshape per row cut the graph at the node budget: 1.5 ms for 300
    rows of 10, NumPy 0.1); NumPy's promotion; its errors at the user's line on the lazy path."""
    with la.config(eager_size=4096):
        host = np.arange(120.0).reshape(12, 10)
        rows = [r * 2 for r in la.asarray(host) * 1]
        got, want = getattr(la, join)(rows), getattr(np, join)([r * 2 for r in host])
        assert got._node.op is la.graph.get_op("input")
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(np.asarray(got), want)
        mixed = [la.asarray(np.ones(2, np.int8)) * 1 for _ in range(9)]
        mixed.append(la.asarray(np.ones(2, np.float32)) * 1)
        assert getattr(la, join)(mixed).dtype == getattr(np, join)(
            [np.ones(2, np.int8)] * 9 + [np.ones(2, np.float32)]).dtype
        with pytest.raises(ValueError):
            getattr(np, join)([r * 2 for r in host] + [np.ones((2, 2))])
        with pytest.raises(ValueError) as info:
            getattr(la, join)(rows + [la.ones((2, 2))])
        assert_site(info, "test_numpy_more.py")


@pytest.mark.parametrize("join", ["stack", "vstack", "concatenate"])
def test_joining_many_views_of_a_buffer_is_numpys_join_at_once(reference_backend, join):
    """Views of computed buffers joined (pg-pong's `xs.append(frames[t])` then `np.vstack(xs)`)
    are NumPy's join of NumPy's views: no reshape view linked per row (3.4 ms for 200 rows of
    1,600, NumPy 0.3), the views' values after a write into their root, NumPy's bits."""
    host = np.arange(120.0).reshape(12, 10)
    with la.config(eager_size=16):  # (a join above it stays lazy on the general path)
        frames, ref = la.asarray(host), host.copy()
        rows, want_rows = [frames[t] for t in range(12)], [ref[t] for t in range(12)]
        frames[3] = -1.0  # through the root: the row view sees it, as NumPy's
        ref[3] = -1.0
        rows.append(frames.T[1][:10])  # a strided view of a transposed view
        want_rows.append(ref.T[1][:10])
        got = getattr(np, join)(rows)
        assert type(got) is la.Array and got._node.op is la.graph.get_op("input")
        np.testing.assert_array_equal(np.asarray(got), getattr(np, join)(want_rows))
        assert got.dtype == getattr(np, join)(want_rows).dtype
