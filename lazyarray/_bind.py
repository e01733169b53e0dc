"""NumPy semantics at the edge: operand normalization, NEP 50 promotion, broadcasting, errors.

Everything here runs before a strict primitive is bound, so primitives see operands that already have
the loop dtype and the output shape. Errors are raised here, at the line that built the op, and name it.
"""

from __future__ import annotations

import operator
from typing import Any, Callable, TypeVar

import numpy as np

from .graph import dtypes, get_op, node, semantics
from .graph.complex_ops import supports_complex
from .graph.node import (_BUDGET, Node, build_node, format_site, on_keys_cleared,
                         register_library_dir, user_site)
from .graph.registry import OpDef
from . import fp_state
from .settings import get_settings

register_library_dir(__file__)
for _sub in ("graph", "passes", "runtime"):
    _mod = __import__(f"lazyarray.{_sub}", fromlist=["__file__"])
    register_library_dir(_mod.__file__)

INPUT, SCALAR = get_op("input"), get_op("scalar")
BROADCAST, RESHAPE, PERMUTE, SLICE = (get_op(n) for n in ("broadcast_to", "reshape", "permute", "slice"))
CAST = get_op("cast")

Site = tuple[str, int] | None
E = TypeVar("E", bound=BaseException)
SUPPORTED = frozenset(dtypes.SUPPORTED)  # hashed: `in` the tuple compares up to 13 dtypes (~0.2 us)
Operand = Node | tuple[type, Any]  # a node, or (weak Python type, value)


def fail(exc_type: type[Exception], message: str, site: Site) -> Exception:
    """An exception with NumPy's `message`, naming the user's line in a PEP 678 note (tracebacks
    show it under the message; `str(exc)` stays NumPy's text, as programs print it);
    `raise fail(...)` keeps the traceback short."""
    return with_site(exc_type(message), site)


def with_site(exc: E, site: Site) -> E:
    """`exc` with the note "(at file:line)" naming the user's line (none for an unknown site)."""
    if site is not None:
        exc.add_note(f"(at {format_site(site)})")
    return exc


def leaf(data: np.ndarray, site: Site = None) -> Node:
    return build_node(INPUT, (), (), data.shape, data.dtype, data, site)


def check_foreign_dtype(obj: Any, site: Site) -> None:
    """A foreign array of bfloat16 (torch, JAX): NumPy's own error names a C scalar type
    ("Got unsupported ScalarType BFloat16") or, through DLPack, none ("Unsupported dtype in
    DLTensor"); say which dtype and what to do, at the user's line."""
    if isinstance(obj, (np.ndarray, np.generic)):
        return  # (str of a dtype costs ~1 µs: NumPy values are checked by NumPy's rules)
    name = str(getattr(obj, "dtype", ""))
    if "bfloat16" in name:
        raise fail(TypeError, f"cannot make an array from a {type(obj).__name__} of dtype {name}: "
                   "lazyarray (like NumPy) has no bfloat16; convert it first, e.g. "
                   "tensor.float() for float32", site)


def host_array(obj: Any, dtype: Any = None, site: Site = None, copy: bool = True) -> np.ndarray:
    """A C-contiguous NumPy array of a supported dtype, or TypeError/ValueError naming the problem."""
    want = dtypes.to_dtype(dtype) if dtype is not None else None
    check_foreign_dtype(obj, site)
    if hasattr(obj, "__dlpack__") and not hasattr(obj, "__array__"):  # a DLPack-only producer
        obj = np.from_dlpack(obj)
    elif type(obj) is list and obj and type(obj[0]) is Array:
        obj = _buffer_values(obj)
    try:
        arr = np.array(obj, dtype=want, copy=copy, order="C") if copy else np.asarray(
            obj, dtype=want, order="C")
    except (TypeError, ValueError) as exc:
        raise fail(type(exc), str(exc), site) from None  # NumPy's text (a ragged list's ...)
    if arr.dtype not in SUPPORTED:
        raise fail(TypeError, f"unsupported dtype {arr.dtype} (from {type(obj).__name__}); "
                   "lazyarray supports bool, int8-64, uint8-64, float16-64, complex64 and "
                   "complex128", site)
    return arr


