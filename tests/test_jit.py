"""la.jit: one trace per input signature; later calls skip the Python body and run the plan."""

import math
import operator

import numpy as np
import pytest

import lazyarray as la
from numpy_oracle import f32
from together import compile_together
from lazyarray.jit import TracerEvaluationError


pytestmark = pytest.mark.usefixtures("fresh_caches")


def counting(fn):
    calls = []

    def body(*args, **kwargs):
        calls.append(1)
        return fn(*args, **kwargs)

    return body, calls


def test_second_identical_call_skips_the_body(backend):
    body, calls = counting(lambda x, w, b: la.nn.relu(x @ w + b))
    f = la.jit(body)
    x, w, b = la.array(f32(4, 3)), la.array(f32(3, 2, seed=1)), la.array(f32(2, seed=2))
    first = np.asarray(f(x, w, b))
    second = np.asarray(f(la.array(f32(4, 3, seed=5)), w, b))
    assert len(calls) == 1
    info = la.cache_info()
    assert (info.jit_traces, info.jit_hits, info.plans_built) == (1, 1, 1)
    np.testing.assert_allclose(first, np.maximum(f32(4, 3) @ f32(3, 2, seed=1) + f32(2, seed=2), 0),
                               rtol=1e-5)
    want = np.maximum(f32(4, 3, seed=5) @ f32(3, 2, seed=1) + f32(2, seed=2), 0)
    np.testing.assert_allclose(second, want, rtol=1e-5)


def test_scalars_are_weak_arguments():
    body, calls = counting(lambda x, s: x * s + 1)
    f = la.jit(body)
    x = la.array(np.arange(4, dtype=np.float32))
    for s in (0.5, 1.5, -2.0, 7):
        got = np.asarray(f(x, s))
        assert got.dtype == np.float32  # weak: float32 stays float32
        np.testing.assert_allclose(got, np.arange(4, dtype=np.float32) * np.float32(s) + 1)
    assert len(calls) == 2  # float, then int: the weak type is part of the signature


def test_new_shape_or_dtype_retraces():
    body, calls = counting(lambda x: la.exp(x) - 1)
    f = la.jit(body)
    f(la.array(f32(3)))
    f(la.array(f32(3, seed=1)))
    f(la.array(f32(4)))
    f(la.array(f32(4).astype(np.float64)))
    assert len(calls) == 3


def test_static_arguments_by_position_and_name():
    body, calls = counting(lambda x, n, *, axis: la.sum(x ** n, axis=axis))
    f = la.jit(body, static_argnums=1, static_argnames="axis")
    x = la.array(np.arange(6.0).reshape(2, 3))
    ref = np.arange(6.0).reshape(2, 3)
    np.testing.assert_allclose(np.asarray(f(x, 2, axis=0)), (ref ** 2).sum(0))
    np.testing.assert_allclose(np.asarray(f(x, 3, axis=0)), (ref ** 3).sum(0))
    np.testing.assert_allclose(np.asarray(f(x, 2, axis=1)), (ref ** 2).sum(1))
    np.testing.assert_allclose(np.asarray(f(x, n=2, axis=0)), (ref ** 2).sum(0))
    assert len(calls) == 4  # by keyword is a different call shape, still static


def test_trees_in_and_out():
    def body(params, batch):
        h = la.tanh(batch["x"] @ params[0] + params[1])
        return {"h": h, "stats": (h.sum(), h.max())}

    f = la.jit(body)
    w, b = f32(3, 2), f32(2, seed=1)
    params = [la.array(w), la.array(b)]
    for seed in (3, 4):
        x = f32(5, 3, seed=seed)
        out = f(params, {"x": la.array(x)})
        h = np.tanh(x @ w + b)
        np.testing.assert_allclose(np.asarray(out["h"]), h, rtol=1e-5)
        np.testing.assert_allclose(float(out["stats"][0]), h.sum(), rtol=1e-4)
        np.testing.assert_allclose(float(out["stats"][1]), h.max(), rtol=1e-5)
    assert la.cache_info().jit_traces == 1


