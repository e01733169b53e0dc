"""`Array`: an immutable value that owns a lazy expression. The core layer: this module imports no
API module; the NumPy-like methods and operators are attached by lazyarray/_methods.py.

An Array holds the output node of its expression. Binding an op makes a new node over the (immutable,
shared) input nodes, so any Array can be evaluated on its own and sub-graphs are shared for free.
Evaluating stores the result in the Array: its node becomes a leaf holding the buffer, so expressions
built from it later read the buffer instead of recomputing.
"""

from __future__ import annotations

import builtins
import sys
import warnings
from typing import Any, Callable, Iterator
from weakref import ref as _weakref

import numpy as np

from . import _bind
from . import writes as _writes
from .cuts import _LIMIT as _LIVE_LIMIT, _LIVE, _prune
from .eager import EAGER_MARK as _AT_ONCE
from .eager import buffer as _buffer
from .eager import LIMIT as _EAGER_LIMIT
from .eager import run_now as _run_now
from .eager import seeded as _eager_seeded
from .eager import view_value as _view_value
from .graph import get_op
from .graph.node import Node, user_site
from .settings import RAISE_MODE_ON as _RAISE_ON

# lazyarray/_handled.py's raises_at_the_line (which imports evaluation, above this module): a
# pending Array built under a 'raise' mode on a line inside a try block is computed there
RAISES_AT_THE_LINE: list = [None]


class LazyExpr:
    """A read-only view of an Array's expression: its output node and the leaves it depends on."""

    __slots__ = ("node",)

    def __init__(self, node: Node) -> None:
        self.node = node

    @property
    def leaves(self) -> dict[Node, Any]:
        return {n: n.data for n in topological_order([self.node]) if n.is_leaf}

    @property
    def is_evaluated(self) -> bool:
        return self.node.holds_buffer

    def __repr__(self) -> str:
        return "LazyExpr:\n" + Graph([self.node]).to_text()