def _buffer_values(items: list) -> list:
    """`np.array([a[i] * 2 for i in range(n)])`: a list of 0-d Arrays held as host buffers read
    as their 0-d ndarrays (NumPy discovers the same dtype from them as from the scalars they
    stand for), not through each one's `__array__` (a copy and ~1 us each: 400 items 392 -> ~30
    us). Any other item (a pending Array, a number, a row): the list as it is."""
    values = []
    for item in items:
        if type(item) is not Array:
            return items
        node = item._node
        data = node.data
        if node.op is not INPUT or type(data) is not np.ndarray or data.ndim:
            return items
        values.append(data)
    return values


def refuse_traced(*values: Any) -> None:
    """An index or a size is baked into the trace: la.jit's traced scalar there must raise its own
    error (naming the argument and the user's line, saying to mark it static) before a check
    that does not ask it (`isinstance(v, int)`) gives a less helpful TypeError."""
    for v in values:
        if getattr(v, "_lazyarray_weak_type", None) is not None:
            int(v)


_HUGE = 1 << 1023  # smaller ints convert to a float without overflow
_INT_RANGE = {dt: (int(np.iinfo(dt).min), int(np.iinfo(dt).max)) for dt in dtypes.INTEGER}


class WeakIntOverflow(OverflowError):
    """A Python int outside the loop's integer dtype (NumPy 2 raises OverflowError too); a
    comparison catches it and compares exactly instead, as NumPy 2 does. Named as NumPy's
    builtin class, so a traceback and `type(e).__name__` say `OverflowError` (probe49); it
    pickles as one (pickle finds a class by its name)."""

    def __reduce__(self) -> tuple:
        return OverflowError, self.args


WeakIntOverflow.__name__ = WeakIntOverflow.__qualname__ = "OverflowError"
WeakIntOverflow.__module__ = "builtins"


def check_weak_int(value: int, dtype: np.dtype, site: Site) -> None:
    """NumPy 2's rule for a Python int entering a loop or a fill of `dtype`: an integer dtype
    must hold it (WeakIntOverflow); a bool slot (logical_and/or/xor, full(..., dtype=bool))
    takes it through a C long first, so it must fit int64 (`logical_and(x, 2**64-1)` raises).
    Float and complex slots convert it to a float (OverflowError beyond the float range)."""
    if dtype.kind in "fc":
        try:
            float(value)
        except OverflowError:
            raise fail(OverflowError, "int too large to convert to float", site) from None
        return
    long_lo, long_hi = _INT_RANGE[dtypes.int64]
    if dtype.kind == "b":
        if not long_lo <= value <= long_hi:
            raise fail(OverflowError, "Python int too large to convert to C long", site)
        return
    lo, hi = _INT_RANGE[dtype]
    if not lo <= value <= hi:  # NumPy's texts: past a C long (int64), CPython's own conversion's
        if dtype.kind == "u" and dtype.itemsize >= 4:  # (uint32, uint64: a C unsigned long)
            long_hi = (1 << 64) - 1
        text = (f"Python integer {value} out of bounds for {dtype}"
                if long_lo <= value <= long_hi else "Python int too large to convert to C long")
        raise fail(WeakIntOverflow, text, site)


def scalar_leaf(value: Any, dtype: np.dtype, site: Site, shape: tuple[int, ...] = ()) -> Node:
    """A run-time scalar argument: its value never enters the structural key. With a `shape`,
    the value broadcast to it, still one node (a weak scalar operand of an elementwise op; the
    passes see `broadcast_to(scalar)`: passes/scalars.py). A complex scalar is a 0-d input
    buffer instead (scalar arguments travel in 8-byte slots; it is 16 bytes). Python arithmetic
    on la.jit's traced scalars becomes nodes here, in this dtype (lazyarray/traced_scalar.py)."""
    t = type(value)
    if t is not int and t is not float and t is not bool:
        build = getattr(value, "_lazyarray_build", None)
        if build is not None:
            return build(dtype, site, shape)
    if dtype.kind == "c":
        if (isinstance(value, (int, float))
                or getattr(value, "_lazyarray_weak_type", None) is not None):
            # la.jit traces ints and floats: no 0-d buffer of its value
            real = scalar_leaf(value, _COMPLEX_PART[dtype], site, shape)
            return Node(CAST, (real,), (), shape, dtype, None, site)
        return broadcast_to(_complex_leaf(value, dtype, site), shape, site)
    if type(value) is int and (dtype.kind in "iub" or not -_HUGE < value < _HUGE):
        check_weak_int(value, dtype, site)
    return Node(SCALAR, (), (), shape, dtype, value, site)


