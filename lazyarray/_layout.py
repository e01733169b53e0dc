"""NumPy's `order=` (and astype's `casting=`) arguments, checked as NumPy checks them.

An order that picks a layout (`np.zeros(s, order='F')`, `np.asarray(x, order='C')`,
`x.copy('F')`) lays the result out as NumPy's (lazyarray/result_layout.py `copied`); an order that
picks an element sequence (`reshape`/`ravel`/`flatten` with 'F') is lazyarray/manipulation.py's.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from . import _bind

_CASTINGS = ("no", "equiv", "safe", "same_kind", "unsafe")


def check_order(order: Any, site: Any, allowed: str = "CFAK") -> str:
    """The order's letter ('C' for None); NumPy's ValueError for any other or one not
    `allowed` (the creation functions take only 'C' and 'F')."""
    if order is not None and not isinstance(order, str):  # NumPy's TypeError (its converter's
        # text names the type: `x.flatten(1)`; a ValueError here before fuzz56)
        kind = type(order)
        name = kind.__name__ if kind.__module__ == "builtins" else f"{kind.__module__}.{kind.__name__}"
        raise _bind.fail(TypeError, f"order must be str, not {name}", site)
    key = "C" if order is None else order.upper() if order else order
    if key not in ("C", "F", "A", "K"):
        raise _bind.fail(ValueError, f"order must be one of 'C', 'F', 'A', or 'K' (got {order!r})",
                         site)
    if key not in allowed:
        raise _bind.fail(ValueError, "only 'C' or 'F' order is permitted", site)
    return key


def check_casting(source: np.dtype, target: np.dtype, casting: str, site: Any) -> None:
    """astype's `casting=`: NumPy's TypeError where the rule forbids the cast."""
    if casting not in _CASTINGS:
        raise _bind.fail(ValueError, "casting must be one of 'no', 'equiv', 'safe', 'same_kind', "
                         f"or 'unsafe' (got {casting!r})", site)
    if not np.can_cast(source, target, casting):
        raise _bind.fail(TypeError, f"Cannot cast array data from {source!r} to {target!r} "
                         f"according to the rule {casting!r}", site)
