"""The CUDA dialect's complex functions (runtime/c/complex_cuda.py, on real libm functions: NVRTC
has no <complex.h>) compiled as C and compared with NumPy on the CPU: no GPU here runs them, so
this is where their special values and accuracy are checked.

- special values: every pair of components from the grids of tests/test_complex.py and
  tests/test_array_api.py (nan, ±inf, ±0, ±1, 0.5, -2.5) and of the elementwise sweep
  (numpy_oracle's specials: 1e30, -745, 88.5, ...), plus overflow/underflow edges: nan in the
  same places as NumPy, infinities and zeros with NumPy's signs, finite components within
  4 ulp of NumPy's component (the Array API test's rule);
- random values of every magnitude (hypothesis, and random bit patterns): the same nan/inf/zero
  rule, finite components within a few ulp of |NumPy's complex128 result| (a component can be a
  cancellation residue);
- power on the same grids (NumPy's integer, zero-base and general paths).

The CUDA libm differs from glibc by <= 2 ulp on the real functions; the bounds leave room for it.
"""

from __future__ import annotations

import ctypes
import itertools
import subprocess

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lazyarray.runtime import available_backends
from lazyarray.runtime.c import prelude as c_prelude
from lazyarray.runtime.c.compiler import find_compiler

# One worker runs this module (`--dist loadgroup`): its module fixture compiles every case once.
pytestmark = [pytest.mark.skipif("c" not in available_backends(), reason="no C compiler"),
              pytest.mark.xdist_group("test_complex_formulas")]

FUNCTIONS = {"exp": np.exp, "log": np.log, "sqrt": np.sqrt, "sin": np.sin, "cos": np.cos,
             "tan": np.tan, "sinh": np.sinh, "cosh": np.cosh, "tanh": np.tanh,
             "asin": np.arcsin, "acos": np.arccos, "atan": np.arctan, "asinh": np.arcsinh,
             "acosh": np.arccosh, "atanh": np.arctanh}
SUFFIXES = {"c64": np.complex64, "c128": np.complex128}
# error bound relative to |NumPy's complex128 result| on inputs of moderate size (measured
# maxima: `pytest -s` prints them), and in ulp on random inputs of every magnitude
BOUND = {"c64": 2e-6, "c128": 4e-15}
ULPS = 8


@pytest.fixture(scope="module")
def library(tmp_path_factory):
    names = [f"{f}_{s}" for s in SUFFIXES for f in [*FUNCTIONS, "cpow"]]
    source = [c_prelude.complex_definitions(names, "static inline", formulas=True)]
    for s in SUFFIXES:
        for f in FUNCTIONS:
            source.append(f"void run_{f}_{s}(const la_{s} *x, la_{s} *y, long n) "
                          f"{{ for (long i = 0; i < n; i++) y[i] = la_{f}_{s}(x[i]); }}")
        source.append(f"void run_cpow_{s}(const la_{s} *x, const la_{s} *b, la_{s} *y, long n) "
                      f"{{ for (long i = 0; i < n; i++) y[i] = la_cpow_{s}(x[i], b[i]); }}")
    folder = tmp_path_factory.mktemp("formulas")
    # the CUDA prelude's zeros (la_fpe_zero_f64, a constant there: no flags on a GPU)
    (folder / "f.c").write_text("#include <math.h>\n" + c_prelude.FPE_VALUES_CUDA + "\n"
                                + "\n".join(source) + "\n")
    subprocess.run([*find_compiler(), "-O2", "-std=gnu11", "-fPIC", "-shared", "-ffp-contract=off",
                    str(folder / "f.c"), "-o", str(folder / "f.so"), "-lm"], check=True)
    return ctypes.CDLL(str(folder / "f.so"))


def _ptr(a: np.ndarray):
    return a.ctypes.data_as(ctypes.c_void_p)


def _run(library, name: str, suffix: str, *args: np.ndarray) -> np.ndarray:
    y = np.empty_like(args[0])
    getattr(library, f"run_{name}_{suffix}")(*map(_ptr, args), _ptr(y), ctypes.c_long(y.size))
    return y