def test_pending_arguments_and_closures():
    w = la.array(f32(3))
    f = la.jit(lambda x: x * w)
    x = la.array(f32(3, seed=1))
    got = np.asarray(f(x + 1.0))  # a pending argument is evaluated first
    np.testing.assert_allclose(got, (f32(3, seed=1) + 1) * f32(3), rtol=1e-6)
    np.testing.assert_allclose(np.asarray(f(x)), f32(3, seed=1) * f32(3), rtol=1e-6)
    assert la.cache_info().jit_traces == 1


def test_returning_an_argument_and_the_same_array_twice():
    f = la.jit(lambda x, y: (x, x + y))
    a = la.array(f32(3))
    same, total = f(a, a)
    np.testing.assert_array_equal(np.asarray(same), f32(3))
    np.testing.assert_allclose(np.asarray(total), 2 * f32(3))
    b = la.array(f32(3, seed=1))
    same, total = f(a, b)
    np.testing.assert_allclose(np.asarray(total), f32(3) + f32(3, seed=1))


def test_evaluating_a_traced_value_is_an_error():
    f = la.jit(lambda x: x * 2 if float(x.sum()) > 0 else x)
    with pytest.raises(TracerEvaluationError, match="static"):
        f(la.array(f32(3)))


@pytest.mark.parametrize("read", [
    lambda a: a * 0 + float(a), lambda a: a * 0 + int(a), lambda a: a * 0 + a.item(),
    lambda a: a * 0 + a.tolist(), lambda a: la.asarray(np.asarray(a)) + 1,
    lambda a: la.asarray(np.array(a)) + 1, lambda a: la.asarray(np.from_dlpack(a)) + 1,
    lambda a: la.linspace(a, 10.0, 3)], ids=["float", "int", "item", "tolist", "np.asarray",
                                              "np.array", "from_dlpack", "linspace"])
def test_reading_an_argument_on_the_host_is_an_error(backend, read):
    """The stand-in for an array argument holds the first call's buffer: reading it on the host
    (not only a value computed from it) baked that value into every later call (f(5) gave f(3)'s
    answer) instead of raising."""
    f = la.jit(read)
    with pytest.raises(TracerEvaluationError, match="static"):
        f(la.asarray(np.float64(3)))
    assert float(read(la.asarray(np.float64(5))).sum()) == float(read(np.asarray(5.0)).sum())


def test_printing_an_argument_while_tracing_shows_the_tracer(capsys):
    def f(a):
        print(a, repr(a), f"{a}")
        return a * 2

    g = la.jit(f)
    np.testing.assert_array_equal(np.asarray(g(la.asarray(np.arange(3.0)))), [0.0, 2.0, 4.0])
    np.testing.assert_array_equal(np.asarray(g(la.asarray(np.ones(3)))), [2.0, 2.0, 2.0])
    assert capsys.readouterr().out.count("<la.jit traced argument>") == 3
    assert repr(la.asarray(np.arange(2.0))) == "array([0., 1.])"


def test_python_control_flow_on_a_traced_scalar_is_an_error():
    """Arithmetic on a traced scalar is an expression (below); deciding on its value is not."""
    f = la.jit(lambda x, s: x * 2 if s * 2 > 1 else x)
    with pytest.raises(TracerEvaluationError, match="static"):
        f(la.array(f32(3)), 1.5)
    g = la.jit(lambda x, s: x * 2 if s * 2 > 1 else x, static_argnums=1)
    np.testing.assert_allclose(np.asarray(g(la.array(f32(3)), 1.5)), f32(3) * 2)


def test_unhashable_argument_is_rejected_clearly():
    f = la.jit(lambda x, opts: x)
    with pytest.raises(TypeError, match="static"):
        f(la.array(f32(2)), {1, 2})


def test_clear_caches_forgets_traces():
    body, calls = counting(lambda x: x + 1)
    f = la.jit(body)
    x = la.array(f32(2))
    f(x)
    la.clear_caches()
    f(x)
    assert len(calls) == 2


def test_a_hit_goes_straight_to_the_plan(monkeypatch):
    """After the trace, a call looks nothing up in the plan cache and runs no pass."""
    from lazyarray import cache

    lookups = []
    real = cache.lookup_plan
    monkeypatch.setattr(cache, "lookup_plan", lambda *a: lookups.append(1) or real(*a))
    f = la.jit(lambda a, b, s: la.tanh(a * s + b) - 0.5)
    a, b = la.array(f32(16)), la.array(f32(16, seed=1))
    for s in (0.3, 0.7, -1.0):
        got = np.asarray(f(a, b, s))
        np.testing.assert_allclose(got, np.tanh(f32(16) * np.float32(s) + f32(16, seed=1)) - 0.5,
                                   rtol=1e-6, atol=1e-7)
    info = la.cache_info()
    assert len(lookups) == 1 and (info.jit_traces, info.jit_hits, info.plans_built) == (1, 2, 1)
    assert info.plan_hits == 0