# A real Python scalar in a complex loop: a real scalar argument cast (NumPy converts the value
# to the complex dtype's part first), so la.jit's traced ints/floats stay run-time arguments.
_COMPLEX_PART = {np.dtype(np.complex64): np.dtype(np.float32),
                 np.dtype(np.complex128): np.dtype(np.float64)}


def _complex_leaf(value: Any, dtype: np.dtype, site: Site) -> Node:
    """The cast under lazyarray's modes (NumPy's own errstate warned 'overflow encountered in
    cast' of `1e308` into complex64 where la.errstate(over='raise') raises it: fuzz46)."""
    modes = fp_state.modes_now()[0]  # (np.errstate's around the line, or lazyarray's)
    with np.errstate(over=_NUMPY_MODE.get(modes[1], "warn"),
                     invalid=_NUMPY_MODE.get(modes[3], "warn")):
        try:
            return leaf(np.asarray(value, dtype=dtype), site)
        except FloatingPointError as exc:
            raise with_site(exc, site) from None


_NUMPY_MODE = {"ignore": "ignore", "warn": "warn", "raise": "raise"}  # (call/print/log: warn)


def _compare_out_of_range(op: OpDef, args: tuple, site: Site) -> Node:
    """A comparison of an integer array with a Python int outside its dtype (`uint8 == 300`,
    `uint8 < -1`) has one answer for every element, NumPy 2's: the one for the dtype's bound on
    the int's side (every element lies between the bounds). NumPy computes it exactly."""
    if all(type(a) is int for a in args):  # two Python ints: NumPy's object loop, exact
        return _scalar_answer(bool(op.ufunc(*args)), site)
    array = next(a for a in args if type(a) is not int)
    value = next(a for a in args if type(a) is int)
    if array.dtype not in _INT_RANGE:  # bool: NumPy converts the int to a C long, which overflows
        raise fail(OverflowError, f"Python int {value} too large to convert to C long", site)
    lo, hi = _INT_RANGE[array.dtype]
    bound = np.array(hi if value > hi else lo, array.dtype)
    answer = bool(op.ufunc(*[bound if a is array else a for a in args]))
    if not array.shape:
        return _scalar_answer(answer, site)
    return broadcast_to(scalar_leaf(answer, dtypes.bool_, site), array.shape, site)


# lazyarray/eager.py's EAGER_MARK: the attrs of a leaf computed at once (an identity mark)
AT_ONCE_MARK: tuple = ("eager",)


def at_once_leaf(data: np.ndarray, site: Site) -> Node:
    """A buffer made from values the at-once rule computed (lazyarray/eager.py): a leaf with
    its mark, so that ops reading it compute at once too. A plain leaf left them pending: rk4's
    `k = np.array([x * y, ...]); Y[i] + h / 6 * (k1 + 2 * k2 + ...)` walked the whole chain at
    its last op, ~20 us a line where NumPy takes 3."""
    return build_node(INPUT, (), AT_ONCE_MARK, data.shape, data.dtype, data, site)


def _scalar_answer(answer: bool, site: Site) -> Node:
    """A 0-d comparison's answer as a leaf computed at once (AT_ONCE_MARK), which Array takes
    for NumPy's scalar (`_view` False: `t = x[0] != 2**40; u = t; t += 1` keeps u), where a
    run-time scalar leaf would be a 0-d array's (`la.asarray(5)`)."""
    return build_node(INPUT, (), AT_ONCE_MARK, (), dtypes.bool_, np.array(answer), site)


def _is_integer_compare(loop: tuple[np.dtype, ...]) -> bool:
    return loop[-1] == dtypes.bool_ and all(dt.kind in "iu" for dt in loop[:-1])


# The Array class, set by lazyarray.array when it is defined (no import on the hot path).
Array: type = type(None)


