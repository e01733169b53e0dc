"""The plan cache, tested by structure: signatures, hits, evictions, data-free plans, logging.

Compile counts need a compiling backend: those assertions run when the `c` backend is available and
are skipped (only they) while it is not.
"""

import gc
import logging
import os
import subprocess
import sys
import threading
import weakref

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lazyarray.graph import Graph, topological_order
from lazyarray.graph.signature import graph_signature
from lazyarray.runtime import available_backends

import lazyarray as la
from fake_device import DeviceArray, FakeDevice
from numpy_oracle import f32
from lazyarray import cache

HAS_C = "c" in available_backends()
needs_c = pytest.mark.skipif(not HAS_C, reason="compile counts need the c backend")


pytestmark = pytest.mark.usefixtures("fresh_caches")


# --- signatures --------------------------------------------------------------------------------------
def canonical(outputs):
    """The exact structure of a graph, leaves by slot: what equal signatures must imply."""
    nodes = topological_order(outputs)
    pos = {id(n): i for i, n in enumerate(nodes)}
    return (tuple((n.op, n.attrs, n.dtype, n.shape, tuple(pos[id(i)] for i in n.inputs))
                  for n in nodes), tuple(pos[id(o)] for o in outputs))


def test_shared_leaves_change_the_signature():
    a, b = la.array(f32(4)), la.array(f32(4, seed=1))
    assert (a * b)._node.key == (a * a)._node.key  # node keys are leaf-anonymous ...
    assert graph_signature([(a * b)._node])[0] != graph_signature([(a * a)._node])[0]  # ... these not
    c, d = la.array(f32(4, seed=2)), la.array(f32(4, seed=3))
    assert graph_signature([(a * b)._node])[0] == graph_signature([(c * d)._node])[0]


def test_same_sequence_of_revisits_at_different_places_differs():
    a, b = la.array(f32(3)), la.array(f32(3, seed=1))
    g1 = la.stack([a, a, b, b])
    g2 = la.stack([a, b, a, b])
    assert graph_signature([g1._node])[0] != graph_signature([g2._node])[0]
    np.testing.assert_array_equal(np.asarray(g2), np.stack([np.asarray(a), np.asarray(b)] * 2))


@st.composite
def random_dags(draw):
    """Two graphs from one random recipe over fresh leaves: same ops, sharing chosen at random."""
    n_leaves = draw(st.integers(1, 3))
    steps = draw(st.lists(st.tuples(st.sampled_from(["add", "multiply", "maximum", "neg"]),
                                    st.integers(0, 50), st.integers(0, 50)), min_size=1, max_size=8))
    n_outputs = draw(st.integers(1, 2))
    return n_leaves, steps, n_outputs, draw(st.randoms())


def build(n_leaves, steps, n_outputs, rng, share):
    pool = [la.array(f32(3, seed=k)) for k in range(n_leaves)]
    if not share:  # a second copy of leaf 0 breaks the sharing of the first recipe
        pool.append(la.array(f32(3, seed=9)))
    for op, i, j in steps:
        x, y = pool[i % len(pool)], pool[j % len(pool)]
        pool.append(-x if op == "neg" else getattr(la, op)(x, y))
    return [p._node for p in pool[-n_outputs:]]


@settings(max_examples=60, deadline=None)
@given(random_dags())
def test_equal_signatures_mean_equal_structure(recipe):
    n_leaves, steps, n_outputs, rng = recipe
    for share in (True, False):
        g1 = build(n_leaves, steps, n_outputs, rng, True)
        g2 = build(n_leaves, steps, n_outputs, rng, share)
        s1, leaves1 = graph_signature(g1)
        s2, _ = graph_signature(g2)
        assert (s1 == s2) == (canonical(g1) == canonical(g2))
        assert leaves1 == Graph(g1).leaves  # slot order is the graph's leaf order


# --- hits and misses ---------------------------------------------------------------------------------
def relu_loop(w, b, batches):
    out = []
    for X in batches:
        y = la.nn.relu(la.array(X) @ w + b)
        out.append(float(y.sum()))
    return out


def test_loop_builds_one_plan(backend):
    w, b = la.array(f32(8, 4)), la.array(f32(4, seed=1))
    batches = [f32(16, 8, seed=10 + i) for i in range(100)]
    got = relu_loop(w, b, batches[:1])
    compiled_first = la.cache_info().kernels_compiled
    got += relu_loop(w, b, batches[1:])
    info = la.cache_info()
    assert (info.plans_built, info.plan_hits) == (1, 99)
    assert info.kernels_compiled == compiled_first  # compiles only in iteration 1
    want = [float(np.maximum(X @ np.asarray(w) + np.asarray(b), 0).sum()) for X in batches]
    np.testing.assert_allclose(got, want, rtol=1e-4)


