"""The `numpy` backend: always available; the reference every other backend is checked against."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..graph import Graph
from .backend import Backend, register_backend
from .interpreter import run_reference


class NumpyBackend(Backend):
    name = "numpy"

    def run(self, plan: Any, leaves: list[Any]) -> list[np.ndarray]:
        if isinstance(plan, Graph):
            return run_reference(plan, leaves)
        return plan.run(leaves)


register_backend("numpy", NumpyBackend)
