"""NumPy's ufunc objects over lazyarray's elementwise functions: `la.add` is a `la.ufunc`.

`la.add(x, y)` calls elementwise.py's twin of `add` that takes NumPy's keywords (its class's
`__call__` is that function, so no Python frame is added); the twin hands `out=`, `where=`,
`dtype=`, `casting=` to `ufunc.call_general`. The methods `outer`, `reduce`, `accumulate`,
`reduceat` and `at` are lazy compositions of the same function (past a size, a non-associative
reduce runs NumPy's method on the evaluated input; an associative or long accumulate is NumPy's
method as one lazy op). NumPy's own ufunc runs on zero-size stand-ins of
the operands (`_probe`): it raises NumPy's errors (casting, bad axis, a reduction without
identity) and names NumPy's result dtype, without touching data. `out=` and `at` rebind the Array
they are given, as `out[...] = result` does (docs/semantics.md): an Array is a value, its handle
is what changes.
"""

from __future__ import annotations

import inspect
import warnings
from typing import Any, Callable

import numpy as np

from . import _bind, creation, manipulation, reductions
from . import elementwise as ew
from ._handled import held_index_arrays, user_line_handles_errors
from ._numpy_errors import numpy_shape_error
from .array import Array
from .graph.ops_unchecked import out_cast
from .writes import check_writable, numpy_view_on_host, write_past_flag
from .creation import asarray
from .manipulation import broadcast_to, concat, moveaxis, stack
from .cache import is_busy
from .graph import dtypes, get_op
from .graph.node import user_site
from .graph.dtypes import refuse_array
from ._layout import check_order
from .result_layout import copied

_NO_VALUE = np._NoValue  # NumPy's "not given" for initial=
# la reductions and scans that compute a ufunc's reduce / accumulate in one fused op.
_REDUCTIONS = {"add": "sum", "multiply": "prod", "maximum": "max", "minimum": "min",
               "logical_and": "all", "logical_or": "any"}
_SCANS = {"add": "cumsum", "multiply": "cumprod"}
# Exactly associative (integers, max/min, logic): reduce and accumulate combine in a tree
# (log n ops); the others fold left to right, in NumPy's order.
_ASSOCIATIVE = frozenset({"maximum", "minimum", "fmax", "fmin", "logical_and", "logical_or",
                          "logical_xor", "bitwise_and", "bitwise_or", "bitwise_xor", "gcd", "lcm"})
# ufunc.at spelled as the scatter op x.at[i].<method>(v): it accumulates repeated indices
# (subtract adds -v: x - v is x + (-v) exactly, in floats and in wrapping integers).
_SCATTER = {"add": "add", "multiply": "multiply", "maximum": "max", "minimum": "min",
            "subtract": "add"}
# Past these, a left-to-right fold (ops per element of the axis) or `.at`'s rounds (one per
# repeat of a position) would build too large a graph: NumPy runs on the evaluated input.
_FOLD_LIMIT, _ROUND_LIMIT = 256, 64
_ACCUMULATE = get_op("accumulate")
_ACCUMULATED: dict[tuple, np.dtype] = {}  # (ufunc, dtype) -> NumPy's accumulate result dtype