def _load_fast_path() -> Any:
    """lazyarray/_trace.c's module (the operators' and unary functions' common case in C), or
    None: graph/_node.c not in use (not built, or LAZYARRAY_PURE_PYTHON=1), or _trace not built."""
    if not node.COMPILED:
        return None
    try:
        from . import _trace  # the optional C extension (lazyarray/_trace.c): may be unbuilt
    except (ImportError, AttributeError):  # (or built against another graph/_node.c's C API)
        return None
    return _trace


# NumPy's integer scalar types: indices as Python ints are (`for i in np.arange(n)`)
NUMPY_INTS = frozenset(np.dtype(c).type for c in "bBhHiIlLqQnNpP")

FAST = _load_fast_path()  # `install`ed by lazyarray.array once Array exists


def operand(x: Any, site: Site) -> Operand:
    t = type(x)
    if t is Array:
        return x._node
    if t is float or t is int or t is bool or t is complex:
        return (t, x)
    if isinstance(x, Array):
        return x._node
    weak = dtypes.weak_type_of(x)  # la.jit's traced int/float arguments stay weak scalars
    if weak is not None:
        return (weak, x)
    return leaf(host_array(x, site=site), site)


def standalone(op: Operand, site: Site) -> Node:
    """An operand as an array of its own: a Python scalar takes np.asarray's dtype (int64, but
    uint64 for an int in [2**63, 2**64), TypeError beyond: NumPy's object dtype)."""
    if type(op) is Node:
        return op
    if type(op[1]) is int and not _INT_RANGE[dtypes.int64][0] <= op[1] <= _INT_RANGE[
            dtypes.int64][1]:
        return leaf(host_array(op[1], site=site), site)
    return scalar_leaf(op[1], dtypes.result_type(op[0]), site)


def as_node(x: Any, site: Site) -> Node:
    """Any operand as a node of its own (a Python scalar by np.asarray's dtype). Here, below
    every API module, so manipulation.py and reductions.py both use it (la.reductions re-exports
    it as `_as_node`, the name the API modules import)."""
    return standalone(operand(x, site), site)


def operand_dtype(op: Operand) -> np.dtype | type:
    return op.dtype if isinstance(op, Node) else op[0]


_MAX_BYTES = int(np.iinfo(np.intp).max)


def check_size(shape: tuple[int, ...], itemsize: int, site: Site) -> tuple[int, ...]:
    """NumPy's "array is too big" at the line that builds the shape: element counts and byte sizes
    must fit `intp`, or index arithmetic in every kernel would wrap (a silent 0.0 / -inf)."""
    size = 1
    for s in shape:
        size *= s
    if size * max(itemsize, 1) > _MAX_BYTES:
        exc = fail(ValueError, "array is too big; `arr.size * arr.dtype.itemsize` is larger "
                   "than the maximum possible size.", site)  # (NumPy's text)
        exc.add_note(f"(shape {shape}: {size} elements of {itemsize} bytes, more than "
                     f"{_MAX_BYTES})")
        raise exc
    return shape


_BROADCASTS: dict[tuple, tuple[int, ...]] = {}  # shapes -> their broadcast (np.broadcast_shapes
# costs ~2 us; a loop broadcasts the same shapes every step)


def broadcast_shapes(shapes: list[tuple[int, ...]], site: Site) -> tuple[int, ...]:
    first = shapes[0]
    if len(shapes) == 2:
        if shapes[1] == first:
            return first
    elif all(s == first for s in shapes):
        return first
    key = tuple(shapes)
    known = _BROADCASTS.get(key)
    if known is not None:
        return known
    if len(_BROADCASTS) > 4096:
        _BROADCASTS.clear()
    _BROADCASTS[key] = shape = _broadcast_shapes(shapes, site)
    return shape


def public_broadcast_shapes(shapes: list[tuple[int, ...]], site: Site) -> tuple[int, ...]:
    """broadcast_shapes for np.broadcast_shapes / np.broadcast_arrays, whose mismatch text is
    NumPy's "shape mismatch: ... arg i ... arg j", not the ufuncs' "operands could not be ..."."""
    try:
        return broadcast_shapes(shapes, site)
    except ValueError:
        numpy_broadcast_error(lambda: np.broadcast_shapes(*shapes), site)
        raise


