"""NumPy's histograms and `interp`, following NumPy's own algorithms step for step.

The bin edges are a few numbers computed on the host by NumPy's rules (`np.linspace` over the
outer edges, the empty-range widening, the finiteness checks); where they depend on the data
(`range=None`, or a string estimator such as 'auto'), the data's min and max (or, for an
estimator, the data) are evaluated first, so NumPy's errors ("autodetected range ... is not
finite") come at the user's line. The counting is lazy and fused: NumPy's uniform-bin index
formula with its two one-ulp corrections, then a scatter-add (bincount's sums in order); explicit
edges go through a sort and a searchsorted, as NumPy's cumulative path.
"""

from __future__ import annotations

import builtins
import operator
import warnings
from typing import Any

import numpy as np

from . import elementwise as ew, host_now
from . import manipulation as mp
from . import reductions as red
from ._bind import fail
from .array import Array
from .graph.node import user_site
from .complex_functions import imag, real
from .creation import asarray, zeros
from .searching import argsort, searchsorted, sort


def _outer_edges(a: Array, range: Any) -> tuple[Any, Any]:  # noqa: A002  (NumPy's name)
    """numpy's _get_outer_edges: the same Python/NumPy scalars, so promotion below is NumPy's."""
    if range is not None:
        first, last = range
        if first > last:
            raise ValueError("max must be larger than min in range parameter.")
        if not (np.isfinite(first) and np.isfinite(last)):
            raise ValueError(f"supplied range of [{first}, {last}] is not finite")
    elif a.size == 0:
        first, last = 0, 1
    else:
        lo, hi = red.min(a), red.max(a)
        first, last = np.asarray(lo)[()], np.asarray(hi)[()]
        if not (np.isfinite(first) and np.isfinite(last)):
            raise ValueError(f"autodetected range of [{first}, {last}] is not finite")
    if first == last:
        first, last = first - 0.5, last + 0.5
    return first, last


def _unsigned_subtract(a: Any, b: Any) -> Any:
    """NumPy's: integer differences in the unsigned type of the same width (no overflow)."""
    dt = np.result_type(a, b)
    if dt.kind == "i":  # as NumPy: the operands in dt first (a negative Python int included)
        return np.subtract(np.asarray(a, dtype=dt), np.asarray(b, dtype=dt), casting="unsafe",
                           dtype=np.dtype(dt.str.replace("i", "u")))
    return np.subtract(a, b, dtype=dt)


def _bin_edges(a: Array, bins: Any, range: Any, weights: Any) -> tuple[np.ndarray, Any]:  # noqa: A002
    """(edges on the host, (first, last, n) for equal bins or None) as numpy's _get_bin_edges."""
    if isinstance(bins, str):
        edges = np.histogram_bin_edges(np.asarray(a), bins, range,
                                       None if weights is None else np.asarray(weights))
        first, last = _outer_edges(a, range)
        return edges, (first, last, len(edges) - 1)
    if np.ndim(bins) == 0:
        try:
            n = operator.index(bins)
        except TypeError as exc:
            raise TypeError("`bins` must be an integer, a string, or an array") from exc
        if n < 1:
            raise ValueError("`bins` must be positive, when an integer")
        first, last = _outer_edges(a, range)
        kind = np.result_type(first, last, np.empty(0, a.dtype))
        if kind.kind in "iub":
            kind = np.result_type(kind, float)
        return np.linspace(first, last, n + 1, endpoint=True, dtype=kind), (first, last, n)
    if np.ndim(bins) == 1:
        edges = np.asarray(bins)
        if np.any(edges[:-1] > edges[1:]):
            raise ValueError("`bins` must increase monotonically, when an array")
        return edges, None
    raise ValueError("`bins` must be 1d, when an array")