class ufunc:  # noqa: N801  (NumPy's name)
    """A NumPy ufunc over a lazyarray function: call it, or use `.outer`, `.reduce`,
    `.accumulate`, `.reduceat`, `.at`; `nin`, `nout`, `nargs`, `identity`, `signature` as
    NumPy's."""

    __slots__ = ("_np", "_fn")
    signature = None

    def __init__(self, np_ufunc: np.ufunc, fn: Callable[..., Any]) -> None:
        self._np, self._fn = np_ufunc, fn

    __name__ = property(lambda self: self._np.__name__)  # type: ignore[assignment]
    nin = property(lambda self: self._np.nin)
    nout = property(lambda self: self._np.nout)
    nargs = property(lambda self: self._np.nargs)
    ntypes = property(lambda self: self._np.ntypes)
    types = property(lambda self: self._np.types)
    identity = property(lambda self: self._np.identity)

    @property
    def __signature__(self) -> inspect.Signature:
        return inspect.signature(self._fn)

    def __repr__(self) -> str:
        return f"<ufunc '{self._np.__name__}'>"

    def __reduce__(self) -> Any:
        return (_by_name, (self._np.__name__,))

    # --- __call__ with NumPy's keywords ----------------------------------------------------------
    def call_general(self, inputs: tuple, out: Any, kwargs: dict) -> Any:
        """A call with out=, where=, dtype=, casting=, signature=, order= (the results' layout, as
        NumPy's: `np.add(a, b, order='F')` is Fortran-ordered) and subok=: NumPy checks the dtypes
        on zero-size stand-ins, the function computes, the results take NumPy's dtype, then land
        in `out`."""
        site = user_site(2)
        where = kwargs.pop("where", True)
        casting = kwargs.pop("casting", "same_kind")
        dtype, signature = kwargs.pop("dtype", None), kwargs.pop("signature", None)
        refuse_array(dtype)  # (NumPy's TypeError; it read an Array's `.dtype`, fuzz57)
        order, _ = kwargs.pop("order", "K"), kwargs.pop("subok", None)
        if kwargs:
            raise _bind.fail(TypeError, f"{self._np.__name__}() got an unexpected keyword argument "
                             f"{next(iter(kwargs))!r}", site)
        if where is not True and (out is None or type(out) is tuple
                                  and all([o is None for o in out])):
            # NumPy's UserWarning, before its other argument errors (the result is zeros there)
            warnings.warn_explicit(_WHERE_WITHOUT_OUT, UserWarning, *(site or ("<unknown>", 0)))
        order = "K" if order == "K" else check_order(order, site)
        outs = _out_tuple(out, self._np.nout, site)
        options = {"casting": casting, "dtype": dtype, "signature": signature}
        loop = _probe(self._np, inputs, options, where, outs, site)
        if where is True:
            _check_out_shapes(inputs, outs, site)
        else:
            _check_where_shapes(inputs, outs, where, site)
        if dtype is not None or signature is not None:
            inputs = _cast_inputs(self._np, inputs, options, site)
        if where is not True:
            inputs = _quiet_outside(self._np, inputs, where)
        try:
            results = self._fn(*inputs)
        except FloatingPointError as exc:  # a 'raise' mode's error at the line, with its value
            value = getattr(exc, "_lazyarray_value", None)  # (_handled.raises_at_the_line):
            if value is None or self._np.nout != 1 or where is not True:  # NumPy's ufunc
                raise  # wrote its output first
            del exc._lazyarray_value
            _store(value if value.dtype == loop[0] else ew.astype(value, loop[0]), outs[0], site)
            raise
        results = results if isinstance(results, tuple) else (results,)
        results = tuple(r if r.dtype == d else ew.astype(r, d) for r, d in zip(results, loop))
        if order != "K":  # (an `out=` keeps its own layout: NumPy writes into its memory)
            results = tuple(r if o is not None else Array(copied(r._node, order))
                            for r, o in zip(results, outs))
        if where is not True:
            results = tuple(_masked(r, where, o) for r, o in zip(results, outs))
        stored = tuple(_store(_out_cast(r, o, self._np.__name__, site), o, site)
                       for r, o in zip(results, outs))
        return stored if self._np.nout > 1 else stored[0]

    # --- methods ----------------------------------------------------------------------------------
    def outer(self, A: Any, B: Any, /, **kwargs: Any) -> Any:  # noqa: N803  (NumPy's names)
        """ufunc(A[..., None, ...], B): every pair, result shape A.shape + B.shape."""
        self._binary("outer", user_site(1))
        a, b = _as_array(A), _as_array(B)
        a = a[(Ellipsis,) + (None,) * b.ndim]  # (new axes: a view of a view too, where a
        return self(a, b, **kwargs)            # reshape of a column copies it)

    def reduce(self, array: Any, axis: Any = 0, dtype: Any = None, out: Any = None,
               keepdims: bool = False, initial: Any = _NO_VALUE, where: Any = True) -> Any:
        """ufunc.reduce: la's fused reduction where there is one (add: sum, maximum: max, ...),
        else the ufunc folded along the axis (a tree where the ufunc is exactly associative)."""
        site = user_site(1)
        self._binary("reduce", site)
        x = _as_array(array)
        outs = _out_tuple(out, 1, site)
        options = {"axis": axis, "dtype": dtype, "keepdims": keepdims, "initial": initial}
        want = _probe(self._np.reduce, (x,), options, where, outs, site, shrink=True)[0]
        asked = (self._np.reduce, (x,), {k: v for k, v in options.items() if v is not _NO_VALUE})
        axes = _bind.normalize_axes(axis, x.ndim, site) if x.ndim else ()
        if dtype is not None:  # (a float cast's flags: 'invalid value encountered in reduce')
            x = Array(reductions.cast_warned(x._node, dtypes.to_dtype(dtype), site, reduce=True))
        result = self._reduce(x, axes, initial, where, site)
        if keepdims:
            result = result.reshape(tuple(1 if i in axes else s for i, s in enumerate(x.shape)))
        if result.dtype != want:
            result = ew.astype(result, want)
        return _store(result, outs[0], site, exact=True, asked=asked)

    def _reduce(self, x: Array, axes: tuple, initial: Any, where: Any, site: Any) -> Array:
        shape = tuple(s for i, s in enumerate(x.shape) if i not in axes)
        identity = self._np.identity
        start = initial if initial is not _NO_VALUE else identity
        if any(x.shape[a] == 0 for a in axes):
            return creation.full(shape, start, x.dtype)
        name = _REDUCTIONS.get(self._np.__name__)
        if name is not None and axes and (where is True or identity is not None
                                          or name in ("max", "min")):
            if where is not True:  # a masked element counts as the identity (max/min: initial)
                x = ew.where(where, x, start if identity is None else identity)
            result = getattr(reductions, name)(x, axis=axes)
            return result if initial is _NO_VALUE else self._fn(initial, result)

        def rows_of(a: Array) -> Array:
            moved = manipulation.moveaxis(a, axes, tuple(range(len(axes)))) if axes else a
            return moved.reshape((-1,) + shape)

        rows = rows_of(x)
        if rows.shape[0] > _FOLD_LIMIT and (where is not True
                                            or self._np.__name__ not in _ASSOCIATIVE):
            return _host_result(self._np.reduce(np.asarray(x), axis=axes or None, initial=initial,
                                                where=_host(where)) if axes else np.asarray(x))
        if where is True:
            return self._fold(rows, initial)
        mask = rows_of(manipulation.broadcast_to(_as_array(where), x.shape))
        acc = creation.full(shape, start, x.dtype)
        for i in range(rows.shape[0]):  # NumPy skips a masked element: the start stays
            acc = ew.where(mask[i], self._fn(acc, rows[i]), acc)
        return acc

    def _fold(self, rows: Array, initial: Any = _NO_VALUE) -> Array:
        """The ufunc over [initial,] rows[0], rows[1], ... (axis 0): pairwise for the exactly
        associative, else left to right as NumPy."""
        if self._np.__name__ in _ASSOCIATIVE:
            while rows.shape[0] > 1:
                n = rows.shape[0]
                paired = self._fn(rows[0:n - 1:2], rows[1:n:2])
                rows = paired if n % 2 == 0 else _concat([paired, rows[n - 1:]])
            return rows[0] if initial is _NO_VALUE else self._fn(initial, rows[0])
        if rows.shape[0] > _FOLD_LIMIT:  # (reduceat's pieces)
            return _host_result(self._np.reduce(np.asarray(rows), axis=0, initial=initial))
        acc = rows[0] if initial is _NO_VALUE else self._fn(initial, rows[0])
        for i in range(1, rows.shape[0]):
            acc = self._fn(acc, rows[i])
        return acc

    def accumulate(self, array: Any, axis: int = 0, dtype: Any = None, out: Any = None) -> Any:
        """ufunc.accumulate: cumsum/cumprod for add/multiply; NumPy's method as one op for the
        exactly associative ufuncs and long folds; else a left-to-right fold, in NumPy's order
        (and the log-step scan (Hillis-Steele) of the associative ones under la.grad)."""
        site = user_site(1)
        self._binary("accumulate", site)
        x = _as_array(array)
        outs = _out_tuple(out, 1, site)
        options = {"axis": axis, "dtype": dtype}
        want = _probe(self._np.accumulate, (x,), options, True, outs, site, shrink=True)[0]
        ax = _bind.normalize_axis(axis, x.ndim, site)
        if dtype is not None:
            x = ew.astype(x, dtype)
        name = _SCANS.get(self._np.__name__)
        if name is None:  # the op's refusals at this line, as reduce's (`maximum` of complex
            # numbers: the one-call op computed it, the fold under la.jit raised at evaluation)
            empty = manipulation.reshape(x, (-1,))[:0]
            self._fn(empty, empty)
        if name is not None:
            result = getattr(reductions, name)(x, axis=ax, dtype=want)
        elif self._accumulates_in_one_call(x.shape[ax]):
            result = self._accumulate_op(x, ax, site)
        else:
            rows = manipulation.moveaxis(x, ax, 0)
            result = manipulation.moveaxis(self._scan(rows), 0, ax)
        if result.dtype != want:
            result = ew.astype(result, want)
        return _store(result, outs[0], site, exact=True)

    def _accumulates_in_one_call(self, n: int) -> bool:
        """NumPy's accumulate as one op for the exactly associative ufuncs and past the fold
        limit: a log-step scan built ceil(log2 n) steps, a new structure (plans) per length
        (drawdown's 400,000 prices: 24 plans). Not under la.grad's trace: the op has no rule."""
        return (self._np.__name__ in _ASSOCIATIVE or n > _FOLD_LIMIT) and not is_busy()

    def _accumulate_op(self, x: Array, ax: int, site: Any) -> Array:
        node = x._node
        natural = _ACCUMULATED.get((self._np, node.dtype))
        if natural is None:  # NumPy's result dtype for x's dtype (the caller casts to `want`)
            with np.errstate(all="ignore"):
                natural = self._np.accumulate(np.ones(1, node.dtype)).dtype
            _ACCUMULATED[(self._np, node.dtype)] = natural
        return Array(_bind.primitive(_ACCUMULATE, (node,), (self._np.__name__, ax), node.shape,
                                     natural, site))

    def _scan(self, rows: Array) -> Array:
        n = rows.shape[0]
        if n == 0:
            return rows
        if self._np.__name__ in _ASSOCIATIVE:
            step = 1
            while step < n:
                rows = _concat([rows[:step], self._fn(rows[:n - step], rows[step:])])
                step *= 2
            return rows
        if n > _FOLD_LIMIT:
            return _host_result(self._np.accumulate(np.asarray(rows), axis=0))
        acc = [rows[0]]
        for i in range(1, n):
            acc.append(self._fn(acc[-1], rows[i]))
        return stack(acc)

    def reduceat(self, array: Any, indices: Any, axis: int = 0, dtype: Any = None,
                 out: Any = None) -> Any:
        """ufunc.reduceat: reduce(array[i:j]) for consecutive indices i < j, array[i] where
        j <= i, the last to the end. The indices are read on the host (they set the pieces)."""
        site = user_site(1)
        self._binary("reduceat", site)
        x = _as_array(array)
        idx = np.asarray(indices)
        outs = _out_tuple(out, 1, site)
        ax = _bind.normalize_axis(axis, x.ndim, site)
        shrunk = tuple(s if d == ax else min(s, 1) for d, s in enumerate(x.shape))
        try:
            with np.errstate(all="ignore"):
                want = self._np.reduceat(np.ones(shrunk, x.dtype), idx, axis=axis,
                                         dtype=dtype).dtype
        except Exception as exc:
            raise _noted(exc, site) from None
        rows = moveaxis(x, ax, 0)
        if rows.dtype != want:  # NumPy's loop runs in `want` (add of bools or int8 counts in
            rows = ew.astype(rows, want)  # int64, as add.reduce: not or-ed, not wrapped)
        n, bounds = rows.shape[0], [int(i) for i in idx.reshape(-1)] + [rows.shape[0]]
        pieces = [self._fold(rows[i:j]) if i < j else rows[i]
                  for i, j in zip(bounds[:-1], bounds[1:]) if i < n]
        result = moveaxis(stack(pieces), 0, ax)
        return _store(result, outs[0], site, exact=True)

    def at(self, a: Any, indices: Any, b: Any = None, /) -> None:
        """ufunc.at: unbuffered in place; repeated indices apply once per occurrence, as NumPy.
        An Array `a` is rebound to the new value (`a[...] = new`); a NumPy array is written."""
        site = user_site(1)
        if not isinstance(a, Array):  # a NumPy destination: NumPy's own, in place
            args = (indices,) if b is None else (indices, b)
            self._np.at(a, *(_host(v) for v in args))
            return None
        if _at_checks_flag(a.shape, indices):
            check_writable(a, "operand array with iterator write flag set is read-only")
        if (b is None) != (self._np.nin == 1):
            raise _bind.fail(ValueError, f"{self._np.__name__}.at takes {self._np.nin - 1} "
                             "operand(s) after the indices", site)
        if type(b) in (int, float, complex, bool):
            # NumPy's ufunc.at converts a Python scalar as np.asarray does (int64, float64,
            # complex128): no NEP 50 weak rule there, so np.add.at(uint64, i, 1) computes in
            # float64 and np.add.at(int8, i, 300) wraps where np.add(int8, 300) raises (fuzz50,
            # at-once seed 1900669). (Its OverflowError past int64/uint64: NumPy's text.)
            b = np.asarray(b)
            if b.dtype == object:  # an int past uint64: NumPy's at converts it as a C long
                raise _bind.fail(OverflowError, "Python int too large to convert to C long", site)
        stand_ins = (np.zeros(0, a.dtype),) + (() if b is None else (_probe_operand(b),))
        try:
            with np.errstate(all="ignore"):
                self._np.at(np.ones(1, a.dtype), np.zeros(0, np.intp), *stand_ins[1:])
                loop = self._np(*stand_ins).dtype  # the dtype NumPy computes in, then casts
        except Exception as exc:
            raise _noted(exc, site) from None
        if user_line_handles_errors():  # NumPy's IndexError in the user's try, a unchanged
            indices = held_index_arrays(indices, Array)
        try:
            value = self._at_value(a, indices, b, loop)
        except ValueError as exc:
            raise _at_shape_error(exc, site) from None

        def write() -> None:
            a[...] = value
        if not write_past_flag(a, write) and not self._at_on_host(a, indices, b):
            check_writable(a, "operand array with iterator write flag set is read-only")
        return None

    def _at_on_host(self, a: Array, indices: Any, b: Any) -> bool:
        """NumPy's own at on its view of a copy of `a`'s root, the copy written back: a
        read-only view lazyarray writes back through no chain (a broadcast, overlapping windows),
        which NumPy's at writes through, aliased elements once per occurrence."""
        found = numpy_view_on_host(a)
        if found is None:
            return False
        root, host, view = found
        self._np.at(view, _host_key(indices), *(() if b is None else (_host(b),)))
        root[...] = _host_result(host)
        return True

    def _at_value(self, a: Array, indices: Any, b: Any, loop: np.dtype) -> Array:
        method = _SCATTER.get(self._np.__name__)
        if method is not None and loop == a.dtype:  # else NumPy computes in `loop`, then casts
            if self._np.__name__ == "subtract":
                b = ew.negative(ew.astype(_as_array(b), a.dtype))
            return getattr(a.at[indices], method)(b)
        # Any other ufunc: occurrence k of each position is applied in round k (NumPy's order
        # for a repeated position; distinct positions are independent).
        positions = np.arange(a.size).reshape(a.shape)[_host_key(indices)]
        flat_pos = positions.reshape(-1)
        operand = None if b is None else broadcast_to(_as_array(b), positions.shape).reshape(-1)
        rank = _occurrence(flat_pos)
        if rank.size and rank.max() >= _ROUND_LIMIT:
            host = np.array(a)
            self._np.at(host, _host_key(indices), *(() if b is None else (_host(b),)))
            return _host_result(host)
        flat = a.reshape(-1)
        for k in range(int(rank.max()) + 1 if rank.size else 0):
            sel = np.nonzero(rank == k)[0]
            pos = flat_pos[sel]
            args = (flat[pos],) if operand is None else (flat[pos], operand[sel])
            flat = flat.at[pos].set(_cast_back(self._fn(*args), a.dtype))
        return flat.reshape(a.shape)

    def _binary(self, method: str, site: Any) -> None:
        if self._np.nin != 2 or self._np.nout != 1:
            raise _bind.fail(ValueError, f"{method} only supported for binary functions", site)


