"""Elementwise functions of the namespace: one per registry entry, plus where, clip, astype, round.

Each function promotes and broadcasts its operands the NumPy 2 way (lazyarray._bind) and binds the
strict primitive of the same name. Aliases follow the Array API standard (acos, atan2, pow, ...).
"""

from __future__ import annotations

import functools
import operator
import warnings
from typing import Any

import numpy as np

from . import _bind, cache
from .array import Array, scalar_result, zero_d_array
from .graph import dtypes, get_op
from .graph.node import user_site
from .graph.ops_unchecked import POWER_FAST_PATHS, POWER_FIXED
from .outputs import into
from ._layout import check_casting, check_order
from .result_layout import broadcast_copy_axes, copied, laid_out
from ._host_results import nonzero
from .complex_functions import from_parts, imag, real
from .eager import view_value, where_now

_CAST = get_op("cast")
_BROADCAST_OP = get_op("broadcast_to")
# (name, inputs, out, keywords) -> result: a call with NumPy's ufunc keywords (lazyarray/ufuncs.py)
KEYWORD_CALL: list[Any] = [None]
KEYWORD_FUNCTIONS: dict[str, Any] = {}  # public name -> the function taking those keywords


# The Array API's elementwise names (the others here are NumPy's spellings and aliases).
_STANDARD = frozenset(
    "abs acos acosh add asin asinh atan atan2 atanh bitwise_and bitwise_left_shift bitwise_invert "
    "bitwise_or bitwise_right_shift bitwise_xor ceil copysign cos cosh divide equal exp expm1 floor "
    "floor_divide greater greater_equal hypot isfinite isinf isnan less less_equal log log1p log2 "
    "log10 logaddexp logical_and logical_not logical_or logical_xor maximum minimum multiply "
    "negative nextafter not_equal positive reciprocal remainder sign signbit sin sinh square sqrt "
    "subtract tan tanh trunc".split())


def _make(op_name: str, public_name: str) -> Any:
    op = get_op(op_name)
    fast = _bind.FAST  # lazyarray/_trace.c: the common case in C, None when Python must run
    if op.arity == 1 and fast is not None:
        fast_unary = fast.unary

        def fn(x: Any) -> Array:
            out = fast_unary(op, x)
            return out if out is not None else Array(_bind.unary(op, x, user_site(1)))
    elif op.arity == 1:
        def fn(x: Any) -> Array:
            return Array(_bind.unary(op, x, user_site(1)))
    elif fast is not None:
        fast_binary = fast.binary

        def fn(x1: Any, x2: Any) -> Array:
            out = fast_binary(op, x1, x2)
            return out if out is not None else Array(_bind.binary(op, x1, x2, user_site(1)))
    else:
        def fn(x1: Any, x2: Any) -> Array:
            return Array(_bind.binary(op, x1, x2, user_site(1)))
    KEYWORD_FUNCTIONS[public_name] = _make_keyword(op, public_name)
    fn.__name__ = fn.__qualname__ = public_name
    standard = f" / Array API `{public_name}`" if public_name in _STANDARD else ""
    if op.ufunc is None:  # erf, erfc: NumPy has none; scipy.special's, np.sin's dtype rule
        fn.__doc__ = (f"scipy.special.{op_name}: elementwise on real numbers (the result dtype as "
                      "numpy.sin's), within the ulp bound of docs/semantics.md.")
        return fn
    fn.__doc__ = (f"numpy.{op.ufunc.__name__}{standard}: elementwise, with NumPy's dtype promotion "
                  "and broadcasting.")
    return fn