def _broadcast_shapes(shapes: list[tuple[int, ...]], site: Site) -> tuple[int, ...]:
    try:
        shape = tuple(np.broadcast_shapes(*shapes))
    except ValueError as exc:
        shown = "".join(numpy_shape_text(s) + " " for s in shapes)  # NumPy's ufunc text
        if "too" in str(exc):
            shown += "(the result is too big)"
        raise fail(ValueError, f"operands could not be broadcast together with shapes {shown}",
                   site) from None
    return check_size(shape, 8, site)


def numpy_shape_text(shape: Any) -> str:
    """A shape as NumPy's C errors print it (convert_shape_to_string): `(2,3)`, `(5,)`, `()`; -1
    as `newaxis`, except leading ones, which are dropped (`reshape(-1, 4)`'s "(4)")."""
    shape = tuple(shape)
    lead = 0
    while lead < len(shape) and shape[lead] < 0:
        lead += 1
    parts = ["newaxis" if d < 0 else str(d) for d in shape[lead:]]
    return "(" + ",".join(parts) + ("," if len(shape) == 1 and parts else "") + ")"


def numpy_broadcast_error(check: Any, site: Site) -> None:
    """Raise NumPy's own ValueError text from `check()` (a NumPy broadcast of the same shapes
    that raises where lazyarray's rule found a mismatch): np.broadcast_to's "remapped shapes",
    np.broadcast_shapes' "shape mismatch ... arg i ... arg j". Returns if NumPy accepts them."""
    try:
        check()
    except ValueError as exc:
        raise fail(ValueError, str(exc), site) from None


def cast(node: Node, dtype: np.dtype, site: Site) -> Node:
    if node.dtype == dtype:
        return node
    if node.op is SCALAR:
        if dtype.kind == "c":
            return broadcast_to(scalar_leaf(node.data, dtype, node.site), node.shape, site)
        value = node.data
        if type(value) in (int, float, bool):  # (la.jit's traced scalars are cast at run time)
            # the cast's value, by astype's rule: a scalar argument must fit its dtype's slot
            # (x_uint16.at[0].set(la.full((), -1, dtype=int8)) bound -1 to a uint16 slot)
            value = semantics.cast(np.asarray(value, node.dtype), dtype).item()
        return Node(SCALAR, (), (), node.shape, dtype, data=value, site=node.site)
    return Node(CAST, (node,), (), node.shape, dtype, None, site)


def broadcast_to(node: Node, shape: tuple[int, ...], site: Site) -> Node:
    if node.shape == shape:
        return node
    return Node(BROADCAST, (node,), (shape,), shape, node.dtype, None, site)


def materialize(op: Operand, dtype: np.dtype, shape: tuple[int, ...], site: Site) -> Node:
    """An operand as a node of this dtype and shape (a weak scalar becomes a scalar leaf)."""
    if type(op) is Node:
        if op.dtype is dtype and op.shape == shape:
            return op
        return broadcast_to(cast(op, dtype, site), shape, site)
    return scalar_leaf(op[1], dtype, site, shape)


_LOOPS: dict[tuple, tuple[np.dtype, ...]] = {}
_OBJECT = np.dtype(object)
_WIDE_COMPARE = (dtypes.int64, dtypes.int64, dtypes.bool_)


def _traced_int_compare(loop: tuple[np.dtype, ...], operands: tuple) -> bool:
    """la.jit's traced int compared with an integer array (not uint64): compared in int64 instead
    of the array's dtype, so that every later value gets NumPy 2's exact answer (`uint8 == 300`
    is all False; a uint8 argument slot would raise OverflowError)."""
    return (loop[0] != dtypes.uint64 and _is_integer_compare(loop) and any(
        type(o) is tuple and o[0] is int and type(o[1]) is not int for o in operands))



# OpDef -> its composite over complex operands, NumPy's order (lazyarray/complex_ordering.py
# registers them: comparisons, maximum/minimum/fmax/fmin, logical ops): (args, dtype, site) -> Node
COMPLEX_ORDERING: dict[OpDef, Callable[..., Node]] = {}