# --- helpers -------------------------------------------------------------------------------------
def _as_array(x: Any) -> Array:
    return x if isinstance(x, Array) else asarray(x)


def _concat(parts: list) -> Array:
    return concat(parts, axis=0)


def _host(v: Any) -> Any:
    if isinstance(v, Array):
        return np.asarray(v)
    if isinstance(v, tuple):
        return tuple(_host(i) for i in v)
    return v


_host_result = creation.host_result  # NumPy's result on the host (a leaf: the work is done)


def _host_key(key: Any) -> Any:
    return tuple(_host(k) for k in key) if isinstance(key, tuple) else _host(key)


def _cast_back(value: Array, dtype: np.dtype) -> Array:
    """ufunc.at's result cast back into the destination's dtype, its flags reported as NumPy's
    'overflow encountered in at' (`np.add.at(f32, i, 1e300)`: the float64 sum into float32)."""
    if value.dtype == dtype:
        return value
    return Array(_bind.primitive(out_cast("at"), (value._node,), (), value.shape, dtype,
                                 user_site(2)))


def _at_checks_flag(shape: tuple[int, ...], indices: Any) -> bool:
    """Whether NumPy's `ufunc.at` checks the destination's writeable flag: only the iterator
    over its subspace (what the index leaves after its fancy parts) does, and there is none for
    a subspace of one element, so `np.add.at(v, [0, 0], 1)` writes through a read-only `v` (a
    sliding window's ravel; fuzz50) and `np.add.at(v2d, [0], 1)` raises. An index NumPy
    refuses raises its IndexError first (the write's own); a bool scalar: checked."""
    size = _at_subspace_size(shape, indices)
    return size is None or (size >= 0 and size != 1)