def _make_keyword(op: Any, public_name: str) -> Any:
    """The same function taking NumPy's ufunc keywords (out=, where=, dtype=, casting=), which it
    hands to KEYWORD_CALL (lazyarray/ufuncs.py): the `la.add` ufunc calls it. A separate function,
    so that `elementwise.add` (Python's operators, the library) pays nothing for `**kwargs`."""
    fast = _bind.FAST
    if op.arity == 1:
        unary = fast.unary if fast is not None else (lambda op, x: None)

        def fn(x: Any, out: Any = None, **kwargs: Any) -> Any:
            if out is None and not kwargs:
                result = unary(op, x)
                return result if result is not None else Array(_bind.unary(op, x, user_site(1)))
            return KEYWORD_CALL[0](public_name, (x,), out, kwargs)
    else:
        binary = fast.binary if fast is not None else (lambda op, x1, x2: None)

        def fn(x1: Any, x2: Any, out: Any = None, **kwargs: Any) -> Any:
            if out is None and not kwargs:
                result = binary(op, x1, x2)
                return result if result is not None else Array(_bind.binary(op, x1, x2,
                                                                            user_site(1)))
            return KEYWORD_CALL[0](public_name, (x1, x2), out, kwargs)
    fn.__name__ = fn.__qualname__ = public_name
    fn.op = op  # (ufuncs._make_ufunc: its positional call in C)
    return fn


_UNARY = ("abs", "negative", "positive", "exp", "expm1", "log", "log1p", "log2", "log10", "sqrt",
          "square", "reciprocal", "sin", "cos", "tan", "arcsin", "arccos", "arctan", "sinh", "cosh",
          "tanh", "arcsinh", "arccosh", "arctanh", "sign", "floor", "ceil", "trunc", "rint", "isnan",
          "isinf", "isfinite", "logical_not", "bitwise_invert", "signbit", "cbrt", "exp2", "erf",
          "erfc")
_BINARY = ("add", "subtract", "multiply", "divide", "floor_divide", "remainder", "fmod", "gcd",
           "lcm", "maximum", "minimum",
           "arctan2", "hypot", "logaddexp", "logaddexp2", "copysign", "nextafter", "equal", "not_equal", "less", "less_equal", "greater",
           "greater_equal", "logical_and", "logical_or", "logical_xor", "bitwise_and", "bitwise_or",
           "bitwise_xor", "bitwise_left_shift", "bitwise_right_shift")
_ALIASES = {
    "absolute": "abs", "acos": "arccos", "asin": "arcsin", "atan": "arctan", "acosh": "arccosh",
    "asinh": "arcsinh", "atanh": "arctanh", "atan2": "arctan2", "true_divide": "divide",
    "mod": "remainder", "invert": "bitwise_invert", "bitwise_not": "bitwise_invert",
    "left_shift": "bitwise_left_shift", "right_shift": "bitwise_right_shift",
}

PLAIN_OPS = _UNARY + _BINARY  # functions that are their op and nothing more (lazyarray/_trace.c)
for _name in PLAIN_OPS:
    globals()[_name] = _make(_name, _name)
for _alias, _target in _ALIASES.items():
    globals()[_alias] = _make(_target, _alias)

_POWER = get_op("power")
_MULTIPLY = get_op("multiply")


def power(x1: Any, x2: Any) -> Array:
    """numpy.power / Array API `pow`: x1 ** x2. A small integer exponent (1..4) of an integer base
    becomes multiplications, as every compiler does; a real float base to a scalar 2, -1 or 0.5 is
    what NumPy's power loop computes there, square, reciprocal or sqrt (POWER_FAST_PATHS: their
    bits, 'power' in a report)."""
    site = user_site(1)
    if isinstance(x1, Array) and type(x2) is int and (
            x2 == 1 if x1.dtype.kind == "f" else 1 <= x2 <= 4) and x1.dtype.kind in "iuf":
        # (Array's C operator: an index loop's `row ** 2` computed at once in C, ~1 us, where
        # the node through Array() took ~8)
        if x2 == 1:
            return Array(_bind.elementwise(get_op("positive"), x1, site=site))
        result = x1 * x1
        for _ in range(x2 - 2):
            result = result * x1
        return result
    if _fixed_exponent(x1, x2):
        # an exponent fixed over NumPy's loop whose value is data (`x ** np.array(0.5)`): its
        # fast paths chosen in the kernel (sqrt(-inf) NaN where pow gives inf; x * x, 1 / x)
        return Array(_bind.elementwise(POWER_FIXED, x1, x2, site=site))
    result = _bind.elementwise(_POWER, x1, x2, site=site)
    if getattr(x2, "_lazyarray_weak_type", None) is not None:
        return Array(result)  # la.jit's traced exponent: its value is not known here
    if (result.dtype.kind in "iu" and _negative_int_scalar(x2)
            and 0 not in result.shape):  # NumPy raises in the loop: not when empty
        raise _bind.fail(ValueError, "Integers to negative integer powers are not allowed.", site)
    exponent = _loop_scalar_exponent(x2, result.shape)
    fast = POWER_FAST_PATHS.get(exponent) if exponent is not None else None
    if (fast is not None and isinstance(x1, Array) and x1.dtype.kind in "biuf"
            and result.dtype.kind == "f"):
        # NumPy's power loop takes these for a scalar exponent: x * x and 1 / x exactly, and
        # sqrt(-inf) NaN and sqrt(-0.0) -0.0 where C's pow gives inf and +0.0
        base = x1._node
        if base.dtype != result.dtype:
            base = _bind.primitive(_CAST, (base,), (), base.shape, result.dtype, site)
        if base.shape != result.shape:  # (a (1, 1) exponent adds dimensions)
            base = _bind.broadcast_to(base, result.shape, site)
        return Array(_bind.elementwise(fast, Array(base), site=site))
    return Array(result)


