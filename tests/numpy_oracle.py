"""Shared pieces of the differential tests: NumPy as the oracle, inputs drawn from an op's `domain`,
and the comparison rule.

Comparison: integer and bool results must equal NumPy's exactly. Float results may differ by at most
`ULPS` units in the last place (relative to the larger magnitude), plus `ULPS` times the smallest
normal number as an absolute slack for results at or below the subnormal range: compiled backends
call vectorized libm variants (glibc documents <= 4 ulp for them), while the numpy backend matches
NumPy bit for bit. NaNs must be NaN in the same places; infinities must match in sign.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, settings

import lazyarray as la
from lazyarray.runtime.select import resolve_backend
from lazyarray.settings import get_settings

ULPS = 4

# Hypothesis settings for every differential test: few examples (the suite runs once per backend),
# no deadline (a first compile may be slow), derandomized so that CI runs are reproducible.
FAST = settings(max_examples=12, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.function_scoped_fixture,
                                       HealthCheck.too_slow])

SUPPORTED = tuple(np.dtype(t) for t in ("bool", "int8", "int16", "int32", "int64", "uint8",
                                        "uint16", "uint32", "uint64", "float16", "float32",
                                        "float64",
                                        "complex64", "complex128"))

_FLOAT_SPECIALS = (0.0, -0.0, np.inf, -np.inf, np.nan, 1e30, -1e-30, 88.5, -745.0, 1.0, -1.0)


def numpy_loop(ufunc: np.ufunc, operands: tuple) -> tuple[np.dtype, ...] | None:
    """The loop NumPy picks for arrays/Python scalars, or None if it has none."""
    spec = []
    for o in operands:
        if isinstance(o, np.ndarray):
            spec.append(o.dtype)
        elif type(o) is bool:
            spec.append(np.dtype(bool))
        else:
            spec.append(type(o))
    try:
        loop = ufunc.resolve_dtypes(tuple(spec) + (None,))
    except TypeError:
        return None
    if loop[0].kind == "c" and ufunc not in _COMPLEX_UFUNCS:
        return None  # an op lazyarray does not take complex into (exp2: docs/semantics.md)
    return tuple(np.dtype(d) for d in loop)


def _complex_ufuncs() -> frozenset:
    from lazyarray._bind import COMPLEX_ORDERING
    from lazyarray.graph import all_ops
    from lazyarray.graph.complex_ops import supports_complex

    # (NumPy's order of complex numbers and its logical ops: lazyarray/complex_ordering.py)
    return frozenset(op.ufunc for op in all_ops() if op.ufunc is not None and (
        supports_complex(op) or op in COMPLEX_ORDERING))


_COMPLEX_UFUNCS = _complex_ufuncs()


def numpy_result(ufunc: np.ufunc, operands: tuple) -> np.ndarray:
    """What NumPy computes, in the loop NumPy picks."""
    loop = numpy_loop(ufunc, operands)
    assert loop is not None
    ins = [np.asarray(o).astype(dt) if isinstance(o, np.ndarray) else np.asarray(o, dtype=dt)
           for o, dt in zip(operands, loop)]
    with np.errstate(all="ignore"):
        out = np.asarray(ufunc(*ins))
    return out.astype(loop[-1])


def accepted_dtypes(ufunc: np.ufunc, half: bool = True) -> list[tuple[np.dtype, ...]]:
    """Every combination of supported input dtypes that NumPy has a loop for; `half=False`: none
    with float16 in its operands or loop (no generated half arithmetic: the CUDA corpus, Dask's
    C chunks; docs/semantics.md)."""
    combos: list[tuple[np.dtype, ...]] = [()]
    for _ in range(ufunc.nin):
        combos = [c + (d,) for c in combos for d in SUPPORTED]
    loops = [(c, numpy_loop(ufunc, tuple(np.empty(0, d) for d in c))) for c in combos]
    return [c for c, loop in loops if loop is not None and (half or np.float16 not in loop + c)]


# The dtypes generated device code computes in (float16 only converts: docs/semantics.md)
DEVICE_DTYPES = tuple(d for d in SUPPORTED if d != np.float16)


def computes_halves(backend: str) -> bool:
    """Whether `backend` computes on float16: cupy refuses a program holding one with a TypeError
    (runtime/cuda/backend.py; tests/test_float16.py checks the refusal), so the differential tests
    draw no float16 there (the H200 run of stop 51 failed 143 tests on that refusal)."""
    return backend != "cupy"


def backend_dtypes(backend: str) -> tuple[np.dtype, ...]:
    """The supported dtypes `backend` computes on."""
    return SUPPORTED if computes_halves(backend) else DEVICE_DTYPES


def _int_any(rng: np.random.Generator, dtype: np.dtype, shape) -> np.ndarray:
    info = np.iinfo(dtype)
    lo = max(info.min, -100)
    out = rng.integers(lo, min(info.max, 100), size=shape, endpoint=True, dtype=dtype)
    extremes = np.array(sorted({info.min, info.max, 0, 1, info.max // 2, max(info.min, -1)}),
                        dtype=dtype)
    mask = rng.random(shape) < 0.15
    return np.where(mask, rng.choice(extremes, size=shape), out).astype(dtype)


def _float_any(rng: np.random.Generator, dtype: np.dtype, shape) -> np.ndarray:
    out = rng.standard_normal(shape) * 4
    mask = rng.random(shape) < 0.15
    with np.errstate(over="ignore"):
        return np.where(mask, rng.choice(_FLOAT_SPECIALS, size=shape), out).astype(dtype)


def draw(rng: np.random.Generator, dtype: np.dtype, shape, domain: str = "any",
         position: int = 0) -> np.ndarray:
    """Values of `dtype` for operand `position` of an op with this test `domain` (see OpDef)."""
    dtype = np.dtype(dtype)
    return np.asarray(_draw(rng, dtype, shape, domain, position), dtype=dtype)


def _draw(rng, dtype, shape, domain, position):
    if dtype.kind == "c":  # each component drawn as a float of the op's domain
        part = np.float32 if dtype == np.complex64 else np.float64
        z = np.empty(shape, dtype)
        z.real = _draw(rng, np.dtype(part), shape, domain, position)
        z.imag = _draw(rng, np.dtype(part), shape, domain, position)
        return z
    if dtype.kind == "b":
        return rng.random(shape) < 0.5
    if domain == "shift" and position == 1 and dtype.kind in "iu":
        bits = dtype.itemsize * 8
        lo = -2 if dtype.kind == "i" else 0
        return rng.integers(lo, bits + 3, size=shape).astype(dtype)
    if domain == "power" and position == 1 and dtype.kind in "iu":
        return rng.integers(0, 70, size=shape).astype(dtype)
    if domain in ("any", "shift", "power"):
        return _int_any(rng, dtype, shape) if dtype.kind in "iu" else _float_any(rng, dtype, shape)
    if domain == "nonzero":
        x = draw(rng, dtype, shape)
        return np.where(x == 0, np.ones((), dtype), x).astype(dtype)
    if domain == "unit":
        if dtype.kind in "iu":
            return rng.integers(0 if dtype.kind == "u" else -1, 2, size=shape).astype(dtype)
        x = rng.uniform(-1, 1, shape)
        return np.where(rng.random(shape) < 0.15, rng.choice([-1.0, 1.0, 0.0], size=shape), x
                        ).astype(dtype)
    if domain in ("positive", "ge1"):
        low = 1 if domain == "ge1" else 0
        if dtype.kind in "iu":
            return rng.integers(1, min(np.iinfo(dtype).max, 1000), size=shape, endpoint=True
                                ).astype(dtype)
        x = low + rng.exponential(5.0, shape) + (1e-3 if low == 0 else 0)
        specials = [np.inf, 1e30, float(low or 1e-30)]
        return np.where(rng.random(shape) < 0.15, rng.choice(specials, size=shape), x
                        ).astype(dtype)
    raise ValueError(f"unknown test domain {domain!r}")


def assert_matches(got: object, want: np.ndarray, ulps: float = ULPS) -> None:
    """`got` (an Array or anything array-like) equals NumPy's `want` (see the module docstring)."""
    want = np.asarray(want)
    with la.errstate(all="ignore"):  # as numpy_result: the drawn specials divide by zero etc.
        got_np = np.asarray(got)
    assert got_np.dtype == want.dtype, f"dtype {got_np.dtype} != NumPy's {want.dtype}"
    assert got_np.shape == want.shape, f"shape {got_np.shape} != NumPy's {want.shape}"
    if isinstance(got, la.Array):
        assert got.dtype == want.dtype and got.shape == want.shape, "predicted shape/dtype differ"
    if want.dtype.kind == "f":
        info = np.finfo(want.dtype)
        np.testing.assert_allclose(got_np, want, rtol=ulps * float(info.eps),
                                   atol=ulps * float(info.tiny), equal_nan=True)
    elif want.dtype.kind == "c":
        assert_complex_matches(got_np, want, ulps)
    else:
        np.testing.assert_array_equal(got_np, want)


