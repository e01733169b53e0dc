"""The project's own math functions added for issue 29 / 26 (erf, erfc, ...): ulp bounds against an
mpmath reference over the whole domain, special values exactly NumPy's (scipy.special's for erf),
the numpy backend within the same bound, and one bit pattern per value in every loop shape (the
vector body and the scalar tail of the C kernel). Bounds: docs/semantics.md."""

from __future__ import annotations

import functools
import math

import numpy as np
import pytest

import lazyarray as la
from lazyarray.runtime import available_backends

mp = pytest.importorskip("mpmath")

def _real(fn):
    """mpmath's function, NaN where its value is complex (outside the real domain)."""
    def ref(v):
        r = fn(v)
        return r if isinstance(r, mp.mpf) else mp.nan
    return ref


# name -> (mpmath reference, bound in ulp for float32, for float64, the dense sweep's range)
FUNCTIONS = {
    "erf": (mp.erf, 1.5, 2.0, 30.0),
    # (mpmath's erfc overflows for huge x; beyond 40 it is 0 or 2 in every float format)
    "erfc": (lambda v: mp.erfc(v) if abs(v) < 40 else mp.mpf(0 if v > 0 else 2), 4.0, 4.0, 30.0),
    "arctan": (mp.atan, 2.5, 2.0, 30.0),
    "arcsin": (_real(mp.asin), 3.5, 3.0, 1.0),
    "arccos": (_real(mp.acos), 3.5, 3.0, 1.0),
    "sinh": (mp.sinh, 2.0, 3.0, 100.0),
    "cosh": (mp.cosh, 2.0, 3.0, 100.0),
    "arcsinh": (mp.asinh, 2.0, 3.0, 100.0),
    "arccosh": (_real(mp.acosh), 2.5, 3.0, 100.0),
    "arctanh": (_real(mp.atanh), 2.5, 3.0, 1.0),
    "cbrt": (lambda v: mp.sign(v) * mp.cbrt(abs(v)), 1.0, 2.0, 1000.0),
    "log2": (_real(lambda v: mp.log(v) / mp.log(2)), 2.0, 2.0, 1000.0),
    "log10": (_real(lambda v: mp.log10(v)), 2.0, 2.0, 1000.0),
    "exp2": (lambda v: mp.power(2, v), 1.0, 2.0, 1100.0),
    "tan": (mp.tan, 1.0, 3.0, 100.0),
}
# the exact value of each function at its special inputs (NumPy / scipy.special's)
SPECIAL = {  # (input, value) pairs: 0.0 and -0.0 are one dict key
    "erf": [(0.0, 0.0), (-0.0, -0.0), (np.inf, 1.0), (-np.inf, -1.0)],
    "erfc": [(0.0, 1.0), (-0.0, 1.0), (np.inf, 0.0), (-np.inf, 2.0)],
    "arctan": [(0.0, 0.0), (-0.0, -0.0), (np.inf, np.pi / 2), (-np.inf, -np.pi / 2)],
    "arcsin": [(0.0, 0.0), (-0.0, -0.0), (1.0, np.pi / 2), (-1.0, -np.pi / 2), (np.inf, np.nan),
               (1.5, np.nan), (-1.0000001, np.nan)],
    "arccos": [(0.0, np.pi / 2), (-0.0, np.pi / 2), (1.0, 0.0), (-1.0, np.pi), (np.inf, np.nan),
               (1.5, np.nan), (-1.0000001, np.nan)],
    # the others have NumPy ufuncs: the test takes NumPy's values at these inputs
    "sinh": [(0.0, 0), (-0.0, 0), (np.inf, 0), (-np.inf, 0), (710.4, 0), (711.0, 0), (-711.0, 0)],
    "cosh": [(0.0, 0), (-0.0, 0), (np.inf, 0), (-np.inf, 0), (710.4, 0), (711.0, 0), (-711.0, 0)],
    "arcsinh": [(0.0, 0), (-0.0, 0), (np.inf, 0), (-np.inf, 0), (1e300, 0), (-1e300, 0)],
    "arccosh": [(1.0, 0), (0.5, 0), (-1.0, 0), (np.inf, 0), (-np.inf, 0), (1e300, 0), (0.0, 0)],
    "arctanh": [(0.0, 0), (-0.0, 0), (1.0, 0), (-1.0, 0), (1.5, 0), (np.inf, 0), (-np.inf, 0)],
    "cbrt": [(0.0, 0), (-0.0, 0), (np.inf, 0), (-np.inf, 0), (8.0, 0), (-27.0, 0), (1e-320, 0)],
    "log2": [(0.0, 0), (-0.0, 0), (np.inf, 0), (-np.inf, 0), (-1.0, 0), (1.0, 0), (1024.0, 0),
             (2.0 ** -1074, 0), (0.125, 0)],
    "log10": [(0.0, 0), (-0.0, 0), (np.inf, 0), (-np.inf, 0), (-1.0, 0), (1.0, 0), (1e-300, 0)],
    "tan": [(0.0, 0), (-0.0, 0), (np.inf, 0), (-np.inf, 0), (1e22, 0), (1.5707963267948966, 0),
            (-1.5707963267948966, 0), (3.141592653589793, 0)],
    "exp2": [(0.0, 0), (-0.0, 0), (np.inf, 0), (-np.inf, 0), (1024.0, 0), (1023.0, 0),
             (-1074.0, 0), (-1075.0, 0), (-1076.0, 0), (-149.0, 0), (-150.0, 0), (128.0, 0)],
}


