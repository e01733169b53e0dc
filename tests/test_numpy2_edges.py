"""NumPy 2 behaviours at the edges of integer dtypes and scalar conversion, checked against the
installed NumPy on every backend (issue 10, item 10)."""

import numpy as np
import pytest

import lazyarray as la
from sites import assert_site
from numpy_oracle import assert_signbits

U8 = np.array([0, 1, 2, 255], np.uint8)
I8 = np.array([-128, -5, 3, 127], np.int8)
I64 = np.array([np.iinfo(np.int64).max, -1], np.int64)
U64 = np.array([np.iinfo(np.uint64).max, 0], np.uint64)

CASES = [
    ("u8 == 300", lambda m, a: a == 300, U8),
    ("u8 != 300", lambda m, a: a != 300, U8),
    ("u8 < -1", lambda m, a: a < -1, U8),
    ("u8 >= -1", lambda m, a: a >= -1, U8),
    ("300 > u8", lambda m, a: 300 > a, U8),
    ("equal(i8, 1000)", lambda m, a: m.equal(a, 1000), I8),
    ("i64 == 2**63", lambda m, a: a == 2**63, I64),
    ("u64 < -1", lambda m, a: a < -1, U64),
    ("u64 == 2**64", lambda m, a: a == 2**64, U64),
    ("where(c, -4, u8)", lambda m, a: m.where(a > 1, -4, a), U8),
    ("where(c, 300, u8)", lambda m, a: m.where(a > 1, 300, a), U8),
    ("clip(i8, 0, 1000)", lambda m, a: m.clip(a, 0, 1000), I8),
    ("clip(i8, -1000, 0)", lambda m, a: m.clip(a, -1000, 0), I8),
    ("round(int16, -1)", lambda m, a: m.round(a, -1), np.array([14, 15, 25, -15, 26], np.int16)),
]


def _numpy(fn, *args):
    """NumPy's result, or the exception it raised (NumPy 2.5's where raises OverflowError for a
    Python int its dtype cannot hold, where 2.0-2.4 cast it unsafely)."""
    try:
        return fn(np, *args)
    except OverflowError as exc:
        return exc


@pytest.mark.parametrize("name, fn, data", CASES, ids=[c[0] for c in CASES])
def test_matches_numpy(backend, name, fn, data):
    want = _numpy(fn, data)
    if isinstance(want, Exception):
        with pytest.raises(type(want), match="out of bounds") as info:
            fn(la, la.asarray(data))
        assert_site(info, "test_numpy2_edges.py")
        return
    got = np.asarray(fn(la, la.asarray(data)))
    assert got.dtype == want.dtype, name
    np.testing.assert_array_equal(got, want)


COMPARISONS = [("x == s", lambda m, x, s: x == s), ("x != s", lambda m, x, s: x != s),
               ("x < s", lambda m, x, s: x < s), ("s <= x", lambda m, x, s: s <= x),
               ("greater(x, s)", lambda m, x, s: m.greater(x, s)),
               ("greater_equal(s, x)", lambda m, x, s: m.greater_equal(s, x))]


@pytest.mark.parametrize("name, fn", COMPARISONS, ids=[c[0] for c in COMPARISONS])
@pytest.mark.parametrize("data", [U8, pytest.param(I8, marks=pytest.mark.exhaustive_on("c")), I64],  # int8: exhaustive on C
                         ids=["uint8", "int8", "int64"])
def test_jit_comparison_with_a_traced_int_is_exact_for_every_value(backend, name, fn, data):
    """la.jit's traced int argument beside an integer array: the first value out of the dtype
    raised OverflowError at the trace, and a later one at the run (`u8 == 300` is all False
    eagerly, as NumPy 2). The comparison now runs in int64, so one trace serves every value."""
    f = la.jit(lambda x, s: fn(la, x, s))
    x = la.asarray(data)
    for s in (300, 2, -1, 255, -129, 2**40, -2**40, 0):
        want = fn(np, data, s)
        got = np.asarray(f(x, s))
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(got, want, err_msg=f"s={s}")


@pytest.mark.parametrize("data", [U8, I8, U64], ids=["uint8", "int8", "uint64"])
def test_jit_where_casts_a_traced_int_as_numpy_for_every_value(backend, data):
    """`where(c, -4, u8)` as the installed NumPy's where: an unsafe cast (252, NumPy 2.0-2.4) or
    OverflowError (2.5); with la.jit's traced int the cast ran `s % 256` at trace time
    (TracerEvaluationError). It is now a run-time cast, or a check at each call."""
    f = la.jit(lambda x, s: (la.where(x > 1, s, x), la.where(x > 1, x, s)))
    x = la.asarray(data)
    for s in (2, 300, -4, 2**40, -2**40):
        want = _numpy(lambda m: (m.where(data > 1, s, data), m.where(data > 1, data, s)))
        if isinstance(want, Exception):
            with pytest.raises(type(want), match="out of bounds"):
                f(x, s)
            continue
        for got, w in zip(f(x, s), want):
            assert got.dtype == w.dtype
            np.testing.assert_array_equal(np.asarray(got), w, err_msg=f"s={s}")