# Complex results: glibc's complex functions (the C backend) and NumPy's own (npy_math, used for the
# inverse trigonometric functions) agree to a few ulp of the result's magnitude, not of each
# component (a component can be a cancellation residue), so each component is compared with a
# tolerance relative to |result|.
COMPLEX_ULPS = 64


def assert_complex_matches(got: np.ndarray, want: np.ndarray, ulps: float = ULPS) -> None:
    """Per component: nan in the same places, equal infinities, finite values within
    max(ulps, COMPLEX_ULPS) * eps * |want| (NaN for a component of an infinite result is kept)."""
    eps = float(np.finfo(want.dtype).eps)
    tiny = float(np.finfo(want.dtype).tiny)
    with np.errstate(all="ignore"):
        scale = np.abs(want.astype(np.complex128))
    for g, w in ((got.real, want.real), (got.imag, want.imag)):
        np.testing.assert_array_equal(np.isnan(g), np.isnan(w), err_msg="nan places")
        inf = np.isinf(w)
        np.testing.assert_array_equal(g[inf], w[inf], err_msg="infinities")
        ok = np.isfinite(w)
        bound = max(ulps, COMPLEX_ULPS) * eps * np.where(np.isfinite(scale), scale, np.abs(w))
        err = np.abs(g[ok].astype(np.float64) - w[ok])
        bad = err > np.maximum(bound[ok], ulps * tiny)
        assert not bad.any(), (f"{int(bad.sum())} components differ, e.g. got {g[ok][bad][:3]}, "
                               f"want {w[ok][bad][:3]}")


