"""`out=` of NumPy's reductions, scans, matmul and dot: NumPy's rules for the output array, then
`out[...] = result` (which rebinds an Array `out`, docs/semantics.md), returning `out`.

NumPy's rules for `out` differ per function (sum casts unsafely, argmax safely, std and matmul
'same_kind', dot wants the exact dtype), so NumPy's own function checks them on stand-ins of at
most one element per axis (`_stand_in`): its errors are NumPy's, nothing of size is computed.
The shape must be the result's, as NumPy's reductions require.
"""

from __future__ import annotations

import warnings
from typing import Any, Callable

import numpy as np

from . import _bind
from ._numpy_errors import numpy_shape_error
from .array import Array
from .writes import check_writable


def _stand_in(x: Any) -> Any:
    """One element per axis (zero stays zero), the dtype kept; Python scalars as they are."""
    if type(x) in (int, float, complex, bool, str) or x is None:  # str: einsum's subscripts
        return x
    shape = x.shape if isinstance(x, (Array, np.ndarray)) else np.shape(x)
    dtype = x.dtype if isinstance(x, (Array, np.ndarray, np.generic)) else np.asarray(x).dtype
    return np.ones(tuple(min(s, 1) for s in shape), dtype)


_SCANS = frozenset(["cumsum", "cumprod", "nancumsum", "nancumprod", "cumulative_sum",
                    "cumulative_prod"])


def _broadcasts(shape: tuple[int, ...], into_shape: tuple[int, ...]) -> bool:
    try:
        return np.broadcast_shapes(shape, into_shape) == into_shape
    except ValueError:
        return False


def _numpy_takes(out: Any, numpy_fn: Callable[..., Any], args: tuple, kwargs: dict,
                 site: _bind.Site) -> tuple[Any, bool]:
    """An `out=` other than an array, as NumPy's function takes it: a 1-tuple of an array
    where NumPy's is a ufunc's (`np.clip(x, 0, 1, out=(y,))`, `np.fft.fft(x, out=(y,))`: its
    array; a TypeError here before fuzz57), and whether NumPy returns the tuple rather than the
    array; else NumPy's error for it (a list's 'return arrays must be of ArrayType'), asked of
    stand-ins."""
    stand_ins = tuple(_stand_in(a) for a in args)
    try:
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            shape = np.shape(numpy_fn(*stand_ins, **kwargs))
            arrays = type(out) is tuple and all(isinstance(o, (Array, np.ndarray)) for o in out)
            given = tuple(np.zeros(shape, o.dtype) for o in out) if arrays else out
            returned = numpy_fn(*stand_ins, **kwargs, out=given)
    except Exception as exc:
        raise _bind.with_site(exc, site) from None
    if type(out) is tuple and len(out) == 1 and isinstance(out[0], (Array, np.ndarray)):
        return out[0], returned is given  # (quantile's returns the tuple itself)
    raise _bind.fail(TypeError, f"out must be an array, not {type(out).__name__}", site)


def into(out: Any, result: Array, numpy_fn: Callable[..., Any], args: tuple, kwargs: dict,
         site: _bind.Site) -> Any:
    """`numpy_fn(*args, **kwargs, out=out)`'s checks, then out[...] = result; returns out."""
    if not isinstance(out, (Array, np.ndarray)):
        given = out
        out, as_given = _numpy_takes(out, numpy_fn, args, kwargs, site)
        into(out, result, numpy_fn, args, kwargs, site)
        return given if as_given else out
    if isinstance(out, Array):
        check_writable(out, "output array is read-only")
    if tuple(out.shape) != result.shape:
        if not out.shape and getattr(numpy_fn, "__name__", "") in _SCANS:
            # (NumPy 2.4's accumulate crashes on a 0-d out, `x.cumsum(out=np.zeros(()))`:
            # a segmentation fault in the interpreter, not asked; fuzz57's seed 509150+)
            raise _bind.fail(ValueError, "provided out is the wrong size for the accumulation.",
                             site)
        exc = numpy_shape_error(numpy_fn, args, kwargs, out)
        if exc is not None:
            raise _bind.with_site(exc, site)
        if not _broadcasts(result.shape, tuple(out.shape)):
            raise _bind.fail(ValueError, "output parameter has the wrong shape: "
                             f"{tuple(out.shape)}, the result's is {result.shape}", site)
        # (NumPy takes it: its ufunc-based functions broadcast into `out`, `np.clip(x, 0, 1,
        # out=o)` of a larger o, `np.isposinf(inf, out=o)`; a ValueError here, fuzz57)
    stand_ins = tuple(_stand_in(a) for a in args)
    try:
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")  # a one-element stand-in's, not the user's
            shape = np.shape(numpy_fn(*stand_ins, **kwargs))
            numpy_fn(*stand_ins, **kwargs, out=np.zeros(shape, out.dtype))
    except Exception as exc:
        raise _bind.with_site(exc, site) from None
    if isinstance(out, np.ndarray):
        out[...] = np.asarray(result)
    else:
        out[...] = result
    return out
