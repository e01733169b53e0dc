"""ndarray-style methods on Array: each forwards to the namespace function of the same name."""

from __future__ import annotations

from types import FunctionType
from typing import Any

from . import (complex_functions, elementwise, indexing, linalg, manipulation, reductions, searching,
               shaping)
from .array import Array, _operators
from .graph.node import user_site
from .writes import rebind


def _method(fn: Any) -> Any:
    if isinstance(fn, FunctionType):  # binds as a method itself: no wrapper frame (`loss.sum()`)
        return fn

    def method(self: Array, *args: Any, **kwargs: Any) -> Any:
        return fn(self, *args, **kwargs)

    method.__name__ = fn.__name__
    method.__doc__ = fn.__doc__
    return method


def _reshape(self: Array, *shape: Any, **kwargs: Any) -> Array:
    if len(shape) == 1 and not isinstance(shape[0], int):
        shape = shape[0]
    return manipulation.reshape(self, shape, **kwargs)


def _transpose(self: Array, *axes: Any) -> Array:
    if len(axes) == 1 and not isinstance(axes[0], int):
        axes = axes[0]
    return manipulation.transpose(self, axes or None)


def _argsort(self: Array, axis: int | None = -1, kind: Any = None, order: Any = None, *,
             stable: Any = None) -> Array:
    """ndarray.argsort: always stable (any `kind` gives a valid answer); axis=None flattens."""
    if order is not None:
        raise ValueError("order is only for structured arrays")
    return searching.argsort(self, axis=axis)


def _sort(self: Array, axis: int = -1, kind: Any = None, order: Any = None, *,
          stable: Any = None) -> None:
    """ndarray.sort: sorts in place, as NumPy (the handle, and through a view its base); returns
    None. Always stable."""
    if order is not None:
        raise ValueError("order is only for structured arrays")
    if axis is None:  # NumPy's ndarray.sort takes no None
        raise TypeError("'NoneType' object cannot be interpreted as an integer")
    site = user_site(1)
    rebind(self, searching.sort(self, axis=axis)._node, site)


def _fill(self: Array, value: Any) -> None:
    """ndarray.fill: every element becomes `value` (NumPy's assignment rules), in place."""
    self[...] = value


def _axes_last(self: Array, axis1: int, axis2: int) -> Array:
    """The array with axis1, axis2 moved last (ndarray.diagonal/trace work on any two axes)."""
    return manipulation.moveaxis(self, (axis1, axis2), (-2, -1))


def _diagonal(self: Array, offset: int = 0, axis1: int = 0, axis2: int = 1) -> Array:
    return linalg.diagonal(_axes_last(self, axis1, axis2), offset=offset)


def _trace(self: Array, offset: int = 0, axis1: int = 0, axis2: int = 1, dtype: Any = None) -> Array:
    return linalg.trace(_axes_last(self, axis1, axis2), offset=offset, dtype=dtype)


def _repeat(self: Array, repeats: Any, axis: int | None = None) -> Array:
    return shaping.repeat(self, repeats, axis=axis)


_FORWARDED = {
    "sum": reductions.sum, "prod": reductions.prod, "mean": reductions.mean, "max": reductions.max,
    "min": reductions.min, "any": reductions.any, "all": reductions.all, "std": reductions.std,
    "var": reductions.var, "argmax": reductions.argmax, "argmin": reductions.argmin,
    "cumsum": reductions.cumsum, "cumprod": reductions.cumprod, "astype": elementwise.astype,
    "clip": elementwise.clip, "round": elementwise.round, "flatten": manipulation.flatten,
    "ravel": manipulation.ravel,
    "squeeze": manipulation.squeeze, "swapaxes": manipulation.swapaxes, "take": indexing.take,
}
for _name, _fn in _FORWARDED.items():
    setattr(Array, _name, _method(_fn))
Array.reshape = _reshape  # type: ignore[attr-defined]
Array.copy = Array.__copy__  # type: ignore[attr-defined]  (a new handle on the same value)
Array.dot = _method(linalg.matmul)  # type: ignore[attr-defined]
Array.itemsize = property(lambda self: self.dtype.itemsize)  # type: ignore[attr-defined]
Array.nbytes = property(lambda self: self.size * self.dtype.itemsize)  # type: ignore[attr-defined]
Array.transpose = _transpose  # type: ignore[attr-defined]
Array.argsort = _argsort  # type: ignore[attr-defined]
Array.sort = _sort  # type: ignore[attr-defined]
Array.fill = _fill  # type: ignore[attr-defined]
Array.nonzero = _method(searching.nonzero)  # type: ignore[attr-defined]
Array.diagonal = _diagonal  # type: ignore[attr-defined]
Array.trace = _trace  # type: ignore[attr-defined]
Array.repeat = _repeat  # type: ignore[attr-defined]
# ndarray's complex accessors: .real/.imag are properties, .conj()/.conjugate() methods
Array.real = property(complex_functions.real)  # type: ignore[attr-defined]
Array.imag = property(complex_functions.imag)  # type: ignore[attr-defined]
Array.conj = Array.conjugate = _method(complex_functions.conj)  # type: ignore[attr-defined]
_operators()