def test_where_raises_for_an_int_its_dtype_cannot_hold_where_numpy_does(monkeypatch):
    """The branch NumPy 2.5 takes (probed: lazyarray/elementwise.py numpy_where_checks_ints),
    on whichever NumPy runs here: OverflowError at the user's line, eagerly and lazily; under
    la.jit at the call whose traced int does not fit, one trace for every value."""
    from lazyarray import elementwise

    monkeypatch.setattr(elementwise, "numpy_where_checks_ints", lambda: True)
    x = la.asarray(U8)
    for bad in (-4, 256, 2**64):
        with pytest.raises(OverflowError, match=f"Python integer {bad} out of bounds for uint8"
                           if bad < 2**63 else "Python int too large to convert to C long"
                           ) as info:  # (past a C long: CPython's conversion's text, NumPy's)
            la.where(x > 1, bad, x)
        assert_site(info, "test_numpy2_edges.py")
    np.testing.assert_array_equal(np.asarray(la.where(x > 1, 7, x * 1)), np.where(U8 > 1, 7, U8))
    f = la.jit(lambda x, s: la.where(x > 1, x, s * 2))
    la.clear_caches()
    for s in (0, 127, 128, -1, 100):
        if 0 <= 2 * s <= 255:
            np.testing.assert_array_equal(np.asarray(f(x, s)), np.where(U8 > 1, U8, 2 * s))
        else:
            with pytest.raises(OverflowError, match=f"Python integer {2 * s} out of bounds"):
                f(x, s)
    assert la.cache_info().jit_traces == 1


@pytest.mark.parametrize("shape", [(3,), (1, 1), (1,)])
@pytest.mark.parametrize("convert", [float, int])
def test_only_0d_arrays_convert_to_python_scalars(shape, convert):
    with pytest.raises(TypeError, match="0-dimensional"):
        convert(np.ones(shape))
    with pytest.raises(TypeError, match="0-dimensional"):
        convert(la.ones(shape))
    assert convert(la.ones(())) == 1 and la.ones((1, 1)).item() == 1.0


def test_out_of_range_arithmetic_still_raises_as_numpy():
    with pytest.raises(OverflowError):
        np.add(U8, 300)
    with pytest.raises(OverflowError, match="300 out of bounds for uint8") as info:
        la.asarray(U8) + 300
    assert_site(info, "test_numpy2_edges.py")
    with pytest.raises(OverflowError):
        la.clip(la.asarray(I8), 1000, 2000)  # a bound that binds must fit, as in NumPy


def test_scalar_half_power_is_numpys_sqrt_and_cumprod_is_numpys(backend):
    """NumPy's power loop takes sqrt for a scalar exponent 0.5 (sqrt(-inf) = nan, sqrt(-0.0) = -0.0;
    C's pow gives inf and +0.0); np.cumprod flattens for axis=None and accumulates as sum."""
    f = np.array([-np.inf, -0.0, 0.0, 4.0, -1.0, np.nan], np.float32)
    m = np.array([[2, -3], [4, 5]], np.int8)
    cases = [(f, lambda x: x ** 0.5), (f, lambda x: x.astype(np.float64) ** np.float64(0.5)),
             (I8, lambda x: x ** 0.5), (m, lambda x: x.cumprod()),
             (m, lambda x: x.cumprod(axis=-1)),
             (f, lambda x: x.cumprod(axis=0, dtype=np.float64))]
    got = la.eval(*[fn(la.asarray(x)) for x, fn in cases])
    for (x, fn), g in zip(cases, got):
        want, g = fn(x), np.asarray(g)
        assert g.dtype == want.dtype
        np.testing.assert_array_equal(g, want)
        assert_signbits(g, want)
    assert np.asarray(la.cumprod(la.asarray(m))).tolist() == np.cumprod(m).tolist()


def test_round_of_bool_is_float_as_numpy():
    """np.round(bool_array) is float16; other decimals raise NumPy's UFuncTypeError and text."""
    b = np.array([True, False])
    got = la.round(la.asarray(b))
    assert got.dtype == np.float16 and np.asarray(got).tolist() == np.round(b).tolist()
    with pytest.raises(TypeError) as want:
        np.round(b, 1)
    with pytest.raises(type(want.value), match=str(want.value).replace("(", r"\(").replace(
            ")", r"\)")) as info:
        la.round(la.asarray(b), 1)
    assert_site(info, "test_numpy2_edges.py")


def test_ndarray_methods_and_protocols_match_numpy(backend):
    """`in`, item(i), argsort/sort with axis=None (flattened), and the ndarray methods argsort,
    nonzero, diagonal, trace (any two axes; NumPy's default is 0, 1) and repeat."""
    x = np.array([[[3, 1, 2, 0], [5, 5, 4, 1], [0, 2, 2, 7]], [[1, 1, 0, 9], [4, 3, 2, 1],
                                                                [8, 0, 6, 5]]], np.int16)
    a = la.asarray(x)
    assert 3 in a and 10 not in a and (3 in x) and (10 not in x)
    assert a.item(5) == x.item(5) and a.item(1, 2, 3) == x.item(1, 2, 3)
    cases = [(lambda m: m.argsort(None), None),
             (lambda m: np.sort(m, axis=None), lambda m: la.sort(m, axis=None)),
             (lambda m: m.argsort(), None), (lambda m: m.argsort(kind="stable"), None),
             (lambda m: m.argsort(0), None),
             (lambda m: m.diagonal(), None), (lambda m: m.diagonal(1, 1, 2), None),
             (lambda m: m.trace(), None), (lambda m: m.trace(-1, 2, 0, np.int8), None),
             (lambda m: m.repeat(2, axis=1), None), (lambda m: m.repeat(2), None)]
    got = la.eval(*[(g or f)(a) for f, g in cases])
    for (f, _), g in zip(cases, got):
        want, g = f(x), np.asarray(g)
        assert g.dtype == want.dtype
        np.testing.assert_array_equal(g, want)
    for g, want in zip(a.nonzero(), x.nonzero()):
        np.testing.assert_array_equal(np.asarray(g), want)
