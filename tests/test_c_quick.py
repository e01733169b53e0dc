"""Quick builds (runtime/c/quick.py): a plan the NumPy executor cannot stand in for runs on -O0
builds of its kernels while the -O3 build compiles in the background, so a cold evaluation waits
for no -O3 compile, and both builds give the same bits (issue 9: a loop may switch at any
iteration)."""

import threading

import numpy as np
import pytest
from lazyarray.graph import all_ops
from lazyarray.runtime.c import backend as c_backend, quick as c_quick, tiered as c_tiered
from lazyarray.runtime.c.backend import CBackend
from conftest import fresh_kernel_memory
from test_c_tiered import hold_the_compiler, numpy_case, same_bits

import c_programs as P
import lazyarray as la

pytestmark = pytest.mark.skipif(CBackend.unavailable_reason() is not None,
                                reason="no working C compiler")
WAIT_S = 120


@pytest.fixture
def background(tmp_path):
    """Background compiles on, a fresh kernel cache, empty caches; compiles finished after."""
    from lazyarray.runtime.c import compiler as c_compiler

    saved = c_compiler.cache_dir_override
    c_compiler.cache_dir_override = str(tmp_path)
    la.clear_caches()
    with la.config(cache_dir=str(tmp_path), background_compiles=True), fresh_kernel_memory():
        yield
        assert la.wait_for_compiles(WAIT_S)
    la.clear_caches()
    c_compiler.cache_dir_override = saved


def _values(dtype: str) -> np.ndarray:
    """Edge values and a spread of magnitudes (the trig functions' far reduction included)."""
    info = np.finfo(dtype)
    rng = np.random.default_rng(46)
    spread = rng.standard_normal(40) * 10.0 ** rng.integers(-8, 8, 40)
    return np.concatenate([[0.0, -0.0, 1.0, -1.0, 0.5, -2.5, 7.0, 1e30, -1e30, np.inf, -np.inf,
                            np.nan, info.max, info.tiny, info.smallest_subnormal, 2.0 ** 31,
                            131072.5, -3e5, 1e22], spread]).astype(dtype)


def _cases(names: set[str] | None):
    """(name, inputs, output dtype): elementwise float ops the NumPy executor does not run
    (`numpy_bits` unset), on float32 and float64, all pairs of values for binary ops."""
    cases = []
    for op in all_ops():
        if ("numpy_bits" in op.properties or op.kind.name != "ELEMENTWISE" or op.arity > 2
                or op.template("f") is None or (names is not None and op.name not in names)):
            continue
        for dtype in ("float32", "float64"):
            v = _values(dtype)
            xs = [v] if op.arity == 1 else [a.ravel() for a in np.meshgrid(v, v[::3])]
            case = numpy_case(op, xs)
            if case is not None:
                cases.append(case)
    return cases


@pytest.mark.parametrize("names", [
    {"exp", "sin", "arctan2", "power"},  # fast tier: one -O0 and one -O3 unit
    pytest.param(None, marks=pytest.mark.exhaustive)])  # every such op
def test_quick_and_optimised_builds_give_the_same_bits(background, names, monkeypatch):
    from lazyarray.runtime.c import compiler as c_compiler

    # kernels an earlier test of this process loaded at -O3 would stand in for the quick builds
    monkeypatch.setattr(c_compiler, "_functions", {})
    monkeypatch.setattr(c_quick, "_functions", {})
    cases = _cases(names)
    assert names is None or {c[0] for c in cases} == names
    program = P.merge_programs([P.elementwise_program(name, [x.dtype for x in xs], out,
                                                      xs[0].size) for name, xs, out in cases])
    inputs = [x for _, xs, _ in cases for x in xs]
    found = c_backend._find_kernels(program, look_up=False)
    rendered = [c_backend._render_cached(*f[3])[1:] for f in found]
    quick = c_backend._finish_plan(program, found,
                                   c_quick.quick_kernels(rendered, c_backend.translation_unit))
    assert la.cache_info().quick_kernels == len(dict(rendered))
    with np.errstate(all="ignore"):
        got = quick.run(inputs, [])
        want = CBackend().compile(program).run(inputs, [])
    bad = [f"{name}({xs[0].dtype})" for (name, xs, _), g, w in zip(cases, got, want)
           if not same_bits(g, w)]
    assert not bad, bad