def _loop_scalar_exponent(x2: Any, shape: tuple[int, ...]) -> float | None:
    """The exponent as a float where NumPy's power loop sees one value at stride 0, known now: a
    Python or NumPy number; a 0-d array or Array of known value; one of a single element that
    broadcasts against the result (`x ** np.array([0.5])`: sqrt, where a same-shape (1,) one takes
    pow); a NumPy array whose strides are all 0 (`np.broadcast_to(0.5, x.shape)`). None else (a
    computed exponent takes the general formula: docs/semantics.md, "power")."""
    if isinstance(x2, (int, float, np.integer, np.floating)):
        return None if isinstance(x2, (bool, np.bool_)) else float(x2)
    if isinstance(x2, Array):
        node = x2._node
        data = node.data if not node.inputs and isinstance(node.data, np.ndarray) else None
    else:
        data = x2 if type(x2) is np.ndarray else None
    if data is None or data.dtype.kind not in "iuf" or data.size == 0:
        return None
    if data.ndim == 0 or (data.shape != shape if data.size == 1 else not any(data.strides)):
        return float(data.flat[0])
    return None


pow = power  # noqa: A001  (Array API name)


def _fixed_exponent(x1: Any, x2: Any) -> bool:
    """Whether NumPy's power loop sees `x2` at a fixed address (inner stride 0: a 0-d array, or
    one element broadcast against more) with a real float result: an Array or NumPy array of
    one element. A 0-d base takes it only with a 0-d *array* exponent (two operands standing
    for NumPy's scalars take its scalar power, C's pow; `x[0] ** np.array(2)` is NumPy's loop,
    its report 'power')."""
    if not (isinstance(x1, Array) and isinstance(x2, (Array, np.ndarray)) and x2.size == 1
            and x1.dtype.kind in "biuf" and x2.dtype.kind in "biuf"
            and np.result_type(x1.dtype, x2.dtype).kind == "f"):
        return False
    if not x1.ndim:
        return x2.ndim == 0 and not (isinstance(x2, Array) and x2._view is False)
    return x2.ndim == 0 or x1.size > 1


def _negative_int_scalar(x: Any) -> bool:
    """A negative integer exponent known now: a Python or NumPy int; a NumPy array, a flat list of
    Python ints, or a computed integer Array (a leaf: its buffer, an element an index loop read)
    with a negative entry, or a view of one's buffer. NumPy's loop raises after computing; a
    pending exponent's values are not known here (docs/semantics.md, "power")."""
    if isinstance(x, (int, np.integer)) and not isinstance(x, bool):
        return x < 0
    if isinstance(x, Array):
        node = x._node
        data = node.data if not node.inputs and isinstance(node.data, np.ndarray) else None
        if node.inputs and node.op.write_back is not None and node.dtype.kind == "i":
            data = view_value(node)  # a view of a computed buffer (`row ** row[::-1]`: fuzz55's
            # seed 2681): its values are known too, NumPy's view of them
    elif type(x) is np.ndarray:
        data = x
    elif isinstance(x, (list, tuple)) and x and all(type(v) is int for v in x):
        data = np.asarray(x)  # (a flat list of Python ints: no Array in it to evaluate)
    else:
        return False
    return data is not None and data.dtype.kind == "i" and bool((data < 0).any())