class ComplexOrdering(TypeError):
    """`resolve`'s answer for an ordering op of complex operands: `elementwise` builds NumPy's
    composite; any other caller sees the TypeError it was before."""

    def __init__(self, text: str, dtype: np.dtype) -> None:
        super().__init__(text)
        self.dtype = dtype


def resolve(op: OpDef, operands: tuple[Operand, ...], site: Site) -> tuple[np.dtype, ...]:
    key = (op, *[o.dtype if type(o) is Node else o[0] for o in operands])
    loop = _LOOPS.get(key)
    if loop is not None:
        return loop
    shown = ", ".join(str(getattr(d, "__name__", d)) for d in map(operand_dtype, operands))
    try:
        loop = dtypes.resolve_ufunc(op.ufunc if op.ufunc is not None else op.loop_rule, key[1:])
    except TypeError as exc:  # NumPy's text where its resolver has one (`-bool_array`: "The
        # numpy boolean negative, the `-` operator, is not supported, use the `~` operator ...")
        if str(exc):  # and its type: `np.positive(bool_array)` is UFuncTypeError (probe55)
            raise with_site(exc, site) from None
        raise fail(TypeError, f"{op.name} is not supported for input types ({shown})",
                   site) from None
    if loop[0] == _OBJECT:  # a comparison of two Python ints: in int64, or exactly at once
        loop = (dtypes.int64,) * (len(loop) - 1) + (loop[-1],)  # if one is beyond int64
    if loop[0].kind == "c" and not supports_complex(op):
        text = (f"{op.name} is not defined for complex inputs ({shown}); the Array API standard "
                "defines it for real numbers only")
        if op in COMPLEX_ORDERING:  # NumPy's lexicographic order (complex_ordering.py)
            raise with_site(ComplexOrdering(text, loop[0]), site)
        raise fail(TypeError, text, site)
    _LOOPS[key] = loop
    return loop


def elementwise(op: OpDef, *args: Any, site: Site = None) -> Node:
    """Bind an elementwise primitive to user operands, the NumPy way. This is the hot path of
    tracing: keep it free of imports, generators and repeated lookups."""
    if site is None:
        site = user_site(2)
    if len(args) == 1 and type(args[0]) is Array:  # unary op on an Array: the common case
        node = args[0]._node
        loop = _LOOPS.get((op, node.dtype))
        if loop is not None:
            if node.dtype is not loop[0]:
                node = cast(node, loop[0], site)
            return Node(op, (node,), (), node.shape, loop[1], None, site)
    operands = tuple([operand(a, site) for a in args])
    if len(operands) == 1 and type(operands[0]) is tuple and type(args[0]) is int:
        operands = (standalone(operands[0], site),)  # np.negative(2**63) is uint64
    try:
        loop = resolve(op, operands, site)
    except ComplexOrdering as ordering:
        return COMPLEX_ORDERING[op](args, ordering.dtype, site)
    if loop[-1] is dtypes.bool_ and _traced_int_compare(loop, operands):
        loop = _WIDE_COMPARE
    shapes = [o.shape for o in operands if type(o) is Node]
    if not shapes:
        shape: tuple[int, ...] = ()
    elif len(shapes) == 1 or all(s == shapes[0] for s in shapes):
        shape = shapes[0]
    else:
        shape = broadcast_shapes(shapes, site)
    try:
        inputs = tuple([materialize(o, dt, shape, site) for o, dt in zip(operands, loop)])
    except WeakIntOverflow:
        if not _is_integer_compare(loop) or {type(a) for a in args} - {int, Array} or all(
                type(a) is Array for a in args):
            raise
        return _compare_out_of_range(op, args, site)
    return Node(op, inputs, (), shape, loop[-1], None, site)


def unary(op: OpDef, x: Any, site: Site) -> Node:
    """`elementwise` for one operand: the namespace's unary functions' fast path (no varargs)."""
    if type(x) is Array:
        node = x._node
        loop = _LOOPS.get((op, node.dtype))
        if loop is not None:
            if node.dtype is not loop[0]:
                node = cast(node, loop[0], site)
            return Node(op, (node,), (), node.shape, loop[1], None, site)
    elif FAST is not None and type(x) in _STANDALONE:
        done = _of_a_python_number(op, x, site)
        if done is not None:
            return done
    return elementwise(op, x, site=site)


