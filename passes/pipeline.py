"""The pass pipeline: one explicit, ordered list of named stages (Dask's `optimize_until`).

    dce -> cse -> fold -> views -> reshapes -> cse_again -> fuse -> plan_memory

Graph stages map Graph -> Graph; `fuse` turns the optimized graph into a FusionPlan (kernel-IR
Program plus the nodes each step computes); `plan_memory` assigns storages and the peak bytes.
`optimize_until(graph, "views")` stops after a stage, for tests and `la.explain`.
"""

from __future__ import annotations

from collections.abc import Callable

from ..graph import Graph, get_op
from ..graph.node import cuts_paused
from ..graph.kernel_ir import Program
from .cse import eliminate_common_subexpressions
from .dce import eliminate_dead_code
from .fold import fold_constants
from .fuse import FusionPlan, plan_fusion
from .plan_memory import plan_memory
from .reshape_sink import sink_reshapes
from .scalars import expand_scalars
from .views import simplify_views

_INPUT, _SCALAR = get_op("input"), get_op("scalar")

GRAPH_PASSES: tuple[tuple[str, Callable[[Graph], Graph]], ...] = (
    ("dce", eliminate_dead_code),
    ("cse", eliminate_common_subexpressions),
    ("fold", fold_constants),
    ("views", simplify_views),
    ("reshapes", sink_reshapes),  # a reshape of an elementwise value: to its leaves (no kernel)
    ("cse_again", eliminate_common_subexpressions),  # rewrites can make new twins
)
STAGES: tuple[str, ...] = tuple(name for name, _ in GRAPH_PASSES) + ("fuse", "plan_memory")
# Passes that change nothing when run on their own result: skipped when no pass changed the graph
# since they last ran (a pass that changes nothing returns the Graph it was given, rewrite.py).
IDEMPOTENT = (eliminate_common_subexpressions,)

Result = Graph | FusionPlan


def optimize_until(graph: Graph, stage: str) -> Result:
    """Run the pipeline up to and including `stage`: a Graph for graph stages, a FusionPlan after
    `fuse` and `plan_memory` (whose program then has its memory plan)."""
    if stage not in STAGES:
        raise ValueError(f"unknown stage {stage!r}; stages: {', '.join(STAGES)}")
    with cuts_paused():  # passes build nodes: the node budget must not cut in the middle
        return _run_until(graph, stage)


def _run_until(graph: Graph, stage: str) -> Result:
    graph = current = expand_scalars(graph)  # before any pass: they see 0-d scalars broadcast
    produced: dict[Callable, Graph] = {}
    for name, run in GRAPH_PASSES:
        if produced.get(run) is not current:
            current = run(current)
            if run in IDEMPOTENT:
                produced[run] = current
        if name == stage:
            return current
    arrays = [n for n in graph.nodes if n.op is _INPUT]
    scalars = [n for n in graph.nodes if n.op is _SCALAR]
    plan = plan_fusion(current, arrays, scalars)
    if stage == "fuse":
        return plan
    plan.program = plan_memory(plan.program)
    return plan


def optimize(graph: Graph) -> Program:
    """Graph -> the memory-planned kernel-IR Program (leaf data stays out of it)."""
    result = optimize_until(graph, "plan_memory")
    assert isinstance(result, FusionPlan)
    return result.program
