"""NumPy's per-function rules for axis, keepdims and integer arguments, where they differ from
the common normalizers (_bind.normalize_axes / normalize_axis).

NumPy reads these arguments in three ways, and a function here follows the one its NumPy
counterpart uses (docs/semantics.md "Arguments"):
- C functions (argsort, take, repeat, concatenate, squeeze, cumsum, the ufunc reductions) read an
  axis with PyArray_AxisConverter, which refuses a bool: `np.take(x, i, axis=True)` is a
  TypeError. Python functions (sort, diff, flip, stack, median) take operator.index(True) == 1.
- linalg.norm and vector_norm take int() of a non-tuple axis (1.0 and np.True_ are axis 1).
- The ufunc reductions read keepdims as an integer: np.True_, None, a float or a str is a
  TypeError (argmax, median and quantile take its truth value).
- Offsets and counts (diagonal's offset, diag's k, tile's reps, split's points) are read with
  operator.index: 2.0 is a TypeError, not 2.
"""

from __future__ import annotations

import operator
from typing import Any

from ._bind import Site, fail
from .graph.node import user_site


def refuse_bool_axis(axis: Any, site: Site | None = None) -> None:
    """NumPy's C axis converter: Python's True/False is no axis (it was axis 1/0 here). Without
    a `site`, the user's line is found when it fails."""
    if type(axis) is bool:
        raise fail(TypeError, f"an integer is required for the axis, not {axis!r}",
                   site if site is not None else user_site(1))


def fail_here(exc_type: type[Exception], message: str) -> Exception:
    """_bind.fail at the user's line, for modules that do not track a site."""
    return fail(exc_type, message, user_site(1))


def norm_axis(axis: Any, site: Site) -> Any:
    """linalg.norm's axis: None or a tuple as given, anything else int(axis) (NumPy's rule)."""
    if axis is None or type(axis) is tuple:
        return axis
    try:
        return int(axis)
    except (TypeError, ValueError):
        raise fail(TypeError, "'axis' must be None, an integer or a tuple of integers",
                   site) from None


def keepdims_flag(keepdims: Any, site: Site) -> bool:
    """A ufunc reduction's keepdims: an integer (operator.index), as NumPy reads it, where its
    truth value passed np.True_, None or 'no' here."""
    try:
        return bool(operator.index(keepdims))
    except TypeError:
        raise fail(TypeError, f"'{type(keepdims).__name__}' object cannot be interpreted as an "
                   "integer (keepdims)", site) from None


def index_arg(value: Any, name: str, site: Site | None = None) -> int:
    """An integer argument NumPy reads with operator.index (diagonal's offset, diag's k, tile's
    and split's counts): a float or np.True_ is a TypeError, where int() truncated it here."""
    try:
        return operator.index(value)
    except TypeError:
        raise fail(TypeError, f"'{type(value).__name__}' object cannot be interpreted as an "
                   "integer", site if site is not None else user_site(1)) from None  # (NumPy's
        # text: the argument's `name` is no part of it, fuzz46)
