"""la.random as NumPy users call it (np.random.rand/randint/uniform/..., default_rng): NumPy's
types, shapes, dtypes and errors; lazy draws, the same on every backend; statistical sanity with
fixed seeds (the streams are lazyarray's, not NumPy's)."""

from __future__ import annotations

import math
import threading

import numpy as np
import pytest

import lazyarray as la
from lazyarray import random_numpy
from lazyarray.traced_scalar import TracerEvaluationError

R = la.random

# (lazyarray call, NumPy call) pairs with size=None: NumPy returns Python or NumPy scalars
SCALAR_CALLS = [
    "rand()", "randn()", "random()", "random_sample()", "sample()", "ranf()", "standard_normal()",
    "uniform()", "uniform(2, 5)", "normal()", "normal(1.0, 2.0)", "exponential()", "exponential(3)",
    "randint(5)", "randint(-3, 7)", "randint(5, dtype=np.int32)", "randint(0, 2, dtype=bool)",
    "choice(5)", "choice([1.5, 2.5])", "choice(4, p=[0.1, 0.2, 0.3, 0.4])", "poisson()",
    "poisson(3)", "binomial(10, 0.5)",
]
RNG_SCALAR_CALLS = [
    "random()", "random(dtype=np.float32)", "standard_normal()", "uniform()", "uniform(1, 2)",
    "normal()", "exponential()", "integers(5)", "integers(2, 9)", "integers(5, dtype=np.uint8)",
    "integers(1, 3, endpoint=True)", "choice(5)", "choice([1.5, 2.5])", "poisson(2.5)",
    "binomial(4, 0.25)",
]
SIZED_CALLS = [
    "rand(3, 4)", "randn(2)", "random((2, 3))", "random_sample(4)", "standard_normal((2, 2))",
    "uniform(-1, 1, 10)", "uniform([0.0, 1.0], 2.0)", "uniform(0, [[1.0], [2.0]], size=(2, 3))",
    "normal(0, 1, (2, 5))", "normal([0.0, 10.0], [1.0, 2.0])", "exponential(2.0, 7)",
    "randint(0, 10, 20)", "randint(5, size=(2, 2))", "randint(0, 300, 3, dtype=np.int16)",
    "randint([0, 10], [5, 20])", "choice(5, 3)", "choice(6, (2, 3), replace=False)",
    "choice([1.5, 2.5, 3.5], 4, p=[0.2, 0.3, 0.5])", "permutation(6)",
    "permutation(np.arange(12.0).reshape(4, 3))", "poisson(2.0, (3, 4))", "binomial(7, 0.2, 5)",
    "poisson(0.0, 3)", "binomial(0, 0.5, 2)",
]
RNG_SIZED_CALLS = [
    "random(3)", "random((2, 2), dtype=np.float32)", "standard_normal(4, dtype=np.float32)",
    "uniform(0, 1, (2, 3))", "normal(5, 2, 6)", "exponential(1.0, (3,))", "integers(0, 10, 20)",
    "integers(3, size=5, dtype=np.int8)", "integers([0, 5], 10)",
    "integers(0, 2**64, size=3, dtype=np.uint64)", "integers(-2**63, 2**63, size=3)",
    "choice(6, 6, replace=False)",
    "choice(np.arange(12).reshape(4, 3), 2, axis=1)", "permutation(5)",
    "permutation(np.arange(6).reshape(2, 3), axis=1)", "permuted(np.arange(6).reshape(2, 3))",
    "permuted(np.arange(6).reshape(2, 3), axis=1)", "poisson(4.0, 6)", "binomial(9, 0.9, (2, 2))",
]
BAD_CALLS = [
    "randint(5, 3)", "randint(0)", "randint(0, 300, dtype=np.uint8)",
    "randint(-1, 5, dtype=np.uint8)",
    "normal(0, -1)", "normal(0, -1, size=3)", "exponential(-1)", "uniform(0, np.inf)",
    "choice(5, 6, replace=False)", "choice(5, p=[0.1] * 5)", "choice(0)",
    "choice(5, p=[-0.1, 0.3, 0.3, 0.3, 0.2])", "choice(5, p=[0.5, 0.5])",
    "choice([[1, 2], [3, 4]])",
    "choice(4, 3, replace=False, p=[0.5, 0.5, 0.0, 0.0])", "rand(2.5)", "rand(-1)", "seed(-1)",
    "permutation(np.float64(2.5))", "uniform(0, 1, size=(3,), low=[0, 1])", "poisson(-1)",
    "binomial(-1, 0.5)", "binomial(5, 1.5)", "poisson(1e20)",
]
RNG_BAD_CALLS = [
    "integers(5, 3)", "integers(0)", "normal(0, -1)", "uniform(2, 1)", "exponential(-2.0)",
    "choice(5, 6, replace=False)", "choice(5, p=[0.1] * 5)", "random(dtype=np.int32)",
    "integers(0, 300, dtype=np.uint8)", "permutation(2.5)", "poisson(-1.0)",
    "binomial(5, -0.1)",
]