def power_operator(x1: Any, x2: Any) -> Array:
    """`x1 ** x2`: NumPy's operator computes `bool_array ** 2` as `np.square` (int8), where
    `np.power` gives int64; and `complex_array ** 0.5` as `np.sqrt` (its exact zeros: cpow gives
    `(-2.5+0j) ** 0.5` a real part of 1e-16), where `np.power` takes cpow; `complex_array ** 2`
    and `** -1` (Python ints) as `np.square` and `np.reciprocal`."""
    if type(x2) is int and x2 == 2 and isinstance(x1, Array) and x1.dtype.kind == "b":
        site = user_site(1)
        node = _bind.cast(x1._node, dtypes.int8, site)
        return Array(_bind.primitive(_MULTIPLY, (node, node), (), node.shape, node.dtype, site))
    if (isinstance(x1, Array) and x1.dtype.kind in "fc" and type(x2) is float and x2 == 0.5):
        # (a Python float: NumPy's operator takes sqrt, and its report names 'sqrt')
        return Array(_bind.elementwise(get_op("sqrt"), x1, site=user_site(1)))
    if isinstance(x1, Array) and x1.dtype.kind in "fc" and type(x2) is int and x2 in (2, -1):
        # and a Python int 2 or -1 as `np.square` / `np.reciprocal`: `(1e308+1e308j) ** 2` is
        # -inf+infj there, cpow's nan+infj (fuzz44); a float's report names 'square'
        op = get_op("square" if x2 == 2 else "reciprocal")
        return Array(_bind.elementwise(op, x1, site=user_site(1)))
    return power(x1, x2)


_NO_VALUE = object()


def where(condition: Any, x1: Any = _NO_VALUE, x2: Any = _NO_VALUE) -> Any:
    """numpy.where / Array API `where`: x1 where condition is true, else x2; the result dtype is NumPy's promotion of x1 and x2.
    `where(condition)` alone is `nonzero(condition)` (it evaluates the condition), as NumPy."""
    site = user_site(1)
    if x1 is _NO_VALUE or x2 is _NO_VALUE:
        if x1 is not x2:
            raise _bind.fail(ValueError, "either both or neither of x and y should be given", site)

        return nonzero(condition)
    done = _where_of_leaves(condition, x1, x2, site)
    if done is not None:
        return Array(done)
    cond = _bind.operand(condition, site)
    a, b = _bind.operand(x1, site), _bind.operand(x2, site)
    dtype = dtypes.result_type(_bind.operand_dtype(a), _bind.operand_dtype(b))
    # (a scalar is a `()` operand: NumPy's broadcast error lists it, "(3,4) (5,) () ", fuzz46)
    shapes = [o.shape if isinstance(o, _bind.Node) else () for o in (cond, a, b)]
    shape = _bind.broadcast_shapes(shapes, site)
    done = where_now((cond, a, b), dtype, shape, site)
    if done is not None:
        return Array(done)
    a, b = _wrap_weak_int(a, dtype, site), _wrap_weak_int(b, dtype, site)
    inputs = (
        _bind.materialize(cond, dtypes.bool_, shape, site),
        _bind.materialize(a, dtype, shape, site),
        _bind.materialize(b, dtype, shape, site),
    )
    return Array(_bind.primitive(get_op("where"), inputs, (), shape, dtype, site))


def numpy_where(condition: Any, x1: Any = _NO_VALUE, x2: Any = _NO_VALUE) -> Any:
    """numpy.where as the namespace's `where`: a 0-d result is NumPy's 0-d array, not its scalar
    (`t = np.where(c, a, b); t += 1` writes in place, fuzz54). The library's own compositions
    call `where` (heaviside, interp, choose: NumPy's scalars)."""
    out = where(condition, x1, x2)
    return zero_d_array(out) if type(out) is Array and not out._node.shape else out


numpy_where.__name__ = numpy_where.__qualname__ = "where"


