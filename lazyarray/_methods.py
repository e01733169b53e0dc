"""Array's NumPy-API methods and operators, attached after the API modules exist.

As JAX's `jax/_src/numpy/array_methods.py`: the Array type (array.py, the core layer) imports no
API module; this module imports both sides and binds each operator (`__add__`, `__getitem__`,
`__setitem__`, ...) and ndarray-style method (`.sum`, `.reshape`, `.mT`, `.at`, ...) to the
namespace function of the same meaning. lazyarray/__init__.py imports it after the namespace."""

from __future__ import annotations

import operator
import sys
from types import FunctionType
from typing import Any
from weakref import ref as _weakref

import numpy as np

import lazyarray  # what `__array_namespace__` returns (still initializing when this module runs)

from . import (_bind, array_api, complex_functions, creation, dask, elementwise, indexing, linalg,
               manipulation, masking, reductions, searching, shaping)
from . import elementwise as ew  # the operator tables' short name
from .numpy_shapes import dot as _numpy_dot, trace as _numpy_trace
from . import numpy_index_tricks, numpy_math, numpy_selection, numpy_sets
from . import eager
from . import numpy_coverage as _coverage
from . import writes as _writes
from . import numpy_flags as _numpy_flags
from ._index_values import numpy_key
from .array import OWN_GETITEM, Array
from .cache import PAUSED
from .cuts import _LIMIT as _LIVE_LIMIT
from .cuts import _LIVE, _MIN_LIMIT, _prune
from .eager import LIMIT as _EAGER_LIMIT
from .graph import get_op
from .graph.registry import all_ops
from .graph.dtypes import bool_, float32, float64, refuse_array
from .graph.node import _BUDGET, user_site
from .runtime.backend import CopyStats
from .indexing import NUMPY_INTS, getitem, set_node, set_through_view
from .writes import rebind
from ._layout import check_order
from .result_layout import copied
from ._handled import checked_here, has_index_array, held_index_arrays
from ._handled import user_line_handles_errors

_SLICE_OP, _PERMUTE_OP = get_op("slice"), get_op("permute")


# --- methods the core Array type leaves to the API -------------------------------------------------
def __array_namespace__(self: Array, *, api_version: str | None = None) -> Any:
    """The Array API namespace of this Array: `lazyarray` itself (2024.12; 2023.12 also served)."""
    if api_version not in (None, "2023.12", "2024.12"):
        raise ValueError(f"lazyarray implements the Array API 2024.12, not {api_version!r}")
    return lazyarray


def to_device(self: Array, device: Any, /, *, stream: Any = None) -> Array:
    """The same value on `device` ('cpu', 'cuda', 'cuda:N'); evaluates this Array first."""
    return array_api.to_device(self, device, stream=stream)


def mT(self: Array) -> Array:  # noqa: N802
    """ndarray.mT: matrix_transpose, with the property's own text where ndim < 2 (NumPy's)."""
    if self.ndim < 2:
        raise ValueError("matrix transpose with ndim < 2 is undefined")
    return manipulation.matrix_transpose(self)


def at(self: Array) -> Any:
    return indexing.AtIndexer(self)


def to_dask(self: Array) -> Any:
    """This Array's plan as a lazy dask array: fused kernels as tasks per chunk (docs/dask.md)."""
    return dask.to_dask(self)


def __setitem__(self: Array, key: Any, value: Any) -> None:
    """`x[idx] = v` (_set_item); by an index Array inside a try block, computed at the line:
    NumPy's IndexError for an index out of bounds comes where the handler catches it. A 0-d
    result standing for NumPy's scalar (`t = x.sum()`) takes the write, as the Array API's 0-d
    arrays do, where NumPy's scalar raises TypeError: SciPy's array-api-extra writes into
    reduction results (`xpx.at(r, mask).set(nan)` in stats.pearsonr; a refusal, probe55's,
    broke it: tests/test_consumers.py)."""
    key = numpy_key(key)  # (a `range`, a user's integer type)
    if ((type(key) is tuple or type(key) is Array) and has_index_array(key, Array)
            and user_line_handles_errors()):
        key = held_index_arrays(key, Array)
        checked_here(lambda: _set_item(self, key, value) or self, user_site(1))
    else:
        _set_item(self, key, value)