def _flat(a: Any, weights: Any) -> tuple[Array, Array | None]:
    x = mp.ravel(asarray(a))
    if x.dtype.kind == "b":  # NumPy's _ravel_and_check_weights: bools bin as uint8, and it warns
        warnings.warn("Converting input from bool to <class 'numpy.uint8'> for compatibility.",
                      RuntimeWarning, stacklevel=3)
        x = ew.astype(x, np.uint8)
    if x.dtype.kind == "c":
        raise TypeError("histogram of complex values is not supported (NumPy compares them "
                        "lexicographically); pass the real part")
    if weights is None:
        return x, None
    w = asarray(weights)
    if w.shape != asarray(a).shape:
        raise ValueError("weights should have the same shape as a.")
    return x, mp.ravel(w)


def histogram_bin_edges(a: Any, bins: Any = 10, range: Any = None,  # noqa: A002
                        weights: Any = None) -> Array:
    """numpy.histogram_bin_edges."""
    x, _ = _flat(a, weights)
    return asarray(_bin_edges(x, bins, range, weights)[0])


def histogram(a: Any, bins: Any = 10, range: Any = None, density: Any = None,  # noqa: A002
              weights: Any = None) -> tuple[Array, Array]:
    """numpy.histogram: (counts, edges); the last bin includes its right edge. Small computed
    arguments: NumPy's histogram at the line (lazyarray/host_now.py)."""
    done = host_now.call(np.histogram, (a, bins, range, density, weights), {}, user_site(1))
    if done is not None:
        return done
    x, w = _flat(a, weights)
    edges, uniform = _bin_edges(x, bins, range, weights)
    ntype = np.dtype(np.int64) if w is None else w.dtype
    if uniform is not None:
        n = _uniform_counts(x, w, edges, uniform, ntype)
    else:
        n = _edge_counts(x, w, edges, ntype)
    if density:
        db = np.array(np.diff(edges), float)
        return n / asarray(db) / red.sum(n), asarray(edges)
    return n, asarray(edges)


def _uniform_counts(x: Array, w: Array | None, edges: np.ndarray, uniform: Any,
                    ntype: np.dtype) -> Array:
    first, last, n = uniform
    keep = (x >= first) & (x <= last)
    xt = x.astype(edges.dtype)
    f = (xt - first) / _unsigned_subtract(last, first) * n  # NumPy's operands, its promotion
    idx = ew.where(keep, f, 0).astype(np.int64)
    idx = ew.clip(ew.where(idx == n, n - 1, idx), 0, n - 1)
    e = asarray(edges)
    idx = idx - (xt < e[idx]).astype(np.int64)
    idx = ew.clip(idx, 0, n - 1)
    idx = idx + ((xt >= e[idx + 1]) & (idx != n - 1)).astype(np.int64)
    slot = ew.where(keep, idx, n)
    return _scatter(slot, w, n, ntype)


def _scatter(slot: Array, w: Array | None, n: int, ntype: np.dtype) -> Array:
    if w is None:
        return zeros(n + 1, dtype=np.int64).at[slot].add(1)[:n]
    acc = np.dtype(np.complex128 if ntype.kind == "c" else np.float64)  # bincount's double sums
    return zeros(n + 1, dtype=acc).at[slot].add(w.astype(acc))[:n].astype(ntype)


def _edge_counts(x: Array, w: Array | None, edges: np.ndarray, ntype: np.dtype) -> Array:
    e = asarray(edges)
    if w is None:
        sa = sort(x)
        cum = mp.concat([searchsorted(sa, e[:-1], side="left"),
                         searchsorted(sa, e[-1:], side="right")])
        return cum[1:] - cum[:-1]
    order = argsort(x)
    sa, sw = x[order], w[order]
    cw = mp.concat([zeros(1, dtype=sw.dtype), red.cumsum(sw)])
    at = mp.concat([searchsorted(sa, e[:-1], side="left"), searchsorted(sa, e[-1:], side="right")])
    cum = cw[at]
    return (cum[1:] - cum[:-1]).astype(ntype)


