"""The cupy backend on a real GPU; skipped (with the reason) where CuPy or a device is missing.

The differential suite itself runs on cupy through the `backend` fixture (tests/conftest.py), which
parametrizes over `available_backends()`; these tests cover what is specific to the GPU backend.
Run them with `bash benchmarks/gpu_suite.sh` on a GPU machine.
"""

from __future__ import annotations

import numpy as np
import pytest
from fresh_process import modules_imported
from lazyarray.runtime import BackendUnavailable, get_backend
from lazyarray.runtime.cuda.backend import CupyBackend

import lazyarray as la

pytestmark = pytest.mark.gpu  # benchmarks/gpu_suite.sh runs `-m gpu` first

_REASON = CupyBackend.unavailable_reason()
needs_device = pytest.mark.skipif(_REASON is not None,
                                  reason=f"cupy backend unavailable: {_REASON}")


def test_import_lazyarray_never_imports_cupy():
    assert "cupy" not in modules_imported()["import"], "cupy imported"  # a fresh interpreter


@pytest.mark.skipif(_REASON is None, reason="a GPU is present")
def test_asking_for_cupy_without_a_gpu_says_why():
    with pytest.raises(BackendUnavailable, match="cupy"):
        get_backend("cupy")
    with pytest.raises(BackendUnavailable, match="cupy"):
        la.array(np.ones(3), device="cuda:0")


def test_unknown_device_is_a_clear_error():
    with pytest.raises(ValueError, match="unknown device"):
        la.array(np.ones(3), device="tpu")


@needs_device
def test_cupy_array_is_imported_without_copy_by_asarray_copy_false():
    import cupy as cp

    x = cp.arange(6, dtype=cp.float32)
    a = la.asarray(x, copy=False)
    assert a.device == "cuda:0" and a._node.data.data.ptr == x.data.ptr
    b = la.array(x)  # copies: later changes to x do not reach b
    x[0] = 100
    assert float(b[0]) == 0.0


@needs_device
def test_dlpack_and_cuda_array_interface_round_trip():
    import cupy as cp

    x = cp.arange(12, dtype=cp.float64).reshape(3, 4)
    y = la.from_dlpack(x) * 2
    with la.config(backend="cupy"):
        out = cp.asarray(y)  # reads __cuda_array_interface__ of the evaluated GPU Array
        back = cp.from_dlpack(y)
    cp.testing.assert_array_equal(out, x * 2)
    cp.testing.assert_array_equal(back, x * 2)


@needs_device
def test_host_data_moved_with_device_argument_evaluates_on_gpu():
    xn = np.random.default_rng(0).random((64, 33), dtype=np.float32)
    with la.config(backend="cupy"):
        x = la.array(xn, device="cuda:0")
        got = np.asarray(la.block_until_ready(la.nn.softmax(x, axis=-1)))
    want = np.exp(xn - xn.max(-1, keepdims=True))
    want = want / want.sum(-1, keepdims=True)
    np.testing.assert_allclose(got, want, rtol=2e-6, atol=1e-7)


@needs_device
def test_second_run_of_a_plan_compiles_nothing():
    backend = get_backend("cupy")
    xn = np.random.default_rng(1).random(1000, dtype=np.float32)
    with la.config(backend="cupy"):
        np.asarray(la.tanh(la.array(xn)) * 2.0)
        before = dict(backend.stats)
        np.asarray(la.tanh(la.array(xn + 1)) * 3.0)
    assert backend.stats["compiles"] == before["compiles"]


@needs_device
def test_reductions_are_deterministic_and_match_numpy():
    xn = np.random.default_rng(2).standard_normal(1 << 20).astype(np.float32)
    with la.config(backend="cupy"):
        runs = [np.asarray(la.sum(la.array(xn))) for _ in range(3)]
    assert runs[0] == runs[1] == runs[2]
    np.testing.assert_allclose(runs[0], xn.astype(np.float64).sum(), rtol=1e-5)


def _torch_cuda():
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("PyTorch sees no CUDA device")
    return torch