class Array:
    # `_view`: None, or the write links of lazyarray/writes.py (a root: its views' weak references;
    # a view: (root, view node, root node, writable), and a dynamic view's key as a fifth).
    __slots__ = ("_node", "_view", "__weakref__")
    __array_ufunc__ = None  # NumPy defers to our reflected operators: np_array + Array -> Array

    def __init__(self, node: Node) -> None:
        self._node = node
        self._view = None
        if not node.shape and (node.attrs == _AT_ONCE if not node.inputs
                               else node.op.write_back is None):
            self._view = False  # a 0-d result of an op: NumPy's scalar, whose views are copies
        if node.inputs:  # pending: the node budget may evaluate it at a cut (lazyarray.cuts)
            # an index loop's value: now (run_now's size bound first: a large value's walk of
            # its inputs for an indexed read, ~1.4 us, would find nothing to run)
            if _EAGER_LIMIT[0] and node.size <= _EAGER_LIMIT[0] and _eager_seeded(node):
                done = _run_now(node)
                if done is not None:
                    self._node = done
                    return
            _LIVE.append(_weakref(self))  # cuts.track, inlined: this runs once per traced op
            if len(_LIVE) > _LIVE_LIMIT[0]:
                _prune()
            if _RAISE_ON[0] and RAISES_AT_THE_LINE[0] is not None:
                RAISES_AT_THE_LINE[0](self)

    # --- facts known without evaluating --------------------------------------------------------------
    @property
    def shape(self) -> tuple[int, ...]:
        return self._node.shape

    @shape.setter
    def shape(self, shape: Any) -> None:
        """`x.shape = s` reshapes the handle, as NumPy's (lazyarray/_methods.py replaces this
        setter with one that first refuses what NumPy's memory layout refuses)."""
        _writes.set_shape(self, shape)

    @property
    def dtype(self) -> np.dtype:
        return self._node.dtype

    @property
    def ndim(self) -> int:
        return len(self._node.shape)

    @property
    def size(self) -> int:
        return self._node.size

    @property
    def device(self) -> str:
        return _device_of(self._node)

    @property
    def expr(self) -> LazyExpr:
        return LazyExpr(self._node)

    @property
    def T(self) -> Array:  # noqa: N802
        """permute_dims(self, reversed axes)'s node, built directly: `x @ w.T` in a loop body
        paid ~5 us for the import, operand handling and axis checks of the general function."""
        node = self._node
        n = len(node.shape)
        if n < 2:  # permute_node's identity: still a view (`v.T[0] = 1` writes v)
            return _writes.view_of(self, Array(node), lambda base: base)
        axes, site = tuple(range(n - 1, -1, -1)), user_site(1)
        return _writes.view_of(self, Array(_bind.primitive(
            _bind.PERMUTE, (node,), (axes,), node.shape[::-1], node.dtype, site)),
            lambda base: _bind.primitive(_bind.PERMUTE, (base,), (axes,), base.shape[::-1],
                                         base.dtype, site))

    # --- evaluation triggers ---------------------------------------------------------------------------
    def _host(self) -> np.ndarray:
        if self._node.op is _INPUT and _trace_state.stand_ins:
            _refuse_stand_in(self._node)
        return _to_host(self)

    def __array__(self, dtype: Any = None, copy: bool | None = None) -> np.ndarray:
        """A read-only view of the buffer (as JAX): writing through it would change this Array and
        every expression built from it. `np.array(x)` (copy=True) gives a writable copy, and so
        does `np.asarray(t)` of NumPy's scalar (`t = x.sum()`, `A[i, j]`: `_view` False), as
        `np.asarray(np.float64(v))` does: scikit-learn's `s = np.asarray(np.average(a, weights=w));
        s *= 0.5` raised "output array is read-only"."""
        node = self._node
        out = node.data
        if node.op is not _INPUT or type(out) is not np.ndarray:  # pending, or on a GPU
            out = _small_view_value(node)  # `np.asarray(A[i])`: NumPy's view, no evaluation
            if out is None and type(self._view) is tuple:  # (a copy of one is no view)
                out = _broadcast_value(node)
            node = None  # to_host counts the node's references: a sibling's graph may read it
            if out is None:
                out = _to_host(self)
        elif _trace_state.stand_ins:
            _refuse_stand_in(node)
        if copy is None and self._view is False and not out.shape:
            return out.astype(dtype) if dtype is not None else out.copy()
        if dtype is None and not copy:  # np.asarray(x): the commonest export, kept short
            view = out.view()
            view.setflags(write=False)  # (~0.1 us sooner than through .flags)
            return view
        if dtype is not None and np.dtype(dtype) != out.dtype:
            return out.astype(dtype)
        return out.copy() if copy else _read_only(out)

    def block_until_ready(self) -> Array:
        return _block_until_ready(self)

    def tolist(self) -> Any:
        out = _small_view_value(self._node) if self._node.inputs else None
        return (self._host() if out is None else out).tolist()

    def __hash__(self) -> int:
        """NumPy's scalar (an element `A[i, j]`, a 0-d result of an op: `_view` False) hashes as
        its value, as np.float64 and np.int64 do: `counts[x] += 1` over a 1-D array's elements and
        `set(labels)` work as in NumPy (the value is read). Every other Array is unhashable, as
        NumPy's arrays (`==` is elementwise)."""
        if self._view is False and not self._node.shape:
            return hash(self.item())
        raise TypeError(f"unhashable type: '{type(self).__name__}'")

    def item(self, *args: Any) -> Any:
        if args:  # ndarray.item(i) / item(i, j): one element, by flat or multi index
            return self._host().item(*args)
        if self.size != 1:
            raise ValueError("can only convert an array of size 1 to a Python scalar")
        return self._host().item()

    def __bool__(self) -> bool:
        if self.size == 0:  # NumPy's own answer: its ValueError since 2.2 (False before)
            return builtins.bool(np.empty(0))
        if self.size != 1:
            raise ValueError("The truth value of an array with more than one element is ambiguous. "
                             "Use a.any() or a.all()")
        return builtins.bool(self._host().item())

    def __float__(self) -> float:
        return float(self._real_scalar())

    def __int__(self) -> int:
        return int(self._real_scalar())

    def _real_scalar(self) -> Any:
        """`_scalar()` for float() and int(): a complex Array standing for NumPy's complex scalar
        gives its real part with NumPy's ComplexWarning at the caller's line, as np.complex128 does
        (probe54: TypeError, a complex 0-d *array*'s answer, which it keeps)."""
        value = self._scalar()
        if type(value) is complex and self._view is False:
            warnings.warn("Casting complex values to real discards the imaginary part",
                          np.exceptions.ComplexWarning, stacklevel=3)
            return value.real
        return value

    def __complex__(self) -> complex:
        return complex(self._scalar())

    def _scalar(self) -> Any:
        """As NumPy 2: only 0-d arrays convert (float(ones((1, 1))) is a TypeError there too)."""
        node = self._node
        if node.shape:  # not `self.ndim`, `self.item()`: `float(loss)` ends many a loop
            raise TypeError("only 0-dimensional arrays can be converted to Python scalars")
        if node.op is _INPUT and _trace_state.stand_ins:
            _refuse_stand_in(node)
        del node  # to_host counts the node's references: a sibling's graph may read it
        return _to_host(self).item()  # (0-d: size 1)

    def __index__(self) -> int:
        if self.dtype.kind not in "iu" or self.ndim != 0:
            raise TypeError("only integer scalar arrays can be converted to a scalar index")
        return int(self.item())

    def __len__(self) -> int:
        if self.ndim == 0:  # NumPy's scalar (`_view` False) has Python's text, its 0-d array
            raise TypeError(f"object of type 'numpy.{self.dtype.type.__name__}' has no len()"
                            if self._view is False else "len() of unsized object")  # (probe55)
        return self.shape[0]

    def __contains__(self, value: Any) -> bool:
        """`value in x` is `(x == value).any()`, as ndarray (iterating would compare rows)."""
        return builtins.bool((self == value).any())

    def __iter__(self) -> Iterator[Array]:
        if self.ndim == 0:
            raise TypeError("iteration over a 0-d array")
        if self._view is not None:
            _writes.release_dead_root(self)  # (a root's rows take the compiled getitem)
        if (not _EAGER_LIMIT[0] and self._node.ndim == 1
                and Array.__dict__["__getitem__"] is OWN_GETITEM[0]):  # (not a replaced one)
            return _host_elements(self)
        node = self._node
        if node.inputs and not (_EAGER_LIMIT[0] and _view_value(node) is not None):
            _evaluate(self)  # (a view of a computed buffer is read where it is: `i, j = sites[k]`
        return map(self.__getitem__, range(self.shape[0]))  # ran a plan to copy its 2 values)

    def __repr__(self) -> str:
        """NumPy's repr of the value, as CuPy's: a program that prints a list of results
        (`print([loss, acc])`, a dict of metrics) prints NumPy's text; a 0-d Array standing
        for NumPy's scalar (`x.mean()`, `A[i, j]`) as that scalar (`np.float64(0.165)`, its
        shortest exact digits), any other 0-d Array as NumPy's 0-d array. `type(x)` says it
        is an Array."""
        if self._is_stand_in():
            return f"Array(<la.jit traced argument>, shape={self.shape}, dtype={self.dtype})"
        host = self._host()
        if self._view is False and not host.ndim:
            return repr(host[()])
        return np.array_repr(host)

    def __str__(self) -> str:
        if self._is_stand_in():  # print() while tracing: the tracer, as JAX's (not its values)
            return repr(self)
        return str(self._host())

    def _is_stand_in(self) -> bool:
        stand_ins = _trace_state.stand_ins
        return builtins.bool(stand_ins) and id(self._node) in stand_ins

    def __format__(self, spec: str) -> str:
        if not spec and self._is_stand_in():
            return repr(self)
        if self.ndim == 0:
            return format(self.item(), spec)
        if spec:  # NumPy's: object.__format__ refuses a spec (`f"{arr:.2f}"`; probe49: it padded)
            raise TypeError("unsupported format string passed to numpy.ndarray.__format__")
        return str(self)

    def __copy__(self) -> Array:
        return Array(self._node)  # a new handle on the same value: `x[i] = v` rebinds only it

    def __deepcopy__(self, memo: Any) -> Array:
        return Array(self._node)

    # --- DLPack / interop: evaluated data, shared where it lives (host or GPU) ---------------------------
    def _data(self) -> Any:
        if self._node.op is _INPUT and _trace_state.stand_ins:
            _refuse_stand_in(self._node)
        _evaluate_arrays([self])
        node = self._node
        if node.inputs:  # a buffer held in NumPy's layout (a permute or slice of a leaf: creation.py,
            value = _view_value(node)  # result_layout.py): NumPy's view of it
            if value is None:  # (a device buffer: the view ops' references take CuPy arrays too)
                leaf = node.inputs[0]
                value = node.op.reference((leaf.data, *[i.data for i in node.inputs[1:]]),
                                          node.attrs, node.dtype)
            return value
        return node.data

    def __dlpack__(self, *, stream: Any = None, max_version: tuple[int, int] | None = None,
                   dl_device: tuple[int, int] | None = None, copy: bool | None = None) -> Any:
        """Host data goes out read-only when the consumer speaks DLPack >= 1.0 (it carries the
        read-only flag), else as a copy (`copy=False` then shares it writable: the caller must not
        write); a copy also to torch, which speaks 1.0 but ignores the flag (torch.from_dlpack(x)
        then wrote into x with `add_`; `copy=False` raises BufferError there); GPU buffers (no
        read-only flag in CuPy) as a copy, shared only with `copy=False` (never a copy then, as
        the standard says; torch: BufferError). `dl_device=(1, 0)` asks for the
        CPU: a GPU Array is copied to the host (BufferError with `copy=False`)."""
        data = self._data()
        to_host = dl_device is not None and tuple(dl_device)[0] == 1
        if not isinstance(data, np.ndarray) and to_host:
            if copy is False:
                raise BufferError("copying to the CPU was needed but copy=False was asked")
            data, copy = self._host(), True
        elif dl_device is not None and tuple(dl_device) != self.__dlpack_device__():
            raise BufferError(f"cannot export to DLPack device {tuple(dl_device)}")
        kwargs: dict[str, Any] = {} if max_version is None else {"max_version": max_version}
        ignores_flag = _ignores_read_only(sys._getframe(1))
        if copy is False and ignores_flag:
            raise BufferError("torch ignores DLPack's read-only flag: sharing this immutable "
                              "Array's buffer would let it write there; leave copy=None")
        if not isinstance(data, np.ndarray):  # a GPU buffer: finish the work that writes it first
            backend = get_backend("cupy")
            if copy is not False:
                with backend.stream:
                    data = data.copy()
            backend.synchronize()
            return data.__dlpack__(stream=stream, **kwargs)
        if copy is False:
            return data.__dlpack__(**kwargs)
        if copy or ignores_flag or max_version is None or tuple(max_version) < (1, 0):
            return data.copy().__dlpack__(**kwargs)
        return _read_only(data).__dlpack__(**kwargs)

    def __dlpack_device__(self) -> tuple[int, int]:
        return self._data().__dlpack_device__()

    @property
    def __cuda_array_interface__(self) -> dict[str, Any]:
        """The GPU buffer of an evaluated GPU Array (CuPy, Numba, PyTorch read it without copying).
        Synchronizes first: the interface carries no stream, so consumers may read at once."""
        data = self._data()
        if isinstance(data, np.ndarray):
            raise AttributeError("this Array lives on the CPU; it has no __cuda_array_interface__")

        get_backend("cupy").synchronize()
        return data.__cuda_array_interface__


