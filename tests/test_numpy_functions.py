"""NumPy functions outside the Array API (compositions in lazyarray/numpy_*.py and the registry's
fmod, gcd, lcm, cbrt, exp2) against NumPy: values (4 ulp), dtypes, shapes and exception types, on
edge values (NaN, +-inf, -0.0, subnormals, integer extremes)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from numpy_oracle import ULPS, numpy_or_its_error

import lazyarray as la

rng = np.random.default_rng(0)
x = rng.standard_normal((3, 4)); x[0, 1] = np.nan; x[2, 3] = np.inf
f32 = x.astype(np.float32)
i = np.arange(-6, 6).reshape(3, 4).astype(np.int16)
i8 = np.array([0, 1, -128, 127, 5], np.int8)
e = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 2.5, -3.75, 1e-310, 1e308])
v = np.array([3.0, 1.0, 2.0, 5.0])
cases = {
 "deg2rad": lambda m, a: m.deg2rad(a(e)),
 "radians f32": lambda m, a: m.radians(a(f32)),
 "degrees": lambda m, a: m.degrees(a(i)),
 "heaviside": lambda m, a: m.heaviside(a(e), 0.5),
 "heaviside i": lambda m, a: m.heaviside(a(i), a(i8[:4])),
 "heaviside f32": lambda m, a: m.heaviside(a(f32), 1.0),
 "float_power": lambda m, a: m.float_power(a(i), 2),
 "float_power f32": lambda m, a: m.float_power(a(f32), a(f32)),
 "logaddexp2": lambda m, a: m.logaddexp2(a(e), a(e[::-1].copy())),
 "logaddexp2 f32": lambda m, a: m.logaddexp2(a(f32), 1.0),
 "logaddexp2 bool": lambda m, a: m.logaddexp2(a(f32), True),
 "modf0": lambda m, a: m.modf(a(e))[0],
 "modf1": lambda m, a: m.modf(a(e))[1],
 "modf i8": lambda m, a: m.modf(a(i8))[0],
 "divmod0": lambda m, a: m.divmod(a(i), 4)[0],
 "divmod1": lambda m, a: m.divmod(a(e), 1.5)[1],
 "ldexp": lambda m, a: m.ldexp(a(e), a(np.array([1, 2, 3, 4, 5, -1, 1100, 60, -1000]))),
 "ldexp f32": lambda m, a: m.ldexp(a(f32), 3),
 "ldexp i": lambda m, a: m.ldexp(a(i), a(i)),
 "ldexp float exp": lambda m, a: m.ldexp(a(e), 1.5),
 "sinc": lambda m, a: m.sinc(a(e)),
 "sinc i8": lambda m, a: m.sinc(a(i8)),
 "sinc f32": lambda m, a: m.sinc(a(f32)),
 "nan_to_num": lambda m, a: m.nan_to_num(a(e)),
 "nan_to_num f32": lambda m, a: m.nan_to_num(a(f32), nan=-1.0, posinf=9.0),
 "nan_to_num i": lambda m, a: m.nan_to_num(a(i)),
 "fabs": lambda m, a: m.fabs(a(i)),
 "fabs e": lambda m, a: m.fabs(a(e)),
 "fix": lambda m, a: m.fix(a(e)),
 "isposinf": lambda m, a: m.isposinf(a(e)),
 "isneginf": lambda m, a: m.isneginf(a(e)),
 "fmax": lambda m, a: m.fmax(a(e), a(e[::-1].copy())),
 "fmin": lambda m, a: m.fmin(a(e), 0.0),
 "fmax i": lambda m, a: m.fmax(a(i), a(i8[:4])),
 "isclose": lambda m, a: m.isclose(a(e), a(e + 1e-9)),
 "isclose nan": lambda m, a: m.isclose(a(e), a(e), equal_nan=True),
 "isclose i": lambda m, a: m.isclose(a(i), a(i + 1), atol=1),
 "allclose": lambda m, a: np.bool_(m.allclose(a(v), a(v + 1e-10))),
 "array_equal": lambda m, a: np.bool_(m.array_equal(a(e), a(e), equal_nan=True)),
 "array_equal2": lambda m, a: np.bool_(m.array_equal(a(i), a(i[:2]))),
 "array_equiv": lambda m, a: np.bool_(m.array_equiv(a(i[:1]), a(i))),
 "nansum": lambda m, a: m.nansum(a(x), axis=0),
 "nanprod": lambda m, a: m.nanprod(a(x)),
 "nanmax": lambda m, a: m.nanmax(a(x), axis=1),
 "nanmin all-nan": lambda m, a: m.nanmin(a(np.array([[np.nan, 1], [np.nan, np.nan]])), axis=1),
 "nanmean": lambda m, a: m.nanmean(a(x), axis=1, keepdims=True),
 "nanmean i": lambda m, a: m.nanmean(a(i)),
 "nanvar": lambda m, a: m.nanvar(a(np.where(np.isinf(x), 1, x)), axis=0),
 "nanstd ddof": lambda m, a: m.nanstd(a(np.where(np.isinf(x), 1, x)), ddof=1),
 "nansum i": lambda m, a: m.nansum(a(i8)),
 "nanmax i": lambda m, a: m.nanmax(a(i)),
 "ptp": lambda m, a: m.ptp(a(i), axis=1),
 "ptp i8": lambda m, a: m.ptp(a(i8)),
 "average": lambda m, a: m.average(a(i)),
 "average w": lambda m, a: m.average(a(i), axis=1, weights=a(np.array([1, 2, 3, 4]))),
 "average w full": lambda m, a: m.average(a(v), weights=a(v)),
 "median": lambda m, a: m.median(a(x), axis=0),
 "median odd": lambda m, a: m.median(a(i), axis=1),
 "median all": lambda m, a: m.median(a(v)),
 "median keep": lambda m, a: m.median(a(i), axis=0, keepdims=True),
 "median axes": lambda m, a: m.median(a(np.arange(24.0).reshape(2, 3, 4)), axis=(0, 2)),
 "median axes keep": lambda m, a: m.median(a(x), axis=(1, 0), keepdims=True),
 "argwhere 0-d": lambda m, a: m.argwhere(a(np.array(3))),
 "amax": lambda m, a: m.amax(a(i), axis=0),
 "fliplr": lambda m, a: m.fliplr(a(i)),
 "flipud": lambda m, a: m.flipud(a(i)),
 "rot90": lambda m, a: m.rot90(a(i)),
 "rot90 k2": lambda m, a: m.rot90(a(i), 2),
 "rot90 k3": lambda m, a: m.rot90(a(i), -1),
 "rot90 3d": lambda m, a: m.rot90(a(np.arange(24).reshape(2, 3, 4)), 1, (2, 0)),
 "atleast_1d": lambda m, a: m.atleast_1d(a(np.float32(3))),
 "atleast_2d": lambda m, a: m.atleast_2d(a(v)),
 "atleast_3d 1": lambda m, a: m.atleast_3d(a(v)),
 "atleast_3d 2": lambda m, a: m.atleast_3d(a(i)),
 "hstack": lambda m, a: m.hstack([a(v), a(v)]),
 "hstack2": lambda m, a: m.hstack([a(i), a(i)]),
 "vstack": lambda m, a: m.vstack([a(v), a(v)]),
 "dstack": lambda m, a: m.dstack([a(i), a(i)]),
 "column_stack": lambda m, a: m.column_stack([a(v), a(v)]),
 "diagonal": lambda m, a: m.diagonal(a(np.arange(24).reshape(2, 3, 4)), 1, 0, 2),
 "trace": lambda m, a: m.trace(a(i)),
 "trace off": lambda m, a: m.trace(a(i), -1),
 "diag1": lambda m, a: m.diag(a(v), 1),
 "diag-2": lambda m, a: m.diag(a(v), -2),
 "diag2": lambda m, a: m.diag(a(i), 1),
 "outer": lambda m, a: m.outer(a(i), a(v)),
 "inner": lambda m, a: m.inner(a(i), a(i)),
 "inner 1d": lambda m, a: m.inner(a(v), a(v)),
 "dot": lambda m, a: m.dot(a(i), a(i.T)),
 "dot 1d": lambda m, a: m.dot(a(v), a(v)),
 "dot 3d": lambda m, a: m.dot(a(i), a(np.arange(24).reshape(2, 4, 3))),
 "dot scalar": lambda m, a: m.dot(a(v), 2.0),
 "vdot": lambda m, a: m.vdot(a(i), a(i)),
 "vdot c": lambda m, a: m.vdot(a(np.array([1 + 2j, 3j])), a(np.array([2 - 1j, 1]))),
 "kron": lambda m, a: m.kron(a(i), a(np.eye(2))),
 "kron 1d2d": lambda m, a: m.kron(a(v), a(i)),
 "append": lambda m, a: m.append(a(i), a(v)),
 "append ax": lambda m, a: m.append(a(i), a(i), axis=1),
 "unique": lambda m, a: m.unique(a(np.array([3, 1, np.nan, 3, np.nan]))),
 "unique counts": lambda m, a: m.unique(a(i % 3), return_counts=True)[1],
 "unique inv": lambda m, a: m.unique(a(i % 3), return_inverse=True)[1],
 "argwhere": lambda m, a: m.argwhere(a(i > 2)),
 "flatnonzero": lambda m, a: m.flatnonzero(a(i)),
 "fmod": lambda m, a: m.fmod(a(i), 4),
 "fmod f": lambda m, a: m.fmod(a(e), -1.5),
 "gcd": lambda m, a: m.gcd(a(i), 4),
 "lcm": lambda m, a: m.lcm(a(i), a(i8[:4])),
 "clip a_min": lambda m, a: m.clip(a(i), a_min=-2, a_max=3),
 "cbrt": lambda m, a: m.cbrt(a(e)),
 "exp2": lambda m, a: m.exp2(a(i)),
}


@pytest.mark.parametrize("name", sorted(cases))
def test_numpy_function_matches_numpy(backend, name):
    f = cases[name]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            want = np.asarray(f(np, np.asarray))
        except Exception as exc:  # noqa: BLE001  (the type is what is compared)
            with pytest.raises(TypeError if isinstance(exc, TypeError) else type(exc)):
                np.asarray(f(la, la.asarray))
            return
        got = np.asarray(f(la, la.asarray))
    assert got.dtype == want.dtype and got.shape == want.shape
    if want.dtype.kind in "fc":
        tol = ULPS * np.finfo(want.dtype).eps
        np.testing.assert_allclose(got, want, rtol=tol, atol=0, equal_nan=True)
    else:
        np.testing.assert_array_equal(got, want)


def test_integer_fmod_gcd_lcm_corners(backend):
    """fmod takes the dividend's sign and gives 0 for a zero divisor and INT_MIN % -1 (NumPy);
    gcd/lcm wrap at INT_MIN as npy_gcd/npy_lcm."""
    for dt in (np.int8, np.int32, np.int64, np.uint8, np.uint64):
        info = np.iinfo(dt)
        a = np.array([info.min, info.max, 7, -7 if info.min else 9, 0, 12], dtype=dt)
        b = np.array([-1 if info.min else 1, 0, 3, 3, 5, 18], dtype=dt)
        with np.errstate(all="ignore"):
            for fn in ("fmod", "gcd", "lcm"):
                got = getattr(la, fn)(la.asarray(a), la.asarray(b))
                np.testing.assert_array_equal(np.asarray(got), getattr(np, fn)(a, b),
                                              err_msg=f"{fn} {dt}")


_ZERO_D = [("sum", {"axis": 0}), ("max", {"axis": -1, "keepdims": True}), ("argmax", {"axis": 0}),
           ("any", {"axis": -1}), ("count_nonzero", {"axis": 0}), ("cumsum", {"axis": 0}),
           ("cumulative_sum", {}), ("cumprod", {"axis": -1})]


@pytest.mark.parametrize("fn, kwargs", _ZERO_D, ids=str)
def test_zero_d_reductions_take_axis_0_and_minus_1(reference_backend, fn, kwargs):
    """NumPy's ufunc reductions and scans accept axis 0 or -1 on a 0-d array (mean/var do not)."""
    z = np.array(5.0)
    want = getattr(np, fn)(z, **kwargs)
    got = np.asarray(getattr(la, fn)(la.asarray(z), **kwargs))
    assert got.dtype == np.asarray(want).dtype and got.shape == np.shape(want)
    np.testing.assert_array_equal(got, want)
    with pytest.raises(np.exceptions.AxisError):
        getattr(la, fn)(la.asarray(z), axis=1)
    with pytest.raises(np.exceptions.AxisError):
        la.mean(la.asarray(z), axis=0)


