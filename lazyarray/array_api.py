"""The Array API standard's (2024.12) inspection part of the namespace: the version string,
`__array_namespace_info__`, `finfo`/`iinfo`, `isdtype`, `result_type`, `can_cast`, the constants and
`to_device`. Promotion follows NumPy 2 (NEP 50), a superset of the standard's table: mixed
signed/unsigned integers promote as NumPy does (int64 with uint64 gives float64) where the standard
leaves the result unspecified. Complex entries appear once graph/dtypes.py defines complex dtypes.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from . import _device, cache
from .array import Array
from .graph import dtypes
from .runtime import available_backends, get_backend
from . import _bind
from .graph.node import user_site

__array_api_version__ = "2024.12"

e, pi, inf, nan = math.e, math.pi, math.inf, math.nan
newaxis = None


def _complex_dtypes() -> tuple[np.dtype, ...]:
    return tuple(getattr(dtypes, n) for n in ("complex64", "complex128") if hasattr(dtypes, n))


def _dtype_of(x: Any) -> np.dtype:
    if isinstance(x, (Array, np.ndarray, np.generic)):  # NumPy's result_type takes its arrays too
        return dtypes.to_dtype(x.dtype)
    return dtypes.to_dtype(x)


# --- finfo / iinfo: NumPy's own objects -----------------------------------------------------------------
def _info_dtype(type: Any) -> Any:  # noqa: A002
    """What numpy.finfo/iinfo take, an Array's dtype for an Array (NumPy's errors otherwise)."""
    return type.dtype if isinstance(type, Array) else type


def finfo(type: Any) -> np.finfo:  # noqa: A002
    """numpy.finfo itself (the Array API's fields bits, eps, max, min, smallest_normal and dtype
    are among its attributes): programs print `finfo(float32).eps` as NumPy's `1.1920929e-07`,
    read `.tiny`/`.resolution`, and add `eps` as NumPy's typed scalar (NEP 50). An Array gives
    its dtype's; an integer type is NumPy's ValueError."""
    return np.finfo(_info_dtype(type))


def iinfo(type: Any) -> np.iinfo:  # noqa: A002
    """numpy.iinfo itself (Python-int `bits`, `min`, `max` and its `dtype`; NumPy's str)."""
    return np.iinfo(_info_dtype(type))


# --- dtype predicates and promotion -------------------------------------------------------------------
_KINDS = {
    "bool": "b", "signed integer": "i", "unsigned integer": "u", "integral": "iu",
    "real floating": "f", "complex floating": "c", "numeric": "iufc",
}


def isdtype(dtype: Any, kind: Any) -> bool:
    """Array API `isdtype` (numpy.isdtype): `kind` is a dtype, a kind name or a tuple of them."""
    dt = dtypes.to_dtype(dtype)
    if isinstance(kind, tuple):
        return any(isdtype(dt, k) for k in kind)
    if isinstance(kind, str):
        if kind not in _KINDS:
            raise ValueError(f"unknown dtype kind {kind!r}; use one of {', '.join(_KINDS)}")
        return dt.kind in _KINDS[kind]
    return dt == dtypes.to_dtype(kind)


def result_type(*arrays_and_dtypes: Any) -> np.dtype:
    """Array API `result_type` (numpy.result_type): NEP 50, Python scalars weak; no float16."""
    if not arrays_and_dtypes:
        raise ValueError("at least one array or dtype is required")
    ops = []
    for x in arrays_and_dtypes:
        weak = dtypes.weak_type_of(x)
        if weak is None and isinstance(x, complex):
            weak = complex
        ops.append(weak if weak is not None else _dtype_of(x))
    if all(isinstance(o, type) for o in ops):
        # NumPy types Python scalars alone by their default dtypes (`result_type(3.0, -2)` is
        # float64, numpy.result_type's own example): asked of NumPy itself, errors too.
        return np.result_type(*arrays_and_dtypes)
    return dtypes.result_type(*ops)


def can_cast(from_: Any, to: Any, casting: str = "safe") -> bool:
    """Array API `can_cast`, numpy.can_cast's `casting` rule too (NumPy's default 'safe'; its
    errors for another rule or a Python scalar)."""
    if isinstance(from_, (bool, int, float, complex)):
        return bool(np.can_cast(from_, dtypes.to_dtype(to), casting))  # (NumPy's TypeError)
    return bool(np.can_cast(_dtype_of(from_), dtypes.to_dtype(to), casting))


# --- devices -----------------------------------------------------------------------------------------
def _cuda_devices() -> list[str]:
    if "cupy" not in available_backends():
        return []

    cp = get_backend("cupy").cupy_module()
    return [f"cuda:{i}" for i in range(cp.cuda.runtime.getDeviceCount())]


def to_device(x: Array, device: Any, /, *, stream: Any = None) -> Array:
    """Array API `to_device`: the same value on `device` ('cpu', 'cuda', 'cuda:N'); evaluates `x`."""
    if device is None or device == x.device or (device == "cuda" and x.device.startswith("cuda")):
        return x

    site = user_site(1)
    if _device.wants_device(device):
        return Array(_bind.leaf(_device.device_buffer(x._data(), None, True, device, site), site))
    return Array(_bind.leaf(_bind.host_array(x._host(), site=site), site))


class Info:
    """What `__array_namespace_info__()` returns: the standard's inspection API."""

    __module__ = "lazyarray"

    def capabilities(self) -> dict[str, Any]:
        # "boolean indexing": True, as x[mask] and x[mask] = v work (lazyarray/masking.py,
        # writes.py), except while la.jit traces, where a mask's values cannot be read (as JAX).
        # array-api-extra's apply_where (SciPy's special and stats call it) reads the flag: with
        # False it computes `where(cond, f1(x), f2(x))` over every element, so f1's
        # floating-point errors in the lanes cond leaves out warned (or raised, under
        # errstate(all="raise")) where NumPy's masked call is silent: `special.rel_entr(x, y)`
        # warned "divide by zero encountered in log" (stop 56, docs/semantics.md).
        return {"boolean indexing": not cache.is_tracing(), "data-dependent shapes": True,
                "max dimensions": 64}

    def default_device(self) -> str:
        return "cpu"

    def devices(self) -> list[str]:
        return ["cpu", *_cuda_devices()]

    # Both give `numpy.dtype` instances, as NumPy's own info does: they equal the namespace's
    # objects (`== la.float64`) and, unlike NumPy's scalar types, hash as an Array's `.dtype`,
    # so consumers that look `x.dtype` up in them (scikit-learn's `_matching_numpy_dtype`:
    # `{v: k for k, v in info.dtypes().items()}[x.dtype]`) find it.
    def default_dtypes(self, *, device: Any = None) -> dict[str, Any]:
        complex_ = _complex_dtypes()
        return {"real floating": np.dtype(np.float64),
                "complex floating": complex_[-1] if complex_ else None,
                "integral": np.dtype(np.int64), "indexing": np.dtype(np.int64)}

    def dtypes(self, *, device: Any = None, kind: Any = None) -> dict[str, np.dtype]:
        every = (*dtypes.SUPPORTED, *(c for c in _complex_dtypes() if c not in dtypes.SUPPORTED))
        # (the standard's dtypes, as NumPy's info lists them: float16 is NumPy's extra)
        return {str(dt): dt for dt in every
                if dt != np.float16 and (kind is None or isdtype(dt, kind))}


def __array_namespace_info__() -> Info:  # noqa: N807
    """Array API `__array_namespace_info__()`: capabilities, devices and dtypes of this library."""
    return Info()
