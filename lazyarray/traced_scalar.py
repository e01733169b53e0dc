"""la.jit's Python int/float arguments while the body is traced, and Python arithmetic on them.

A traced scalar is a run-time value, not a number: every conversion to a Python value (`int()`,
`range(s)`, `[v] * s`, `if s > 0:`) raises `TracerEvaluationError`, naming the argument and the
line, since the trace would otherwise keep the first call's value. It is deliberately *not* an
int/float subclass: CPython takes an int subclass as it is wherever it needs an index, without
asking it. Python arithmetic on traced scalars (`lr / (1 + t)`, `t % 2 == 0`) builds a
`TracedExpression`, still a weak scalar (NEP 50: it takes the dtype of the array it meets, as the
Python number it stands for would); where it meets an array, `_lazyarray_build` turns it into
nodes computed in its Python type's default dtype (int64, float64, bool) and cast to that
operation's dtype, as NEP 50 converts the number. lazyarray's functions recognise both by
`_lazyarray_weak_type`.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from . import _bind, creation, elementwise
from .cache import TracerEvaluationError
from .graph import dtypes
from .graph.node import Node, format_site, user_site


_NUMBER = (bool, int, float)
# Python operator -> the lazyarray function that computes it on arrays.
_BINARY = {
    "add": "add", "sub": "subtract", "mul": "multiply", "truediv": "divide",
    "floordiv": "floor_divide", "mod": "remainder", "pow": "pow",
    "lt": "less", "le": "less_equal", "gt": "greater", "ge": "greater_equal",
    "eq": "equal", "ne": "not_equal",
    "and": "bitwise_and", "or": "bitwise_or", "xor": "bitwise_xor",
    "lshift": "bitwise_left_shift", "rshift": "bitwise_right_shift",
}
_COMPARE = frozenset({"lt", "le", "gt", "ge", "eq", "ne"})
_BITS = frozenset({"and", "or", "xor", "lshift", "rshift", "invert"})
_UNARY = {"neg": "negative", "pos": "positive", "abs": "abs", "invert": "bitwise_invert"}
# Conversions to Python values: each would bake the trace-time value. (`str`/`format` give the
# repr: printing a traced scalar while debugging a jitted body is fine, as JAX's tracers print.)
_REFUSED = ("bool", "int", "float", "complex", "index", "round", "trunc", "floor", "ceil",
            "divmod", "rdivmod", "array")


def _weak_type(value: Any) -> type:
    t = type(value)
    return t if t in _NUMBER else value._lazyarray_weak_type


def _result_weak_type(name: str, types: tuple[type, ...]) -> type:
    """The type Python gives `a <op> b` for these operand types (bool counts as int)."""
    if name in _COMPARE:
        return bool
    if name in _BITS:
        if float in types:
            raise TypeError(f"unsupported operand type(s) for {name}: {types}")
        return bool if all(t is bool for t in types) else int
    if name == "truediv" or float in types:
        return float
    return int


def _refuse(name: str) -> Callable:
    def method(self: Any, *other: Any, **_: Any) -> Any:  # **: __array__(dtype, copy=)
        raise TracerEvaluationError(
            f"la.jit: Python `{name}` on {self.describe()} at {format_site(user_site(1))}; its "
            "value changes between calls. Use lazyarray ops, or mark the argument static "
            "(static_argnums / static_argnames)")
    return method


def _binary(name: str, reflected: bool) -> Callable:
    def method(self: Any, other: Any) -> Any:
        if type(other) not in _NUMBER and not isinstance(other, TracedScalar):
            return NotImplemented  # an Array's reflected operator takes it from here
        args = (other, self) if reflected else (self, other)
        return TracedExpression(name, args)
    return method


def _unary(name: str) -> Callable:
    def method(self: Any) -> Any:
        return TracedExpression(name, (self,))
    return method


class TracedScalar:
    """Base of la.jit's traced scalars (argument stand-ins and expressions over them)."""

    __slots__ = ()
    _lazyarray_weak_type: type = int

    def __hash__(self) -> int:  # `__eq__` builds an expression; identity keeps them hashable
        return id(self)

    def __str__(self) -> str:
        return repr(self)

    def __format__(self, spec: str) -> str:
        return repr(self)

    def describe(self) -> str:
        return "a traced scalar"


for _name in _BINARY:
    setattr(TracedScalar, f"__{_name}__", _binary(_name, False))
    if _name not in _COMPARE:
        setattr(TracedScalar, f"__r{_name}__", _binary(_name, True))
for _name in _UNARY:
    setattr(TracedScalar, f"__{_name}__", _unary(_name))
for _name in _REFUSED:
    setattr(TracedScalar, f"__{_name}__", _refuse(_name))


