"""NumPy 2's own AttributeError for a name it removed (`np.float_`, `np.NaN`, `np.float`, ...).

A published program written for NumPy 1 stops at such a line; with lazyarray it must stop with
NumPy's text (which says what to use instead), not Python's bare "has no attribute". The tables
are NumPy's own, so the texts follow the installed NumPy. `np.object`, `np.str` and `np.bytes`
also warn NumPy's FutureWarning first, as NumPy's module does.
"""

from __future__ import annotations

import warnings

import numpy as np

try:  # NumPy's table of the names its 2.0 release removed (a private module of NumPy 2)
    from numpy._expired_attrs_2_0 import __expired_attributes__ as _EXPIRED
except ImportError:  # pragma: no cover (another NumPy layout: Python's plain message)
    _EXPIRED = {}

_FORMER = getattr(np, "__former_attrs__", {})  # np.float, np.int, ...: aliases of builtins
_FUTURE = getattr(np, "__future_scalars__", frozenset())


def removed(name: str, module: str) -> AttributeError | None:
    """NumPy's AttributeError for `name` of the top-level namespace, or None when NumPy never
    had it. Called by the module's `__getattr__`, so the FutureWarning's stacklevel is the
    user's line."""
    if name in _FUTURE:
        warnings.warn(f"In the future `np.{name}` will be defined as the corresponding NumPy "
                      "scalar.", FutureWarning, stacklevel=3)
    if name in _FORMER:
        text = _FORMER[name].replace("module 'numpy'", f"module {module!r}", 1)
        return AttributeError(text, name=None)
    if name in _EXPIRED:
        return AttributeError(f"`np.{name}` was removed in the NumPy 2.0 release. "
                              f"{_EXPIRED[name]}", name=None)
    return None
