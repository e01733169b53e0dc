"""Array API 2024.12 conformance, generated from the standard: its signatures and promotion table
(read from array-api-strict, a test-only oracle that transcribes the standard) and its special-case
values (computed by the oracle on the standard's special inputs), on every backend; plus the
inspection API, copy/device semantics and the namespace itself."""

from __future__ import annotations

import inspect
import math

import numpy as np
import pytest

import lazyarray as la

xp = pytest.importorskip("array_api_strict")
xp.set_array_api_strict_flags(api_version="2024.12")

# The oracle's own helpers, and what the complex part of issue 12 adds (skipped until it lands).
_NOT_STANDARD = {"ArrayAPIStrictFlags", "Device", "ModuleType", "get_array_api_strict_flags",
                 "reset_array_api_strict_flags", "set_array_api_strict_flags"}
_COMPLEX = {"complex64", "complex128", "conj", "real", "imag"}


def _standard_functions() -> list[str]:
    names = [n for n in dir(xp) if not n.startswith("_") and n not in _NOT_STANDARD]
    names = [n for n in names if inspect.isfunction(getattr(xp, n))]
    return [n for n in names if n not in _COMPLEX or hasattr(la, n)]


def test_every_standard_function_is_in_the_namespace():
    missing = [n for n in dir(xp) if not n.startswith("_") and n not in _NOT_STANDARD
               and n not in _COMPLEX and not hasattr(la, n)]
    assert missing == []


@pytest.mark.parametrize("name", _standard_functions())
def test_signature_takes_the_standards_arguments(name):
    """Positional-only arguments: at least as many positions; the rest: the standard's keyword."""
    ours = inspect.signature(getattr(la, name)).parameters.values()
    theirs = inspect.signature(getattr(xp, name)).parameters.values()
    var_kw = any(p.kind is p.VAR_KEYWORD for p in ours)
    var_pos = any(p.kind is p.VAR_POSITIONAL for p in ours)
    positional = [p for p in ours if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    keywords = {p.name for p in ours if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)}
    n_pos = sum(1 for p in theirs if p.kind is p.POSITIONAL_ONLY)
    assert var_pos or len(positional) >= n_pos, f"{name}: fewer than {n_pos} positional arguments"
    for p in theirs:
        if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY):
            assert var_kw or p.name in keywords, f"{name}: no keyword argument {p.name!r}"
        if p.kind is p.VAR_POSITIONAL:
            assert var_pos, f"{name}: takes no *{p.name}"


# --- promotion: the standard's table (where it defines a result) -------------------------------------
_DTYPES = [n for n in ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
                       "uint64", "float32", "float64", "complex64", "complex128") if hasattr(la, n)]


def test_result_type_follows_the_standards_table():
    for a in _DTYPES:
        for b in _DTYPES:
            try:
                want = xp.result_type(getattr(xp, a), getattr(xp, b))
            except TypeError:  # the standard leaves mixed kinds undefined; NumPy's rule applies
                continue
            assert la.result_type(getattr(la, a), getattr(la, b)) == want._np_dtype, (a, b)


def test_python_scalars_are_weak_in_result_type():
    assert la.result_type(la.float32, 1.0) == la.float32
    assert la.result_type(la.int8, 1) == la.int8
    assert la.result_type(la.asarray([1], dtype=la.uint8), 1.0) == la.float64  # NumPy's, NEP 50


def test_isdtype_kinds_and_can_cast():
    kinds = ("bool", "signed integer", "unsigned integer", "integral", "real floating",
             "complex floating", "numeric")
    for name in _DTYPES:
        for kind in kinds:
            assert la.isdtype(getattr(la, name), kind) == xp.isdtype(getattr(xp, name), kind)
        for other in _DTYPES:  # NumPy also casts across kinds (bool -> int8) where it is safe
            if xp.can_cast(getattr(xp, name), getattr(xp, other)):
                assert la.can_cast(getattr(la, name), getattr(la, other)), (name, other)
    assert not la.can_cast(la.float64, la.float32) and not la.can_cast(la.int64, la.uint64)
    assert la.isdtype(la.int8, (la.int8, "real floating"))
    with pytest.raises(ValueError, match="unknown dtype kind"):
        la.isdtype(la.int8, "integer")


