"""The inlining budget per translation unit (runtime/c/inline_budget.py, issue 11): a long chain
of heavy math calls its helpers out of line (compile time bounded), bits identical to inlined."""

import numpy as np
import pytest
from lazyarray.runtime import available_backends
from lazyarray.runtime.c import inline_budget as c_inline_budget
from lazyarray.runtime.c.printer import render_translation_unit

import lazyarray as la

def power(a):  # the binary heavy helpers (wrappers of two arguments): fpow, atantwo
    return la.power(la.abs(a), a * 0.125)


def arctan2(a):
    return la.arctan2(a, a * a - 2.0)


def logaddexp(a):  # a helper whose body inlines la_exp and la_log (c_prelude.py)
    return la.logaddexp(a, a * 0.5 - 1.0)


HEAVY = (la.exp, la.expm1, la.tanh, la.log, la.log1p, la.sin, la.cos, la.erf, la.erfc,
         la.arctan, la.arcsin, la.arccos, la.sinh, la.cosh, la.arcsinh, la.arccosh, la.arctanh,
         la.cbrt, la.log2, la.log10, la.exp2, power, arctan2, logaddexp)


def _unit(*outs) -> tuple[str, str]:
    """(kernel code, translation unit) of the plan the C backend would compile for `outs`."""
    code = [k.source for k in la.explain(*outs, backend="c").kernels]
    return "\n\n".join(code), render_translation_unit(code)


def _inlined_heavy_calls(code: str, unit: str) -> int:
    return 0 if c_inline_budget.OUT_OF_LINE in unit else c_inline_budget.heavy_calls(code)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_long_chain_calls_heavy_math_out_of_line(dtype):
    y = la.array(np.linspace(-2, 2, 1000, dtype=dtype))
    with la.config(max_graph_nodes=500):  # 180 ops: one graph (the default budget would cut it)
        for _ in range(60):
            y = la.exp(la.tanh(y) * 0.5)
    code, unit = _unit(y)
    suffix = "f32" if dtype == np.float32 else "f64"
    t = "float" if dtype == np.float32 else "double"
    assert c_inline_budget.heavy_calls(code) >= 120  # 60 of each, in one kernel
    for name in ("tanh", "exp"):
        assert f"{c_inline_budget.OUT_OF_LINE} {t} la_{name}_{suffix}_ool(" in unit
        assert f"#define la_{name}_{suffix}(a) la_{name}_{suffix}_ool(a)" in unit
    assert unit.index("#define") < unit.index("(char *const *p")  # before the kernels only
    assert _inlined_heavy_calls(code, unit) <= c_inline_budget.INLINE_BUDGET


def test_past_the_budget_the_cheap_trig_reduction_goes_out_of_line_too():
    """A pairwise sum's leaf loop of `c0 * exp(-x**2) + c1 * sin(3x) + c2 * x**3` at two shifted
    positions (np.trapezoid's): past the budget exp and power are out-of-line clones; sin's
    cheap-reduction variant (the loop's `la_sinnear`) must be one too, or the loop runs scalar
    (~5x slower)."""
    x = la.array(np.linspace(0.0, 2.0, 20001))  # above eager_size: one lazy plan
    y = 1.3 * la.exp(-x ** 2) + 1.6 * la.sin(3 * x) + 1.2 * x ** 3
    code, unit = _unit(la.trapezoid(y, x))
    assert "la_sinnear_f64(" in code and c_inline_budget.OUT_OF_LINE in unit
    for name in ("sinnear", "exp", "fpow"):
        assert f"la_{name}_f64_ool(" in unit and f"#define la_{name}_f64(" in unit


def test_inlined_helpers_are_always_inlined():
    """sin's near and far loops call power twice: gcc inlined it at one call site and refused at
    two, and the call left both loops scalar (57 ns an element against 13). Within the budget
    every helper is `always_inline`."""
    from lazyarray.runtime.c.prelude import ALWAYS_INLINE

    x = la.array(np.linspace(0.0, 2.0, 20001))
    code, unit = _unit(1.6 * la.sin(3 * x) + 1.2 * x ** 3)
    assert c_inline_budget.OUT_OF_LINE not in unit
    for name in ("fpow", "sin", "sinnear"):
        assert f"{ALWAYS_INLINE} double la_{name}_f64(" in unit


def test_logaddexp_counts_against_the_budget():
    """logaddexp's helpers inline la_exp and la_log in their own bodies, where the count of heavy
    calls in kernel code never saw them: 20 mixed-dtype logaddexps in one unit ran cc1 for 14 s
    (test_dask's 112: > 11 min). Past the budget they go out of line like the others (0.3 s)."""
    xs = [la.array(np.linspace(-3.0, 3.0, 50) + k) for k in range(c_inline_budget.INLINE_BUDGET)]
    code, unit = _unit(*[logaddexp(x) for x in xs], *[logaddexp(x * 2.0) for x in xs])
    assert c_inline_budget.heavy_calls(code) == 2 * c_inline_budget.INLINE_BUDGET
    assert "la_logaddexp_f64_ool(double a, double b)" in unit