def _set_item(self: Array, key: Any, value: Any) -> None:
    """`x[idx] = v` rebinds this handle to `x.at[idx].set(v)`, as Dask does: no buffer is
    written, so every other Array, view and export keeps its value. Array-API consumers
    (array-api-extra's `at`, `pad`, `create_diagonal`) take every non-JAX array for writable."""
    site = user_site(1)
    views = self._view
    if type(views) is tuple:
        _writes.check_writable(self)  # (NumPy's flag first, the key's errors after)
        _writes.release_dead_root(self)  # a view of a dead root writes as a root
        views = self._view
    if views is None or (type(views) is list and _none_alive(views)):
        # a root without (live) views: the common case, kept short
        tk = type(key)
        if (tk is tuple or tk is Array) and _EAGER_LIMIT[0]:  # computed element indices: ints
            key = indexing.computed_scalar_indices(key)
            tk = type(key)
        elif tk is list and _EAGER_LIMIT[0]:  # `A[[i, k]] = A[[k, i]]`: NumPy's index array
            positions = indexing.list_index(key)
            if positions is not None:
                key, tk = positions, np.ndarray
        if (tk is tuple or tk is int or tk is slice) and _EAGER_LIMIT[0] and eager.write_basic(
                self, key,
                eager.written_value(value, self, key) if type(value) is Array else value):
            return  # written into a buffer only this handle holds
        if ((tk is Array or tk is np.ndarray) and key.dtype == bool and _EAGER_LIMIT[0]
                and masking.write_now(self, key, value, site)):
            return  # `x[mask] = v` of computed values, at once (lazyarray/masking.py)
        if ((tk is tuple or tk is Array or tk is np.ndarray) and _EAGER_LIMIT[0]
                and eager.write_indexed(self, key, value._node if type(value) is Array
                                        else value)):
            return  # `x[idx] = v` by computed integer arrays into its own buffer, at once
        old = self._node
        new = set_node(self, key, value, site)
        if _EAGER_LIMIT[0] and eager.is_settled_base(old):
            new = eager.computed_values(new)
            if eager.settle(self, old, new):
                return  # written in place, or computed at once (lazyarray/eager.py)
        if old.op is _SLICE_OP or old.op is _PERMUTE_OP:  # a strided root keeps its memory
            new = _writes.kept_layout(old, new)  # (a view whose root died: fuzz55's seed 3144)
        self._node = new
        _LIVE.append(_weakref(self))  # cuts.track, inlined (no import per call)
        if len(_LIVE) > _LIVE_LIMIT[0]:
            _prune()
        return
    if (type(key) is tuple or type(key) is Array) and _EAGER_LIMIT[0]:
        # (computed element indices as ints here too: a scatter by a 0-d index Array checked
        # its bounds only at evaluation, `A[i, 1] = v` with i out of range and a view of A
        # alive raised IndexError when A was read; fuzz41)
        key = indexing.computed_scalar_indices(key)
    if (type(views) is tuple and _EAGER_LIMIT[0] and type(key) in (tuple, int, slice)
            and eager.write_basic_through_view(
                self, key, value._node if type(value) is Array else value)):
        return  # `A[i][j] = v`: into the root's buffer through the view (lazyarray/eager.py)
    if (type(views) is list and type(value) is Array and _EAGER_LIMIT[0]
            and type(key) in (tuple, int, slice)):
        # a root with live views (`prev = H[t - 1]; H[t] = f(prev)`: an automaton's history):
        # its pending value is computed at the write as without views (eager.written_value),
        # so the write can go into the buffer the views share (writes.py `_settle_root`)
        eager.written_value(value, self, key)
    set_through_view(self, key, value, site)


def _none_alive(views: list) -> bool:
    """Whether every view in a root's list is gone (a loop's `A[i, :j]` temporaries): the list
    is emptied then, and the root writes as one without views."""
    for r in views:
        if r() is not None:
            return False
    views.clear()
    return True


def __reduce__(self: Array) -> Any:
    if self._view is False and not self._node.shape:
        return (_scalar_result, (self._host(),))
    return (creation.array, (self._host(),))


def _scalar_result(value: Any) -> Array:
    """A pickled element or 0-d result, loaded: NumPy's scalar pickles as a scalar, so it stays
    one here (`_view` False: `t /= 2` of an int element gives a float, as NumPy's; fuzz40's seed
    150230, `Q = pickle.loads(pickle.dumps(A[2])); Q /= x` raised the in-place casting error)."""
    out = creation.array(value)
    out._view = False
    return out


# --- ndarray-style methods: each forwards to the namespace function of the same name --------------
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
    """ndarray.argsort: NumPy's argsort of that kind (its order of ties); axis=None flattens."""
    searching.check_sort_kind(kind, order, stable, user_site(1))
    return searching.argsort(self, axis=axis, kind=kind, stable=stable)


def _sort(self: Array, axis: int = -1, kind: Any = None, order: Any = None, *,
          stable: Any = None) -> None:
    """ndarray.sort: sorts in place, as NumPy (the handle, and through a view its base); returns
    None; NumPy's sort of that kind (its bits)."""
    site = user_site(1)
    searching.check_sort_kind(kind, order, stable, site)
    _writes.check_writable(self, "sort array is read-only")
    if axis is None:  # NumPy's ndarray.sort takes no None
        raise TypeError("'NoneType' object cannot be interpreted as an integer")
    rebind(self, searching.sort(self, axis=axis, kind=kind, stable=stable)._node, site)


def _set_real(self: Array, value: Any) -> None:
    """`x.real = v` (and so `z.real += 1`): writes the real part, as NumPy's setter."""
    complex_functions.real(self)[...] = value