def _inputs(dtype, n: int, span: float = 30.0) -> np.ndarray:
    """Random bit patterns (every exponent, subnormals), a dense sweep of [-span, span], small
    values, the interval boundaries of the formulas (c_erf.py, ...) and their neighbours."""
    rng = np.random.default_rng(29)
    uint = np.uint32 if dtype == np.float32 else np.uint64
    info = np.finfo(dtype)
    bits = rng.integers(0, np.iinfo(uint).max, n, dtype=uint, endpoint=True).view(dtype)
    dense = rng.uniform(-span, span, n).astype(dtype)
    small = (rng.uniform(-1, 1, n // 4) * 10.0 ** rng.uniform(-40, 0, n // 4)).astype(dtype)
    with np.errstate(over="ignore"):  # the float64 edges beyond float32's range: inf, dropped
        edges = np.array([0.5, 6.0, 8.0, 27.3, 26.55, 5.9, 0.75, 1.0, 1.5, 2.0, 4.0, 0.9999999,
                          0.41421356237309503, 2.414213562373095, 1e-20, 1e20, 88.72, 89.4,
                          709.78, 710.47, 710.48, 3.27e150, 3.28e150]
                         + [k / 2 for k in range(1, 17)], dtype)
    edges = np.concatenate([edges, np.nextafter(edges, np.inf), np.nextafter(edges, -np.inf)])
    special = np.array([info.tiny, info.smallest_subnormal, info.max], dtype)
    x = np.concatenate([bits, dense, small, edges, -edges, special, -special])
    return x[np.isfinite(x)]


class _Exacts:
    """mpmath's values kept as their raw `_mpf_` tuples of ints, which the garbage collector
    stops tracking, and as float64: 60 cached tuples of ~3,000 mpf objects (176,000 tracked
    objects) held by a test worker made every later full collection (`la.clear_caches()`
    collects, ~390 times in a fast-tier run) walk them (-n 0: 22 -> 95 ms a collection; stop
    52). `exacts[i]` is the mpf again, for the few elements measured one by one."""

    def __init__(self, values) -> None:
        self.floats = np.array([float(e) for e in values])
        self.raw = tuple(e._mpf_ if isinstance(e, mp.mpf) else e for e in values)

    def __len__(self) -> int:
        return len(self.raw)

    def __getitem__(self, i: int):
        raw = self.raw[i]
        return mp.mp.make_mpf(raw) if isinstance(raw, tuple) else raw


@functools.lru_cache(maxsize=None)
def _exact_values(name: str, dtype_name: str) -> _Exacts:
    """mpmath's values of FUNCTIONS[name] at `_inputs` (40 digits): most of the ulp test's time,
    computed once per function and dtype and shared by its backends' instances."""
    fn, _, _, span = FUNCTIONS[name]
    mp.mp.dps = 40
    return _Exacts([fn(mp.mpf(xi))
                    for xi in _inputs(np.dtype(dtype_name).type, 3000, span).tolist()])


def _ulp_error(got: np.ndarray, x: np.ndarray, exacts, dtype) -> tuple[float, float]:
    """Max distance from the exact value in ulp of the (rounded) exact value; its input. The
    exact values rounded to the dtype are compared at once (most results equal them); only the
    others are measured one by one, in input order (a per-element loop over all ~7,000 took
    15-26 ms a call, this 4-16 ms)."""
    mp.mp.dps = 40
    worst, where = 0.0, 0.0
    tiny = float(np.finfo(dtype).smallest_subnormal)
    with np.errstate(over="ignore"):  # beyond the dtype's range: inf
        wants = exacts.floats.astype(dtype)
    assert got.shape == wants.shape == x.shape
    differ = ~((got == wants) | (np.isnan(wants) & np.isnan(got)))
    for i in np.flatnonzero(differ).tolist():
        xi, gi, want, exact = x[i].item(), got[i].item(), wants[i].item(), exacts[i]
        if math.isnan(want) or math.isnan(gi):
            return math.inf, xi
        ulp = float(np.spacing(dtype(abs(want)))) if want != 0 else tiny
        err = float(abs(mp.mpf(gi) - exact)) / ulp
        if err > worst:
            worst, where = err, xi
    return worst, where


BACKENDS = [b for b in ("c", "numpy") if b in available_backends()]


@pytest.mark.parametrize("backend_name", BACKENDS)
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("name", list(FUNCTIONS))
def test_ulp_bound_and_special_values(name, dtype, backend_name):
    fn, bound32, bound64, span = FUNCTIONS[name]
    bound = bound32 if dtype == np.float32 else bound64
    if backend_name == "numpy":
        bound = 4.0  # NumPy's own SIMD loops (2.35 ulp for float32 arcsin), libm's math.erf
    x = _inputs(dtype, 3000, span)
    with np.errstate(over="ignore"):  # 1e300 as float32: inf
        specials = np.array([v for v, _ in SPECIAL[name]] + [np.nan], dtype)
    with la.config(backend=backend_name):
        got, got_special = (np.asarray(v) for v in la.eval(getattr(la, name)(la.array(x)),
                                                           getattr(la, name)(la.array(specials))))
    assert got.dtype == dtype and got_special.dtype == dtype
    worst, where = _ulp_error(got, x, _exact_values(name, np.dtype(dtype).name), dtype)
    assert worst <= bound, f"{name}({where!r}): {worst:.2f} ulp"
    want = np.array([w for _, w in SPECIAL[name]] + [np.nan], dtype)
    if hasattr(np, name):  # NumPy's own values where it has the function
        with np.errstate(all="ignore"):
            want = getattr(np, name)(specials)
    exact = ~np.isfinite(want) | (want == 0) | (np.abs(want) == 1)  # NaN, inf, ±0, ±1: exactly
    np.testing.assert_array_equal(got_special[exact], want[exact])
    eps = float(np.finfo(dtype).eps)
    np.testing.assert_allclose(got_special[~exact], want[~exact], rtol=(bound + 1) * eps)
    numbers = ~np.isnan(want)  # a NaN's sign bit is not part of its meaning
    np.testing.assert_array_equal(np.signbit(got_special[numbers]), np.signbit(want[numbers]))


@pytest.mark.skipif("c" not in available_backends(), reason="no C compiler")
@pytest.mark.parametrize("dtype", [  # 18 units per dtype (~10 s on 2 cores): float64 exhaustive
    np.float32, pytest.param(np.float64, marks=pytest.mark.exhaustive)])
def test_vector_body_and_scalar_tail_agree(dtype):
    """Every prefix length 1..40 of one input splits it differently between the vectorized body
    and the scalar tail: each element has the bits it has in the full-length kernel."""
    rng = np.random.default_rng(3)
    x = np.concatenate([rng.uniform(-7, 7, 30), rng.uniform(-30, 30, 10)]).astype(dtype)
    with la.config(backend="c"):
        a = la.array(x)
        for name in [*FUNCTIONS, "log", "log1p", "expm1"]:  # (these three: test_c_math.py)
            f = getattr(la, name)
            outs = [np.asarray(o) for o in la.eval(*(f(a[:n]) for n in range(1, 41)))]
            for n, out in enumerate(outs, start=1):
                assert out.tobytes() == outs[-1][:n].tobytes(), f"{name}, length {n}"


@pytest.mark.parametrize("backend_name", BACKENDS)
def test_erf_against_math_erf(backend_name):
    x = np.linspace(-7, 7, 2001)
    with la.config(backend=backend_name):
        got = np.asarray(la.erf(la.array(x)))
        got_c = np.asarray(la.erfc(la.array(x)))
    want = np.array([math.erf(v) for v in x])
    want_c = np.array([math.erfc(v) for v in x])
    np.testing.assert_allclose(got, want, rtol=4e-16, atol=0)
    np.testing.assert_allclose(got_c, want_c, rtol=1e-15, atol=0)


@pytest.mark.parametrize("backend_name", BACKENDS)
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_exact_gelu(backend_name, dtype):
    """gelu(approximate=False) = x/2 (1 + erf(x/sqrt 2)), the dtype kept (jax.nn.gelu)."""
    x = np.concatenate([np.linspace(-12, 12, 501), [0.0, -0.0, np.inf, -np.inf]]).astype(dtype)
    with la.config(backend=backend_name):
        got = np.asarray(la.nn.gelu(la.array(x), approximate=False))
    arg = x * dtype(-math.sqrt(0.5))  # rounded in the dtype, as the C kernel does: erfc's
    # relative sensitivity 2 arg^2 makes the float32 rounding of arg show at large |x|
    want = np.array([0.5 * v * math.erfc(w) for v, w in zip(x[:-2].tolist(), arg[:-2].tolist())])
    assert got.dtype == dtype
    tol = 4e-7 if dtype == np.float32 else 2e-15
    np.testing.assert_allclose(got[:-2], want, rtol=tol, atol=1e-300)
    assert got[-2] == np.inf and np.isnan(got[-1])  # -inf * 0 is NaN, as in JAX and NumPy


def test_erf_dtypes_and_errors():
    assert la.erf(la.array(np.arange(3, dtype=np.int32))).dtype == np.float64
    assert la.erfc(la.array(np.ones(3, np.float32))).dtype == np.float32
    with pytest.raises(TypeError, match="complex"):
        la.erf(la.array(np.ones(2, np.complex64)))


def test_erf_derivative():
    x = np.linspace(-3, 3, 13)
    g = la.grad(lambda v: la.sum(la.erf(v)))(la.array(x))
    gc = la.grad(lambda v: la.sum(la.erfc(v)))(la.array(x))
    want = 2 / np.sqrt(np.pi) * np.exp(-x * x)
    np.testing.assert_allclose(np.asarray(g), want, rtol=1e-14)
    np.testing.assert_allclose(np.asarray(gc), -want, rtol=1e-14)


@pytest.mark.parametrize("backend_name", BACKENDS)
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_arctan2(backend_name, dtype):
    """Within the bound of arctan (+1 ulp for the division y/x) against mpmath on random pairs
    over every exponent and a dense box; every zero/infinity/NaN pair exactly np.arctan2's."""
    rng = np.random.default_rng(7)
    uint = np.uint32 if dtype == np.float32 else np.uint64
    n = 2000
    y = np.concatenate([rng.integers(0, np.iinfo(uint).max, n, dtype=uint).view(dtype),
                        rng.uniform(-10, 10, n).astype(dtype)])
    x = np.concatenate([rng.integers(0, np.iinfo(uint).max, n, dtype=uint).view(dtype),
                        rng.uniform(-10, 10, n).astype(dtype)])
    ok = np.isfinite(x) & np.isfinite(y)
    x, y = x[ok], y[ok]
    grid = np.array([0.0, -0.0, np.inf, -np.inf, 1.0, -1.0, np.nan, 2.5, -1e-30], dtype)
    gy, gx = (v.ravel() for v in np.meshgrid(grid, grid))
    with la.config(backend=backend_name):
        got, got_grid = (np.asarray(v) for v in la.eval(la.arctan2(la.array(y), la.array(x)),
                                                        la.arctan2(la.array(gy), la.array(gx))))
    with np.errstate(all="ignore"):
        want_grid = np.arctan2(gy, gx)
    edge = ~(np.isfinite(gy) & np.isfinite(gx) & (gy != 0) & (gx != 0))  # zeros, infs, NaN
    got_grid, want_grid = got_grid[edge], want_grid[edge]  # (finite pairs: the ulp check)
    np.testing.assert_array_equal(got_grid, want_grid)
    numbers = ~np.isnan(want_grid)
    np.testing.assert_array_equal(np.signbit(got_grid[numbers]), np.signbit(want_grid[numbers]))
    mp.mp.dps = 40
    bound = {np.float32: 3.0, np.float64: 3.0}[dtype] if backend_name == "c" else 4.0
    tiny = float(np.finfo(dtype).smallest_subnormal)
    for yi, xi, gi in zip(y.tolist(), x.tolist(), got.tolist()):
        exact = mp.atan2(mp.mpf(yi), mp.mpf(xi))
        want = float(dtype(float(exact)))
        if gi != want:
            ulp = float(np.spacing(dtype(abs(want)))) if want != 0 else tiny
            err = float(abs(mp.mpf(gi) - exact)) / ulp
            assert err <= bound, f"arctan2({yi!r}, {xi!r}): {err:.2f} ulp"


@pytest.mark.skipif("c" not in available_backends(), reason="no C compiler")
def test_arctan2_vector_body_and_scalar_tail_agree():
    rng = np.random.default_rng(4)
    for dtype in (np.float32, np.float64):
        y, x = (rng.uniform(-5, 5, 40).astype(dtype) for _ in range(2))
        with la.config(backend="c"):
            a, b = la.array(y), la.array(x)
            outs = [np.asarray(o) for o in la.eval(*(la.arctan2(a[:n], b[:n])
                                                     for n in range(1, 41)))]
        for n, out in enumerate(outs, start=1):
            assert out.tobytes() == outs[-1][:n].tobytes(), f"arctan2 {dtype}, length {n}"


@pytest.mark.parametrize("backend_name", BACKENDS)
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("name", ["hypot", "logaddexp"])
def test_binary_own_math(name, dtype, backend_name):
    """hypot and logaddexp (own, branch-free C): within 2 ulp (float64; float32 1) of mpmath on
    random pairs over every exponent and a dense box; np's value at every zero/inf/NaN pair; the
    vector body and the scalar tail give the same bits."""
    rng = np.random.default_rng(11)
    uint = np.uint32 if dtype == np.float32 else np.uint64
    n = 1500
    pairs = [np.concatenate([rng.integers(0, np.iinfo(uint).max, n, dtype=uint).view(dtype),
                             rng.uniform(-60, 60, n).astype(dtype)]) for _ in range(2)]
    ok = np.isfinite(pairs[0]) & np.isfinite(pairs[1])
    y, x = pairs[0][ok], pairs[1][ok]
    grid = np.array([0.0, -0.0, np.inf, -np.inf, 1.0, -1.0, np.nan, 2.5, -1e-30], dtype)
    gy, gx = (v.ravel() for v in np.meshgrid(grid, grid))
    f = getattr(la, name)
    with la.config(backend=backend_name):
        a, b = la.array(y), la.array(x)
        got, got_grid, *prefixes = (np.asarray(v) for v in la.eval(
            f(a, b), f(la.array(gy), la.array(gx)), *(f(a[:k], b[:k]) for k in range(1, 41))))
    for k, out in enumerate(prefixes, start=1):
        assert out.tobytes() == got[:k].tobytes(), f"{name}, length {k}"
    with np.errstate(all="ignore"):
        want_grid = getattr(np, name)(gy, gx)
    edge = ~np.isfinite(want_grid) | (want_grid == 0)
    np.testing.assert_array_equal(got_grid[edge], want_grid[edge])
    numbers = edge & ~np.isnan(want_grid)
    np.testing.assert_array_equal(np.signbit(got_grid[numbers]), np.signbit(want_grid[numbers]))
    mp.mp.dps = 40
    exact_fn = {"hypot": lambda p, q: mp.sqrt(p * p + q * q),
                "logaddexp": lambda p, q: max(p, q) + mp.log1p(mp.exp(-abs(p - q)))}[name]
    bound = {np.float32: 1.0, np.float64: 2.0}[dtype] if backend_name == "c" else 4.0
    tiny = float(np.finfo(dtype).smallest_subnormal)
    for yi, xi, gi in zip(y.tolist(), x.tolist(), got.tolist()):
        exact = exact_fn(mp.mpf(yi), mp.mpf(xi))
        with np.errstate(over="ignore"):
            want = float(dtype(float(exact)))
        if gi != want:
            ulp = float(np.spacing(dtype(abs(want)))) if want != 0 else tiny
            err = float(abs(mp.mpf(gi) - exact)) / ulp
            assert err <= bound, f"{name}({yi!r}, {xi!r}) = {gi!r}: {err:.2f} ulp"


_POW_GRID = [0.0, -0.0, 1.0, -1.0, 2.5, -2.5, 7.0, -7.0, 3.0, -3.0, 0.5, -0.5, 2.0, -2.0, 1e30,
             -1e30, 1e-30, -1e-30, np.inf, -np.inf, np.nan, 1e-45, 200.0, -200.0, 0.3333333,
             -149.0, 128.0, 127.99, 4e9]


def _pow_inputs(dtype, rng, n: int):
    """Bases over every exponent (both signs), exponents kept where the result is a finite
    non-zero number mostly (|y log|x|| up to ~1.2x the range), integer exponents for negative
    bases, and a dense box."""
    top = math.log(float(np.finfo(dtype).max))
    x = np.abs(rng.uniform(-1, 1, n) * 2.0 ** rng.uniform(-120, 120, n))
    if dtype == np.float64:
        x *= 2.0 ** rng.integers(-800, 800, n)
    y = rng.uniform(-1.2, 1.2, n) * top / np.maximum(np.abs(np.log(x)), 1e-3)
    neg = rng.random(n) < 0.3
    x, y = np.where(neg, -x, x), np.where(neg, np.round(y), y)
    bx, by = rng.uniform(0, 10, n // 2), rng.uniform(-10, 10, n // 2)
    with np.errstate(over="ignore", under="ignore"):
        x, y = (np.concatenate(p).astype(dtype) for p in ((x, bx), (y, by)))
    ok = np.isfinite(x) & np.isfinite(y) & (x != 0)
    return x[ok], y[ok]


@pytest.mark.parametrize("backend_name", BACKENDS)
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_power_float(dtype, backend_name):
    """float power (the own formulas plus NumPy's divide-by-zero flag at 0 ** -inf,
    runtime/c/pow.py): within the bound of mpmath on random pairs over every exponent (negative
    bases with integer exponents), NumPy's value, sign and warnings at every pair of the special
    grid (C99 Annex F), and the same bits in the vector body and the scalar tail."""
    import warnings

    rng = np.random.default_rng(17)
    x, y = _pow_inputs(dtype, rng, 1500)
    gx, gy = (v.ravel() for v in np.meshgrid(np.array(_POW_GRID, dtype),
                                             np.array(_POW_GRID, dtype)))
    with la.config(backend=backend_name), la.errstate(all="ignore"):
        a, b = la.array(x), la.array(y)
        got, got_grid, *prefixes = (np.asarray(v) for v in la.eval(
            la.power(a, b), la.power(la.array(gx), la.array(gy)),
            *(la.power(a[:k], b[:k]) for k in range(1, 41))))
    for k, out in enumerate(prefixes, start=1):
        assert out.tobytes() == got[:k].tobytes(), f"power, length {k}"
    with np.errstate(all="ignore"):
        want_grid = np.power(gx, gy)
    exact = ~np.isfinite(want_grid) | (want_grid == 0) | (np.abs(want_grid) == 1)
    np.testing.assert_array_equal(got_grid[exact], want_grid[exact])  # NaN, ±inf, ±0, ±1
    np.testing.assert_allclose(got_grid[~exact], want_grid[~exact],
                               rtol=3 * float(np.finfo(dtype).eps))  # NumPy's own within 1 ulp
    numbers = ~np.isnan(want_grid)
    np.testing.assert_array_equal(np.signbit(got_grid[numbers]), np.signbit(want_grid[numbers]))
    for xi, yi in zip(gx, gy):  # NumPy's warnings, pair by pair
        # NumPy's float32 SIMD loop (AVX-512 dispatch) warns overflow for |x| >= 2^64 ** inf;
        # libm (float64, other dispatches) does not: not an ordinary input, left out
        if dtype == np.float32 and np.isinf(yi) and yi > 0 and 1.8e19 < abs(xi) < np.inf:
            continue
        # (two elements: a 1-element array may reach NumPy's scalar loop in the reference re-run
        # that words the report, and NumPy's scalar 0.0 ** -inf does not flag divide)
        px, py = np.array([xi, xi]), np.array([yi, yi])
        with warnings.catch_warnings(record=True) as want_w:
            warnings.simplefilter("always")
            np.power(px, py)
        with warnings.catch_warnings(record=True) as got_w, la.config(backend=backend_name):
            warnings.simplefilter("always")
            np.asarray(la.power(la.array(px), la.array(py)))
        assert sorted(str(w.message) for w in got_w) == sorted(str(w.message) for w in want_w), (
            f"power({xi!r}, {yi!r})")
    mp.mp.dps = 50
    bound = 1.0  # the own formulas (runtime/c/pow.py: float64 measured 0.75 ulp)
    if backend_name == "numpy":
        bound = 4.0  # NumPy's SIMD loops
    tiny = float(np.finfo(dtype).smallest_subnormal)
    for xi, yi, gi in zip(x.tolist(), y.tolist(), got.tolist()):
        exact = mp.power(mp.mpf(xi), mp.mpf(yi))
        with np.errstate(over="ignore", under="ignore"):
            want = float(dtype(float(exact)))
        if gi != want:
            ulp = float(np.spacing(dtype(abs(want)))) if want != 0 else tiny
            err = float(abs(mp.mpf(gi) - exact)) / max(ulp, tiny)
            assert err <= bound, f"power({xi!r}, {yi!r}) = {gi!r}: {err:.2f} ulp"


@pytest.mark.skipif("c" not in BACKENDS, reason="needs a C compiler")
def test_float_power_vectorizes_with_a_scalar_or_an_array_exponent(tmp_path):
    """Float power is the project's own formula (runtime/c/pow.py; float64 was libm's scalar
    `pow`), and gcc vectorizes its loop whether the exponent is an array or loop-invariant (a
    function parameter: kernels load scalar arguments in the loop today, gcc may hoist them):
    a select on an invariant `y` (float32's `y < -2^24 ? ...` clamp) left the whole loop scalar,
    5x slower. The compiler's own report, the toolchain's flags."""
    import subprocess

    from lazyarray.runtime.c import compiler, prelude

    tools = compiler.toolchain()
    if "-march=native" not in tools.flags:
        pytest.skip("no -march=native: which loops vectorize is the target's business")
    loops = []
    for t, s in (("float", "f32"), ("double", "f64")):
        for name, y, yi in (("array", f"const {t} *restrict y", "y[i]"), ("scalar", f"{t} y", "y")):
            loops.append(f"void loop_{s}_{name}(const {t} *restrict x, {y}, {t} *restrict o, "
                         f"long n) {{\n    #pragma omp simd\n    for (long i = 0; i < n; i++) "
                         f"o[i] = la_fpow_{s}(x[i], {yi});\n}}")
    body = "\n".join(loops)
    assert "pow(" not in prelude.render_helpers(body).replace("la_fpow_", "")  # no libm pow
    src = tmp_path / "k.c"  # (inlined as a kernel's few calls are: gcc outlines 4 of them)
    inline = "static inline __attribute__((always_inline))"
    src.write_text("#include <stdint.h>\n#include <string.h>\n#include <math.h>\n"
                   + prelude.FPE_VALUES + "\n" + prelude.render_helpers(body, inline) + "\n" + body
                   + "\n")
    flags = [f for f in tools.flags if f not in ("-shared", "-fopenmp") and not f.startswith("-Wl")]
    out = subprocess.run([*tools.command, *flags, "-fopenmp-simd", "-c", "-o",
                          str(tmp_path / "k.o"), str(src), "-fopt-info-vec-optimized"],
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stderr[-2000:]
    lines = src.read_text().splitlines()
    starts = [k + 1 for k, ln in enumerate(lines) if ln.startswith("void loop_")]
    for start, name in zip(starts, ("f32 array", "f32 scalar", "f64 array", "f64 scalar")):
        hits = [ln for ln in out.stderr.splitlines() if "loop vectorized" in ln
                and start <= int(ln.split(":")[1]) <= start + 3]
        assert hits, f"{name}: not vectorized\n{out.stderr[-2000:]}"


@pytest.mark.parametrize("backend_name", BACKENDS)
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_power_of_ordinary_values_warns_as_numpy_in_the_vector_loop(dtype, backend_name,
                                                                   monkeypatch):
    """Long arrays (the vector body, not the 2-element tail of test_power_float), a scalar or an
    array exponent: no flag NumPy does not raise. gcc computes both sides of a select and hoists
    an invariant side out of the loop, so a flag raised through a select on y (`0 ** y` for a
    negative y: 1/0; a negative x to a non-integer y: sqrt(-frac)) fired in every lane, and
    each call paid a NumPy re-run that found no such warning (`numpy_messages`)."""
    import warnings

    from lazyarray import fp_errors

    runs = []
    real = fp_errors.numpy_messages
    monkeypatch.setattr(fp_errors, "numpy_messages", lambda rerun: runs.append(1) or real(rerun))
    rng = np.random.default_rng(5)
    pos, neg = rng.uniform(0.01, 10, 200).astype(dtype), -rng.integers(1, 9, 56).astype(dtype)
    for yi, x in ((-1.5, pos), (2.5, pos), (0.3, pos), (-3.0, np.concatenate([pos, neg])),
                  (7.0, np.concatenate([neg, pos])), (-1.5, np.concatenate([pos, neg]))):
        ys = np.full_like(x, yi)
        with warnings.catch_warnings(record=True) as want_w:
            warnings.simplefilter("always")
            want = np.power(x, ys)
        for y in (dtype(yi), ys):
            del runs[:]
            with warnings.catch_warnings(record=True) as got_w, la.config(backend=backend_name):
                warnings.simplefilter("always")
                got = np.asarray(la.power(la.array(x), y if np.ndim(y) == 0 else la.array(y)))
            assert ({str(w.message) for w in got_w} == {str(w.message) for w in want_w}), yi
            assert runs == [] or want_w, yi  # no flag of the kernel's own to confirm
            np.testing.assert_allclose(got, want, rtol=2 * float(np.finfo(dtype).eps))
