"""NumPy elementwise functions outside the Array API, as exact compositions of registered ops
(each fuses like any other expression): the formula is NumPy's own where NumPy defines one."""

from __future__ import annotations

import builtins
import cmath
from collections.abc import Callable
from typing import Any

import numpy as np

from . import _bind, elementwise as ew
from .array import Array
from .elementwise import arctan2, asarray_operand
from .graph import dtypes
from .graph.node import Node, user_site
from .creation import asarray, full
from .graph.ops_unchecked import DIVMOD_FLOOR, DIVMOD_REM, FLOAT_POWER, LDEXP, out_cast
from .complex_functions import imag, real
from .outputs import into
from .reductions import all as all_


def _array(x: Any) -> Array:
    return x if isinstance(x, Array) else asarray_operand(x)  # 2**63 alone is uint64, as NumPy


def _loop_dtype(ufunc: np.ufunc, *operands: Any) -> np.dtype:
    """The output dtype of NumPy's loop for these operands (Python scalars weak); TypeError where
    NumPy has no loop."""
    if all(type(o) in (bool, int, float, complex) for o in operands):
        # only Python numbers: NumPy makes them arrays of their default dtypes first (no weak
        # promotion: np.ldexp(3, 2) is float64, where ldexp(3, int8s) is float16's loop)
        spec = tuple(np.asarray(o).dtype for o in operands)
    else:
        spec = tuple(np.dtype(bool) if isinstance(o, bool)
                     else dtypes.weak_type_of(o) if dtypes.weak_type_of(o) in (int, float)
                     else o.dtype if isinstance(o, (Array, np.generic, np.ndarray)) else
                     _array(o).dtype for o in operands)  # (weak: jit's traced scalars too)
    try:
        out = ufunc.resolve_dtypes(spec + (None,) * ufunc.nout)[-1]
    except TypeError as exc:
        raise TypeError(f"{ufunc.__name__}: {exc}") from None
    return np.dtype(out)


def _as(x: Any, dtype: np.dtype) -> Array:
    if type(x) in (bool, int, float):  # a Python scalar straight into the dtype (2**63 too)

        return full((), x, dtype)
    return ew.astype(_array(x), dtype)


def _half_loop(ufunc: np.ufunc, x: Any, formula: Callable[[Array], Array]) -> Array:
    """`formula` on x in its loop's dtype; NumPy's float16 loop of `ufunc` computes it in float32
    and rounds once to float16, its report named after the ufunc."""
    dt = np.dtype(_loop_dtype(ufunc, x))
    if dt != np.float16:
        return formula(_as(x, dt))
    r = formula(_as(x, np.float32))
    return Array(_bind.primitive(out_cast(ufunc.__name__), (r._node,), (), r.shape, dt,
                                 user_site(2)))


def deg2rad(x: Any) -> Array:
    """numpy.deg2rad: x * (pi / 180), NumPy's formula."""
    return _half_loop(np.deg2rad, x, _times_pi_over_180)


def radians(x: Any) -> Array:
    """numpy.radians: deg2rad under its own name (float16's reports name it)."""
    return _half_loop(np.radians, x, _times_pi_over_180)


def _times_pi_over_180(v: Array) -> Array:
    return v * (np.pi / 180.0)


def _times_180_over_pi(v: Array) -> Array:
    """Its constant in the loop's dtype (float32: 180f / pi_f, 57.295776; 180 / pi rounded to
    float32, 57.29578, gave 80% of float32 values 1 ulp off NumPy's, fuzz44)."""
    t = v.dtype.type
    return v * (t(180) / t(np.pi))


def rad2deg(x: Any) -> Array:
    """numpy.rad2deg: x * (180 / pi), NumPy's formula."""
    return _half_loop(np.rad2deg, x, _times_180_over_pi)


def degrees(x: Any) -> Array:
    """numpy.degrees: rad2deg under its own name."""
    return _half_loop(np.degrees, x, _times_180_over_pi)


def heaviside(x1: Any, x2: Any) -> Array:
    """numpy.heaviside: 0 below zero, x2 at zero, 1 above, NaN for NaN."""
    dt = _loop_dtype(np.heaviside, x1, x2)
    x, h = _as(x1, dt), _as(x2, dt)
    return ew.where(ew.isnan(x), x, ew.where(x < 0, _as(0, dt), ew.where(x > 0, _as(1, dt), h)))


