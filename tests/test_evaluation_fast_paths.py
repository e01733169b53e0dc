"""Evaluation keeps the pending intermediates the user's locals hold (lazyarray/evaluation.py), and
skips looking for them when graph/_node.c's refcount test proves nothing outside the graph refers
to an intermediate. The behaviour tests run on both paths (the exhaustive tier reruns this file
with LAZYARRAY_PURE_PYTHON=1, which always scans)."""

from __future__ import annotations

import sys
import types

import numpy as np
import pytest

import lazyarray as la
from lazyarray import evaluation
from lazyarray.graph import node as graph_node

shared_intermediates = getattr(graph_node._compiled, "shared_intermediates", None)
needs_compiled = pytest.mark.skipif(shared_intermediates is None,
                                    reason="graph/_node.c not built or not in use")


def _leaf(n=8):
    return la.array(np.arange(n, dtype=np.float32))


@needs_compiled
def test_shared_intermediates_sees_every_outside_reference():
    a = _leaf()
    t = a * 2.0
    y = t + 1.0
    assert shared_intermediates([y._node])  # a local Array holds `t`
    del t
    assert not shared_intermediates([y._node])
    w = a * 3.0
    z = w * w  # one node twice in one inputs tuple: two references, both the graph's
    box = [w]
    del w
    assert shared_intermediates([z._node])  # a list holds it
    box.clear()
    assert not shared_intermediates([z._node])
    node = (a - 1.0)._node
    q = la.Array(node) * 2.0
    assert shared_intermediates([q._node])  # a bare node reference counts too
    del node
    assert not shared_intermediates([q._node])
    u = a * 4.0
    v = u + 1.0
    assert not shared_intermediates([v._node, u._node])  # outputs are evaluated anyway
    assert not shared_intermediates([a._node])  # leaves are never held
    assert not shared_intermediates([])
    with pytest.raises(TypeError):
        shared_intermediates([a])


@needs_compiled
def test_no_frame_is_read_when_nothing_holds_an_intermediate(monkeypatch):
    """The ~1.5 us frame scan runs only when some intermediate is referenced from outside."""
    calls = []

    def getframe(depth=0):
        calls.append(depth)
        return sys._getframe(depth + 1)

    monkeypatch.setattr(evaluation, "sys", types.SimpleNamespace(_getframe=getframe))
    a = _leaf()
    np.asarray(la.exp(a * 0.5) + 1.0)
    assert calls == []
    t = a * 0.5
    y = la.exp(t) + 1.0
    np.asarray(y)
    assert calls
    assert t._node.op.name == "input"  # held, computed anyway: kept


def _evaluate_in_callee(y):
    return np.asarray(y * 2.0)


def test_held_locals_are_kept_in_every_user_frame():
    a = _leaf()
    t = la.exp(a * 0.5)
    y = t + 1.0
    got = _evaluate_in_callee(y)
    np.testing.assert_allclose(got, (np.exp(np.arange(8, dtype=np.float32) * 0.5) + 1) * 2,
                               rtol=1e-6)
    assert t._node.op.name == "input" and y._node.op.name == "input"


def test_intermediates_held_outside_locals_stay_pending():
    """Only locals count (a list could hold library temporaries): unchanged by the refcount test."""
    a = _leaf()
    box = [la.exp(a * 0.5)]
    y = box[0] + 1.0
    np.asarray(y)
    assert box[0]._node.op.name != "input"
    np.testing.assert_allclose(np.asarray(box[0]), np.exp(np.arange(8, dtype=np.float32) * 0.5),
                               rtol=1e-6)


def test_loop_with_nothing_held_reuses_one_plan(fresh_caches):
    a = _leaf(16)
    b = la.array(np.linspace(0, 1, 16, dtype=np.float32))
    for _ in range(20):
        x = a * 0.3 + b
        x = la.tanh(x) * b - a
        out = np.asarray(la.maximum(x, a) - 0.5)
    an, bn = np.asarray(a), np.asarray(b)
    x = np.tanh(an * np.float32(0.3) + bn) * bn - an
    np.testing.assert_allclose(out, np.maximum(x, an) - 0.5, rtol=1e-6)
    assert la.cache_info().plans_built == 1


def _hook_like(op):
    from lazyarray import cuts

    return cuts._user_point(op), graph_node._compiled.user_point(2, op)


@pytest.mark.skipif(getattr(graph_node._compiled, "user_point", None) is None,
                    reason="graph/_node.c not built or not in use")
def test_compiled_user_point_matches_the_python_walk():
    """lazyarray.cuts' program point (code, instruction, op) from C equals the Python walk's."""
    for op in ("add", None):
        python_point, compiled_point = _hook_like(op)
        assert python_point == compiled_point
        assert python_point[0] is sys._getframe().f_code and python_point[2] == op


@pytest.mark.skipif(getattr(graph_node._compiled, "bind_leaves", None) is None,
                    reason="graph/_node.c not built or not in use")
def test_compiled_bind_leaves_matches_the_python_loop():
    from lazyarray import cache

    assert cache.bind_leaves is not cache.python_bind_leaves
    a, b = _leaf(), _leaf()
    y = (a * 0.5 + b) * 2 - a * True
    _, leaves = cache.graph_signature([y._node])
    got, want = cache.bind_leaves(leaves), cache.python_bind_leaves(leaves)
    assert len(got[0]) == 2 and len(got[1]) >= 2
    assert [id(x) for x in got[0]] == [id(x) for x in want[0]] and got[1] == want[1]
    assert cache.bind_leaves([]) == ([], [])
    with pytest.raises(TypeError):
        cache.bind_leaves([a])
