"""numpy.info for lazyarray's names: NumPy's text about NumPy's counterpart.

Rougier's exercise 5 (`np.info(np.add)`) asks for the documentation of a NumPy function; lazyarray's
functions promise NumPy's behaviour, so NumPy's own docstring is the answer (an AttributeError
before). An Array is shown as the NumPy array it evaluates to.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .array import Array

# lazyarray's sub-namespaces by the word in a function's module name (la.linalg.svd lives in
# lazyarray._linalg_calls); anything else is looked up in numpy itself
_NAMESPACES = (("linalg", np.linalg), ("fft", np.fft), ("random", np.random))


def info(object: Any = None, maxwidth: int = 76, output: Any = None,  # noqa: A002  (NumPy's)
         toplevel: str = "numpy") -> None:
    """numpy.info(object) of the NumPy object a lazyarray object stands for."""
    np.info(_counterpart(object), maxwidth, output, toplevel)


def _counterpart(obj: Any) -> Any:
    """NumPy's object of the same name for a lazyarray function or ufunc, an Array's value, or
    `obj` itself (a string, NumPy's own types and functions, anything else)."""
    if isinstance(obj, Array):
        return np.asarray(obj)
    module, name = getattr(obj, "__module__", None), getattr(obj, "__name__", None)
    if not (isinstance(module, str) and module.startswith("lazyarray") and isinstance(name, str)):
        return obj
    space = next((ns for word, ns in _NAMESPACES if word in module), np)
    theirs = getattr(space, name, None)
    return obj if theirs is None or isinstance(theirs, type(np)) else theirs