def test_finfo_and_iinfo_are_numpys_with_the_standards_values():
    """NumPy's own objects (probe45: NumPy programs print `finfo(float32).eps` and read `.tiny`;
    a dataclass of Python floats printed 1.1920928955078125e-07 and had no `tiny`), whose
    standard fields equal array-api-strict's."""
    for name in ("float32", "float64"):
        ours, theirs = la.finfo(getattr(la, name)), xp.finfo(getattr(xp, name))
        for field in ("bits", "eps", "max", "min", "smallest_normal"):
            assert getattr(ours, field) == getattr(theirs, field)
        assert str(ours) == str(np.finfo(name)) and repr(ours.eps) == repr(np.finfo(name).eps)
        assert ours.tiny == np.finfo(name).tiny and ours.dtype == np.dtype(name)
    for name in ("int8", "uint64", "int64"):
        ours, theirs = la.iinfo(getattr(la, name)), xp.iinfo(getattr(xp, name))
        assert (ours.bits, ours.min, ours.max) == (theirs.bits, theirs.min, theirs.max)
        assert type(ours.max) is int and str(ours) == str(np.iinfo(name))
    assert la.finfo(la.ones(2, dtype=la.float32)).bits == 32
    assert la.iinfo(la.ones(2, dtype=la.int16)).max == 32767
    with pytest.raises(ValueError):  # NumPy's error for a non-inexact type
        la.finfo(la.int8)


def test_namespace_info_and_constants():
    x = la.ones(3)
    assert x.__array_namespace__() is la and x.__array_namespace__(api_version="2024.12") is la
    with pytest.raises(ValueError):
        x.__array_namespace__(api_version="2021.12")
    assert la.__array_api_version__ == "2024.12"
    info = la.__array_namespace_info__()
    assert set(info.capabilities()) == {"boolean indexing", "data-dependent shapes",
                                        "max dimensions"}
    assert info.default_device() == "cpu" and "cpu" in info.devices()
    defaults = info.default_dtypes()
    assert defaults["real floating"] == la.float64 and defaults["indexing"] == la.int64
    assert set(info.dtypes(kind="integral").values()) == {np.dtype(n) for n in _DTYPES
                                                          if la.isdtype(getattr(la, n), "integral")}
    assert info.dtypes()["bool"] == la.bool
    # the standard's dtypes as NumPy's own info lists them (float16 is NumPy's extra)
    assert info.dtypes().keys() == np.__array_namespace_info__().dtypes().keys()
    assert info.dtypes(kind="real floating").keys() == np.__array_namespace_info__().dtypes(
        kind="real floating").keys()
    assert (la.e, la.pi, la.newaxis) == (math.e, math.pi, None)
    assert math.isinf(la.inf) and math.isnan(la.nan)


def test_namespace_info_dtypes_are_found_by_an_arrays_dtype():
    """scikit-learn's `_matching_numpy_dtype` looks `x.dtype` up in the inverted `dtypes()` dict:
    a KeyError while the values were NumPy's scalar types (np.float64 hashes apart from
    np.dtype('float64')). NumPy's own info gives dtype instances."""
    info = la.__array_namespace_info__()
    by_dtype = {dt: name for name, dt in info.dtypes().items()}
    for name in _DTYPES:
        assert by_dtype[la.ones(2, dtype=getattr(la, name)).dtype] == name
    defaults = info.default_dtypes()
    assert {defaults["real floating"], defaults["indexing"]} == {la.ones(1).dtype,
                                                                la.arange(2).dtype}


# --- special cases: the standard's special inputs, every backend -------------------------------------
_SPECIAL = [math.nan, math.inf, -math.inf, 0.0, -0.0, 1.0, -1.0, 0.5, -2.5, 3.0]
_UNARY = ("abs", "acos", "acosh", "asin", "asinh", "atan", "atanh", "ceil", "cos", "cosh", "exp",
          "expm1", "floor", "isfinite", "isinf", "isnan", "log", "log1p", "log2", "log10",
          "negative", "positive", "round", "sign", "signbit", "sin", "sinh", "sqrt", "square",
          "tan", "tanh", "trunc", "reciprocal", "logical_not")
