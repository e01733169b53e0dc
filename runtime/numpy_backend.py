"""The `numpy` backend: always available; the reference every other backend is checked against."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..graph.kernel_ir import Program
from .backend import Backend, register_backend
from .interpreter import run_reference
from .kernel_numpy import NumpyProgramPlan


class NumpyBackend(Backend):
    name = "numpy"

    def compile(self, program: Program) -> NumpyProgramPlan:
        """A plan running the kernel IR with NumPy: `.run(arrays, scalars) -> outputs`."""
        return NumpyProgramPlan(program)

    def run(self, plan: Any, leaves: list[Any]) -> list[np.ndarray]:
        return run_reference(plan, leaves)


register_backend("numpy", NumpyBackend)