# A lone Python number's dtype (np.asarray's; an int only within int64: 2**63 is uint64's).
_STANDALONE = {float: dtypes.float64, bool: dtypes.bool_, int: dtypes.int64}


def _of_a_python_number(op: OpDef, x: Any, site: Site) -> Node | None:
    """`np.exp(-beta * dE)` of a Python float computed at its line, as NumPy does, by the C fast
    path's at-once unary of the number as a computed 0-d leaf in the op's loop dtype (a lone
    Python number is np.asarray's dtype, and the loop casts it as NumPy's does): lazy, it was a
    pending graph (~3 us) evaluated by a plan at its reader (ising's acceptance test, 5.7 ->
    3.0 us). None where that path declines (the at-once rule off: la.jit, la.grad,
    eager_size=0; an op it does not run) or the weak number's loop differs."""
    dtype = _STANDALONE[type(x)]
    if dtype is dtypes.int64 and not _INT_RANGE[dtype][0] <= x <= _INT_RANGE[dtype][1]:
        return None
    loop = _LOOPS.get((op, dtype))
    if loop is None or type(x) is not int and _LOOPS.get((op, type(x))) != loop:
        try:  # (the general path raises NumPy's errors, naming the Python type)
            loop = resolve(op, (Node(SCALAR, (), (), (), dtype, x, site),), site)
            if type(x) is not int and resolve(op, ((type(x), x),), site) != loop:
                return None
            resolve(op, (Node(SCALAR, (), (), (), loop[0], x, site),), site)  # read by C
        except TypeError:
            return None
    leaf = Node(INPUT, (), AT_ONCE_MARK, (), loop[0], np.array(x, loop[0]), site)
    done = FAST.unary(op, Array(leaf))
    return None if done is None else done._node


def binary(op: OpDef, x: Any, y: Any, site: Site) -> Node:
    """`elementwise` for two operands that are Arrays or Python scalars: the operators' fast path."""
    tx, ty = type(x), type(y)
    if tx is Array:
        nx, kx = x._node, x._node.dtype
    elif tx is float or tx is int or tx is bool:
        nx, kx = None, tx
    else:
        return elementwise(op, x, y, site=site)
    if ty is Array:
        ny, ky = y._node, y._node.dtype
    elif ty is float or ty is int or ty is bool:
        ny, ky = None, ty
    else:
        return elementwise(op, x, y, site=site)
    loop = _LOOPS.get((op, kx, ky))
    if loop is None:
        try:
            loop = resolve(op, (nx if nx is not None else (kx, x),
                                ny if ny is not None else (ky, y)), site)
        except ComplexOrdering as ordering:
            return COMPLEX_ORDERING[op]((x, y), ordering.dtype, site)
    if nx is not None:
        shape = nx.shape if ny is None or ny.shape == nx.shape else broadcast_shapes(
            [nx.shape, ny.shape], site)
    else:
        shape = ny.shape if ny is not None else ()
    try:
        if nx is None:
            a = _scalar_operand(x, loop[0], shape, site)
        elif nx.dtype is loop[0] and nx.shape == shape:
            a = nx
        else:
            a = broadcast_to(cast(nx, loop[0], site), shape, site)
        b = _scalar_operand(y, loop[1], shape, site) if ny is None else None
    except WeakIntOverflow:
        if not _is_integer_compare(loop) or bool in (tx, ty):
            raise
        return _compare_out_of_range(op, (x, y), site)
    if b is None:
        b = ny if ny.dtype is loop[1] and ny.shape == shape else broadcast_to(
            cast(ny, loop[1], site), shape, site)
    return Node(op, (a, b), (), shape, loop[2], None, site)


_SCALAR_KEYS: dict[tuple, int] = {}  # (dtype, shape) -> key of the weak scalar leaf
on_keys_cleared(_SCALAR_KEYS.clear)  # a key kept past the key table's clear: a plan miss
_new_node = Node.__new__


