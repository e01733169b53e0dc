"""Python operators between an Array and a scalar (Python or NumPy; NEP 50: Python scalars are weak)
against NumPy's operators on an ndarray: result dtype, values, and the exception raised — for the
whole arithmetic family on bool, small integer and float dtypes. NumPy's operators have their own
rules beside the ufuncs': `bool_array ** 2` is `np.square` (int8), and integers to negative
integer powers raise ValueError."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import lazyarray as la

_OPS = ("__pow__", "__rpow__", "__truediv__", "__rtruediv__", "__floordiv__", "__rfloordiv__",
        "__mod__", "__rmod__", "__add__", "__sub__", "__rsub__", "__mul__", "__and__",
        "__lshift__", "__rshift__", "__lt__", "__eq__", "__ge__")
_SCALARS = (2, 2.0, -1, 0, 1, 3, True, np.int8(2), np.float32(2), np.int64(-3), np.uint8(2),
            np.bool_(True), -2.5, 0.5, 300, 2**63)


def _outcome(fn):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return np.asarray(fn())
        except Exception as exc:  # noqa: BLE001  (the type is what is compared)
            return exc


@pytest.mark.parametrize("dtype", ["bool", "int8", "uint8", "int16", "uint64", "float32"])
def test_operators_with_scalars_match_numpy(reference_backend, dtype):
    x = np.array([1, 0, 1, 3]).astype(dtype)
    for op in _OPS:
        for s in _SCALARS:
            want = _outcome(lambda: getattr(x, op)(s))
            if want is NotImplemented or (isinstance(want, np.ndarray) and want.dtype == object):
                continue
            got = _outcome(lambda: getattr(la.asarray(x), op)(s))
            case = (dtype, op, s)
            if isinstance(want, Exception):
                assert isinstance(got, type(want)), case
                continue
            assert isinstance(got, np.ndarray), (case, got)
            assert got.dtype == want.dtype, case
            np.testing.assert_array_equal(got, want, err_msg=str(case))


def test_bool_square_and_negative_integer_powers(backend):
    b = np.array([True, False])
    assert (la.asarray(b) ** 2).dtype == np.int8 == (b ** 2).dtype
    np.testing.assert_array_equal(np.asarray(la.asarray(b) ** 2), b ** 2)
    assert la.power(la.asarray(b), 2).dtype == np.power(b, 2).dtype == np.int64
    with pytest.raises(ValueError, match="negative integer powers"):
        la.asarray(np.arange(3)) ** -1
    with pytest.raises(ValueError, match="negative integer powers"):
        la.power(la.asarray(np.arange(3, dtype=np.uint8)), np.int8(-2))
    np.testing.assert_array_equal(np.asarray(la.asarray(np.arange(1, 3)) ** -1.0), [1.0, 0.5])