def _run(expr, module):
    return eval(expr, {"np": np}, {n: getattr(module, n) for n in dir(module)
                                   if not n.startswith("_")} | {"r": module})


def _rng_run(expr, rng):
    return eval("rng." + expr, {"np": np, "rng": rng})


@pytest.mark.parametrize("expr", SCALAR_CALLS)
def test_size_none_gives_numpys_scalar_type(reference_backend, expr):
    ours, theirs = _run(expr, R), _run(expr, np.random)
    assert type(ours) is type(theirs)


@pytest.mark.parametrize("expr", RNG_SCALAR_CALLS)
def test_generator_size_none_gives_numpys_scalar_type(reference_backend, expr):
    ours = _rng_run(expr, R.default_rng(0))
    theirs = _rng_run(expr, np.random.default_rng(0))
    assert type(ours) is type(theirs)


@pytest.mark.parametrize("expr", SIZED_CALLS)
def test_shapes_and_dtypes_are_numpys(reference_backend, expr):
    ours, theirs = _run(expr, R), _run(expr, np.random)
    assert isinstance(ours, la.Array)
    got = np.asarray(ours)
    assert got.shape == theirs.shape and got.dtype == theirs.dtype


@pytest.mark.parametrize("expr", RNG_SIZED_CALLS)
def test_generator_shapes_and_dtypes_are_numpys(reference_backend, expr):
    ours = _rng_run(expr, R.default_rng(1))
    theirs = _rng_run(expr, np.random.default_rng(1))
    got = np.asarray(ours)
    assert got.shape == theirs.shape and got.dtype == theirs.dtype


@pytest.mark.parametrize("expr", BAD_CALLS)
def test_errors_are_numpys(reference_backend, expr):
    with pytest.raises(Exception) as theirs:
        _run(expr, np.random)
    with pytest.raises(type(theirs.value)) as ours:
        la.eval(_run(expr, R))
    if "larger sample" not in str(theirs.value) and "low=" not in expr:
        assert str(ours.value).startswith(str(theirs.value))


@pytest.mark.parametrize("expr", RNG_BAD_CALLS)
def test_generator_errors_are_numpys(reference_backend, expr):
    with pytest.raises(Exception) as theirs:
        _rng_run(expr, np.random.default_rng(0))
    with pytest.raises(type(theirs.value)) as ours:
        la.eval(_rng_run(expr, R.default_rng(0)))
    assert str(ours.value).startswith(str(theirs.value))


def test_draws_are_lazy_and_fuse(reference_backend):
    x = R.rand(64, 8)
    assert isinstance(x, la.Array) and not x.expr.is_evaluated
    y = la.sum(R.uniform(-1, 1, (64, 8)) * 2.0 + R.normal(size=(64, 8)), axis=0)
    assert la.explain(y).num_kernels == 1


def test_seed_reproduces_and_streams_differ(backend):
    R.seed(42)
    a = [np.asarray(R.rand(50)), np.asarray(R.randint(0, 100, 50)), R.random()]
    R.seed(42)
    b = [np.asarray(R.rand(50)), np.asarray(R.randint(0, 100, 50)), R.random()]
    R.seed(43)
    c = np.asarray(R.rand(50))
    np.testing.assert_array_equal(a[0], b[0])
    np.testing.assert_array_equal(a[1], b[1])
    assert a[2] == b[2]
    assert not np.array_equal(a[0], c) and not np.array_equal(a[0], np.asarray(R.rand(50)))
    g1, g2 = R.default_rng(5), R.default_rng(5)
    np.testing.assert_array_equal(np.asarray(g1.normal(size=20)), np.asarray(g2.normal(size=20)))
    assert not np.array_equal(np.asarray(g1.random(20)), np.asarray(R.default_rng(6).random(20)))
    assert R.default_rng(g1) is g1


