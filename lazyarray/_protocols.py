"""NumPy's dispatch protocols (NEP 13 `__array_ufunc__`, NEP 18 `__array_function__`) on Array.

`np.exp(a)`, `np.add.reduce(a)`, `np.sum(a)`, `np.concatenate([a, b])`, `np.where(c, a, b)` call
the lazyarray function of the same meaning and return a lazy Array, so NumPy code handed Arrays
stays lazy. A NumPy function or ufunc method lazyarray lacks (or a keyword it does not take, such
as `out=`) evaluates its Array arguments, runs NumPy, and returns NumPy's result, with a
`LazyArrayFallbackWarning` naming the function once per process.
"""

from __future__ import annotations

import inspect
import warnings
from typing import Any, Callable

import numpy as np

from . import _bind, elementwise, ufuncs
from ._matmul import _SAME_DTYPE_LOOPS
from .array import Array
from .graph import get_op
from .graph.node import register_library_dir

register_library_dir(np.__file__)  # errors raised through np.* point at the user's line


class LazyArrayFallbackWarning(UserWarning):
    """A NumPy function ran eagerly on evaluated Arrays because lazyarray has no lazy version."""


_WARNED: set[str] = set()

# NumPy ufunc names whose lazyarray function has another name.
_UFUNC_NAMES = {"absolute": "abs", "invert": "bitwise_invert", "left_shift": "bitwise_left_shift",
                "right_shift": "bitwise_right_shift", "conjugate": "conj", "true_divide": "divide"}
# ufunc.reduce / accumulate spelled as lazyarray reductions and scans.
_REDUCE = {"add": "sum", "multiply": "prod", "maximum": "max", "minimum": "min",
           "logical_and": "all", "logical_or": "any"}
_ACCUMULATE = {"add": "cumulative_sum", "multiply": "cumulative_prod"}
# NumPy keyword names that lazyarray spells the Array API way.
_KEYWORDS = {"a_min": "min", "a_max": "max", "newshape": "shape", "ddof": "correction"}
_KNOWN = (Array, np.ndarray, np.generic)  # the types NEP 18 calls may carry
# NumPy functions with a lazyarray counterpart of another name, or none in the namespace.
_FUNCTIONS: dict[str, Callable[..., Any]] = {
    "shape": lambda a: a.shape, "ndim": lambda a: a.ndim,
    "size": lambda a, axis=None: a.size if axis is None else a.shape[axis],
    # a new Array (it was `a` itself: writes into numpy.copy(x) changed x), in NumPy's layout
    "copy": lambda a, order="K", subok=False: _namespace().copy(a, order),
    "where": lambda condition, x=None, y=None: _namespace().nonzero(condition)
    if x is None and y is None else _namespace().where(condition, x, y),  # np.where(c): nonzero
    # np.unique_values(Array): NumPy's own order (2.3+: a hash table's for integers); la's own
    # unique_values is sorted, as the standard's consumers (scikit-learn) search it
    "unique_values": lambda x: _namespace().unique(x, equal_nan=False, sorted=False),
    "clip": lambda a, a_min=np._NoValue, a_max=np._NoValue, out=None, *, min=np._NoValue,
    max=np._NoValue: elementwise.numpy_clip(a, a_min, a_max, out, min, max),
}


def _namespace() -> Any:
    import lazyarray  # the namespace: still executing its imports when this module is imported

    return lazyarray


def _warn_once(name: str) -> None:
    if name not in _WARNED:
        _WARNED.add(name)
        warnings.warn(f"numpy.{name} has no lazy lazyarray version (or was given arguments "
                      "lazyarray does not take): it evaluated its Array arguments and returned "
                      "a NumPy result", LazyArrayFallbackWarning, stacklevel=4)


def _to_numpy(x: Any) -> Any:
    if isinstance(x, Array):
        return np.asarray(x)
    if isinstance(x, (list, tuple)):
        return type(x)(_to_numpy(v) for v in x)
    if isinstance(x, dict):
        return {k: _to_numpy(v) for k, v in x.items()}
    return x