_BINARY = ("add", "atan2", "copysign", "divide", "equal", "floor_divide", "greater",
           "greater_equal", "hypot", "less", "less_equal", "logaddexp", "logical_and",
           "logical_or", "logical_xor", "maximum", "minimum", "multiply", "nextafter", "not_equal",
           "pow", "remainder", "subtract")


def _assert_special(name, got, want):
    """NaN where NaN, infinities and zeros (with their sign) exact, finite values within 4 ulp."""
    got, want = np.asarray(got), np.asarray(want)
    assert got.dtype == want.dtype, name
    if got.dtype.kind != "f":
        np.testing.assert_array_equal(got, want, err_msg=name)
        return
    np.testing.assert_array_equal(np.isnan(got), np.isnan(want), err_msg=name)
    exact = np.isinf(want) | (want == 0)
    np.testing.assert_array_equal(got[exact], want[exact], err_msg=name)
    if not name.startswith(("maximum", "minimum")):  # the standard leaves their zero sign open
        np.testing.assert_array_equal(np.signbit(got[exact]), np.signbit(want[exact]),
                                      err_msg=name)
    finite = np.isfinite(want) & ~exact
    np.testing.assert_allclose(got[finite], want[finite], rtol=4 * np.finfo(got.dtype).eps,
                               err_msg=name)


def _special_cases(dtype: str, backend: str) -> None:
    values = np.array(_SPECIAL, dtype=dtype)
    a, b = np.meshgrid(values, values)
    ours, theirs = {}, {}
    with np.errstate(all="ignore"):
        for name in _UNARY:
            x = values != 0 if name.startswith("logical") else values
            ours[name] = getattr(la, name)(la.asarray(x))
            theirs[name] = getattr(xp, name)(xp.asarray(x))
        for name in _BINARY:
            x1, x2 = (a != 0, b != 0) if name.startswith("logical") else (a, b)
            ours[name] = getattr(la, name)(la.asarray(x1), la.asarray(x2))
            theirs[name] = getattr(xp, name)(xp.asarray(x1), xp.asarray(x2))
        la.eval(*ours.values())
        for name in ours:
            _assert_special(f"{name} on {backend}", ours[name], np.asarray(theirs[name]))


def test_special_cases_float64(backend):
    _special_cases("float64", backend)


@pytest.mark.exhaustive
def test_special_cases_float32(backend):
    _special_cases("float32", backend)


# expm1: the standard's table, which NumPy (and so the oracle) misses in 6 cases, is checked in
# tests/test_array_api_rows.py
_COMPLEX_UNARY = ("abs", "acos", "acosh", "asin", "asinh", "atan", "atanh", "cos", "cosh", "exp",
                  "log", "log1p", "log2", "log10", "sin", "sinh", "sqrt", "square",
                  "tan", "tanh", "conj", "real", "imag", "isfinite", "isinf", "isnan", "negative",
                  "positive", "reciprocal")  # sign: lazyarray follows NumPy (docs/semantics.md)
_COMPLEX_BINARY = ("add", "subtract", "multiply", "divide", "equal", "not_equal", "pow")


def _assert_complex_special(name, got, want):
    got, want = np.asarray(got), np.asarray(want)
    assert got.dtype == want.dtype, name
    if got.dtype.kind == "c":
        got, want = got.view(got.real.dtype), want.view(want.real.dtype)  # (re, im) pairs
    _assert_special(name, got, want)