def _set_imag(self: Array, value: Any) -> None:
    """`z.imag = v` (and `z.imag *= -1`): writes the imaginary part; NumPy's TypeError for a
    real array."""
    if self.dtype.kind != "c":
        raise TypeError("array does not have imaginary part to set")
    complex_functions.imag(self)[...] = value


def _copy(self: Array, order: str = "C") -> Array:
    """ndarray.copy: a new handle on the value (`x[i] = v` on it rebinds only it), laid out as
    NumPy's copy in `order` (result_layout.copied: `A.T.copy()` is C-contiguous)."""
    key = "C" if order == "C" else check_order(order, user_site(1))
    return Array(copied(self._node, key))


def _view(self: Array, dtype: Any = None, type: Any = None) -> Array:  # noqa: A002
    """ndarray.view(): a new handle on the same memory (writes through it reach self, and
    self's reach it). A view as another dtype reinterprets bytes, which a lazy value has not."""
    refuse_array(dtype)  # (NumPy's TypeError; it read an Array's `.dtype`, fuzz57)
    if type is not None or (dtype is not None and np.dtype(dtype) != self.dtype):
        raise NotImplementedError("view(dtype): reinterpreting an Array's bytes is not supported; "
                                  "use astype (a value conversion) or np.asarray(x).view(dtype)")
    return _writes.view_of(self, Array(self._node), lambda n: n)


def _partition(self: Array, kth: Any, axis: int = -1, kind: str = "introselect",
               order: Any = None) -> None:
    """ndarray.partition: in place, as NumPy (a sort: NumPy's partition order is unspecified
    beyond the kth element, and sorted is one such order)."""
    _writes.check_writable(self, "partition array is read-only")
    rebind(self, numpy_sets.partition(self, kth, axis, kind, order)._node, user_site(1))


def _put(self: Array, indices: Any, values: Any, mode: str = "raise") -> None:
    """ndarray.put: np.put on self (in place)."""
    numpy_index_tricks.put(self, indices, values, mode)


def _compress(self: Array, condition: Any, axis: Any = None, out: Any = None) -> Array:
    return numpy_selection.compress(condition, self, axis, out)


def _choose(self: Array, choices: Any, out: Any = None, mode: str = "raise") -> Array:
    return numpy_selection.choose(self, choices, out, mode)


def _searchsorted(self: Array, v: Any, side: str = "left", sorter: Any = None) -> Array:
    return searching.searchsorted(self, v, side, sorter)


def _argpartition(self: Array, kth: Any, axis: int = -1, kind: str = "introselect",
                  order: Any = None) -> Array:
    return numpy_sets.argpartition(self, kth, axis, kind, order)


def _tobytes(self: Array, order: str = "C") -> bytes:
    """ndarray.tobytes; order 'A' by NumPy's layout of self (Fortran only where it is
    Fortran-contiguous): the export of a view is a copy in its strides' order, so `B[::-1]` of a
    Fortran-ordered B gave its bytes in Fortran order, NumPy's in C (fuzz53 seed 118)."""
    if isinstance(order, str) and order.upper() == "A" and self.ndim > 1:
        layout = _writes.numpy_layout(self) if self._node.inputs else None
        order = "F" if layout is not None and layout.flags.f_contiguous and not \
            layout.flags.c_contiguous else "C"
    return np.asarray(self).tobytes(order)


def _round(self: Array, ndigits: Any = None) -> Any:
    """round(x): a 0-d Array stands for NumPy's scalar, whose round() is a Python int (Python's
    protocol: `round(x.sum())` is 12, not 12.0); with ndigits, or for a larger array, la.round."""
    if ndigits is None and not self.shape:
        return round(self.item())
    return ew.round(self, ndigits or 0)


def _fill(self: Array, value: Any) -> None:
    """ndarray.fill: every element becomes `value` (NumPy's assignment rules), in place. The
    value is one scalar, as NumPy's: `a.fill([1, 2])` or `a.fill(np.array([3]))` is NumPy's
    ValueError (an assignment would broadcast it: another answer, silently)."""
    if isinstance(value, (list, tuple)) or getattr(value, "ndim", 0) > 0:
        raise _bind.fail(ValueError, "setting an array element with a sequence.", user_site(1))
    self[...] = value


def _byteswap(self: Array, inplace: bool = False) -> Array:
    """ndarray.byteswap: each element's bytes reversed, as NumPy computes them (host work on
    the evaluated value); `inplace=True` writes them into this array (views see it) and returns
    it, as NumPy's."""
    swapped = creation.host_result(self._host().byteswap())
    if not inplace:
        return swapped
    self[...] = swapped
    return self


