"""float16 as NumPy has it: float16 arrays stay float16, float functions of int8/uint8/bool are
float16 (`np.sqrt(uint8_image)`), and every value, dtype and warning is NumPy's bit for bit, on
every backend, on the at-once path and on plans (`eager_size=0`: a plan holding float16 runs on
NumPy's half loops, runtime/c/backend.py). The functions lazyarray composes from several ops follow
NumPy's half rules (mean in float32, var in float16, deg2rad and ldexp rounded once, half spacing)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import lazyarray as la
from together import compile_together
from numpy_oracle import ULPS
from sites import assert_site

# cupy refuses programs holding float16 (test_the_cupy_backend_refuses_half_programs_clearly)
pytestmark = pytest.mark.needs("half")

_RNG = np.random.default_rng(16)


def _halves(n: int = 300) -> np.ndarray:
    a = (_RNG.standard_normal(n) * 3).astype(np.float16)
    a[:9] = [0, -0.0, np.inf, -np.inf, np.nan, 65504, 6e-8, 0.5, -1.0]
    return a


def _ints(dtype: str, n: int = 300) -> np.ndarray:
    if dtype == "bool":
        return _RNG.random(n) < 0.5
    info = np.iinfo(dtype)
    return _RNG.integers(max(info.min, -100), min(info.max, 100), n).astype(dtype)


H, M = _halves(), _halves(600).reshape(30, 20)
UNARY = ("sqrt", "exp", "log", "sin", "arctan", "tanh", "cbrt", "square", "reciprocal",
         "negative", "absolute", "sign", "floor", "rint", "isnan", "isfinite", "signbit",
         "spacing", "deg2rad", "rad2deg", "degrees", "radians", "sinc", "round", "nan_to_num")
BINARY = ("add", "subtract", "multiply", "divide", "floor_divide", "remainder", "power",
          "maximum", "fmin", "arctan2", "hypot", "copysign", "nextafter", "logaddexp", "greater")
OTHERS = {
    "f16 x2 (float16)": (BINARY, lambda: (H, H[::-1].copy())),
    "f16, py float": (BINARY, lambda: (H, 2.5)),
    "f16, f32": (BINARY, lambda: (H, H.astype(np.float32))),
    "f16, u8": (BINARY, lambda: (H, _ints("uint8"))),
}
REDUCTIONS = ("sum", "prod", "mean", "var", "std", "max", "argmin", "cumsum", "nansum",
              "nanmean", "nanvar", "nanstd", "median", "ptp", "average")
CALLS = {
    "astype f64->f16": lambda m, x: m.asarray(x).astype(np.float64).astype(m.float16) * 3e4,
    # (in range: out-of-range float -> int casts are lazyarray's defined saturation, on every
    # float dtype: docs/semantics.md)
    "astype f16->i16": lambda m, x: (m.clip(x[9:], -300, 300) * 100).astype(m.int16),
    "zeros, arange, linspace": lambda m, x: m.concatenate([
        m.zeros(3, dtype=m.float16), m.arange(0, 3, 0.1, dtype=m.float16),
        m.linspace(0, 1, 11, dtype=m.float16), m.array([0.1, 70000.0], dtype=m.float16)]),
    "where": lambda m, x: m.where(x > 0, x, m.float16(0)),
    "clip": lambda m, x: m.clip(x, -1.5, 2.7),
    "x * 2.7 + 1": lambda m, x: x * 2.7 + 1,
    "x ** 2, x ** 0.5": lambda m, x: m.concatenate([x ** 2, abs(x) ** 0.5]),
    "divmod": lambda m, x: m.divmod(x, 1.5),
    "modf": lambda m, x: m.modf(x),
    "frexp": lambda m, x: m.frexp(x),
    "ldexp": lambda m, x: m.ldexp(x, 3),
    "fft": lambda m, x: m.fft.fft(x[9:73]),
    "matmul, dot": lambda m, x: m.concatenate([(m.reshape(x[:20], (4, 5)) @ m.reshape(
        x[20:40], (5, 4))).ravel(), m.dot(x[40:60], x[60:80]).ravel()]),
    "convolve": lambda m, x: m.convolve(x[9:60], x[60:66]),
    "vecdot, vdot, einsum": lambda m, x: m.concatenate([
        m.vecdot(m.reshape(x[:240], (8, 30)), m.reshape(x[60:], (8, 30))),
        m.reshape(m.vdot(x[9:], x[::-1][:-9]), (1,)),
        m.einsum("ij,ij->i", m.reshape(x[:240], (8, 30)), m.reshape(x[60:], (8, 30))),
        m.einsum("ij->j", m.reshape(x[9:249], (8, 30))),
        m.einsum("ij->i", m.reshape(x[9:249], (8, 30)))]),
    "column sums of expressions": lambda m, x: m.sum(m.reshape(x[9:249], (40, 6)) * 3 + 1, axis=0),
    "histogram": lambda m, x: m.histogram(x[9:], bins=5)[1],
    "percentile": lambda m, x: m.percentile(x[9:], [30, 50]),
    "sort, unique": lambda m, x: m.concatenate([m.sort(x), m.unique(x)]),
    "isclose": lambda m, x: m.isclose(x, x + m.float16(0.001)),
    "mean where": lambda m, x: m.mean(x, where=x > 0),
    "var ddof": lambda m, x: m.var(x[9:], ddof=1),
}


def _run(mod, fn, args):
    """fn's result as NumPy arrays (or the exception's type), and the warnings it gave."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            out = fn(mod, *[mod.asarray(a) if isinstance(a, np.ndarray) else a for a in args])
            out = tuple(np.asarray(o) for o in out) if isinstance(out, tuple) else np.asarray(out)
        except (TypeError, ValueError) as exc:
            out = type(exc).__name__
    return out, sorted({str(w.message) for w in caught})