@needs_c
def test_loop_compiles_only_in_first_iteration():
    with la.config(backend="c"):
        w, b = la.array(f32(8, 4)), la.array(f32(4, seed=1))
        relu_loop(w, b, [f32(16, 8)])
        first = la.cache_info()
        # Kernels come from the compiler, the disk cache, or (an earlier test) this process's memory.
        assert first.kernels_compiled + first.kernel_disk_hits + first.kernel_memory_hits > 0
        relu_loop(w, b, [f32(16, 8, seed=i) for i in range(99)])
        assert la.cache_info().kernels_compiled == first.kernels_compiled


def test_python_scalars_are_arguments(backend):
    a, b = la.array(f32(16)), la.array(f32(16, seed=1))
    for k in range(1000):
        s = 0.001 * k - 0.3
        y = np.asarray(a * s + b)
        if k % 250 == 0:
            np.testing.assert_allclose(y, np.asarray(a) * np.float32(s) + np.asarray(b), rtol=1e-6)
    info = la.cache_info()
    assert (info.plans_built, info.plan_hits) == (1, 999)
    if backend == "c":
        assert info.kernels_compiled + info.kernel_disk_hits <= 1


def test_new_batch_size_builds_no_plan_and_no_kernel(backend):
    """Plans are size-generic (graph/generic.py): a new batch size reuses plan and kernels."""
    w, b = la.array(f32(8, 4)), la.array(f32(4, seed=1))
    relu_loop(w, b, [f32(16, 8)])
    before = la.cache_info()
    got = relu_loop(w, b, [f32(17, 8)])
    after = la.cache_info()
    assert after.plans_built == before.plans_built
    assert after.kernels_compiled == before.kernels_compiled
    want = np.maximum(f32(17, 8) @ f32(8, 4) + f32(4, seed=1), 0).sum()
    np.testing.assert_allclose(got[0], want, rtol=1e-5)


def test_weak_scalar_dtype_is_part_of_the_signature():
    a = la.array(np.arange(4, dtype=np.int32))
    assert np.asarray(a + 1).dtype == np.int32
    assert np.asarray(a + 1.5).dtype == np.float64
    np.testing.assert_array_equal(np.asarray(a + 2), np.arange(4) + 2)
    info = la.cache_info()
    assert (info.plans_built, info.plan_hits) == (2, 1)  # a + 2 reuses a + 1's plan


def test_lru_evicts_the_least_recently_used():
    a = la.array(f32(4))
    with la.config(plan_cache_size=2):
        exprs = [lambda: a + 1.0, lambda: a * 2.0, lambda: la.exp(a)]
        for e in exprs:
            np.asarray(e())
        info = la.cache_info()
        assert (info.plans_built, info.plan_evictions, info.plans_cached) == (3, 1, 2)
        np.asarray(exprs[2]())  # still cached
        np.asarray(exprs[0]())  # was evicted: built again
        info = la.cache_info()
        assert (info.plans_built, info.plan_hits, info.plan_evictions) == (4, 1, 2)


def test_cached_plans_hold_no_user_data():
    data = f32(1000)
    a = la.array(data)
    probe = weakref.ref(a._node.data)
    np.asarray(la.exp(a) + 1.0)
    del a
    gc.collect()
    assert probe() is None and la.cache_info().plans_cached == 1


def test_threads_share_plans_safely():
    a = la.array(f32(64))
    want = np.tanh(np.asarray(a)) * 2.0
    errors = []

    def work():
        for _ in range(50):
            got = np.asarray(la.tanh(a) * 2.0)
            if not np.allclose(got, want):
                errors.append(got)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    info = la.cache_info()
    assert info.plans_built + info.plan_hits == 200 and info.plans_cached == 1


def test_clear_caches_zeroes_everything():
    np.asarray(la.array(f32(4)) + 1.0)
    la.clear_caches()
    info = la.cache_info()
    assert info.model_dump() == {k: 0 for k in info.model_dump()}


# --- observability -----------------------------------------------------------------------------------
def test_log_names_the_line_and_what_differs(caplog):
    w = la.array(f32(8, 4))
    with la.config(log_compiles=True), caplog.at_level(logging.INFO, logger="lazyarray"):
        # a slice's bounds are sizes: these plans are per size (not size-generic)
        np.asarray(la.array(f32(512, 8))[1:] @ w)
        np.asarray(la.array(f32(513, 8))[1:] @ w)
        np.asarray(la.array(f32(513, 8).astype(np.float64))[1:] @ w)
    messages = [r.getMessage() for r in caplog.records]
    assert len(messages) == 3 and all("plan built" in m for m in messages)
    assert all(os.path.basename(__file__) in m for m in messages)
    assert "dim 0: 512 → 513" in messages[1]
    assert "dtype float32 → float64" in messages[2]


