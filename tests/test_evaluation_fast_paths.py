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
from lazyarray.graph.signature import python_graph_signature

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

    def frame_arrays(frames, scan=evaluation._frame_arrays):
        calls.append(frames)
        return scan(frames)

    monkeypatch.setattr(evaluation, "sys", types.SimpleNamespace(_getframe=getframe))
    if evaluation._frame_arrays is not None:  # the compiled scan reads the frames in place
        monkeypatch.setattr(evaluation, "_frame_arrays", frame_arrays)
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


evaluation_walk = getattr(graph_node._compiled, "evaluation_walk", None)


def _held_by_local():
    buf = np.arange(6, dtype=np.float32)
    a, b = la.Array(_bind_leaf(buf)), la.Array(_bind_leaf(buf))  # two leaves, one buffer
    t = a * 2.0
    return (t + b)._node, t


def _held_by_list():
    c = _leaf(6)
    box = [la.exp(c)]
    return (box[0] * c)._node, box


def _twice_in_one_tuple():
    w = _leaf(6) * 3.0
    return (w * w)._node, None


def _chain():
    a, x = _leaf(6), _leaf(6)
    for _ in range(12):
        x = x * 0.5 + a
    return x._node, None


def _mixed_leaves():
    buf = np.arange(6, dtype=np.float32)
    a, b, c = la.Array(_bind_leaf(buf)), la.Array(_bind_leaf(buf)), _leaf(6)
    return (a * b - c * True + 1)._node, None


def _reduction():
    c = _leaf(6)
    return (la.sum(c * c) / 3)._node, None


_WALK_CASES = (_held_by_local, _held_by_list, _twice_in_one_tuple, _chain, _mixed_leaves,
               _reduction)


def _bind_leaf(buf):
    from lazyarray import _bind

    return _bind.leaf(buf)


@pytest.mark.skipif(evaluation_walk is None, reason="graph/_node.c not built or not in use")
def test_evaluation_walk_is_the_three_walks_in_one():
    """graph_signature, shared_intermediates and bind_leaves of one output, from one walk."""
    from lazyarray import cache

    for case in _WALK_CASES:
        node, holder = case()
        walked = evaluation_walk(node)
        assert (walked is None) == shared_intermediates([node]) == (holder is not None)
        del holder  # now nothing outside the graph refers to an intermediate
        walked = evaluation_walk(node)
        assert walked is not None and not shared_intermediates([node])
        sig, leaves, arrays, scalars = walked
        assert (sig, leaves) == python_graph_signature([node])
        want_arrays, want_scalars = cache.python_bind_leaves(leaves)
        assert [id(x) for x in arrays] == [id(x) for x in want_arrays] and scalars == want_scalars
    with pytest.raises(TypeError):
        evaluation_walk(_leaf())  # an Array, not a Node


@pytest.mark.skipif(evaluation_walk is None, reason="graph/_node.c not built or not in use")
def test_evaluating_one_array_walks_its_graph_once(monkeypatch, fresh_caches):
    """np.asarray(y) takes the signature, the refcount test and the leaves from one walk: the
    separate walks are never called (they still serve several Arrays, and held intermediates)."""
    from lazyarray import cache

    def refuse(*args):
        raise AssertionError("walked twice")

    monkeypatch.setattr(cache, "graph_signature", refuse)
    monkeypatch.setattr(cache, "bind_leaves", refuse)
    monkeypatch.setattr(evaluation, "_shared_intermediates", refuse)
    an = np.linspace(-1, 1, 16, dtype=np.float32)
    a = la.array(an)
    for s in (0.5, 0.25, 2.0):
        got = np.asarray(la.exp(a * s) - a)
        np.testing.assert_allclose(got, np.exp(an * np.float32(s)) - an, rtol=1e-6)
        total = float(la.sum(a * s))  # outside `assert`: pytest's rewriting holds its parts
        assert total == pytest.approx(float(np.sum(an * np.float32(s))))


def test_a_repeated_evaluation_reuses_the_last_plan_looked_up(monkeypatch, fresh_caches):
    """A loop's evaluations after the first hit skip the plan cache's tables (cache._last_hit) but
    still count as hits; a plan the cache drops is never run from the memo."""
    from lazyarray import cache

    lookups = []
    real = cache.plan_cache.lookup
    monkeypatch.setattr(cache.plan_cache, "lookup", lambda key: lookups.append(1) or real(key))
    a = _leaf(16)
    for k in range(6):
        np.testing.assert_array_equal(np.asarray(a * 2.0 + k), np.arange(16) * 2.0 + k)
        if k == 1:  # built, then found by lookup: from now on the memo answers
            first_two = len(lookups)
    info = la.cache_info()
    assert (info.plans_built, info.plan_hits, len(lookups)) == (1, 5, first_two)
    la.clear_caches()
    np.asarray(a * 2.0 + 1)
    assert la.cache_info().plans_built == 1  # cleared: built again, not run from the memo
    with la.config(plan_cache_size=1):
        for k in range(3):  # two structures alternating in a cache of one: each one evicts
            np.asarray(a * 2.0 + k)
            np.asarray(la.exp(a) + k)
    assert la.cache_info().plans_built == 1 + 5  # the first one found the plan cached above
    with la.config(plan_cache_size=0):
        for _ in range(3):
            np.asarray(a * 2.0 + 1)
    assert la.cache_info().plans_built == 6 + 3  # nothing kept: every evaluation builds


def test_thread_state_has_its_defaults_in_every_thread():
    """cache._state answers `busy` and `stand_ins` in a fresh thread without raising inside (a
    getattr default on a thread-local costs an exception per evaluation)."""
    import threading

    from lazyarray import cache

    seen = []
    worker = threading.Thread(target=lambda: seen.append((cache._state.busy,
                                                          cache._state.stand_ins)))
    worker.start()
    worker.join()
    assert seen == [(False, None)]


@pytest.mark.skipif(evaluation_walk is None, reason="graph/_node.c not built or not in use")
@pytest.mark.parametrize("n", [3, 16, 17, 40])
def test_same_buffer_leaves_past_the_walks_inline_table(n):
    """The compiled walk keeps the first 16 buffers in place and the rest in a dict: leaves that
    share a buffer are recorded alike on both sides of that line."""
    from lazyarray.graph.signature import graph_signature

    bufs = [np.full(4, float(k)) for k in range(n)]
    leaves = [la.Array(_bind_leaf(b)) for b in bufs] + [la.Array(_bind_leaf(b)) for b in bufs[::3]]
    total = leaves[0]
    for x in leaves[1:]:
        total = total + x
    assert graph_signature([total._node]) == python_graph_signature([total._node])