_POSITIONAL = [("sort", (0,)), ("argsort", (0,)), ("count_nonzero", (1,)), ("diff", (1, 0)),
               ("tril", (1,)), ("triu", (-1,)), ("repeat", (2, 1)), ("roll", (1, 0)),
               ("take_along_axis", (np.zeros((3, 1), np.int64), 1))]


@pytest.mark.parametrize("fn, args", _POSITIONAL, ids=lambda v: v if isinstance(v, str) else "")
def test_numpy_positional_arguments(reference_backend, fn, args):
    """NumPy-style calls pass axis/k/n positionally (np.sort(x, 0), np.triu(x, 1)); the Array API
    names still work as keywords."""
    x = np.arange(12.0).reshape(3, 4)[::-1]
    assert np.array_equal(np.asarray(getattr(la, fn)(la.asarray(x), *args)),
                          getattr(np, fn)(x, *args))
    assert np.array_equal(np.asarray(la.searchsorted(la.arange(5.0), la.asarray([1.0]), "right")),
                          np.searchsorted(np.arange(5.0), [1.0], "right"))
    assert np.array_equal(np.asarray(la.triu(la.arange(3.0), k=1)), np.triu(np.arange(3.0), 1))


def test_lcm_wraps_like_numpy(backend):
    """npy_lcm takes |a / gcd * b| in C int, then casts: lcm(127, 2) on int8 is -2, not 2."""
    a = np.array([127, 100, -128, -3, 0], np.int8)
    b = np.array([2, 3, 3, 11, 0], np.int8)
    np.testing.assert_array_equal(np.asarray(la.lcm(la.asarray(a), la.asarray(b))), np.lcm(a, b))


