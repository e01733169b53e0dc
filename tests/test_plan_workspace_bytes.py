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