def _reference(name: str, *args: np.ndarray) -> np.ndarray:
    with np.errstate(all="ignore"):
        return np.power(*args) if name == "cpow" else FUNCTIONS[name](*args)


def _inputs(dtype) -> np.ndarray:
    rng = np.random.default_rng(11)
    re, im = rng.uniform(-6, 6, (2, 4000))
    z = re + 1j * im
    small = (rng.standard_normal(500) + 1j * rng.standard_normal(500)) * 1e-4
    axes = np.concatenate([rng.uniform(-3, 3, 100), 1j * rng.uniform(-3, 3, 100)])
    return np.concatenate([z, small, axes, [0, 1, -1, 1j, -1j, 2 + 0j]]).astype(dtype)


def _grid(dtype) -> np.ndarray:
    """Every pair of special components (built from the parts: complex() drops a zero's sign)."""
    info = np.finfo(np.float32 if dtype == np.complex64 else np.float64)
    parts = [np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.0, 0.5, -0.5, -2.5, 2.0, 3.0,
             1e30, -1e-30, 88.5, -745.0, 710.0, -1000.0, float(info.max), float(-info.tiny),
             float(info.smallest_subnormal), 1e-8, -1e8, 1e17, 1 + float(info.eps)]
    pairs = np.array(list(itertools.product(parts, parts)))
    z = np.empty(len(pairs), dtype)
    with np.errstate(over="ignore"):
        z.real, z.imag = pairs[:, 0], pairs[:, 1]
    return z


def _special_mismatches(got: np.ndarray, want: np.ndarray, componentwise: bool,
                        truth: np.ndarray | None = None, ulps=4,
                        unsigned: np.ndarray | None = None) -> list[int]:
    """Where `got` breaks the rule of the module docstring (nan/inf/zero exact, finite within
    `ulps`: of each component when `componentwise`, else of |truth|). `unsigned`: where an
    infinity's sign is not compared (it follows a NaN's sign bit, which C99 leaves open)."""
    eps = float(np.finfo(want.real.dtype).eps)
    sub = float(np.finfo(want.real.dtype).smallest_subnormal)  # a subnormal has fewer digits
    truth = want.astype(np.complex128) if truth is None else truth
    with np.errstate(all="ignore"):
        scale = np.abs(truth)
    # |z| overflowed: the larger component; nan + i 1.57 or inf + i 3: the finite component
    re, im = np.abs(truth.real), np.abs(truth.imag)
    scale = np.where(np.isfinite(scale), scale,
                     np.where(np.isfinite(re) & np.isfinite(im), np.fmax(re, im), np.fmin(re, im)))
    bad = np.zeros(want.shape, bool)
    for part in ("real", "imag"):
        g, w, t = getattr(got, part), getattr(want, part), getattr(truth, part)
        exact = ~np.isfinite(w) | (w == 0)
        bad |= np.isnan(g) != np.isnan(w)
        inf = np.isinf(w)
        signs = np.signbit(g) != np.signbit(w)
        if unsigned is not None:
            signs &= ~unsigned
        bad |= inf & ((np.abs(g) != np.abs(w)) | signs)
        # a zero: NumPy's with its sign, or a residue of underflow (|got| of a few subnormals)
        zero = w == 0
        bad |= zero & np.where(g == 0, np.signbit(g) != np.signbit(w), ~(np.abs(g) <= ulps * sub))
        ok = ~exact
        ref = np.abs(t) if componentwise else scale
        with np.errstate(all="ignore"):
            err = np.abs(g.astype(np.float64) - t)
            bad |= ok & ~(err <= ulps * (eps * ref + sub))
    return [int(i) for i in np.flatnonzero(bad)]


def _describe(x, got, want, where, *extra) -> str:
    rows = [f"  z={x[i]!r}{''.join(f', b={e[i]!r}' for e in extra)}: got {got[i]!r}, "
            f"NumPy {want[i]!r}" for i in where[:6]]
    return "\n".join(rows)


