"""Arrays are immutable values: every path out (NumPy, DLPack) is read-only or a copy, and every path
in copies unless the caller asks to share with `copy=False` (issue 10, item 1). Foreign arrays:
where they live comes from `__dlpack_device__`, and operators take them as NumPy would (item 9)."""

import numpy as np
import pytest

import lazyarray as la
from sites import assert_site


class HostTensor:
    """A DLPack producer on the CPU that, like a CPU torch tensor, has a
    `__cuda_array_interface__` attribute that only raises."""

    def __init__(self, data: np.ndarray) -> None:
        self.data = data

    def __dlpack__(self, **kwargs):
        return self.data.__dlpack__(**kwargs)

    def __dlpack_device__(self):
        return (1, 0)  # kDLCPU

    @property
    def __cuda_array_interface__(self):
        raise AttributeError("not a CUDA tensor")


class Deferring(HostTensor):
    __array_ufunc__ = None  # NEP 13's opt-out: NumPy (and lazyarray) defer to its operators

    def __radd__(self, other):
        return "deferred"


@pytest.mark.parametrize("export", [np.asarray, lambda x: x.__array__(), np.from_dlpack])
def test_exports_are_read_only(export):
    x = la.array([1.0, 2.0, 3.0])
    y = x * 2
    out = export(x)
    assert not out.flags.writeable
    with pytest.raises(ValueError, match="read-only"):
        out[0] = 100
    np.testing.assert_array_equal(np.asarray(y), [2.0, 4.0, 6.0])


def test_copying_exports_are_writable_and_detached():
    x = la.array([1.0, 2.0])
    for out in (np.array(x), x.__array__(copy=True), np.from_dlpack(x, copy=True)):
        out[0] = 7
        assert out.flags.writeable
    legacy = np.from_dlpack(_LegacyConsumer(x))  # a consumer without max_version gets a copy
    assert not np.shares_memory(legacy, np.asarray(x))
    np.testing.assert_array_equal(np.asarray(x), [1.0, 2.0])


def test_asarray_of_numpys_scalar_is_a_writable_copy():
    """Where NumPy has a scalar (a 0-d result of an op, an element), np.asarray gives a fresh
    writable 0-d array, as `np.asarray(np.float64(v))`: scikit-learn's brier_score_loss wrote
    `np.asarray(np.average(a, weights=w))` in place ("output array is read-only"). A 0-d array
    (`la.zeros(())`) is exported read-only as any other."""
    x = la.array([1.0, 2.0, 4.0])
    for t in (x.sum(), x[1], np.average(x, weights=x), x @ x):
        t_value = float(t)
        out = np.asarray(t)
        out *= 0.5
        assert out.flags.writeable and float(t) == t_value
    assert not np.asarray(la.zeros(())).flags.writeable
    assert not np.asarray(x.sum(), copy=False).flags.writeable  # no copy asked: the shared view


class _LegacyConsumer:
    def __init__(self, x):
        self.x = x

    def __dlpack__(self, **kwargs):
        kwargs.pop("max_version", None)
        return self.x.__dlpack__(**kwargs)

    def __dlpack_device__(self):
        return self.x.__dlpack_device__()


def test_asarray_copies_even_a_read_only_view_of_a_writable_base(backend):
    base = np.arange(3.0)
    view = base.view()
    view.flags.writeable = False
    pending = la.asarray(view) * 2
    base[0] = 100
    np.testing.assert_array_equal(np.asarray(pending), [0.0, 2.0, 4.0])


def test_asarray_copy_false_shares_and_says_when_it_cannot():
    data = np.arange(4.0)
    shared = la.asarray(data, copy=False)
    assert shared._node.data is data
    with pytest.raises(ValueError, match="copy=False") as info:
        la.asarray(np.arange(8.0)[::2], copy=False)
    assert_site(info, "test_immutability.py")
    with pytest.raises(ValueError, match="copy=False"):
        la.asarray(data, dtype="float32", copy=False)


def test_from_dlpack_copies_unless_asked_to_share():
    data = np.arange(3.0)
    copied, shared = la.from_dlpack(data), la.from_dlpack(data, copy=False)
    assert np.shares_memory(shared._node.data, data)
    assert not np.shares_memory(copied._node.data, data)
    data[0] = 9
    np.testing.assert_array_equal(np.asarray(copied), [0.0, 1.0, 2.0])


def test_cpu_dlpack_producers_import_without_a_gpu():
    t = HostTensor(np.arange(3.0))
    for make in (la.asarray, la.array, la.from_dlpack):
        a = make(t)
        assert a.device == "cpu"
        np.testing.assert_array_equal(np.asarray(a + 1), [1.0, 2.0, 3.0])
    t.data[0] = 5  # every import above copied
    np.testing.assert_array_equal(np.asarray(la.asarray(HostTensor(np.zeros(1)))), [0.0])


def test_operators_take_foreign_arrays_as_numpy_does():
    a = la.ones(3)
    np.testing.assert_array_equal(np.asarray(a + HostTensor(np.arange(3.0))), [1.0, 2.0, 3.0])
    np.testing.assert_array_equal(np.asarray(a * HostTensor(np.ones(3))), np.ones(3))
    assert a + Deferring(np.ones(3)) == "deferred"  # NumPy defers to __array_ufunc__ = None too
    assert np.ones(3) + Deferring(np.ones(3)) == "deferred"
    with pytest.raises(TypeError):
        a + object()
