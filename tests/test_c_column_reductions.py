"""Column reductions in C (runtime/c/printer.py `folds_columns`): a reduction that strides across
its reduced dims while its kept dim is contiguous folds a block of outputs at once, each output
its values in order. The same order is replayed by runtime/c/fold.py (tests/test_c_tiered.py's
reduction cases include `sum(axis=0)`)."""

import numpy as np
import pytest
from lazyarray.graph import Graph
from lazyarray.passes import optimize
from lazyarray.runtime.c import backend as c_backend

import lazyarray as la

pytestmark = pytest.mark.usefixtures("c_backend_only")


@pytest.fixture
def c_backend_only():
    """C, and the window products kept lazy (not run at once by the indexed-read rule)."""
    with la.config(backend="c", eager_size=0):
        yield


def _source(y: la.Array) -> str:
    (kernel,) = optimize(Graph([y._node])).kernels
    return c_backend.CBackend().kernel_source(kernel)


def _plan(y: la.Array, threads: int) -> c_backend.CPlan:
    compiled = c_backend.CBackend().compile(optimize(Graph([y._node])))
    for call in compiled.calls:
        call.nt = threads
    return c_backend.CPlan(compiled.program, compiled.calls)


def test_which_reductions_fold_columns():
    """Over an outer axis, or a window of a larger array times weights whose kept last axis is
    contiguous (conv2d's `np.sum(x[:, i:i+k, j:j+k, :, None] * w, axis=(1, 2, 3))`): column
    blocks. Over the contiguous last axis, or an arg reduction: lanes, as before."""
    x = la.array(np.ones((50, 40)))
    img = la.array(np.ones((4, 12, 12, 8), np.float32))
    w = la.array(np.ones((3, 3, 8, 16), np.float32))
    window = img[:, 2:5, 3:6, :, np.newaxis] * w[np.newaxis]
    for y in (la.sum(x, axis=0), la.mean(x * 2, axis=0), la.max(x, axis=0),
              la.sum(window, axis=(1, 2, 3))):
        assert "acc0_0_c[" in _source(y)
    for y in (la.sum(x, axis=1), la.argmax(x, axis=0), la.sum(x)):
        assert "acc0_0_c[" not in _source(y)


@pytest.mark.parametrize("shape", [(1, 5), (7, 3), (300, 1500), (33, 2049)])
def test_a_float64_sum_over_the_outer_axis_is_numpys_bits(shape):
    """NumPy reduces an outer axis sequentially, row after row: the column fold adds in that
    order, so the bits are NumPy's, on one thread or four (blocks of 1024 columns and a
    remainder included)."""
    x = np.random.default_rng(0).standard_normal(shape) * 1e3
    want = np.add.reduce(x, axis=0)
    for threads in (1, 4):
        got = _plan(la.sum(la.array(x), axis=0), threads).run([x], [])[0]
        assert np.array_equal(got, want), threads
    got = np.asarray(la.sum(la.array(x), axis=0))
    assert np.array_equal(got, want)


@pytest.mark.parametrize("shape", [(9, 1, 3), (9, 2, 1), (17, 2, 1, 3), (9, 1, 1, 3)])
def test_a_sum_over_the_outer_axis_beside_a_length_1_dim_is_numpys_bits(shape):
    """A length-1 kept dim (its stride 0 in the store) went innermost in the layout, and the
    column fold's contiguous store was not found: a pairwise sum, a last bit from NumPy's
    sequential one for ~1 in 2 values (fuzz41). It is the outermost loop now."""
    x = np.random.default_rng(2).standard_normal((20,) + shape) * np.array([1, 1e8, 1e-3])[
        np.random.default_rng(3).integers(0, 3, (20,) + shape)]
    for values in x:
        y = la.sum(la.array(values) + 0.0, axis=0)
        assert "acc0_0_c[" in _source(y)
        assert np.array_equal(np.asarray(y), np.add.reduce(values + 0.0, axis=0))


