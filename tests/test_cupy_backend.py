"""The cupy backend on a real GPU; skipped (with the reason) where CuPy or a device is missing.

The differential suite itself runs on cupy through the `backend` fixture (tests/conftest.py), which
parametrizes over `available_backends()`; these tests cover what is specific to the GPU backend.
Run them with `bash benchmarks/gpu_suite.sh` on a GPU machine.
"""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest
from lazyarray.runtime import BackendUnavailable, get_backend
from lazyarray.runtime.cupy_backend import CupyBackend

import lazyarray as la

_REASON = CupyBackend.unavailable_reason()
gpu = pytest.mark.skipif(_REASON is not None, reason=f"cupy backend unavailable: {_REASON}")


def test_import_lazyarray_never_imports_cupy():
    code = "import sys, lazyarray; assert 'cupy' not in sys.modules, 'cupy imported'"
    subprocess.run([sys.executable, "-c", code], check=True)


@pytest.mark.skipif(_REASON is None, reason="a GPU is present")
def test_asking_for_cupy_without_a_gpu_says_why():
    with pytest.raises(BackendUnavailable, match="cupy"):
        get_backend("cupy")
    with pytest.raises(BackendUnavailable, match="cupy"):
        la.array(np.ones(3), device="cuda:0")


def test_unknown_device_is_a_clear_error():
    with pytest.raises(ValueError, match="unknown device"):
        la.array(np.ones(3), device="tpu")


@gpu
def test_cupy_array_is_imported_without_copy_by_asarray_copy_false():
    import cupy as cp

    x = cp.arange(6, dtype=cp.float32)
    a = la.asarray(x, copy=False)
    assert a.device == "cuda:0" and a._node.data.data.ptr == x.data.ptr
    b = la.array(x)  # copies: later changes to x do not reach b
    x[0] = 100
    assert float(b[0]) == 0.0


@gpu
def test_dlpack_and_cuda_array_interface_round_trip():
    import cupy as cp

    x = cp.arange(12, dtype=cp.float64).reshape(3, 4)
    y = la.from_dlpack(x) * 2
    with la.config(backend="cupy"):
        out = cp.asarray(y)  # reads __cuda_array_interface__ of the evaluated GPU Array
        back = cp.from_dlpack(y)
    cp.testing.assert_array_equal(out, x * 2)
    cp.testing.assert_array_equal(back, x * 2)


@gpu
def test_host_data_moved_with_device_argument_evaluates_on_gpu():
    xn = np.random.default_rng(0).random((64, 33), dtype=np.float32)
    with la.config(backend="cupy"):
        x = la.array(xn, device="cuda:0")
        got = np.asarray(la.block_until_ready(la.nn.softmax(x, axis=-1)))
    want = np.exp(xn - xn.max(-1, keepdims=True))
    want = want / want.sum(-1, keepdims=True)
    np.testing.assert_allclose(got, want, rtol=2e-6, atol=1e-7)


@gpu
def test_second_run_of_a_plan_compiles_nothing():
    backend = get_backend("cupy")
    xn = np.random.default_rng(1).random(1000, dtype=np.float32)
    with la.config(backend="cupy"):
        np.asarray(la.tanh(la.array(xn)) * 2.0)
        before = dict(backend.stats)
        np.asarray(la.tanh(la.array(xn + 1)) * 3.0)
    assert backend.stats["compiles"] == before["compiles"]


@gpu
def test_reductions_are_deterministic_and_match_numpy():
    xn = np.random.default_rng(2).standard_normal(1 << 20).astype(np.float32)
    with la.config(backend="cupy"):
        runs = [np.asarray(la.sum(la.array(xn))) for _ in range(3)]
    assert runs[0] == runs[1] == runs[2]
    np.testing.assert_allclose(runs[0], xn.astype(np.float64).sum(), rtol=1e-5)
