"""A stand-in for device data where there is no GPU: code paths that must read the cupy
backend's buffers on the host (the reference plans, debug_nans) are tested with it."""

from __future__ import annotations

import numpy as np


class DeviceArray:
    """Stands for a CuPy array: NumPy may not read it (CuPy's `__array__` raises), its backend's
    `to_host` may (`runtime.evaluate.host_value` tells device data by its CUDA array interface)."""

    __cuda_array_interface__ = property(lambda self: {"shape": self.host.shape})

    def __init__(self, host: np.ndarray) -> None:
        self.host = host

    def __array__(self, *args, **kwargs):
        raise TypeError("Implicit conversion to a NumPy array is not allowed")


class FakeDevice:
    """The backend calls host_value and the device reference plan make."""

    device = "cuda:0"

    def to_host(self, buffer: DeviceArray) -> np.ndarray:
        return buffer.host

    def from_host(self, array: np.ndarray) -> DeviceArray:
        return DeviceArray(np.array(array))