def test_small_kernels_keep_inlined_math():
    """gelu, an LSTM nonlinearity, softmax: under the budget, the code is unchanged (inlined)."""
    x = la.array(np.linspace(-2, 2, 64, dtype=np.float32).reshape(8, 8))
    sig = la.nn.sigmoid
    for out in (la.nn.gelu(x), sig(x) * la.tanh(x) + sig(x * 2) * la.tanh(x * 3),
                la.nn.softmax(x, axis=-1)):
        code, unit = _unit(out)
        assert 0 < c_inline_budget.heavy_calls(code) <= c_inline_budget.INLINE_BUDGET
        assert c_inline_budget.OUT_OF_LINE not in unit and "static inline" in unit


def _inputs(dtype) -> tuple[np.ndarray, np.ndarray]:
    """1013 values (vector body, remainder and tail) over the functions' ranges and edges."""
    rng = np.random.default_rng(3)
    info = np.finfo(dtype)
    edges = [0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 1e-30, -1e-30, info.tiny / 4,
             info.max, -info.max, 88.7, -103.0, 709.5, -745.0, 0.5, 1e6, -0.999999]
    x = np.concatenate([rng.standard_normal(500) * 3, rng.uniform(-200, 200, 300),
                        np.exp(rng.uniform(-60, 60, 194)), edges]).astype(dtype)
    return x, rng.uniform(-30, 30, (7, 37)).astype(dtype)


@pytest.mark.skipif("c" not in available_backends(), reason="no C compiler")
@pytest.mark.exhaustive  # ~4 s of heavy math compiles per dtype (stop 56: the fast tier's time;
@pytest.mark.parametrize("dtype", [np.float32, np.float64])  # the units that call the library
# out of line are checked against NumPy there by every op test)
def test_out_of_line_math_is_bit_identical(dtype, monkeypatch, fresh_caches, tmp_path):
    """The same values through inlined helpers (one unit) and out-of-line ones (another unit):
    elementwise loops and the 8-lane reduction loops of softmax and sum(exp)."""
    x, s = _inputs(dtype)
    results = []
    with la.config(backend="c", cache_dir=str(tmp_path)), np.errstate(all="ignore"):
        for budget in (10**9, 0):
            monkeypatch.setattr(c_inline_budget, "INLINE_BUDGET", budget)
            a, b = la.array(x), la.array(s)
            outs = [f(a) for f in HEAVY] + [la.nn.softmax(b, axis=1), la.sum(la.exp(b), axis=1)]
            if budget == 0:  # both kernels' text changes: compiled again, not found in memory
                outs += [a + 1, la.max(b, axis=1) + 1]
            _, unit = _unit(*outs)
            assert (c_inline_budget.OUT_OF_LINE in unit) == (budget == 0)
            with la.errstate(all="ignore"):  # special values on purpose
                la.eval(outs)
            results.append([np.asarray(o) for o in outs[:len(HEAVY) + 2]])
        info = la.cache_info()
    assert info.kernels_compiled == 4 and info.kernel_memory_hits == 0
    for f, inlined, out_of_line in zip([f.__name__ for f in HEAVY] + ["softmax", "sum exp"],
                                       *results):
        assert inlined.dtype == out_of_line.dtype == dtype
        np.testing.assert_array_equal(inlined.view(f"u{inlined.itemsize}"),
                                      out_of_line.view(f"u{inlined.itemsize}"), err_msg=f)


@pytest.mark.exhaustive  # compiles the whole helper library (~5 s; the fast tier's budget)
@pytest.mark.skipif("c" not in available_backends(), reason="no C compiler")
def test_the_shared_helper_library_gives_the_same_bits(monkeypatch, fresh_caches, tmp_path):
    """Past LIBRARY_BUDGET, a unit declares the wrappers of the directory's helper library
    (runtime/c/helper_library.py) instead of compiling its own: same values bit for bit as the
    inlined helpers, in elementwise loops and 8-lane reductions, float32 and float64."""
    from lazyarray.runtime.c import compiler as c_compiler, helper_library as c_helper_library

    la.wait_for_compiles()  # an earlier test's queued compile picks its directory when it runs
    x32, s32 = _inputs(np.float32)
    x64, s64 = _inputs(np.float64)
    results = []
    for library in (False, True):
        with la.config(backend="c", cache_dir=str(tmp_path / str(library))), \
                np.errstate(all="ignore"):
            if library:  # the same kernels again: not from memory, not from disk
                la.clear_caches()
                for table in ("_functions", "_libraries", "_symbol_of_key"):
                    monkeypatch.setattr(c_compiler, table, {})
                directory = c_compiler.kernel_dir()
                assert c_helper_library.build(directory, c_compiler.toolchain())
                monkeypatch.setattr(c_inline_budget, "LIBRARY_BUDGET", 0)
            outs = []
            for x, s in ((x32, s32), (x64, s64)):
                a, b = la.array(x), la.array(s)
                outs += [f(a) for f in HEAVY] + [la.nn.softmax(b, axis=1),
                                                 la.sum(la.exp(b), axis=1)]
            la.eval(outs)
            results.append([np.asarray(o) for o in outs])
    la.wait_for_compiles()
    units = [u for p in directory.glob("lib-*.c") if c_inline_budget.heavy_calls(u := p.read_text())]
    declared = "la_exp_f32_ool(float a);"  # a declaration: the library defines it
    assert units and all(declared in u for u in units)
    assert all("la_exp_f32_ool(float a) {" not in u for u in units)
    for inlined, shared in zip(*results):
        assert inlined.dtype == shared.dtype
        np.testing.assert_array_equal(inlined.view(f"u{inlined.itemsize}"),
                                      shared.view(f"u{inlined.itemsize}"))
