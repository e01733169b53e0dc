"""`la.jit(f)`: run `f`'s Python body once per input signature, then go straight to the plan.

The signature of a call is its argument tree's structure, each Array's shape and dtype, each Python
int or float's type (weak, NEP 50: its value is a run-time argument), and the values of static
arguments (`static_argnums`, `static_argnames`, and any other hashable non-array leaf). On a new
signature `f` runs on stand-ins: a fresh leaf per array argument and a traced int/float per scalar,
so the graph it returns says which slot each argument binds. Arrays `f` reads from elsewhere
(closures, globals) are constants of that trace, as in JAX. A later call flattens its arguments,
binds them to the stored plan and runs it: no Python body, no graph, no signature walk.
"""

from __future__ import annotations

import functools
import inspect
import threading
import weakref
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from . import _bind, cache, fp_errors, fp_state
from .array import Array
from .evaluation import build_plan, evaluate_arrays, options
from .graph import Graph, Node, dtypes, get_op
from .graph.node import built_count, leaf_like
from .runtime.fp_status import call as fp_call
from .runtime.plan_cache import build_reference_plan
from .settings import _applied as _settings_applied, get_settings
from .traced_scalar import TracedScalar, TracerEvaluationError, python_value, tracer
from .creation import asarray, full

_counters = cache.counters

_INPUT = get_op("input")
_ARRAY, _SCALAR, _STATIC, _TUPLE, _LIST, _DICT = range(6)
_live: weakref.WeakSet = weakref.WeakSet()  # jit functions, for la.clear_caches
# > 0 while la.grad & co. trace a function: a jit function then runs its Python body inline, so
# the graph it builds can be differentiated (a plan's results have no graph behind them).
inline_depth = [0]


def differentiating() -> bool:
    """Whether la.grad & co. are tracing (not la.jit alone): an op without a derivative rule
    (sort, partition, sorted_rows) builds its differentiable stand-in, a gather of argsort's or
    argpartition's indices, only then. The stand-in's values are not always NumPy's own: NumPy's
    partition orders its parts otherwise than argpartition does (int16, float16, floats), and its
    sort puts -0.0 and 0.0 otherwise than a gather of argsort's order (fuzz51: `la.jit` of
    `np.partition`/`np.sort` took the stand-in while tracing)."""
    return inline_depth[0] > 0


# --- argument trees ----------------------------------------------------------------------------------
def flatten(tree: Any, arrays: list, scalars: list, spec: list) -> None:
    """Append `tree`'s Arrays and Python int/floats (depth-first) and its structure tokens."""
    stack = [tree]
    while stack:
        x = stack.pop()
        t = type(x)
        if t is Array:
            node = x._node
            spec.append((node.shape, node.dtype))
            arrays.append(x)
        elif t is float or t is int:
            spec.append(t)
            scalars.append(x)
        elif t is tuple or t is list:
            spec.append((_TUPLE if t is tuple else _LIST, len(x)))
            stack.extend(reversed(x))
        elif t is dict:
            keys = tuple(sorted(x))
            spec.append((_DICT, keys))
            stack.extend(x[k] for k in reversed(keys))
        elif isinstance(x, Array):  # a subclass
            spec.append((x.shape, x.dtype))
            arrays.append(x)
        elif isinstance(x, np.ndarray):
            x = asarray(x)
            spec.append((x.shape, x.dtype))
            arrays.append(x)
        else:
            try:
                hash(x)
            except TypeError:
                raise TypeError(f"la.jit: cannot use a {t.__name__} as an argument; pass Arrays, "
                                "Python scalars, tuples/lists/dicts of them, or mark it static"
                                ) from None
            spec.append((_STATIC, t, x))


def _substitute(tree: Any, arrays: Any, scalars: Any) -> Any:
    """`tree` with its Arrays (and NumPy arrays) and int/floats taken from the iterators, in
    `flatten` order."""
    t = type(tree)
    if isinstance(tree, (Array, np.ndarray)):
        return next(arrays)
    if t is float or t is int:
        return next(scalars)
    if t is tuple or t is list:  # argument trees are shallow: recursion is fine here
        return t(_substitute(v, arrays, scalars) for v in tree)
    if t is dict:
        return {k: _substitute(tree[k], arrays, scalars) for k in sorted(tree)}
    return tree