def _resize(self: Array, *new_shape: Any, refcheck: bool = True) -> None:
    """ndarray.resize: in place, the ravelled values cut or padded with zeros (np.resize repeats
    them instead). NumPy's errors where it refuses: a view (it does not own its data) or an
    array its views read (lazyarray refuses that also with refcheck=False, where NumPy's views
    would read freed memory), and, with refcheck, an array another name also holds (NumPy counts
    references: `b = a; a.resize(4)` raises, the SciPy lecture notes' example)."""
    site = user_site(1)
    refs = sys.getrefcount(self)
    shape = new_shape[0] if len(new_shape) == 1 else new_shape
    shape = (shape,) if isinstance(shape, (int, np.integer)) else tuple(shape)
    shape = tuple(operator.index(d) for d in shape)
    if type(self._view) is tuple:
        raise _bind.fail(ValueError, "cannot resize this array: it does not own its data", site)
    if any(d < 0 for d in shape):
        raise _bind.fail(ValueError, "negative dimensions not allowed", site)
    size = int(np.prod(shape, dtype=np.int64))
    if size != self.size and (any(r() is not None for r in self._view or ())
                              or refcheck and refs > _PLAIN_REFS):
        raise _bind.fail(ValueError, _REFERENCED, site)
    flat = manipulation.reshape(self, (self.size,))
    if size <= self.size:
        flat = flat[:size]
    else:
        flat = manipulation.concat([flat, creation.zeros(size - self.size, dtype=self.dtype)])
    self._node = manipulation.reshape(flat, shape)._node


_REFERENCED = ("cannot resize an array that references or is referenced\nby another object in "
               "this way.\nUse the np.resize function to get a new resized copy or\n set "
               "refcheck=False to disable this check")


class _Probe:
    def refs(self) -> int:
        return sys.getrefcount(self)


# What `sys.getrefcount(self)` reads inside a method called on an object one name holds (a
# module global, as a user's variable or attribute): more means another name holds it too.
_probe = _Probe()
_PLAIN_REFS = _probe.refs()
del _probe


def _tofile(self: Array, fid: Any, sep: str = "", format: str = "%s") -> None:  # noqa: A002
    """ndarray.tofile of the evaluated value."""
    np.asarray(self).tofile(fid, sep=sep, format=format)


def _axes_last(self: Array, axis1: int, axis2: int) -> Array:
    """The array with axis1, axis2 moved last (ndarray.diagonal/trace work on any two axes)."""
    return manipulation.moveaxis(self, (axis1, axis2), (-2, -1))


def _diagonal(self: Array, offset: int = 0, axis1: int = 0, axis2: int = 1) -> Array:
    return linalg.diagonal(_axes_last(self, axis1, axis2), offset=offset)


def _trace(self: Array, offset: int = 0, axis1: int = 0, axis2: int = 1, dtype: Any = None,
           out: Any = None) -> Array:
    if out is not None:
        return _numpy_trace(self, offset, axis1, axis2, dtype, out)
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
Array.copy = _copy  # type: ignore[attr-defined]
# ndarray.dot is np.dot: matmul up to 2-D, a product of a 0-d operand, and tensordot over a's
# last and b's second-to-last axes beyond (matmul broadcasts those: (1, 1, 1) . (1, 1, 1) was
# (1, 1, 1), NumPy's (1, 1, 1, 1); fuzz39's sweep, seed 115123)
Array.dot = _method(_numpy_dot)  # type: ignore[attr-defined]
Array.itemsize = property(lambda self: self.dtype.itemsize)  # type: ignore[attr-defined]
Array.nbytes = property(lambda self: self.size * self.dtype.itemsize)  # type: ignore[attr-defined]
Array.transpose = _transpose  # type: ignore[attr-defined]
Array.argsort = _argsort  # type: ignore[attr-defined]
Array.sort = _sort  # type: ignore[attr-defined]
Array.fill = _fill  # type: ignore[attr-defined]
Array.resize = _resize  # type: ignore[attr-defined]
Array.byteswap = _byteswap  # type: ignore[attr-defined]
Array.tofile = _tofile  # type: ignore[attr-defined]
for _name, _fn in (("view", _view), ("partition", _partition), ("put", _put),
                   ("compress", _compress), ("choose", _choose), ("searchsorted", _searchsorted),
                   ("argpartition", _argpartition), ("tobytes", _tobytes)):
    setattr(Array, _name, _fn)
Array.nonzero = _method(searching.nonzero)  # type: ignore[attr-defined]
Array.diagonal = _diagonal  # type: ignore[attr-defined]
Array.trace = _trace  # type: ignore[attr-defined]
Array.repeat = _repeat  # type: ignore[attr-defined]
# ndarray's complex accessors: .real/.imag are properties, .conj()/.conjugate() methods
Array.real = property(complex_functions.real, _set_real)  # type: ignore[attr-defined]
Array.imag = property(complex_functions.imag, _set_imag)  # type: ignore[attr-defined]


def _conj(self: Array, out: Any = None) -> Any:
    """ndarray.conj() / conjugate(): a real array's is the array itself, as NumPy's (writes into
    `a.conj()` reach `a`: it was a copy, probe55); a complex array's conjugate is new."""
    if out is not None:
        out[...] = complex_functions.conj(self)
        return out
    return self if self.dtype.kind != "c" else complex_functions.conj(self)


