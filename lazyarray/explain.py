"""`la.explain` and `la.to_dot`: what the optimizer did with a computation, without running it.

`explain` reports the kernels (the ops each fused and the user lines they came from, the buffers it
reads and writes, its generated source where the backend has a printer), the library calls, the
peak intermediate bytes of the memory plan, the graph before and after the graph passes, and the
notes the fusion planner wrote when it gave a value its own buffer ("matmul input must be
materialized", "different index space", the recompute cost rule).
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from . import cache
from .array import Array
from .dask import dask_report
from .graph import Graph
from .graph.kernel_ir import Kernel, LibraryCall, Program
from .passes import FusionPlan, optimize_until
from .runtime.backend import source_backend
from .runtime.select import resolve_backend
from .settings import get_settings


class KernelReport(BaseModel):
    name: str
    fused: list[str] = Field(description="user-level ops it computes, as 'op at file:line'")
    inputs: list[str] = Field(description="buffers it reads")
    outputs: list[str] = Field(description="buffers it writes")
    stages: int
    source: str | None = Field(None, description="generated code for the chosen backend, if any")


class Explanation(BaseModel):
    backend: str
    num_kernels: int
    num_library_calls: int
    kernels: list[KernelReport]
    library_calls: list[str]
    peak_bytes: int
    graph_before: str
    graph_after: str
    notes: list[str]
    dask: str | None = Field(None, description="backend='dask': each step's chunk grid and tasks")

    def __str__(self) -> str:
        lines = [(f"{self.num_kernels} kernel(s), {self.num_library_calls} library call(s), "
                  f"peak intermediate bytes {self.peak_bytes} (backend {self.backend})")]
        for call in self.library_calls:
            lines.append(f"  library call {call}")
        for k in self.kernels:
            reads = ", ".join(k.inputs) or "-"
            lines.append(f"  kernel {k.name}: {k.stages} stage(s), reads {reads}; "
                         f"writes {', '.join(k.outputs)}")
            lines.extend(f"    {f}" for f in k.fused)
            if k.source:
                lines.extend("    | " + s for s in k.source.splitlines())
        if self.dask:
            lines.append("on Dask (chunk grid per step's index space, tasks per step):")
            lines.append(self.dask)
        if self.notes:
            lines.append("why fusion stopped:")
            lines.extend(f"  {n}" for n in self.notes)
        lines += ["graph before passes:", self.graph_before,
                  "graph after passes:", self.graph_after]
        return "\n".join(lines)


def _operand(program: Program, call: LibraryCall, k: int) -> str:
    """A library call's operand; `.T`: read through the BLAS transpose flag."""
    return _buffer(program, call.inputs[k]) + (".T" if k in call.transposed else "")


def _buffer(program: Program, slot: int) -> str:
    b = program.buffers[slot]
    role = ""
    if slot in program.inputs:
        role = f" (input {program.inputs.index(slot)})"
    elif slot in program.outputs:
        role = f" (output {program.outputs.index(slot)})"
    return f"buf{slot} {b.dtype}{list(b.shape)}{role}"


def _source(backend: str, kernel: Kernel) -> str | None:
    """The kernel in the backend's language; printers need no device (runtime.source_backend).
    An op without a template in that backend's dialect is reported instead of failing explain."""
    try:
        return source_backend(backend).kernel_source(kernel)
    except NotImplementedError as exc:
        return f"(no source: {exc})"


def _plan(arrays: tuple[Array, ...]) -> tuple[Graph, FusionPlan]:
    graph = Graph([a._node for a in arrays])
    with cache.busy():  # as evaluation: nodes the passes build must not trigger a node-budget cut
        plan = optimize_until(graph, "plan_memory")
    assert isinstance(plan, FusionPlan)
    return graph, plan


def explain(*arrays: Array, backend: str | None = None) -> Explanation:
    """How `la.eval(*arrays)` would run: kernels, library calls, memory, and why."""
    name = resolve_backend(backend or get_settings().backend)
    graph, plan = _plan(arrays)
    program = plan.program
    kernels = []
    for step, nodes in zip(program.steps, plan.step_nodes):
        if not isinstance(step, Kernel):
            continue
        fused = [f"{n.op.name} at {s}" for n, s in zip(nodes, step.sites)]
        kernels.append(KernelReport(
            name=step.name, fused=fused, stages=len(step.stages),
            inputs=[_buffer(program, s) for s in step.input_slots],
            outputs=[_buffer(program, s) for s in step.output_slots],
            source=_source(name, step)))
    calls = [f"{c.op.name}({', '.join(_operand(program, c, k) for k in range(len(c.inputs)))}) -> "
             f"{_buffer(program, c.output)} at {c.site}" for c in program.library_calls]
    return Explanation(backend=name, num_kernels=len(program.kernels),
                       num_library_calls=len(program.library_calls), kernels=kernels,
                       library_calls=calls, peak_bytes=program.peak_bytes,
                       graph_before=graph.to_text(), graph_after=plan.graph.to_text(),
                       notes=list(program.notes),
                       dask=_dask_report(arrays) if name == "dask" else None)


def _dask_report(arrays: tuple[Array, ...]) -> str:
    return dask_report(*arrays)


def to_dot(*arrays: Array) -> str:
    """Graphviz DOT of the optimized graph; each kernel's nodes form a cluster."""
    _, plan = _plan(arrays)
    graph = plan.graph
    idx = graph.index
    lines = ["digraph lazyarray {", "  node [shape=box, fontname=monospace];"]
    placed: set[int] = set()
    for k, (step, nodes) in enumerate(zip(plan.program.steps, plan.step_nodes)):
        members = [n for n in nodes if id(n) in idx and id(n) not in placed]
        if isinstance(step, Kernel):
            lines.append(f'  subgraph cluster_{k} {{ label="{step.name}"; style=rounded;')
            lines.extend(f"    n{idx[id(n)]};" for n in members)
            lines.append("  }")
        placed.update(id(n) for n in members)
    for i, n in enumerate(graph.nodes):
        shape = "ellipse" if n.is_leaf else ("box3d" if n.op.kind.value in ("matmul", "opaque")
                                             else "box")
        lines.append(f'  n{i} [label="{n.op.name}\\n{n.dtype}{list(n.shape)}", shape={shape}];')
        lines.extend(f"  n{idx[id(src)]} -> n{i};" for src in n.inputs)
    lines.append("}")
    return "\n".join(lines)