def test_log_is_quiet_on_hits(caplog):
    a = la.array(f32(4))
    with la.config(log_compiles=True), caplog.at_level(logging.INFO, logger="lazyarray"):
        for _ in range(3):
            np.asarray(a + 1.0)
    assert len(caplog.records) == 1


def test_log_compiles_from_the_environment():
    code = "import numpy as np, lazyarray as la; np.asarray(la.array(np.ones(3)) * 2.0)"
    env = dict(os.environ, LAZYARRAY_LOG_COMPILES="1")
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                          check=False)
    assert done.returncode == 0 and "plan built" in done.stderr


@pytest.mark.skipif(cache._compile_stats is None, reason="no compile counters (c backend absent)")
def test_forbid_compiles_reaches_the_compiler():
    with la.config(forbid_compiles=True):
        assert cache._compile_stats.forbid_compiles
    assert not cache._compile_stats.forbid_compiles


@needs_c
def test_forbid_compiles_raises_on_a_new_kernel_but_not_on_a_hit():
    with la.config(backend="c"):
        a = la.array(f32(16))
        np.asarray(la.sin(a) * 3.0)
        with la.config(forbid_compiles=True):
            np.asarray(la.sin(a) * 4.0)  # cached plan: no compile
            with pytest.raises(Exception, match="(?i)compile"):
                np.asarray(la.arctan(la.cosh(a)) * 5.0 - 1.0)


def test_cache_info_reads_the_compile_counters(monkeypatch):
    """The kernel counters come from runtime/compile_stats (the C backend's); this fake stands in
    for it so the plumbing is tested on every machine."""

    class FakeStats:
        forbid = False
        counts = {"kernels_compiled": 3, "kernel_disk_hits": 2, "kernel_memory_hits": 1}

        class stats:
            @staticmethod
            def snapshot():
                return dict(FakeStats.counts)

        @staticmethod
        def reset():
            FakeStats.counts = dict.fromkeys(FakeStats.counts, 0)

        @staticmethod
        def set_forbid_compiles(flag):
            FakeStats.forbid = flag

    monkeypatch.setattr(cache, "_compile_stats", FakeStats)
    info = la.cache_info()
    assert (info.kernels_compiled, info.kernel_disk_hits, info.kernel_memory_hits) == (3, 2, 1)
    with la.config(forbid_compiles=True):
        assert FakeStats.forbid
    assert not FakeStats.forbid
    la.clear_caches()
    assert la.cache_info().kernels_compiled == 0


def test_leaves_sharing_a_buffer_are_part_of_the_signature():
    """The passes merge input leaves that hold one buffer; a plan built for that must not be
    reused for two different buffers."""
    data = f32(5)
    x1, x2 = la.asarray(data, copy=False), la.asarray(data, copy=False)  # shared, not copied
    assert x1._node is not x2._node and x1._node.data is x2._node.data
    np.testing.assert_allclose(np.asarray(x1 * 2.0 - x2), data)
    other = f32(5, seed=1)
    y1, y2 = la.asarray(data, copy=False), la.asarray(other, copy=False)
    np.testing.assert_allclose(np.asarray(y1 * 2.0 - y2), 2 * data - other, rtol=1e-6)
    assert la.cache_info().plans_built == 2


def test_a_hit_runs_no_pass(monkeypatch):
    from lazyarray import evaluation

    calls = []
    for name in ("optimize", "optimize_until"):  # exact plans, size-generic plans
        real = getattr(evaluation, name)
        monkeypatch.setattr(evaluation, name, lambda *a, real=real: calls.append(1) or real(*a))
    w = la.array(f32(8, 4))
    with la.config(optimize=True):
        for i in range(10):
            np.asarray(la.tanh(la.array(f32(2, 8, seed=i)) @ w) * 2.0)
    assert len(calls) == 1 and la.cache_info().plan_hits == 9


def test_scalar_operands_built_fast_have_the_ordinary_keys(fresh_caches):
    """`_bind._scalar_operand` sets a weak scalar leaf's key directly after the first time: it
    must equal what `Node` interns, or a loop would build a plan per path."""
    from lazyarray import _bind
    from lazyarray.graph import get_op
    from lazyarray.graph.node import Node

    x = la.array(f32(5))
    first = (x * 0.5)._node.inputs[1]
    again = (x * 0.25)._node.inputs[1]
    ordinary = Node(get_op("scalar"), (), (), (5,), first.dtype, data=0.25)
    assert again.key == ordinary.key == first.key
    assert again.pending == 0 and again.data == 0.25 and again.inputs == ()
    for s in (0.5, 0.25, 3.0):
        np.testing.assert_allclose(np.asarray(x * s + 1.0), f32(5) * np.float32(s) + 1)
    assert la.cache_info().plans_built == 1
    assert _bind._SCALAR_KEYS