def _at_subspace_size(shape: tuple[int, ...], indices: Any) -> int | None:
    """The subspace's element count: each fancy index stands as 0 (a boolean array as 0 per
    axis) on a zero-stride stand-in; -1 for an index error, None for a bool scalar."""
    key = indices if type(indices) is tuple else (indices,)
    basic: list[Any] = []
    for k in key:
        if isinstance(k, (bool, np.bool_)):
            return None
        if k is None or k is Ellipsis or isinstance(k, (slice, int, np.integer)):
            basic.append(k)
        elif getattr(k, "dtype", None) == np.bool_:
            basic.extend([0] * np.ndim(k))
        else:
            basic.append(0)
    try:
        return np.broadcast_to(np.zeros((), np.int8), shape)[tuple(basic)].size
    except IndexError:
        return -1
    except (TypeError, ValueError):
        return None


def _occurrence(flat: np.ndarray) -> np.ndarray:
    """For each entry, how many equal entries come before it (0 for the first)."""
    order = np.argsort(flat, kind="stable")
    sorted_ = flat[order]
    starts = np.r_[0, np.nonzero(np.diff(sorted_))[0] + 1] if flat.size else np.zeros(0, int)
    run_start = np.repeat(starts, np.diff(np.r_[starts, flat.size]))
    rank = np.empty_like(order)
    rank[order] = np.arange(flat.size) - run_start
    return rank