def _fallback(name: str, fn: Callable[..., Any], args: tuple, kwargs: dict) -> Any:
    _warn_once(name)
    return fn(*_to_numpy(args), **_to_numpy(kwargs))


# --- NEP 13 --------------------------------------------------------------------------------------------
def _ufunc_target(ufunc: np.ufunc, method: str) -> Callable[..., Any] | None:
    la = _namespace()
    if method == "__call__":
        return getattr(la, _UFUNC_NAMES.get(ufunc.__name__, ufunc.__name__), None)
    table = {"reduce": _REDUCE, "accumulate": _ACCUMULATE}.get(method, {})
    name = table.get(ufunc.__name__)
    return getattr(la, name) if name else None


def array_ufunc(self: Array, ufunc: np.ufunc, method: str, *inputs: Any, **kwargs: Any) -> Any:
    """NEP 13: a ufunc call or method on Arrays runs lazyarray's ufunc of the same name (lazy,
    `out=` and `.at` rebind the Array given); a ufunc lazyarray lacks runs NumPy, eagerly."""
    ours = ufuncs.by_numpy(ufunc)
    if "out" in kwargs and kwargs["out"] is None:
        del kwargs["out"]
    if ours is not None:
        if method == "__call__":
            if not kwargs and len(inputs) == ufunc.nin:
                return ours(*inputs)  # ndarray + Array lands here: the hot path
            return ours.call_general(inputs, kwargs.pop("out", None), kwargs)
        return getattr(ours, method)(*inputs, **kwargs)
    if method == "at" and inputs and isinstance(inputs[0], Array):
        # NumPy's ufunc.at ignores the read-only flag of the buffer view the fallback hands it:
        # it would write into this (immutable) Array and every pending expression reading it
        raise ValueError(f"np.{ufunc.__name__}.at writes into its first argument, and an Array "
                         "is read-only (immutable); lazyarray has no such ufunc")
    target = _ufunc_target(ufunc, method)
    name = ufunc.__name__ if method == "__call__" else f"{ufunc.__name__}.{method}"
    if isinstance(kwargs.get("out"), tuple) and len(kwargs["out"]) == 1:
        kwargs["out"] = kwargs["out"][0]  # NumPy's tuple form; la.matmul takes the array
    if target is not None and not kwargs and method == "__call__" and len(inputs) == ufunc.nin:
        return target(*inputs)
    if target is not None and _binds(target, inputs, kwargs):
        return target(*inputs, **kwargs)
    return _fallback(name, getattr(ufunc, method), inputs, kwargs)


_SIGNATURES: dict[Any, inspect.Signature] = {}


def _signature(fn: Callable[..., Any]) -> inspect.Signature:
    sig = _SIGNATURES.get(fn)
    if sig is None:
        sig = _SIGNATURES[fn] = inspect.signature(fn)
    return sig


def _binds(fn: Callable[..., Any], args: tuple, kwargs: dict) -> bool:
    try:
        _signature(fn).bind(*args, **kwargs)
    except (TypeError, ValueError):  # ValueError: a builtin without a readable signature
        return False
    return True


# --- NEP 18 --------------------------------------------------------------------------------------------
def _function_target(func: Callable[..., Any]) -> Callable[..., Any] | None:
    la = _namespace()
    name, module = func.__name__, getattr(func, "__module__", None)
    if module == "numpy":
        target = _FUNCTIONS.get(name) or getattr(la, name, None)
    elif module in ("numpy.linalg", "numpy.fft"):
        target = getattr(getattr(la, module[6:], None), name, None)
    elif module == "numpy.lib.stride_tricks":  # (`from numpy.lib.stride_tricks import ...`)
        target = getattr(la.lib.stride_tricks, name, None)
    else:  # numpy.random, numpy.ma, numpy.testing, ...: no counterpart
        return None
    return target if callable(target) and not isinstance(target, type) else None


