"""Reference implementations where NumPy's own result is undefined or platform-dependent.

NumPy leaves some integer cases to the C compiler and the CPU (float→int casts of NaN or out-of-range
values, integer reciprocal of 0, integer powers with negative exponents, which raise only at run time).
lazyarray defines them, identically on every backend:
- float → integer casts truncate toward zero. Into 8- and 16-bit integers, NumPy's C cast goes
  through a 32-bit int on every CPU it ships on: a value whose truncation fits int32 wraps modulo
  2**bits, silently (`np.float64(300).astype(uint8)` is 44, `-1.5` is 255), and anything else
  (NaN, inf, beyond int32) is 0 with 'invalid', x86-64's INT_MIN bits. Into 32- and 64-bit
  integers NaN becomes 0 and values beyond the type's range saturate to its min/max (NumPy gives
  INT_MIN or wrapped bits, depending on the platform).
- complex → real casts take the real part (NumPy, which warns; lazyarray warns at the `astype` line);
  complex → integer casts apply the float rule above to the real part.
- integer `reciprocal(0)` is 0; integer `x ** negative` is 0 except for bases 1 (→ 1) and -1 (→ ±1).
- complex `expm1` takes the Array API standard's special values where NumPy's formula multiplies an
  infinity by zero (NumPy gives NaN): a zero imaginary part gives `expm1(re) + im*j` (so
  `expm1(inf + 0j)` is `inf + 0j`, `expm1(nan + 0j)` is `nan + 0j`), and an infinite real part with
  an infinite or NaN imaginary part gives `-1 + 0j` (re = -inf) or `inf + nan*j` (re = +inf).
- integer division and remainder by zero give 0, `INT_MIN // -1` wraps to INT_MIN, shifts by a negative
  amount or by the width or more give 0 (or -1 for a right shift of a negative value): NumPy already
  defines these, and its results are the oracle.
"""

from __future__ import annotations

import numpy as np


def cast(x: np.ndarray, dtype: np.dtype) -> np.ndarray:
    if x.dtype.kind == "c" and dtype.kind in "iuf":  # NumPy: the real part (the API layer warns)
        x = np.real(x)
    if x.dtype == np.float16 and dtype.kind in "iu":  # exact in float32, whose bounds below do
        x = x.astype(np.float32)  # not overflow (NumPy's half casts go through float too)
    if x.dtype.kind == "f" and dtype.kind in "iu" and dtype.itemsize <= 2:
        return _cast_through_int32(x, dtype)
    if x.dtype.kind == "f" and dtype.kind in "iu":
        info = np.iinfo(dtype)
        # out of range once truncated (NumPy casts -0.5 to uint8 and -128.5 to int8 silently)
        out_of_range = x.size and (np.trunc(x.min()) < info.min
                                   or x.max() >= float(info.max) + 1)
        if out_of_range or not np.isfinite(x).all():  # NumPy's 'invalid value encountered in cast'
            np.asarray(np.inf, x.dtype).astype(dtype)
        with np.errstate(invalid="ignore"):
            t = np.trunc(x)
            t = np.where(np.isnan(t), 0, t)
            t = np.clip(t, float(info.min), float(info.max))
        # Clipping to e.g. 2**63-1 in float64 rounds up to 2**63: convert through the saturating branch.
        out = np.empty(x.shape, dtype)
        high = t >= float(info.max)
        out[...] = np.where(high, 0, t).astype(dtype)
        out[high] = info.max
        return out
    return x.astype(dtype)


def _cast_through_int32(x: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """A float cast into an 8- or 16-bit integer as NumPy's C loop does it: `(npy_ubyte)v` is
    compiled as a conversion to int32 and a truncation to the low bits, so `(img * 1.5).astype(
    np.uint8)` wraps (the artefact image tutorials show) with no warning; a value int32 cannot
    hold gives x86-64's INT_MIN (low bits 0) and NumPy's 'invalid value encountered in cast'."""
    with np.errstate(invalid="ignore"):
        t = np.trunc(x)
        inside = (t >= -(2.0 ** 31)) & (t < 2.0 ** 31)  # (False for NaN)
    if not inside.all():  # NumPy's 'invalid value encountered in cast'
        np.asarray(np.inf, x.dtype).astype(dtype)
    return np.where(inside, t, 0).astype(np.int64).astype(dtype)  # integer casts wrap


def reciprocal(x: np.ndarray) -> np.ndarray:
    if x.dtype.kind in "iu":
        zero = x == 0
        if zero.any():  # NumPy's own 1 / 0 for its flags, 'divide by zero' and 'invalid' (the C
            np.reciprocal(np.zeros(1, x.dtype))  # kernels raise them too; its value: below)
        safe = np.where(zero, 1, x)
        with np.errstate(all="ignore"):
            return np.where(x == 0, 0, np.reciprocal(safe)).astype(x.dtype)
    return np.reciprocal(x)


def power(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    if a.dtype.kind in "iu" and b.dtype.kind in "iu":
        a, b = np.broadcast_arrays(a, b)
        neg = b < 0 if b.dtype.kind == "i" else np.zeros(b.shape, bool)
        with np.errstate(all="ignore"):
            out = np.power(a, np.where(neg, 0, b))
        if neg.any():
            one = np.ones((), a.dtype)
            odd = (b % 2) != 0
            at_neg = np.where(a == 1, one, 0)
            if a.dtype.kind == "i":
                at_neg = np.where(a == -1, np.where(odd, -one, one), at_neg)
            out = np.where(neg, at_neg, out).astype(out.dtype)
        return out
    return np.power(a, b)


def expm1(x: np.ndarray) -> np.ndarray:
    """np.expm1, with the standard's special values for complex input (the module docstring);
    runtime/c/complex.py's `la_expmone_*` is the same rule in C and CUDA."""
    out = np.expm1(x)
    if x.dtype.kind != "c":
        return out
    out, re, im = np.array(out), x.real, x.imag  # np.array: a 0-d input gave a NumPy scalar
    flat = im == 0
    with np.errstate(all="ignore"):
        out.real[flat], out.imag[flat] = np.expm1(re[flat]), im[flat]
    edge = np.isinf(re) & ~np.isfinite(im)
    out.real[edge] = np.where(re[edge] > 0, np.inf, -1.0)
    out.imag[edge] = np.where(re[edge] > 0, np.nan, 0.0)
    return out
