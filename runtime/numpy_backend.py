"""The `numpy` backend: always available; the reference every other backend is checked against."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..graph import Graph
from .backend import Backend, register_backend
from .interpreter import run_reference


class NumpyBackend(Backend):
    name = "numpy"

    def compile(self, program: Any) -> Any:
        """A plan running the kernel IR with NumPy (added by the passes issue)."""
        raise NotImplementedError("the numpy kernel-IR executor is not built yet")

    def run(self, plan: Any, leaves: list[Any]) -> list[np.ndarray]:
        return run_reference(plan, leaves)


register_backend("numpy", NumpyBackend)
