"""NumPy's statistics that were missing: `quantile`/`percentile` (method 'linear', NumPy's default),
`nanquantile`/`nanpercentile`/`nanmedian`, `cov`/`corrcoef`, `nancumsum`/`nancumprod`, `digitize`,
`bincount`.

They follow NumPy's own formulas step for step, so that results agree to the last bit where the
backend's arithmetic does: quantile's virtual index `(n - 1) * q`, its floor and the weight
`gamma` are computed on the host from `q` (a few numbers), then the sorted values are gathered and
blended by NumPy's `_lerp` (`a + (b-a)*t`, or `b - (b-a)*(1-t)` where t >= 0.5), lazily; cov
multiplies by `1/fact` as NumPy does. Other quantile methods and weights run NumPy on the
evaluated array.
"""

from __future__ import annotations

import contextlib
import operator
import warnings
from collections.abc import Iterator
from typing import Any

import numpy as np

from . import _bind, eager
from . import elementwise as ew, host_now
from . import reductions as red
from .cache import is_busy
from .array import Array, scalar_result
from .complex_functions import conj, from_parts, imag, real
from .creation import asarray, zeros
from .elementwise import asarray_operand
from .searching import searchsorted, sorted_rows
from .numpy_reductions import median, nanmean
from .manipulation import broadcast_to, concat, moveaxis, squeeze
from .linalg import matmul
from .numpy_shapes import atleast_2d, diag
from .outputs import into
from .evaluation import eval as evaluate
from .graph.node import user_site
from ._host_results import _leaf


def _array(x: Any) -> Array:
    return x if isinstance(x, Array) else asarray_operand(x)


# --- quantiles ---------------------------------------------------------------------------------------
def quantile(a: Any, q: Any, axis: Any = None, out: Any = None, overwrite_input: bool = False,
             method: str = "linear", keepdims: bool = False, *, weights: Any = None,
             interpolation: Any = None) -> Array:
    """numpy.quantile (method 'linear'; NaN in a slice gives NaN, as NumPy). Small computed
    arguments: NumPy's quantile at the line (lazyarray/host_now.py)."""
    done = _host_quantile(np.quantile, a, q, axis, out, method, keepdims, weights, interpolation)
    if done is not None:
        return done
    return _quantile(a, q, axis, method, keepdims, weights, interpolation, out, "quantile")


def percentile(a: Any, q: Any, axis: Any = None, out: Any = None, overwrite_input: bool = False,
               method: str = "linear", keepdims: bool = False, *, weights: Any = None,
               interpolation: Any = None) -> Array:
    """numpy.percentile: quantile of q / 100."""
    done = _host_quantile(np.percentile, a, q, axis, out, method, keepdims, weights,
                          interpolation)
    if done is not None:
        return done
    qs = np.true_divide(q, 100) if type(q) not in (int, float) else q / 100
    return _quantile(a, qs, axis, method, keepdims, weights, interpolation, out, "percentile",
                     weak=type(q) in (int, float))


def nanquantile(a: Any, q: Any, axis: Any = None, out: Any = None, overwrite_input: bool = False,
                method: str = "linear", keepdims: bool = False, *, weights: Any = None,
                interpolation: Any = None) -> Array:
    """numpy.nanquantile (method 'linear'): NaNs ignored; an all-NaN slice gives NaN."""
    return _quantile(a, q, axis, method, keepdims, weights, interpolation, out, "nanquantile",
                     skip_nan=True)


def nanpercentile(a: Any, q: Any, axis: Any = None, out: Any = None,
                  overwrite_input: bool = False, method: str = "linear", keepdims: bool = False,
                  *, weights: Any = None, interpolation: Any = None) -> Array:
    """numpy.nanpercentile: nanquantile of q / 100."""
    qs = np.true_divide(q, 100) if type(q) not in (int, float) else q / 100
    return _quantile(a, qs, axis, method, keepdims, weights, interpolation, out, "nanpercentile",
                     skip_nan=True, weak=type(q) in (int, float))