def float_power(x1: Any, x2: Any) -> Array:
    """numpy.float_power: power computed in float64 (complex128 for complex inputs)."""
    kinds = {np.result_type(v).kind if type(v) in (bool, int, float, complex)
             else _array(v).dtype.kind for v in (x1, x2)}
    wide = np.dtype(np.complex128 if "c" in kinds else np.float64)
    if wide.kind == "c":
        return ew.power(_as(x1, wide), _as(x2, wide))
    # (not np.power's fast paths: float_power is C's pow, `(-inf) ** 0.5` inf; fuzz48)
    return Array(_bind.elementwise(FLOAT_POWER, _as(x1, wide), _as(x2, wide), site=user_site(1)))


def modf(x: Any) -> tuple[Array, Array]:
    """numpy.modf: (fractional part, integral part), both with x's sign; inf -> (+-0, inf)."""
    v = _as(x, _loop_dtype(np.modf, x))
    whole = ew.trunc(v)
    finite = ew.where(ew.isinf(v), 0.0, v)  # (inf - inf raised 'invalid', NumPy's modf not: fuzz44)
    return ew.copysign(finite - ew.trunc(finite), v), whole


def divmod(x1: Any, x2: Any) -> tuple[Array, Array]:  # noqa: A001
    """numpy.divmod: (floor_divide, remainder) as the twins of graph/ops_unchecked.py, which
    raise both outputs' flags as NumPy's one loop does: `divmod(a, 0.0)[1]` warned only
    'invalid' here, NumPy 'divide by zero' too (fuzz45, seed 610026)."""
    site = user_site(1)
    try:
        quotient = _bind.elementwise(DIVMOD_FLOOR, x1, x2, site=site)
    except TypeError:  # (its text names floor_divide: NumPy's names divmod)
        raise _numpy_error(np.divmod, x1, x2, site) from None
    q = Array(quotient)  # (computed here when the at-once rule takes it: its report is made)
    return q, Array(Node(DIVMOD_REM, (*quotient.inputs, q._node), (), quotient.shape,
                         quotient.dtype, None, site))


def ldexp(x1: Any, x2: Any) -> Array:
    """numpy.ldexp: x1 * 2**x2 for an integer x2, one rounding (graph/ops_unchecked.py `LDEXP`);
    0, inf and NaN pass through."""
    site = user_site(1)
    if type(x2) is int:  # weak: it must fit the exponent type of NumPy's loop (int32 mostly)
        _check_exponent(x1, x2, site)
    n = _array(x2)
    if n.dtype.kind not in "iub":
        raise _numpy_error(np.ldexp, x1, x2, site)
    try:
        loop = _loop_dtype(np.ldexp, x1, x2 if type(x2) in (bool, int) else n)
    except TypeError:  # (uint64 exponents, complex x1: NumPy's own text)
        raise _numpy_error(np.ldexp, x1, x2, site) from None
    x = _as(x1, loop)
    n = ew.astype(ew.clip(n, -2200, 2200), np.int64)  # (saturates every float: C's int fits it)
    return Array(_bind.elementwise(LDEXP, x, n, site=site))


def _numpy_error(ufunc: np.ufunc, x1: Any, x2: Any, site: _bind.Site) -> Exception:
    """NumPy's own TypeError for a ufunc with no loop for these operands (its type and text:
    `ufunc 'divmod' not supported for the input types, ...`), from empty stand-ins of their
    dtypes (a Python scalar stays itself: NEP 50's weak rule); fuzz54's left class."""
    def stand_in(v: Any) -> Any:
        if type(v) in (bool, int, float, complex):
            return v
        return np.zeros(0, v.dtype if isinstance(v, Array) else np.asarray(v).dtype)
    try:
        ufunc(stand_in(x1), stand_in(x2))
    except TypeError as exc:
        return _bind.with_site(exc, site)
    return _bind.fail(TypeError, f"ufunc '{ufunc.__name__}' not supported for the input types",
                      site)


def _check_exponent(x1: Any, x2: int, site: _bind.Site) -> None:
    x_type = dtypes.weak_type_of(x1) or _array(x1).dtype
    try:
        slot = np.ldexp.resolve_dtypes((x_type, int, None))[1]
    except TypeError:
        return  # no loop for x1: the TypeError comes below
    info = np.iinfo(slot)
    if not info.min <= x2 <= info.max:
        raise _bind.fail(OverflowError, f"Python integer {x2} out of bounds for {slot}", site)