def test_arguments_bound_out_of_order_unused_and_pending():
    """The plan's leaf order is not the argument order (`b` is read first), one argument is
    unused, one arrives pending, constants sit between the scalars."""
    f = la.jit(lambda a, b, c, s, t: (b * 2.0 + a * s) / (3.0 - b * t))
    x, y, z = f32(5), f32(5, seed=1), f32(5, seed=2)
    for s, t in ((0.5, 0.25), (-1.5, 2.0)):
        got = np.asarray(f(la.array(x), la.array(y) + 1, la.array(z), s, t))
        yy = y + 1
        want = (yy * 2 + x * np.float32(s)) / (3 - yy * np.float32(t))
        np.testing.assert_allclose(got, want, rtol=1e-6)


def test_results_are_ordinary_leaves():
    """A jit result's leaf has the key an evaluated Array's leaf has: graphs built on it find the
    plans that graphs built on any other Array of that shape and dtype find."""
    from lazyarray.graph import Node, get_op

    f = la.jit(lambda x: la.exp(x) * 2.0)
    y = f(la.array(f32(6)))
    node = y._node
    assert node.inputs == () and node.pending == 0  # leaves count no operations
    assert node.key == Node(get_op("input"), (), (), (6,), np.dtype(np.float32), data=None).key
    np.testing.assert_allclose(np.asarray(y), np.exp(f32(6)) * 2, rtol=1e-6)


def test_a_config_change_between_calls_is_another_trace():
    """The call key starts with the evaluation options, remembered per settings object: a
    `with la.config(...)` block around a call is seen, and leaving it is seen again."""
    f = la.jit(lambda x: la.exp(x) + 1.0)
    x = la.array(f32(5))
    f(x)
    with la.config(optimize=False):
        np.testing.assert_allclose(np.asarray(f(x)), np.exp(f32(5)) + 1, rtol=1e-6)
    f(x)
    info = la.cache_info()
    assert (info.jit_traces, info.jit_hits) == (2, 1)


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_python_scalar_arguments_beside_complex_arrays(backend, dtype):
    """A traced int/float in a complex loop is a real scalar argument cast to complex (it was
    made a 0-d buffer of its value, which asked the tracer for float() and raised)."""
    f = la.jit(lambda x, s: x * s + 2)
    values = np.array([1.5 + 1j, -0.25j, 3], dtype)
    for s in (2, 3, 0.1, True, -7.5):
        got = f(la.array(values), s)
        want = values * s + 2
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(np.asarray(got), want)


def test_a_write_into_an_argument_stays_inside_the_jit_body(backend):
    """docs/semantics.md: la.jit's body gets stand-ins, so `v[0] = ...` there leaves the caller's
    handle as it was (eagerly, the same write rebinds the caller's handle, as NumPy writes)."""
    def write(v):
        v[0] = 100.0
        return v * 1

    x = la.array(np.arange(3.0))
    np.testing.assert_array_equal(np.asarray(la.jit(write)(x)), [100.0, 1, 2])
    np.testing.assert_array_equal(np.asarray(x), [0.0, 1, 2])
    write(x)
    np.testing.assert_array_equal(np.asarray(x), [100.0, 1, 2])


@pytest.mark.parametrize("dtype", [  # on C a compile per case: the others in the exhaustive tier
    None, pytest.param(np.float32, marks=pytest.mark.exhaustive_on("c")), pytest.param(np.int32, marks=pytest.mark.exhaustive_on("c")),
    np.uint8, pytest.param(bool, marks=pytest.mark.exhaustive_on("c")), np.complex64])
