"""Run a graph on a backend: bind leaves to a plan and execute it.

Plans come in two kinds: a reference plan (node by node through NumPy; the oracle, used when
optimization is off) and a compiled plan, built by a backend from the kernel-IR `Program` that the
passes produced. The user layer (lazyarray/evaluation.py) decides which, and owns the plan cache.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..graph import Graph, get_op
from .backend import get_backend
from .interpreter import run_reference

_INPUT, _SCALAR = get_op("input"), get_op("scalar")


@dataclass(frozen=True)
class EvaluateOptions:
    backend: str = "numpy"
    optimize: bool = True
    # lazyarray/nan_debug.py: a check after the plan runs, not part of the plan (nor of its key)
    debug_nans: bool = field(default=False, compare=False, repr=False)
    # Positions of the array leaves whose buffers the plan may write over (lazyarray/donation.py):
    # part of the repr, hence of the plan cache's key
    donate: tuple[int, ...] = ()


def split_leaves(graph: Graph) -> tuple[list[Any], list[Any]]:
    """(array leaf values, scalar leaf values) in the graph's canonical (topological) leaf order."""
    arrays, scalars = [], []
    for n in graph.nodes:
        if n.op is _INPUT:
            arrays.append(n.data)
        elif n.op is _SCALAR:
            scalars.append(n.data)
    return arrays, scalars


def host_value(value: Any) -> Any:
    """`value` as NumPy can read it: device data (a leaf of the cupy backend; CuPy refuses
    `np.asarray`: "Implicit conversion to a NumPy array is not allowed") copied to the host by
    that backend; host arrays and Python scalars as they are."""
    if isinstance(value, (np.ndarray, np.generic)) or not hasattr(
            type(value), "__cuda_array_interface__"):
        return value
    return get_backend("cupy").to_host(value)


class ReferencePlan:
    """Runs a graph node by node. Holds the graph, so it is not meant for the plan cache.
    The oracle: its leaves are read on the host (device leaves copied there) and its results are
    NumPy arrays on every backend; its callers (the error path's re-run naming this graph's
    lines, the floating-point report's re-run, the tests) compare or report, never keep them."""

    def __init__(self, graph: Graph) -> None:
        self.graph = graph

    def run(self, arrays: Sequence[Any], scalars: Sequence[Any]) -> list[Any]:
        a, s = iter(arrays), iter(scalars)
        values = [host_value(next(a)) if n.op is _INPUT else next(s)
                  for n in self.graph.nodes if n.is_leaf]
        return run_reference(self.graph, values)


def evaluate(outputs: Sequence[Any], options: EvaluateOptions) -> list[Any]:
    """Reference evaluation of output nodes (no passes): the oracle every backend is tested against."""
    graph = Graph(outputs)
    arrays, scalars = split_leaves(graph)
    return ReferencePlan(graph).run(arrays, scalars)