Array.conj = Array.conjugate = _conj  # type: ignore[attr-defined]


# --- keywords NumPy's methods refuse -----------------------------------------------------------------
# The methods above are the namespace functions, whose keywords NumPy's methods do not all take:
# `x.std(correction=1)` and `x.astype(t, device=...)` (NumPy's functions' keywords), `x.clip(a_min=)`
# (NumPy's method forwards to a ufunc), `x.fill(value=v)`, `x.swapaxes(axis1=0, axis2=1)`,
# `x.conj(out=y)`. NumPy raises TypeError; they were taken (fuzz57). (NumPy's text signatures
# are no guide: `take(self, indices, /, ...)` takes `indices=`, `fill(self, /, value)` refuses it.)
_REFUSED = {"std": ("correction",), "var": ("correction",), "astype": ("device",),
            "clip": ("a_min", "a_max"), "conj": None, "conjugate": None, "fill": None,
            "swapaxes": None}  # (None: every keyword)


def _refusal(name: str, args: tuple, keyword: str) -> TypeError:
    """NumPy's own TypeError for that call (its text names its function: `_std()`,
    `maximum()`, `ndarray.fill() takes no keyword arguments`), asked of a one-element array
    with the call's non-Array arguments."""
    if not keyword.isidentifier():
        return TypeError(f"{name}() got an unexpected keyword argument {keyword!r}")
    values = [None if isinstance(a, Array) else a for a in args]
    # (written out, not `f(*args, **kw)`: Python's text differs by call form, `ndarray.conj()
    # takes no keyword arguments` against `conj() ...`; `keyword` came as a Python identifier)
    call = f"x.{name}({''.join(f'a[{i}], ' for i in range(len(values)))}{keyword}=None)"
    try:
        eval(call, {"x": np.zeros(1), "a": values})  # noqa: S307
    except TypeError as exc:
        return TypeError(str(exc))
    except Exception:  # noqa: BLE001  (another error first: the keyword's own text below)
        pass
    return TypeError(f"{name}() got an unexpected keyword argument {keyword!r}")


def _keywords_checked(name: str, refused: tuple[str, ...] | None) -> Any:
    fn = getattr(Array, name)

    def method(self: Array, *args: Any, **kwargs: Any) -> Any:
        if kwargs:
            for k in kwargs:
                if refused is None or k in refused:
                    raise _refusal(name, args, k)
        return fn(self, *args, **kwargs)

    method.__name__, method.__doc__ = name, fn.__doc__
    return method


for _name, _refused in _REFUSED.items():
    setattr(Array, _name, _keywords_checked(_name, _refused))


def _scalar_only(name: str) -> property:
    """A method of NumPy's scalars that ndarray lacks (`np.sqrt(n).is_integer()`, a perfect-square
    test; `as_integer_ratio`, `hex`, `bit_count`): the scalar's own method where the Array stands
    for NumPy's scalar (`np.sqrt(16)`, `x.sum()`, `A[i, j]`: evaluated), and elsewhere an
    AttributeError, as an ndarray's (hasattr is False). It raised AttributeError (probe49)."""
    def get(self: Array) -> Any:
        if self._view is False and not self._node.shape:
            return getattr(self._host()[()], name)
        raise AttributeError(f"'Array' object has no attribute {name!r}")
    return property(get)


for _name in ("is_integer", "as_integer_ratio", "hex", "bit_count"):
    setattr(Array, _name, _scalar_only(_name))


for _fn in (__array_namespace__, to_device, to_dask, __setitem__, __reduce__):
    setattr(Array, _fn.__name__, _fn)
Array.mT = property(mT)  # type: ignore[attr-defined]


def _not_provided(name: str) -> property:
    """An ndarray attribute lazyarray does not have (`x.flags`, `x.strides`): still an
    AttributeError (hasattr is False, as before), whose text says why and what to use instead."""
    def get(self: Array) -> Any:
        raise _coverage.missing("lazyarray.Array", name)

    return property(get)


for _key in _coverage.NOT_PROVIDED:
    if _key.startswith("ndarray."):
        setattr(Array, _key[len("ndarray."):], _not_provided(_key[len("ndarray."):]))
Array.at = property(at)  # type: ignore[attr-defined]
# NumPy's memory facts of the layout NumPy's array would have (lazyarray/numpy_flags.py)
Array.flags = property(_numpy_flags.Flags)  # type: ignore[attr-defined]
Array.strides = property(_numpy_flags.strides)  # type: ignore[attr-defined]
Array.base = property(_numpy_flags.base)  # type: ignore[attr-defined]


def _set_shape(self: Array, shape: Any) -> None:
    """`x.shape = s`: NumPy's AttributeError where its memory has no view of that shape (the
    layout facts are numpy_flags'), else the handle reshaped (writes.set_shape)."""
    _numpy_flags.check_shape_assignment(self, shape)
    _writes.set_shape(self, shape)


