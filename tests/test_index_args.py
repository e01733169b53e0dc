"""Indices and slice starts are run-time arguments (issue 25, docs/caching.md "Indices and slice
bounds as arguments"): `x[k:k+m]`, `A[i]`, `A[i, :]`, `A[:, j]` with Python or NumPy ints build
nodes whose structural key holds steps and lengths only; each start is an int64 scalar leaf, the
kernel's load offset reads it (scalar x element stride), so a loop over starts builds one plan and
compiles one kernel. Bounds are still checked at the indexing line (NumPy's IndexError).

Operands are large (>= 10^5 elements) or pending, so every test runs the lazy path (small
computed operands may run at once through the numpy reference).
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import lazyarray as la
from lazyarray.graph.kernel_ir import Load
from lazyarray.passes import optimize
from lazyarray.graph import Graph
from sites import assert_site

_FIXTURE = [HealthCheck.function_scoped_fixture]  # `backend` only selects the backend
ROWS, COLS = 400, 300  # 120,000 elements
_A = np.random.default_rng(25).standard_normal((ROWS, COLS))


def _pending(a: np.ndarray) -> la.Array:
    """A pending value over a large leaf: indexing it stays lazy whatever the result's size."""
    return la.array(a) * 1.5


@st.composite
def keys(draw):
    """A basic key of ints (negative too) and slices (any sign of step, out-of-range bounds)."""
    def item(n):
        bound = st.one_of(st.none(), st.integers(-n - 3, n + 3))
        return st.one_of(st.integers(-n, n - 1),
                         st.builds(slice, bound, bound, st.sampled_from([None, 1, 2, -1, -3, 7])),
                         st.just(slice(None)))
    items = (draw(item(ROWS)),) + ((draw(item(COLS)),) if draw(st.booleans()) else ())
    if draw(st.booleans()) and isinstance(items[0], int):
        items = (np.int64(items[0]),) + items[1:]
    return items if len(items) > 1 else items[0]


@settings(max_examples=40, deadline=None, suppress_health_check=_FIXTURE)
@given(key=keys())
def test_values_match_numpy(backend, key):
    x = _pending(_A)
    want = _A * 1.5
    np.testing.assert_array_equal(np.asarray(x[key] + 1.0), want[key] + 1.0)
    leaf = la.array(_A)
    np.testing.assert_array_equal(np.asarray(leaf[key] * 2.0), _A[key] * 2.0)


@settings(max_examples=25, deadline=None, suppress_health_check=_FIXTURE)
@given(start=st.integers(0, ROWS * COLS - 200), step=st.sampled_from([1, 2, 5, -1, -4]),
       length=st.integers(1, 30))
def test_sliding_windows_of_pending_values_match_numpy(backend, start, step, length):
    flat = _A.reshape(-1)
    x = la.sqrt(la.abs(la.array(flat)) * 0.25)  # pending, 120,000 elements (correctly rounded)
    if step < 0:
        start = max(start, -step * length)
    got = x[start:start + step * length:step] - x[start]
    want = np.sqrt(np.abs(flat) * 0.25)
    np.testing.assert_array_equal(np.asarray(got), want[start:start + step * length:step]
                                  - want[start])


def _kernel_lookups(info) -> int:
    return info.kernels_compiled + info.kernel_disk_hits + info.kernel_memory_hits


@pytest.mark.parametrize("case", ["window", "row", "column", "element", "negative", "numpy_int"])
def test_a_loop_over_starts_builds_one_plan_and_one_kernel(backend, fresh_caches, case):
    leaf = la.array(_A)
    flat = la.array(_A.reshape(-1))
    build = {
        "window": (lambda k: flat[k:k + 1000] * 2, lambda k: _A.reshape(-1)[k:k + 1000] * 2),
        "row": (lambda k: leaf[k, :] + 1, lambda k: _A[k, :] + 1),
        "column": (lambda k: leaf[:, k] * 3, lambda k: _A[:, k] * 3),
        "element": (lambda k: leaf[k] - leaf[k, k], lambda k: _A[k] - _A[k, k]),
        "negative": (lambda k: leaf[-k - 1, ::-2] * 2, lambda k: _A[-k - 1, ::-2] * 2),
        "numpy_int": (lambda k: flat[np.int64(k):np.int32(k + 9)] + 1,
                      lambda k: _A.reshape(-1)[k:k + 9] + 1),
    }[case]
    with la.config(background_compiles=False):
        for k in range(50):
            np.testing.assert_array_equal(np.asarray(build[0](k)), build[1](k))
    info = la.cache_info()
    assert (info.plans_built, info.plan_hits) == (1, 49)
    if backend == "c":
        assert _kernel_lookups(info) == 1  # one kernel, looked up (and compiled) once