def nanmedian(a: Any, axis: Any = None, out: Any = None, overwrite_input: bool = False,
              keepdims: bool = False) -> Array:
    """numpy.nanmedian: the mean of the middle non-NaN values of each slice (they sort first);
    an all-NaN slice gives NaN."""
    if out is not None:
        return into(out, nanmedian(a, axis, keepdims=keepdims), np.nanmedian, (a,),
                    {"axis": axis, "keepdims": keepdims}, user_site(1))
    v = _array(a)
    if not v.size:  # NumPy's: nanmean's NaN and 'Mean of empty slice' (IndexError here)
        return nanmean(v, axis=axis, keepdims=keepdims)
    if v.dtype.kind not in "fc":  # (complex: NaN in either part is skipped)
        return median(v, axis=axis, keepdims=keepdims)
    moved, kept_shape = _quantile_axis_first(v, axis)
    count = red.sum(~ew.isnan(moved), axis=0)
    top = ew.maximum(count - 1, 0)
    lo, hi = _order_stats(moved, [top // 2, count // 2], moved.shape[1:], ())
    result = ew.where(count == 0, np.nan, (lo + hi) / 2)
    result = result.reshape(kept_shape) if keepdims else result
    return red.warn_for_slices(result, red.any(count == 0), "All-NaN slice encountered")


def _host_quantile(fn: Any, a: Any, q: Any, axis: Any, out: Any, method: str, keepdims: bool,
                   weights: Any, interpolation: Any) -> Array | None:
    """NumPy's quantile or percentile itself for small computed arguments (host_now), or None."""
    if out is not None or interpolation is not None:
        return None
    return host_now.call(fn, (a, q, axis, None, False, method, keepdims),
                         {"weights": weights}, user_site(2))


def _quantile(a: Any, q: Any, axis: Any, method: str, keepdims: bool, weights: Any,
              interpolation: Any, out: Any, name: str, skip_nan: bool = False,
              weak: bool | None = None) -> Array:
    if out is not None:  # NumPy's checks of `out` on stand-ins, then out[...] = the result
        result = _quantile(a, q, axis, method, keepdims, weights, interpolation, None, name,
                           skip_nan, weak)
        return into(out, result, getattr(np, name.replace("percentile", "quantile")), (a, q),
                    {"axis": axis, "method": method, "keepdims": keepdims}, user_site(1))
    v = _array(a)
    weak = type(q) in (int, float) if weak is None else weak
    if method != "linear" or weights is not None or interpolation is not None:
        # NumPy on the host; q is a fraction here (percentile divided it): NumPy's quantile
        numpy_fn = getattr(np, name.replace("percentile", "quantile"))
        q = np.asarray(q) if isinstance(q, Array) else q  # (an Array's NumPy dispatch came
        # back here: a RecursionError, fuzz42)
        host = numpy_fn(np.asarray(v), q, axis=axis, method=method, keepdims=keepdims,
                        weights=None if weights is None else np.asarray(weights))
        # (NumPy's scalar stays one: `r = np.percentile(A, 50, method='lower'); r *= A`
        # rebinds r, where a 0-d array raised NumPy's in-place broadcast error, fuzz44)
        return scalar_result(asarray(host)._node) if isinstance(host, np.generic) else \
            asarray(host)
    if v.dtype.kind == "c":
        raise TypeError("a must be an array of real numbers")
    qs = np.asanyarray(q)
    if qs.ndim > 2 or not (np.all(qs >= 0) and np.all(qs <= 1)):
        raise ValueError(("Percentiles must be in the range [0, 100]" if "percentile" in name
                          else "Quantiles must be in the range [0, 1]") if qs.ndim <= 2 else
                         "q must be a scalar or 1d")
    if skip_nan and not v.size:  # NumPy's: nanmean's NaN and 'Mean of empty slice', no q
        return nanmean(v, axis=axis, keepdims=keepdims)  # axis (ValueError/IndexError here)
    moved, kept_shape = _quantile_axis_first(v, axis)
    count = None
    if skip_nan and v.dtype.kind == "f":
        result, count = _nan_lerp(moved, qs, weak)
    else:
        result = _sorted_lerp(moved, qs, weak)
    if keepdims:
        result = result.reshape(qs.shape + kept_shape)
    if qs.dtype.kind in "biu" and result.dtype != v.dtype:  # NumPy's: an integer q (0 or 1)
        result = ew.astype(result, v.dtype)  # picks a value: the input's dtype (fuzz42)
    if count is not None:
        return _all_nan_slices(result, count, v.dtype)
    return result


def _all_nan_slices(result: Array, count: Array, dtype: np.dtype) -> Array:
    """nanquantile's 'All-NaN slice encountered' (warn_for_slices), and NumPy's dtype where a
    float32/float16 `a` with an array q gives float64: NumPy computes slice by slice
    (apply_along_axis, C order over the kept axes), an all-NaN slice's NaNs in `a`'s dtype, and
    the first slice's result sets the dtype of all, so when that slice is all NaN the result is
    `a`'s dtype, every other slice rounded to it (fuzz51 seed 2100630: float64 here). The test is
    evaluated with the result and the warning's boolean, one plan."""
    bad = red.any(count == 0)
    if result.dtype == dtype or not result.size:
        return red.warn_for_slices(result, bad, "All-NaN slice encountered")
    first = count.reshape((-1,))[0] == 0
    evaluate(result, bad, first)
    red.warn_for_slices(result, bad, "All-NaN slice encountered")
    return ew.astype(result, dtype) if bool(first) else result


def _quantile_axis_first(v: Array, axis: Any) -> tuple[Array, tuple[int, ...]]:
    """The sampled axes merged into axis 0 (NumPy's _ureduce), and the keepdims shape."""
    if axis is None:
        return v.reshape((-1,)), (1,) * v.ndim
    axes = np.lib.array_utils.normalize_axis_tuple(axis, v.ndim)
    rest = [d for d in range(v.ndim) if d not in axes]
    moved = moveaxis(v, list(axes), list(range(len(axes))))
    sampled = int(np.prod([v.shape[d] for d in axes], dtype=np.int64))  # (-1 of an empty v
    moved = moved.reshape((sampled,) + tuple(v.shape[d] for d in rest))  # is ambiguous)
    return moved, tuple(1 if d in axes else s for d, s in enumerate(v.shape))


def _lerp_host(n: int, qs: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """NumPy's virtual index, neighbour rows and gamma for n values (host arrays): beyond the
    last row both neighbours are the last (NumPy's -1, which gamma is computed from)."""
    if qs.dtype.kind in "bu":  # (an unsigned q's -1 below wrapped to 255: q=[0, 1] of uint8
        qs = qs.astype(np.int64)  # picked the first row twice, fuzz44)
    virtual = np.asanyarray((n - 1) * qs)  # NumPy's 'linear' get_virtual_index
    above, below, whole = virtual >= n - 1, virtual < 0, np.floor(virtual)
    prev = np.where(above, -1, np.where(below, 0, whole)).astype(np.int64)
    nxt = np.where(above, -1, np.where(below, 0, whole + 1)).astype(np.int64)
    gamma = np.asanyarray(virtual - prev, dtype=virtual.dtype)
    return prev % n, nxt % n, gamma


def _lerp(a: Array, b: Array, t: Any, weak_dtype: Any = None) -> Array:
    """NumPy's _lerp. `weak_dtype`: NumPy's t (and 1 - t) was a Python float there, computed in
    float64 and then taken in the data's dtype."""
    diff = b - a
    t1 = 1 - t
    ta, t1a = (t, t1) if weak_dtype is None else (t.astype(weak_dtype), t1.astype(weak_dtype))
    return ew.where(t >= 0.5, b - diff * t1a, a + diff * ta)


def _gamma_operand(gamma: np.ndarray, weak: bool, ndim: int) -> Any:
    if weak:
        return float(gamma)
    return asarray(gamma.reshape(gamma.shape + (1,) * (ndim - 1)))


def _sorted_lerp(x: Array, qs: np.ndarray, weak: bool) -> Array:
    """NumPy's 'linear' quantile of the sorted rows of x. An integer q (0 or 1: an integer
    virtual index) takes its row as NumPy does, with no interpolation: the lerp of -inf and
    -inf is NaN, `quantile([-inf], 0)` -inf (fuzz44, seed 310184); a float q lerps."""
    n = x.shape[0]
    if n == 0:
        raise IndexError("index -1 is out of bounds for axis 0 with size 0")
    prev, nxt, gamma = _lerp_host(n, qs)
    shape = qs.shape + x.shape[1:]
    host = [asarray(r.reshape(r.shape + (1,) * (x.ndim - 1))) for r in (prev, nxt)]
    if x.dtype.kind == "f":
        host.append(asarray(np.full((1,) * (x.ndim - 1), n - 1, np.int64)))
    picked = _order_stats(x, host, shape, () if qs.dtype.kind in "biu" else (0, -1))
    with _lazy_lerp(x, picked[0]):  # (histogram_stats' `np.percentile(x, [25, 50, 75])` of
        # 300,000 partitioned 4 times, 24 ms)
        out = picked[0] if qs.dtype.kind in "biu" else _lerp(
            picked[0], picked[1], _gamma_operand(gamma, weak, x.ndim))
        if x.dtype.kind == "f":
            last = picked[2][(0,) * qs.ndim]  # the largest value (NaN if any), per column
            out = ew.where(ew.isnan(last), last, out)
    return out


def _nan_lerp(x: Array, qs: np.ndarray, weak: bool) -> tuple[Array, Array]:
    """Per slice, the quantile of its `count` non-NaN values (they sort first), and the counts:
    NumPy's virtual index, neighbours and gamma computed lazily from the count, as NumPy's."""
    count = red.sum(~ew.isnan(x), axis=0)
    qa = asarray(qs.reshape(qs.shape + (1,) * (x.ndim - 1)))
    top = count - 1  # (NumPy's n - 1 is a Python int: a float32 q keeps the index float32)
    virtual = (ew.astype(top, qa.dtype) if qa.dtype.kind == "f" else top) * qa
    above, below = virtual >= top, virtual < 0
    whole = ew.floor(virtual)
    gamma = virtual - ew.where(above, -1.0, ew.where(below, 0.0, whole))
    last = ew.maximum(top, 0)
    first = ew.astype(ew.where(above | below, 0.0, whole), np.int64)
    prev = ew.where(above, last, first)
    nxt = ew.where(above, last, ew.where(below, 0, first + 1))
    # (no ends: NumPy's are the NaN-free values' own, and at 0 and -1 of these, the NaNs last,
    # 40,000 values with 10% NaN partitioned ~25% slower)
    lo, hi = _order_stats(x, [prev, nxt], qs.shape + x.shape[1:], ())
    with _lazy_lerp(x, lo):  # (by the pending ranks: a partition each, three for two q)
        out = lo if qs.dtype.kind in "biu" else _lerp(lo, hi, gamma, x.dtype if weak else None)
        out = ew.where(count == 0, np.nan, out)
    return out, count


@contextlib.contextmanager
def _lazy_lerp(x: Array, picked: Array) -> Iterator[None]:
    """The lerp over a quantile's few order statistics of a large x built lazily: each of its
    ops computed at once (eager.py) ran the pending selection's graph again, a partition of x
    each (histogram_stats: 4 partitions, 24 ms; NumPy 5.9). Lazy, the reader's one evaluation
    partitions once, in the plan it runs anyway (evaluating the statistics here first cost a
    plan: nan_cleaning's first call 11, over issue 25's bound). A small x's ops stay at once
    (NumPy's own, its partitions cheap). The at-once size is a process-wide setting: another
    thread building meanwhile is lazy too, which is only slower."""
    if not picked.size <= eager.LIMIT[0] < x.size or is_busy():
        yield
        return
    saved = eager.LIMIT[0]
    eager.LIMIT[0] = 0
    try:
        yield
    finally:
        eager.LIMIT[0] = saved


def _order_stats(x: Array, rows: list[Array], shape: tuple[int, ...],
                 ends: tuple[int, ...]) -> list[Array]:
    """sort(x, axis=0)[rows[i][j, ...], ...] for each list of ranks i, each broadcast to `shape`
    (quantiles first, then x's other axes), all from one `sorted_rows` call (one partition at
    every rank asked for and at the `ends` NumPy's function adds, as NumPy's quantile;
    x.shape[0] > 0)."""
    nq = int(np.prod(shape[:len(shape) - (x.ndim - 1)], dtype=np.int64))
    idx = [broadcast_to(r, shape).reshape((nq,) + x.shape[1:]) for r in rows]
    picked = sorted_rows(x, concat(idx, axis=0) if len(idx) > 1 else idx[0], ends)
    return [picked[k * nq:(k + 1) * nq].reshape(shape) for k in range(len(rows))]


# --- covariance ---------------------------------------------------------------------------------------
def cov(m: Any, y: Any = None, rowvar: bool = True, bias: bool = False, ddof: Any = None,
        fweights: Any = None, aweights: Any = None, *, dtype: Any = None) -> Array:
    """numpy.cov, NumPy's formula (with fweights/aweights): X - mean, X @ X.T.conj() * (1/fact)."""
    if ddof is not None and ddof != int(ddof):
        raise ValueError("ddof must be integer")
    x = _array(m)
    if x.ndim > 2:
        raise ValueError("m has more than 2 dimensions")
    yv = None if y is None else _array(y)
    if yv is not None and yv.ndim > 2:
        raise ValueError("y has more than 2 dimensions")
    if dtype is None:  # NumPy's: y's dtype counts too (a complex y of a real m is complex)
        dtype = np.result_type(x.dtype, np.float64, *([] if yv is None else [yv.dtype]))
    dtype = np.dtype(dtype)
    X = atleast_2d(x).astype(dtype)  # noqa: N806
    if not rowvar and x.ndim != 1:  # NumPy 2's test: a (1, n) m is n variables then
        X = X.T  # noqa: N806
    if X.shape[0] == 0:
        return asarray(np.array([], dtype=dtype).reshape(0, 0))
    if yv is not None:
        yy = atleast_2d(yv).astype(dtype)
        if not rowvar and yy.shape[0] != 1:
            yy = yy.T
        X = concat([X, yy], axis=0)  # noqa: N806
    if ddof is None:
        ddof = 0 if bias else 1
    w = _cov_weights(fweights, aweights, X.shape[1])
    if w is None:
        avg = red.mean(X, axis=1)
        w_sum = float(X.shape[1])
        fact = X.shape[1] - ddof
    else:
        w_sum = float(w.sum())
        avg = red.sum(X * asarray(w.astype(dtype)), axis=1) / w_sum
        if ddof == 0:
            fact = w_sum
        elif aweights is None:
            fact = w_sum - ddof
        else:
            aw = np.asarray(aweights, dtype=np.float64)
            fact = w_sum - ddof * float((w * aw).sum()) / w_sum
    if fact <= 0:  # NumPy's warning at the caller's line, then its 1/0 'divide by zero' below
        warnings.warn("Degrees of freedom <= 0 for slice", RuntimeWarning,
                      stacklevel=red.user_stacklevel())
        fact = 0.0
    if dtype.kind in "biu":  # NumPy's `X -= avg[:, None]` in an integer or bool dtype=: its
        try:  # casting error (a float64 covariance here, fuzz57)
            np.subtract(np.zeros(1, dtype), np.zeros(1, avg.dtype), out=np.zeros(1, dtype))
        except TypeError as exc:
            raise _bind.with_site(exc, user_site(1)) from None
    Xc = X - avg[:, None]  # noqa: N806
    X_T = Xc.T if w is None else (Xc * asarray(w.astype(dtype))).T  # noqa: N806
    c = matmul(Xc, conj(X_T) if dtype.kind == "c" else X_T)
    c = c * float(np.true_divide(1, fact))  # (under the caller's errstate, as NumPy's `c *=`)
    return _squeeze(c)


def _squeeze(c: Array) -> Array:
    axes = tuple(d for d, s in enumerate(c.shape) if s == 1)
    return squeeze(c, axis=axes) if axes else c


def _cov_weights(fweights: Any, aweights: Any, n: int) -> np.ndarray | None:
    w = None
    if fweights is not None:
        f = np.asarray(fweights, dtype=float)
        if not np.all(f == np.around(f)):
            raise TypeError("fweights must be integer")
        if f.ndim > 1 or f.shape[0] != n:
            raise RuntimeError("incompatible numbers of samples and fweights")
        if np.any(f < 0):
            raise ValueError("fweights cannot be negative")
        w = f
    if aweights is not None:
        aw = np.asarray(aweights, dtype=float)
        if aw.ndim > 1 or aw.shape[0] != n:
            raise RuntimeError("incompatible numbers of samples and aweights")
        if np.any(aw < 0):
            raise ValueError("aweights cannot be negative")
        w = aw if w is None else w * aw
    return w


def corrcoef(x: Any, y: Any = None, rowvar: bool = True, *, dtype: Any = None) -> Array:
    """numpy.corrcoef: cov scaled by the standard deviations, real parts clipped to [-1, 1]."""
    c = cov(x, y, rowvar, dtype=dtype)
    if c.ndim == 0:
        return c / c
    d = diag(c)
    stddev = ew.sqrt(real(d) if d.dtype.kind == "c" else d)
    c = c / stddev[:, None]
    c = c / stddev[None, :]
    if c.dtype.kind == "c":
        return from_parts(ew.clip(real(c), -1, 1), ew.clip(imag(c), -1, 1))
    return ew.clip(c, -1, 1)


# --- NaN-skipping scans and binning -------------------------------------------------------------------
def nancumsum(a: Any, axis: Any = None, dtype: Any = None, out: Any = None) -> Array:
    """numpy.nancumsum: cumsum with NaNs as zeros."""
    v = _array(a)
    if v.dtype.kind in "fc":
        v = ew.where(ew.isnan(v), 0, v)
    result = red.cumsum(v, axis=axis, dtype=dtype)
    if out is None:
        return result
    return into(out, result, np.nancumsum, (a,), {"axis": axis, "dtype": dtype}, user_site(1))


def nancumprod(a: Any, axis: Any = None, dtype: Any = None, out: Any = None) -> Array:
    """numpy.nancumprod: cumprod with NaNs as ones."""
    v = _array(a)
    if v.dtype.kind in "fc":
        v = ew.where(ew.isnan(v), 1, v)
    result = red.cumprod(v, axis=axis, dtype=dtype)
    if out is None:
        return result
    return into(out, result, np.nancumprod, (a,), {"axis": axis, "dtype": dtype}, user_site(1))


def digitize(x: Any, bins: Any, right: bool = False) -> Array:
    """numpy.digitize: searchsorted in `bins` (evaluated: NumPy checks they are monotonic, and a
    decreasing `bins` searches its reverse)."""
    b = np.asarray(bins)
    v = _array(x)
    if v.dtype.kind == "c" or b.dtype.kind == "c":
        raise TypeError("x may not be complex")
    if b.ndim != 1:
        raise ValueError("object too deep for desired array")
    if b.size > 1 and not (np.all(b[1:] >= b[:-1]) or np.all(b[1:] <= b[:-1])):
        raise ValueError("bins must be monotonically increasing or decreasing")
    side = "left" if right else "right"
    if b.size > 1 and b[-1] < b[0]:
        return operator.sub(len(b), searchsorted(asarray(b[::-1]), v, side=side))
    return searchsorted(asarray(b), v, side=side)


def bincount(x: Any, weights: Any = None, minlength: int = 0) -> Array:
    """numpy.bincount. Its length, max(x) + 1, is known only from the data, so `x` is evaluated
    here (as a boolean mask is when indexing); on the CPU the counts are then NumPy's bincount
    (its loop, ~10x a lazy scatter of `np.add.at` for 5,000 values), on a device a lazy
    scatter-add, which adds repeated positions in order (NumPy's sums, bit for bit)."""
    v = _array(x)
    if v.ndim != 1:
        raise ValueError("object of too small depth for desired array" if v.ndim == 0
                         else "object too deep for desired array")
    if v.dtype.kind not in "biu":
        raise TypeError(f"Cannot cast array data from dtype('{v.dtype}') to dtype('int64') "
                        "according to the rule 'safe'")
    minlength = operator.index(minlength)
    if minlength < 0:
        raise ValueError("'minlength' must not be negative")
    values = np.asarray(v)
    if values.size and values.min() < 0:
        raise ValueError("'list' argument must have no negative elements")
    length = max(int(values.max()) + 1 if values.size else 0, minlength)
    host = v.device == "cpu"  # x is on the host already: NumPy's own loop, a buffer
    if weights is None or not values.size:  # NumPy: an empty x gives int zeros, weights unread
        if host:
            return _leaf(np.bincount(values, minlength=length), user_site(1))
        return zeros(length, dtype=np.int64).at[v.astype(np.int64)].add(1)
    w = _array(weights)
    if w.shape != v.shape:
        raise ValueError("The weights and list don't have the same length.")
    if w.dtype.kind == "c":
        raise TypeError("Cannot cast array data from dtype('complex128') to dtype('float64') "
                        "according to the rule 'safe'")
    if host:  # (the weights evaluated with it: NumPy adds them in order, as the scatter does)
        return _leaf(np.bincount(values, np.asarray(w), length), user_site(1))
    return zeros(length, dtype=np.float64).at[v.astype(np.int64)].add(w.astype(np.float64))
