"""NumPy's polynomial basics: `polyval`, `polyfit`, `vander`, `poly1d`.

`polyval` is Horner's rule as NumPy writes it (`y = y * x + p[i]` from `zeros_like(x)`), lazy
in x and p. `vander` multiplies up (a cumulative product, as NumPy's `multiply.accumulate`).
`polyfit` is NumPy's column-scaled least squares, lazy through `la.linalg.lstsq`; NumPy's
RankWarning needs the rank, so the fit is evaluated with it when a warning could be due;
`cov=True`/`'unscaled'` is NumPy's covariance of the coefficients.
`poly1d` is NumPy's class over host coefficients (its leading-zero trimming reads values: Array
coefficients are evaluated); calling it on an Array is `polyval`, lazy.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from . import elementwise as ew
from . import manipulation as mp
from . import reductions as red
from .array import Array
from .creation import asarray, host_result, ones, zeros_like
from .evaluation import eval as evaluate
from .linalg import inv, lstsq


def polyval(p: Any, x: Any) -> Any:
    """numpy.polyval: Horner's rule from zeros_like(x), NumPy's operation order."""
    if isinstance(p, np.poly1d):
        p = p.coeffs
    coeffs = asarray(p)
    if isinstance(x, np.poly1d):
        return np.polyval(np.asarray(coeffs), x)
    xv = asarray(x)
    y = zeros_like(xv)
    for i in range(coeffs.shape[0] if coeffs.ndim else 1):
        y = y * xv + (coeffs[i] if coeffs.ndim else coeffs)
    return y


def vander(x: Any, N: int | None = None, increasing: bool = False) -> Array:  # noqa: N803
    """numpy.vander: columns x**(N-1) ... x**0 (increasing: reversed), by repeated products."""
    xv = asarray(x)
    if xv.ndim != 1:
        raise ValueError("x must be a one-dimensional array or sequence.")
    n = xv.shape[0] if N is None else int(N)
    dt = np.promote_types(xv.dtype, int)  # NumPy's buffer dtype (float32 x: float64)
    if n == 0:
        return asarray(np.empty((xv.shape[0], 0), dt))
    one = ones((xv.shape[0], 1), dtype=dt)
    if n <= _PRODUCT_COLUMNS:  # x, x*x, (x*x)*x...: cumprod's products in its order, each
        # column picked by its index: one kernel writes the matrix (no concat, no flip)
        xd = xv[:, None].astype(dt)
        power = asarray(np.arange(n)[None, :] if increasing else np.arange(n - 1, -1, -1)[None, :])
        out, column = ew.where(power == 0, one, xd), xd  # (1 * x is x: cumprod's first product)
        for k in range(2, n):
            column = column * xd
            out = ew.where(power == k, column, out)
        return out
    else:
        cols = mp.concat([one, mp.broadcast_to(xv[:, None], (xv.shape[0], n - 1)).astype(dt)],
                         axis=1)
        out = red.cumprod(cols, axis=1)
    return out if increasing else mp.flip(out, axis=1)


# vander's columns as products up to this many (polyfit's degrees): a cumprod along rows of
# 2 values was NumPy's accumulate loop per row (moores_law's (100000, 2): ~4 ms, its fit ~1)
_PRODUCT_COLUMNS = 16


def polyfit(x: Any, y: Any, deg: int, rcond: float | None = None, full: bool = False,
            w: Any = None, cov: Any = False) -> Any:
    """numpy.polyfit (least squares on the column-scaled Vandermonde matrix, NumPy's steps)."""
    order = int(deg) + 1
    xv, yv = asarray(x) + 0.0, asarray(y) + 0.0
    if deg < 0:
        raise ValueError("expected deg >= 0")
    if xv.ndim != 1:
        raise TypeError("expected 1D vector for x")
    if xv.size == 0:
        raise TypeError("expected non-empty vector for x")
    if yv.ndim < 1 or yv.ndim > 2:
        raise TypeError("expected 1D or 2D array for y")
    if xv.shape[0] != yv.shape[0]:
        raise TypeError("expected x and y to have same length")
    if rcond is None:
        rcond = len(xv) * np.finfo(xv.dtype).eps
    lhs, rhs = vander(xv, order), yv
    if w is not None:
        wv = asarray(w) + 0.0
        if wv.ndim != 1:
            raise TypeError("expected a 1-d array for weights")
        if wv.shape[0] != yv.shape[0]:
            raise TypeError("expected w and y to have the same length")
        lhs = lhs * wv[:, None]
        # NumPy's `rhs *= w`: the product is rounded back to y's dtype (float32 y: float32)
        rhs = (rhs * (wv if rhs.ndim == 1 else wv[:, None])).astype(rhs.dtype)
    evaluate(lhs, rhs)  # (read by the scale and by lstsq: computed once, not by each)
    scale = ew.sqrt(red.sum(lhs * lhs, axis=0))
    lhs = lhs / scale

    c, resids, rank, s = lstsq(lhs, rhs, rcond)
    c = c / (scale if c.ndim == 1 else scale[:, None])  # NumPy's (c.T / scale).T
    evaluate(c, rank)
    if int(rank) != order and not full:
        warnings.warn("Polyfit may be poorly conditioned", np.exceptions.RankWarning,
                      stacklevel=2)
    if full:
        return c, resids, rank, s, rcond
    if cov:  # NumPy's: the scaled normal matrix's inverse, times the residual variance
        base = inv(lhs.T @ lhs) / (scale[:, None] * scale[None, :])
        if cov == "unscaled":
            return c, base
        if len(xv) <= order:
            raise ValueError("the number of data points must exceed order to scale the "
                             "covariance matrix")
        fac = resids / (len(xv) - order)
        return c, base * fac if yv.ndim == 1 else base[:, :, None] * fac
    return c


class poly1d(np.poly1d):  # noqa: N801  (NumPy's name)
    """numpy.poly1d over host coefficients (Array coefficients are evaluated: NumPy trims
    leading zeros, which reads values). `p(x)` for an Array x is la.polyval, lazy."""

    def __init__(self, c_or_r: Any, r: bool = False, variable: str | None = None) -> None:
        if isinstance(c_or_r, Array):
            c_or_r = np.asarray(c_or_r)
        super().__init__(c_or_r, r, variable)

    def __call__(self, val: Any) -> Any:
        if isinstance(val, np.poly1d):
            return super().__call__(val)
        return polyval(self.coeffs, val)


def _host_poly(fn: Any, *args: Any) -> Any:
    """NumPy's coefficient arithmetic on a few host numbers (Array coefficients are evaluated);
    arrays come back as Arrays, poly1d stays poly1d."""
    out = fn(*(np.asarray(a) if isinstance(a, Array) else a for a in args))
    if isinstance(out, tuple):
        return tuple(_hosted(o) for o in out)
    return _hosted(out)


def _hosted(value: Any) -> Any:
    """NumPy's result as NumPy gives it: an array as an Array, its scalar as an Array standing
    for it, a Python number (`np.poly([])` is 1.0: a 0-d array here, fuzz57) and poly1d as
    they are."""
    if isinstance(value, (np.poly1d, bool, int, float, complex)):
        return value
    return host_result(value) if isinstance(value, np.generic) else asarray(value)


def poly(seq_of_zeros: Any) -> Any:
    """numpy.poly: coefficients from roots (or a matrix's characteristic polynomial)."""
    return _host_poly(np.poly, seq_of_zeros)


def roots(p: Any) -> Array:
    """numpy.roots: the companion matrix's eigenvalues (NumPy's, on the host)."""
    return _host_poly(np.roots, p)


def polyadd(a1: Any, a2: Any) -> Any:
    """numpy.polyadd."""
    return _host_poly(np.polyadd, a1, a2)


def polysub(a1: Any, a2: Any) -> Any:
    """numpy.polysub."""
    return _host_poly(np.polysub, a1, a2)


def polymul(a1: Any, a2: Any) -> Any:
    """numpy.polymul."""
    return _host_poly(np.polymul, a1, a2)


def polydiv(u: Any, v: Any) -> Any:
    """numpy.polydiv: (quotient, remainder)."""
    return _host_poly(np.polydiv, u, v)


def polyder(p: Any, m: int = 1) -> Any:
    """numpy.polyder."""
    return _host_poly(np.polyder, p, m)


def polyint(p: Any, m: int = 1, k: Any = None) -> Any:
    """numpy.polyint."""
    return _host_poly(np.polyint, p, m, k)