def test_the_key_holds_no_start():
    x = _pending(_A)
    a, b = x[3:50:2, 7], x[100:147:2, -1]
    assert a._node.key == b._node.key
    spec = a._node.inputs[0].attrs[0] if a._node.op.name == "reshape" else a._node.attrs[0]
    assert spec == ((None, 2, 24), (None, 1, 1))
    assert x[5:9]._node.key != x[5:10]._node.key  # a length is structure (design step 3)
    # a start the key leaves out follows from step and size: structure, no scalar
    assert x[:5, ::-1]._node.attrs == (((0, 1, 5), (COLS - 1, -1, COLS)),)
    assert len(x[:5, ::-1]._node.inputs) == 1
    whole = x[:, :]
    assert whole._node is x._node  # nothing sliced: no node, no scalar


def test_out_of_bounds_still_raises_at_the_indexing_line():
    x = _pending(_A)
    with pytest.raises(IndexError, match="out of bounds") as info:
        x[ROWS]
    assert_site(info, "test_index_args.py")
    with pytest.raises(IndexError, match="out of bounds") as info:
        x[0, -COLS - 1]
    assert_site(info, "test_index_args.py")


def test_the_load_reads_the_start_times_a_stride():
    x = la.array(_A)
    y = x[7, 2:200:3] + 1
    g = Graph([y._node])
    program = optimize(g)
    (kernel,) = program.kernels
    (load,) = [e for st in kernel.stages for e in st.exprs if isinstance(e, Load)]
    scalars = [n for n in g.nodes if n.op.name == "scalar" and n.dtype == np.int64]
    assert [n.data for n in scalars] == [7, 2]
    assert load.offset == 0 and dict(load.dynamic) == {0: COLS, 1: 1}
    assert program.scalars[:2] == (np.dtype(np.int64),) * 2


@pytest.mark.skipif("c" not in la.runtime.available_backends(), reason="no C compiler")
def test_the_c_source_reads_the_start_argument():
    from lazyarray.runtime.c.backend import _render_cached
    from lazyarray.runtime.c.canonical import canonical_kernel
    from lazyarray.runtime.c.printer import shared_slots

    y = la.array(_A)[11, 250::-2] * 2
    program = optimize(Graph([y._node]))
    (kernel,) = program.kernels
    source = _render_cached(*canonical_kernel(kernel, shared_slots(program, kernel)))[2]
    assert "la_arg_i64(s + 0) * c0_0" in source and "la_arg_i64(s + 8)" in source


def test_writes_through_a_run_time_start_view(backend):
    a = la.array(_A)
    want = _A.copy()
    for i in range(0, ROWS, 97):
        row = a[i]
        row[3:9] = -1.0
        want[i, 3:9] = -1.0
        col = a[:, i % COLS]
        col *= 2.0
        want[:, i % COLS] *= 2.0
    np.testing.assert_array_equal(np.asarray(a), want)


def test_gradient_through_a_run_time_start(backend):
    x = la.array(_A[0])
    for k in (0, 17, 250):
        g = la.grad(lambda v: la.sum(v[k:k + 5] ** 2))(x)
        want = np.zeros(COLS)
        want[k:k + 5] = 2 * _A[0, k:k + 5]
        np.testing.assert_allclose(np.asarray(g), want, rtol=1e-12)


def test_dask_resolves_the_starts_per_run():
    pytest.importorskip("dask")
    if "c" not in la.runtime.available_backends():
        pytest.skip("the dask backend runs C kernels")
    with la.config(backend="dask"):
        x = la.array(_A)
        for i in (0, 5, 399):
            np.testing.assert_array_equal(np.asarray(x[i, 1:] - x[i, :-1]),
                                          _A[i, 1:] - _A[i, :-1])


def test_generated_cuda_with_run_time_starts_compiles():
    """The CUDA dialect reads a start as an int64 kernel parameter (NVRTC, no device needed)."""
    from lazyarray.runtime.cuda import nvrtc
    from lazyarray.runtime.c.printer import render_translation_unit, shared_slots
    from lazyarray.runtime.cuda.printer import CUDA_DIALECT, render_cuda_kernel

    reason = nvrtc.unavailable_reason()
    if reason is not None:
        pytest.skip(f"NVRTC unavailable: {reason}")
    x = la.array(_A)
    cases = [x[7, 2:200:3] + 1, la.sum(x[5:90, 250::-2], axis=1), x[3:203, 17] * x[:200, 5]]
    sources = []
    for y in cases:
        program = optimize(Graph([y._node]))
        for kernel in program.kernels:
            _, _, source = render_cuda_kernel(kernel, shared_slots(program, kernel))
            assert "const long long a0" in source or "const int64_t a0" in source
            sources.append(source)
    module = nvrtc.compile_cuda(render_translation_unit(sources, CUDA_DIALECT), name="starts.cu")
    assert module.kind == "cubin" and "warning" not in module.log
