"""What an index key holds and the values an `.at[]` update stores: shared by indexing.py and
masking.py (a boolean mask beside other indices, `x.at[mask].op(v)`), which indexing.py imports."""

from __future__ import annotations

import operator
import warnings
from typing import Any

import numpy as np

from . import _bind
from .array import Array
from .graph import dtypes
from .graph.node import Node
from ._bind import as_node as _as_node


def _is_int(k: Any) -> bool:
    return isinstance(k, (int, np.integer)) and not isinstance(k, bool)


def _is_array_index(k: Any) -> bool:
    return isinstance(k, (Array, np.ndarray, list)) or isinstance(k, bool)


# Key items taken as they are (the rest may be a `range` or an object with `__index__`)
_PLAIN_ITEMS = frozenset({int, slice, type(None), type(Ellipsis), Array, np.ndarray, list, bool,
                          float, str, np.bool_, *_bind.NUMPY_INTS})


def numpy_key(key: Any) -> Any:
    """`key` with the items NumPy converts first: a `range` is an integer index array
    (`data[ind, range(n)]`, NumPy's quickstart), a tuple inside the key a list (NumPy's sequence
    index: `X[:, (0, 2)]`, ML-From-Scratch's polynomial features), and an object with
    `__index__` that is no array or sequence (a user's integer type) an integer, as NumPy's
    `operator.index`; `key` itself where it holds none (one set lookup per item)."""
    if type(key) is tuple:  # (a tuple item is a sequence, as a list: `X[:, (0, 2)]`, probe57)
        for k in key:
            if type(k) not in _PLAIN_ITEMS:
                return tuple([_numpy_item(k) for k in key])
        return key
    return key if type(key) in _PLAIN_ITEMS else _numpy_item(key)


def _numpy_item(k: Any) -> Any:
    t = type(k)
    if t is tuple:
        return list(k)
    if t is range:
        return np.arange(k.start, k.stop, k.step, dtype=np.intp)
    if (t not in _PLAIN_ITEMS and not isinstance(k, (np.generic, np.ndarray, Array, int))
            and hasattr(t, "__index__") and not hasattr(k, "__array__")
            and not hasattr(k, "__len__")):
        return operator.index(k)
    return k


def int_index_error(i: int, n: int, dim: int) -> Exception:
    """NumPy's exception for the integer index `i` out of bounds of an axis of length `n`: an
    int past int64 is no C long (OverflowError), past uint64 no index at all."""
    if not -2**63 <= i < 2**64:
        return IndexError(NOT_AN_INDEX)
    if not -2**63 <= i < 2**63:
        return OverflowError("Python int too large to convert to C long")
    return IndexError(f"index {i} is out of bounds for axis {dim} with size {n}")


NOT_AN_INDEX = ("only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and integer "
                "or boolean arrays are valid indices")  # NumPy's text for a float, str, ... key


def _is_int_index(k: Any) -> bool:
    return _is_int(k) or (isinstance(k, Array) and k.ndim == 0 and k.dtype.kind in "iu"
                          and k._node.holds_buffer)


def _python_scalar_as(value: bool | int | float | str | bytes, dtype: np.dtype,
                      site: _bind.Site) -> Any:
    """A Python scalar stored into `dtype` by NumPy's own assignment rules (`a[0] = value`):
    NaN into an integer is ValueError, an int out of range or infinity OverflowError, 1.5 becomes
    1 — raised here, at the user's line, instead of inside a backend at evaluation."""
    cell = np.empty((), dtype)
    try:
        cell[()] = value
    except (OverflowError, ValueError, TypeError) as exc:
        raise _bind.fail(type(exc), str(exc), site) from None  # (NumPy's text alone: fuzz47)
    return cell.item()


def numpy_packed(values: Any, dtype: np.dtype, site: _bind.Site) -> Any:
    """A NumPy scalar or a list/tuple stored into an integer `dtype` as NumPy stores it: item by
    item through its setitem (Python's `int()` of a float, then C's wrap), not as an array cast.
    So `a[:2] = [nan, 1]` is ValueError, `[inf, 1]`, `[300.0]` into int8 and `np.float64(2.0**63)`
    into int64 OverflowError, `np.float64(-1.0)` into uint8 255 (so does an array cast, through
    int32: docs/semantics.md "Defined where NumPy leaves it to the platform"). The caller passes
    NumPy scalars only for a basic key: `a[[0, 1]] = np.float64(nan)` is NumPy's array cast. The
    values as they are where NumPy's own packing casts arrays (a 0-d ndarray item): the cast node
    warns then, as NumPy's cast does, under la.errstate."""
    with warnings.catch_warnings(record=True) as caught, np.errstate(all="raise"):
        warnings.simplefilter("always")
        try:
            if type(values) is list or type(values) is tuple or isinstance(values, np.ndarray):
                packed = np.array(values, dtype=dtype)
            else:  # (np.array of a NumPy scalar casts it; setitem packs it: `a[()] = v`)
                packed = np.empty((), dtype)
                packed[()] = values
                packed = packed[()]
        except FloatingPointError:
            return values
        except (OverflowError, ValueError, TypeError) as exc:
            raise _bind.fail(type(exc), str(exc), site) from None  # (NumPy's text alone)
    for w in caught:  # (ComplexWarning: `a[:1] = [np.complex128(1+2j)]`), at the user's line
        warnings.warn_explicit(w.message, w.category, *(site or ("<unknown>", 0)))
    return packed