def _sample_columns(sample: Any) -> list[Array]:
    if isinstance(sample, (Array, np.ndarray)) and np.ndim(sample) == 2:
        s = asarray(sample)
        return [s[:, i] for i in builtins.range(s.shape[1])]  # (`range` is NumPy's argument)
    if isinstance(sample, (Array, np.ndarray)) and np.ndim(sample) <= 1:
        return [mp.ravel(asarray(sample))]
    if all(np.ndim(c) == 0 for c in sample):  # NumPy's atleast_2d(sample).T: a sequence of
        # scalars is one column of N points (`histogramdd([1, 2, 3])`: one point in 3-D here,
        # and a 0-d array an error; fuzz56)
        return [asarray(sample)]
    cols = [mp.ravel(asarray(c)) if np.ndim(c) == 0 else asarray(c) for c in sample]
    if len({c.shape for c in cols}) > 1 or any(c.ndim != 1 for c in cols):
        raise ValueError("the sample columns must be 1-D and of one length")
    # NumPy stacks a sequence of columns into one array: one dtype for all (float32 and float64
    # columns: float64 edges for both)
    common = np.result_type(*(c.dtype for c in cols))
    return [c if c.dtype == common else c.astype(common) for c in cols]



def histogramdd(sample: Any, bins: Any = 10, range: Any = None, density: Any = None,  # noqa: A002
                weights: Any = None) -> tuple[Array, list[Array]]:
    """numpy.histogramdd: float64 counts over D dimensions, NumPy's outlier bins dropped."""
    cols = _sample_columns(sample)
    d = len(cols)
    try:
        if len(bins) != d:
            raise ValueError("The dimension of bins must be equal to the dimension of the "
                             "sample x.")
    except TypeError:
        bins = d * [bins]
    ranges = (None,) * d if range is None else range
    if len(ranges) != d:
        raise ValueError("range argument must have one entry per dimension")
    edges = [_dd_edges(c, b, r, i) for i, (c, b, r) in enumerate(zip(cols, bins, ranges))]
    nbin = [len(e) + 1 for e in edges]
    flat = None
    for c, e, stride in zip(cols, edges, np.cumprod([1] + nbin[::-1][:-1])[::-1]):
        count = searchsorted(asarray(e), c, side="right")
        count = count - (c == e[-1]).astype(np.int64)
        flat = count * int(stride) if flat is None else flat + count * int(stride)
    total = int(np.prod(nbin))
    if weights is None:
        hist = zeros(total, dtype=np.int64).at[flat].add(1).astype(np.float64)
    else:
        w = asarray(weights).astype(np.float64)
        hist = zeros(total, dtype=np.float64).at[flat].add(w)
    hist = mp.reshape(hist, tuple(nbin))[(slice(1, -1),) * d]
    if density:
        s = red.sum(hist)
        for i, e in enumerate(edges):
            shape = [1] * d
            shape[i] = nbin[i] - 2
            hist = hist / asarray(np.diff(e).reshape(shape))
        hist = hist / s
    return hist, [asarray(e) for e in edges]


def _dd_edges(col: Array, bins: Any, rng: Any, i: int) -> np.ndarray:
    if np.ndim(bins) == 0:
        if bins < 1:
            raise ValueError(f"`bins[{i}]` must be positive, when an integer")
        smin, smax = _outer_edges(col, rng)
        try:
            n = operator.index(bins)
        except TypeError as exc:
            raise TypeError(f"`bins[{i}]` must be an integer, when a scalar") from exc
        return np.linspace(smin, smax, n + 1)
    if np.ndim(bins) == 1:
        e = np.asarray(bins)
        if np.any(e[:-1] > e[1:]):
            raise ValueError(f"`bins[{i}]` must be monotonically increasing, when an array")
        return e
    raise ValueError(f"`bins[{i}]` must be a scalar or 1d array")