def _where_of_leaves(condition: Any, x1: Any, x2: Any, site: Any) -> Any:
    """where_now's answer for Arrays of one shape and Python numbers, before the operands'
    binding, promotion and broadcast (~3 us of dijkstra's 7.7 a `np.where(visited, np.inf,
    dist)`; NumPy 3): where_now takes only a bool condition, values of one dtype and numbers
    beside float64, so the values' dtype and the common shape are the result's. None where an
    operand is something else (the general path decides)."""
    nodes: list[Any] = []
    dtype = shape = None
    for k, o in enumerate((condition, x1, x2)):
        t = type(o)
        if t is Array:
            node = o._node
            if shape is not None and node.shape != shape or k and dtype is not None and (
                    node.dtype != dtype):
                return None
            shape, dtype = node.shape, node.dtype if k else dtype
            nodes.append(node)
        elif k and (t is float or t is int):
            nodes.append((t, o))
        else:
            return None
    return None if dtype is None else where_now(tuple(nodes), dtype, shape, site)


@functools.cache
def numpy_where_checks_ints() -> bool:
    """Whether the installed NumPy's `where` raises OverflowError for a Python int its result's
    integer dtype cannot hold (`where(c, -4, uint8)`: NumPy 2.5), rather than casting it unsafely
    (252: NumPy 2.0-2.4). Asked of NumPy once, not read from its version."""
    try:
        np.where(np.array([True]), -4, np.zeros(1, np.uint8))
    except OverflowError:
        return True
    return False


def _wrap_weak_int(op: Any, dtype: np.dtype, site: Any) -> Any:
    """A Python int beside an integer dtype in `where`, as the installed NumPy takes it: an
    OverflowError at the user's line where it raises (numpy_where_checks_ints), else the
    unsafe cast NumPy 2.0-2.4 make: -4 as uint8 is 252 (an int beyond int64 and uint64, e.g.
    2**64, raises OverflowError there). la.jit's traced int is an int64 argument cast at run
    time (the same wrap; its value is not known here); where NumPy raises, each call checks its
    value (cache.require_fits)."""
    if isinstance(op, tuple) and op[0] is int and dtype.kind in "iu" and type(op[1]) is not int:
        if numpy_where_checks_ints():
            cache.require_fits(op[1], dtype, site)
        scalar = _bind.scalar_leaf(op[1], dtypes.int64, site)
        return scalar if dtype == dtypes.int64 else _bind.primitive(_CAST, (scalar,), (), (),
                                                                      dtype, site)
    if isinstance(op, tuple) and op[0] is int and dtype.kind in "iu":
        if numpy_where_checks_ints():
            _bind.check_weak_int(op[1], dtype, site)  # "Python integer -4 out of bounds for uint8"
            return op
        if not -(1 << 63) <= op[1] < 1 << 64:  # NumPy reads it as a C long long or unsigned
            raise _bind.fail(OverflowError, f"Python int {op[1]} too large to convert to C long",
                             site)
        bits = dtype.itemsize * 8
        value = op[1] % (1 << bits)
        if dtype.kind == "i" and value >= 1 << (bits - 1):
            value -= 1 << bits
        return (int, value)
    return op


def clip(a: Any, min: Any = None, max: Any = None, out: Any = None, *,  # noqa: A002
         a_min: Any = np._NoValue, a_max: Any = np._NoValue) -> Array:
    """numpy.clip / Array API `clip`: clamp to [min, max]; NaN propagates (as NumPy's clip). As
    NumPy 2, a Python int bound beyond the integer dtype on its own side (`clip(int8, 0, 1000)`)
    binds nothing and is dropped. The standard's `clip(x, 3)` (one positional bound, `min`) is
    its answer, where NumPy's positional `a_min` wants an `a_max` too (TypeError): lazyarray is
    both namespaces, and SciPy's array-API code calls `xp.clip(p, 0.)`. NumPy's keywords
    `a_min`/`a_max` follow NumPy's rules (both, and not with `min`/`max`)."""
    min, max = _numpy_clip_bounds(min, max, a_min, a_max)  # noqa: A001
    result, target = _clip(a, min, max), out
    if target is None:
        return result
    return into(target, result, np.clip, (a, min, max), {}, user_site(1))