_TAKE_ARGSORT = {
    "take 0-d axis": lambda m, a: m.take(a(np.array(5)), a(np.array([0, 0])), axis=-1),
    "take bool index": lambda m, a: m.take(a(np.arange(3)), a(np.array([True, False]))),
    "take float index": lambda m, a: m.take(a(np.arange(3)), a(np.array([1.0]))),
    "take empty list": lambda m, a: m.take(a(np.arange(3)), []),
    "take empty outer": lambda m, a: m.take(a(np.zeros((4, 0, 1))), a(np.array([1, 0])), axis=-1),
    "argsort 0-d": lambda m, a: m.argsort(a(np.array(5))),
    "argsort 0-d axis 0": lambda m, a: m.argsort(a(np.array(5)), axis=0),
    "triu 0-d": lambda m, a: m.triu(a(np.array(5))),
    "where alone": lambda m, a: m.where(a(np.array([0, 1, 2])))[0],
    "where one value": lambda m, a: m.where(a(np.array([0, 1, 2])), 1),
    "sort 0-d": lambda m, a: m.sort(a(np.array(5))),
    "take wrap": lambda m, a: m.take(a(v), a(np.array([-9, -1, 0, 3, 4, 13])), mode="wrap"),
    "take clip": lambda m, a: m.take(a(v), a(np.array([-9, -1, 0, 3, 4, 13])), mode="clip"),
    "take wrap axis": lambda m, a: m.take(a(x), a(np.array([[-1, 4]])), axis=1, mode="wrap"),
    "take clip method": lambda m, a: a(x).take(a(np.array([2, 99], np.uint8)), mode="clip"),
    "take bad mode": lambda m, a: m.take(a(v), a(np.array([1])), mode="bogus"),
    "take wrap empty axis": lambda m, a: m.take(a(np.zeros(0)), a(np.array([0])), mode="wrap"),
}


