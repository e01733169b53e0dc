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


def test_a_result_the_pool_keeps_is_still_written_in_place(fresh_caches):
    """The pool's reference to a result it keeps for the next run is not another reader: writes
    into the handle's buffer go in place (a sieve's 5,000,001-element `is_prime[i*i::i] = False`
    each built a plan, 332 a call, past the plan cache's 256), element writes through the C path
    too, and the next run of the plan does not take the buffer while the handle holds it."""
    values = np.linspace(0.0, 1.0, 300 * 300).reshape(300, 300)  # 720 KB: kept by the pool
    with la.config(backend="c"):
        x = la.array(values)
        A = la.sqrt(x * 2.0 + 1.0)
        A[0, 0]  # computed: A's buffer is the plan's result
        assert spare_outputs.holds(A._node.data) == 1
        address = A._node.data.ctypes.data  # (a reference here would be a reader: a copy)
        built = la.cache_info().plans_built
        A[5::7, 3] = 2.0
        A[4, 4] = -1.0
        A[::3] = 0.0
        A[7, 1:9] = 0.5
        assert A._node.data.ctypes.data == address and la.cache_info().plans_built == built
        B = la.sqrt(x * 2.0 + 1.0)  # the same plan again: a buffer of its own
        np.testing.assert_array_equal(B, np.sqrt(values * 2.0 + 1.0))
        want = np.sqrt(values * 2.0 + 1.0)
        want[5::7, 3], want[4, 4], want[::3], want[7, 1:9] = 2.0, -1.0, 0.0, 0.5
        np.testing.assert_array_equal(A, want)
