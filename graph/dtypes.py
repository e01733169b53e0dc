"""The dtypes lazyarray supports and NumPy 2 (NEP 50) type promotion.

Promotion is delegated to NumPy's own ufunc loop resolution (`ufunc.resolve_dtypes`), so results match
NumPy exactly, Python scalars included (they are passed as the *types* int/float/complex, which NumPy treats
as weak: `complex64 + 1j` stays complex64, `float32 + 1j` is complex64, `float64 + complex64` is
complex128). float16 is NumPy's too (`np.sqrt(uint8)` is float16); its ops run through NumPy's own
half loops (runtime/c/backend.py: programs holding float16 run on the NumPy executor).
"""

from __future__ import annotations

import numpy as np

bool_ = np.dtype(np.bool_)
int8, int16, int32, int64 = (np.dtype(t) for t in ("int8", "int16", "int32", "int64"))
uint8, uint16, uint32, uint64 = (np.dtype(t) for t in ("uint8", "uint16", "uint32", "uint64"))
float16, float32, float64 = np.dtype("float16"), np.dtype("float32"), np.dtype("float64")
complex64, complex128 = np.dtype("complex64"), np.dtype("complex128")

SUPPORTED: tuple[np.dtype, ...] = (
    bool_, int8, int16, int32, int64, uint8, uint16, uint32, uint64, float16, float32, float64,
    complex64, complex128,
)
INTEGER = (int8, int16, int32, int64, uint8, uint16, uint32, uint64)
SIGNED = (int8, int16, int32, int64)
UNSIGNED = (uint8, uint16, uint32, uint64)
FLOATING = (float16, float32, float64)
COMPLEX = (complex64, complex128)
_SUPPORTED_SET = frozenset(SUPPORTED)

WeakScalar = type  # int, float, complex or bool: the Python type of a weak scalar operand


def refuse_array(spec: object) -> None:
    """NumPy's TypeError for an array given as a dtype (`np.zeros(3, dtype=x)`): np.dtype
    refuses its ndarray but reads any other object's `.dtype`, an Array's too (a silent
    float32 result where NumPy raises, fuzz57). NumPy's scalars stand for their dtype."""
    if hasattr(spec, "shape") and not isinstance(spec, (np.generic, np.dtype, type)):
        raise TypeError("Cannot construct a dtype from an array")


def to_dtype(spec: object) -> np.dtype:
    """Normalize a user dtype spec (np.float32, 'int8', la.uint8, np.dtype) or raise TypeError."""
    refuse_array(spec)
    try:
        dt = np.dtype(spec)  # type: ignore[call-overload]
    except TypeError as exc:
        raise TypeError(f"data type {spec!r} not understood") from exc
    if dt not in _SUPPORTED_SET:
        raise TypeError(
            f"lazyarray does not support dtype {dt}; supported: "
            + ", ".join(str(d) for d in SUPPORTED)
        )
    return dt


def is_float(dt: np.dtype) -> bool:
    return dt.kind == "f"


def is_integer(dt: np.dtype) -> bool:
    return dt.kind in "iu"


def is_complex(dt: np.dtype) -> bool:
    return dt.kind == "c"


def real_dtype(dt: np.dtype) -> np.dtype:
    """float32 for complex64, float64 for complex128; any other dtype is returned as is."""
    return {complex64: float32, complex128: float64}.get(dt, dt)


def complex_dtype(dt: np.dtype) -> np.dtype:
    """The complex dtype of the same precision (complex64 for float32, else complex128)."""
    if dt.kind == "c":
        return dt
    return complex64 if dt == float32 or dt == float16 else complex128


_resolve_cache: dict[tuple, tuple[np.dtype, ...]] = {}


def resolve_ufunc(ufunc: np.ufunc, operands: tuple[np.dtype | type, ...]) -> tuple[np.dtype, ...]:
    """(loop input dtypes..., output dtype) that NumPy picks for `ufunc` on these operands.

    Operands are dtypes (arrays) or the Python types int/float/complex/bool (weak scalars).
    Memoized: NumPy's resolution costs microseconds and sits on the op-binding hot path.
    """
    key = (ufunc, operands)
    hit = _resolve_cache.get(key)
    if hit is not None:
        return hit
    spec = tuple(np.dtype(np.bool_) if o is bool else o for o in operands) + (None,)
    loop = ufunc.resolve_dtypes(spec)
    _resolve_cache[key] = loop
    return loop


_PROMOTED: dict[tuple, np.dtype] = {}  # result_type's answers (dtypes and weak types: few)


def result_type(*operands: np.dtype | type) -> np.dtype:
    """Promote dtypes and weak Python scalar types the NEP 50 way (remembered: `where` and the
    binary ops of an index loop ask the same question every iteration, ~2 us each)."""
    promoted = _PROMOTED.get(operands)
    if promoted is None:
        dts = [np.dtype(np.bool_) if o is bool else o for o in operands]
        promoted = np.result_type(*(o if isinstance(o, np.dtype) else o(0) for o in dts))
        if len(_PROMOTED) < 4096:
            _PROMOTED[operands] = promoted
    return promoted


def weak_type_of(value: object) -> type | None:
    """int/float/complex/bool for a Python scalar (weakly typed under NEP 50), else None."""
    t = type(value)
    if t is bool or t is int or t is float or t is complex:
        return t
    return getattr(value, "_lazyarray_weak_type", None)  # la.jit's traced scalar arguments