@pytest.mark.parametrize("name", sorted(_TAKE_ARGSORT))
def test_take_and_argsort_edges(reference_backend, name):
    """np.take casts its indices 'same_kind' (bools count, floats raise TypeError), takes a 0-d
    x along axis 0/-1 and wraps or clips indices by `mode` (a TypeError before); argsort of a 0-d
    array is [0]."""
    f = _TAKE_ARGSORT[name]
    try:
        want = f(np, np.asarray)
    except (TypeError, ValueError, IndexError) as exc:
        with pytest.raises(type(exc)):
            f(la, la.asarray)
        return
    got = np.asarray(f(la, la.asarray))
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(got, want)


_SCALARS = [0, -1, 300, 1.5, True, np.float32(2), np.int8(3), float("nan"), 2**63, float("inf")]
_WITH_SCALARS = {
    "fmax": lambda m, x, s: m.fmax(x, s), "fmin": lambda m, x, s: m.fmin(s, x),
    "isclose": lambda m, x, s: m.isclose(x, s), "allclose": lambda m, x, s: m.allclose(s, x),
    "float_power": lambda m, x, s: m.float_power(x, s), "deg2rad": lambda m, x, s: m.deg2rad(s),
    "ldexp": lambda m, x, s: m.ldexp(s, x), "sinc": lambda m, x, s: m.sinc(s),
    "modf": lambda m, x, s: m.modf(s)[0], "fabs": lambda m, x, s: m.fabs(s),
    "nan_to_num": lambda m, x, s: m.nan_to_num(s),
}