def sinc(x: Any) -> Array:
    """numpy.sinc, NumPy 2.4's formula: x = pi * x; y = where(x, x, eps of x's dtype) (1e-20
    for others); sin(y) / y (its 1e-20 was 0 in float16: sinc(0) NaN)."""
    y = np.pi * _array(x)
    eps = np.finfo(y.dtype).eps if y.dtype.kind == "f" else 1e-20
    y = ew.where(y != 0, y, eps)
    return ew.sin(y) / y


def nan_to_num(x: Any, copy: bool = True, nan: float = 0.0, posinf: float | None = None,
               neginf: float | None = None) -> Array:
    """numpy.nan_to_num: NaN -> nan, +inf -> posinf (the dtype's max), -inf -> neginf (its min).
    The result is a new array (NumPy's scalar for a 0-d x), also for integers; `copy=False`
    writes into x and returns it, as NumPy's (_nan_to_num_in_place)."""
    if copy is False or copy is None and isinstance(x, np.ndarray):
        return _nan_to_num_in_place(x, nan, posinf, neginf)
    v = _array(x)
    if v.dtype.kind not in "fc":
        return ew.integer_copy(v)
    if v.dtype.kind == "c":
        parts = (nan_to_num(p, nan=nan, posinf=posinf, neginf=neginf) for p in (real(v), imag(v)))
        re, im = parts
        return ew.astype(re, v.dtype) + ew.astype(im, v.dtype) * 1j
    info = np.finfo(v.dtype)
    hi = float(info.max) if posinf is None else posinf
    lo = float(info.min) if neginf is None else neginf
    out = ew.where(ew.isnan(v), nan, v)
    return ew.astype(ew.where(ew.isinf(v), ew.where(v > 0, hi, lo), out), v.dtype)


def _nan_to_num_in_place(x: Any, nan: float, posinf: float | None, neginf: float | None) -> Any:
    """nan_to_num(x, copy=False): x's NaN and infinities replaced in x itself, x returned (its
    scalar where 0-d), as NumPy's; it had left x alone (probe55). An ndarray is NumPy's own
    work; anything else that is no array is NumPy's ValueError (its `array(x, copy=False)`)."""
    if not isinstance(x, Array) or (x._view is False and not x.ndim):  # (NumPy's scalar: its
        host = np.asarray(x)[()] if isinstance(x, Array) else x  # ValueError, no copy to avoid)
        return np.nan_to_num(host, copy=False, nan=nan, posinf=posinf, neginf=neginf)
    if x.dtype.kind in "fc":
        x[...] = nan_to_num(x, nan=nan, posinf=posinf, neginf=neginf)
    return x if x.ndim else ew.integer_copy(x)


def fabs(x: Any) -> Array:
    """numpy.fabs: absolute value as a float (no complex loop)."""
    return ew.abs(_as(x, _loop_dtype(np.fabs, x)))


def fix(x: Any, out: Any = None) -> Any:
    """numpy.fix: round toward zero, keeping the dtype; `out=` as NumPy's (its trunc's)."""
    return ew.trunc(_array(x)) if out is None else ew.KEYWORD_FUNCTIONS["trunc"](x, out=out)


def isposinf(x: Any, out: Any = None) -> Array:
    """numpy.isposinf; NumPy's `out=` (its logical_and's: a TypeError here before fuzz56)."""
    v = _not_complex(_array(x))
    return _written(out, ew.isinf(v) & (v > 0), np.isposinf, x)


def isneginf(x: Any, out: Any = None) -> Array:
    """numpy.isneginf; NumPy's `out=`."""
    v = _not_complex(_array(x))
    return _written(out, ew.isinf(v) & (v < 0), np.isneginf, x)


def _not_complex(v: Array) -> Array:
    """NumPy's isposinf/isneginf refuse complex values (the sign of an infinite part is
    ambiguous); here the complex order answered (fuzz57)."""
    if v.dtype.kind == "c":
        raise _bind.fail(TypeError, f"This operation is not supported for {v.dtype} values "
                         "because it would be ambiguous.", user_site(2))
    return v


def _written(out: Any, result: Array, numpy_fn: Any, x: Any) -> Any:
    return result if out is None else into(out, result, numpy_fn, (x,), {}, user_site(2))


def _nan_ignoring(select: Any, ufunc: np.ufunc, x1: Any, x2: Any) -> Array:
    m = select(x1, x2)  # NumPy's promotion, and its OverflowError for an out-of-range Python int
    if m.dtype.kind not in "fc":
        return m
    a, b = _as(x1, m.dtype), _as(x2, m.dtype)
    return ew.where(ew.isnan(a), b, ew.where(ew.isnan(b), a, m))