class TracedArgument(TracedScalar):
    """Argument `slot`'s Python int or float: a scalar leaf's value, bound at every call."""

    __slots__ = ("slot", "name", "_value", "_lazyarray_weak_type")

    def __init__(self, value: int | float, slot: int, name: str = "") -> None:
        self._value = value  # for repr only; nothing computes with it
        self.slot, self.name = slot, name or f"#{slot}"
        self._lazyarray_weak_type = type(value)

    def __repr__(self) -> str:
        return f"<la.jit traced {self._lazyarray_weak_type.__name__} argument `{self.name}`>"

    def describe(self) -> str:
        return f"traced scalar argument `{self.name}`"


class TracedExpression(TracedScalar):
    """Python arithmetic over traced scalars and numbers, kept as an expression until it meets an
    array (then `_lazyarray_build` makes nodes of it)."""

    __slots__ = ("op", "args", "_lazyarray_weak_type")

    def __init__(self, op: str, args: tuple) -> None:
        self.op, self.args = op, args
        self._lazyarray_weak_type = _result_weak_type(op, tuple(_weak_type(a) for a in args))

    def __repr__(self) -> str:
        return f"<la.jit traced {self._lazyarray_weak_type.__name__} expression {self.op}>"

    def describe(self) -> str:
        names = sorted({f"`{a.name}`" for a in _leaves(self)})
        return f"a traced scalar computed from argument{'s' * (len(names) > 1)} " + ", ".join(names)

    def _lazyarray_build(self, dtype: np.dtype, site: Any, shape: tuple[int, ...]) -> Node:
        """This expression's nodes, computed in `dtype` (the operation it meets resolved it),
        broadcast to `shape`. Iterative: an expression grown in a Python loop may be deep."""
        built: dict[tuple[int, np.dtype], Any] = {}  # (id, dtype) -> Array
        stack: list[tuple[Any, np.dtype]] = [(self, dtype)]
        while stack:
            e, dt = stack[-1]
            if (id(e), dt) in built:
                stack.pop()
                continue
            if not isinstance(e, TracedExpression):
                stack.pop()
                built[(id(e), dt)] = creation.full((), e, dt)  # a scalar leaf, cast
                continue
            arg_dt = _operand_dtype(e)
            missing = [(a, arg_dt) for a in e.args if (id(a), arg_dt) not in built]
            if missing:
                stack.extend(missing)
                continue
            stack.pop()
            fn = getattr(elementwise, _BINARY.get(e.op) or _UNARY[e.op])
            value = fn(*(built[(id(a), arg_dt)] for a in e.args))
            if value.dtype != dt:
                value = value.astype(dt)
            built[(id(e), dt)] = value
        return _bind.broadcast_to(built[(id(self), dtype)]._node, shape, site)


def _operand_dtype(e: TracedExpression) -> np.dtype:
    """The dtype `e`'s operands are computed in: its Python type's default (int64, float64,
    bool), cast to the consumer's dtype afterwards, as eager Python computes the number exactly
    (in double for floats) and NEP 50 then converts it: `x_f32 * (1.0 / (1 + t))` has eager's
    bits, and `where(t % 3, ...)` is not computed in bool. Comparisons compare in their operands'
    common default dtype."""
    if e.op in _COMPARE:
        return dtypes.result_type(*(_weak_type(a) for a in e.args))
    return dtypes.result_type(e._lazyarray_weak_type)


def _leaves(e: TracedScalar) -> list[TracedArgument]:
    found, stack = [], [e]
    while stack:
        x = stack.pop()
        if isinstance(x, TracedArgument):
            found.append(x)
        elif isinstance(x, TracedExpression):
            stack.extend(x.args)
    return found


# Python operator -> its function (`python_value`).
_PYTHON = {name: getattr(operator, f"{name}_" if name in ("and", "or") else name)
           for name in (*_BINARY, *_UNARY)}


def python_value(e: Any, scalars: Sequence[Any]) -> Any:
    """The Python number the traced scalar `e` stands for at a call with these scalar arguments
    (in `flatten` order), computed exactly as the eager program computes it. Iterative, as
    `_lazyarray_build`."""
    values: dict[int, Any] = {}
    stack = [e]
    while stack:
        x = stack[-1]
        if id(x) in values:
            stack.pop()
        elif isinstance(x, TracedArgument):
            values[id(stack.pop())] = scalars[x.slot]
        elif not isinstance(x, TracedExpression):
            values[id(stack.pop())] = x
        else:
            missing = [a for a in x.args if id(a) not in values]
            if missing:
                stack.extend(missing)
                continue
            stack.pop()
            values[id(x)] = _PYTHON[x.op](*(values[id(a)] for a in x.args))
    return values[id(e)]


def tracer(value: int | float, slot: int, name: str = "") -> TracedArgument:
    return TracedArgument(value, slot, name)
