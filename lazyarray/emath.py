"""la.emath (numpy.emath): square roots, logarithms, powers and inverse sines/cosines/tanh that
return complex results where the real function has none.

NumPy decides the output dtype from the *values*: `emath.sqrt(x)` is complex only if some real
element of x is negative (`arccos`/`arcsin`/`arctanh`: if some |x| > 1). A lazy Array's values are
not known when the call is made, so these functions evaluate x with that one boolean
(`any(x < 0)`, a fused reduction, in one plan) before building the result, which stays lazy. The promotion is
NumPy's `_tocomplex`: float32, int8, int16, uint8 and uint16 become complex64, every other real
dtype complex128; complex inputs are used as they are.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from . import elementwise as ew
from . import reductions as red
from .array import Array
from .creation import asarray
from .evaluation import eval as evaluate

_TO_COMPLEX64 = {np.dtype(t) for t in (np.float32, np.int8, np.int16, np.uint8, np.uint16)}


def _tocomplex(x: Array) -> Array:
    return x.astype(np.complex64 if x.dtype in _TO_COMPLEX64 else np.complex128)


def _real_and(x: Array, test: Any) -> bool:
    """NumPy's `any(isreal(x) & test(x))` for a real x (complex x: nothing to convert). A
    pending x is evaluated in the same plan as the test, so its producers run once."""
    if x.dtype.kind == "c" or x.size == 0:
        return False
    flag = red.any(test(x))
    evaluate(x, flag)
    return bool(flag)


def _fix_real_lt_zero(x: Any) -> Array:
    v = asarray(x)
    return _tocomplex(v) if _real_and(v, lambda a: a < 0) else v


def _fix_int_lt_zero(x: Any) -> Array:
    v = asarray(x)
    return v * 1.0 if _real_and(v, lambda a: a < 0) else v


def _fix_real_abs_gt_1(x: Any) -> Array:
    v = asarray(x)
    return _tocomplex(v) if _real_and(v, lambda a: ew.abs(a) > 1) else v


def sqrt(x: Any) -> Array:
    """numpy.emath.sqrt: complex where some real element is negative."""
    return ew.sqrt(_fix_real_lt_zero(x))


def log(x: Any) -> Array:
    """numpy.emath.log: complex where some real element is negative."""
    return ew.log(_fix_real_lt_zero(x))


def log10(x: Any) -> Array:
    """numpy.emath.log10: complex where some real element is negative."""
    return ew.log10(_fix_real_lt_zero(x))


def log2(x: Any) -> Array:
    """numpy.emath.log2: complex where some real element is negative."""
    return ew.log2(_fix_real_lt_zero(x))


def logn(n: Any, x: Any) -> Array:
    """numpy.emath.logn: log(x) / log(n), each complex where negative."""
    return ew.log(_fix_real_lt_zero(x)) / ew.log(_fix_real_lt_zero(n))


def power(x: Any, p: Any) -> Array:
    """numpy.emath.power: x complex where negative, an integer p float where negative."""
    return ew.power(_fix_real_lt_zero(x), _fix_int_lt_zero(p))


def arccos(x: Any) -> Array:
    """numpy.emath.arccos: complex where some real |x| > 1."""
    return ew.arccos(_fix_real_abs_gt_1(x))


def arcsin(x: Any) -> Array:
    """numpy.emath.arcsin: complex where some real |x| > 1."""
    return ew.arcsin(_fix_real_abs_gt_1(x))


def arctanh(x: Any) -> Array:
    """numpy.emath.arctanh: complex where some real |x| > 1."""
    return ew.arctanh(_fix_real_abs_gt_1(x))
