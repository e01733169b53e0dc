"""Reference implementations where NumPy's own result is undefined or platform-dependent.

NumPy leaves some integer cases to the C compiler and the CPU (float→int casts of NaN or out-of-range
values, integer reciprocal of 0, integer powers with negative exponents, which raise only at run time).
lazyarray defines them, identically on every backend:
- float → integer casts truncate toward zero. Into 8- and 16-bit integers, NumPy's C cast goes
  through a 32-bit int on every CPU it ships on: a value whose truncation fits int32 wraps modulo
  2**bits, silently (`np.float64(300).astype(uint8)` is 44, `-1.5` is 255), and anything else
  (NaN, inf, beyond int32) is 0 with 'invalid', x86-64's INT_MIN bits. Into 32- and 64-bit
  integers they are NumPy's on x86-64 (`_cast_as_x86_64`): INT_MIN with 'invalid' for NaN and
  values beyond int32/int64; unsigned ones wrap negative values silently (-1.0 is 4294967295)
  and answer 2**(bits-1) or 0 beyond (ARM's NumPy saturates instead; lazyarray follows x86-64).
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
        return _cast_as_x86_64(x, dtype)
    return x.astype(dtype)


def _cast_as_x86_64(x: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """A float cast into a 32- or 64-bit integer as NumPy's C cast gives it on x86-64 (where the
    published programs it is compared on run): `cvttsd2si` of the truncation, whose out-of-range
    answer (NaN too) is INT_MIN with 'invalid'. int32/int64: INT_MIN beyond the range. Unsigned
    (NumPy's vector loop): [2**(bits-1), 2**bits) exact, negative values down to -2**(bits-1)
    wrap silently (-1.0 is 2**bits - 1), NaN and values below are 2**(bits-1), values at or
    beyond 2**bits (inf) 0, with 'invalid'. (NumPy's uint32 loop of fewer than 4 elements goes
    through int64 instead and differs beyond int32's range.)"""
    bits = dtype.itemsize * 8
    half = 2.0 ** (bits - 1)
    signed = np.dtype(f"int{bits}")
    with np.errstate(invalid="ignore"):
        t = np.trunc(x)
        if dtype.kind == "i":
            inside = (t >= -half) & (t < half)
            out = np.where(inside, t, 0).astype(dtype)
            out[~inside] = np.iinfo(dtype).min
        else:
            high, inside = t >= half, (t >= -half) & (t < 2 * half)
            low = np.where(inside & ~high, t, 0).astype(signed).astype(dtype)  # (wraps)
            top = np.where(inside & high, t - half, 0).astype(signed).astype(dtype)
            top ^= dtype.type(2 ** (bits - 1))
            out = np.where(high, np.where(inside, top, 0), np.where(inside, low, 2 ** (bits - 1)))
            out = out.astype(dtype)
    if not inside.all():  # NumPy's 'invalid value encountered in cast'
        np.asarray(np.inf, x.dtype).astype(dtype)
    return out


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
        # 1 / 0's inf cast as NumPy's on x86-64: INT_MIN into int32/int64, 0 into narrower and
        # unsigned types (probe54: 0 for every type), as astype's casts (docs/semantics.md)
        at_zero = np.iinfo(x.dtype).min if x.dtype.kind == "i" and x.dtype.itemsize >= 4 else 0
        with np.errstate(all="ignore"):
            return np.where(x == 0, at_zero, np.reciprocal(safe)).astype(x.dtype)
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
