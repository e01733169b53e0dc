"""NumPy's own function at the line, on small computed arguments (the at-once rule's host calls).

Some NumPy functions are compositions of many lazy ops here (`interp`: a searchsorted, gathers
and selects; `einsum`: multiplies, sums and matmuls). Over small computed arrays in an index
loop each op ran at once, ~300 us for `np.interp` of 20 points against NumPy's 0.9. Where every
Array argument is computed (a buffer or a view of one) and no larger than the at-once size, the
function's NumPy version on the host values is the answer, bit for bit. NumPy runs it under
la.errstate's modes (declined under 'call' and 'log', whose callback NumPy's run would not
reach, and 'print'); its warnings and errors are NumPy's, at the user's line.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from . import _bind
from .array import Array
from .cache import _state
from .creation import host_result
from .eager import LIMIT, view_value
from . import fp_state


def computed(values: Sequence[Any]) -> list | None:
    """The host values of `values` (each Array's buffer or a NumPy view of it; anything else as
    it is, for NumPy to convert), or None where an Array is pending or past the at-once size."""
    if not LIMIT[0] or _state.busy or _state.stand_ins:
        return None
    out = []
    for v in values:
        if type(v) is Array:
            node = v._node
            if node.size > LIMIT[0]:
                return None
            value = view_value(node)
            if value is None:
                return None
            out.append(value)
        elif isinstance(v, (list, tuple)) and any(isinstance(i, Array) for i in v):
            return None  # (NumPy would evaluate each through __array__)
        else:
            out.append(v)
    return out


def call(fn: Callable[..., Any], args: Sequence[Any], kwargs: dict[str, Any],
         site: _bind.Site) -> Array | None:
    """`fn(*args, **kwargs)` on the host values of `args` and `kwargs` as an Array (NumPy's
    scalar stays one; a tuple of them for a tuple), or None where `computed` declines. NumPy's
    warnings come out at the user's line, its errors with the line's note."""
    values = computed(args)
    options = computed(list(kwargs.values())) if values is not None else None
    if options is None:
        return None
    modes = dict(zip(fp_state.CATEGORIES, fp_state.modes_now()[0]))  # (np.errstate's too)
    if not _NUMPY_MODES.issuperset(modes.values()):
        return None
    with warnings.catch_warnings(record=True) as caught, np.errstate(**modes):
        warnings.simplefilter("always")
        try:
            result = fn(*values, **dict(zip(kwargs, options)))
        except (ValueError, TypeError, IndexError, FloatingPointError) as exc:
            raise _bind.with_site(exc, site) from None
    for w in caught:
        warnings.warn_explicit(w.message, w.category, *(site or ("<unknown>", 0)))
    if type(result) is tuple:  # (np.histogram's counts and edges)
        return tuple(_result(r) for r in result)
    return _result(result)


_NUMPY_MODES = frozenset({"ignore", "warn", "raise"})


def _result(value: Any) -> Array:
    if not isinstance(value, (np.ndarray, np.generic)):
        value = np.asarray(value)
    elif isinstance(value, np.ndarray) and value.base is not None:
        value = value.copy()  # (never a view of an argument's buffer: the callers' are new)
    return host_result(value)