@pytest.mark.parametrize("suffix", SUFFIXES)
def test_cuda_formulas_match_numpy(library, suffix):
    """Moderate finite inputs: the error relative to |NumPy's complex128 result|."""
    x = _inputs(SUFFIXES[suffix])
    worst = {}
    for name in FUNCTIONS:
        y = _run(library, name, suffix, x)
        want = _reference(name, x.astype(np.complex128))
        pole = ~np.isfinite(want)  # log(0), atanh(±1), atan(±i): infinite there too
        assert not np.isfinite(y[pole]).any(), f"{name}: finite at a pole: {x[pole]}"
        err = np.abs(y[~pole].astype(np.complex128) - want[~pole]) / np.maximum(
            np.abs(want[~pole]), 1e-300)
        worst[name] = float(np.max(err))
    print(suffix, {k: f"{v:.1e}" for k, v in worst.items()})
    bad = {k: v for k, v in worst.items() if not v <= BOUND[suffix]}
    assert not bad, f"relative errors above {BOUND[suffix]}: {bad} (all: {worst})"


@pytest.mark.parametrize("suffix", SUFFIXES)
def test_cuda_formulas_special_values(library, suffix):
    """The special-value grid: NumPy's (C99 Annex G) nan, inf and signed zeros, exactly."""
    x = _grid(SUFFIXES[suffix])
    failures = {}
    for name in FUNCTIONS:
        got, want = _run(library, name, suffix, x), _reference(name, x)
        with np.errstate(all="ignore"):
            truth = _reference(name, x.astype(np.complex128))
        truth = np.where(np.isfinite(want.real) & np.isfinite(want.imag), truth, want)
        where = _special_mismatches(got, want, True, truth)
        if where:
            failures[name] = (len(where), _describe(x, got, want, where))
    assert not failures, f"{len(failures)} functions of {len(FUNCTIONS)} differ on {x.size} " \
        "inputs:\n" + "\n".join(f"{k}: {n} differ\n{d}" for k, (n, d) in failures.items())


@pytest.mark.parametrize("suffix", SUFFIXES)
def test_cuda_power_special_values(library, suffix):
    """power on every pair of grid values: NumPy's zero-base, integer and general paths."""
    g = _grid(SUFFIXES[suffix])
    a, b = (v.ravel() for v in np.meshgrid(g, g))
    got, want, where = _power_mismatches(library, suffix, a, b)
    assert not where, f"{len(where)} of {a.size} differ:\n{_describe(a, got, want, where, b)}"


def _power_mismatches(library, suffix: str, a: np.ndarray, b: np.ndarray):
    """(got, NumPy's, [indices]) where a ** b breaks the rule of `_special_mismatches`, with the
    error that exp(b log a) carries (|b log a| ulps of its exponent, in NumPy's and in ours)."""
    got, want = _run(library, "cpow", suffix, a, b), _reference("cpow", a, b)
    with np.errstate(all="ignore"):  # (a signaling nan's cast is "invalid")
        a2, b2 = a.astype(np.complex128), b.astype(np.complex128)
        truth, w = _reference("cpow", a2, b2), b2 * np.log(a2)
        ulps = np.nan_to_num(4 + 4 * np.abs(b2) * np.abs(np.log(a2)), nan=4, posinf=np.inf)
        finite = np.isfinite(want.real) & np.isfinite(want.imag)
        # one component overflowed: |result| is out of range, the other is checked as finite
        over = np.isinf(want.real) ^ np.isinf(want.imag)
        truth = np.where(finite, truth, np.where(over, got, want).astype(np.complex128))
    truth.real[over & np.isinf(want.real)] = want.real[over & np.isinf(want.real)]
    truth.imag[over & np.isinf(want.imag)] = want.imag[over & np.isinf(want.imag)]
    where = _special_mismatches(got, want, False, truth, ulps)
    # where the angle of b log a is uncertain by more than its distance to an axis (|b log a|
    # eps against |cos| or |sin| of it) or b log a has a subnormal component (a few digits), the
    # signs of the result's components are noise: only its nan, inf and zero places are
    # compared (glibc's signs are no better)
    delta = ulps * np.finfo(want.real.dtype).eps
    with np.errstate(all="ignore"):
        noise = (delta > 0.5) | (np.abs(np.cos(w.imag)) < delta) | (np.abs(np.sin(w.imag)) < delta)
    for part in (w.real, w.imag):
        noise |= (part != 0) & (np.abs(part) < np.finfo(want.real.dtype).tiny)
    return got, want, [i for i in where if not (noise[i] and _same_kind(got[i], want[i]))]


