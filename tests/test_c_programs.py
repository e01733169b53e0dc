"""The C backend runs hand-built kernel-IR Programs like NumPy: views, reductions, multi-output,
library calls, storage reuse; kernels are size-generic; plans are thread-safe; goldens pin the C."""

import os
import threading
from pathlib import Path

import c_programs as P
import numpy as np
import pytest
from lazyarray.runtime.c import compiler as c_compiler
from lazyarray.runtime import compile_stats
from lazyarray.runtime.backend import BackendUnavailable, get_backend
from lazyarray.runtime.c.backend import CBackend
from lazyarray.runtime.c.layout import plan_layout
from lazyarray.runtime.c.printer import render_kernel

# One worker runs this module (`--dist loadgroup`): its module fixture compiles every case once.
pytestmark = [pytest.mark.skipif(CBackend.unavailable_reason() is not None,
                                 reason="no working C compiler"),
              pytest.mark.xdist_group("test_c_programs")]
GOLDEN = Path(__file__).parent / "golden"


@pytest.fixture(scope="module")
def backend(tmp_path_factory):
    saved = c_compiler.cache_dir_override
    c_compiler.cache_dir_override = str(tmp_path_factory.mktemp("kernels"))
    yield CBackend()
    c_compiler.cache_dir_override = saved


CASES = {
    "sigmoid": lambda: P.sigmoid(1003),
    "broadcast_transpose_flip": lambda: P.broadcast_transpose_flip(37, 53),
    "mean_rows": lambda: P.mean_rows(19, 1001),
    "softmax": lambda: P.softmax(33, 257),
    "argmax_cols": lambda: P.argmax_cols(29, 13),
    "multi_output": lambda: P.multi_output(77),
    "matmul_relu": lambda: P.matmul_relu(17, 9, 23),
    "matmul_transposed_relu": lambda: P.matmul_relu(17, 9, 23, transposed=True),
    "scattered_scalars": lambda: P.scattered_scalars(41),
}


@pytest.fixture(scope="module")
def plans(backend):
    """Every case compiled as one translation unit (compiles are ~0.1 s each; batch them)."""
    built = {name: make() for name, make in CASES.items()}
    merged = P.merge_programs([b[0] for b in built.values()])
    backend.compile(merged)
    return {name: (backend.compile(b[0]), *b[1:]) for name, b in built.items()}


@pytest.mark.parametrize("name", sorted(CASES))
def test_program_matches_numpy(plans, name):
    plan, arrays, scalars, expected = plans[name]
    got = plan.run(arrays, scalars)
    assert len(got) == len(expected)
    for g, e in zip(got, expected):
        assert g.dtype == np.asarray(e).dtype or g.dtype == np.float32
        np.testing.assert_allclose(g, e, rtol=2e-6, atol=2e-6)


def test_outputs_are_fresh_arrays(plans):
    plan, arrays, scalars, _ = plans["sigmoid"]
    a, = plan.run(arrays, scalars)
    b, = plan.run(arrays, scalars)
    assert a is not b and not np.shares_memory(a, b)
    assert a.flags.owndata and a.flags.writeable


def test_new_sizes_compile_nothing(backend, plans):
    compile_stats.reset()
    for n in (5, 4096, 100_000):
        plan = backend.compile(P.sigmoid(n)[0])
        prog, arrays, scalars, expected = P.sigmoid(n)
        np.testing.assert_allclose(plan.run(arrays, scalars)[0], expected[0], rtol=2e-6)
    for rows, cols in ((1, 9), (64, 1024)):
        prog, arrays, scalars, expected = P.softmax(rows, cols)
        np.testing.assert_allclose(backend.compile(prog).run(arrays, scalars)[0], expected[0],
                                   rtol=2e-6, atol=1e-7)
        prog, arrays, scalars, expected = P.broadcast_transpose_flip(rows + 1, cols)
        np.testing.assert_allclose(backend.compile(prog).run(arrays, scalars)[0], expected[0],
                                   rtol=2e-6, atol=2e-6)
    assert compile_stats.stats.kernels_compiled == 0
    assert compile_stats.stats.kernel_memory_hits == 7


def test_contiguous_dims_collapse():
    prog = P.elementwise_program("add", ["float32", "float32"], "float32", 10)
    from lazyarray.graph.kernel_ir import Kernel, Load, Stage, Store
    k = prog.kernels[0]
    st = k.stages[0]
    k3 = Kernel(k.name, (4, 5, 6), 3, (Stage(False, tuple(
        Load(e.slot, (30, 6, 1), 0, e.dtype) if isinstance(e, Load) else e for e in st.exprs),
        (), (Store(2, (30, 6, 1), 0, 2),)),))
    assert plan_layout(k3).extents == (120,)
    kt = Kernel(k.name, (4, 5), 2, (Stage(False, (
        Load(0, (1, 4), 0, P.F32), Load(1, (5, 1), 0, P.F32), st.exprs[2]), (),
        (Store(2, (5, 1), 0, 2),)),))
    assert plan_layout(kt).extents == (4, 5)


def test_reductions_are_deterministic_across_thread_counts(backend, monkeypatch):
    from lazyarray.runtime.c import backend as c_backend
    prog, arrays, scalars, _ = P.mean_rows(3, 300_001)
    monkeypatch.setattr(c_backend, "PARALLEL_THRESHOLD", 1)
    results = []
    for threads in (1, 2, 3):
        monkeypatch.setattr(c_backend, "num_threads", threads)
        results.append(backend.compile(prog).run(arrays, scalars)[0])
    assert all(np.array_equal(results[0], r) for r in results[1:])