def test_a_cold_plan_the_numpy_executor_cannot_run_waits_for_no_compile(background):
    """exp and a float max fold: quick kernels run while -O3 is held, then the -O3 kernels, with
    the same bits; the plan never waited for the compiler."""
    x = la.array(np.random.default_rng(0).standard_normal((6, 19)).astype(np.float32))

    def f(s):
        return la.max(la.exp(x * s), axis=1) + la.sum(la.sin(x), axis=1)

    with hold_the_compiler() as held:
        first = [np.asarray(f(s)) for s in (0.5, 1.5)]
        info = la.cache_info()
        assert (info.compile_waits, info.kernels_compiled, info.interpreted_runs) == (0, 0, 0)
        assert info.quick_kernels >= 1 and info.stand_in_runs == 2
        assert not c_tiered.runs_same_bits(_program(f(0.5)))
    assert held.calls  # the -O3 build was queued
    second = [np.asarray(f(s)) for s in (0.5, 1.5)]
    info = la.cache_info()
    assert info.stand_in_runs == 2 and info.compile_waits == 0  # the -O3 kernels ran
    assert all(same_bits(a, b) for a, b in zip(first, second))
    with np.errstate(all="ignore"):
        want = [np.max(np.exp(np.asarray(x) * s), axis=1) for s in (0.5, 1.5)]
    assert all(np.allclose(a, w + np.sum(np.sin(np.asarray(x)), axis=1), rtol=1e-5)
               for a, w in zip(second, want))


def test_a_costly_quick_run_waits_for_the_optimised_build(background, monkeypatch):
    monkeypatch.setattr(c_quick, "QUICK_MAX_COST", 100)
    np.asarray(la.exp(la.array(np.ones(200, np.float32))))
    info = la.cache_info()
    assert (info.compile_waits, info.quick_kernels, info.kernels_compiled) == (1, 0, 1)


def test_a_plan_waits_for_its_optimised_build_once_its_stand_in_runs_cost_enough(
        background, monkeypatch):
    """Past STAND_IN_PATIENCE_S of quick runs a loop would starve the (niced) compiler: the next
    run waits for the -O3 kernels."""
    monkeypatch.setattr(c_tiered, "STAND_IN_PATIENCE_S", 0.0)
    x = la.array(np.linspace(-1, 1, 8, dtype=np.float32))
    with hold_the_compiler() as held:
        releaser = threading.Timer(0.2, held.release.set)
        releaser.start()
        y = np.asarray(la.exp(x))
        releaser.join(WAIT_S)
        info = la.cache_info()
        assert (info.stand_in_runs, info.compile_waits, info.kernels_compiled) == (0, 1, 1)
    np.testing.assert_allclose(y, np.exp(np.linspace(-1, 1, 8, dtype=np.float32)), rtol=1e-6)


def test_a_quick_build_that_cannot_load_waits_for_the_optimised_one(background, monkeypatch):
    def unloadable(missing, header_source):
        raise OSError("failed to map segment from shared object (test)")

    monkeypatch.setattr(c_quick, "_compile", unloadable)
    y = np.asarray(la.exp(la.array(np.zeros(8, np.float32))))
    info = la.cache_info()
    assert (info.compile_waits, info.quick_kernels, info.kernels_compiled) == (1, 0, 1)
    np.testing.assert_array_equal(y, np.ones(8, np.float32))


def test_large_programs_the_numpy_executor_runs_wait_for_no_compile(background, monkeypatch):
    """Past INTERPRET_MAX_WORK a same-bits plan runs on quick builds (before stop 46 it waited)."""
    monkeypatch.setattr(c_tiered, "INTERPRET_MAX_WORK", 100)
    with hold_the_compiler():
        y = np.asarray(la.array(np.ones(200, np.float32)) * 3.0 + 1.0)
        info = la.cache_info()
        assert (info.compile_waits, info.quick_kernels, info.interpreted_runs) == (0, 1, 0)
    np.testing.assert_array_equal(y, np.full(200, 4.0, np.float32))


def test_interpreted_bytes_bound_the_numpy_executor(background, monkeypatch):
    """A kernel whose interpreted values would hold more than INTERPRET_MAX_BYTES is not
    interpreted (the flat executor keeps every expression's array until the stores)."""
    monkeypatch.setattr(c_tiered, "INTERPRET_MAX_BYTES", 200 * 4)
    with hold_the_compiler():
        np.asarray(la.array(np.ones(200, np.float32)) * 3.0 + 1.0)
        info = la.cache_info()
        assert (info.interpreted_runs, info.stand_in_runs) == (0, 1)


def _program(y):
    from lazyarray.passes import optimize
    from test_c_tiered import _graph

    return optimize(_graph(y))