def _translate(func: Callable[..., Any], target: Callable[..., Any], args: tuple,
               kwargs: dict) -> tuple[tuple, dict] | None:
    """NumPy's arguments as a call of `target`: bound to NumPy's signature, values equal to NumPy's
    defaults dropped (out=None, keepdims=<no value>), keywords renamed the Array API way, a
    parameter the two name differently matched by position. None where that cannot be done."""
    try:
        np_sig = _signature(func)
        bound = np_sig.bind(*args, **kwargs)
        la_sig = _signature(target)
    except (TypeError, ValueError):
        return (args, kwargs) if _binds(target, args, kwargs) else None
    np_params = list(np_sig.parameters.values())
    la_params = list(la_sig.parameters.values())
    la_names = [p.name for p in la_params]
    call_args: tuple = ()
    call_kwargs: dict[str, Any] = {}
    for name, value in bound.arguments.items():
        param = np_sig.parameters[name]
        if param.kind is param.VAR_POSITIONAL:
            call_args = tuple(value)
            continue
        if param.kind is param.VAR_KEYWORD:
            call_kwargs.update(value)
            continue
        if param.default is not param.empty and value is param.default:
            continue
        target_name = name if name in la_names else _KEYWORDS.get(name, name)
        if target_name not in la_names:
            index = np_params.index(param)
            if (index >= len(la_params) or la_params[index].name in np_sig.parameters
                    or la_params[index].kind is param.KEYWORD_ONLY):
                return None  # a keyword-only parameter has no position to match
            target_name = la_params[index].name
        call_kwargs[target_name] = value
    positional = [p.name for p in la_params
                  if p.kind is p.POSITIONAL_ONLY and p.name in call_kwargs]
    call_args = tuple(call_kwargs.pop(n) for n in positional) + call_args
    try:
        la_sig.bind(*call_args, **call_kwargs)
    except TypeError:
        return None
    return call_args, call_kwargs


def array_function(self: Array, func: Callable[..., Any], types: tuple, args: tuple,
                   kwargs: dict) -> Any:
    """NEP 18: a NumPy function on Arrays calls the lazyarray function of the same name."""
    for t in types:
        if not issubclass(t, _KNOWN):
            return NotImplemented
    arrays_only = True  # every positional argument an array
    for a in args:
        if type(a) is not Array and type(a) is not np.ndarray:
            arrays_only = False
            break
    if arrays_only:  # np.dot(a, b) in an index loop: signatures bound once per (func, count)
        if not kwargs:
            target = _PASS_THROUGH.get((func, len(args)))
            if target is not None:
                return target(*args)
        else:  # np.sum(p, axis=(1, 2, 3)) in a loop: once per (func, count, keywords)
            known = _PASS_KEYWORDS.get((func, len(args), tuple(kwargs)))
            if known is not None and not any(
                    v is d for v, d in zip(kwargs.values(), known[1])):
                return known[0](*args, **kwargs)
    target = _function_target(func)
    if target is not None and len(args) == 1 and not kwargs and _binds(target, args, kwargs):
        if arrays_only:
            _PASS_THROUGH[(func, 1)] = target
        return target(args[0])  # np.sum(a): the data argument alone
    call = _translate(func, target, args, kwargs) if target is not None else None
    if call is None:
        return _fallback(func.__name__, func, args, kwargs)
    if arrays_only and not kwargs and _same_positions(target, call, args):
        # Arrays bind by position only (no array is a parameter's default): the same call
        _PASS_THROUGH[(func, len(args))] = target
    elif arrays_only and kwargs and _same_call(target, call, args, kwargs):
        # the keywords pass as they are, unless a later value is NumPy's default (dropped then)
        params = _signature(func).parameters
        _PASS_KEYWORDS[(func, len(args), tuple(kwargs))] = (
            target, tuple(params[k].default if k in params else _NO_DEFAULT for k in kwargs))
    return target(*call[0], **call[1])