@pytest.mark.parametrize("name", sorted(_WITH_SCALARS))
@pytest.mark.parametrize("dtype", ["int32", "uint64", "float32", "float64"])
def test_numpy_functions_with_python_scalars(reference_backend, name, dtype):
    """Python scalars beside arrays are weak (NEP 50: 300 beside int8 raises OverflowError), alone
    they convert as np.asarray (2**63 is uint64)."""
    f, x = _WITH_SCALARS[name], np.array([0, 1, 2]).astype(dtype)
    for s in _SCALARS:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                want = np.asarray(f(np, x, s))
            except (TypeError, OverflowError) as exc:
                with pytest.raises(type(exc)):
                    f(la, la.asarray(x), s)
                continue
            got = np.asarray(f(la, la.asarray(x), s))
        assert got.dtype == want.dtype, s
        np.testing.assert_allclose(got, want, rtol=1e-3 if want.dtype == np.float16 else 1e-6,
                                   equal_nan=True, err_msg=str(s))


def test_ldexp_is_exact_without_pow_on_every_backend(backend):
    """ldexp scales by powers of two built from the exponent's bits, never by `power`: CUDA's pow
    is not exact for 2**k (a GPU run gave frexp(64.0) a mantissa of 0.9999999999999999). Bit for
    bit against NumPy across the float64 and float32 ranges, subnormals included."""
    x = np.array([64.0, 1.5, 2.0**-1074, -7.25, 1e300, 1e-300, 3.0])
    x32 = np.array([2.0**-149, 1.5, 3e38, -1e-38], np.float32)
    graph = la.ldexp(la.asarray(x), la.asarray(np.array([-6])))
    from lazyarray.graph import Graph

    assert "power" not in {n.op.name for n in Graph([graph._node]).nodes}
    with np.errstate(all="ignore"), la.errstate(all="ignore"):
        for v, ns in ((x, [-7, -6, 5, 1023, 1074, 2000, -1074, -1100, -2200, 2200]),
                      (x32, [256, -20, 128, -149, -160, 300])):
            n = np.array(ns).reshape(-1, 1)
            got, want = np.asarray(la.ldexp(la.asarray(v), la.asarray(n))), np.ldexp(v, n)
            assert got.dtype == want.dtype
            np.testing.assert_array_equal(got, want)
            np.testing.assert_array_equal(np.signbit(got), np.signbit(want))


_SORT_KEYWORDS = {
    "np.argsort kind=stable": lambda m, a: m.argsort(a(np.array([2, 1, 2, 0, 1])), kind="stable"),
    "np.sort kind positional": lambda m, a: m.sort(a(np.array([[3.0, 1.0], [0.0, 2.0]])), 0,
                                                   "mergesort"),
    "np.argsort kind=quicksort": lambda m, a: m.argsort(a(v), kind="quicksort"),
    "np.sort stable=True": lambda m, a: m.sort(a(v), stable=True),
    "np.argsort bad kind": lambda m, a: m.argsort(a(v), kind="bogo"),
    "np.sort kind not str": lambda m, a: m.sort(a(v), kind=1),
    "np.sort kind and stable": lambda m, a: m.sort(a(v), kind="stable", stable=True),
    "np.argsort order": lambda m, a: m.argsort(a(v), order="x"),
    "argsort method bad kind": lambda m, a: a(v).argsort(kind="x"),
    "sort method bad kind": lambda m, a: a(v.copy()).sort(kind="x"),
}


