"""la.random as NumPy users call it (np.random.seed/rand/randint/..., RandomState, default_rng):
NumPy's numbers for the same seed, NumPy's types, shapes, dtypes and errors; in-place shuffles and
`out=` write the Array; the module-level functions share NumPy's global stream."""

from __future__ import annotations

import numpy as np
import pytest

import lazyarray as la
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


# NumPy's other legacy distributions (lazyarray drew only the ones above before stop 42)
MORE_SIZED_CALLS = [
    "beta(1.0, 2.0, 4)", "gamma(2.0, 1.5, 3)", "chisquare(3, 2)", "dirichlet([1, 2, 3], 2)",
    "multinomial(10, [0.2, 0.8], 3)", "multivariate_normal([0, 1], [[1, 0.5], [0.5, 2]], 3)",
    "laplace(0, 2, 4)", "lognormal(0, 1, 3)", "geometric(0.3, 5)", "hypergeometric(5, 7, 4, 3)",
    "standard_t(5, 3)", "weibull(1.5, 3)", "zipf(2.0, 4)", "triangular(0, 1, 3, 2)",
    "standard_cauchy(3)", "vonmises(0, 1, 2)", "bytes(5)",
]


def _run(expr, module):
    return eval(expr, {"np": np}, {n: getattr(module, n) for n in dir(module)
                                   if not n.startswith("_")} | {"r": module})


def _rng_run(expr, rng):
    return eval("rng." + expr, {"np": np, "rng": rng})


def _same(ours, theirs):
    """NumPy's value, type, dtype and shape: an ndarray as an Array, anything else as it is."""
    if isinstance(theirs, np.ndarray):
        assert isinstance(ours, la.Array)
        got = np.asarray(ours)
        assert got.dtype == theirs.dtype and got.shape == theirs.shape
        np.testing.assert_array_equal(got, theirs)
    else:
        assert type(ours) is type(theirs) and ours == theirs


@pytest.mark.parametrize("expr", SCALAR_CALLS + SIZED_CALLS + MORE_SIZED_CALLS)
def test_numpys_numbers_after_the_same_seed(reference_backend, expr):
    np.random.seed(5)
    theirs = _run(expr, np.random)
    R.seed(5)
    _same(_run(expr, R), theirs)


@pytest.mark.parametrize("expr", RNG_SCALAR_CALLS + RNG_SIZED_CALLS)
def test_generator_gives_numpys_numbers(reference_backend, expr):
    _same(_rng_run(expr, R.default_rng(1)), _rng_run(expr, np.random.default_rng(1)))


@pytest.mark.parametrize("expr", BAD_CALLS)
def test_errors_are_numpys(reference_backend, expr):
    with pytest.raises(Exception) as theirs:
        _run(expr, np.random)
    with pytest.raises(type(theirs.value)) as ours:
        la.eval(_run(expr, R))
    assert str(ours.value).startswith(str(theirs.value))
    assert "(at <string>:1)" in getattr(ours.value, "__notes__", [])  # the eval'd user line


@pytest.mark.parametrize("expr", RNG_BAD_CALLS)
def test_generator_errors_are_numpys(reference_backend, expr):
    with pytest.raises(Exception) as theirs:
        _rng_run(expr, np.random.default_rng(0))
    with pytest.raises(type(theirs.value)) as ours:
        la.eval(_rng_run(expr, R.default_rng(0)))
    assert str(ours.value).startswith(str(theirs.value))


def test_the_module_functions_share_numpys_global_stream(reference_backend):
    """`la.random.seed(0)` is `np.random.seed(0)`: a library drawing from NumPy's global stream
    (scikit-learn's random_state=None) sees the stream of the NumPy program."""
    R.seed(3)
    first = np.random.rand(2)
    np.random.seed(3)
    np.testing.assert_array_equal(np.asarray(R.rand(2)), first)
    state = R.get_state()
    a = np.asarray(R.randn(4))
    R.set_state(state)
    np.testing.assert_array_equal(np.random.randn(4), a)


def test_array_arguments_are_read_as_numpy_reads_them(reference_backend):
    p = la.asarray([0.1, 0.2, 0.7])
    loc = la.arange(3.0) * 10
    rng, want = R.default_rng(4), np.random.default_rng(4)
    _same(rng.choice(3, 5, p=p), want.choice(3, 5, p=np.asarray(p)))
    _same(rng.normal(loc, 1.0), want.normal(np.asarray(loc), 1.0))
    _same(rng.choice(la.arange(6).reshape(3, 2) * 2, 2), want.choice(np.arange(6).reshape(3, 2) * 2, 2))
    _same(rng.permutation(la.arange(5) + 1), want.permutation(np.arange(5) + 1))


