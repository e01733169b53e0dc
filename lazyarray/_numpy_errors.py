"""NumPy's own exceptions for shape errors, from stand-ins that cost no memory: where NumPy's text
depends on its machinery (a reduction's "remapped shapes", matmul's core dimensions), asking
NumPy is exact where a copy of its wording would drift (fuzz46)."""

from __future__ import annotations

import warnings
from typing import Any, Callable

import numpy as np


def _full_stand_in(x: Any) -> Any:
    """Zeros of x's shape and dtype in no memory (a zero-stride view); Python scalars as they
    are."""
    if type(x) in (int, float, complex, bool, str) or x is None:
        return x
    shape = x.shape if hasattr(x, "shape") else np.shape(x)
    dtype = x.dtype if hasattr(x, "dtype") else np.asarray(x).dtype
    return np.broadcast_to(np.zeros((), dtype), shape)


def numpy_shape_error(numpy_fn: Callable[..., Any], args: tuple, kwargs: dict,
                      out: Any) -> Exception | None:
    """The exception NumPy's `numpy_fn(*args, out=out)` raises for an `out` of the wrong shape,
    its own text (a reduction's "remapped shapes", matmul's core dimension: fuzz46). None if
    it raises nothing."""
    return numpy_error(numpy_fn, args, dict(kwargs, out=np.empty(tuple(out.shape), out.dtype)))


def numpy_error(numpy_fn: Callable[..., Any], args: tuple, kwargs: dict) -> Exception | None:
    """The exception `numpy_fn` raises on zero-stride stand-ins of `args` (NumPy checks shapes
    before it computes; call it where the shapes are known to be wrong), or None."""
    try:
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            numpy_fn(*(_full_stand_in(a) for a in args), **kwargs)
    except Exception as exc:  # noqa: BLE001: NumPy's answer, whatever it is
        return exc.with_traceback(None)
    return None