_AT_SHAPE_TEXTS = ("shape mismatch: value array", "cannot broadcast", "could not broadcast",
                   "operands could not be broadcast")


def _at_shape_error(exc: ValueError, site: Any) -> Exception:
    """NumPy's ufunc.at text for values that do not broadcast to the indexed shape, `array is
    not broadcastable to correct shape` (the scatter's own said `shape mismatch: value array of
    shape (3,) could not be broadcast to indexing result of shape (2,)`; fuzz54's left class)."""
    if not str(exc).startswith(_AT_SHAPE_TEXTS):
        return exc
    return _bind.fail(ValueError, "array is not broadcastable to correct shape", site)


def _noted(exc: Exception, site: Any) -> Exception:
    """NumPy's own exception (type and text), with the user's line added as a note."""
    return _bind.with_site(exc, site)


def _probe_operand(x: Any) -> Any:
    """A stand-in NumPy's ufunc resolves as it would `x`: Python scalars stay (NEP 50 weak)."""
    if type(x) in (int, float, complex, bool):
        return x
    dtype = getattr(x, "dtype", None)
    if dtype is None:
        weak = getattr(x, "_lazyarray_weak_type", None)  # la.jit's traced Python scalar
        if weak is not None:
            return weak(0)
        dtype = np.asarray(x).dtype
    return np.zeros(0, dtype)


_PROBED: dict[tuple, tuple] = {}  # what `_probe` found, by everything it depends on


def _probe_key(x: Any) -> Any:
    t = type(x)
    if t is int:
        return (t, x)  # NumPy refuses an int beyond the other operand's dtype: the value counts
    if t in (float, complex, bool):
        return t
    dtype = getattr(x, "dtype", None)
    return None if dtype is None else (dtype, getattr(x, "ndim", 0) if not x.shape else 1)