def test_full_of_a_traced_scalar_argument(backend, dtype):
    """`la.full(shape, s)` with la.jit's scalar argument `s` is a run-time scalar, cast to the
    dtype as NumPy casts it (it converted the tracer at trace time: TracerEvaluationError)."""
    f = la.jit(lambda a, s: a + la.full(a.shape, s, dtype=dtype))
    g = la.jit(lambda a, s: la.full_like(a, s, dtype=dtype))
    a = np.arange(3.0)
    for s in (2.7, 3, 0, -1.5 if dtype is not np.uint8 else 1.5):
        for got, want in ((f(la.array(a), s), a + np.full(a.shape, s, dtype=dtype)),
                          (g(la.array(a), s), np.full_like(a, s, dtype=dtype))):
            assert got.dtype == want.dtype
            np.testing.assert_array_equal(np.asarray(got), want)


def test_isclose_with_a_traced_scalar_argument(backend):
    """isclose converts a scalar as np.asanyarray: la.jit's scalar argument becomes a 0-d
    run-time scalar of its default dtype (it was converted at trace time and raised)."""
    a = np.linspace(-2, 3, 6)
    f = la.jit(lambda x, s: la.isclose(x, s))
    g = la.jit(lambda x, s: la.isclose(s, x.astype(la.float32), atol=0.6))
    for s in (2, 1.0, 0.5, -2):
        np.testing.assert_array_equal(np.asarray(f(la.array(a), s)), np.isclose(a, s))
        np.testing.assert_array_equal(np.asarray(g(la.array(a), s)),
                                      np.isclose(s, a.astype(np.float32), atol=0.6))


def test_asarray_and_array_of_a_traced_scalar_argument(backend):
    """`la.asarray(s)` / `la.array(s)` of la.jit's scalar argument is a 0-d run-time scalar of
    NumPy's dtype for it (it was made a host buffer: the tracer refused the conversion)."""
    a = np.linspace(-2, 3, 6)
    pairs = [(lambda x, s: x * la.asarray(s), lambda x, s: x * np.asarray(s)),
             (lambda x, s: x * la.array(s), lambda x, s: x * np.array(s)),
             (lambda x, s: la.asarray(s, dtype=la.int8) + x.astype(la.int8),
              lambda x, s: np.asarray(s, dtype=np.int8) + x.astype(np.int8))]
    for lazy, eager in pairs:
        f = la.jit(lazy)
        for s in (2, 1.5, -3):
            got, want = f(la.array(a), s), eager(a, s)
            assert got.dtype == want.dtype
            np.testing.assert_array_equal(np.asarray(got), want)


def test_a_traced_scalar_as_a_slice_bound_or_a_size_is_refused():
    """x[i:], x[::i] and reshape(x, (i, -1)) bake i into the trace's shapes: with la.jit's traced
    scalar argument they kept the first call's value silently; they raise, and a static argument
    indexes as NumPy. (A traced int as an index is read at run time: test below.)"""
    a = la.array(np.arange(5.0) * 10)
    for body in (lambda x, i: x[i:], lambda x, i: x[::i], lambda x, i: x[1.0 * i],
                 lambda x, i: la.reshape(x, (i, -1))):
        with pytest.raises(TracerEvaluationError, match="static"):
            la.jit(body)(a, 2)
    f = la.jit(lambda x, i: x[i:], static_argnums=1)
    for i in (2, 3, -1):
        np.testing.assert_array_equal(np.asarray(f(a, i)), (np.arange(5.0) * 10)[i:])


def test_a_traced_scalar_as_an_axis_or_a_linspace_count_is_refused():
    """Axes (normalize_axis_tuple takes an int subclass as it is) and linspace's arguments
    (computed on the host at trace time) kept the first call's value silently."""
    a = la.array(np.arange(24.0).reshape(2, 3, 4))
    for body in (lambda x, i: la.sum(x, axis=i), lambda x, i: la.expand_dims(x, axis=i),
                 lambda x, i: la.stack([x, x], axis=(i)), lambda x, i: la.max(x, axis=(0, i)),
                 lambda x, i: x[0, 0, 0] + la.linspace(0, 1, i)):
        with pytest.raises(TracerEvaluationError, match="static"):
            la.jit(body)(a, 2)


