"""NumPy's scalar-type names, its abstract type hierarchy and `ndarray` as a constructor.

The namespace's dtype names are NumPy's scalar types (`la.float64 is np.float64`), so NumPy's C-named
aliases are those same types (`la.ubyte is la.uint8`, `la.double(3)` a NumPy float64), and the abstract types (`la.floating`, ...) are NumPy's own
classes: `np.issubdtype(x.dtype, la.floating)` needs nothing more. `la.ndarray` is a small class
whose instances are Arrays: `la.ndarray(shape, dtype)` gives zeros (NumPy leaves the buffer
uninitialized; zeros are one of its possible contents), and `isinstance(x, la.ndarray)` is true for
every Array. The Array class itself is left alone: its constructor takes a node, and the C tracing
fast paths build Arrays directly.
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np

from .array import Array
from .graph import dtypes
from .graph.dtypes import refuse_array
from .creation import zeros

# C-named aliases: NumPy's own scalar types, as the namespace's dtype names are (la.float64 is
# np.float64, lazyarray/__init__.py): `np.double(3)`, `np.intc(x)` construct NumPy's scalars, and
# `la.ubyte is la.uint8` (NumPy 2 on LP64: `long` and `int_` are int64).
byte, ubyte, short, ushort = np.byte, np.ubyte, np.short, np.ushort
intc, uintc, long, ulong = np.intc, np.uintc, np.long, np.ulong  # noqa: A001
longlong, ulonglong, int_, uint = np.longlong, np.ulonglong, np.int_, np.uint
intp, uintp = np.intp, np.uintp
single, double, csingle, cdouble = np.single, np.double, np.csingle, np.cdouble

# NumPy's abstract scalar types: classes for issubdtype / isinstance on NumPy scalars
generic, number, integer = np.generic, np.number, np.integer
signedinteger, unsignedinteger = np.signedinteger, np.unsignedinteger
inexact, floating, complexfloating = np.inexact, np.floating, np.complexfloating
False_, True_ = np.False_, np.True_  # noqa: N816  (NumPy's names)

# dtype utilities: they read dtypes only, never data (NumPy's own functions)
dtype = np.dtype
typecodes, sctypeDict, ScalarType = np.typecodes, np.sctypeDict, np.ScalarType  # noqa: N816


def issubdtype(arg1: Any, arg2: Any) -> bool:
    """numpy.issubdtype (lazyarray's dtypes are NumPy dtypes; an Array is no dtype, as NumPy's
    array is not: NumPy reads the `.dtype` of other objects)."""
    refuse_array(arg1), refuse_array(arg2)
    return np.issubdtype(arg1, arg2)


def promote_types(type1: Any, type2: Any) -> np.dtype:
    """numpy.promote_types (an Array is no dtype: NumPy's TypeError)."""
    refuse_array(type1), refuse_array(type2)
    return np.promote_types(type1, type2)


def min_scalar_type(a: Any) -> np.dtype:
    """numpy.min_scalar_type (of a value; an Array is evaluated)."""
    return np.min_scalar_type(np.asarray(a) if isinstance(a, Array) else a)


def mintypecode(typechars: Any, typeset: str = "GDFgdf", default: str = "d") -> str:
    """numpy.mintypecode."""
    return np.mintypecode(typechars, typeset, default)


def typename(char: str) -> str:
    """numpy.typename."""
    return np.typename(char)


def common_type(*arrays: Any) -> type:
    """numpy.common_type: the inexact scalar type common to the arrays' dtypes."""
    return np.common_type(*(np.empty(0, a.dtype) if isinstance(a, Array) else a for a in arrays))


def iterable(y: Any) -> bool:
    """numpy.iterable."""
    return np.iterable(y)

euler_gamma = np.euler_gamma
little_endian = sys.byteorder == "little"


class _ArrayType(type):
    """`isinstance(x, la.ndarray)` is `isinstance(x, la.Array)` (and likewise for subclasses)."""

    def __instancecheck__(cls, obj: Any) -> bool:
        return isinstance(obj, Array)

    def __subclasscheck__(cls, sub: type) -> bool:
        return issubclass(sub, Array)


class ndarray(metaclass=_ArrayType):  # noqa: N801  (NumPy's name)
    """numpy.ndarray as NumPy programs call it: `ndarray(shape, dtype=float)` is a new Array of
    zeros (NumPy's memory is uninitialized, so any content is NumPy's; zeros are deterministic).
    `buffer=`/`offset=`/`strides=` views of foreign memory are refused: lazyarray copies inputs
    (use `la.asarray(np.ndarray(...))`)."""

    def __new__(cls, shape: Any, dtype: Any = float, buffer: Any = None, offset: int = 0,
                strides: Any = None, order: Any = None) -> Array:  # type: ignore[misc]
        if buffer is not None or strides is not None or offset:
            raise TypeError("la.ndarray(shape, dtype) makes zeros; views of a buffer (buffer=, "
                            "offset=, strides=) are not supported: use la.asarray(numpy array)")
        if order not in (None, "C", "F"):
            raise ValueError("order must be one of 'C', 'F'")

        return zeros(shape, dtype=dtype)
