"""Long chains, the composite nn functions, and lazyarray's defined semantics (graph/semantics.py)
for cases NumPy leaves to the platform; NumPy-defined corner cases are compared with NumPy."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from numpy_oracle import assert_matches

import lazyarray as la
from together import compile_together


def test_100000_op_chain_builds_and_evaluates_without_recursion(backend):
    x = la.array(np.zeros(4, dtype=np.int64))
    y = x
    for _ in range(100_000):
        y = y + 1
    assert "RecursionError" not in repr(y.shape)
    assert_matches(y, np.full(4, 100_000, dtype=np.int64))
    z = y * 2  # reads the evaluated buffer
    assert_matches(z, np.full(4, 200_000, dtype=np.int64))


def test_deep_chain_of_mixed_ops(backend):
    xn = np.linspace(-1, 1, 8)
    x, want = la.array(xn), xn
    for k in range(2000):
        x = la.tanh(x * 1.01 + 0.001) if k % 2 else la.sin(x) - x * 0.5
        want = np.tanh(want * 1.01 + 0.001) if k % 2 else np.sin(want) - want * 0.5
    np.testing.assert_allclose(np.asarray(x), want, rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("dtype", ["int8", "int16", "int32", "int64", "uint8", "uint32", "uint64"])
@pytest.mark.parametrize("src", ["float32", "float64"])
def test_float_to_int_casts_are_numpys_on_x86_64(backend, dtype, src):
    """Into 32 and 64 bits NumPy's x86-64 values (its vector loop): INT_MIN for NaN and beyond
    a signed range; unsigned wraps negative values (-1.0 is 2**bits - 1, Rougier's exercise 28's
    `np.array([np.nan]).astype(int)` is INT64_MIN), with 'invalid' exactly where NumPy's cast
    raises it; lazyarray saturated and sent NaN to 0 (probe50). Into 8 and 16 bits NumPy's own
    values too (through int32: wrapped bits, 0 beyond int32), see the next test."""
    info = np.iinfo(dtype)
    values = np.array([np.nan, np.inf, -np.inf, 1e30, -1e30, 2.9, -2.9, 0.5, -0.5, -1.0, -7.5,
                       float(info.max) * 2, float(info.min) * 2 - 1, 3e9, -3e9, 1.0], dtype=src)
    # (16 values: no scalar tail in NumPy's vector loop, whose uint32 answer beyond int32's
    # negative range differs from the tail's, which goes through int64)
    with np.errstate(invalid="ignore"):
        want = values.astype(dtype)
    if info.bits <= 16:
        want = np.array([0, 0, 0, 0, 0, 2, -2, 0, 0, -1, -7, info.max * 2, info.min * 2 - 1,
                         0, 0, 1]).astype(dtype)
    assert_matches(la.array(values).astype(dtype), want)
    in_range = values[5:11]  # (no warning from NumPy: none from lazyarray)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert_matches(la.array(in_range).astype(dtype), in_range.astype(dtype))


@pytest.mark.parametrize("dtype", ["int8", "uint8", "int16", "uint16"])
def test_float_casts_into_8_and_16_bits_wrap_as_numpys(backend, dtype):
    """`(img * 1.5).astype(np.uint8)` and `np.round(s * 127).astype(np.int8)` (image and audio
    tutorials): NumPy's values wrap (132.0 is int8 -124) without a warning, and only values
    beyond int32 warn 'invalid value'; lazyarray saturated (127) and warned (probe49)."""
    values = np.array([132.0, 300.7, -200.2, 65536.7, -1.5, 70000.0, -40000.9, 2.0 ** 31 - 128])
    for src in (values, values.astype(np.float32), values[:1]):
        got = la.asarray(src).astype(dtype)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            assert_matches(got, src.astype(dtype))
            assert_matches(la.full(2, float(src[0]), dtype), np.full(2, src[0], dtype))
    beyond = np.array([3e9, -1e10, np.nan, 5.0])
    with pytest.warns(RuntimeWarning, match="invalid value encountered in cast"):
        got = np.asarray(la.asarray(beyond).astype(dtype))
    np.testing.assert_array_equal(got, np.array([0, 0, 0, 5], dtype))


@pytest.mark.parametrize("dtype", ["int8", "int32", "int64", "uint8", "uint64"])
def test_integer_reciprocal_of_zero_is_numpys(backend, dtype):
    """1 / 0's inf cast as NumPy's on x86-64: INT_MIN for int32/int64, 0 for narrower and
    unsigned types (probe54: 0 for every type)."""
    x = np.array([0, 1, 2, 5], dtype=dtype)
    if np.dtype(dtype).kind == "i":
        x = np.append(x, -1).astype(dtype)
    with np.errstate(all="ignore"):
        want = np.reciprocal(x)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # (NumPy's two, tested elsewhere)
        assert_matches(la.reciprocal(la.array(x)), want)


@pytest.mark.parametrize("dtype", ["int8", "int16", "int64"])
def test_integer_power_with_negative_exponent(backend, dtype):
    base = np.array([1, -1, -1, 2, -2, 0, 5], dtype=dtype)
    exp = np.array([-3, -3, -2, -1, -5, -1, 0], dtype=dtype)
    with pytest.raises(ValueError, match="negative integer powers"):  # values known: NumPy's
        la.power(la.array(base), la.array(exp))  # error (probe53; the kernel answered before)
    # a pending exponent's values are not known at the call (docs/semantics.md, "power")
    assert_matches(la.power(la.array(base), la.array(exp) + 0),
                   np.array([1, -1, 1, 0, 0, 0, 1], dtype=dtype))
    with pytest.raises(ValueError, match="negative integer powers"):  # a scalar: NumPy's error
        la.array(base) ** -1


@pytest.mark.parametrize("dtype", [  # on C a compile per dtype: int8, int64, uint64 in the fast tier
    "int8", pytest.param("int16", marks=pytest.mark.exhaustive_on("c")), pytest.param("int32", marks=pytest.mark.exhaustive_on("c")), "int64",
    pytest.param("uint8", marks=pytest.mark.exhaustive_on("c")), "uint64"])
def test_numpy_defined_integer_corner_cases(backend, dtype):
    info = np.iinfo(dtype)
    a = np.array([info.min, info.max, 7, 0, info.min, 5], dtype=dtype)
    b = np.array([0, 0, 0, 0, -1 if info.min else 1, 3], dtype=dtype)
    with np.errstate(all="ignore"):
        assert_matches(la.array(a) // la.array(b), a // b)
        assert_matches(la.array(a) % la.array(b), a % b)
        assert_matches(la.floor_divide(la.array(a), b), np.floor_divide(a, b))
    bits = info.bits
    shifts = np.array([0, 1, bits - 1, bits, bits + 1, 2 * bits], dtype=dtype)
    for v in (1, info.max, info.min if info.min else 3):
        vals = np.full(shifts.shape, v, dtype=dtype)
        assert_matches(la.array(vals) << la.array(shifts), np.left_shift(vals, shifts))
        assert_matches(la.array(vals) >> la.array(shifts), np.right_shift(vals, shifts))


def test_float_division_and_remainder_by_zero_match_numpy(backend):
    a = np.array([1.0, -1.0, 0.0, np.inf, 5.5], dtype=np.float32)
    b = np.zeros(5, dtype=np.float32)
    with np.errstate(all="ignore"):
        for op in (np.divide, np.floor_divide, np.remainder):
            assert_matches(getattr(la, op.__name__)(la.array(a), la.array(b)), op(a, b))


def test_round_half_to_even_and_decimals(backend):
    x = np.array([0.5, 1.5, 2.5, -0.5, -1.5, 2.675, 1234.5678], dtype=np.float64)
    for d in (0, 1, 2, -2):
        np.testing.assert_allclose(np.asarray(la.round(la.array(x), d)), np.round(x, d),
                                   rtol=1e-15)
    assert_matches(la.round(la.array(np.arange(-3, 4, dtype=np.int8))), np.arange(-3, 4,
                                                                                   dtype=np.int8))
    assert_matches(la.array(x).round(1), np.round(x, 1))


def test_where_and_clip(backend):
    rng = np.random.default_rng(0)
    x = rng.standard_normal((3, 4)).astype(np.float32)
    assert_matches(la.where(la.array(x) > 0, la.array(x), 0), np.where(x > 0, x, np.float32(0)))
    assert_matches(la.where(x > 0, 1, 2.5), np.where(x > 0, 1, 2.5))
    assert_matches(la.where(la.array(x > 0), la.array(x.astype(np.int8)), np.float32(1)),
                   np.where(x > 0, x.astype(np.int8), np.float32(1)))
    assert_matches(la.clip(la.array(x), -0.5, 0.5), np.clip(x, -0.5, 0.5))
    assert_matches(la.array(x).clip(max=0.1), np.clip(x, None, 0.1))
    xi = np.arange(-5, 5, dtype=np.int16)
    assert_matches(la.clip(la.array(xi), -2, 3), np.clip(xi, -2, 3))


def test_astype_between_all_non_float_sources(backend):
    from numpy_oracle import backend_dtypes

    x = np.array([0, 1, 2, 100, 255, 127], dtype=np.uint8)
    for src in backend_dtypes(backend):
        if src.kind in "fc":  # float-like sources: lazyarray's defined float->int rule
            continue
        for dst in backend_dtypes(backend):
            xs = x.astype(src)
            assert_matches(la.array(xs).astype(dst), xs.astype(dst))


def _softmax(x, axis):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


_COMPILED: dict = {}  # (backend, dtype) whose nn values' kernels are compiled (tests/together.py)


def _nn_builders(xn: np.ndarray) -> list:
    """Each value test_nn_functions evaluates, one evaluation each as there (~10 units per
    dtype alone: one unit per LIBRARY_BUDGET heavy calls together)."""
    nn = la.nn
    values = [lambda f=f, a=a: f(la.array(xn), axis=a) for a in (-1, 0)
              for f in (nn.softmax, nn.log_softmax, nn.logsumexp)]
    values += [lambda f=f: f(la.array(xn)) for f in (nn.relu, nn.sigmoid, nn.gelu)]
    return values + [lambda: nn.softmax(la.array(np.array([1000.0, -np.inf, 0.0], xn.dtype)))]


@pytest.mark.xdist_group("test_nn_functions")
@pytest.mark.parametrize("dtype", [  # ~10 units each alone, ~5 together: float64 on C exhaustive
    "float32", pytest.param("float64", marks=pytest.mark.exhaustive_on("c"))])
def test_nn_functions(backend, dtype):
    rng = np.random.default_rng(1)
    xn = (rng.standard_normal((3, 5)) * 3).astype(dtype)
    compile_together(_COMPILED, (backend, dtype), _nn_builders(xn))
    x = la.array(xn)
    rtol = 1e-5 if dtype == "float32" else 1e-12
    for axis in (-1, 0):
        np.testing.assert_allclose(np.asarray(la.nn.softmax(x, axis=axis)), _softmax(xn, axis),
                                   rtol=rtol)
        np.testing.assert_allclose(np.asarray(la.nn.log_softmax(x, axis=axis)),
                                   np.log(_softmax(xn, axis)), rtol=rtol, atol=rtol)
        lse = np.log(np.exp(xn.astype(np.float64)).sum(axis=axis))
        np.testing.assert_allclose(np.asarray(la.nn.logsumexp(x, axis=axis)), lse, rtol=rtol)
    assert la.nn.softmax(x).dtype == dtype and la.nn.logsumexp(x).shape == ()
    np.testing.assert_allclose(np.asarray(la.nn.relu(x)), np.maximum(xn, 0))
    np.testing.assert_allclose(np.asarray(la.nn.sigmoid(x)), 1 / (1 + np.exp(-xn)), rtol=rtol)
    gelu = 0.5 * xn * (1 + np.tanh(math.sqrt(2 / math.pi) * (xn + 0.044715 * xn**3)))
    np.testing.assert_allclose(np.asarray(la.nn.gelu(x)), gelu, rtol=rtol, atol=rtol)
    big = la.array(np.array([1000.0, -np.inf, 0.0], dtype=dtype))
    np.testing.assert_allclose(np.asarray(la.nn.softmax(big)), [1.0, 0.0, 0.0])