def test_power_with_a_traced_exponent(backend):
    """x ** s with la.jit's scalar argument s: an integer base no longer raises at trace time
    (`s < 0` asked the tracer), and s == 0.5 on the first call no longer bakes in sqrt."""
    x = np.arange(1.0, 5.0)
    f = la.jit(lambda a, s: a ** s)
    for s in (0.5, 2.0, 3.0, -1.0):
        np.testing.assert_allclose(np.asarray(f(la.array(x), s)), x ** s, rtol=1e-15)
    g = la.jit(lambda a, s: a.astype(la.int64) ** s)
    for s in (2, 3, 0):
        np.testing.assert_array_equal(np.asarray(g(la.array(x), s)), x.astype(np.int64) ** s)


def test_equality_on_a_traced_scalar_is_an_error():
    """`if s == 0:` in a jitted body took the first call's branch on every later call (int/float
    __eq__ answered); it raises as `<` does. Traced scalars stay hashable."""
    f = la.jit(lambda x, s: x if s == 0 else x * 2)
    with pytest.raises(TracerEvaluationError, match="bool"):
        f(la.array(np.arange(3.0)), 0)
    g = la.jit(lambda x, s: x if s != 0 else x * 2)
    with pytest.raises(TracerEvaluationError, match="bool"):
        g(la.array(np.arange(3.0)), 0)
    h = la.jit(lambda x, s: x * s + hash(s) * 0)
    np.testing.assert_array_equal(np.asarray(h(la.array(np.arange(3.0)), 2)), [0.0, 2, 4])


@pytest.mark.needs("half")
def test_numpy_functions_keep_a_traced_scalar_weak(backend):
    """ldexp(s, n) with la.jit's scalar argument s has the eager dtype (the tracer counted as a
    strong int64 in NumPy's loop resolution: float64 where eager and NumPy give float16)."""
    n = np.array([1, 2, 3, 7])
    f = la.jit(lambda a, s: la.ldexp(s, a))
    for s in (2, 3):
        got, eager = f(la.array(n), s), la.ldexp(s, la.array(n))
        assert got.dtype == eager.dtype == np.ldexp(s, n).dtype == np.float16
        np.testing.assert_array_equal(np.asarray(got), np.ldexp(s, n))


@pytest.mark.parametrize("use", [
    lambda x, s: [x + 1 for _ in range(s)][-1],           # a loop count
    lambda x, s: la.stack([x] * s),                          # list repetition
    lambda x, s: [x, x * 2, x * 3][s],                       # a Python sequence index
    lambda x, s: x * operator.index(s),
    lambda x, s: x + la.zeros(s).sum(),                      # a size
    lambda x, s: la.roll(x, s),
    lambda x, s: x * math.sqrt(s),
    lambda x, s: x * complex(s).real,
    lambda x, s: x * np.float64(s),
    lambda x, s: x * len(range(s)),
])
def test_a_traced_int_never_bakes_into_the_trace(use):
    """CPython takes an int subclass as it is where it needs an index (range, `[v] * s`, `seq[s]`,
    operator.index, NumPy sizes) without calling `__index__`: la.jit's traced int was one, so
    `range(s)` silently kept the first call's value on every later call. Every such use raises."""
    f = la.jit(use)
    with pytest.raises(TracerEvaluationError, match="traced scalar argument `s`"):
        f(la.array(np.arange(3.0)), 2)
    with pytest.raises(TypeError):  # NumPy's own TypeError: it never asks the object
        la.jit(lambda x, s: x + np.zeros(s))(la.array(np.arange(3.0)), 2)
    g = la.jit(use, static_argnums=1)  # the way out the error names gives each value its answer
    for s in (1, 2):
        np.testing.assert_array_equal(np.asarray(g(la.array(np.arange(3.0)), s)),
                                      np.asarray(use(la.array(np.arange(3.0)), s)))


