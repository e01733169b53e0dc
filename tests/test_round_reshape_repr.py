"""NumPy's own rules for round's scale, reshape's shape argument and the printed form."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from numpy_oracle import assert_matches

import lazyarray as la

_DECIMALS = [-400, -309, -308, -20, -3, -1, 1, 2, 3, 7, 15, 22, 23, 40, 300, 308, 309, 400]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_round_any_decimals_is_numpys_bit_for_bit(backend, dtype):
    """NumPy scales by a power of ten built by repeated multiplication, divides for negative
    decimals, and gives NaN once the scale overflows (round(x, 400))."""
    rng = np.random.default_rng(1)
    x = (rng.standard_normal(64) * 10.0 ** rng.integers(-20, 20, 64)).astype(dtype)
    x[:4] = [0.0, -0.0, np.inf, np.nan]
    a = la.asarray(x)
    for d in _DECIMALS:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            want = np.round(x, d)
        got = np.asarray(la.round(a, d))
        assert got.dtype == want.dtype, d
        np.testing.assert_array_equal(got, want, err_msg=f"decimals={d}")


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_round_complex_rounds_each_part_as_numpy(backend, dtype):
    """NumPy rounds the real and imaginary parts on their own: an infinite or NaN part leaves the
    other one alone, and each part is NumPy's float round bit for bit (a complex multiply by the
    scale turned inf parts into NaN, and complex division by it was off by an ulp)."""
    rng = np.random.default_rng(2)
    parts = rng.standard_normal((2, 48)) * 10.0 ** rng.integers(-6, 6, (2, 48))
    specials = [0.0, -0.0, np.inf, -np.inf, np.nan, 1.2345, 2.3455, 3.4028233e38]
    parts[:, :len(specials) ** 2 // 2] = 0  # room for the grid below
    grid = np.array([(a, b) for a in specials for b in specials]).T
    x = np.empty(grid.shape[1] + parts.shape[1], dtype)
    x.real, x.imag = np.concatenate([grid, parts], axis=1)
    a = la.asarray(x)
    for d in (-2, -1, 0, 1, 2, 3, 40):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            want = np.round(x, d)
        got = np.asarray(la.round(a, d))
        assert got.dtype == want.dtype, d
        np.testing.assert_array_equal(got.real, want.real, err_msg=f"decimals={d}")
        np.testing.assert_array_equal(got.imag, want.imag, err_msg=f"decimals={d}")


def test_round_integers(backend):
    x = np.array([15, -25, 44, 0], dtype=np.int16)
    for d in (-1, -2, -5, 0, 3):
        assert_matches(la.round(la.asarray(x), d), np.round(x, d))


@pytest.mark.parametrize("shape", [-2, (2, -2), (-5, 3), (np.int64(-1),), (6,), (1, 6, 1)],
                         ids=str)
def test_reshape_any_negative_is_the_unknown_dimension(reference_backend, shape):
    assert_matches(la.reshape(la.arange(6.0), shape), np.reshape(np.arange(6.0), shape))


@pytest.mark.parametrize("shape, error", [((-1, -1), ValueError), ((-3, -2), ValueError),
                                          ((4, 2), ValueError), ((2.0, 3), TypeError),
                                          ((True, 6), TypeError), (6.0, TypeError)], ids=str)
def test_invalid_reshape_raises_as_numpy(reference_backend, shape, error):
    with pytest.raises(error):
        np.reshape(np.arange(6.0), shape)
    with pytest.raises(error):
        la.reshape(la.arange(6.0), shape)


@pytest.mark.parametrize("x", [np.zeros((0, 3), np.float32), np.zeros(0), np.zeros((2, 0), np.int8),
                               np.array(3.5), np.array(True), np.arange(3, dtype=np.int8),
                               np.arange(2000.0)], ids=lambda x: f"{x.dtype}{x.shape}")
def test_repr_and_str_are_numpys(reference_backend, x):
    """NumPy's text (shape= for empty and summarized arrays; a 0-d array as NumPy's 0-d array,
    a scalar result as NumPy's scalar: tests/test_triggers.py)."""
    assert repr(la.asarray(x)) == repr(x)
    assert str(la.asarray(x)) == str(x)


def test_builtin_round_of_a_scalar_result_is_an_int(reference_backend):
    """round(x.sum()) is a Python int, as round(np.float64) (it was a float Array: "12.0" printed
    where NumPy's program prints "12", and an Array that range() refuses); with ndigits, and
    for larger arrays, it stays la.round."""
    xn = np.array([3.0, 1.5, 7.25])
    x = la.asarray(xn)
    for f in (lambda a: round(a.sum()), lambda a: round(a[1]), lambda a: round(a.argmax())):
        want, got = f(xn), f(x)
        assert type(got) is type(want) is int and got == want
    assert np.asarray(round(x.sum(), 1)) == round(xn.sum(), 1)
    np.testing.assert_array_equal(np.asarray(round(x)), np.round(xn))