def _complex_special_cases(dtype: str, backend: str) -> None:
    parts = [math.nan, math.inf, -math.inf, 0.0, -0.0, 1.0, -1.0, 0.5]
    z = np.array([complex(a, b) for a in parts for b in parts], dtype=dtype)
    z1, z2 = np.meshgrid(z, z)
    with np.errstate(all="ignore"):
        ours = {name: getattr(la, name)(la.asarray(z)) for name in _COMPLEX_UNARY}
        theirs = {name: getattr(xp, name)(xp.asarray(z)) for name in _COMPLEX_UNARY}
        for name in _COMPLEX_BINARY:
            ours[name] = getattr(la, name)(la.asarray(z1), la.asarray(z2))
            theirs[name] = getattr(xp, name)(xp.asarray(z1), xp.asarray(z2))
        la.eval(*ours.values())
        for name, value in ours.items():
            _assert_complex_special(f"{name} on {backend}", value, np.asarray(theirs[name]))


@pytest.mark.skipif(not hasattr(la, "complex128"), reason="complex dtypes not in this tree")
def test_special_cases_complex128(backend):
    _complex_special_cases("complex128", backend)


@pytest.mark.exhaustive
@pytest.mark.skipif(not hasattr(la, "complex64"), reason="complex dtypes not in this tree")
def test_special_cases_complex64(backend):
    _complex_special_cases("complex64", backend)


# --- copies, devices, interop --------------------------------------------------------------------------
def test_asarray_copy_semantics():
    x = la.ones(3, dtype=la.float32)
    assert la.asarray(x) is x and la.asarray(x, copy=True) is not x  # x[i] = v rebinds only it
    assert la.asarray(x, dtype=la.float64).dtype == la.float64
    with pytest.raises(ValueError, match="Unable to avoid copy"):
        la.asarray(x, dtype=la.float64, copy=False)
    host = np.arange(4.0)
    shared, copied = la.asarray(host, copy=False), la.asarray(host)
    host[0] = 9.0
    assert float(shared[0]) == 9.0 and float(copied[0]) == 0.0
    with pytest.raises(ValueError):
        la.asarray(host[::2], copy=False)


def test_device_keywords_and_to_device():
    for make in (lambda: la.zeros(2, device="cpu"), lambda: la.ones((2,), device="cpu"),
                 lambda: la.full(2, 3.0, device="cpu"), lambda: la.arange(2, device="cpu"),
                 lambda: la.linspace(0, 1, 2, device="cpu"), lambda: la.eye(2, device="cpu"),
                 lambda: la.empty(2, device="cpu"), lambda: la.asarray([1.0], device="cpu"),
                 lambda: la.zeros_like(la.ones(2), device="cpu")):
        assert make().device == "cpu"
    x = la.ones(2)
    assert x.to_device("cpu") is x and la.astype(x, la.int8, device="cpu").dtype == la.int8
    with pytest.raises(ValueError, match="unknown device"):
        la.zeros(2, device="tpu")


def test_dlpack_keywords_complex_and_broadcast_arrays_tuple():
    x = la.arange(4.0) * 2.0
    np.testing.assert_array_equal(np.from_dlpack(x), [0.0, 2.0, 4.0, 6.0])
    capsule = x.__dlpack__(stream=None, max_version=(1, 0), dl_device=(1, 0), copy=True)
    assert capsule is not None
    with pytest.raises(BufferError):
        x.__dlpack__(dl_device=(2, 0))
    assert complex(la.asarray(2.5)) == 2.5 + 0j
    out = la.broadcast_arrays(la.ones((2, 1)), la.ones(3))
    assert type(out) is tuple and [a.shape for a in out] == [(2, 3), (2, 3)]  # NumPy's, 2025.12


# --- a library that only knows the standard -------------------------------------------------------------
def _standardize(x):
    """Written against the standard only: it asks the array for its namespace."""
    ns = x.__array_namespace__()
    centered = x - ns.mean(x, axis=0, keepdims=True)
    scale = ns.sqrt(ns.sum(centered * centered, axis=0) / (x.shape[0] - 1))
    ranks = ns.argsort(ns.argsort(x, axis=0), axis=0)
    top = ns.max(ns.abs(centered), axis=0)
    return centered / scale, ranks, ns.linalg.vector_norm(x, axis=0), ns.cumulative_sum(top)