def _draws() -> list[np.ndarray]:
    R.seed(7)
    rng = R.default_rng(3)
    return [np.asarray(v) for v in (R.rand(100), R.randint(-5, 5, 100), R.choice(10, 20),
                                     rng.integers(0, 9, 50), rng.permutation(30), rng.random(40))]


def test_same_numbers_on_every_backend(backend):
    draws = _draws()
    with la.config(backend="numpy"):
        expected = _draws()
    for x, y in zip(draws, expected):
        np.testing.assert_array_equal(x, y)


def test_distributions_with_fixed_seeds(reference_backend):
    R.seed(2024)
    n = 200_000
    u = np.asarray(R.uniform(-2.0, 3.0, n))
    assert u.min() >= -2.0 and u.max() < 3.0 and abs(u.mean() - 0.5) < 0.02
    assert abs(u.var() - 25 / 12) < 0.03
    z = np.asarray(R.normal(1.5, 2.0, n))
    assert abs(z.mean() - 1.5) < 0.02 and abs(z.std() - 2.0) < 0.02
    e = np.asarray(R.exponential(3.0, n))
    assert e.min() >= 0 and abs(e.mean() - 3.0) < 0.03
    g = np.asarray(R.default_rng(9).standard_normal(n, dtype=np.float32))
    assert abs(g.mean()) < 0.01 and abs(g.std() - 1.0) < 0.01
    ints = np.asarray(R.randint(3, 13, n))
    counts = np.bincount(ints - 3, minlength=10)
    chi2 = ((counts - n / 10) ** 2 / (n / 10)).sum()
    assert ints.min() == 3 and ints.max() == 12 and chi2 < 27.9  # 9 dof, p = 0.001
    picks = np.asarray(R.choice(4, n, p=[0.1, 0.2, 0.3, 0.4]))
    np.testing.assert_allclose(np.bincount(picks) / n, [0.1, 0.2, 0.3, 0.4], atol=0.005)


def test_choice_without_replacement(reference_backend):
    R.seed(1)
    for _ in range(5):
        pick = np.asarray(R.choice(20, 20, replace=False))
        assert sorted(pick) == list(range(20))
    # weighted, without replacement: the first pick follows p, the sample is distinct
    firsts = [int(np.asarray(R.choice(3, 2, replace=False, p=[0.7, 0.2, 0.1]))[0])
              for _ in range(800)]
    np.testing.assert_allclose(np.bincount(firsts) / 800, [0.7, 0.2, 0.1], atol=0.05)  # 3 sd
    rows = np.asarray(R.choice(np.arange(12.0).reshape(6, 2)[:, 0], 6, replace=False))
    assert sorted(rows) == list(np.arange(0.0, 12.0, 2.0))


def test_shuffle_rebinds_arrays_and_writes_numpy_arrays_in_place(backend):
    R.seed(3)
    a = la.arange(20).reshape(10, 2)
    before = a.copy()
    R.shuffle(a)
    got = np.asarray(a)
    assert sorted(map(tuple, got)) == sorted(map(tuple, np.asarray(before)))
    assert not np.array_equal(got, np.asarray(before))  # 10! orders: not the identity
    np.testing.assert_array_equal(np.asarray(before), np.arange(20).reshape(10, 2))
    nd = np.arange(30)
    same = nd
    R.shuffle(nd)
    assert nd is same and sorted(nd) == list(range(30)) and not np.array_equal(nd, np.arange(30))
    items = list("abcdefghij")
    R.shuffle(items)
    assert sorted(items) == list("abcdefghij")
    rng = R.default_rng(0)
    m = np.arange(12).reshape(3, 4)
    rng.shuffle(m, axis=1)
    assert all(sorted(row) == list(range(4 * i, 4 * i + 4)) for i, row in enumerate(m))
    perm = np.asarray(rng.permuted(la.arange(12).reshape(3, 4), axis=1))
    assert all(sorted(row) == list(range(4 * i, 4 * i + 4)) for i, row in enumerate(perm))


