"""Large results are reused by the next run of their plan once nobody holds them
(runtime/spare_outputs.py): no fresh pages to fault in, and never a buffer someone still reads."""

import gc
import weakref

import numpy as np
import pytest

import lazyarray as la
from lazyarray.runtime import available_backends, spare_outputs

pytestmark = pytest.mark.skipif("c" not in available_backends(), reason="no C compiler")

N = 2**17  # float32: 512 KiB, above spare_outputs.MIN_BYTES


def _sigmoid(values: np.ndarray) -> np.ndarray:
    with la.config(backend="c"):
        x = la.array(values)  # held: the plan may not write its result over it (donation,
        return np.asarray(la.nn.sigmoid(x))  # lazyarray/donation.py), so the pool serves it


def _base(view: np.ndarray) -> np.ndarray:
    while view.base is not None and isinstance(view.base, np.ndarray):
        view = view.base
    return view


def test_a_dropped_result_is_the_next_runs_output(fresh_caches):
    x1, x2 = np.full(N, 1.0, np.float32), np.full(N, -2.0, np.float32)
    first = weakref.ref(_base(_sigmoid(x1)))  # the result and its Array are dropped at once
    assert first() is not None  # kept by the pool
    second = _sigmoid(x2)
    assert _base(second) is first()
    np.testing.assert_allclose(second, 1 / (1 + np.exp(2.0)), rtol=1e-6)


def test_held_results_and_views_are_never_written(fresh_caches):
    x = [np.full(N, v, np.float32) for v in (0.0, 1.0, 2.0, 3.0)]
    held = _sigmoid(x[0])
    view = _sigmoid(x[1])[::2]  # only a view of the second result survives
    for v in x[2:]:
        _sigmoid(v)
    np.testing.assert_array_equal(held, np.float32(0.5))
    np.testing.assert_allclose(view, 1 / (1 + np.exp(-1.0)), rtol=1e-6)
    assert _base(_sigmoid(x[3])) is not _base(held) and _base(view) is not _base(held)


def test_the_pool_is_bounded_and_freed_with_its_plans(fresh_caches, monkeypatch):
    monkeypatch.setattr(spare_outputs, "max_bytes", 3 * N * 4)
    refs = [weakref.ref(_base(_sigmoid(np.full((k, N), 1.0, np.float32)))) for k in (1, 2, 3)]
    assert spare_outputs._nbytes <= 3 * N * 4
    assert [r() is not None for r in refs] == [False, False, True]  # the oldest went first
    la.clear_caches()  # the plans and their workspaces go, their pool entries with them
    gc.collect()
    assert refs[2]() is None and spare_outputs._nbytes == 0