def _random_bits(rng: np.random.Generator, dtype, n: int) -> np.ndarray:
    """Complex values whose components are random bit patterns (every magnitude, subnormals,
    inf, nan), moderate values of random scale or small integers (power's integer path)."""
    real = np.float32 if dtype == np.complex64 else np.float64
    uint = np.uint32 if real == np.float32 else np.uint64
    bits = rng.integers(0, np.iinfo(uint).max, (2, n), uint, endpoint=True).view(real)
    scaled = (rng.standard_normal((2, n)) * np.exp(rng.uniform(-30, 30, (2, n)))).astype(real)
    ints = rng.integers(-5, 5, (2, n)).astype(real)
    pick = rng.random((2, n))
    parts = np.where(pick < 0.4, bits, np.where(pick < 0.8, scaled, ints))
    z = np.empty(n, dtype)
    z.real, z.imag = parts
    return z


@pytest.mark.parametrize("suffix", SUFFIXES)
def test_cuda_formulas_on_random_bits(library, suffix):
    """50,000 values of every magnitude per function and for power (~1 s)."""
    rng = np.random.default_rng(29)
    x = _random_bits(rng, SUFFIXES[suffix], 50_000)
    for name in FUNCTIONS:
        got, want = _run(library, name, suffix, x), _reference(name, x)
        with np.errstate(all="ignore"):
            truth = _reference(name, x.astype(np.complex128))
        truth = np.where(np.isfinite(want.real) & np.isfinite(want.imag), truth, want)
        where = _special_mismatches(got, want, False, truth, ULPS)
        assert not where, f"{name}: {len(where)} differ\n{_describe(x, got, want, where)}"
    a, b = x, _random_bits(rng, SUFFIXES[suffix], x.size)
    got, want, where = _power_mismatches(library, suffix, a, b)
    assert not where, f"power: {len(where)} differ\n{_describe(a, got, want, where, b)}"


def _same_kind(g: complex, w: complex) -> bool:
    """nan, inf and zero in the same components (signs aside)."""
    return all(np.isnan(p) == np.isnan(q) and np.isinf(p) == np.isinf(q) and (p == 0) == (q == 0)
               for p, q in ((g.real, w.real), (g.imag, w.imag)))


_FLOAT = st.one_of(st.floats(allow_nan=True, allow_infinity=True), st.floats(-8, 8),
                   st.floats(-1e-3, 1e-3), st.sampled_from([0.0, -0.0, 1.0, -1.0]))


@pytest.mark.parametrize("suffix", SUFFIXES)
@settings(max_examples=60, deadline=None)
@given(parts=st.lists(st.tuples(_FLOAT, _FLOAT), min_size=1, max_size=64))
def test_cuda_formulas_at_every_magnitude(library, suffix, parts):
    dtype = SUFFIXES[suffix]
    x = np.empty(len(parts), dtype)
    with np.errstate(over="ignore"):
        x.real, x.imag = np.array(parts).T
    for name in FUNCTIONS:
        got, want = _run(library, name, suffix, x), _reference(name, x)
        truth = _reference(name, x.astype(np.complex128))
        truth = np.where(np.isfinite(want.real) & np.isfinite(want.imag), truth, want)
        # a negative NaN's sign bit: glibc's result carries it into an infinity's sign (asin of
        # inf - nan*j is nan - inf*j), the CUDA formulas do not (C99 leaves NaN signs open)
        negative_nan = ((np.isnan(x.real) & np.signbit(x.real))
                        | (np.isnan(x.imag) & np.signbit(x.imag)))
        where = _special_mismatches(got, want, False, truth, ULPS, unsigned=negative_nan)
        assert not where, f"{name}:\n{_describe(x, got, want, where)}"