@pytest.mark.parametrize("name", sorted(_SORT_KEYWORDS))
def test_sort_keywords_as_numpy(reference_backend, name):
    """np.sort/np.argsort take NumPy's `kind` and `order` as keywords or positionally (every valid
    kind sorts stably, NumPy's answer where keys are distinct or kind is stable) and reject what
    NumPy rejects with its exception type (a TypeError about `kind` before)."""
    f = _SORT_KEYWORDS[name]
    pair = numpy_or_its_error(f)
    if pair is None:
        return
    got, want = pair
    got = np.asarray(got)
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got, want)


_nan_rows = np.array([[1.0, np.nan, 3.0, 7.0], [4.0, 5.0, 6.0, 0.5]])
_WITH_OUT = {
    "nanmedian": (lambda m, a, o: m.nanmedian(a, axis=1, out=o), 2, np.float64),
    "median": (lambda m, a, o: m.median(a, axis=1, out=o), 2, np.float64),
    "nanargmax": (lambda m, a, o: m.nanargmax(a, axis=1, out=o), 2, np.int64),
    "nanargmin": (lambda m, a, o: m.nanargmin(a, axis=1, out=o), 2, np.int64),
    "percentile": (lambda m, a, o: m.percentile(a, 30, axis=1, out=o), 2, np.float64),
    "nanpercentile": (lambda m, a, o: m.nanpercentile(a, [30, 90], axis=1, out=o), (2, 2),
                      np.float32),
    "quantile": (lambda m, a, o: m.quantile(a, 0.3, axis=1, out=o), 2, np.float64),
    "nanquantile": (lambda m, a, o: m.nanquantile(a, 0.3, axis=1, out=o), 2, np.float64),
    "compress": (lambda m, a, o: m.compress([True, False, True], a[0], out=o), 2, np.float64),
    "nancumsum": (lambda m, a, o: m.nancumsum(a[0], out=o), 4, np.float64),
    "nancumprod": (lambda m, a, o: m.nancumprod(a[1], out=o), 4, np.float64),
}


@pytest.mark.parametrize("name", sorted(_WITH_OUT))
def test_out_is_written_as_numpy(reference_backend, name):
    """`out=` receives the result and is returned, as NumPy's (these functions returned the
    result and left `out` unwritten; nanmedian with `out` also propagated NaNs as median)."""
    f, shape, dtype = _WITH_OUT[name]
    want_out, got_out = np.zeros(shape, dtype), la.zeros(shape, dtype=dtype)
    want = f(np, _nan_rows, want_out)
    got = f(la, la.asarray(_nan_rows), got_out)
    assert want is want_out and got is got_out
    np.testing.assert_allclose(np.asarray(got_out), want_out, rtol=1e-6)


_r = np.array([1.5, 2.5, 3.7, -0.5])
_k = np.array([3, 1, 2, 3, 1])
_MORE_KEYWORDS = {
    "isin kind table": lambda m, a: m.isin(a(_k), [1, 3], kind="table"),
    "isin kind table of floats refuses": lambda m, a: m.isin(a(_r), [1.5], kind="table"),
    "isin bad kind": lambda m, a: m.isin(a(_r), [1.5], kind="bogus"),
    "isin assume_unique, invert by position": lambda m, a: m.isin(a(_k), [1, 3], False, True),
    "unique sorted=False": lambda m, a: m.unique(a(_k), sorted=False),
    "round out": lambda m, a: m.round(a(_r), 0, m.zeros(4)),
    "round out of int refuses": lambda m, a: m.round(a(_r), 0, m.zeros(4, int)),
    "method round out": lambda m, a: a(_r).round(1, m.zeros(4)),
    "trace out": lambda m, a: m.trace(a(np.eye(3)), 0, 0, 1, None, m.zeros(())),
    "eye order": lambda m, a: m.eye(3, order="F"),
    "tile reps keyword": lambda m, a: m.tile(a(_k), reps=2),
}