_bind.Array = Array
_INPUT = _bind.INPUT
_BROADCAST = get_op("broadcast_to")
from .cache import _check_not_traced  # noqa: E402  (cache does not import this module)
from .cache import _state as _trace_state  # noqa: E402


def _broadcast_value(node: Node) -> np.ndarray | None:
    """A broadcast of a buffer (`la.asarray(np.broadcast_to(v, s))`, `la.broadcast_to(x, s)`
    of a computed x) as NumPy's read-only view of it, 0 strides kept, or None. Its export
    evaluated it into a C-ordered buffer and rebound the Array to it: `A.T * 1` of it was then
    Fortran-ordered (NumPy's is C-ordered: a 0 stride has no say), its sums a last bit off and
    its ravel a view (fuzz54: item 2 of fuzz53's open classes)."""
    if node.op is not _BROADCAST or _trace_state.busy or _trace_state.stand_ins:
        return None
    source = node.inputs[0]
    if source.inputs or type(source.data) is not np.ndarray:
        return None
    return np.broadcast_to(source.data, node.shape)


def _small_view_value(node: Node) -> np.ndarray | None:
    """A small view of a computed buffer (`A[i]`, `v.ravel()`, `A[:, j]`: a chain of view ops
    over a leaf) as NumPy's view of that buffer, or None. Its export (`np.asarray`, `tolist`,
    NumPy's functions of it) evaluated the chain into a new buffer and rebound the view to it
    (`np.asarray(A[i])` 1.75 -> 1.34 us, `A[:, j].tolist()` 1.5 -> 1.0; NumPy's 0.1, 0.36).
    Not while tracing or evaluating (a stand-in's buffer is no value), nor past the at-once size
    (an evaluated view keeps its buffer; a replayed one would copy again each time)."""
    if (not node.inputs or node.size > _EAGER_LIMIT[0] or node.op.write_back is None
            or _trace_state.busy or _trace_state.stand_ins):
        return None
    return _view_value(node)