def _output_arrays(tree: Any) -> list[Array]:
    found: list[Array] = []
    stack = [tree]
    while stack:
        x = stack.pop()
        if isinstance(x, Array):
            found.append(x)
        elif type(x) in (tuple, list):
            stack.extend(reversed(x))
        elif type(x) is dict:
            stack.extend(x[k] for k in reversed(list(x)))
    return found


def _scalars_as_arrays(tree: Any) -> Any:
    """A traced scalar returned by the body (`return x, lr * 2`) as a 0-d Array of its default
    dtype: the trace itself must not be handed back by later calls."""
    if isinstance(tree, TracedScalar):
        return full((), tree, dtypes.result_type(tree._lazyarray_weak_type))
    t = type(tree)
    if t is tuple or t is list:
        return t(_scalars_as_arrays(v) for v in tree)
    if t is dict:
        return {k: _scalars_as_arrays(v) for k, v in tree.items()}
    return tree


def _replace_arrays(tree: Any, arrays: Any) -> Any:
    if isinstance(tree, Array):
        return next(arrays)
    t = type(tree)
    if t is tuple or t is list:
        return t(_replace_arrays(v, arrays) for v in tree)
    if t is dict:
        return {k: _replace_arrays(v, arrays) for k, v in tree.items()}
    return tree


class _Tracers:
    """The traced scalars in `flatten` order, each named after the argument it stands in for
    (errors say `lr`, not the scalar's slot number)."""

    def __init__(self, values: list[Any]) -> None:
        self.values, self.slot, self.name = values, 0, ""

    def named(self, name: str) -> _Tracers:
        self.name = name
        return self

    def __next__(self) -> Any:
        t = tracer(self.values[self.slot], self.slot, self.name)
        self.slot += 1
        return t


def _check_fits(checks: list[tuple[Any, Any, Any]], scalars: list[Any]) -> None:
    """This call's traced ints where the trace met a dtype NumPy checks them against
    (cache.require_fits): NumPy's OverflowError, naming the line in the function, at the call."""
    for value, dtype, site in checks:
        _bind.check_weak_int(python_value(value, scalars), dtype, site)


def _run_plan(plan: Any, data: list[Any], values: list[Any]) -> list[Any]:
    return plan.run(data, values)


def _fp_fired(bits: int, trace: "_Trace", data: list[Any], values: list[Any]) -> None:
    """A call raised floating-point flags: report them (the trace's data-free graph re-run on
    this call's values names the ops)."""
    fp_errors.fired(None, bits, lambda: trace.reference.run(data, values), trace, data,
                    at_the_line=True,  # (computed at the call: under NumPy's error state now,
                    sites=trace.states)  # but an np.errstate block's ops in the body under its)


class _Trace:
    """One traced signature: the plan, how to bind its leaves, and the output tree.

    `run` is every later call's path, so what can be decided once is decided in `_prepare`:
    whether the plan's slots are the arguments in order (then the argument lists are passed as
    they are), and the constant scalars' places."""

    __slots__ = ("array_slots", "checks", "out_nodes", "out_tree", "outputs", "plan", "reference",
                 "states",
                 "scalar_slots", "_arrays_in_order", "_scalars_in_order", "_scalar_template",
                 "_scalar_places", "_single", "_launch")

    def _prepare(self, n_arrays: int, n_scalars: int) -> None:
        self._arrays_in_order = self.array_slots == list(range(n_arrays))
        self._scalars_in_order = self.scalar_slots == list(range(n_scalars))
        self._scalar_template = [None if type(k) is int else k[0] for k in self.scalar_slots]
        self._scalar_places = [(i, k) for i, k in enumerate(self.scalar_slots) if type(k) is int]
        self._single = self.out_tree is None and len(self.out_nodes) == 1
        self._launch = getattr(self.plan, "_launch", None)  # a C plan's launcher: one call less

    def run(self, arguments: list[Any], scalars: list[Any]) -> Any:
        """Run the plan on the arguments' buffers and scalars (in `flatten` order)."""
        if self.checks:
            _check_fits(self.checks, scalars)
        if self._arrays_in_order:
            data = arguments
        else:
            data = [arguments[k] if type(k) is int else k[0] for k in self.array_slots]
        if self._scalars_in_order:
            values = scalars
        else:
            values = self._scalar_template.copy()
            for i, k in self._scalar_places:
                values[i] = scalars[k]
        launch = self._launch
        buffers = fp_call(launch if launch is not None else _run_plan, self.plan, data, values,
                          _fp_fired, self)  # floating-point flags: read once (fp_errors.py)
        if self._single:
            return Array(leaf_like(self.out_nodes[0], buffers[0]))
        results = [Array(leaf_like(n, b)) for n, b in zip(self.out_nodes, buffers)]
        if self.out_tree is None:
            return results[0]
        return _replace_arrays(self.out_tree, iter(results))


