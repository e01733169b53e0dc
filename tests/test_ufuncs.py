"""la.add & co. as NumPy ufunc objects: attributes, outer/reduce/accumulate/reduceat/at, out=,
where=, dtype=, casting=, against NumPy on every backend; NumPy's calls on Arrays stay lazy."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import lazyarray as la
from sites import notes_of

RNG = np.random.default_rng(7)
F = RNG.normal(size=(4, 5))
I = RNG.integers(-20, 20, size=(4, 5))  # noqa: E741
U = RNG.integers(1, 40, size=(4, 5)).astype(np.uint16)


def _same(lazy_call, numpy_call):
    """Both raise the same exception type, or give equal values, dtypes and shapes."""
    try:
        want = numpy_call()
    except Exception as exc:  # noqa: BLE001
        with pytest.raises(type(exc)):
            la.eval(lazy_call())
        return
    got = lazy_call()
    got = np.asarray(got)
    want = np.asarray(want)
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=0, equal_nan=True)


def test_every_numpy_ufunc_la_has_is_a_ufunc_with_numpys_attributes():
    names = [n for n in dir(np) if isinstance(getattr(np, n), np.ufunc)]
    missing = sorted(n for n in names if not isinstance(getattr(la, n, None), la.ufunc))
    # gufuncs (la.matmul, la.vecdot stay functions) and what lazyarray lacks
    assert set(missing) <= {"matmul", "vecdot", "matvec", "vecmat", "bitwise_count", "frexp",
                            "isnat", "spacing"}, missing
    for n in names:
        ours, theirs = getattr(la, n, None), getattr(np, n)
        if not isinstance(ours, la.ufunc):
            continue
        assert repr(ours) == repr(theirs) and ours.__name__ == theirs.__name__
        assert (ours.nin, ours.nout, ours.nargs) == (theirs.nin, theirs.nout, theirs.nargs)
        assert ours.identity == theirs.identity and ours.signature is None
    assert la.abs is la.absolute and la.mod is la.remainder and la.true_divide is la.divide


# The sweeps below run on the numpy backend (the same front end); a sample of each runs on
# every backend here, so that the C tier compiles tens of kernels, not hundreds.
def test_a_sample_of_each_sweep_on_every_backend(backend):
    for name, data, axis in [("add", F, 1), ("subtract", F, 0), ("bitwise_or", U, None),
                             ("maximum", F, (0, 1)), ("logical_xor", I, 0), ("gcd", I, 1)]:
        test_reduce(backend, name, data, axis)
    for name in ("maximum", "subtract"):
        test_reduce_initial_where_dtype_and_empty(backend, name)
    for name, data, axis in [("maximum", F, 1), ("subtract", F, 0), ("add", I.astype(np.int8), 0)]:
        test_accumulate(backend, name, data, axis)
    test_reduceat(backend, "add", [0, 2, 1, 3])
    test_reduceat(backend, "maximum", [1, 1, 3])
    for name, data, b, key in [("add", F, 1.5, [0, 0, 3, 0]), ("add", I, 1.5, [0, 0, 3, 0]),
                               ("divide", F, 3.0, (np.array([1, 1]), np.array([0, 0]))),
                               ("negative", F, None, 1), ("subtract", I, 2, [2, 2])]:
        test_at_matches_numpys_unbuffered_update(backend, name, data, b, key)
    for name, kwargs, shape, dt in [("sum", {"axis": 0}, (5,), np.float64),
                                    ("argmax", {"axis": 1}, (4,), np.int32),
                                    ("std", {"axis": 0}, (5,), np.int64),
                                    ("cumsum", {"axis": 1}, (4, 5), np.float64)]:
        test_reductions_take_numpys_out(backend, name, kwargs, shape, dt)


def test_plain_calls_and_operators_are_unchanged(backend):
    x = la.asarray(F)
    assert isinstance(la.add(x, 1.0), la.Array)
    np.testing.assert_allclose(np.asarray(la.add(x, x)), F + F)
    np.testing.assert_allclose(np.asarray(la.exp(x)), np.exp(F))
    np.testing.assert_allclose(np.asarray(la.fmax(x, 0.0)), np.fmax(F, 0.0))


@pytest.mark.parametrize("name", ["add", "subtract", "multiply", "maximum", "less", "arctan2",
                                  "hypot", "logaddexp"])
def test_outer(backend, name):
    a, b = F[0], F[1, :3]
    _same(lambda: getattr(la, name).outer(la.asarray(a), la.asarray(b)),
          lambda: getattr(np, name).outer(a, b))
    _same(lambda: getattr(la, name).outer(la.asarray(F[:2]), la.asarray(b)),
          lambda: getattr(np, name).outer(F[:2], b))


_REDUCE = [("add", F), ("multiply", F), ("maximum", F), ("minimum", F), ("subtract", F),
           ("divide", F), ("fmax", F), ("hypot", F), ("logaddexp", F), ("add", I),
           ("bitwise_and", I), ("bitwise_or", U), ("bitwise_xor", I), ("gcd", I), ("lcm", U),
           ("logical_and", I), ("logical_or", F), ("logical_xor", I), ("add", I.astype(np.int8)),
           ("multiply", U)]


@pytest.mark.parametrize("name,data", _REDUCE, ids=[f"{n}-{d.dtype}" for n, d in _REDUCE])
@pytest.mark.parametrize("axis", [0, 1, -1, None, (0, 1)])
def test_reduce(reference_backend, name, data, axis):
    ours, theirs = getattr(la, name), getattr(np, name)
    x = la.asarray(data)
    _same(lambda: ours.reduce(x, axis=axis), lambda: theirs.reduce(data, axis=axis))
    _same(lambda: ours.reduce(x, axis=axis, keepdims=True),
          lambda: theirs.reduce(data, axis=axis, keepdims=True))


@pytest.mark.parametrize("name", ["add", "maximum", "multiply", "subtract"])
def test_reduce_initial_where_dtype_and_empty(reference_backend, name):
    ours, theirs = getattr(la, name), getattr(np, name)
    x, mask = la.asarray(F), F > 0
    _same(lambda: ours.reduce(x, axis=1, initial=2.5),
          lambda: theirs.reduce(F, axis=1, initial=2.5))
    _same(lambda: ours.reduce(x, axis=0, where=la.asarray(mask), initial=-1.0),
          lambda: theirs.reduce(F, axis=0, where=mask, initial=-1.0))
    _same(lambda: ours.reduce(x, axis=0, where=la.asarray(mask)),  # no identity: NumPy's error
          lambda: theirs.reduce(F, axis=0, where=mask))
    _same(lambda: ours.reduce(la.asarray(I), axis=0, dtype=np.float32),
          lambda: theirs.reduce(I, axis=0, dtype=np.float32))
    empty = np.zeros((0, 3))
    _same(lambda: ours.reduce(la.asarray(empty), axis=0), lambda: theirs.reduce(empty, axis=0))
    _same(lambda: ours.reduce(la.asarray(empty), axis=0, initial=3.0),
          lambda: theirs.reduce(empty, axis=0, initial=3.0))
    _same(lambda: ours.reduce(x, axis=2), lambda: theirs.reduce(F, axis=2))  # AxisError


@given(shape=st.lists(st.integers(1, 5), min_size=1, max_size=3),
       name=st.sampled_from(["add", "maximum", "bitwise_or", "subtract", "fmin"]),
       data=st.data())
def test_reduce_random_shapes(shape, name, data):
    values = np.random.default_rng(len(shape)).integers(-9, 9, size=shape)
    if name in ("add", "maximum", "subtract", "fmin"):
        values = values.astype(np.float64)
    axis = data.draw(st.sampled_from([None, *range(-len(shape), len(shape))]))
    keepdims = data.draw(st.booleans())
    with la.config(backend="numpy"):
        _same(lambda: getattr(la, name).reduce(la.asarray(values), axis=axis, keepdims=keepdims),
              lambda: getattr(np, name).reduce(values, axis=axis, keepdims=keepdims))


@pytest.mark.parametrize("name,data", [("add", F), ("multiply", F), ("maximum", F),
                                       ("minimum", I), ("subtract", F), ("bitwise_or", U),
                                       ("add", I.astype(np.int8)), ("divide", F)])
@pytest.mark.parametrize("axis", [0, 1])
def test_accumulate(reference_backend, name, data, axis):
    _same(lambda: getattr(la, name).accumulate(la.asarray(data), axis=axis),
          lambda: getattr(np, name).accumulate(data, axis=axis))


def test_an_associative_accumulate_is_one_op_whatever_its_length(backend):
    """maximum/minimum/bitwise accumulate is NumPy's method as one op (a log-step scan built
    ceil(log2 n) slices, maxima and concats: a new structure per length, 24 plans for drawdown's
    400,000 prices), lazy, with NumPy's values and dtypes; la.grad still differentiates the scan
    (the op has no derivative rule)."""
    from lazyarray.graph import Graph

    rng = np.random.default_rng(42)
    for name, data, axis in [("maximum", rng.normal(size=1000), 0),
                             ("minimum", rng.normal(size=(3, 700)), 1),
                             ("bitwise_or", rng.integers(0, 1 << 20, size=(300, 2)), 0),
                             ("logical_and", rng.normal(size=(40, 3)), 0),
                             ("subtract", rng.normal(size=(300, 2)), 0)]:
        with la.config(eager_size=0):
            got = getattr(la, name).accumulate(la.asarray(data), axis=axis)
        ops = [n.op.name for n in Graph([got._node]).nodes]
        assert ops.count("accumulate") == 1 and "concat" not in ops, (name, ops)
        _same(lambda: got, lambda: getattr(np, name).accumulate(data, axis=axis))
    v = np.array([1.0, 3.0, 2.0, 5.0])
    np.testing.assert_array_equal(
        np.asarray(la.grad(lambda t: la.sum(la.maximum.accumulate(t)))(la.asarray(v))),
        [1.0, 2.0, 0.0, 1.0])


@pytest.mark.parametrize("name", ["add", "maximum", "multiply", "subtract"])
@pytest.mark.parametrize("indices", [[0, 2, 1, 3], [0], [4, 1], [1, 1, 3], [0, 5]])
def test_reduceat(reference_backend, name, indices):
    data = RNG.normal(size=(5, 3))
    for axis in (0, 1):
        idx = [i for i in indices if i < data.shape[axis]] if axis else indices
        _same(lambda: getattr(la, name).reduceat(la.asarray(data), idx, axis=axis),
              lambda: getattr(np, name).reduceat(data, idx, axis=axis))



@pytest.mark.parametrize("name,dtype", [("add", np.bool_), ("add", np.int8),
                                        ("multiply", np.uint8), ("add", np.int16)])
def test_reduceat_of_small_integers_counts_in_numpys_loop_dtype(reference_backend, name, dtype):
    """add.reduceat of bools counts (int64, NumPy's add.reduce loop), not ors; int8 sums do not
    wrap at 8 bits (From Python to NumPy's box counting: `np.add.reduceat(Z < 0.9, ...)`)."""
    data = (RNG.integers(0, 5, (8, 3)) * (1 if dtype == np.bool_ else 41)).astype(dtype)
    for axis, idx in ((0, [0, 4, 4, 6]), (1, [2, 0])):
        _same(lambda: getattr(la, name).reduceat(la.asarray(data), idx, axis=axis),
              lambda: getattr(np, name).reduceat(data, idx, axis=axis))

_AT = [("add", F, 1.5), ("subtract", F, [1.0, 2.0, 3.0, 4.0]), ("multiply", F, 2.0),
       ("maximum", F, 0.25), ("minimum", I, 3), ("divide", F, 3.0), ("power", F, 2.0),
       ("add", I, 1.5), ("add", I, 2), ("negative", F, None), ("bitwise_xor", I, 5),
       ("fmax", F, -0.5)]


@pytest.mark.parametrize("name,data,b", _AT, ids=[f"{n}-{d.dtype}-{b}" for n, d, b in _AT])
@pytest.mark.parametrize("key", [[0, 0, 3, 0], (np.array([1, 1, 2, 1]), np.array([0, 0, 4, 0])),
                                 (slice(None), [2, 2, 0, 2]), 1])
def test_at_matches_numpys_unbuffered_update(reference_backend, name, data, b, key):
    """Repeated indices apply once per occurrence (unbuffered), the Array handle holds NumPy's
    result afterwards; the old value is unchanged."""
    ours, theirs = getattr(la, name), getattr(np, name)
    if isinstance(b, list) and not (isinstance(key, list) and len(key) == 4):
        b = 2.0
    want = data.copy()
    args = () if b is None else (b,)
    try:
        theirs.at(want, key, *args)
    except Exception as exc:  # noqa: BLE001
        with pytest.raises(type(exc)):
            ours.at(la.asarray(data), key, *args)
        return
    a = la.asarray(data)
    old = a.copy()  # another handle on the same value: it keeps the value
    assert ours.at(a, key, *(la.asarray(np.asarray(v)) if isinstance(v, list) else v
                             for v in args)) is None
    np.testing.assert_allclose(np.asarray(a), want, rtol=1e-12)
    assert np.asarray(a).dtype == want.dtype
    np.testing.assert_array_equal(np.asarray(old), data)


def test_out_is_written_and_returned(backend):
    x, y = la.asarray(F), la.asarray(F[0])
    out = la.zeros((4, 5))
    assert la.add(x, y, out=out) is out
    np.testing.assert_allclose(np.asarray(out), F + F[0])
    assert la.exp(out, out=out) is out  # np.exp(x, out=x)
    np.testing.assert_allclose(np.asarray(out), np.exp(F + F[0]))
    assert np.multiply(x, 2.0, out=out) is out  # through NEP 13
    np.testing.assert_allclose(np.asarray(out), F * 2.0)
    nd = np.zeros((4, 5))  # an ndarray out is written in place
    assert la.subtract(x, 1.0, out=nd) is nd
    np.testing.assert_allclose(nd, F - 1.0)
    assert la.add(x, y, out=(out,)) is out  # NumPy's tuple form
    q, r = la.zeros((4, 5)), la.zeros((4, 5))
    assert la.divmod(x, 0.7, out=(q, r)) == (q, r)
    np.testing.assert_allclose(np.asarray(q), np.divmod(F, 0.7)[0])
    np.testing.assert_allclose(np.asarray(r), np.divmod(F, 0.7)[1])
    small = la.zeros(5)
    out3 = la.zeros((3, 5))  # the inputs broadcast to out's shape, as NumPy
    assert la.add(y, 1.0, out=out3) is out3
    np.testing.assert_allclose(np.asarray(out3), np.add(F[0], 1.0, out=np.zeros((3, 5))))
    with pytest.raises(ValueError, match="non-broadcastable output"):
        la.add(x, y, out=small)


@pytest.mark.parametrize("out_dtype", [np.int64, np.float32, np.int8, np.bool_, np.complex128])
@pytest.mark.parametrize("casting", ["same_kind", "unsafe", "safe", "no"])
def test_out_follows_numpys_casting_rule(reference_backend, out_dtype, casting):
    def lazy():
        out = la.zeros((4, 5), dtype=out_dtype)
        r = la.add(la.asarray(F), la.asarray(I), out=out, casting=casting)
        assert r is out
        return out

    def numpy():
        out = np.zeros((4, 5), dtype=out_dtype)
        with np.errstate(all="ignore"):
            return np.add(F, I, out=out, casting=casting)

    _same(lazy, numpy)


def test_casting_error_is_numpys_and_names_the_users_line(reference_backend):
    out = la.zeros(3, dtype=la.int64)
    with pytest.raises(np._core._exceptions._UFuncOutputCastingError, match="same_kind") as info:
        la.multiply(la.ones(3), 1.5, out=out)
    assert any("test_ufuncs.py" in note for note in info.value.__notes__)
    np.testing.assert_array_equal(np.asarray(out), 0)  # unchanged


def test_reductions_and_accumulate_take_out(backend):
    out = la.zeros(5)
    assert la.add.reduce(la.asarray(F), axis=0, out=out) is out
    np.testing.assert_allclose(np.asarray(out), F.sum(0))
    acc = la.zeros((4, 5))
    assert np.maximum.accumulate(la.asarray(F), axis=1, out=acc) is acc
    np.testing.assert_allclose(np.asarray(acc), np.maximum.accumulate(F, axis=1))


def test_where_and_dtype(backend):
    x, mask = la.asarray(F), F > 0
    out = la.full((4, 5), 7.0)
    assert la.sqrt(x, out=out, where=la.asarray(mask)) is out
    want = np.full((4, 5), 7.0)
    np.sqrt(F, out=want, where=mask)
    np.testing.assert_allclose(np.asarray(out), want)
    masked = np.asarray(la.sqrt(x, where=la.asarray(mask)))
    np.testing.assert_allclose(masked, np.where(mask, np.sqrt(np.abs(F)), 0.0))  # 0: documented
    _same(lambda: la.add(la.asarray(I), la.asarray(I), dtype=np.float32),
          lambda: np.add(I, I, dtype=np.float32))
    _same(lambda: la.divide(la.asarray(I), 3, dtype=np.float32),
          lambda: np.divide(I, 3, dtype=np.float32))
    _same(lambda: la.add(la.asarray(F), 1, dtype=np.int64),  # NumPy's casting error
          lambda: np.add(F, 1, dtype=np.int64))
    _same(lambda: la.add(la.asarray(I), 1.5, signature=(np.float32, np.float32, np.float32)),
          lambda: np.add(I, 1.5, signature=(np.float32, np.float32, np.float32)))
    with pytest.raises(TypeError, match="unexpected keyword"):
        la.add(x, x, bogus=1)


def test_numpys_ufunc_methods_on_arrays_stay_lazy(reference_backend):
    x = la.asarray(F)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        results = [np.add.outer(x[:, 0], x[0]), np.add.reduce(x), np.subtract.reduce(x, axis=1),
                   np.multiply.accumulate(x), np.add.reduceat(x, [0, 2]),
                   np.hypot.outer(x[0], x[0]), np.exp(x, out=la.zeros((4, 5)))]
    assert all(isinstance(r, la.Array) for r in results)
    np.testing.assert_allclose(np.asarray(results[0]), np.add.outer(F[:, 0], F[0]))


def test_unary_and_two_output_ufuncs_refuse_reduce():
    with pytest.raises(ValueError, match="binary"):
        la.exp.reduce(la.ones(3))
    with pytest.raises(ValueError, match="binary"):
        la.divmod.outer(la.ones(3), la.ones(3))


_OUT_CALLS = [("sum", {"axis": 0}, (5,)), ("sum", {}, ()), ("prod", {"axis": 1}, (4,)),
              ("mean", {"axis": 1}, (4,)), ("max", {"axis": 0}, (5,)), ("min", {}, ()),
              ("any", {"axis": 0}, (5,)), ("all", {"axis": 1}, (4,)),
              ("std", {"axis": 0, "ddof": 1}, (5,)), ("var", {"axis": 1}, (4,)),
              ("argmax", {"axis": 0}, (5,)), ("argmin", {"axis": 1}, (4,)),
              ("cumsum", {"axis": 1}, (4, 5)), ("cumprod", {}, (20,)),
              ("sum", {"axis": 0, "keepdims": True}, (1, 5)), ("sum", {"axis": 0}, (4,)),
              ("sum", {"axis": 0}, (1, 5))]


@pytest.mark.parametrize("name,kwargs,shape", _OUT_CALLS,
                         ids=[f"{n}-{k}-{s}" for n, k, s in _OUT_CALLS])
@pytest.mark.parametrize("out_dtype", [np.float64, np.int64, np.int32, np.bool_])
def test_reductions_take_numpys_out(reference_backend, name, kwargs, shape, out_dtype):
    """np.<reduction>(x, out=o) and la.<reduction>(x, out=o): `o` holds NumPy's value, the call
    returns `o`; NumPy's casting rule per function (sum unsafe, argmax safe, std same_kind)."""
    data = F if name not in ("any", "all") else F > 0

    def run(module, operand, make_out):
        out = make_out(shape, dtype=out_dtype)
        with np.errstate(all="ignore"):
            result = getattr(module, name)(operand, out=out, **kwargs)
        assert result is out
        return out

    x = la.asarray(data)
    _same(lambda: run(la, x, la.zeros), lambda: run(np, data, np.zeros))
    _same(lambda: run(np, x, la.zeros), lambda: run(np, data, np.zeros))  # NEP 18


@pytest.mark.parametrize("fn", ["matmul", "dot"])
@pytest.mark.parametrize("out_dtype", [np.float64, np.float32, np.int64])
def test_matmul_and_dot_take_numpys_out(backend, fn, out_dtype):
    def run(module, a, b, make):
        out = make((4, 4), dtype=out_dtype)
        assert getattr(module, fn)(a, b, out=out) is out
        return out

    _same(lambda: run(la, la.asarray(F), la.asarray(F.T), la.zeros),
          lambda: run(np, F, F.T, np.zeros))
    _same(lambda: run(np, la.asarray(F), la.asarray(F.T), la.zeros),
          lambda: run(np, F, F.T, np.zeros))


@given(n=st.integers(1, 6), data=st.data(),
       name=st.sampled_from(["add", "subtract", "multiply", "maximum", "divide", "fmin",
                             "bitwise_or"]))
def test_at_with_random_repeated_indices(n, data, name):
    """Any index list (repeats, negative indices) and per-index values: NumPy's result."""
    idx = data.draw(st.lists(st.integers(-n, n - 1), min_size=0, max_size=8))
    integer = name == "bitwise_or"
    values = np.arange(1, len(idx) + 1) * (1 if integer else 0.75)
    start = np.arange(n) + (0 if integer else 0.5)
    want = start.copy()
    getattr(np, name).at(want, idx, values)
    with la.config(backend="numpy"):
        a = la.asarray(start)
        getattr(la, name).at(a, idx, la.asarray(values))
        np.testing.assert_allclose(np.asarray(a), want, rtol=1e-13)


@pytest.mark.parametrize("name", ["subtract", "divide", "hypot", "arctan2"])
def test_long_folds_and_many_repeats_are_numpys(backend, name):
    """Past 256 steps a non-associative fold runs NumPy's on the evaluated input, as past 64
    repeats of one position does `.at`: NumPy's values either way."""
    data = np.random.default_rng(3).uniform(0.5, 2.0, size=(300, 2))
    _same(lambda: getattr(la, name).reduce(la.asarray(data), axis=0),
          lambda: getattr(np, name).reduce(data, axis=0))
    _same(lambda: getattr(la, name).accumulate(la.asarray(data), axis=0),
          lambda: getattr(np, name).accumulate(data, axis=0))
    idx = [0] * 70 + [1, 1]
    want = data[:3, 0].copy()
    getattr(np, name).at(want, idx, 1.01)
    a = la.asarray(data[:3, 0])
    getattr(la, name).at(a, idx, 1.01)
    np.testing.assert_allclose(np.asarray(a), want, rtol=1e-13)


def test_positional_calls_run_in_c_and_the_rest_in_python(backend):
    """`la.maximum(x, y)`, `la.sqrt(x)` take the C call (lazyarray/_trace.c fast_function) where
    the library is compiled; keywords, out= and positional out go to the Python function; values,
    dtypes and errors (at the user's line) are the same either way."""
    from lazyarray import _bind

    if _bind.FAST is not None and hasattr(_bind.FAST, "fast_function"):
        assert type(type(la.maximum).__call__).__name__ == "builtin_function_or_method"
    a = np.arange(12.0).reshape(3, 4)
    x = la.asarray(a)
    out = la.zeros((3, 4))
    for got, want in ((la.maximum(x[1, 2], x[2, 1]), np.maximum(a[1, 2], a[2, 1])),
                      (la.maximum(x[1], 5.5), np.maximum(a[1], 5.5)),
                      (la.sqrt(x[2, 3]), np.sqrt(a[2, 3])), (la.negative(x), -a),
                      (la.add(x, 1, dtype=np.float32), np.add(a, 1, dtype=np.float32)),
                      (la.multiply(x, 2, out), a * 2)):
        assert got.dtype == np.asarray(want).dtype
        np.testing.assert_array_equal(np.asarray(got), want)
    np.testing.assert_array_equal(np.asarray(out), a * 2)
    with pytest.raises(TypeError) as info:
        la.add(x, "a")
    assert "test_ufuncs.py" in notes_of(info)
    with pytest.raises(TypeError):
        la.sqrt(x, x, x, x)
