"""Bounded lazy graphs: past `max_graph_nodes` pending nodes, inputs are evaluated at the cut, so
loops that never look at their result run in flat memory and reuse one plan per cut."""

import os
import tracemalloc

import numpy as np
import pytest
from lazyarray.graph import topological_order

import lazyarray as la

# The loop: 1,000,000 steps (~12 s here). LAZYARRAY_LONG_LOOP=N shortens it for quick runs.
LONG_LOOP = int(os.environ.get("LAZYARRAY_LONG_LOOP", "1000000"))


@pytest.fixture(autouse=True)
def fresh_caches():
    la.clear_caches()
    yield
    la.clear_caches()


def test_accumulating_loop_is_cut_and_correct():
    x = la.array(np.arange(4, dtype=np.float32))
    acc = la.zeros(4, dtype=la.float32)
    # (at-once off: on it, the first cut's small results go on at once, lazyarray/cuts.py)
    with la.config(max_graph_nodes=100, eager_size=0):
        for _ in range(1000):
            acc = acc + x
            assert acc._node.pending <= 100 * 8  # past the budget only until the cut point
            # the budget counts operations (leaves are the plan's inputs)
            assert len([n for n in topological_order([acc._node]) if n.inputs]) <= 100
    np.testing.assert_array_equal(np.asarray(acc), 1000 * np.arange(4, dtype=np.float32))
    info = la.cache_info()
    assert info.graph_cuts >= 1000 // 100 - 1
    assert info.plans_built <= 3  # the same cut recurs: one plan serves them all


def test_shared_subgraphs_are_not_cut_early():
    """`x * x` doubles the per-use sum each step (2**40 here); the nodes built since the last cut
    cap it, so 40 real nodes stay under a 50-node budget (the sum alone cut after 5 steps)."""
    x = la.array(np.full(3, 1.0001))
    with la.config(max_graph_nodes=50):
        for _ in range(40):
            x = x * x
            x = la.sqrt(x)
        assert x._node.pending <= 80
    np.testing.assert_allclose(np.asarray(x), np.full(3, 1.0001), rtol=1e-9)
    assert la.cache_info().graph_cuts == 1  # 80 nodes: one cut near 50, not one every ~5


def test_shared_subgraphs_are_still_cut():
    x = la.array(np.full(3, 1.0001))
    with la.config(max_graph_nodes=10):
        for _ in range(12):
            x = x * x
    np.testing.assert_allclose(np.asarray(x), np.full(3, 1.0001) ** (2 ** 12), rtol=1e-9)
    assert la.cache_info().graph_cuts == 1


def test_budget_follows_config_and_its_undo():
    x = la.array(np.ones(2))
    with la.config(max_graph_nodes=10):
        y = x
        for _ in range(20):
            y = y + 1.0
        assert la.cache_info().graph_cuts >= 1
    cuts = la.cache_info().graph_cuts
    for _ in range(20):
        y = y + 1.0
    assert la.cache_info().graph_cuts == cuts  # default budget (500) again
    np.testing.assert_array_equal(np.asarray(y), np.full(2, 41.0))


def test_other_arrays_keep_their_values_after_a_cut():
    x = la.array(np.ones(3, np.float32))
    with la.config(max_graph_nodes=20):
        chain = [x]
        for _ in range(40):
            chain.append(chain[-1] + x)
    np.testing.assert_array_equal(np.asarray(chain[7]), np.full(3, 8.0, np.float32))
    np.testing.assert_array_equal(np.asarray(chain[-1]), np.full(3, 41.0, np.float32))


def _rss_kib() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") // 1024


@pytest.mark.exhaustive
@pytest.mark.skipif(not os.path.exists("/proc/self/statm"), reason="needs /proc (Linux) for RSS")
def test_million_step_loop_runs_in_flat_memory():
    """The issue's loop, 1,000,000 steps (~12 s here): resident memory does not grow. At-once off:
    the lazy cuts under test (on, the first cut's small results go on at once, cuts.py)."""
    x = la.array(np.ones(8, np.float32))
    acc = la.zeros(8, dtype=la.float32)
    samples = []
    with la.config(eager_size=0):
        for i in range(LONG_LOOP):
            acc = acc + x
            if i % (LONG_LOOP // 10) == LONG_LOOP // 10 - 1:
                samples.append(_rss_kib())
    np.testing.assert_array_equal(np.asarray(acc), np.full(8, LONG_LOOP, np.float32))
    assert max(samples[2:]) - samples[1] < 8 * 1024, samples  # KiB: allocator noise only
    info = la.cache_info()
    assert info.plans_built <= 3 and info.graph_cuts >= LONG_LOOP // 5000 - 1


def test_python_heap_stays_flat():
    """tracemalloc sees every Python allocation (nodes, keys, plans): flat after the first cuts."""
    x = la.array(np.ones(8, np.float32))
    acc = la.zeros(8, dtype=la.float32)
    samples = []
    tracemalloc.start()
    try:
        with la.config(max_graph_nodes=1000):
            for i in range(20_000):
                acc = acc + x
                if i % 2000 == 1999:
                    samples.append(tracemalloc.get_traced_memory()[0])
    finally:
        tracemalloc.stop()
    np.testing.assert_array_equal(np.asarray(acc), np.full(8, 20_000, np.float32))
    assert max(samples[2:]) < samples[1] + 200_000, samples


@pytest.mark.parametrize("backend", ["numpy", "c"])
def test_graph_passes_never_cut(backend):
    """Passes build nodes (reshape sinking rebuilds a chain at the reshape's shape); past the
    node budget the cut hook used to fire inside the pass, splicing evaluated leaves into the
    graph being rewritten: `optimize` raised KeyError in the memory planner (found by the
    random-graph test when the process's segment count was high)."""
    from lazyarray.graph import Graph
    from lazyarray.passes import optimize

    xs = np.random.default_rng(0).random((4, 6))
    want = xs
    for _ in range(12):
        want = np.sin(want) + 0.5
    with la.config(max_graph_nodes=6, backend=backend):
        x = la.array(xs)
        y = x
        for _ in range(12):
            y = la.sin(y) + 0.5
        z = y.reshape(24) * 2.0
        cuts = la.cache_info().graph_cuts
        optimize(Graph([z._node]))  # must not raise, must not cut
        la.explain(z)
        assert la.cache_info().graph_cuts == cuts
        np.testing.assert_allclose(np.asarray(z), want.reshape(24) * 2.0, rtol=1e-12)
        # the budget is back after the passes: a long chain is cut again
        w = x
        for _ in range(40):
            w = w * 1.0001
        assert la.cache_info().graph_cuts > cuts


def test_cuts_paused_nests_and_keeps_a_budget_set_meanwhile():
    from lazyarray.graph import node as graph_node

    hook = graph_node._BUDGET[1]
    assert hook is not None
    with graph_node.cuts_paused():
        with graph_node.cuts_paused():
            assert graph_node._BUDGET[1] is None
        assert graph_node._BUDGET[1] is None
        with la.config(max_graph_nodes=50):  # set and undone during the pause
            assert graph_node._BUDGET[1] is None
    assert graph_node._BUDGET[1] is hook
