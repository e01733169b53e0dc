"""PyTorch as a real client (CPU torch; skipped where torch is not installed, see
docs/semantics.md): tensors into Arrays, Arrays into tensors through DLPack, mixed operators, the
immutability of Arrays against torch's writes, dtypes and bfloat16's error, on every backend."""

from __future__ import annotations

import numpy as np
import pytest

import lazyarray as la
from numpy_oracle import on_device
from sites import assert_site

# torch is imported by the fixture below when this module's first test runs, not at collection
# (~1.4 s of CPU in every xdist worker otherwise), and the module's tests go to one worker.
pytestmark = pytest.mark.xdist_group("torch_interop")
torch = None
DTYPES: dict = {}


@pytest.fixture(scope="module", autouse=True)
def _import_torch():
    global torch
    torch = pytest.importorskip("torch")
    DTYPES.update({
        torch.bool: "bool", torch.int8: "int8", torch.int16: "int16", torch.int32: "int32",
        torch.int64: "int64", torch.uint8: "uint8", torch.uint16: "uint16",
        torch.uint32: "uint32", torch.uint64: "uint64", torch.float32: "float32",
        torch.float64: "float64", torch.complex64: "complex64", torch.complex128: "complex128"})


def _tensor(dtype):
    return torch.arange(6).reshape(2, 3).to(dtype) if dtype is not torch.bool else \
        torch.tensor([[True, False, True], [False, False, True]])


def test_asarray_of_a_tensor_copies_every_dtype(backend):
    for dtype, name in DTYPES.items():
        t = _tensor(dtype)
        a = la.asarray(t)
        assert a.dtype == np.dtype(name) and a.shape == (2, 3)
        want = t.numpy().copy()
        t.view(torch.uint8)[0, 0] = 1 if dtype is not torch.bool else 0  # torch writes its own
        np.testing.assert_array_equal(np.asarray(a), want, err_msg=name)  # ... not the Array's
        if name[0] != "c":  # complex -> float64 would warn ComplexWarning, as NumPy
            assert la.asarray(t, dtype=la.float64).dtype == la.float64
    strided = torch.arange(12.0).reshape(3, 4).T
    np.testing.assert_array_equal(np.asarray(la.asarray(strided) * 2), strided.numpy() * 2)
    assert la.asarray(torch.ones(2, dtype=torch.float16)).dtype == la.float16


def test_bfloat16_and_grad_tensors_fail_clearly():
    t = torch.ones(3, dtype=torch.bfloat16)
    for convert in (la.asarray, la.array, la.from_dlpack):
        with pytest.raises(TypeError, match=r"bfloat16.*tensor.float\(\)") as info:
            convert(t)
        assert_site(info, r"test_torch_interop\.py:\d+")
    np.testing.assert_array_equal(np.asarray(la.asarray(t.float())), np.ones(3, np.float32))
    with pytest.raises(RuntimeError, match="requires grad"):  # torch's own error: detach first
        la.asarray(torch.ones(2, requires_grad=True))


def test_from_dlpack_of_an_array_and_torch_cannot_write_into_it(backend):
    """On a GPU backend the capsule is device memory: torch makes a CUDA tensor (read here with
    `.cpu()`), NumPy refuses it (BufferError, as for a CuPy array), and the export is a copy
    (CuPy's DLPack has no read-only flag: lazyarray/array.py __dlpack__). `copy=False` never
    copies, so torch, which would write through the flag, gets BufferError on every device. An
    Array made from host data keeps it on the host until a computation reads it (`x.device` and
    its capsule say "cpu" there); a computed one lives on the backend's device."""
    x = la.asarray(np.arange(6.0).reshape(2, 3))
    y = x * 2.0 + 1.0  # pending: DLPack evaluates it
    for a, want in ((x, np.arange(6.0).reshape(2, 3)), (y, np.arange(6.0).reshape(2, 3) * 2 + 1)):
        t = torch.from_dlpack(a)
        assert t.dtype == torch.float64 and tuple(t.shape) == (2, 3)
        assert t.is_cuda == (a.device != "cpu")
        np.testing.assert_array_equal(t.cpu().numpy(), want)
        t.add_(100.0)  # torch ignores DLPack's read-only flag: it got a copy
        np.testing.assert_array_equal(np.asarray(a), want)
    assert y.device == ("cuda:0" if on_device() else "cpu")
    np.testing.assert_array_equal(np.asarray(x + 1), np.arange(6.0).reshape(2, 3) + 1)
    with pytest.raises(BufferError, match="read-only"):
        torch.from_dlpack(x, copy=False)
    if on_device():
        with pytest.raises(BufferError):
            np.from_dlpack(y)
    else:
        assert not np.from_dlpack(x).flags.writeable  # NumPy keeps the flag: no copy there
    for dtype, name in DTYPES.items():
        if dtype in (torch.uint16, torch.uint32, torch.uint64):
            continue  # torch's DLPack import has no unsigned types beyond uint8
        a = la.asarray(_tensor(dtype).numpy())
        assert torch.from_dlpack(a).dtype == dtype, name


def test_mixed_operators_give_arrays_as_numpy_computes(backend):
    """torch's reflected operators decline Arrays (`a + tensor` was a TypeError both ways round)
    or compute in torch's dtype at torch's line (`a / tensor` as `tensor.reciprocal() * a`, in
    float32): the tensor is an operand like an ndarray (copied), the result an Array, computed as
    NumPy computes on the tensor's values."""
    a_np, t_np = np.linspace(-2, 2, 6).reshape(2, 3), np.arange(1.0, 4.0, dtype=np.float32)
    a, t = la.asarray(a_np), torch.from_numpy(t_np.copy())
    cases = {"a + t": (a + t, a_np + t_np), "t + a": (t + a, t_np + a_np),
             "a - t": (a - t, a_np - t_np), "t * a": (t * a, t_np * a_np),
             "a / t": (a / t, a_np / t_np), "t ** a": (t ** a, t_np ** a_np),
             "a // t": (a // t, a_np // t_np), "a @ t": (a @ t, a_np @ t_np),
             "a < t": (a < t, a_np < t_np), "t <= a": (t <= a, t_np <= a_np),
             "a == t": (a == t, a_np == t_np)}
    for name, (got, want) in cases.items():
        assert isinstance(got, la.Array), name
        assert got.dtype == want.dtype and got.shape == want.shape, name
        np.testing.assert_allclose(np.asarray(got), want, rtol=1e-15, err_msg=name)
