"""Cached plans keep their intermediates' workspaces; the plan cache bounds those bytes
(`plan_cache_bytes`) and an evicted plan's workspace is freed with it (issue 10, item 8)."""

import gc
import weakref

import numpy as np
import pytest

import lazyarray as la
from lazyarray import cache
from lazyarray.runtime import available_backends


def _matmul_of_scaled(n):
    x = la.asarray(np.ones((n, n)))
    return np.asarray((x * 2.0) @ la.asarray(np.ones((n, 4))))  # x * 2.0 is an intermediate


def test_plans_are_bounded_by_workspace_bytes(backend, fresh_caches):
    with la.config(plan_cache_bytes=3 * 2**20):
        for n in (512, 513, 514, 515):  # four sizes with a ~2 MB workspace each (C)
            np.testing.assert_allclose(_matmul_of_scaled(n), 2.0 * n)
        assert cache.plan_cache.nbytes <= 3 * 2**20
        kept = [e.plan for e in cache.plan_cache._entries.values()]
        if backend == "c":
            # one size-generic plan (lazyarray/generic_plan.py) keeping one size's workspace
            assert len(kept) == 1 and kept[0].workspace_bytes >= 512 * 512 * 8
            evicted = la.cache_info().plan_evictions + sum(getattr(p, "evictions", 0)
                                                           for p in kept)
            assert evicted >= 3


@pytest.mark.skipif("c" not in available_backends(), reason="no C compiler")
def test_an_evicted_plans_workspace_is_freed(fresh_caches):
    with la.config(backend="c", plan_cache_bytes=3 * 2**20):
        _matmul_of_scaled(600)
        (plan,) = [e.plan for e in cache.plan_cache._entries.values()]
        plan = next(iter(getattr(plan, "_plans", {0: plan}).values()))  # the concrete plan
        alive = weakref.ref(plan)
        del plan
        _matmul_of_scaled(601)
        gc.collect()
        assert alive() is None


def _scaled_then_reshaped(x):
    """An intermediate (x * 2.0, the matmul's operand) and a reshape: an exact-size plan."""
    return np.asarray(((la.asarray(x) * 2.0) @ la.asarray(np.ones((x.shape[1], 4))))
                      .reshape(-1, 2))


@pytest.mark.parametrize("generic", [False, True], ids=["exact", "size-generic"])
def test_a_plan_whose_workspace_exceeds_the_bound_is_built_once(backend, fresh_caches, generic):
    """Issue 25: a plan whose own workspace is past `plan_cache_bytes` was evicted by its own
    insert and rebuilt on every call. It is kept and frees its workspace after each run."""
    x = np.random.default_rng(0).standard_normal((600, 300))  # x * 2.0: 1.4 MB
    run = _matmul_of_scaled if generic else _scaled_then_reshaped
    arg = 600 if generic else x
    want = (2.0 * x @ np.ones((300, 4))).reshape(-1, 2) if not generic else 2.0 * 600
    with la.config(plan_cache_bytes=2**20):
        for call in range(3):
            before = la.cache_info()
            np.testing.assert_allclose(run(arg), want, rtol=1e-12)
            after = la.cache_info()
            if call:
                assert after.plans_built == before.plans_built
                assert after.plan_hits == before.plan_hits + 1
        assert cache.plan_cache.nbytes <= 2**20
        if backend == "c":
            (plan,) = [e.plan for e in cache.plan_cache._entries.values()]
            plan = next(iter(getattr(plan, "_plans", {0: plan}).values()))  # the concrete plan
            assert plan.workspace_bytes == 0 and getattr(plan._local, "ws", None) is None


def test_doitgen_builds_its_plan_once_and_keeps_no_broadcast_operand(backend, fresh_caches):
    """doitgen's `A[:] = (A.reshape(r, q, 1, p) @ C4).reshape(r, q, p)`: the stack times one
    matrix is one matmul (lazyarray/linalg.py `_folded_matmul`), not C4 broadcast over the
    r * q batch (which was r * q * p * p elements of workspace, past the bound at ~3.5e6)."""
    r, q, p = 12, 10, 16
    rng = np.random.default_rng(0)
    a0, c4 = rng.standard_normal((r, q, p)), rng.standard_normal((p, p))
    a, want = la.asarray(a0.copy()), a0.copy()
    for call in range(3):
        before = la.cache_info()
        a[:] = (a.reshape(r, q, 1, p) @ la.asarray(c4)).reshape(r, q, p)
        want[:] = (want.reshape(r, q, 1, p) @ c4).reshape(r, q, p)
        np.testing.assert_allclose(np.asarray(a), want, rtol=1e-10)
        if call:
            assert la.cache_info().plans_built == before.plans_built
    if backend == "c":
        (plan,) = [e.plan for e in cache.plan_cache._entries.values()]
        assert plan.workspace_bytes <= 2 * a0.nbytes  # no (r, q, p, p) intermediate


def test_plans_past_the_byte_bound_together_free_workspaces_before_evicting(backend, fresh_caches):
    """Three plans of ~1.4 MB workspace each under a 2 MB bound: the least recently used free
    their workspaces after each run instead of being evicted, so a second call builds none
    (aliasing_updates at N=3,750 rebuilt its six plans on every call)."""
    rng = np.random.default_rng(1)
    xs = [rng.standard_normal((600, 300)) for _ in range(3)]

    def program():
        return [np.asarray((f(la.asarray(x)) @ la.asarray(np.ones((300, 4)))).reshape(-1, 2))
                for x, f in zip(xs, (la.sin, la.cos, la.exp))]  # three structures: three plans

    with la.config(plan_cache_bytes=2 * 2**20):
        first = program()
        before = la.cache_info()
        second = program()
        after = la.cache_info()
        assert after.plans_built == before.plans_built and after.plan_evictions == 0
        assert cache.plan_cache.nbytes <= 2 * 2**20
    assert len(cache.plan_cache._entries) == 3
    for got, again, x, f in zip(first, second, xs, (np.sin, np.cos, np.exp)):
        want = (f(x) @ np.ones((300, 4))).reshape(-1, 2)
        np.testing.assert_allclose(got, want, rtol=1e-12)
        np.testing.assert_allclose(again, want, rtol=1e-12)