def _same(got, want) -> bool:
    """float16, integer and bool results bit for bit; float32/64 and complex ones (C's own math
    on widened halves, as on float32 inputs) within the oracle's ULPS of the result or of 1 (the
    operands' scale: logaddexp(-0.69, -0.69) cancels to 0.0032)."""
    if isinstance(want, tuple):
        return isinstance(got, tuple) and len(got) == len(want) and all(map(_same, got, want))
    if isinstance(want, str) or isinstance(got, str):
        return got == want
    if got.dtype != want.dtype or got.shape != want.shape:
        return False
    if want.dtype.kind in "fc" and want.dtype != np.float16:
        info = np.finfo(want.dtype)
        return np.allclose(got, want, rtol=ULPS * float(info.eps), atol=ULPS * float(info.eps),
                           equal_nan=True)
    # a NaN's sign aside: where an input NaN meets inf - inf in a sum, which NaN comes out is
    # the compiled fold's operand order (gcc commutes additions; NumPy specifies none)
    numbers = ~np.isnan(want) if want.dtype.kind == "f" else True
    return (np.array_equal(got, want, equal_nan=want.dtype.kind == "f")
            and (want.dtype.kind != "f" or np.array_equal(np.signbit(got)[numbers],
                                                           np.signbit(want)[numbers])))


def _check(fn, *args, skip_warning: str | None = None) -> None:
    want, want_w = _run(np, fn, args)
    for eager_size in (None, 0):  # the at-once path, then plans (the NumPy executor on C)
        with la.config(**({} if eager_size is None else {"eager_size": eager_size})):
            got, got_w = _run(la, fn, args)
        assert _same(got, want), (eager_size, got, want)
        assert [w for w in got_w if w != skip_warning] == [
            w for w in want_w if w != skip_warning], (eager_size, got_w, want_w)


UNARY_DTYPES = ("float16", "int8", "uint8", "bool")
_COMPILED: dict = {}  # the settings whose sweep's kernels are compiled (tests/together.py)


def _compile_together(sweep: str, backend: str, builders) -> None:
    """The C kernels of a sweep's every case in one unit per round, at once and on plans (the
    two settings `_check` runs under): a compile per op and int dtype was 75 units, ~5 s of the
    fast tier's CPU at stop 52."""
    for eager_size in (None, 0):
        with la.config(**({} if eager_size is None else {"eager_size": eager_size})):
            compile_together(_COMPILED, (sweep, backend, eager_size), builders)


def _unary_builders() -> list:
    return [lambda d=d, n=n: getattr(la, n)(la.asarray(H if d == "float16" else _ints(d)))
            for d in UNARY_DTYPES for n in UNARY]