def _scalar_operand(value: Any, dtype: np.dtype, shape: tuple[int, ...], site: Site) -> Node:
    """`materialize` of a weak Python scalar, inlined for the operators' fast path: one `scalar`
    leaf of the operation's shape. It has the same key every time for one (dtype, shape), so the
    key is set directly instead of interned again (keys are never reused, so a key kept here can
    only cause a miss). While the node budget watches every node (a cut pending), the leaf is
    built the ordinary way so that the cut hook sees it."""
    if type(value) is int and (dtype.kind in "iub" or not -_HUGE < value < _HUGE):
        check_weak_int(value, dtype, site)
    key = _SCALAR_KEYS.get((dtype, shape))
    if key is None or _BUDGET[0] < 2:
        if dtype.kind == "c":  # a complex scalar is a 0-d input buffer (see scalar_leaf)
            return broadcast_to(_complex_leaf(value, dtype, site), shape, site)
        node = Node(SCALAR, (), (), shape, dtype, value, site)
        if len(_SCALAR_KEYS) < 4096:
            _SCALAR_KEYS[(dtype, shape)] = node.key
        return node
    node = _new_node(Node)
    node.op, node.inputs, node.attrs, node.shape, node.dtype = SCALAR, (), (), shape, dtype
    node.data, node.site, node.pending, node.key = value, site, 0, key
    return node


def primitive(op: OpDef, inputs: tuple[Node, ...], attrs: tuple, shape: tuple[int, ...],
              dtype: np.dtype, site: Site) -> Node:
    return build_node(op, inputs, attrs, shape, dtype, None, site)


def normalize_axis(axis: Any, ndim: int, site: Site, argname: str | None = None) -> int:
    """One non-negative axis for functions that take a single one (stack, split, cumsum, argmax,
    take...): None or a tuple is NumPy's TypeError, not a failed unpacking."""
    if axis is None or isinstance(axis, (tuple, list)):
        raise fail(TypeError, f"'{type(axis).__name__}' object cannot be interpreted as an "
                   "integer", site)  # (NumPy's text)
    (ax,) = normalize_axes(axis, ndim, site, argname)
    return ax


def _index_error_text(axis: Any) -> str:
    """operator.index's TypeError text for the first axis that is no integer ("'float' object
    cannot be interpreted as an integer"), as NumPy's ufunc reductions raise it."""
    for a in axis if isinstance(axis, (tuple, list)) else (axis,):
        try:
            operator.index(a)
        except TypeError as exc:
            return str(exc)
    return f"axis must be an int, a tuple of ints or None, not {axis!r}"


def normalize_axes(axis: Any, ndim: int, site: Site, argname: str | None = None,
                   ordered: bool = False, repeated: str | None = None) -> tuple[int, ...]:
    """Sorted (`ordered`: as given), non-negative axes; NumPy's AxisError (a ValueError and
    IndexError) when out of range, its message prefixed by `argname` where NumPy's is
    (`source: axis 10 is out of bounds...`, which SciPy's tests match); a repeated axis is
    NumPy's "repeated axis", or the caller's `repeated` text (a ufunc reduction's)."""
    if axis is None:
        return tuple(range(ndim))
    if type(axis) is int and -ndim <= axis < ndim:  # the common cases, without NumPy's helper
        return (axis + ndim if axis < 0 else axis,)
    if type(axis) is tuple:
        out = []
        for a in axis:
            if type(a) is not int or not -ndim <= a < ndim:
                break
            out.append(a + ndim if a < 0 else a)
        else:
            if len(set(out)) == len(out):
                return tuple(out) if ordered else tuple(sorted(out))
    refuse_traced(*(axis if isinstance(axis, (tuple, list)) else (axis,)))
    try:
        axes = np.lib.array_utils.normalize_axis_tuple(axis, ndim, argname)
    except np.exceptions.AxisError as exc:
        raise with_site(np.exceptions.AxisError(str(exc)), site) from None
    except ValueError as exc:  # repeated axis
        raise fail(ValueError, repeated or str(exc), site) from None
    except TypeError:  # NumPy's reductions' text: operator.index's (np.sum(x, axis=1.0))
        raise fail(TypeError, _index_error_text(axis), site) from None
    return tuple(axes) if ordered else tuple(sorted(axes))