_WHERE_WITHOUT_OUT = ("'where' used without 'out', expect unitialized memory in output. If this "
                      "is intentional, use out=None.")  # (NumPy's text, its spelling)


def _probe(fn: Callable[..., Any], inputs: tuple, options: dict, where: Any, outs: tuple,
           site: Any, shrink: bool = False) -> tuple:
    """NumPy's result dtypes for these operands and options, and NumPy's errors (at the user's
    line): `fn` runs on zero-size stand-ins (`shrink`: a reduction's stand-in keeps the rank,
    every size at most 1, so axes and empty reductions are checked). Remembered per ufunc,
    operand dtypes and options: a loop's `np.add(a, b, out=c)` probes once."""
    try:
        key = (fn, shrink, tuple(map(_probe_key, inputs)), tuple(options.items()), where is True,
               tuple(None if o is None else o.dtype for o in outs),
               tuple(min(s, 1) for s in inputs[0].shape) if shrink else None)
        hit = _PROBED.get(key)
    except TypeError:  # an unhashable option (a list axis, an array initial): probe each time
        key, hit = None, None
    if hit is not None:
        return hit
    if None in (key[2] if key else ()):
        key = None  # an operand of no known dtype (a list): probe each time
    wanted = _run_probe(fn, inputs, options, where, outs, site, shrink)
    if key is not None:
        if len(_PROBED) > 4096:
            _PROBED.clear()
        _PROBED[key] = wanted
    return wanted


def _run_probe(fn: Callable[..., Any], inputs: tuple, options: dict, where: Any, outs: tuple,
               site: Any, shrink: bool) -> tuple:
    if shrink:
        x = inputs[0]
        stand_ins = (np.ones(tuple(min(s, 1) for s in x.shape), x.dtype),)
        extra = {} if where is True else {"where": np.ones(stand_ins[0].shape, bool)}
    else:
        stand_ins = tuple(_probe_operand(x) for x in inputs)
        extra = {} if where is True else {"where": np.zeros(0, bool)}
    options = {k: v for k, v in options.items() if v is not None or k == "axis"}
    try:
        with np.errstate(all="ignore"), warnings.catch_warnings():
            # NumPy's where-without-out warning (uninitialized memory) is not so here: zeros
            warnings.simplefilter("ignore")
            results = fn(*stand_ins, **options, **extra)
            results = results if isinstance(results, tuple) else (results,)
            wanted = tuple(np.asarray(r).dtype for r in results)
            if any(o is not None for o in outs):  # NumPy's casting rule for out
                out_stand_ins = tuple(None if o is None else np.zeros(
                    np.asarray(r).shape if shrink else 0, o.dtype) for o, r in zip(outs, results))
                fn(*stand_ins, **options, **extra, out=out_stand_ins)
    except Exception as exc:
        raise _noted(exc, site) from None
    return wanted


def _cast_inputs(np_ufunc: np.ufunc, inputs: tuple, options: dict, site: Any) -> tuple:
    """dtype= / signature=: the operands cast to the loop NumPy resolves."""
    given = tuple(type(x) if type(x) in (int, float, complex) else  # (bool: its dtype)
                  np.asarray(_probe_operand(x)).dtype for x in inputs)
    signature = options["signature"]
    if signature is None:
        signature = (None,) * np_ufunc.nin + (np.dtype(options["dtype"]),) * np_ufunc.nout
    elif isinstance(signature, str) or not isinstance(signature, tuple):
        signature = tuple(np.dtype(c) for c in str(signature).replace("->", ""))
    try:
        loop = np_ufunc.resolve_dtypes(given + (None,) * np_ufunc.nout,
                                       signature=tuple(None if s is None else np.dtype(s)
                                                       for s in signature),
                                       casting=options["casting"])
    except Exception as exc:
        raise _noted(exc, site) from None
    return tuple(ew.astype(_as_array(x), d) for x, d in zip(inputs, loop))


def _out_tuple(out: Any, nout: int, site: Any) -> tuple:
    if out is None:
        return (None,) * nout
    if nout > 1 and not isinstance(out, tuple):  # NumPy's texts (fuzz56: a ValueError here)
        raise _bind.fail(TypeError, "'out' must be a tuple of arrays", site)
    outs = out if isinstance(out, tuple) else (out,)
    if len(outs) != nout:
        raise _bind.fail(ValueError, "The 'out' tuple must have exactly one entry per ufunc "
                         "output", site)
    for o in outs:
        if o is not None and not isinstance(o, (Array, np.ndarray)):
            raise _bind.fail(TypeError, "return arrays must be of ArrayType", site)
    for o in outs:
        if isinstance(o, Array):
            check_writable(o, "output array is read-only")
    return outs


def _quiet_outside(ufunc: np.ufunc, inputs: tuple, where: Any) -> tuple:
    """where=: the array inputs with 1 (arctanh: 0) where the mask is False. NumPy computes
    nothing there, so the floating-point flags an element outside the mask would raise are not
    NumPy's (fuzz47: `np.sqrt(x, out=y, where=x > 0)` warned 'invalid value'); the values there
    are not used (_masked)."""
    fill = 0 if ufunc is np.arctanh else 1
    mask = _as_array(where)
    return tuple(ew.where(mask, x, True if x.dtype == np.bool_ else fill)
                 if isinstance(x, (Array, np.ndarray)) and x.dtype.kind in "biufc" else x
                 for x in inputs)


