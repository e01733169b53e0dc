"""The per-cut walks compiled in graph/_node.c equal their Python references (issue 25, the
per-cut cost of cut loops): `operations_reading` (lazyarray/tails.py: the distinct operation nodes
of a graph in visit order, and whether it reads a leaf the last cut made) and
`outside_references` (lazyarray/donation.py: None when an intermediate is held from outside the
graph, else each given node's references other than the graph's inputs tuples). Random graphs
share sub-graphs, hold intermediates and leaves from lists, and list cut leaves that are stale."""

from __future__ import annotations

import weakref

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import lazyarray as la
from lazyarray import cuts, donation, tails
from lazyarray.graph import node as graph_node

_compiled = graph_node._compiled
needs_compiled = pytest.mark.skipif(
    getattr(_compiled, "outside_references", None) is None,
    reason="graph/_node.c not built or not in use")


def _graph(data) -> tuple[list, list, list]:
    """(pool of Arrays, outputs, holders): a random graph over 1-3 leaves and scalars, and a list
    that holds some of its Arrays' nodes from outside (as an Array or list would)."""
    leaves = [la.array(np.full(4, float(i + 1))) for i in range(data.draw(st.integers(1, 3)))]
    pool = list(leaves)
    for _ in range(data.draw(st.integers(1, 12))):
        x = data.draw(st.sampled_from(pool))
        kind = data.draw(st.sampled_from(["add", "mul", "scalar", "neg"]))
        if kind == "scalar":
            pool.append(x * data.draw(st.sampled_from([0.5, 2.0])))
        elif kind == "neg":
            pool.append(-x)
        else:
            y = data.draw(st.sampled_from(pool))
            pool.append(x + y if kind == "add" else x * y)
    outputs = data.draw(st.lists(st.sampled_from(pool), min_size=1, max_size=3))
    holders = data.draw(st.lists(st.sampled_from(pool), max_size=2))
    return pool, [a._node for a in outputs], [a._node for a in holders]


@needs_compiled
@settings(max_examples=80, deadline=None)
@given(st.data())
def test_operations_reading_matches_the_python_walk(data):
    with la.config(eager_size=0):
        pool, outputs, _ = _graph(data)
    leaves = [a._node for a in pool if not a._node.inputs]
    marked = data.draw(st.lists(st.sampled_from(leaves), max_size=2))
    cut_leaves = {id(n): weakref.ref(n) for n in marked}
    stale = la.array(np.zeros(2))._node  # an entry whose reference is another node's
    for n in leaves:
        if data.draw(st.booleans()) and id(n) not in cut_leaves:
            cut_leaves[id(n)] = weakref.ref(stale)
    nodes = [n for n in outputs if n.inputs]
    assert (tails.operations_reading(nodes, cut_leaves)
            == tails.python_operations_reading(nodes, cut_leaves))
    assert tails.operations_reading is _compiled.operations_reading


@needs_compiled
@settings(max_examples=80, deadline=None)
@given(st.data())
def test_outside_references_matches_the_python_walk(data):
    with la.config(eager_size=0):
        pool, outputs, holders = _graph(data)
    asked = [a._node for a in data.draw(st.lists(st.sampled_from(pool), max_size=4))]
    asked.append(la.array(np.zeros(2))._node)  # a node outside the graph
    del pool
    want = donation.python_outside_references(outputs, asked)
    assert donation.outside_references(outputs, asked) == want
    holders.clear()
    want = donation.python_outside_references(outputs, asked)
    assert donation.outside_references(outputs, asked) == want
    assert donation.outside_references is _compiled.outside_references


@needs_compiled
def test_outside_references_counts_what_holds_a_leaf():
    with la.config(eager_size=0):
        a = la.array(np.ones(4))
        y = (a * 2.0 + a)._node  # `a`'s node: held by the Array and two inputs tuples
    leaf = a._node
    want = donation.python_outside_references([y], [leaf])
    assert donation.outside_references([y], [leaf]) == want
    del a  # now the local `leaf` and the list of asked nodes hold it
    assert donation.outside_references([y], [leaf]) == [2]
    t = la.Array(y.inputs[0])  # an Array on the intermediate `a * 2.0`: held
    assert donation.outside_references([y], [leaf]) is None
    del t
    assert donation.outside_references([y, y.inputs[0]], [leaf]) == [2]  # outputs are evaluated
    with pytest.raises(TypeError):
        donation.outside_references([1], [])
    with pytest.raises(TypeError):
        tails.operations_reading([y], [])


@needs_compiled
def test_a_cut_loop_walks_its_graphs_in_c(monkeypatch):
    """A stencil loop cut by the node budget, donating at its cuts: no Python walk of the cut
    graphs (the crossing test, the pending count and donation's counts are graph/_node.c's).
    The at-once rule is off: with it, each region write is evaluated at its line (eager.py
    `region_write_now`) and no chain is left to cut."""

    def refuse(*args):
        raise AssertionError("a Python walk of a cut graph")

    monkeypatch.setattr(donation, "_edges", refuse)
    monkeypatch.setattr(donation, "MIN_BYTES", 0)
    la.clear_caches()
    x0 = np.linspace(0.0, 1.0, 5000)
    want = x0.copy()
    before = la.cache_info()
    with la.config(backend="c", max_graph_nodes=12, eager_size=0):
        x = la.asarray(x0.copy())
        for _ in range(30):
            x[1:-1] = (x[:-2] + x[2:]) * 0.5
            want[1:-1] = (want[:-2] + want[2:]) * 0.5
        got = np.asarray(x)
    info = la.cache_info()
    np.testing.assert_allclose(got, want, rtol=1e-12)
    assert info.graph_cuts - before.graph_cuts >= 2
    assert info.inputs_donated > before.inputs_donated
    assert cuts.operations_reading is _compiled.operations_reading
    la.clear_caches()
