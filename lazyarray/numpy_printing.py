"""NumPy's printing names. An Array prints through NumPy (its repr and str call NumPy on the
evaluated values), so NumPy's print options are lazyarray's: `la.set_printoptions` *is*
`np.set_printoptions`. The string functions evaluate their Array argument (printing is an
evaluation trigger) and call NumPy's."""

from __future__ import annotations

from typing import Any

import numpy as np

set_printoptions, get_printoptions, printoptions = (np.set_printoptions, np.get_printoptions,
                                                    np.printoptions)
base_repr, binary_repr = np.base_repr, np.binary_repr
format_float_positional, format_float_scientific = (np.format_float_positional,
                                                    np.format_float_scientific)


def array2string(a: Any, *args: Any, **kwargs: Any) -> str:
    """numpy.array2string of the evaluated values."""
    return np.array2string(np.asarray(a), *args, **kwargs)


def array_repr(arr: Any, *args: Any, **kwargs: Any) -> str:
    """numpy.array_repr of the evaluated values (NumPy's text: `array(...)`)."""
    return np.array_repr(np.asarray(arr), *args, **kwargs)


def array_str(a: Any, *args: Any, **kwargs: Any) -> str:
    """numpy.array_str of the evaluated values."""
    return np.array_str(np.asarray(a), *args, **kwargs)