def _masked(result: Array, where: Any, out: Any) -> Array:
    """where=: the result where True; `out`'s values elsewhere (zeros without out, where NumPy
    leaves the memory uninitialized)."""
    if out is None:
        return ew.where(where, result, ew.astype(_as_array(0), result.dtype))
    keep = out if isinstance(out, Array) else asarray(out)
    return ew.where(where, result, keep)


def _check_out_shapes(inputs: tuple, outs: tuple, site: Any) -> None:
    """NumPy's shape errors of a call with out=, before it computes: every operand's shape (a
    scalar's `()`, the outputs' last) where they do not broadcast, else an output the inputs
    broadcast beyond (fuzz46: `np.add(A, 1, out=np.zeros(3))`)."""
    given = [tuple(np.shape(o)) for o in outs if o is not None]
    if not given:
        return
    shapes = [tuple(x.shape) if isinstance(x, Array) else tuple(np.shape(x)) for x in inputs]
    try:
        everything = np.broadcast_shapes(*shapes, *given)
        shape = np.broadcast_shapes(*shapes)
    except ValueError:
        shown = "".join(_bind.numpy_shape_text(s) + " " for s in shapes + given)
        raise _bind.fail(ValueError, f"operands could not be broadcast together with shapes "
                         f"{shown}", site) from None
    for out_shape in given:  # (NumPy's broadcast shape counts the outputs too: fuzz47)
        if np.broadcast_shapes(shape, out_shape) != out_shape:
            raise _bind.fail(ValueError, f"non-broadcastable output operand with shape "
                             f"{_bind.numpy_shape_text(out_shape)} doesn't match the broadcast "
                             f"shape {_bind.numpy_shape_text(everything)}", site)


def _check_where_shapes(inputs: tuple, outs: tuple, where: Any, site: Any) -> None:
    """NumPy's broadcast error of a call with where=: the inputs' shapes, the outputs', then the
    mask's (`np.fmod(a, b, where=m)`: "(1,4) (1,4) (5,) "; the mask's select listed it first,
    with a `()` of its fill; fuzz56)."""
    shapes = [tuple(x.shape) if isinstance(x, Array) else tuple(np.shape(x)) for x in inputs]
    shapes += [tuple(np.shape(o)) for o in outs if o is not None]
    shapes.append(tuple(where.shape) if isinstance(where, Array) else tuple(np.shape(where)))
    try:
        np.broadcast_shapes(*shapes)
    except ValueError:
        shown = "".join(_bind.numpy_shape_text(s) + " " for s in shapes)
        raise _bind.fail(ValueError, f"operands could not be broadcast together with shapes "
                         f"{shown}", site) from None


def _out_cast(result: Array, out: Any, name: str, site: Any) -> Array:
    """A real float result cast to `out`'s dtype here, reporting as the ufunc (NumPy's loop casts
    its output itself: 'overflow encountered in add', not '... in cast')."""
    if out is None or out.dtype == result.dtype or result.dtype.kind != "f" or (
            np.dtype(out.dtype).kind not in "biuf"):
        return result
    return Array(_bind.primitive(out_cast(name), (result._node,), (), result.shape,
                                 np.dtype(out.dtype), site))


def _store(result: Array, out: Any, site: Any, exact: bool = False, asked: Any = None) -> Any:
    """`out[...] = result` after NumPy's shape rule for out (a call's result broadcasts to it, a
    reduction's must `exact`ly match, with the error NumPy's call `asked` raises); returns `out`
    (or the result)."""
    if out is None:
        return result
    if exact and tuple(out.shape) != result.shape:
        exc = numpy_shape_error(*asked, out) if asked is not None else None
        if exc is not None:
            raise _bind.with_site(exc, site)
        raise _bind.fail(ValueError, f"output parameter for reduction operation has the wrong "
                         f"shape {tuple(out.shape)}: the result's is {result.shape}", site)
    if np.broadcast_shapes(result.shape, out.shape) != tuple(out.shape):
        raise _bind.fail(ValueError, f"non-broadcastable output operand with shape "
                         f"{_bind.numpy_shape_text(out.shape)} doesn't match the broadcast "
                         f"shape {_bind.numpy_shape_text(result.shape)}", site)
    if isinstance(out, np.ndarray):
        out[...] = np.asarray(result)
    else:  # (a 0-d result is cast as an array, as NumPy's loop writes it: `out[...] = v` packs a
        # 0-d value as a scalar, `np.negative(uint64(5), out=int8s)` its OverflowError; fuzz56)
        if not result.ndim and result.dtype != out.dtype:
            result = ew.astype(result, out.dtype)
        out[...] = result
    return out


# --- the namespace's ufuncs -----------------------------------------------------------------------
_BY_NAME: dict[str, ufunc] = {}
# NumPy ufuncs that are generalized (signature) or not elementwise in lazyarray's sense.
_SKIP = frozenset({"matmul", "vecdot", "matvec", "vecmat"})
# lazyarray names of NumPy ufuncs spelled the Array API way.
_LA_NAMES = {"absolute": "abs", "invert": "bitwise_invert", "left_shift": "bitwise_left_shift",
             "right_shift": "bitwise_right_shift", "conjugate": "conj", "true_divide": "divide"}