def numpy_clip(a: Any, a_min: Any, a_max: Any, out: Any, min: Any, max: Any) -> Array:  # noqa: A002
    """`np.clip(Array, ...)` (NEP 18) by NumPy's own rules: its positional bounds are `a_min`
    and `a_max`, both wanted (`np.clip(x, 3)` is its TypeError, where `la.clip(x, 3)` is the
    standard's `min`), and not with `min`/`max`."""
    no = np._NoValue
    if a_min is no and a_max is no:
        return clip(a, None if min is no else min, None if max is no else max, out)
    _check_numpy_bounds(a_min, a_max, min is not no or max is not no)
    return clip(a, a_min, a_max, out)


def _numpy_clip_bounds(min: Any, max: Any, a_min: Any, a_max: Any) -> tuple[Any, Any]:  # noqa: A002
    """(min, max) of `la.clip` given NumPy's keywords `a_min`/`a_max` (a positional first
    bound stands for `a_min`: `la.clip(x, 3, a_max=5)`), NumPy's errors where one is missing
    or `min`/`max` come too."""
    no = np._NoValue
    if a_min is no and a_max is no:
        return min, max
    if a_min is no and min is not None:
        a_min, min = min, None  # noqa: A001
    _check_numpy_bounds(a_min, a_max, min is not None or max is not None)
    return a_min, a_max


def _check_numpy_bounds(a_min: Any, a_max: Any, min_or_max: bool) -> None:
    """NumPy's clip errors, in its order: a missing `a_min`/`a_max`, then `min`/`max` as well."""
    if a_min is np._NoValue or a_max is np._NoValue:
        raise _bind.fail(TypeError, "clip() missing 1 required positional argument: "
                         f"'{'a_min' if a_min is np._NoValue else 'a_max'}'", user_site(3))
    if min_or_max:
        raise _bind.fail(ValueError, "Passing `min` or `max` keyword argument when `a_min` and "
                         "`a_max` are provided is forbidden.", user_site(3))


def _clip(x: Any, min: Any, max: Any) -> Array:  # noqa: A002
    out = x if isinstance(x, Array) else asarray_operand(x)
    if out.dtype.kind in "iu":
        info = np.iinfo(out.dtype)
        if type(min) is int and min < info.min:
            min = None  # noqa: A001
        if type(max) is int and max > info.max:
            max = None  # noqa: A001
    bounds = [b for b in (min, max) if b is not None]
    if len(bounds) == 2:  # NumPy's clip ufunc lists its three operands' shapes (fuzz46)
        _bind.broadcast_shapes([out.shape, *(tuple(np.shape(b)) if not isinstance(b, Array)
                                             else b.shape for b in bounds)], user_site(2))
    if not bounds:  # NumPy 2's clip(x, None, None) is a copy (x itself was an alias, fuzz42)
        return Array(out._node)
    if out.dtype.kind == "f" and all(type(b) is float or type(b) is int for b in bounds):
        bounds = []  # Python numbers are weak (NEP 50): a float x keeps its dtype (row_loop)
    if bounds:  # NumPy promotes x and both bounds at once: clip(bool, 5, float32) is float32
        target = dtypes.result_type(out.dtype, *map(_promotion_type, bounds))
        if target != out.dtype:
            out = astype(out, target)
    if min is not None:
        out = globals()["maximum"](out, min)
    if max is not None:
        out = globals()["minimum"](out, max)
    return out


def _promotion_type(v: Any) -> Any:
    """What NEP 50 promotes `v` as: its dtype, or the Python type of a weak scalar."""
    weak = dtypes.weak_type_of(v)
    if weak is not None:
        return weak
    dtype = getattr(v, "dtype", None)
    return dtype if dtype is not None else np.asarray(v).dtype