@pytest.mark.parametrize("name", sorted(_MORE_KEYWORDS))
def test_more_numpy_keywords(reference_backend, name):
    """NumPy's isin(assume_unique, invert, kind) in its positional order, unique(sorted=),
    round(out=), trace(out=), eye(order=), tile(reps=) (TypeErrors before), with NumPy's errors."""
    f = _MORE_KEYWORDS[name]
    pair = numpy_or_its_error(f)
    if pair is None:
        return
    got, want = pair
    got = np.asarray(got)
    assert got.dtype == np.asarray(want).dtype and got.shape == np.shape(want)
    np.testing.assert_array_equal(got, want)


_mv = np.random.default_rng(4).standard_normal(6)
_mX = np.random.default_rng(5).standard_normal((3, 4))


def _written_out(call, out):
    call(out)
    return out


_METHODS_AND_OUT = {
    "searchsorted method": lambda m, a: a(np.sort(_mv)).searchsorted(a(_mv[:2]), "right"),
    "argpartition method": lambda m, a: m.sort(a(_mv).argpartition(2)[:2]),
    "compress method": lambda m, a: a(_mX).compress([True, False, True], axis=0),
    "choose method": lambda m, a: a(np.array([0, 1, 0])).choose([a(_mv[:3]), a(_mv[3:])]),
    "tobytes": lambda m, a: np.frombuffer(a(_mX).tobytes(), np.float64),
    "trace method out": lambda m, a: _written_out(
        lambda o: a(_mX[:, :3]).trace(0, 0, 1, None, o), m.zeros(())),
    "take out (unsafe cast)": lambda m, a: _written_out(
        lambda o: a(_mv).take([0, 2], out=o), m.zeros(2, dtype=np.int64)),
    "np.take out by position": lambda m, a: _written_out(
        lambda o: m.take(a(_mv), [0, 2], None, o), m.zeros(2)),
    "take out of another shape refused": lambda m, a: a(_mv).take([0, 2], out=m.zeros(3)),
    "clip method out by position": lambda m, a: _written_out(
        lambda o: a(_mv).clip(-0.5, 0.5, o), m.zeros(6)),
    "np.clip out by position": lambda m, a: _written_out(
        lambda o: m.clip(a(_mv), -0.5, 0.5, o), m.zeros(6)),
}


@pytest.mark.parametrize("name", sorted(_METHODS_AND_OUT))
def test_ndarray_methods_and_out_as_numpy(reference_backend, name):
    """ndarray's searchsorted/argpartition/compress/choose/tobytes methods (AttributeError
    before), trace(out=), take(out=) and clip's positional out (TypeError before)."""
    f = _METHODS_AND_OUT[name]
    pair = numpy_or_its_error(f)
    if pair is None:
        return
    got, want = pair
    got = np.asarray(got)
    assert got.dtype == np.asarray(want).dtype and got.shape == np.shape(want)
    np.testing.assert_array_equal(got, want)


def test_order_statistics_partition_at_numpys_ranks():
    """The partition runs at the ranks NumPy's function partitions at, the ends included
    (quantile: 0 and -1 besides its two ranks; median of floats: -1): introselect's cost
    depends on them (a percentile of 1.9M uint8 2.3x NumPy's at its two ranks alone)."""
    from lazyarray.graph import Graph

    x = np.random.default_rng(3).integers(0, 9, 1001).astype(np.uint8)
    cases = [((0, -1), lambda m: m.percentile(m.asarray(x), 90)),
             ((), lambda m: m.median(m.asarray(x))),
             ((-1,), lambda m: m.median(m.asarray(x.astype(np.float32)))),
             ((0, -1), lambda m: m.quantile(m.asarray(x / 1.0), [0.1, 0.9])),
             ((), lambda m: m.quantile(m.asarray(x / 1.0), 1))]
    for ends, call in cases:
        with la.config(eager_size=0):  # (pending: its graph is there to read)
            got = call(la)
        attrs = [n.attrs for n in Graph([got._node]).nodes if n.op.name == "sorted_rows"]
        assert attrs == [(ends,)], (ends, attrs)
        np.testing.assert_array_equal(np.asarray(got), call(np))