Array.shape = property(Array.shape.fget, _set_shape)  # type: ignore[attr-defined]
Array.setflags = _numpy_flags.setflags  # type: ignore[attr-defined]


# --- operators --------------------------------------------------------------------------------------
def _operators() -> None:
    """Attach Python operators; each is the namespace function of the same meaning."""
    binary = {
        "add": ew.add, "sub": ew.subtract, "mul": ew.multiply, "truediv": ew.divide,
        "floordiv": ew.floor_divide, "mod": ew.remainder, "pow": ew.power,
        "and": ew.bitwise_and, "or": ew.bitwise_or, "xor": ew.bitwise_xor,
        "lshift": ew.bitwise_left_shift, "rshift": ew.bitwise_right_shift, "matmul": linalg.matmul,
    }
    inplace = {"add": np.add, "sub": np.subtract, "mul": np.multiply, "truediv": np.true_divide,
               "floordiv": np.floor_divide, "mod": np.remainder, "pow": np.power,
               "and": np.bitwise_and, "or": np.bitwise_or, "xor": np.bitwise_xor,
               "lshift": np.left_shift, "rshift": np.right_shift, "matmul": np.matmul}
    for name, fn in binary.items():
        setattr(Array, f"__{name}__", _forward(fn, inplace[name]))
        setattr(Array, f"__r{name}__", _reflected(fn, inplace[name]))
    power = _power_method(_forward(ew.power_operator, np.power))
    Array.__pow__ = power  # type: ignore[method-assign]
    compare = {"eq": ew.equal, "ne": ew.not_equal, "lt": ew.less, "le": ew.less_equal,
               "gt": ew.greater, "ge": ew.greater_equal}
    for name, fn in compare.items():
        setattr(Array, f"__{name}__", _forward(fn, getattr(np, fn.__name__, None)))
    for name, ufunc in inplace.items():  # x op= y writes x (and through a view, its base)
        setattr(Array, f"__i{name}__", _writes.inplace_method(getattr(Array, f"__{name}__"),
                                                                ufunc))
    Array.__eq__ = _with_none(Array.__eq__, False)  # type: ignore[method-assign]
    Array.__ne__ = _with_none(Array.__ne__, True)  # type: ignore[method-assign]
    Array.__divmod__ = _forward(_divmod)  # type: ignore[attr-defined]
    Array.__rdivmod__ = _reflected(_divmod)  # type: ignore[attr-defined]
    Array.__round__ = _round  # type: ignore[attr-defined]
    # The commonest operators bind their primitive directly: one Python frame less per op.
    direct = {"add": "add", "sub": "subtract", "mul": "multiply", "truediv": "divide"}
    for name, op_name in direct.items():
        setattr(Array, f"__{name}__", _direct(get_op(op_name), False, inplace[name]))
        setattr(Array, f"__r{name}__", _direct(get_op(op_name), True, inplace[name]))
    if _bind.FAST is not None:  # C methods for these four; the Python ones above as fallback
        _install_fast_path(direct, get_op)
    for name in direct:  # `x += y` computes as `x + y` does now (C, or one frame less)
        setattr(Array, f"__i{name}__", _writes.inplace_method(getattr(Array, f"__{name}__"),
                                                                inplace[name]))
    if _bind.FAST is not None and hasattr(_bind.FAST, "set_int_ranges"):
        # a Python int beside an integer Array (`s == 3`, `t + 1`) on the C path where it fits
        _bind.FAST.set_int_ranges({np.dtype(t): (int(np.iinfo(t).min), int(np.iinfo(t).max))
                                   for t in (np.int8, np.int16, np.int32, np.int64, np.uint8,
                                             np.uint16, np.uint32, np.uint64)})
    if _bind.FAST is not None and hasattr(_bind.FAST, "install_inplace"):
        # and in C: an index loop's `t -= d` rebinds the handle without a Python frame
        _bind.FAST.install_inplace(_writes.inplace_rest, tuple(inplace[n] for n in direct))
    unary = {"neg": ew.negative, "pos": ew.positive, "abs": ew.abs, "invert": ew.bitwise_invert}
    for name, fn in unary.items():
        setattr(Array, f"__{name}__", fn)
    if _bind.FAST is not None and hasattr(_bind.FAST, "install_methods"):
        # C methods for comparisons and unary operators: the namespace function's fast path
        # without its Python frame (two for a comparison); the Python methods above as fallback.
        _bind.FAST.install_methods(tuple(
            (f"__{name}__", get_op(fn.__name__), getattr(Array, f"__{name}__"))
            for name, fn in {**compare, **unary}.items()))
    if _bind.FAST is not None and hasattr(_bind.FAST, "install_reductions"):
        # `row.sum()`, `row.min()` of a float at-once value, `mask.any()` of a bool one, in C
        # (an index loop's reductions); the Python methods (_FORWARDED) for any argument and
        # any other value
        _bind.FAST.install_reductions(tuple((n, get_op(n), getattr(Array, n)) for n in
                                            ("sum", "min", "max", "any", "all")),
                                      (np.dtype(np.float32), np.dtype(np.float64)))
    if _bind.FAST is not None and hasattr(_bind.FAST, "install_element_operators"):
        # & | ^ << >> // % ** of elements in C (`crc ^ b`, `k % 3`, `e // 2.0`, `e ** 2` in an
        # index loop), and but for ** the namespace function's C path for arrays (automaton's
        # `(rule >> code) & 1`); the Python methods above for everything else
        _bind.FAST.install_element_operators(tuple(get_op(n) if n else None for n in (
            "bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_left_shift",
            "bitwise_right_shift", "floor_divide", "remainder", None)))
    def __getitem__(self: Array, key: Any) -> Array:
        key = numpy_key(key)  # (a `range`, a user's integer type)
        if ((type(key) is tuple or type(key) is Array) and has_index_array(key, Array)
                and user_line_handles_errors()):  # NumPy's IndexError inside the user's try
            return checked_here(lambda: getitem(self, key), user_site(1))
        return getitem(self, key)

    Array.__getitem__ = __getitem__  # type: ignore[method-assign]
    if _bind.FAST is not None and hasattr(_bind.FAST, "install_getitem"):
        # A C method for basic keys (ints, slices, None, ...); the Python one above for the rest.
        _bind.FAST.install_getitem(__getitem__, get_op("slice"), get_op("reshape"),
                                   _writes.prune_views, np.dtype(np.int64), get_op("permute"))
        if hasattr(_bind.FAST, "set_index_types"):  # np.int64 & co. as indices, as Python ints
            _bind.FAST.set_index_types(tuple(NUMPY_INTS))
        if hasattr(_bind.FAST, "install_transpose"):  # `x.T` in C, linked as getitem's views
            _bind.FAST.install_transpose(Array.__dict__["T"].fget)
        if hasattr(_bind.FAST, "install_iter"):  # `i, j = sites[k]`, `for row in A` in C
            _bind.FAST.install_iter(Array.__iter__)
    OWN_GETITEM[0] = Array.__dict__["__getitem__"]
    if (_bind.FAST is not None and hasattr(_bind.FAST, "install_setitem")
            and hasattr(_bind.FAST, "install_eager")):
        # A C method for an index loop's element writes into a buffer only the handle holds
        # (eager.write_basic's element case) and its masked writes of a number (counted in
        # CopyStats as eager.masked_write counts them); the Python method for everything else.
        _bind.FAST.install_setitem(__setitem__, np.dtype(np.float64), CopyStats)
    if (_bind.FAST is not None and hasattr(_bind.FAST, "install_scalar_conversions")
            and isinstance(Array.__int__, FunctionType)):
        # int(x), float(x), operator.index(x), bool(x) of a computed 0-d Array in C (crc16's
        # `int(b)` per byte); the Python methods (array.py) for everything else
        _bind.FAST.install_scalar_conversions(Array.__int__, Array.__float__, Array.__index__,
                                              Array.__bool__)