def _by_name(name: str) -> ufunc:
    return _BY_NAME[name]


def by_numpy(np_ufunc: np.ufunc) -> ufunc | None:
    """lazyarray's ufunc for NumPy's (`__array_ufunc__`), None where lazyarray has none."""
    return _BY_NAME.get(np_ufunc.__name__)


def _make_ufunc(np_ufunc: np.ufunc, fn: Callable[..., Any]) -> ufunc:
    """A ufunc whose class calls `fn` directly (the class per ufunc holds it as `__call__`); an
    elementwise.py function's positional call (`np.maximum(t[i, j], s)`) runs in C, without its
    Python frame (lazyarray/_trace.c fast_function), and calls `fn` for everything else."""
    call, op = fn, getattr(fn, "op", None)
    if op is not None and _bind.FAST is not None and hasattr(_bind.FAST, "fast_function"):
        call = _bind.FAST.fast_function(op, fn, op.arity)
    cls = type(np_ufunc.__name__, (ufunc,), {"__slots__": (), "__call__": staticmethod(call),
                                             "__doc__": fn.__doc__, "__module__": "lazyarray"})
    return cls(np_ufunc, fn)


def wrap_namespace(namespace: dict) -> None:
    """Replace each function of `namespace` named like a NumPy ufunc by a `ufunc` over it (and
    register the ufunc for `__array_ufunc__` and the functions' keyword path)."""
    # (NumPy's own namespace, not dir(np) and getattr: that imported numpy's lazy submodules,
    # f2py, testing, ma, typing..., 0.2 s of every `import lazyarray`)
    for name, np_ufunc in sorted(vars(np).items()):
        if isinstance(np_ufunc, np.ufunc) and np_ufunc.__name__ in _SKIP:
            _describe_gufunc(namespace.get(name), np_ufunc)
        if not isinstance(np_ufunc, np.ufunc) or np_ufunc.__name__ in _SKIP:
            continue
        key = np_ufunc.__name__
        made = _BY_NAME.get(key)
        if made is None:
            fn = namespace.get(key) or namespace.get(_LA_NAMES.get(key, ""))
            if fn is None or isinstance(fn, ufunc) or not callable(fn):
                continue
            made = _BY_NAME[key] = _make_ufunc(np_ufunc, _with_keywords(fn, np_ufunc))
        if name in namespace or key == name:
            namespace[name] = made
    for alias, target in _ARRAY_API_ALIASES.items():
        if target in _BY_NAME and alias in namespace:
            namespace[alias] = _BY_NAME[target]


def _describe_gufunc(fn: Any, np_ufunc: np.ufunc) -> None:
    """NumPy's descriptive attributes (`np.matmul.signature`, `.nin`, ...) on a generalized
    ufunc that stays a function here (matmul, vecdot, matvec, vecmat: no reduce/outer)."""
    if callable(fn) and hasattr(fn, "__dict__"):
        for attr in ("nin", "nout", "nargs", "ntypes", "types", "identity", "signature"):
            setattr(fn, attr, getattr(np_ufunc, attr))


# Array API spellings that are the same NumPy ufunc under another name (NumPy 2 has most as
# attributes already; these are la's own).
_ARRAY_API_ALIASES = {"bitwise_invert": "invert", "bitwise_left_shift": "left_shift",
                      "bitwise_right_shift": "right_shift", "conj": "conjugate"}


def _with_keywords(fn: Callable[..., Any], np_ufunc: np.ufunc) -> Callable[..., Any]:
    """elementwise.py's twin of `fn` that takes out=/**kwargs (it hands them to `call_general`),
    else a wrapper that does (numpy_math's fmax, heaviside, ...)."""
    keyword_fn = ew.KEYWORD_FUNCTIONS.get(fn.__name__)
    if keyword_fn is not None and ew.__dict__.get(fn.__name__) is fn:
        keyword_fn.__doc__ = fn.__doc__
        return keyword_fn
    nin, key = np_ufunc.nin, np_ufunc.__name__

    def call(*args: Any, out: Any = None, **kwargs: Any) -> Any:
        if out is None and not kwargs and len(args) == nin:
            return fn(*args)
        if len(args) > nin:  # out given by position, as NumPy allows
            args, out = args[:nin], args[nin:] if len(args) > nin + 1 else args[nin]
        return _BY_NAME[key].call_general(args, out, kwargs)

    call.__name__ = call.__qualname__ = fn.__name__
    call.__doc__ = fn.__doc__
    call.__signature__ = inspect.signature(fn)  # type: ignore[attr-defined]
    return call


def _keyword_call(name: str, inputs: tuple, out: Any, kwargs: dict) -> Any:
    """elementwise.py's functions with NumPy's ufunc keywords (out=, where=, dtype=, ...)."""
    return _BY_NAME[getattr(np, name).__name__].call_general(inputs, out, kwargs)


ew.KEYWORD_CALL[0] = _keyword_call