@needs_device
def test_torch_cuda_tensors_in_and_out_through_dlpack_and_the_cuda_array_interface():
    torch = _torch_cuda()
    t = torch.arange(12, dtype=torch.float32, device="cuda").reshape(3, 4)
    want = np.arange(12, dtype=np.float32).reshape(3, 4) * 2 + 1
    with la.config(backend="cupy"):
        shared = la.asarray(t, copy=False)  # through __dlpack_device__, __cuda_array_interface__
        y = la.block_until_ready(la.from_dlpack(t) * 2 + 1)
        back = torch.from_dlpack(y)  # the evaluated GPU Array's __dlpack__
        read = torch.as_tensor(y, device="cuda")  # its __cuda_array_interface__
        z = np.asarray(shared * 2 + 1)
    assert y.device == "cuda:0" and back.device.type == "cuda" and read.device.type == "cuda"
    np.testing.assert_array_equal(back.cpu().numpy(), want)
    np.testing.assert_array_equal(read.cpu().numpy(), want)
    np.testing.assert_array_equal(z, want)


@needs_device
def test_to_device_moves_between_host_and_gpu_and_keeps_values():
    xn = np.random.default_rng(3).standard_normal((5, 7))
    with la.config(backend="cupy"):
        x = la.array(xn)
        g = x.to_device("cuda:0")
        assert g.device == "cuda:0" and g.to_device("cuda") is g
        h = (la.exp(g) + 1).to_device("cpu")
    assert h.device == "cpu"
    np.testing.assert_allclose(np.asarray(h), np.exp(xn) + 1, rtol=1e-12)


@needs_device
@pytest.mark.parametrize("reduce", ["sum", "mean", "max"])
def test_two_stage_reductions_reuse_their_workspace_across_runs(reduce):
    """Two rows of 2^17 float32: the two-stage frame (runtime/cuda/launch.py), partials in a plan
    workspace made on the first run and reused by the second, with other data."""
    rng = np.random.default_rng(4)
    with la.config(backend="cupy"):
        for _ in range(2):
            xn = rng.standard_normal((2, 1 << 17)).astype(np.float32)
            got = np.asarray(getattr(la, reduce)(la.array(xn) * 2, axis=-1))
            want = getattr(np, reduce)(xn.astype(np.float64) * 2, axis=-1)
            np.testing.assert_allclose(got, want, rtol=1e-5)


@needs_device
@pytest.mark.parametrize("dtype", ["bool", "int8", "uint8", "uint16", "int64", "float32",
                                   "float64"])
def test_scalar_arguments_of_every_width_are_passed_by_value(dtype):
    """Python scalars are kernel parameters (docs/cuda_backend.md): one plan, two scalar values;
    NEP 50 (weak scalars) decides the result dtype, as in NumPy."""
    xn = (np.arange(40) % 7).astype(dtype)
    scalars = (True, False) if dtype == "bool" else (3, 5)
    with la.config(backend="cupy"):
        for s in scalars:
            got = la.where(la.array(xn) > 0, la.array(xn) * s, s)
            want = np.where(xn > 0, xn * s, s)
            assert got.dtype == want.dtype
            np.testing.assert_array_equal(np.asarray(got), want)


@needs_device
def test_results_read_on_another_stream_are_complete():
    """`run` enqueues on the backend's non-blocking stream; CuPy reading through
    `__cuda_array_interface__` on its own stream must see the finished result."""
    import cupy as cp

    xn = np.random.default_rng(5).standard_normal(1 << 22).astype(np.float32)
    with la.config(backend="cupy"):
        y = la.tanh(la.array(xn)) * 3 + la.sin(la.array(xn))
        stream = cp.cuda.Stream(non_blocking=True)
        with stream:
            got = cp.asarray(y) * 1
        stream.synchronize()
    np.testing.assert_allclose(cp.asnumpy(got), np.tanh(xn) * 3 + np.sin(xn), rtol=2e-6, atol=2e-6)