def test_two_threads_run_one_plan(plans):
    plan, arrays, scalars, _ = plans["matmul_relu"]
    rng = np.random.default_rng(9)
    inputs = [[a + np.float32(rng.standard_normal()) for a in arrays] for _ in range(2)]
    wanted = [np.tanh(np.maximum(x @ w + b, 0)) for x, b, w in inputs]
    errors = []

    def worker(t):
        for _ in range(50):
            got = plan.run(inputs[t], scalars)[0]
            if not np.allclose(got, wanted[t], rtol=1e-5, atol=1e-5):
                errors.append(t)

    threads = [threading.Thread(target=worker, args=(t,)) for t in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []


GOLDEN_CASES = {"sigmoid": lambda: P.sigmoid(16), "mean_rows": lambda: P.mean_rows(4, 8),
                "softmax": lambda: P.softmax(4, 8), "argmax_cols": lambda: P.argmax_cols(4, 8)}


@pytest.mark.parametrize("name", sorted(GOLDEN_CASES))
def test_golden_source(name):
    """The generated C of canonical kernels. UPDATE_GOLDEN=1 rewrites the files (review the diff)."""
    kernel = GOLDEN_CASES[name]()[0].kernels[0]
    source = render_kernel(kernel, plan_layout(kernel))[1] + "\n"
    path = GOLDEN / f"{name}.c"
    if os.environ.get("UPDATE_GOLDEN"):
        path.write_text(source)
    assert source == path.read_text()


def test_sizes_never_appear_in_source():
    a = P.softmax(4, 8)[0].kernels[0]
    b = P.softmax(400, 800)[0].kernels[0]
    assert render_kernel(a, plan_layout(a)) == render_kernel(b, plan_layout(b))


def test_missing_compiler_is_reported(monkeypatch):
    monkeypatch.setenv("CC", "/nonexistent/cc")
    reason = c_compiler.unavailable_reason()
    assert reason is not None and "CC" in reason and "numpy" in reason
    monkeypatch.setattr(CBackend, "unavailable_reason", classmethod(lambda cls: reason))
    from lazyarray.runtime import backend as backend_mod
    monkeypatch.setattr(backend_mod, "_INSTANCES", {})
    with pytest.raises(BackendUnavailable, match="compiler"):
        get_backend("c")


@pytest.mark.parametrize("name", sorted(CASES))
def test_launcher_runs_the_steps_exactly(plans, name):
    """`CPlan.run` goes through the plan's generated launcher (runtime/c/launch.py): its results
    are the step loop's, bit for bit, for every case (library calls, reductions, intermediates,
    several outputs)."""
    plan, arrays, scalars, _ = plans[name]
    launched, looped = plan.run(arrays, scalars), plan.run_steps(arrays, scalars)
    assert len(launched) == len(looped)
    for got, want in zip(launched, looped):
        assert got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("name", ["matmul_relu", "matmul_transposed_relu"])
def test_launcher_calls_matmul_itself(plans, name):
    """A matmul step is NumPy's call in the launcher's own line (its operands by slot, the
    transpose flag as swapaxes), not a call through `run_library_call`."""
    plan = plans[name][0]
    names = plan._launch.__code__.co_names
    assert "matmul" in names and "run_library_call" not in names
    assert ("swapaxes" in names) == (name == "matmul_transposed_relu")


def test_launcher_conforms_inputs_and_is_shared_by_the_common_cases(plans):
    """Inputs that are not C-contiguous arrays of the planned dtype are converted, as by the step
    loop; plans whose outputs need no copy get a launcher."""
    plan, arrays, scalars, expected = plans["sigmoid"]
    assert plan._launch is not None
    (x,) = arrays
    strided = np.repeat(x, 2)[::2]  # same values, not contiguous
    as_list = x.astype(np.float64).tolist()  # another dtype, not an ndarray
    for operand in (strided, as_list):
        got, = plan.run([operand], scalars)
        np.testing.assert_array_equal(got, plan.run_steps([x], scalars)[0])


def test_launcher_rebinds_inputs_only_when_the_array_changes(plans):
    """The launcher keeps an input's pointer while the same array comes back (weakly referenced,
    so the plan keeps no user data alive); another array, a dropped one, or a run of the step loop
    in between rebinds it."""
    import gc
    import weakref

    plan, arrays, scalars, _ = plans["sigmoid"]
    (x,) = arrays
    y = -x
    want = {id(x): 1 / (1 + np.exp(-x)), id(y): 1 / (1 + np.exp(-y))}
    for a in (x, x, y, x, y, y):
        np.testing.assert_allclose(plan.run([a], scalars)[0], want[id(a)], rtol=2e-6)
    plan.run_steps([y], scalars)
    np.testing.assert_allclose(plan.run([x], scalars)[0], want[id(x)], rtol=2e-6)
    z = x.copy()
    kept = weakref.ref(z)
    plan.run([z], scalars)
    del z
    gc.collect()
    assert kept() is None  # the plan did not keep it
    np.testing.assert_allclose(plan.run([x * 2], scalars)[0], 1 / (1 + np.exp(-x * 2)), rtol=2e-6)