def fmax(x1: Any, x2: Any) -> Array:
    """numpy.fmax: the maximum, ignoring a NaN beside a number."""
    return _nan_ignoring(ew.maximum, np.fmax, x1, x2)


def fmin(x1: Any, x2: Any) -> Array:
    """numpy.fmin: the minimum, ignoring a NaN beside a number."""
    return _nan_ignoring(ew.minimum, np.fmin, x1, x2)


def _as_any_array(v: Any) -> Array:
    """np.asanyarray(v): a Python scalar gets its default dtype (int64, float64), la.jit's traced
    scalar argument too (a 0-d run-time scalar; converting it now would raise)."""
    traced = getattr(v, "_lazyarray_weak_type", None)
    if traced is not None:
        return full((), v, dtype=dtypes.result_type(traced))
    return asarray(v)


def isclose(a: Any, b: Any, rtol: float = 1e-05, atol: float = 1e-08,
            equal_nan: bool = False) -> Array:
    """numpy.isclose: |a - b| <= atol + rtol * |b|, infinities equal only to themselves.
    NumPy's own formula and conversions: a Python scalar `a` stays weak (`isclose(1, f32)`
    computes in float32), a Python int `b` becomes a float (2**64 too; 2**1100 overflows)."""
    x, y = (v if type(v) in (bool, int, float, complex) else _as_any_array(v) for v in (a, b))
    if isinstance(y, Array):
        y = ew.astype(y, np.result_type(y.dtype, 1.0))
    elif type(y) in (bool, int):
        y = float(y)
    # NumPy computes this under errstate(invalid='ignore'): `inf - inf` of its infinities never
    # warns. Here the difference of a non-finite pair is never taken (0 in an Array operand's
    # place; a non-finite scalar is close only to itself). Scalars stay weak.
    scalars = [v for v in (x, y) if not isinstance(v, Array)]
    arrays = [v for v in (x, y) if isinstance(v, Array)]
    if any(type(v) in (float, complex) and not cmath.isfinite(v) for v in scalars):
        close = ew.equal(x, y)
    elif arrays:
        finite = ew.isfinite(arrays[0]) if len(arrays) == 1 else (
            ew.isfinite(arrays[0]) & ew.isfinite(arrays[1]))
        xs, ys = (ew.where(finite, v, 0) if isinstance(v, Array) else v for v in (x, y))
        close = (ew.abs(ew.subtract(xs, ys)) <= atol + rtol * ew.abs(y)) & finite | (
            ew.equal(x, y))
    else:
        close = (ew.abs(ew.subtract(x, y)) <= atol + rtol * ew.abs(y)) & ew.isfinite(y) | (
            ew.equal(x, y))
    if equal_nan:
        close = close | (ew.isnan(x) & ew.isnan(y))
    return close


def allclose(a: Any, b: Any, rtol: float = 1e-05, atol: float = 1e-08,
             equal_nan: bool = False) -> bool:
    """numpy.allclose: evaluates, returns a Python bool."""
    return builtins.bool(all_(isclose(a, b, rtol, atol, equal_nan)))


def array_equal(a1: Any, a2: Any, equal_nan: bool = False) -> bool:
    """numpy.array_equal: same shape and elements; evaluates, returns a Python bool."""
    x, y = _array(a1), _array(a2)
    if x.shape != y.shape:
        return False
    same = x == y
    if equal_nan and np.result_type(x.dtype, y.dtype).kind in "fc":
        same = same | (ew.isnan(x) & ew.isnan(y))
    return builtins.bool(all_(same))


def array_equiv(a1: Any, a2: Any) -> bool:
    """numpy.array_equiv: equal after broadcasting; False when the shapes do not broadcast."""
    x, y = _array(a1), _array(a2)
    try:
        np.broadcast_shapes(x.shape, y.shape)
    except ValueError:
        return False
    return builtins.bool(all_(x == y))


def angle(z: Any, deg: bool = False) -> Array:
    """The argument of each complex number in (-pi, pi] (NumPy `angle`), in NumPy's dtype."""
    site = user_site(1)
    node = _bind.operand(z, site)
    if not isinstance(node, _bind.Node):
        node = _bind.scalar_leaf(node[1], dtypes.result_type(node[0]), site)
    x = Array(node)
    if node.dtype.kind in "iub":  # NumPy's arctan2(0, x) loop: float64 for bool, int32, int64;
        # float16 for int8/uint8 ...
        x = x.astype(_loop_dtype(np.arctan2, 0, x))
    out = arctan2(imag(x), real(x))
    return out * (180.0 / 3.141592653589793) if deg else out