def _value_node(values: Any, dtype: np.dtype, site: _bind.Site) -> Node:
    """The values of an `.at[]` update; a Python scalar, list or tuple is stored by NumPy's
    assignment rules."""
    tv = type(values)
    if tv in (bool, int, float, complex) or isinstance(values, (str, bytes)):
        # (1j into a float array: TypeError; "2.5" is parsed, "a" NumPy's ValueError)
        return _bind.scalar_leaf(_python_scalar_as(values, dtype, site), dtype, site)
    if (tv is list or tv is tuple) and _holds_no_array(values):
        if dtype.kind not in "iu":  # (an array of numbers NumPy's item conversion would equal)
            try:
                probe = np.asarray(values)
            except (ValueError, TypeError):  # (ragged: as_node's error)
                return _as_node(values, site)
            kind = probe.dtype.kind
            if kind in "biuf" or (kind == "c" and dtype.kind == "c"):
                return _as_node(probe, site)
        values = numpy_packed(values, dtype, site)  # (`[1j]` into floats: NumPy's TypeError)
    elif isinstance(values, np.ndarray) and values.dtype.kind in "US":
        values = numpy_packed(values, dtype, site)  # (NumPy parses strings into numbers)
    return _as_node(values, site)


def _holds_no_array(values: list | tuple) -> bool:
    """Whether a nested list or tuple holds no lazyarray Array (packing one would evaluate it
    under NumPy's error state: those keep the array path)."""
    stack = [values]
    while stack:
        for item in stack.pop():
            if type(item) is list or type(item) is tuple:
                stack.append(item)
            elif isinstance(item, Array):
                return False
    return True


def is_basic_key(key: Any) -> bool:
    """Ints, slices, `...` and None only: NumPy packs a scalar value there (`a[0] = v`), where
    an index array or a mask casts it as an array."""
    for k in key if type(key) is tuple else (key,):
        if not (_is_int_index(k) or type(k) is slice or k is Ellipsis or k is None):
            return False
    return True


def update_values(dtype: np.dtype, values: Any, mode: str, site: _bind.Site,
                  warn: bool = True) -> tuple[Node, np.dtype]:
    """The values of an `.at[]` update and the dtype the update computes in, by JAX's rule:
    `set` stores the values cast to x's dtype (a Python scalar by NumPy's assignment rules);
    `add`/`multiply`/`min`/`max` compute in the promoted dtype of x and the values (NEP 50: a
    Python scalar is weak), and the caller casts the result back to x's dtype, so
    `int8.at[0].multiply(2.5)` of 11 is int8(27.5) = 27, not 11 * int8(2.5) = 22. Complex values
    into a real array raise TypeError (casting back would drop the imaginary part silently)."""
    if mode == "set":
        return set_values(values, dtype, site, warn), dtype
    weak = dtypes.weak_type_of(values) if type(values) in (bool, int, float, complex) else None
    if weak is not None:
        promoted = dtypes.result_type(dtype, weak)
        node = _bind.scalar_leaf(_python_scalar_as(values, promoted, site), promoted, site)
    else:
        node = _as_node(values, site)
        promoted = dtypes.result_type(dtype, node.dtype)
    if promoted.kind == "c" and mode in ("min", "max"):  # as la.minimum: complex is unordered
        raise _bind.fail(TypeError, f".at[].{mode} is not defined for complex values (the Array "
                         "API orders real numbers only)", site)
    if promoted.kind == "c" and dtype.kind != "c":
        raise _bind.fail(TypeError, f".at[].{mode}: complex values cannot update a {dtype} array "
                         "(the result is cast back to its dtype); pass their .real", site)
    return node, promoted


def set_values(values: Any, dtype: np.dtype, site: _bind.Site, warn: bool = True) -> Node:
    """The node of `x[key] = values`' values, before their cast to x's dtype: complex values
    into a real array warn NumPy's ComplexWarning at the user's line (the cast drops the
    imaginary part; NumPy warns even where the key selects nothing). `warn=False`: the caller
    warns (warn_complex_cast) once the values' shape fits, as NumPy, whose shape error comes
    first and alone (fuzz46)."""
    node = _value_node(values, dtype, site)
    if warn:
        warn_complex_cast(node, dtype, site)
    return node


def warn_complex_cast(node: Node, dtype: np.dtype, site: _bind.Site) -> None:
    """NumPy's ComplexWarning where complex values are stored into a real `dtype` array."""
    if node.dtype.kind == "c" and dtype.kind not in "cb":
        warnings.warn_explicit("Casting complex values to real discards the imaginary part",
                               np.exceptions.ComplexWarning, *(site or ("<unknown>", 0)))
