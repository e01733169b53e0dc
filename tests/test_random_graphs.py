"""Random expression graphs: the optimized path (passes, fusion, memory plan, numpy kernel-IR
executor) must match the node-by-node reference, and NumPy through the public API."""

import numpy as np
from graph_strategies import draw_expressions
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lazyarray.graph import Graph
from lazyarray.passes import optimize
from lazyarray.runtime import ReferencePlan, get_backend, split_leaves

import lazyarray as la


def _both(arrays):
    graph = Graph([a._node for a in arrays])
    leaves = split_leaves(graph)
    reference = ReferencePlan(graph).run(*leaves)
    optimized = get_backend("numpy").compile(optimize(graph)).run(*leaves)
    return reference, optimized


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_optimized_matches_reference(data):
    outs = draw_expressions(data)
    reference, optimized = _both(outs)
    graph = Graph([a._node for a in outs])
    for ref, got, a in zip(reference, optimized, outs):
        assert got.shape == a.shape and got.dtype == a.dtype
        np.testing.assert_allclose(got, ref, rtol=1e-12, atol=1e-12, err_msg=graph.to_text())


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_public_eval_matches_unoptimized(data):
    outs = draw_expressions(data, max_ops=6)
    graph = Graph([a._node for a in outs])
    reference = ReferencePlan(graph).run(*split_leaves(graph))
    with la.config(backend="numpy", optimize=True):
        la.eval(*outs)
    for a, ref in zip(outs, reference):
        np.testing.assert_allclose(np.asarray(a), ref, rtol=1e-12, atol=1e-12)


def test_outputs_are_fresh_and_repeated_outputs_distinct():
    x = la.array(np.arange(6.0))
    y = x + 1
    graph = Graph([x._node, y._node, y._node])
    outs = get_backend("numpy").compile(optimize(graph)).run(*split_leaves(graph))
    assert not np.shares_memory(outs[0], x._node.data)
    assert not np.shares_memory(outs[1], outs[2])
    np.testing.assert_array_equal(outs[2], np.arange(6.0) + 1)
