"""GPU data at the API edge: importing CuPy/DLPack/`__cuda_array_interface__` arrays and `device=`.

Device arrays become leaves holding a CuPy array. `la.array(x)`, `la.asarray(x)` and
`la.from_dlpack(x)` copy (on the device: an async device-to-device copy), so a pending expression never
sees later in-place changes to `x` — the same rule as for NumPy inputs (GUIDE.md: a view of user memory
must never change under a pending expression); `copy=False` shares, and the caller must not write.
Where the data lives is asked of `__dlpack_device__` first (a CPU torch tensor has a
`__cuda_array_interface__` attribute that only raises), so CPU producers import without a GPU.
CuPy is imported only when device data or `device="cuda..."` shows up.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from . import _bind
from .graph import dtypes
from .runtime import get_backend
from .array import Array
from .graph.node import user_site

_KDL_CUDA = 2  # DLPack device type of CUDA memory


def is_device_array(obj: Any) -> bool:
    """True for GPU data: the DLPack device when the producer reports one, else the CUDA array
    interface (only GPU producers have one that works)."""
    if isinstance(obj, _host_types()):
        return False
    probe = getattr(obj, "__dlpack_device__", None)
    if probe is not None:
        try:
            return probe()[0] == _KDL_CUDA
        except Exception:  # cannot report its device: fall back to the CUDA array interface
            pass
    return hasattr(type(obj), "__cuda_array_interface__")


def _host_types() -> tuple[type, ...]:
    return (np.ndarray, np.generic)


def wants_device(device: Any) -> bool:
    if device is None or device == "cpu":
        return False
    if isinstance(device, str) and (device == "cuda" or device.startswith("cuda:")):
        return True
    raise ValueError(f"unknown device {device!r}; use 'cpu', 'cuda' or 'cuda:N'")


def _device_index(device: Any) -> int:
    return int(device.split(":", 1)[1]) if isinstance(device, str) and ":" in device else 0


def device_buffer(obj: Any, dtype: Any, copy: bool, device: Any, site: Any) -> Any:
    """A C-contiguous CuPy array for `obj` (device data, or host data asked onto a device)."""
    backend = get_backend("cupy")  # raises BackendUnavailable with the install hint
    cp = backend.cupy_module()
    with cp.cuda.Device(_device_index(device) if device is not None else cp.cuda.Device().id):
        if is_device_array(obj):
            arr = cp.asarray(obj) if hasattr(type(obj), "__cuda_array_interface__") \
                else cp.from_dlpack(obj)
        else:  # the upload is the copy
            arr, copy = backend.from_host(_bind.host_array(obj, dtype, site, copy=False)), False
        want = dtypes.to_dtype(dtype) if dtype is not None else arr.dtype
        if want not in dtypes.SUPPORTED:
            raise _bind.fail(TypeError, f"unsupported dtype {want} on the device", site)
        if copy or arr.dtype != want or not arr.flags.c_contiguous:
            with backend.stream:
                arr = cp.array(arr, dtype=want, order="C", copy=True)
    return arr


def from_dlpack(x: Any, *, device: Any = None, copy: bool | None = None) -> Any:
    """numpy.from_dlpack / Array API `from_dlpack`: an Array of a DLPack producer's data (GPU or
    CPU): a copy, or with `copy=False` the producer's memory itself (the caller must not write)."""
    site = user_site(1)
    share = copy is False
    _bind.check_foreign_dtype(x, site)
    if is_device_array(x) or wants_device(device):
        return Array(_bind.leaf(device_buffer(x, None, not share, device, site), site))
    host = np.from_dlpack(x)
    return Array(_bind.leaf(_bind.host_array(host, None, site, copy=not share), site))