def histogram2d(x: Any, y: Any, bins: Any = 10, range: Any = None, density: Any = None,  # noqa: A002
                weights: Any = None) -> tuple[Array, Array, Array]:
    """numpy.histogram2d: histogramdd of the columns (x, y)."""
    x, y = asarray(x), asarray(y)
    if len(x) != len(y):
        raise ValueError("x and y must have the same length.")
    try:
        n = len(bins)
    except TypeError:
        n = 1
    if n not in (1, 2):
        bins = [np.asarray(bins), np.asarray(bins)]
    hist, edges = histogramdd([x, y], bins, range, density, weights)
    return hist, edges[0], edges[1]


def interp(x: Any, xp: Any, fp: Any, left: Any = None, right: Any = None,
           period: Any = None) -> Array:
    """numpy.interp, NumPy's C loop as lazy selects: the segment by searchsorted, an exact hit
    on a sample point gives its value, a NaN from one end is retried from the other end.
    Small computed arguments: NumPy's interp at the line (lazyarray/host_now.py)."""
    done = host_now.call(np.interp, (x, xp, fp, left, right), {"period": period}, user_site(1))
    if done is not None:
        return done
    fpa = asarray(fp)
    kind = np.complex128 if fpa.dtype.kind == "c" else np.float64
    xv, xpa, fpa = asarray(x).astype(np.float64), asarray(xp).astype(np.float64), fpa.astype(kind)
    if xpa.ndim != 1 or fpa.ndim != 1:
        raise fail(ValueError, "Data points must be 1-D sequences", user_site(1))
    if xpa.shape[0] != fpa.shape[0]:
        raise fail(ValueError, "fp and xp are not of the same length.", user_site(1))
    if xpa.shape[0] == 0:
        raise fail(ValueError, "array of sample points is empty", user_site(1))
    if period is not None:
        if period == 0:
            raise fail(ValueError, "period must be a non-zero value", user_site(1))
        period, left, right = abs(period), None, None
        xv, xpa = xv % period, xpa % period
        order = argsort(xpa)
        xpa, fpa = xpa[order], fpa[order]
        xpa = mp.concat([xpa[-1:] - period, xpa, xpa[:1] + period])
        fpa = mp.concat([fpa[-1:], fpa, fpa[:1]])
    if kind == np.complex128:
        re = _interp_real(xv, xpa, real(fpa), _part(left, "real"), _part(right, "real"), True)
        im = _interp_real(xv, xpa, imag(fpa), _part(left, "imag"), _part(right, "imag"), True)
        return re + 1j * im
    return _interp_real(xv, xpa, fpa, left, right)


def _part(v: Any, name: str) -> Any:
    return None if v is None else getattr(np.complex128(v), name)


def _interp_real(x: Array, xp: Array, fp: Array, left: Any, right: Any,
                 complex_part: bool = False) -> Array:
    """One real interpolation; `complex_part`: a part of NumPy's complex loop, whose slope is
    `dy * (1 / dx)` where the real loop's is `dy / dx` (a last bit apart)."""
    n = xp.shape[0]
    lval = fp[0] if left is None else asarray(float(left))
    rval = fp[-1] if right is None else asarray(float(right))
    j = searchsorted(xp, x, side="right") - 1
    if n == 1:
        res = mp.broadcast_to(fp[0], x.shape)  # every x is left, right or on xp[0]
    else:
        j0 = ew.clip(j, 0, n - 2)
        x0, x1, y0, y1 = xp[j0], xp[j0 + 1], fp[j0], fp[j0 + 1]
        slope = (y1 - y0) * (1.0 / (x1 - x0)) if complex_part else (y1 - y0) / (x1 - x0)
        res = slope * (x - x0) + y0
        res = ew.where(ew.isnan(res), slope * (x - x1) + y1, res)
        res = ew.where(ew.isnan(res) & (y0 == y1), y0, res)
        res = ew.where(x0 == x, y0, res)
    res = ew.where(j == n - 1, fp[n - 1], res)
    res = ew.where(j < 0, lval, ew.where(x > xp[n - 1], rval, res))
    return ew.where(ew.isnan(x), x, res)