from .graph import Graph, topological_order
from .runtime import get_backend


def zero_d_array(out: Array) -> Array:
    """`out` as NumPy's 0-d *array* where it is 0-d (the results of `np.where`, `np.select`,
    `astype` of a 0-d array, `np.asarray` of a scalar): an op's 0-d result is NumPy's scalar
    here, whose `t += 1` rebinds t (a 0-d array's writes in place, reaching every name bound to
    it) and whose `t[...] = v` raises (fuzz54). Not the scalar an element or a ufunc gives."""
    if out._view is False and not out._node.shape:
        out._view = None
    return out


def scalar_result(node: Node) -> Array:
    """The Array of a function's 0-d result that NumPy gives as a scalar (`u @ v`, `np.dot`,
    `np.inner`, `np.median`, `slogdet` of vectors or a matrix) where the graph's
    last op is a view op (the reshape to ()): `_view` False as for any op's 0-d result, so that
    `t -= 1` rebinds `t` and `u = t` keeps its value, as NumPy's scalar (Array.__init__ would take
    a reshape's result for a 0-d view, `x.reshape(())`, whose writes reach `x`)."""
    out = Array(node)
    if not out._node.shape:
        out._view = False
    return out


def _refuse_stand_in(node: Node) -> None:
    """la.jit traces on stand-ins, a leaf per array argument holding the first call's buffer:
    reading one on the host while tracing (`float(a)`, `np.asarray(a)`, `x[a]`, `a.tolist()`)
    would fix that value for every later call. TracerEvaluationError, as for reading a value
    computed from the arguments."""
    _check_not_traced([node])