def test_column_folds_keep_numpys_values():
    """Epilogues per output (mean's division, a bias), extremes with NaN, a float32 window
    product (accumulated in float64) and an int32 sum against NumPy."""
    rng = np.random.default_rng(1)
    x = rng.standard_normal((37, 45))
    x[3, 7] = np.nan
    img = rng.random((4, 12, 12, 8)).astype(np.float32)
    w = rng.random((3, 3, 8, 16)).astype(np.float32)
    b = rng.random(16).astype(np.float32)
    k = rng.integers(-1000, 1000, (19, 23)).astype(np.int32)
    X, IMG, W, B, K = map(la.array, (x, img, w, b, k))
    with np.errstate(invalid="ignore"):
        cases = [
            (la.mean(X, axis=0), np.mean(x, axis=0)),
            (la.max(X, axis=0), np.max(x, axis=0)),
            (la.min(X[:, ::2], axis=0), np.min(x[:, ::2], axis=0)),
            (la.sum(K, axis=0), np.sum(k, axis=0)),
            (la.sum(IMG[:, 2:5, 3:6, :, np.newaxis] * W[np.newaxis], axis=(1, 2, 3)) + B,
             np.sum(img[:, 2:5, 3:6, :, np.newaxis] * w[np.newaxis], axis=(1, 2, 3)) + b),
        ]
        for got, want in cases:
            got = np.asarray(got)
            assert got.dtype == want.dtype
            np.testing.assert_allclose(got, want, rtol=1e-6, equal_nan=True)


def _column_cases(x: np.ndarray, y: np.ndarray):
    """(lazy, NumPy) pairs over axes NumPy folds row after row: its last axis kept."""
    for m in (la, np):
        yield [m.sum(x, axis=0), m.mean(x, axis=0, keepdims=True), m.var(x, axis=0),
               m.std(x, axis=0, ddof=1), m.nansum(x, axis=0), m.prod(1 + x * 1e-3, axis=0),
               m.sum(y, axis=1), m.mean(y, axis=(0, 1)), m.var(y, axis=0, keepdims=True),
               m.prod(1 + y * 1e-3, axis=-1)]
        x, y = np.asarray(x), np.asarray(y)


def test_column_reductions_are_numpys_bits():
    """NumPy adds the rows of a reduction over leading or middle axes one after another into
    its result, float32 in float32 (`X.mean(axis=0)` of 1000 x 4 float32 was 5e-7 off with a
    double accumulator; var/std's float64 sums of squares were pairwise, a last bit off), and
    multiplies one value after another: the C kernels fold the same way, whatever kernel each
    lands in (a column fold, var's two stages, a product over the last axis)."""
    rng = np.random.default_rng(7)
    lazy, want = [], []
    for dtype in (np.float32, np.float64):  # one evaluation: one translation unit to compile
        x = (rng.standard_normal((1000, 4)) * 10 + 3).astype(dtype)
        y = (rng.standard_normal((20, 6, 7)) * 10 + 3).astype(dtype)
        got, expected = _column_cases(la.array(x), la.array(y))
        lazy += got
        want += expected
    for got, w in zip(la.eval(*lazy), want):
        got = np.asarray(got)
        assert got.dtype == w.dtype and got.shape == w.shape
        assert np.array_equal(got, w)


def test_a_column_sum_has_the_same_bits_alone_and_fused():
    """`g.sum(axis=0)` alone is a column fold; beside a second reduce stage (var's) it folds in
    that kernel's loops. Both add float32 rows in float32, NumPy's order: the jitted and the
    plain training step sum a bias gradient in such different kernels and must agree."""
    g = np.random.default_rng(8).standard_normal((3000, 8)).astype(np.float32)
    G = la.array(g)
    alone = la.sum(G, axis=0)
    s = la.sum(G, axis=0)
    spread = la.sum((G - s / 3000) ** 2, axis=0)
    assert "acc0_0_c[" in _source(alone)
    assert len(optimize(Graph([s._node, spread._node])).kernels) == 1
    fused, _ = la.eval(s, spread)
    assert np.array_equal(np.asarray(alone), np.sum(g, axis=0))
    assert np.array_equal(np.asarray(fused), np.sum(g, axis=0))