class JitFunction:
    """A function traced once per input signature; call it like the function it wraps."""

    def __init__(self, fn: Callable, static_argnums: int | Sequence[int] = (),
                 static_argnames: str | Sequence[str] = ()) -> None:
        self.fn = fn
        self.static_argnums = frozenset(_as_tuple(static_argnums))
        self.static_argnames = frozenset(_as_tuple(static_argnames))
        self._traces: dict[tuple, _Trace] = {}
        self._lock = threading.Lock()
        self._positions = _positions(fn)
        self._token: tuple = (None, "")  # (settings object, the options token derived from it)
        functools.update_wrapper(self, fn)
        _live.add(self)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        """The hit path for the common call: positional, evaluated Arrays and Python scalars,
        nothing static. Its key is the one `_call` builds for the same arguments."""
        if kwargs or self.static_argnums or inline_depth[0]:
            return self._call(args, kwargs)
        settings, token = self._token
        if settings is not get_settings() or _settings_applied[0] is not settings:
            token = cache.options_token(options())  # also re-applies settings another thread set
            self._token = (_settings_applied[0], token)
        spec: list[Any] = [token]
        data: list[Any] = []
        scalars: list[Any] = []
        for x in args:
            t = type(x)
            if t is Array:
                node = x._node
                if node.inputs:  # pending
                    return self._call(args, kwargs)
                spec.append((node.shape, node.dtype))
                data.append(node.data)
            elif t is float or t is int:
                spec.append(t)
                scalars.append(x)
            else:
                return self._call(args, kwargs)
        trace = self._traces.get(tuple(spec))
        if trace is None:
            return self._call(args, kwargs)
        _counters.jit_hits += 1
        return trace.run(data, scalars)

    def _call(self, args: tuple, kwargs: dict) -> Any:
        if inline_depth[0]:
            return self.fn(*args, **kwargs)
        arrays: list[Array] = []
        scalars: list[Any] = []
        spec: list[Any] = [cache.options_token(options())]
        static = self.static_argnums
        for i, x in enumerate(args):
            t = type(x)
            if static and i in static:
                spec.append((_STATIC, i, x))
            elif t is Array:  # the common flat cases inline: `flatten` does the same
                node = x._node
                spec.append((node.shape, node.dtype))
                arrays.append(x)
            elif t is float or t is int:
                spec.append(t)
                scalars.append(x)
            else:
                flatten(x, arrays, scalars, spec)
        if kwargs:
            for name in sorted(kwargs):
                spec.append(name)
                if self._is_static(None, name):
                    spec.append((_STATIC, kwargs[name]))
                else:
                    flatten(kwargs[name], arrays, scalars, spec)
        key = tuple(spec)
        pending = [a for a in arrays if a._node.inputs]
        if pending:
            evaluate_arrays(pending)
        trace = self._traces.get(key)
        if trace is None:
            trace = self._trace(args, kwargs, arrays, scalars, key)
        else:
            cache.counters.jit_hits += 1
        return trace.run([a._node.data for a in arrays], scalars)

    def _trace(self, args: tuple, kwargs: dict, arrays: list[Array], scalars: list[Any],
               key: tuple) -> _Trace:
        cache.counters.jit_traces += 1
        # A view per position: distinct buffers, so the passes never merge two arguments' leaves
        # (the call key says nothing about which arguments alias).
        stand_ins = [Array(Node(_INPUT, (), (), a.shape, a.dtype, data=a._node.data.view()))
                     for a in arrays]
        slot_of = {id(a._node): k for k, a in enumerate(stand_ins)}
        a_it, s_it = iter(stand_ins), _Tracers(scalars)
        names = {i: name for name, i in self._positions.items()}
        targs = tuple(x if self._is_static(i, None)
                      else _substitute(x, a_it, s_it.named(names.get(i, f"#{i}")))
                      for i, x in enumerate(args))
        tkwargs = {k: kwargs[k] if self._is_static(None, k)
                   else _substitute(kwargs[k], a_it, s_it.named(k)) for k in sorted(kwargs)}
        started = built_count()
        with fp_state.recording_sites() as sites, cache.busy(), cache.tracing(slot_of) as traced:
            out = _scalars_as_arrays(self.fn(*targs, **tkwargs))
        out_arrays = _output_arrays(out)
        trace = _Trace()
        trace.states = sites or None
        trace.checks = traced.checks
        trace.out_tree = out if not isinstance(out, Array) else None
        trace.out_nodes = [a._node for a in out_arrays]
        trace.plan, leaves = cache.lookup_plan(trace.out_nodes, options(), build_plan)
        trace.array_slots = [slot_of.get(id(n), (n.data,)) for n in leaves if n.op is _INPUT]
        trace.scalar_slots = [getattr(n.data, "slot", (n.data,)) for n in leaves
                              if n.op is not _INPUT]
        if hasattr(trace.plan, "concrete"):  # size-generic: this trace's sizes never change
            trace.plan = trace.plan.concrete([n.data for n in leaves if n.op is _INPUT])
        # the floating-point report's re-run (lazyarray/fp_errors.py): a data-free copy
        with cache.busy():  # the copy's nodes must not trigger a node-budget cut
            trace.reference = build_reference_plan(Graph(trace.out_nodes))
        trace.out_nodes = [Node(_INPUT, (), (), n.shape, n.dtype, site=n.site)
                           for n in trace.out_nodes]  # keep shapes only, not the trace's graph
        for a, n in zip(out_arrays, trace.out_nodes):
            if a._node.order > started:  # (the trace's own Arrays, markers in out_tree: not
                a._node = n  # pending, or a block's exit computed them with their warnings)
        trace._prepare(len(arrays), len(scalars))
        with self._lock:
            self._traces[key] = trace
        return trace

    def _is_static(self, position: int | None, name: str | None) -> bool:
        if position is not None:
            return position in self.static_argnums
        return name in self.static_argnames or self._positions.get(name) in self.static_argnums

    def clear(self) -> None:
        with self._lock:
            self._traces.clear()


def _as_tuple(x: Any) -> tuple:
    return (x,) if isinstance(x, (int, str)) else tuple(x)


def _positions(fn: Callable) -> dict[str, int]:
    """Parameter name → position, so a static_argnums argument passed by keyword stays static."""
    try:
        params = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):
        return {}
    return {p.name: i for i, p in enumerate(params)
            if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)}


def jit(fn: Callable | None = None, *, static_argnums: int | Sequence[int] = (),
        static_argnames: str | Sequence[str] = ()) -> Any:
    """Trace `fn` once per input signature; later calls run its cached plan directly.

    Usable as `la.jit(f)`, `@la.jit` or `@la.jit(static_argnums=1)`.
    """
    if fn is None:
        return lambda f: JitFunction(f, static_argnums, static_argnames)
    return JitFunction(fn, static_argnums, static_argnames)


def clear_traces() -> None:
    for f in list(_live):
        f.clear()


cache._clear_hooks.append(clear_traces)
