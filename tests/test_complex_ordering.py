"""NumPy's order of complex numbers (lazyarray/complex_ordering.py): comparisons, maximum/
minimum/fmax/fmin, clip, the max/min/argmax/argmin/ptp reductions over every axis choice, with
NaNs (in either part), infinities and ties in the real part, against NumPy on every backend, at
the default and on the general path. They raised TypeError before stop 56 (the Array API leaves
complex ordering undefined; NumPy defines it lexicographically)."""

import warnings

import numpy as np
import pytest

import lazyarray as la
from together import compile_together

_COMPILED: dict = {}

_VALUES = np.array([1 + 2j, 3 - 1j, 3 + 0j, -1 + 5j, 3 + 4j, np.nan + 0j, 2 + 2j, complex(1, np.nan),
                    complex(np.inf, 1), complex(-np.inf, -np.inf), 0j, complex(3, -np.inf)])


def _data(seed: int, shape: tuple[int, ...], nans: bool, dtype) -> np.ndarray:
    rng = np.random.default_rng(seed)
    pool = _VALUES if nans else _VALUES[~np.isnan(_VALUES)]
    return rng.choice(pool, size=shape).astype(dtype)


COMPARISONS = 6  # the first six calls
CALLS = [
    lambda m, a, b: a > b, lambda m, a, b: a >= b, lambda m, a, b: a < b,
    lambda m, a, b: m.less_equal(a, b), lambda m, a, b: a > 1, lambda m, a, b: 2 + 2j <= a,
    lambda m, a, b: m.maximum(a, b), lambda m, a, b: m.minimum(a, b), lambda m, a, b: m.fmax(a, b),
    lambda m, a, b: m.fmin(a, 3 + 0j), lambda m, a, b: m.clip(a, 0, 3 + 1j),
    lambda m, a, b: m.max(a), lambda m, a, b: a.min(), lambda m, a, b: m.argmax(a),
    lambda m, a, b: m.argmin(a), lambda m, a, b: m.ptp(a),
    lambda m, a, b: m.max(a, axis=0), lambda m, a, b: m.min(a, axis=-1, keepdims=True),
    lambda m, a, b: m.max(a, axis=(0, 2)), lambda m, a, b: m.argmax(a, axis=1),
    lambda m, a, b: m.argmin(a, axis=2, keepdims=True), lambda m, a, b: m.amax(b, axis=1),
]


def _cases(nans: bool) -> list:
    return [(_data(seed, (3, 4, 5), nans, dtype), _data(seed + 10, (3, 4, 5), nans, dtype))
            for seed, dtype in ((0, np.complex128), (1, np.complex64))]


@pytest.mark.xdist_group("test_complex_order_is_numpys")
@pytest.mark.parametrize("eager_size", [  # the general path on C: ~70 kernels, ~12 s of gcc
    pytest.param(0, marks=pytest.mark.exhaustive_on("c")), 4096])
@pytest.mark.parametrize("nans", [False, True])
def test_complex_order_is_numpys(backend, eager_size, nans):
    with la.config(eager_size=eager_size), warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (the kernels of every case in one unit: tests/together.py)
        compile_together(_COMPILED, (backend, eager_size, nans), [
            lambda x=x, y=y, call=call: call(la, la.asarray(x), la.asarray(y))
            for x, y in _cases(nans) for call in CALLS])
    for x, y in _cases(nans):
        dtype = x.dtype
        with la.config(eager_size=eager_size):
            for k, call in enumerate(CALLS):
                with warnings.catch_warnings():
                    # NumPy's comparison loops warn 'invalid value' where a real part is NaN
                    # (C's ordered `>`); the composites do not (docs/semantics.md): values only
                    warnings.simplefilter("ignore" if k < COMPARISONS else "error")
                    want_raw = call(np, x, y)
                    got_raw = call(la, la.asarray(x), la.asarray(y))
                    want, got = np.asarray(want_raw), np.asarray(got_raw)
                if not want.shape:  # NumPy's scalar, not a 0-d array (`np.argmax(z)` was one)
                    assert repr(got_raw) == repr(want_raw), k
                assert got.dtype == want.dtype and got.shape == want.shape, (k, dtype)
                np.testing.assert_array_equal(got, want, err_msg=f"call {k}, {dtype}")
