"""The one entry point from the user API into the runtime: evaluate some output nodes."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..graph import Graph, Node
from .backend import get_backend


@dataclass(frozen=True)
class EvaluateOptions:
    backend: str = "numpy"
    optimize: bool = True


def evaluate(outputs: Sequence[Node], options: EvaluateOptions) -> list[Any]:
    """Buffers (on the backend's device) holding the values of `outputs`, in order."""
    backend = get_backend(options.backend)
    graph = Graph(outputs)
    leaves = [n.data for n in graph.nodes if n.is_leaf]
    return backend.run(graph, leaves)
