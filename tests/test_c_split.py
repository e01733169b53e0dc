"""Full reductions split into a parallel partial kernel and a fixed-order combine (runtime/c/split.py):
which kernels split, results against NumPy, and the same bits for any thread count."""

import numpy as np
import pytest
from lazyarray.graph import Graph
from lazyarray.passes import optimize
from lazyarray.runtime.c.backend import CBackend
from lazyarray.runtime.c.split import split_full_reductions

import lazyarray as la

pytestmark = pytest.mark.skipif(CBackend.unavailable_reason() is not None,
                                reason="no working C compiler")
N = 2**16  # above the threshold these tests pass in
rng = np.random.default_rng(5)
X = rng.standard_normal(N).astype(np.float32)
Y = rng.standard_normal(N).astype(np.float32)


def _program(build):
    return optimize(Graph([build(la.array(X), la.array(Y))._node]))


@pytest.mark.parametrize("name, build, kernels", [
    ("mse", lambda x, y: la.mean((x - y) ** 2), 2),
    ("max", lambda x, y: la.max(x * y), 2),
    ("any", lambda x, y: la.any(x > 4.0), 2),
    ("argmax is not split", lambda x, y: la.argmax(x), 1),
    ("row sums have outer dims", lambda x, y: la.sum(la.reshape(x, (256, 256)), axis=1), 1),
])
def test_which_kernels_split(name, build, kernels):
    assert len(split_full_reductions(_program(build), 1024).kernels) == kernels


def test_small_or_indivisible_reductions_stay_one_kernel():
    assert len(split_full_reductions(_program(lambda x, y: la.sum(x)), N + 1).kernels) == 1
    prime = la.array(X[:65521])
    prog = optimize(Graph([la.sum(prime)._node]))
    assert len(split_full_reductions(prog, 1024).kernels) == 1


CASES = {
    "mse": (lambda m, x, y: m.mean((x - y) ** 2), lambda x, y: np.mean((x.astype(np.float64) - y) ** 2)),
    "sum": (lambda m, x, y: m.sum(x), lambda x, y: x.astype(np.float64).sum()),
    "prod": (lambda m, x, y: m.prod(1 + x * np.float32(1e-3)),
             lambda x, y: np.prod((1 + x * np.float32(1e-3)).astype(np.float64))),
    "max_nan": (lambda m, x, y: m.max(m.where(x > 3.5, np.nan, x)), lambda x, y: np.nan),
    "min": (lambda m, x, y: m.min(x - y), lambda x, y: np.min(x - y)),
    "all": (lambda m, x, y: m.all(x < 6), lambda x, y: np.all(x < 6)),
    "int_sum_wraps": (lambda m, x, y: m.sum((x * 1e9).astype(m.int64) * 2**31),
                      lambda x, y: np.sum((x * 1e9).astype(np.int64) * 2**31)),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_split_reductions_match_numpy(name, monkeypatch):
    from lazyarray.runtime.c import backend as c_backend

    monkeypatch.setattr(c_backend, "PARALLEL_THRESHOLD", 1024)
    lazy, want = CASES[name]
    with la.config(backend="c"):
        la.clear_caches()
        got = np.asarray(lazy(la, la.array(X), la.array(Y)))
    np.testing.assert_allclose(got, want(X, Y), rtol=1e-6, equal_nan=True)


def test_same_bits_for_any_thread_count(monkeypatch):
    from lazyarray.runtime.c import backend as c_backend

    monkeypatch.setattr(c_backend, "PARALLEL_THRESHOLD", 1024)
    prog = _program(lambda x, y: la.mean((x - y) ** 2))
    results = []
    for threads in (1, 2, 3):
        monkeypatch.setattr(c_backend, "num_threads", threads)
        plan = CBackend().compile(prog)
        assert len(plan.program.kernels) == 2
        results.append(plan.run([Y, X], [N])[0])
    assert all(np.array_equal(results[0], r) for r in results[1:])


def test_numpys_order_survives_the_split(monkeypatch):
    """A float64 sum in NumPy's pairwise order is cut only into NumPy's own two halves (a row of
    16k values), else not at all; a product (NumPy's is one value after another) is not cut:
    NumPy's bits. 8 to 64 chunks added their partial sums in another order (a last bit off for
    16 of 20 random 1e6-value sums)."""
    from lazyarray.runtime.c import backend as c_backend

    monkeypatch.setattr(c_backend, "PARALLEL_THRESHOLD", 1024)
    x = rng.standard_normal(N) * 10.0 ** rng.integers(-5, 5, N)
    cases = [(la.sum, np.sum, x, 2), (la.sum, np.sum, x[8:], 1),
             (la.prod, np.prod, 1 + x * 1e-9, 1)]
    with la.config(backend="c", eager_size=0):
        for lazy, _, values, kernels in cases:
            prog = optimize(Graph([lazy(la.array(values))._node]))
            assert len(split_full_reductions(prog, 1024).kernels) == kernels
        got = la.eval(*(lazy(la.array(values)) for lazy, _, values, _ in cases))
    for value, (_, eager, values, _) in zip(got, cases):
        assert np.asarray(value) == eager(values)