@pytest.mark.xdist_group("test_unary_functions_of_halves_and_small_ints_are_numpys")
@pytest.mark.parametrize("dtype, name", [pytest.param(d, n, id=f"{d}-{n}") for d in UNARY_DTYPES
                                         for n in UNARY])
def test_unary_functions_of_halves_and_small_ints_are_numpys(backend, name, dtype):
    x = H if dtype == "float16" else _ints(dtype)
    if dtype == "bool" and name in ("negative", "sign"):
        pytest.skip("NumPy has no bool loop (tested by the op sweeps)")
    _compile_together("unary", backend, _unary_builders())
    # NumPy's half spacing also raises 'invalid' for inf and NaN (docs/semantics.md)
    _check(lambda m, v: getattr(m, name)(v), x,
           skip_warning="invalid value encountered in spacing" if name == "spacing" else None)


@pytest.mark.xdist_group("test_binary_functions_with_halves_are_numpys")
@pytest.mark.parametrize("operands", list(OTHERS))
def test_binary_functions_with_halves_are_numpys(backend, operands):
    names, make = OTHERS[operands]
    _compile_together("binary", backend, [
        lambda n=n, args=m(): getattr(la, n)(*(la.asarray(a) if isinstance(a, np.ndarray) else a
                                              for a in args))
        for ns, m in OTHERS.values() for n in ns])
    for name in names:
        _check(lambda m, a, b: getattr(m, name)(a, b), *make())


@pytest.mark.parametrize("name", REDUCTIONS)
@pytest.mark.parametrize("axis", [None, 0, 1])
def test_reductions_of_halves_are_numpys(backend, name, axis):
    """NumPy sums float16 in float32 blocks (its pairwise add), `mean` in float32, `var` in
    float16: the NumPy executor runs the same loops."""
    if axis is not None and name in ("median", "average"):
        _check(lambda m, v: getattr(m, name)(v, axis=axis), M)
    elif axis is None:
        _check(lambda m, v: getattr(m, name)(v), M)
    else:
        _check(lambda m, v: getattr(m, name)(v, axis=axis), M)


@pytest.mark.parametrize("name", list(CALLS))
def test_half_calls_are_numpys(backend, name):
    _check(CALLS[name], H)


def test_half_values_print_and_convert_as_numpys(backend):
    """The reason the dtype matters to users: `np.sqrt(uint8)` prints NumPy's 4 digits."""
    img = np.array([[1, 2], [3, 250]], np.uint8)
    got, want = la.sqrt(la.asarray(img)), np.sqrt(img)
    assert repr(got) == repr(want) and str(got) == str(want)
    assert got.tolist() == want.tolist() and float(got[0, 1]) == float(want[0, 1])
    assert la.result_type(la.float16, la.int8) == np.result_type(np.float16, np.int8)
    assert la.half is np.float16 and la.finfo(la.float16).eps == np.finfo(np.float16).eps


def test_half_arithmetic_runs_on_numpys_loops_and_conversions_compile(fresh_caches):
    """No C kernel computes on float16 (NumPy rounds each op to half): such a plan runs the NumPy
    executor and compiles nothing. Loading halves into float32 work, or storing a float32 result
    as halves, compiles as any plan (`needs_half_loops`)."""
    from lazyarray.graph import Graph
    from lazyarray.graph.kernel_ir import needs_half_loops
    from lazyarray.passes import optimize

    with la.config(backend="c", eager_size=0, background_compiles=False):
        y = la.sqrt(la.asarray(H) * 2 + 1)
        assert needs_half_loops(optimize(Graph([y._node])))
        with np.errstate(all="ignore"):
            np.testing.assert_array_equal(np.asarray(y), np.sqrt(H * 2 + 1))
        info = la.cache_info()
        assert info.plans_built == 1 and info.kernels_compiled + info.kernels_queued == 0
        for z in (la.exp(la.asarray(H).astype(la.float32)) * 2,
                  (la.asarray(H.astype(np.float32)) * 3).astype(la.float16),
                  la.argmax(la.asarray(H))):
            program = optimize(Graph([z._node]))
            assert needs_half_loops(program) == (z.dtype == np.int64)  # argmax compares halves
            la.block_until_ready(z)
        info = la.cache_info()  # (compiled here, or by another test worker: the disk cache)
        assert info.kernels_compiled + info.kernel_disk_hits + info.kernel_memory_hits >= 2