def test_a_weak_scalar_operand_is_one_node(fresh_caches):
    """`x * 0.5` adds two nodes (the scalar leaf, of x's shape, and the product), on the operator
    path and on the function path; the passes still see a 0-d scalar broadcast (passes/scalars.py),
    which constant folding hoists."""
    from lazyarray.graph import Graph, get_op
    from lazyarray.passes.pipeline import optimize_until

    x = la.array(f32(3, 4))
    for y in (x * 0.5, 0.5 * x, la.multiply(x, 0.5), la.maximum(x, 1), la.where(x > 0.5, x, 0.0)):
        scalars = [n for n in Graph([y._node]).nodes if n.op is get_op("scalar")]
        assert scalars and all(s.shape == (3, 4) and not s.inputs for s in scalars)
    assert len(Graph([(x * 0.5)._node]).nodes) == 3
    folded = optimize_until(Graph([((x * 2.0) * (la.array(f32(3, 4)) * 0 + 3.0))._node]), "fold")
    assert any(n.op is get_op("scalar") and n.shape == () for n in folded.nodes)
    np.testing.assert_allclose(np.asarray(la.where(x > 0.5, x, 0.0) * 2.0 - 1),
                               np.where(f32(3, 4) > 0.5, f32(3, 4), 0) * 2 - 1, rtol=1e-6)


def test_leaf_outputs_of_a_graph_built_directly(backend):
    """Outputs that are already leaves (an input twice, a scalar, two inputs on one buffer) in a
    Graph built by hand: the passes and memory planning give each its own fresh result."""
    from lazyarray.graph import Graph, get_op
    from lazyarray.graph.node import Node
    from lazyarray.passes import optimize
    from lazyarray.runtime import get_backend

    f = np.dtype("float32")
    data = f32(4)
    x = Node(get_op("input"), (), (), (4,), f, data=data)
    x2 = Node(get_op("input"), (), (), (4,), f, data=data)
    s = Node(get_op("scalar"), (), (), (), f, data=2.0)
    y = Node(get_op("exp"), (x,), (), (4,), f)
    program = optimize(Graph([x, y, x, s, x2]))
    runner = get_backend(backend)
    outs = runner.compile(program).run([data, data], [2.0])  # x, x2 (device buffers on cupy)
    for got, want in zip(outs, [data, np.exp(data), data, np.float32(2.0), data]):
        np.testing.assert_allclose(runner.to_host(got), want, rtol=1e-6)
    assert len({id(o) for o in outs}) == len(outs)


def test_reference_plans_read_device_leaves_on_the_host(monkeypatch):
    """The node-by-node plans over a device backend's leaves (the cupy backend's: CuPy arrays,
    which `np.asarray` refuses): the oracle (ReferencePlan: the tests', the error path's re-run)
    reads them on the host and gives NumPy arrays; the `optimize=False` plan gives the backend's
    device buffers, as its compiled plans do."""
    import importlib

    from lazyarray.runtime import ReferencePlan, plan_cache, split_leaves
    from lazyarray.runtime.evaluate import EvaluateOptions

    # (the package's `evaluate` is the function of that name)
    evaluate = importlib.import_module("lazyarray.runtime.evaluate")
    device = FakeDevice()
    monkeypatch.setattr(evaluate, "get_backend", lambda name: device)
    monkeypatch.setattr(plan_cache, "get_backend", lambda name: device)
    x = la.asarray(f32(3, 4))
    y = la.exp(x) * 2.0 + x.sum(axis=0)
    graph = Graph([y._node, x._node])
    arrays, scalars = split_leaves(graph)
    on_device = [DeviceArray(np.asarray(a)) for a in arrays]
    want = ReferencePlan(graph).run(arrays, scalars)
    got = ReferencePlan(graph).run(on_device, scalars)
    for g, w in zip(got, want):
        assert type(g) is np.ndarray
        np.testing.assert_array_equal(g, w)
    plan = plan_cache.build_reference_plan(graph, EvaluateOptions(backend="cupy", optimize=False))
    got = plan.run(on_device, scalars)
    for g, w in zip(got, want):
        assert type(g) is DeviceArray
        np.testing.assert_array_equal(g.host, w)