def _same_call(target: Callable[..., Any], call: tuple[tuple, dict], args: tuple,
               kwargs: dict) -> bool:
    """Whether the translated call is `target(*args, **kwargs)`: the arrays in order (as
    positions or as target's first parameters: NumPy's `a` is our `x`), then the same keywords
    with the same objects, in the same order."""
    rest = dict(call[1])
    if len(call[0]) > len(args) or len(rest) < len(args) - len(call[0]):
        return False
    first = {k: rest.pop(k) for k in list(rest)[:len(args) - len(call[0])]}
    return (_same_positions(target, (call[0], first), args) and list(rest) == list(kwargs)
            and all(rest[k] is v for k, v in kwargs.items()))


def _same_positions(target: Callable[..., Any], call: tuple[tuple, dict], args: tuple) -> bool:
    """Whether the translated call is `target(*args)`: the arguments in order, as positions or
    as the keywords of target's first parameters."""
    values = list(call[0]) + list(call[1].values())
    if len(values) != len(args) or any(v is not a for v, a in zip(values, args)):
        return False
    params = list(_signature(target).parameters.values())[len(call[0]):len(args)]
    return [p.name for p in params] == list(call[1]) and all(
        p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) for p in params)


# (NumPy function, number of positional array arguments) -> the lazyarray function they pass to
# unchanged: the signature binding above costs ~10 us per call
_PASS_THROUGH: dict[tuple, Callable[..., Any]] = {}
# (NumPy function, positional array count, keyword names) -> (lazyarray function, NumPy's defaults
# of those keywords): calls whose keywords also pass unchanged
_PASS_KEYWORDS: dict[tuple, tuple[Callable[..., Any], tuple]] = {}
_NO_DEFAULT = object()


Array.__array_ufunc__ = array_ufunc  # type: ignore[assignment]


def install_fast_array_ufunc() -> None:
    """`np.maximum(t, u)` on Arrays: the C path of the ops whose lazyarray ufunc calls exactly the
    plain op (elementwise._make's keyword twin), without this module's Python dispatch. Run
    after ufuncs.wrap_namespace has made the ufuncs (lazyarray/__init__.py)."""
    if _bind.FAST is None or not hasattr(_bind.FAST, "install_array_ufunc"):
        return
    ops = {}
    for name in elementwise.PLAIN_OPS:
        op = get_op(name)
        ours = ufuncs.by_numpy(op.ufunc) if op.ufunc is not None else None
        call = type(ours).__dict__.get("__call__") if ours is not None else None
        if (isinstance(call, staticmethod)
                and call.__func__ is elementwise.KEYWORD_FUNCTIONS.get(name)):
            ops[op.ufunc] = op
    _bind.FAST.install_array_ufunc(array_ufunc, ops)
    if hasattr(_bind.FAST, "set_element_ops"):  # np.maximum(t, u), -t of elements: in C
        _bind.FAST.set_element_ops(get_op("maximum"), get_op("minimum"), get_op("negative"),
                                   *(get_op(name) for name in ("abs", "sqrt", "square", "floor",
                                                               "ceil", "trunc", "sign")))
Array.__array_function__ = array_function  # type: ignore[attr-defined]
if (_bind.FAST is not None and hasattr(_bind.FAST, "install_array_function")
        and hasattr(_bind.FAST, "install_eager")):  # (lazyarray/_methods.py installed it)
    # np.dot of two computed vectors (an index loop's `np.dot(A[i, :j], A[j, :j])`) in C, past
    # the Python layers; array_function above for every other call
    # (and np.flip(x) as x[::-1, ...]: the view la.flip builds, through the C getitem)
    # (dot_now calls NumPy's C dot past its own __array_function__ dispatch: ~0.2 us less)
    _bind.FAST.install_array_function(array_function, np.dot, _SAME_DTYPE_LOOPS,
                                      getattr(np.dot, "_implementation", np.dot), np.flip)
    if hasattr(_bind.FAST, "install_matmul"):  # `L[i, :i] @ x[:i]`: the same dot, from `@`
        _bind.FAST.install_matmul(Array.__matmul__)