# What the evaluation triggers call, bound by lazyarray/evaluation.py at its import
# (`bind_evaluation`): evaluation imports this module, so this module cannot import it. Module
# Array.__getitem__ as lazyarray/_methods.py installs it: iteration stands for
# `map(self.__getitem__, range(n))` only while it is that one
OWN_GETITEM: list = [None]


def _host_elements(a: Array) -> Iterator[Any]:
    """`for v in x` over a vector with the at-once path off (cupy, dask, debug_nans,
    eager_size=0): 0-d Arrays standing for NumPy's scalars, as the at-once path yields (each a
    leaf of one host copy's element; SciPy's `tuple_to_result(*xp.full(n, nan))` needs the
    namespace's type: NumPy's own scalars failed 50 of its tests on this path). Each element as
    a pending view of the buffer was an evaluation of its own (`min(x)` over 10,000 elements:
    1.9 s); as a leaf, each comparison is one small plan's hit (~0.2 s on the C backend; NumPy's
    scalars took ~4 ms, CuPy's 0-d arrays a launch and a sync each). Each element is read when
    reached: a write that rebinds `x` inside the loop is seen, the copy taken again."""
    node = host = None
    site = a._node.site
    for k in range(a.shape[0]):
        if a._node is not node:
            host = a._host()
            node = a._node
        yield Array(_buffer(np.array(host[k]), site))


# globals, called directly: `np.asarray(x)` and `float(x)` reach `_to_host` in one lookup.
_to_host: Callable[[Array], np.ndarray]
_evaluate_arrays: Callable[[list[Array]], None]
_evaluate: Callable[..., Any]
_block_until_ready: Callable[[Any], Any]
_device_of: Callable[[Node], str]


def bind_evaluation(to_host: Callable[[Array], np.ndarray],
                    evaluate_arrays: Callable[[list[Array]], None], evaluate: Callable[..., Any],
                    block_until_ready: Callable[[Any], Any], device_of: Callable[[Node], str]
                    ) -> None:
    """Give Array's triggers lazyarray/evaluation.py's functions (as eager.EVALUATE_ARRAYS):
    the core's imports run one way, evaluation -> array, and evaluation is imported with the
    package, before any Array can be looked at."""
    global _to_host, _evaluate_arrays, _evaluate, _block_until_ready, _device_of
    _to_host, _evaluate_arrays, _evaluate = to_host, evaluate_arrays, evaluate
    _block_until_ready, _device_of = block_until_ready, device_of


def _read_only(data: np.ndarray) -> np.ndarray:
    view = data.view()
    view.setflags(write=False)
    return view


# Consumers that take a DLPack >= 1.0 capsule but ignore its read-only flag (torch 2.x's
# `from_dlpack` shares the buffer writable, even a read-only NumPy array's): they get a copy.
_IGNORE_READ_ONLY = frozenset({"torch"})


def _ignores_read_only(caller: Any) -> bool:
    """Whether `__dlpack__` was called from such a consumer (the frame that called it)."""
    return caller.f_globals.get("__name__", "").partition(".")[0] in _IGNORE_READ_ONLY