@pytest.mark.parametrize("wide", ["float32", "float64"])
def test_c_converts_halves_as_numpy_bit_for_bit(backend, wide):
    """Every half widened, and random bit patterns of the wide type (NaN payloads, subnormals,
    ties, values rounding to inf) narrowed, as NumPy's npy_half conversions: the C kernels do it
    on the bits (runtime/c/prelude.py `_half_cast`), vectorized."""
    bits = np.dtype(wide).itemsize * 8
    uint = np.dtype(f"uint{bits}")
    halves = np.arange(65536, dtype=np.uint16).view(np.float16)
    with la.config(eager_size=0):
        got = np.asarray(la.asarray(halves).astype(wide))
        np.testing.assert_array_equal(got.view(uint), halves.astype(wide).view(uint))
        rng = np.random.default_rng(bits)
        x = np.concatenate([
            rng.integers(0, 2 ** bits, 200_000, dtype=np.uint64).astype(uint).view(wide),
            halves.astype(wide) * np.array(1 + 2.0 ** -11, wide),  # ties between halves
            np.array([65519.99, 65520, 65535.9, 2.0 ** -25, 2.0 ** -24 * 1.5, -0.0], wide)])
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            got = np.asarray(la.asarray(x).astype(la.float16))
        with warnings.catch_warnings(record=True) as theirs:
            warnings.simplefilter("always")
            want = x.astype(np.float16)
    np.testing.assert_array_equal(got.view(np.uint16), want.view(np.uint16))
    assert [str(w.message) for w in caught] == [str(w.message) for w in theirs]


@pytest.mark.parametrize("name", ["inv", "det", "solve", "cholesky", "qr", "svd", "eigh",
                                  "slogdet", "pinv", "lstsq", "cond", "eigvals"])
@pytest.mark.parametrize("which", ["first", "second"])
def test_linalg_refuses_halves_at_the_call_as_numpy(reference_backend, name, which):
    """NumPy's linalg has no float16 loops: its TypeError at the user's line, not an evaluation
    error when the plan runs (a float16 right-hand side beside float32 too)."""
    a, b = np.eye(3, dtype=np.float16), np.ones((3, 3), np.float16)
    if which == "second":
        if name not in ("solve", "lstsq"):
            pytest.skip("one operand")
        a = a.astype(np.float32)
    args = (a, b) if name in ("solve", "lstsq") else (a,)
    with pytest.raises(TypeError, match="array type float16 is unsupported in linalg"):
        getattr(np.linalg, name)(*args)
    with pytest.raises(TypeError, match="array type float16 is unsupported in linalg") as info:
        getattr(la.linalg, name)(*[la.asarray(x) for x in args])
    assert_site(info, r"test_float16\.py")


def test_norm_of_halves_is_numpys(backend):
    """linalg.norm is NumPy Python code over ufuncs, which have float16 loops: no refusal."""
    a = H[9:].reshape(-1, 3)
    for args in ((a,), (a, None, 1), (a[:, 0],), (a, "fro")):
        _check(lambda m, v: m.linalg.norm(v, *args[1:]), args[0])


def test_the_cupy_backend_refuses_half_programs_clearly():
    """On cupy a program holding float16 raises a TypeError that says what to do (its generated
    CUDA has no half arithmetic); a float32 program of the same shape is not refused there. No
    device needed: the refusal comes before any CuPy call."""
    from cuda_corpus import program_of
    from lazyarray.runtime.cuda.backend import CupyBackend

    cupy = CupyBackend()
    for program in (program_of(la.asarray(_halves()) * 2),  # half arithmetic
                    program_of(la.sqrt(la.asarray(_ints("int8")))),  # NumPy's float16 loop
                    program_of(la.asarray(_halves()).astype(np.float32))):  # a half input
        with pytest.raises(TypeError, match=r"float16 values on the cupy backend.*float32"):
            cupy.compile(program)
    plan = None
    try:
        plan = cupy.compile(program_of(la.asarray(_halves().astype(np.float32)) * 2))
    except ImportError:  # no CuPy here: rendering passed the float16 check, loading needs CuPy
        pass
    assert plan is None or cupy.stats["plans"] == 1
