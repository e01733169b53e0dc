"""NumPy's printing names. An Array prints through NumPy (its repr and str call NumPy on the
evaluated values), so NumPy's print options are lazyarray's: `la.set_printoptions` *is*
`np.set_printoptions`. The string functions evaluate their Array argument (printing is an
evaluation trigger) and call NumPy's."""

from __future__ import annotations

from typing import Any

import numpy as np



def set_printoptions(*args: Any, **kwargs: Any) -> None:
    """numpy.set_printoptions (the same options: Arrays print through NumPy)."""
    np.set_printoptions(*args, **kwargs)


def get_printoptions() -> dict[str, Any]:
    """numpy.get_printoptions."""
    return np.get_printoptions()


def printoptions(*args: Any, **kwargs: Any) -> Any:
    """numpy.printoptions: the context manager."""
    return np.printoptions(*args, **kwargs)


def base_repr(number: int, base: int = 2, padding: int = 0) -> str:
    """numpy.base_repr."""
    return np.base_repr(number, base, padding)


def binary_repr(num: int, width: int | None = None) -> str:
    """numpy.binary_repr."""
    return np.binary_repr(num, width)


def format_float_positional(x: Any, *args: Any, **kwargs: Any) -> str:
    """numpy.format_float_positional."""
    return np.format_float_positional(x, *args, **kwargs)


def format_float_scientific(x: Any, *args: Any, **kwargs: Any) -> str:
    """numpy.format_float_scientific."""
    return np.format_float_scientific(x, *args, **kwargs)


def array2string(a: Any, *args: Any, **kwargs: Any) -> str:
    """numpy.array2string of the evaluated values."""
    return np.array2string(np.asarray(a), *args, **kwargs)


def array_repr(arr: Any, *args: Any, **kwargs: Any) -> str:
    """numpy.array_repr of the evaluated values (NumPy's text: `array(...)`)."""
    return np.array_repr(np.asarray(arr), *args, **kwargs)


def array_str(a: Any, *args: Any, **kwargs: Any) -> str:
    """numpy.array_str of the evaluated values."""
    return np.array_str(np.asarray(a), *args, **kwargs)