def test_standard_only_code_runs_on_lazyarray(backend):
    data = np.random.default_rng(0).normal(size=(5, 3))
    ours = _standardize(la.asarray(data))
    theirs = _standardize(xp.asarray(data))
    la.eval(*ours)
    for a, b in zip(ours, theirs):
        np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=1e-12)


# --- the namespace ---------------------------------------------------------------------------------------
def test_dir_lists_public_names_only():
    names = dir(la)
    assert names == sorted(la.__all__)
    assert not [n for n in names if n.startswith("_") and n not in (
        "__array_api_version__", "__array_namespace_info__")]
    for implementation_detail in ("np", "Any", "annotations", "elementwise", "graph", "user_site"):
        assert implementation_detail not in names


def test_every_public_function_names_its_counterpart():
    """A docstring on every public function; one that NumPy or the standard also has names it."""
    standard = set(dir(xp))
    for name in la.__all__:
        fn = getattr(la, name)
        if not callable(fn) or isinstance(fn, type) or isinstance(fn, np.dtype):
            continue
        first = (fn.__doc__ or "").strip().split("\n")[0]
        assert first, f"la.{name} has no docstring"
        if name in standard or hasattr(np, name):
            assert any(m in first.lower() for m in ("numpy.", "numpy `", "array api", "jax.")), \
                f"la.{name}: the first docstring line names no counterpart: {first!r}"


def test_array_api_extra_runs_on_lazyarray(reference_backend):
    """array-api-extra knows only the standard (through array-api-compat's `array_namespace`)."""
    xpx = pytest.importorskip("array_api_extra")
    data = np.random.default_rng(1).normal(size=(3, 5))
    x = la.asarray(data)
    got = {"cov": xpx.cov(x), "sinc": xpx.sinc(x), "kron": xpx.kron(x, x),
           "isclose": xpx.isclose(x, x * (1 + 1e-12)), "nunique": xpx.nunique(x),
           "one_hot": xpx.one_hot(la.asarray([0, 2, 1]), 3)}
    want = {"cov": np.cov(data), "sinc": np.sinc(data), "kron": np.kron(data, data),
            "isclose": np.ones((3, 5), bool), "nunique": np.asarray(15),
            "one_hot": np.eye(3)[[0, 2, 1]]}
    for name, value in got.items():
        assert isinstance(value, la.Array), name
        np.testing.assert_allclose(np.asarray(value), want[name], rtol=1e-12, err_msg=name)


def test_hypothesis_array_api_strategies_draw_lazyarray_arrays(reference_backend):
    """Hypothesis's own Array API strategies accept lazyarray as a namespace; drawn arrays sort
    and reduce as NumPy does."""
    from hypothesis import given, settings
    from hypothesis.extra.array_api import make_strategies_namespace

    xps = make_strategies_namespace(la, api_version="2023.12")

    @settings(max_examples=10, deadline=None)
    @given(xps.arrays(dtype=xps.real_dtypes(), shape=xps.array_shapes(min_dims=1, max_dims=3,
                                                                      max_side=4)))
    def check(x):
        host = np.asarray(x)
        np.testing.assert_array_equal(np.asarray(la.sort(x, axis=-1)), np.sort(host, axis=-1))
        assert la.count_nonzero(x).item() == np.count_nonzero(host)

    check()


def test_array_object_has_the_standards_attributes():
    """Every attribute of the standard's array object, the in-place operators included: `x += 1`
    writes the handle x, as NumPy's (docs/semantics.md)."""
    standard = type(xp.asarray([1]))
    names = [n for n in dir(standard) if not n.startswith("_")
             or (n.startswith("__") and n not in dir(object))]
    in_place = {n for n in names if n.startswith("__i") and n[3:-2] in
                {"add", "and", "floordiv", "lshift", "matmul", "mod", "mul", "or", "pow",
                 "rshift", "sub", "truediv", "xor"}}
    missing = [n for n in names if not hasattr(la.Array, n) and n != "__buffer__"]
    assert missing == [] and in_place
    x = y = la.ones(2)
    x += 1
    assert x is y and float(y[0]) == 2.0  # one handle, written