def _install_fast_path(direct: dict[str, str], get_op: Any) -> None:
    tables = (_LIVE, _LIVE_LIMIT, _prune, _bind._LOOPS, _bind._SCALAR_KEYS, _BUDGET, _bind.SCALAR,
              (float32, float64), _bind._BROADCASTS, _bind.BROADCAST)
    operators = tuple((get_op(op_name), getattr(Array, f"__{name}__"),
                       getattr(Array, f"__r{name}__")) for name, op_name in direct.items())
    _bind.FAST.install(Array, tables, operators)
    if hasattr(_bind.FAST, "set_live_min_limit"):  # the C prune of _LIVE keeps _prune's floor
        _bind.FAST.set_live_min_limit(_MIN_LIMIT)
    if hasattr(_bind.FAST, "install_eager"):
        view_ops = tuple(op for op in all_ops() if op.write_back is not None)
        _bind.FAST.install_eager(eager.LIMIT, eager.run_candidate, eager.EAGER_MARK, view_ops,
                                 eager.SEED_OPS, _bind.CAST, eager.element, PAUSED, _bind.INPUT,
                                 np.asarray, *eager.c_run_parts())
    if hasattr(_bind.FAST, "check_array_fields"):  # NumPy's array fields read directly, if right
        probe = np.empty((2, 3))
        _bind.FAST.check_array_fields(probe, probe[:, ::2])


def _divmod(x1: Any, x2: Any) -> tuple[Array, Array]:
    return numpy_math.divmod(x1, x2)


_OPERAND_TYPES = frozenset({int, float, complex, bool, np.ndarray})


