"""NumPy reductions outside the Array API (nan-ignoring ones, ptp, average, median) as compositions
of `where` and the registered reductions; they fuse like any expression."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from . import _bind
from . import elementwise as ew
from . import reductions as red
from .array import Array, scalar_result, zero_d_array
from .elementwise import asarray_operand
from .complex_functions import conj, real
from .creation import full_like
from .manipulation import broadcast_to, expand_dims, moveaxis, reshape
from .graph.node import user_site
from .searching import sort, sorted_rows
from .creation import asarray
from .outputs import into


def _array(x: Any) -> Array:
    return x if isinstance(x, Array) else asarray_operand(x)


def _nan_filled(x: Any, fill: float) -> tuple[Array, Array | None]:
    """(x with NaNs replaced by `fill`, the NaN mask) — unchanged, None for non-float x."""
    v = _array(x)
    if v.dtype.kind not in "fc":
        return v, None
    nan = ew.isnan(v)
    return ew.where(nan, fill, v), nan


_NO_VALUE = np._NoValue  # NumPy's "not given" (initial=)


def _written(out: Any, result: Array, numpy_fn: Any, x: Any, **kwargs: Any) -> Array:
    """`result`, or `out` with it written in (NumPy's `out=` rules, lazyarray/outputs.py)."""
    if out is None:
        return result
    return into(out, result, numpy_fn, (x,), kwargs, user_site(1))


def nansum(a: Any, axis: Any = None, dtype: Any = None, out: Any = None, keepdims: bool = False,
           initial: Any = _NO_VALUE, where: Any = True) -> Array:
    """numpy.nansum: NaNs count as zero."""
    v, _ = _nan_filled(a, 0.0)
    return red.sum(v, axis, dtype, out, keepdims, initial, where)


def nanprod(a: Any, axis: Any = None, dtype: Any = None, out: Any = None, keepdims: bool = False,
            initial: Any = _NO_VALUE, where: Any = True) -> Array:
    """numpy.nanprod: NaNs count as one."""
    v, _ = _nan_filled(a, 1.0)
    return red.prod(v, axis, dtype, out, keepdims, initial, where)


def _nan_extreme(reduce: Any, fill: float, x: Any, axis: Any, keepdims: bool, initial: Any,
                 where: Any) -> Array:
    """NumPy's fmax/fmin reduction: NaNs take no part; an all-NaN slice gives NaN, or `initial`
    where given (it takes part as in max/min). A NaN `initial` of an array takes no part either
    (NumPy's fmax.reduce: `np.nanmax(a, axis=1, initial=np.nan)` is each row's nanmax, NaN and
    its warning for an all-NaN or empty one; every result was NaN, fuzz56). A list's is NumPy's
    other path (max with the NaN: NaN)."""
    initial = _NO_VALUE if initial is None else initial  # (NumPy's: no initial)
    v, nan = _nan_filled(x, fill)
    nan_initial = nan is not None and isinstance(x, (Array, np.ndarray)) and isinstance(
        initial, (float, np.floating)) and initial != initial
    if nan_initial:
        initial = fill
    try:
        out = reduce(v, axis=axis, keepdims=keepdims, initial=initial, where=where)
    except ValueError as exc:  # an empty axis: NumPy names its ufunc, fmax / fmin
        text = str(exc)
        for ufunc, nan_ufunc in (("maximum", "fmax"), ("minimum", "fmin")):
            if text.startswith((f"zero-size array to reduction operation {ufunc} ",
                                f"reduction operation '{ufunc}' does not have")):
                exc.args = (text.replace(ufunc, nan_ufunc, 1),)
        raise
    if nan is None or initial is not _NO_VALUE and not nan_initial:
        return out
    all_nan = red.all(nan, axis=axis, keepdims=keepdims, where=where)  # NumPy: NaN, a warning
    return red.warn_for_slices(ew.where(all_nan, np.nan, out), red.any(all_nan),
                           "All-NaN slice encountered")


def nanmax(a: Any, axis: Any = None, out: Any = None, keepdims: bool = False,
           initial: Any = _NO_VALUE, where: Any = True) -> Array:
    """numpy.nanmax: the maximum ignoring NaNs; NaN for an all-NaN slice."""
    result = _nan_extreme(red.max, -np.inf, a, axis, keepdims, initial, where)
    return _written(out, result, np.nanmax, a, axis=axis, keepdims=keepdims)


def nanmin(a: Any, axis: Any = None, out: Any = None, keepdims: bool = False,
           initial: Any = _NO_VALUE, where: Any = True) -> Array:
    """numpy.nanmin: the minimum ignoring NaNs; NaN for an all-NaN slice."""
    result = _nan_extreme(red.min, np.inf, a, axis, keepdims, initial, where)
    return _written(out, result, np.nanmin, a, axis=axis, keepdims=keepdims)


def _nan_count(x: Array, axis: Any, keepdims: bool, where: Any = True) -> Array:
    return red.sum(~ew.isnan(x), axis=axis, keepdims=keepdims, where=where)


def _inexact_dtype(dtype: Any, out: Any) -> None:
    """NumPy's nanmean/nanvar refuse an integer `dtype=` or `out=` for a float input (mean and
    var compute in it: the nan-functions summed in it here, fuzz42)."""
    if dtype is not None and not issubclass(np.dtype(dtype).type, np.inexact):
        raise TypeError("If a is inexact, then dtype must be inexact")
    if out is not None and not issubclass(np.dtype(out.dtype).type, np.inexact):
        raise TypeError("If a is inexact, then out must be inexact")


def _lazy_nanmean(v: Array, axis: Any, dtype: Any, keepdims: bool, where: Any
                  ) -> tuple[Array, Array]:
    """nanmean's value and each slice's count of non-NaN values: NumPy divides under
    errstate(invalid='ignore'), so an empty slice is NaN with no flag raised."""
    total = nansum(v, axis=axis, dtype=dtype, keepdims=keepdims, where=where)
    count = _nan_count(v, axis, keepdims, where)
    empty = count == 0
    nan = complex(np.nan, np.nan) if total.dtype.kind == "c" else np.nan  # NumPy's 0j / 0
    return ew.where(empty, ew.astype(asarray(nan), total.dtype),
                    _by_count(total, ew.maximum(count, 1))), empty


def _by_count(total: Array, count: Array) -> Array:
    """NumPy's `_divide_by_count`: `np.divide(total, count, out=total, casting='unsafe')`, an
    intp count: float16 divides in float64 and rounds once (its count was float16 here, inexact
    above 2048)."""
    if total.dtype == np.float16:
        return ew.astype(ew.astype(total, np.float64) / ew.astype(count, np.float64), np.float16)
    return total / ew.astype(count, total.dtype)


def _empty_slices(v: Array, axis: Any, result: Array, message: str) -> bool:
    """Whether every slice is empty by the shape (no evaluation needed): NumPy's warning then
    comes at once where any slice exists."""
    if v.size:
        return False
    if result.size:
        warnings.warn(message, RuntimeWarning, stacklevel=red.user_stacklevel())
    return True


def nanmean(a: Any, axis: Any = None, dtype: Any = None, out: Any = None, keepdims: bool = False,
            *, where: Any = True) -> Array:
    """numpy.nanmean: the mean of the non-NaN values; NaN and NumPy's 'Mean of empty slice'
    warning for an all-NaN slice (evaluated with that test: warn_for_slices)."""
    v = _array(a)
    if v.dtype.kind not in "fc":
        return red.mean(v, axis, dtype, out, keepdims, where=where)
    _inexact_dtype(dtype, out)
    result, empty = _lazy_nanmean(v, axis, dtype, keepdims, where)
    if not _empty_slices(v, axis, result, "Mean of empty slice"):
        red.warn_for_slices(result, red.any(empty), "Mean of empty slice")
    return _written(out, result, np.nanmean, a, axis=axis, dtype=dtype, keepdims=keepdims)


def nanvar(a: Any, axis: Any = None, dtype: Any = None, out: Any = None, ddof: float = 0,
           keepdims: bool = False, *, where: Any = True, mean: Any = None,
           correction: float | None = None) -> Array:
    """numpy.nanvar: the variance of the non-NaN values (ddof subtracted from their count); NaN
    and NumPy's 'Degrees of freedom <= 0 for slice.' where the count is ddof or less. NumPy 2's
    `mean=` replaces the computed mean, `correction=` is ddof's other name."""
    ddof = red.ddof_or_correction(ddof, correction)
    v = _array(a)
    if v.dtype.kind not in "fc":
        return red.var(v, axis, dtype, out, ddof, keepdims, where=where, mean=mean)
    _inexact_dtype(dtype, out)
    # NumPy's _nanvar subtracts into the input's copy (`subtract(arr, avg, out=arr,
    # casting='unsafe')`): the deviations are in the input's dtype whatever the mean's (a
    # float64 `mean=` or `dtype=`), and only the last sum is in `dtype=` (a float32 dtype= of a
    # float64 input gave float64, a `mean=` tuple of a complex64 input float64; fuzz57)
    avg = _lazy_nanmean(v, axis, dtype, True, where)[0] if mean is None else mean
    centered = ew.astype(v - avg, v.dtype)
    if v.dtype.kind == "c":  # NumPy's _nanvar: multiply(arr, arr.conj()).real (its complex
        sq = real(centered * conj(centered))  # multiply loop's bits, not re*re + im*im)
    else:
        sq = centered * centered
    # the input's NaNs take no part, a deviation's NaN does (an inf less the mean's inf), as in
    # NumPy: nanvar([inf, 1]) is NaN, not 0 (fuzz44)
    total = red.sum(ew.where(ew.isnan(v), 0.0, sq), axis=axis, dtype=dtype, keepdims=keepdims,
                    where=where)
    n = _nan_count(v, axis, keepdims, where) - ddof
    bad = n <= 0  # (NumPy divides under errstate(all='ignore'), then writes NaN there)
    result = ew.where(bad, np.nan, _by_count(total, ew.where(bad, 1, n)))
    message = "Degrees of freedom <= 0 for slice."
    if not _empty_slices(v, axis, result, message):
        red.warn_for_slices(result, red.any(bad), message)
    return _written(out, result, np.nanvar, a, axis=axis, dtype=dtype, ddof=ddof,
                    keepdims=keepdims)


def nanstd(a: Any, axis: Any = None, dtype: Any = None, out: Any = None, ddof: float = 0,
           keepdims: bool = False, *, where: Any = True, mean: Any = None,
           correction: float | None = None) -> Array:
    """numpy.nanstd: sqrt(nanvar); std itself for an input with no NaN (an integer `dtype=`
    keeps the result integer, as NumPy's)."""
    ddof = red.ddof_or_correction(ddof, correction)
    if _array(a).dtype.kind not in "fc":
        return red.std(_array(a), axis, dtype, out, ddof, keepdims, where=where, mean=mean)
    result = ew.sqrt(nanvar(a, axis=axis, dtype=dtype, ddof=ddof, keepdims=keepdims, where=where,
                            mean=mean))
    return _written(out, result, np.nanstd, a, axis=axis, dtype=dtype, ddof=ddof,
                    keepdims=keepdims)


def ptp(a: Any, axis: Any = None, out: Any = None, keepdims: bool = False) -> Array:
    """numpy.ptp: max - min (in x's dtype: integers wrap, as NumPy)."""
    v = _array(a)
    result = red.max(v, axis=axis, keepdims=keepdims) - red.min(v, axis=axis, keepdims=keepdims)
    return _written(out, result, np.ptp, a, axis=axis, keepdims=keepdims)


def average(a: Any, axis: Any = None, weights: Any = None, returned: bool = False,
            keepdims: bool = False) -> Any:
    """numpy.average: sum(a * w) / sum(w) along axis (the mean without weights)."""
    if type(axis) is bool or type(axis) in (tuple, list):  # NumPy's average (Python code) takes
        axis = int(axis) if type(axis) is bool else tuple(  # True as 1 and a list as a tuple,
            int(d) if type(d) is bool else d for d in axis)  # where sum refuses both
    v = _array(a)
    if axis is not None:  # NumPy's message first: "axis: axis 5 is out of bounds ..."
        _bind.normalize_axes(axis, v.ndim, user_site(1), "axis")
    if weights is None:
        avg = red.mean(v, axis=axis, keepdims=keepdims)
        if not avg.size:  # NumPy's `a.size / avg.size`, also where `returned` is False (fuzz44)
            raise _bind.fail(ZeroDivisionError, "division by zero", user_site(1))
        if not returned:
            return avg
        count = full_like(avg, v.size // avg.size)  # (NumPy's scalar where avg is one)
        return avg, scalar_result(count._node) if not avg.ndim else count
    w = _array(weights)
    if w.shape != v.shape:
        if axis is None or w.ndim != 1:
            raise TypeError("Axis must be specified when shapes of a and weights differ.")
        ax = axis + v.ndim if axis < 0 else axis
        if w.shape[0] != v.shape[ax]:
            raise ValueError("Length of weights not compatible with specified axis.")
        w = w.reshape((-1,) + (1,) * (v.ndim - ax - 1))

    dt = np.result_type(v.dtype, w.dtype, np.float64 if v.dtype.kind in "biu" else v.dtype)
    wsum = red.sum(broadcast_to(ew.astype(w, dt), v.shape), axis=axis, keepdims=keepdims)
    if bool(red.any(wsum == 0)):  # NumPy's check, before it divides (the sum is read now)
        raise _bind.fail(ZeroDivisionError, "Weights sum to zero, can't be normalized",
                         user_site(1))
    avg = red.sum(ew.astype(v, dt) * ew.astype(w, dt), axis=axis, keepdims=keepdims) / wsum
    return (avg, wsum) if returned else avg


def median(a: Any, axis: Any = None, out: Any = None, overwrite_input: bool = False,
           keepdims: bool = False) -> Array:
    """numpy.median: the middle of the sorted values (mean of the two middles); NaN propagates.
    `overwrite_input` lets NumPy scramble its input; here the input is left as it is."""
    if out is not None:
        return into(out, median(a, axis, keepdims=keepdims), np.median, (a,),
                    {"axis": axis, "keepdims": keepdims}, user_site(1))
    v = _array(a)
    if type(axis) is bool:  # NumPy's median (Python code) takes True as 1, where sum refuses it
        axis = int(axis)
    if isinstance(axis, list):  # (and a list as a tuple)
        axis = tuple(axis)
    if axis is not None:  # NumPy's AxisError for an axis out of range (-4 of 3-D was -1 here)
        _bind.normalize_axes(axis, v.ndim, user_site(1))
    if isinstance(axis, tuple):  # several axes: moved last and merged into one
        axes = sorted(d + v.ndim if d < 0 else d for d in axis)
        kept = tuple(s for d, s in enumerate(v.shape) if d not in axes)
        mid = median(reshape(moveaxis(v, axes, list(range(-len(axes), 0))), kept + (-1,)),
                     axis=-1)
        if keepdims:  # (a 0-d input's is NumPy's 0-d array, not its scalar: fuzz57)
            return zero_d_array(reshape(mid, tuple(1 if d in axes else s
                                                   for d, s in enumerate(v.shape))))
        return mid
    if axis is None:
        v, ax = reshape(v, (-1,)), 0
    else:
        ax = _bind.normalize_axis(axis, v.ndim, user_site(1))
    n = v.shape[ax]
    if n:  # the middle one or two of the sorted values, by partition (as NumPy's median)
        moved = moveaxis(v, ax, 0)
        ranks = np.arange((n - 1) // 2, n // 2 + 1, dtype=np.int64)
        rows = broadcast_to(asarray(ranks.reshape((-1,) + (1,) * (v.ndim - 1))),
                            (len(ranks),) + moved.shape[1:])
        ends = (-1,) if v.dtype.kind in "fcmM" else ()  # NumPy's median's partition (NaN last)
        mid = red.mean(moveaxis(sorted_rows(moved, rows, ends), 0, ax), axis=ax, keepdims=True)
    else:
        s = sort(v, axis=ax)
        lo = tuple(slice(None) if d != ax else slice((n - 1) // 2, n // 2 + 1)
                   for d in range(v.ndim))
        # (NumPy's median takes the mean without keepdims: of a 0-d result its 0/0 warns
        # 'invalid value encountered in scalar divide', as NumPy's scalar division)
        mid = expand_dims(red.mean(s[lo], axis=ax), ax)
    if v.dtype.kind in "fc" and n:
        mid = ew.where(red.any(ew.isnan(v), axis=ax, keepdims=True), np.nan, mid)
    if keepdims:
        return mid if axis is not None else reshape(mid, (1,) * _array(a).ndim)
    return scalar_result(reshape(mid, tuple(s for d, s in enumerate(mid.shape) if d != ax))._node)


amax, amin = red.max, red.min
