"""Unit tests of the graph passes (DCE, CSE, folding, view simplification) and the pipeline."""

import time

import numpy as np
import pytest
from lazyarray.graph import Graph
from lazyarray.passes import STAGES, optimize, optimize_until
from lazyarray.passes.cse import eliminate_common_subexpressions
from lazyarray.passes.dce import eliminate_dead_code
from lazyarray.passes import pipeline
from lazyarray.passes.fold import fold_constants
from lazyarray.passes.reshape_sink import sink_reshapes
from lazyarray.passes.views import compose_slices, simplify_views
from lazyarray.runtime import ReferencePlan, get_backend, split_leaves

import lazyarray as la
from lazyarray.manipulation import slice_node


def _graph(*arrays):
    return Graph([a._node for a in arrays])


def _ops(graph):
    return [n.op.name for n in graph.nodes]


def test_cse_merges_equal_subexpressions():
    a, b = la.array(np.ones(3)), la.array(np.ones(3))
    g = eliminate_common_subexpressions(_graph(a * b + a * b))
    assert _ops(g).count("multiply") == 1
    add = g.outputs[0]
    assert add.inputs[0] is add.inputs[1]


def test_cse_merges_leaves_of_one_buffer_but_not_scalars():
    a = la.array(np.ones(3))
    b = la.asarray(a)  # the same Array
    data = a._node.data  # another leaf node over the same buffer
    x1 = la.Array(type(a._node)(a._node.op, (), (), (3,), a._node.dtype, data=data))
    g = eliminate_common_subexpressions(_graph(a + x1 + b, a * 2 + a * 2))
    assert _ops(g).count("input") == 1
    assert _ops(g).count("scalar") == 2  # two Python scalars stay two run-time arguments


def test_dce_drops_orphans():
    x = la.array(np.ones(3))
    y = -x
    g = Graph([y._node], nodes=[x._node, la.exp(x)._node, y._node])
    assert _ops(eliminate_dead_code(g)) == ["input", "negative"]


def test_fold_involutions_idempotence_identity():
    x = la.array(np.arange(4.0))
    g = fold_constants(_graph(-(-x), la.maximum(x, x), x ** 1))  # noqa: B002
    assert all(o is x._node for o in g.outputs)
    b = la.array(np.array([True, False]))
    assert fold_constants(_graph(~~b)).outputs[0] is b._node


def test_fold_computes_scalar_subgraphs_once():
    y = la.full((64,), 2.0) + la.full((64,), 3.0)
    g = fold_constants(_graph(y))
    out = g.outputs[0]
    assert out.op.name == "broadcast_to" and out.inputs[0].op.name == "add"
    assert out.inputs[0].shape == ()
    np.testing.assert_array_equal(np.asarray(y), np.full(64, 5.0))


def test_views_compose_and_vanish():
    x = la.array(np.arange(24.0).reshape(2, 3, 4))
    g = simplify_views(_graph(x.T.T, la.reshape(la.reshape(x, (6, 4)), (24,)),
                              la.transpose(la.transpose(x, (1, 0, 2)), (2, 0, 1))))
    assert g.outputs[0] is x._node
    assert g.outputs[1].op.name == "reshape" and g.outputs[1].inputs[0] is x._node
    assert g.outputs[2].op.name == "permute" and g.outputs[2].attrs == ((2, 1, 0),)


def test_compose_slices_matches_numpy():
    v = np.arange(10)
    inner, outer = ((2, 1, 6),), ((5, -1, 3),)
    (s, k, n), = compose_slices(inner, outer)
    np.testing.assert_array_equal(v[2:8][5::-1][:3], v[s::k][:n])
    x = la.array(v)
    site = None  # static slices (the library's own: flips, splits, derivatives) compose
    y = la.Array(slice_node(slice_node(slice_node(x._node, ((2, 1, 6),), site), ((5, -1, 6),),
                                       site), ((0, 1, 3),), site))
    g = simplify_views(_graph(y))
    assert _ops(g) == ["input", "slice"]
    np.testing.assert_array_equal(np.asarray(y), v[2:8][5::-1][:3])
    # an indexing key's starts are run-time scalars: the views stay, composed as index maps
    z = x[2:8][5::-1][:3] * 1
    plan = optimize_until(_graph(z), "fuse")
    assert len(plan.program.kernels) == 1 and _ops(simplify_views(_graph(z))).count("slice") == 3
    np.testing.assert_array_equal(np.asarray(z), v[2:8][5::-1][:3])


def test_optimize_until_stops_at_named_stages():
    x = la.array(np.ones((2, 3)))
    y = la.exp(x.T.T) + 1
    g = _graph(y)
    assert "permute" in _ops(optimize_until(g, "cse"))
    assert "permute" not in _ops(optimize_until(g, "views"))
    assert len(optimize_until(g, "fuse").program.kernels) == 1
    assert STAGES[-2:] == ("fuse", "plan_memory")
    with pytest.raises(ValueError, match="unknown stage"):
        optimize_until(g, "nope")


def test_a_pass_that_changes_nothing_returns_its_graph(monkeypatch):
    """The unchanged case is the cheap one (passes/rewrite.py): no new Graph, and the second CSE
    runs only when a pass between the two changed something."""
    x, s = la.array(np.ones(4)), la.array(np.ones(4))
    g = _graph(la.exp(x) * s + x)  # no twins, views, constants or reshapes
    for run in (eliminate_common_subexpressions, fold_constants, simplify_views, sink_reshapes):
        assert run(g) is g
    calls = []
    counted = lambda graph: calls.append(graph) or eliminate_common_subexpressions(graph)
    monkeypatch.setattr(pipeline, "GRAPH_PASSES", tuple(
        (name, counted if run is eliminate_common_subexpressions else run)
        for name, run in pipeline.GRAPH_PASSES))
    monkeypatch.setattr(pipeline, "IDEMPOTENT", (counted,))
    optimize(g)
    assert len(calls) == 1  # cse_again skipped: nothing changed after the first
    calls.clear()
    m = la.array(np.ones((2, 3)))
    optimize(_graph(la.exp(m.T.T) * m))  # views change the graph: CSE runs again
    assert len(calls) == 2
    assert [run for _, run in pipeline.GRAPH_PASSES].count(counted) == 2


def test_passes_are_cheap_on_a_10000_node_graph():
    rng = np.random.default_rng(0)
    x = la.array(rng.standard_normal(8))
    y = x
    with la.config(max_graph_nodes=100_000):  # no node-budget cut: this test wants one big graph
        for k in range(4100):  # 2.5 nodes per step on average (a weak scalar is one node)
            y = la.tanh(y * 0.5) if k % 2 else la.sin(y + x)
    graph = _graph(y)
    assert len(graph) >= 10_000
    start = time.perf_counter()
    program = optimize(graph)
    elapsed = time.perf_counter() - start
    assert elapsed < 20, f"passes took {elapsed:.1f} s on {len(graph)} nodes"
    assert len(program.kernels) == 1
    leaves = split_leaves(graph)
    got = get_backend("numpy").compile(program).run(*leaves)[0]
    np.testing.assert_allclose(got, ReferencePlan(graph).run(*leaves)[0])