@pytest.mark.needs("eager")  # the at-once path; cupy runs the general path
def test_a_small_quantiles_order_statistics_are_selected_once(backend):
    """A quantile's neighbours (small: a few values) are computed together before the lerp,
    whose ops are each computed at once and ran their graph again, a partition each:
    histogram_stats' `np.percentile(x, [25, 50, 75])` of 300,000 values 4 partitions, 24 ms
    (NumPy 5.9); groupby_stats' `np.nanpercentile(values, [5, 95])` 3, 3.3 ms (NumPy 0.6)."""
    import sys

    rng = np.random.default_rng(6)
    values = rng.normal(100, 15, 20000)
    nans = values.copy()
    nans[rng.random(20000) < 0.1] = np.nan
    cases = [("percentile", values, [25, 50, 75]), ("percentile", values, 90),
             ("nanpercentile", nans, [5, 95]), ("nanpercentile", nans, 30.5)]
    for name, data, q in cases:
        v = la.asarray(data)
        with la.config(eager_size=4096):  # (the default: this module runs lazy)
            getattr(la, name)(v, q)  # (a first run's unconfirmed 'invalid' flag is rerun once)
            seen = []
            sys.setprofile(lambda frame, event, arg: seen.append(frame.f_code.co_name) if (
                event == "call") else None)
            try:
                got = np.asarray(getattr(la, name)(v, q))
            finally:
                sys.setprofile(None)
        assert seen.count("_sorted_rows") == 1, (name, q, seen.count("_sorted_rows"))
        assert got.tobytes() == np.asarray(getattr(np, name)(data, q)).tobytes(), (name, q)


def test_median_and_quantiles_select_by_partition_not_sort(backend, monkeypatch):
    """median, nanmedian and the quantiles take their order statistics from one `sorted_rows`
    (NumPy's partition at the ranks asked for), never a full argsort and gather (nan_cleaning's
    nanmedian of (200000, 16): 519 -> 105 ms); values as NumPy's, NaN rows and all-NaN columns
    included, for odd and even counts and several quantiles at once."""
    from lazyarray import reductions
    from lazyarray.graph import Graph

    rng = np.random.default_rng(41)
    x = rng.standard_normal((301, 5))
    x[rng.random(x.shape) < 0.3] = np.nan
    x[:, 1] = np.nan
    x[::2, 3] = np.nan
    clean = rng.standard_normal((6, 4, 3))
    calls = {
        "nanmedian": (lambda m, a: m.nanmedian(a(x), axis=0)),
        "nanpercentile": (lambda m, a: m.nanpercentile(a(x), [10, 50, 90], axis=0)),
        "nanquantile all": (lambda m, a: m.nanquantile(a(x), 0.3)),
        "median": (lambda m, a: m.median(a(clean), axis=1)),
        "median odd": (lambda m, a: m.median(a(x[:, 0]))),
        "quantile": (lambda m, a: m.quantile(a(clean), [0.0, 0.25, 1.0], axis=(0, 2))),
        "percentile nan": (lambda m, a: m.percentile(a(x), 40, axis=0)),
    }
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name, call in calls.items():
            evaluated = []  # the nan-functions evaluate with their all-NaN test (its warning)
            with la.config(eager_size=0), monkeypatch.context() as patch:  # (small inputs
                patch.setattr(reductions, "_evaluate",  # evaluate at once otherwise)
                              lambda *a: evaluated.append(a[0]._node) or la.eval(*a))
                got = call(la, la.asarray)
            ops = {n.op.name for n in Graph([(evaluated or [got._node])[0]]).nodes}
            assert "sorted_rows" in ops and "argsort" not in ops, (name, ops)
            want = call(np, np.asarray)
            np.testing.assert_array_equal(np.asarray(got), want, err_msg=name)
    # differentiated, median is the sort and gather it stands for (sorted_rows has no rule)
    v = np.array([3.0, 1.0, 4.0, 1.5, 9.0])
    np.testing.assert_array_equal(np.asarray(la.grad(lambda t: la.median(t))(la.asarray(v))),
                                  [1.0, 0, 0, 0, 0])
    np.testing.assert_allclose(np.asarray(la.grad(lambda t: la.sum(la.quantile(t, 0.3)))(
        la.asarray(v))), [0.2, 0, 0, 0.8, 0])