def test_the_global_stream_is_thread_safe(reference_backend):
    start = random_numpy._GLOBAL_STATE._stream._count
    keys: list = []

    def draw():
        for _ in range(50):
            keys.append(tuple(np.asarray(random_numpy._GLOBAL_STATE._stream.next_key())))

    threads = [threading.Thread(target=draw) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert random_numpy._GLOBAL_STATE._stream._count == start + 200 and len(set(keys)) == 200


def test_a_key_first_selects_the_key_api(reference_backend):
    k = R.key(11)
    np.testing.assert_array_equal(np.asarray(R.uniform(k, (5,))),
                                  np.asarray(la.random_keys.uniform(k, (5,))))
    np.testing.assert_array_equal(np.asarray(R.randint(k, (5,), 0, 9)),
                                  np.asarray(la.random_keys.randint(k, (5,), 0, 9)))
    assert R.permutation(k, 5).shape == (5,) and R.choice(k, 5, (3,)).shape == (3,)


def test_numpys_other_distributions_say_what_to_do():
    with pytest.raises(AttributeError, match="numpy.random.beta"):
        R.beta(1.0, 2.0)
    with pytest.raises(AttributeError, match="no attribute 'bogus'"):
        R.bogus


def test_numpy_style_draws_inside_jit_raise_instead_of_repeating(reference_backend):
    """la.jit replays its trace: a draw that took the stream's next key when traced would give
    the same numbers on every call. It raises; the key API inside a jit draws afresh per key."""
    x = la.zeros(3)
    for draw in (lambda: R.rand(3), lambda: R.default_rng(0).normal(size=3)):
        with pytest.raises(TracerEvaluationError, match="key API"):
            la.jit(lambda v, draw=draw: v + draw())(x)
    f = la.jit(lambda v, k: v + R.uniform(k, (3,)))
    a, b = np.asarray(f(x, R.key(0))), np.asarray(f(x, R.key(1)))
    assert not np.array_equal(a, b)


def test_random_state_is_a_stream_of_its_own(reference_backend):
    """np.random.RandomState(seed): the legacy methods, reproducible per seed, NumPy's seed rule."""
    a, b = R.RandomState(3), R.RandomState(3)
    np.testing.assert_array_equal(np.asarray(a.rand(4, 2)), np.asarray(b.rand(4, 2)))
    np.testing.assert_array_equal(np.asarray(a.randint(0, 9, 6)), np.asarray(b.randint(0, 9, 6)))
    assert type(a.random()) is float and type(a.randint(4)) is int
    assert not np.array_equal(np.asarray(a.rand(8)), np.asarray(R.RandomState(4).rand(8)))
    with pytest.raises(ValueError):
        R.RandomState(-1)
    m = np.arange(10)
    a.shuffle(m)
    assert sorted(m) == list(range(10))


def _chi2(counts, probs, n):
    expected = np.asarray(probs) * n
    keep = expected > 5
    return (((counts[keep] - expected[keep]) ** 2) / expected[keep]).sum(), int(keep.sum()) - 1


@pytest.mark.parametrize("call,pmf", [
    ("poisson(2.5, N)", lambda k: math.exp(-2.5) * 2.5**k / math.factorial(k)),
    ("binomial(12, 0.3, N)", lambda k: math.comb(12, k) * 0.3**k * 0.7 ** (12 - k)),
])
def test_poisson_and_binomial_follow_their_pmf(reference_backend, call, pmf):
    """Chi-square against the exact pmf, fixed seed: p > 0.001 (the critical values of
    scipy.stats.chi2.ppf(0.999, dof) for dof <= 12, tabulated)."""
    n = 100_000
    R.seed(11)
    x = np.asarray(eval("R." + call, {"R": R, "N": n}))
    assert x.dtype == np.int64 and x.min() >= 0
    counts = np.bincount(x, minlength=20)[:20]
    stat, dof = _chi2(counts, [pmf(k) for k in range(20)], n)
    critical = {8: 26.12, 9: 27.88, 10: 29.59, 11: 31.26, 12: 32.91, 7: 24.32, 6: 22.46}
    assert stat < critical[dof], (stat, dof)