def astype(x: Any, dtype: Any, order: str = "K", casting: str = "unsafe", subok: bool = True,
           copy: bool = True, *, device: Any = None) -> Array:
    """Array API `astype` (ndarray.astype): cast to `dtype`. Float→int truncates toward zero;
    into 8 and 16 bits it wraps through int32 as NumPy's; into wider integers NumPy's x86-64
    values (INT_MIN out of range, unsigned wrapping negatives: graph/semantics.py).
    NumPy's `casting` rule is checked (TypeError, as NumPy's); the result is laid out as
    NumPy's in `order` (result_layout.copied: 'K' keeps x's memory order, contiguous)."""
    site = user_site(1)
    target = dtypes.to_dtype(dtype)
    node = _bind.operand(x, site)
    if not isinstance(node, _bind.Node):
        node = _bind.scalar_leaf(node[1], dtypes.result_type(node[0]), site)
    if order != "K":
        check_order(order, site)
    if casting != "unsafe":
        check_casting(node.dtype, target, casting, site)
    if node.dtype == target:  # a copy is a new handle on the node (creation._from_array): later
        # writes into x, or into the root x views, leave it (NumPy's astype copies unless
        # copy=False; `x.astype(x.dtype)` gave x itself: fuzz40's seed 160374)
        out = x if isinstance(x, Array) and copy is False else Array(
            copied(node, order if order == "K" else check_order(order, site)))
    else:
        if node.dtype.kind == "c" and target.kind != "c" and target.kind != "b":
            warnings.warn("Casting complex values to real discards the imaginary part",
                          np.exceptions.ComplexWarning, stacklevel=2)
        cast = _bind.primitive(_CAST, (node,), (), node.shape, target, site)
        if order == "K" and node.op is _BROADCAST_OP:  # (NumPy's K order of a broadcast)
            axes = broadcast_copy_axes(node)
            cast = cast if axes is None else laid_out(cast, axes)
        out = Array(cast if order == "K" else copied(cast, check_order(order, site)))
    if not node.shape and out is not x and isinstance(x, Array) and x._view is not False:
        zero_d_array(out)  # (a 0-d array's astype is one: NumPy's scalar's is a scalar)
    return out if device is None or device == out.device else out.to_device(device)


def round(a: Any, decimals: int = 0, out: Any = None) -> Array:  # noqa: A001
    """numpy.round / Array API `round`: half to even; `decimals` scales by 10**decimals first.
    NumPy's `out=` is written (its casting rule checked) and returned."""
    if out is not None:
        return into(out, round(a, decimals), np.round, (a,), {"decimals": decimals},
                    user_site(1))
    a = a if isinstance(a, Array) else asarray_operand(a)
    decimals = operator.index(decimals)
    if not -(1 << 31) <= decimals < 1 << 31:  # NumPy takes a C int
        raise _bind.fail(OverflowError, f"decimals={decimals} does not fit a C int", user_site(1))
    if a.dtype.kind == "b" and decimals != 0:  # NumPy cannot cast x * 10**d back to bool:
        try:  # its UFuncTypeError, whose text names the ufunc (multiply, or divide for d < 0)
            np.round(np.zeros(0, bool), decimals)
        except TypeError as error:
            raise _bind.with_site(error, user_site(1)) from None
    if a.dtype.kind in "iu" and decimals >= 0:
        return integer_copy(a)
    if decimals == 0:
        return globals()["rint"](a)
    if a.dtype.kind == "c":  # NumPy rounds each part on its own (a complex multiply mixes them)
        return from_parts(round(real(a), decimals), round(imag(a), decimals))
    scale = _power_of_ten(decimals if decimals > 0 else -decimals)  # (`abs` here is la.abs)
    rint = globals()["rint"]
    rounded = rint(a * scale) / scale if decimals > 0 else rint(a / scale) * scale
    if a.dtype.kind in "iu":  # NumPy keeps integer dtypes: round(int16, -1) is int16
        return astype(rounded, a.dtype)
    return rounded


def integer_copy(x: Array) -> Array:
    """NumPy's result where an integer function has nothing to do (`round` of integers with
    decimals >= 0, `nan_to_num` of integers): a new array, laid out as NumPy's copy (order 'A'),
    and NumPy's scalar where x is 0-d. Returning x itself made `b = np.round(a); b[0] = 7`
    write into `a`, and `np.round(np.asarray(3))` a 0-d array (probe55)."""
    return scalar_result(copied(x._node, "A"))


def _power_of_ten(n: int) -> float:
    """10.0**n as NumPy's round computes it (a table to 1e8, then repeated multiplication): the
    scale overflows to inf past 1e308 (round then gives NaN, as NumPy), and large scales carry
    NumPy's rounding."""
    if n < 9:
        return 10.0 ** n
    scale = 1e9
    for _ in range(n - 9):
        scale *= 10.0
        if scale == float("inf"):
            break
    return scale


def asarray_operand(x: Any) -> Array:
    site = user_site(2)
    return Array(_bind.standalone(_bind.operand(x, site), site))
