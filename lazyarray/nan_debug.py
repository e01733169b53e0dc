"""NaN provenance: `la.config(debug_nans=True)` / LAZYARRAY_DEBUG_NANS=1.

A fused kernel computes many ops in one loop, so a NaN in its output says nothing about which op
made it. With debug_nans on, an evaluation whose outputs hold a NaN or an infinity, or whose
kernels raised a floating-point flag other than underflow (an intermediate inf that a later op
turned finite again, `exp(log(0))`), re-runs its graph node by node through the ops' NumPy
references and raises FloatingPointError at the first op that made a NaN or an infinity out of
inputs without them (a NaN from inputs holding no NaN: `0/0`, `inf - inf`, `log(-1)`; an
infinity from finite inputs: `1/0`, `exp(800)`): its name, the line that built it, what it made
and where, and the other ops of the kernel it was fused into. Elementwise ops are judged element
by element (an inf input that propagates through `x + 1`, a NaN input through anything, is no
news); other ops (reductions, matmul) by their whole inputs.

Off (the default) it costs nothing: no kernel and no pass is added to any plan (the plans are the
same ones), the evaluation reads one field of its options, and graph/_node.c's hit path, which
never checks, is not used while it is on (cache.remember_hit records nothing).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .graph import Graph, Node
from .graph.node import format_site
from .graph.kernel_ir import Kernel
from .graph.registry import OpKind
from .passes.pipeline import optimize_until
from .runtime import fp_status
from .runtime.evaluate import host_value
from .runtime.interpreter import _apply

_FLAGGED = 1 | 2 | 8  # divide, over, invalid (underflow makes no NaN or inf)


def check(outputs: Sequence[Node], buffers: Sequence[Any], bits: int) -> None:
    """After an evaluation with debug_nans on: raise FloatingPointError naming the op that made
    the first NaN/inf from finite inputs, if one did."""
    if not bits & _FLAGGED and all(_finite(b) for b in buffers):
        return
    try:
        found = first_nonfinite(outputs)
    except Exception:  # data the references cannot read: the evaluation stands
        return
    if found is not None:
        raise FloatingPointError(_message(outputs, *found))


def _finite(value: Any) -> bool:
    """Whether a result holds no NaN or infinity; a device (CuPy) buffer is read on the host
    (a copy per evaluation, paid only while debug_nans is on: the cupy backend has no
    floating-point flags, so its values are all the check has)."""
    a = host_value(value)
    if not isinstance(a, (np.ndarray, np.generic)) or a.dtype.kind not in "fc":
        return True  # integers and bools are finite
    return bool(np.isfinite(a).all())


def first_nonfinite(outputs: Sequence[Node]) -> tuple[Node, np.ndarray, np.ndarray] | None:
    """(node, its value, the mask of the elements it made non-finite from finite inputs) for the
    first such node in topological order, or None. Node by node through the references."""
    graph = Graph(list(outputs))
    values: dict[int, np.ndarray] = {}
    with fp_status.collecting():  # NumPy's own reports are not wanted here
        for n in graph.nodes:
            if n.is_leaf:
                data = np.asarray(host_value(n.data), dtype=n.dtype)
                values[id(n)] = np.broadcast_to(data, n.shape)
                continue
            args = tuple(values[id(i)] for i in n.inputs)
            out = values[id(n)] = _apply(n, args)
            if out.dtype.kind not in "fc" or np.isfinite(out).all():
                continue
            made = _made_here(n, args, out)
            if made.any():
                return n, out, made
    return None


def _made_here(node: Node, args: tuple[np.ndarray, ...], out: np.ndarray) -> np.ndarray:
    """The elements of `out` this op made: a NaN where its inputs hold none (`inf - inf`, `0/0`),
    an infinity where its inputs are finite (`1/0`, `exp(800)`). An inf input that stays inf,
    or a NaN that propagates, is not new."""
    nan, inf = np.isnan(out), np.isinf(out)
    floats = [a for a in args if a.dtype.kind in "fc"]
    if node.op.kind is OpKind.ELEMENTWISE:
        try:
            for a in floats:
                nan &= ~np.broadcast_to(np.isnan(a), out.shape)
                inf &= np.broadcast_to(np.isfinite(a), out.shape)
            return nan | inf
        except ValueError:  # not broadcastable to the output: judge the whole inputs
            nan, inf = np.isnan(out), np.isinf(out)
    if any(np.isnan(a).any() for a in floats):
        nan = np.zeros(out.shape, bool)
    if not all(np.isfinite(a).all() for a in floats):
        inf = np.zeros(out.shape, bool)
    return nan | inf


def _message(outputs: Sequence[Node], node: Node, out: np.ndarray, made: np.ndarray) -> str:
    values = out[made].ravel()
    kinds = [k for k, hit in (("nan", np.isnan(values).any()), ("inf", np.isinf(values).any()))
             if hit]
    where = tuple(int(i) for i in np.argwhere(made)[0]) if made.ndim else ()
    text = (f"debug_nans: {node.op.name} built at {format_site(node.site)} made "
            f"{'/'.join(kinds)} ({int(made.sum())} of {made.size} elements, the first at index "
            f"{where}) from inputs without them")
    others = _kernel_ops(outputs, node)
    if others:
        text += "; fused with " + ", ".join(others)
    return text


def _kernel_ops(outputs: Sequence[Node], node: Node) -> list[str]:
    """The other ops of the kernel `node` was fused into (the passes re-run on this graph; the
    caller, cache.run_cached, has marked the thread busy: no node-budget cut meanwhile)."""
    try:
        plan = optimize_until(Graph(list(outputs)), "plan_memory")
    except Exception:  # the report names the op without its kernel rather than fail
        return []
    me = (node.op.name, format_site(node.site))
    for step, nodes in zip(plan.program.steps, plan.step_nodes):
        if isinstance(step, Kernel):
            ops = [(n.op.name, site) for n, site in zip(nodes, step.sites)]
            if me in ops:
                return [f"{name} at {site}" for name, site in ops
                        if (name, site) != me and name != "broadcast_to"]
    return []