def _direct(op: Any, reflected: bool, ufunc: Any = None) -> Any:
    elementwise = _bind.binary
    repeats = op.name == "multiply"

    if reflected:
        def method(self: Array, other: Any) -> Any:
            t = type(other)
            if t is not Array and t not in _OPERAND_TYPES and not _is_operand(other):
                return _not_an_operand(ufunc, (other, self), self)
            if repeats and (t is list or t is tuple) and _is_numpy_scalar(self):
                return NotImplemented
            return Array(elementwise(op, other, self, user_site(2)))  # 2: skip this frame
    else:
        def method(self: Array, other: Any) -> Any:
            t = type(other)
            if t is not Array and t not in _OPERAND_TYPES and not _is_operand(other):
                return _not_an_operand(ufunc, (self, other), self)
            if repeats and (t is list or t is tuple) and _is_numpy_scalar(self):
                return NotImplemented
            return Array(elementwise(op, self, other, user_site(2)))  # 2: skip this frame
    method.__name__ = ("__r" if reflected else "__") + op.name + "__"
    return method



def _is_numpy_scalar(x: Array) -> bool:
    """A 0-d result of an op (`_view` False), NumPy's scalar: `n * [0, 1]` and `[0] * n` with
    `n = x.argmax()` repeat the list there (NumPy's scalars leave `*` by a list or tuple to
    Python, which takes an integer's `__index__` and refuses a float's), where a 0-d array
    (`np.array(2)`, an Array's leaf) multiplies elementwise."""
    return x._view is False and not x._node.shape


def _with_none(method: Any, value: bool) -> Any:
    """`x == None` / `x != None` compare elementwise, as NumPy's (an object comparison: all False /
    all True), where Python's fallback for NotImplemented would answer one bool; so does a
    string (`labels == 'cat'` of a numeric array: NumPy 2's all False, not Python's False). A
    broadcast scalar: no memory until used. The C comparison methods fall back to this one."""
    def compare(self: Array, other: Any) -> Any:
        if other is None or isinstance(other, (str, bytes)):
            if other is None and _is_numpy_scalar(self):
                return value  # (NumPy's scalar leaves None to Python: `np.int64(1) == None`)
            out = Array(_bind.scalar_leaf(value, bool_, user_site(2), self.shape))
            if not self.shape:  # a 0-d operand's answer is NumPy's scalar, np.False_
                out._view = False
            return out
        return method(self, other)

    compare.__name__ = method.__name__
    return compare


def _not_an_operand(ufunc: Any, args: tuple, self: Array) -> Any:
    """An operator's other operand that is none of NumPy's: a string's is NumPy's own error
    (`np.arange(3) + 'a'`: UFuncTypeError "ufunc 'add' did not contain a loop ...", asked of
    NumPy on a zero-size stand-in); anything else is left to Python (NotImplemented). NumPy's
    scalars leave a reflected one and `* str` to Python (`'*' * count`, a repeat)."""
    if ufunc is None or not any(isinstance(a, (str, bytes)) for a in args):
        return NotImplemented
    if _is_numpy_scalar(self) and (args[0] is not self or ufunc is np.multiply):
        return NotImplemented
    ufunc(*(np.zeros(0, a.dtype) if type(a) is Array else a for a in args))
    return NotImplemented


def _forward(fn: Any, ufunc: Any = None) -> Any:
    def method(self: Array, other: Any) -> Any:
        if type(other) is not Array and not _is_operand(other):
            return _not_an_operand(ufunc, (self, other), self)
        return fn(self, other)

    method.__name__ = fn.__name__
    return method


def _reflected(fn: Any, ufunc: Any = None) -> Any:
    def method(self: Array, other: Any) -> Any:
        if type(other) is not Array and not _is_operand(other):
            return _not_an_operand(ufunc, (other, self), self)
        return fn(other, self)

    method.__name__ = "r" + fn.__name__
    return method


def _power_method(general: Any) -> Any:
    """`x ** 2` of a float Array as `np.square(x)` directly (its C path, at once in an index
    loop: row_loop's `((row - target) ** 2).sum()`), what elementwise.power makes of it after
    ~1.5 us of checks; any other operand takes `general` (bool ** 2 is int8, NumPy's). Square,
    not `x * x`: the same bits, and an overflow report names 'square' as NumPy's operator does."""
    def method(self: Array, other: Any) -> Any:
        if type(other) is int and other == 2 and self._node.dtype.kind == "f":
            return ew.square(self)
        return general(self, other)

    method.__name__ = general.__name__
    return method


def _is_operand(x: Any) -> bool:
    """What NumPy's ndarray would take: scalars, sequences, and foreign arrays (`__array__`,
    `__dlpack__`), except those that opt out of NumPy's operators (`__array_ufunc__ = None`,
    NEP 13): their reflected operator runs instead. An `__array_priority__` alone (torch sets
    one) does not defer: torch's reflected operators decline Arrays (`a + tensor` was a TypeError
    both ways round) or compute at torch's line in its own dtype (`a / tensor` as
    `tensor.reciprocal() * a`, in float32); the tensor is an operand instead, copied as an
    ndarray."""
    if isinstance(x, (Array, int, float, complex, bool, np.ndarray, np.generic, list, tuple)):
        return True
    if not (hasattr(x, "__array__") or hasattr(x, "__dlpack__")):
        return False
    return getattr(type(x), "__array_ufunc__", 0) is not None


_operators()