EXPRESSIONS = [
    lambda x, t, lr: x * (t + 1),
    lambda x, t, lr: x + t / 2,
    lambda x, t, lr: x * (t // 3) - (t % 4),
    lambda x, t, lr: la.where(t > 2, x, -x),
    lambda x, t, lr: x + (t & 1) + (t << 1),
    lambda x, t, lr: x * -t + abs(t - 5),
    lambda x, t, lr: x * t ** 2,
    lambda x, t, lr: x * (lr * 2.0) - 1.0 / (1 + t),
    lambda x, t, lr: x + (t == 3) + (lr < 0.5),
    lambda x, t, lr: la.full(x.shape, lr / (t + 1)) + x,
    lambda x, t, lr: la.where(t % 3, x, x * 2) + x * (3 | (t & -2)),  # not computed in bool/uint8
]


TRACED_DTYPES = (np.float32, np.float64, np.int32, np.uint8)
_COMPILED: dict = {}  # backends whose traced cases' kernels are compiled (tests/together.py)


def _traced_builders(dtype) -> list:
    """Each expression traced and called eagerly once in `dtype` (a compile or two per case on
    C: one unit for the dtype's, tests/together.py)."""
    def build(fn):
        x = np.array([1, 2, 5, 9], dtype)
        return la.jit(fn)(la.array(x), 0, 0.25), fn(la.array(x), 0, 0.25)

    return [lambda fn=fn: build(fn) for fn in EXPRESSIONS]


@pytest.mark.xdist_group("test_python_arithmetic_on_traced_scalars_matches_eager")
@pytest.mark.parametrize("expression, dtype", [  # on C float32 and uint8 in the fast tier
    pytest.param(e, d, id=f"{np.dtype(d).name}-{e}", marks=() if d in (np.float32, np.uint8)
                 else pytest.mark.exhaustive_on("c"))
    for d in TRACED_DTYPES for e in range(len(EXPRESSIONS))])
def test_python_arithmetic_on_traced_scalars_matches_eager(backend, expression, dtype):
    """`lr / (1 + t)` in a jitted step: Python arithmetic on traced scalars is a weak scalar
    expression (it raised TracerEvaluationError, and static_argnums retraced every step). Each
    call's values and dtypes match the eager result with the Python numbers; one trace."""
    if dtype == np.uint8 and expression == 5:
        pytest.skip("eager uint8 * -t raises OverflowError (NumPy 2); a trace computes in uint8")
    if compile_together(_COMPILED, (backend, dtype), _traced_builders(dtype)):
        la.clear_caches()  # its traces and counts (the fixture `fresh_caches` did that before)
    fn = EXPRESSIONS[expression]
    x_np = np.array([1, 2, 5, 9], dtype)
    f = la.jit(fn)
    for t, lr in ((0, 0.25), (1, 0.5), (3, 0.125), (7, 1.5)):
        with np.errstate(all="ignore"):
            want = np.asarray(fn(la.array(x_np), t, lr))
            got = np.asarray(f(la.array(x_np), t, lr))
        assert got.dtype == want.dtype
        np.testing.assert_allclose(got, want, rtol=1e-6)
    assert la.cache_info().jit_traces == 1


def test_a_traced_scalar_prints_as_what_it_is():
    """print(f"step {t}") while debugging a jitted body shows the tracer, as JAX's do."""
    seen = []
    f = la.jit(lambda x, t, lr: seen.append(f"{t} {lr * 2:.3f} {str(t + 1)}") or x * lr)
    f(la.array(np.ones(2)), 3, 0.5)
    assert seen == ["<la.jit traced int argument `t`> <la.jit traced float expression mul> "
                    "<la.jit traced int expression add>"]


def test_a_deep_traced_expression_and_a_returned_one():
    """An expression grown in a Python loop is built without recursion; a traced scalar the
    body returns comes back as a 0-d Array of its value on every call (not the tracer)."""
    def body(x, t):
        acc = 0
        for _ in range(3000):
            acc = acc + t
        return x * acc, t * 2, acc > 10
    f = la.jit(body)
    for t in (1, 2):
        y, doubled, big = f(la.array(np.ones(3)), t)
        np.testing.assert_array_equal(np.asarray(y), np.full(3, 3000.0 * t))
        assert int(doubled) == 2 * t and bool(big) and np.asarray(doubled).dtype == np.int64
    with pytest.raises(TracerEvaluationError, match="computed from argument `t`"):
        la.jit(lambda x, t: x[: t + 1])(la.array(np.ones(3)), 1)


def test_a_traced_int_indexes_at_run_time(backend):
    """`x[t]`, `x[t, 1:]`, `x.at[t].set(v)`, `x[t] = v` with la.jit's traced int: a 0-d index
    array read at run time (a gather/scatter), one trace for every t (they raised); out of bounds
    raises IndexError when the plan runs, as NumPy's indexing does."""
    def body(x, t):
        y = x * 1.0
        y[t - 1] = 7.0
        return x[t], x[t, 1:], x[1:, t] * 2, x.at[t].set(-1.0), x.at[1, t].add(5.0), y
    f = la.jit(body)
    x_np = np.arange(12.0).reshape(3, 4)
    for t in (0, 2, -1, -2):
        a, b, c = x_np.copy(), x_np.copy(), x_np.copy()
        a[t] = -1.0
        b[1, t] += 5.0
        c[t - 1] = 7.0
        want = (x_np[t], x_np[t, 1:], x_np[1:, t] * 2, a, b, c)
        for got, w in zip(f(la.array(x_np), t), want):
            np.testing.assert_array_equal(np.asarray(got), w)
    assert la.cache_info().jit_traces == 1
    with pytest.raises(IndexError, match="out of bounds"):
        np.asarray(f(la.array(x_np), 3)[0])
    with pytest.raises(TracerEvaluationError):  # a traced slice bound changes the shape
        la.jit(lambda x, t: x[:t])(la.array(x_np), 1)


def _random_scalar_expression(r, depth: int = 0) -> str:
    if depth > 2 or r.random() < 0.3:
        return r.choice(["t", "s", "1", "2", "0.5", "3", "-2"])
    op = r.choice(["+", "-", "*", "/", "//", "%", "<", ">", "==", "&", "|", "neg", "abs"])
    a, b = _random_scalar_expression(r, depth + 1), _random_scalar_expression(r, depth + 1)
    return f"(-{a})" if op == "neg" else f"abs({a})" if op == "abs" else f"({a} {op} {b})"


def test_random_traced_scalar_expressions_match_eager():
    """Random Python expressions over a traced int `t` and float `s` (no `**`: its result type
    depends on the values), used as a factor, a condition and a fill value with 7 dtypes: the
    jitted function matches the eager one in values and dtype for three (t, s) pairs."""
    dts = [np.float32, np.float64, np.int32, np.int64, np.uint8, np.int8, np.bool_]
    with la.config(backend="numpy"):  # the front end is under test: no compiles
        _check_random_expressions(dts)


def _check_random_expressions(dts) -> None:
    import random

    checked = 0
    for seed in range(120):
        r = random.Random(seed)
        e = _random_scalar_expression(r)
        form = r.choice(["x * E", "x + E", "la.where(E, x, x * 2)", "la.full(x.shape, E) + x"])
        fn = eval(f"lambda x, t, s: {form.replace('E', f'({e})')}", {"la": la, "abs": abs})
        x_np = (np.arange(5) % 3 + 1).astype(r.choice(dts))
        f = la.jit(fn)
        for t, s in ((1, 0.25), (3, 2.5), (2, -1.5)):
            with np.errstate(all="ignore"):
                try:
                    want = np.asarray(fn(la.asarray(x_np), t, s))
                except (ArithmeticError, TypeError):  # ZeroDivisionError, NumPy 2's OverflowError
                    continue
                got = np.asarray(f(la.asarray(x_np), t, s))
            assert got.dtype == want.dtype, (seed, form, e)
            np.testing.assert_allclose(got.astype(float), want.astype(float), rtol=1e-6,
                                       err_msg=f"seed {seed}: {form} with E = {e}, t={t}, s={s}")
            checked += 1
    assert checked > 200


def test_a_row_by_a_traced_scalar_index_is_a_view(backend):
    """`row = A[argmax(x)]; row *= 2` inside la.jit: NumPy's basic index, a view of A, read by
    the kernel (a dynamic view, lazyarray/writes.py): one trace serves every index value.
    Reading the index at the line was a TracerEvaluationError."""
    def step(a, x):
        row = a[la.argmax(x)]
        row *= 2.0
        return a + 0.0, row.sum()

    body, calls = counting(step)
    f = la.jit(body)
    for xv in ([1.0, 5.0, 2.0], [9.0, 1.0, 0.0]):
        a, total = f(la.asarray(np.arange(12.0).reshape(3, 4)), la.asarray(np.array(xv)))
        want = np.arange(12.0).reshape(3, 4)
        row = want[np.argmax(xv)]
        row *= 2.0
        np.testing.assert_array_equal(np.asarray(a), want)
        assert float(total) == row.sum()
    assert len(calls) == 1