def test_draws_are_buffers(reference_backend):
    """A draw is a computed buffer: reading it builds no plan, and a write into it stays NumPy's."""
    x = R.default_rng(0).random(1000)
    before = la.cache_info().plans_built
    host = np.asarray(x)
    assert la.cache_info().plans_built == before
    kept = host.copy()
    y = x
    x += 1.0  # y is x, as in NumPy; the export taken before keeps its values
    np.testing.assert_array_equal(np.asarray(y), kept + 1.0)
    np.testing.assert_array_equal(host, kept)


def test_shuffle_writes_arrays_numpy_arrays_and_lists_as_numpy(backend):
    R.seed(3)
    a = la.arange(20).reshape(10, 2)
    before = a
    R.shuffle(a)
    np.random.seed(3)
    want = np.arange(20).reshape(10, 2)
    np.random.shuffle(want)
    np.testing.assert_array_equal(np.asarray(a), want)
    np.testing.assert_array_equal(np.asarray(before), want)  # the same Array, rebound
    nd, same = np.arange(30), None
    same = nd
    R.seed(1)
    R.shuffle(nd)
    np.random.seed(1)
    want = np.arange(30)
    np.random.shuffle(want)
    assert nd is same
    np.testing.assert_array_equal(nd, want)
    items, want_items = list("abcdefghij"), list("abcdefghij")
    R.seed(2)
    R.shuffle(items)
    np.random.seed(2)
    np.random.shuffle(want_items)
    assert items == want_items
    rng, ref = R.default_rng(0), np.random.default_rng(0)
    m, want = la.arange(12).reshape(3, 4), np.arange(12).reshape(3, 4)
    rng.shuffle(m, axis=1)
    ref.shuffle(want, axis=1)
    np.testing.assert_array_equal(np.asarray(m), want)
    _same(rng.permuted(la.arange(12).reshape(3, 4), axis=1),
          ref.permuted(np.arange(12).reshape(3, 4), axis=1))


def test_out_writes_the_array_and_returns_it(reference_backend):
    rng, ref = R.default_rng(7), np.random.default_rng(7)
    out, want = la.zeros((2, 3)), np.zeros((2, 3))
    assert rng.random(out=out) is out
    ref.random(out=want)
    np.testing.assert_array_equal(np.asarray(out), want)
    x, wx = la.arange(6).reshape(2, 3), np.arange(6).reshape(2, 3)
    assert rng.permuted(x, axis=1, out=x) is x
    ref.permuted(wx, axis=1, out=wx)
    np.testing.assert_array_equal(np.asarray(x), wx)
    with pytest.raises(TypeError):  # NumPy's own check: float32 out for a float64 draw
        rng.random(out=la.zeros(3, dtype=la.float32))


def test_same_numbers_on_every_backend(backend):
    R.seed(7)
    got = np.asarray(R.rand(100) * 2.0 + R.randint(-5, 5, 100))
    np.random.seed(7)
    np.testing.assert_array_equal(got, np.random.rand(100) * 2.0 + np.random.randint(-5, 5, 100))


def test_a_key_first_selects_the_key_api(reference_backend):
    k = R.key(11)
    np.testing.assert_array_equal(np.asarray(R.uniform(k, (5,))),
                                  np.asarray(la.random_keys.uniform(k, (5,))))
    np.testing.assert_array_equal(np.asarray(R.randint(k, (5,), 0, 9)),
                                  np.asarray(la.random_keys.randint(k, (5,), 0, 9)))
    assert R.permutation(k, 5).shape == (5,) and R.choice(k, 5, (3,)).shape == (3,)


def test_names_numpy_lacks_raise_attribute_error():
    with pytest.raises(AttributeError, match="no attribute 'bogus'"):
        R.bogus  # noqa: B018
    assert {"beta", "multivariate_normal", "get_state", "SeedSequence", "PCG64"} <= set(dir(R))


def test_numpy_style_draws_inside_jit_raise_instead_of_repeating(reference_backend):
    """la.jit replays its trace: a draw made when traced would give the same numbers on every
    call. It raises; the key API inside a jit draws afresh per key."""
    x = la.zeros(3)
    for draw in (lambda: R.rand(3), lambda: R.default_rng(0).normal(size=3)):
        with pytest.raises(TracerEvaluationError, match="key API"):
            la.jit(lambda v, draw=draw: v + draw())(x)
    f = la.jit(lambda v, k: v + R.uniform(k, (3,)))
    a, b = np.asarray(f(x, R.key(0))), np.asarray(f(x, R.key(1)))
    assert not np.array_equal(a, b)


def test_random_state_and_generator_objects_are_numpys(reference_backend):
    """RandomState(seed), Generator(bit generator), default_rng of a NumPy Generator: NumPy's
    streams; NumPy's seed rule."""
    _same(R.RandomState(3).rand(4, 2), np.random.RandomState(3).rand(4, 2))
    _same(R.Generator(R.PCG64(9)).integers(0, 9, 6),
          np.random.Generator(np.random.PCG64(9)).integers(0, 9, 6))
    g = np.random.default_rng(2)
    assert R.default_rng(g).bit_generator is g.bit_generator
    with pytest.raises(ValueError):
        R.RandomState(-1)