# NumPy results that the CPU backends reproduce bit for bit (or within a few ulps) because they
# make the same library calls (OpenBLAS, LAPACK, glibc's libm) or take NumPy's steps: on a GPU,
# cuBLAS and cuSOLVER sum a dot product or matmul in another order and CUDA's libm differs from
# glibc's by 1-2 ulp per call, compounded over a test's few ops. Such comparisons allow
# DEVICE_ULPS there (backend_ulps, assert_as_numpy); the CPU backends keep their own bound.
DEVICE_ULPS = {"cupy": 16}


def on_device() -> bool:
    """Whether the active backend runs on a GPU (its results round as described above)."""
    return resolve_backend(get_settings().backend) in DEVICE_ULPS


def backend_ulps(ulps: float = 0) -> float:
    """The ulps a comparison with NumPy allows on the active backend: `ulps` on the CPU
    backends, at least DEVICE_ULPS on a GPU one."""
    return max(ulps, DEVICE_ULPS.get(resolve_backend(get_settings().backend), 0))


def assert_as_numpy(got: object, want: np.ndarray, ulps: float = 0,
                    scale: np.ndarray | float = 0.0) -> None:
    """`got` equals NumPy's `want`: bit for bit on the CPU backends (within `ulps` if given), on
    a GPU within DEVICE_ULPS of max(|want|, `scale`). `scale`: the operands' magnitude, for a
    result that cancels (`logaddexp2` near 0 is a difference of two terms of its operands'
    size: their 1-2 ulp move it by as much, however small it is). NaN and infinities in NumPy's
    places; a NaN's sign is not compared (CUDA's NaN is positive, x86's default NaN negative)."""
    want = np.asarray(want)
    got_np = np.asarray(got)
    ulps = backend_ulps(ulps)
    if ulps == 0 or want.dtype.kind not in "fc":
        np.testing.assert_array_equal(got_np, want)
        assert got_np.dtype == want.dtype, (got_np.dtype, want.dtype)
        return
    if want.dtype.kind == "c" or not np.any(scale):
        return assert_matches(got, want, ulps)
    assert got_np.dtype == want.dtype and got_np.shape == want.shape, (got_np.dtype, want.dtype)
    info = np.finfo(want.dtype)
    with np.errstate(all="ignore"):
        scale = np.where(np.isfinite(scale), scale, 0.0)  # (an infinite operand: exact results)
        bound = ulps * float(info.eps) * np.maximum(np.abs(want), scale) + ulps * float(info.tiny)
        close = np.isfinite(want) & (np.abs(got_np - want) <= bound)
    same = (got_np == want) | (np.isnan(got_np) & np.isnan(want))
    bad = ~(same | close)
    assert not bad.any(), (f"{int(bad.sum())} of {bad.size} differ by more than {ulps} ulps of "
                           f"their scale: got {got_np[bad][:4]}, NumPy's {want[bad][:4]}")


# The texts of NumPy's floating-point flag warnings ("invalid value encountered in divide"): a
# backend without flags (cupy: tests/conftest.py NEEDS "fp_errors") gives NumPy's other warnings
# ("Mean of empty slice") and values, not these.
FLAG_WARNINGS = ("invalid value", "divide by zero", "overflow", "underflow")


def without_flag_warnings(texts: list[str]) -> list[str]:
    """`texts` less NumPy's floating-point flag warnings: what a backend without flags must give."""
    return [t for t in texts if not t.startswith(FLAG_WARNINGS)]


def numpy_or_its_error(case) -> tuple[object, object] | None:
    """Run `case(np, np.asarray)` and `case(la, la.asarray)`: where NumPy raises TypeError or
    ValueError, lazyarray must raise the same type (None is returned: nothing to compare); else
    the pair (lazyarray's result, NumPy's) for the caller's comparison. NumPy's floating-point
    warnings are silenced (lazyarray's are not): the cases check arguments, not flags."""
    try:
        with np.errstate(all="ignore"):
            want = case(np, np.asarray)
    except (TypeError, ValueError) as exc:
        with pytest.raises(type(exc)):
            case(la, la.asarray)
        return None
    return case(la, la.asarray), want


def assert_signbits(got: np.ndarray, want: np.ndarray) -> None:
    """NumPy's sign bits (-0.0, the sign of a NaN NumPy's loop made); on a GPU not a NaN's."""
    keep = ~np.isnan(want) if on_device() else np.ones(want.shape, bool)
    np.testing.assert_array_equal(np.signbit(got)[keep], np.signbit(want)[keep])


def f32(*shape, seed=0):
    """A float32 array of standard normals, reproducible by seed."""
    return np.random.default_rng(seed).standard_normal(shape).astype(np.float32)
