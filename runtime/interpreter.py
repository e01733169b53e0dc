"""Run a graph node by node through each op's NumPy reference: slow, obviously right, the oracle.

Intermediate results are dropped as soon as their last reader has run, so a 100,000-op chain runs in
the memory of a few arrays.
"""

from __future__ import annotations

import operator
from collections.abc import Sequence

import numpy as np

from ..graph import Graph, Node, get_op
from ..graph.node import _UNKEYED, format_site
from ..graph.ops_elementwise import UFUNC_REFERENCE_CODE
from ..graph.ops_unchecked import POWER_FAST_PATHS
from .backend import DATA_ERRORS, at_site
from .fp_status import collector, is_collecting, numpy_errstate


class EvaluationError(RuntimeError):
    """An op failed while evaluating; the message names the op and the user line that built it."""


def run_reference(graph: Graph, leaf_values: Sequence[object] | None = None) -> list[np.ndarray]:
    """Evaluate `graph.outputs`. Leaf values default to the data the leaves carry."""
    nodes = graph.nodes
    index = graph.index
    remaining = [0] * len(nodes)
    for n in nodes:
        for i in n.inputs:
            remaining[index[id(i)]] += 1
    for o in graph.outputs:
        remaining[index[id(o)]] += 1
    values: list[np.ndarray | None] = [None] * len(nodes)
    bound = iter(leaf_values) if leaf_values is not None else None
    report = collector()  # the report's re-run: each message keeps the line that built its op
    with numpy_errstate():
        for k, n in enumerate(nodes):
            if n.is_leaf:
                data = next(bound) if bound is not None else n.data
                values[k] = np.asarray(data, dtype=n.dtype)
                if values[k].shape != n.shape:  # a weak scalar of an op's shape: broadcast
                    values[k] = np.broadcast_to(values[k], n.shape)
                continue
            if report is not None:
                report.site, report.op = n.site, k
            args = tuple(values[index[id(i)]] for i in n.inputs)
            values[k] = _apply(n, args)
            for i in n.inputs:
                j = index[id(i)]
                remaining[j] -= 1
                if remaining[j] == 0:
                    values[j] = None
    return [values[index[id(o)]] for o in graph.outputs]  # type: ignore[misc]


def forward(a: np.ndarray) -> np.ndarray:
    """`a`, copied if it runs backwards in memory: NumPy's ufuncs take other loops over negative
    strides, and those differ in the last bit (np.cbrt(x[::-1]) != np.cbrt(x)[::-1] for about half
    of float64 values; exp, cosh too), so a flipped read would not equal the same op stored and
    then flipped (the fuzzer's seeds 920931, 925851)."""
    return np.array(a) if any(s < 0 for s in a.strides) else a


# NumPy's scalar math (`np.float64 / np.float64`: a 0-d result of 0-d operands, as lazyarray's
# stand-ins for NumPy's scalars are) names its errors "scalar divide", not the ufunc's "divide":
# the floating-point report's re-run computes such ops with Python's operator on NumPy scalars.
_SCALAR_MATH = {np.add: operator.add, np.subtract: operator.sub, np.multiply: operator.mul,
                np.divide: operator.truediv, np.floor_divide: operator.floordiv,
                np.remainder: operator.mod, np.power: operator.pow}


_CAST, _INPUT, _POWER, _SCALAR = (get_op(n) for n in ("cast", "input", "power", "scalar"))
# graph/ops_unchecked.py's power twins (x * x, 1 / x, sqrt for a scalar exponent), by op: on
# NumPy scalars NumPy runs its scalar power, whose report names 'scalar power'
_POWER_TWINS = {op: exponent for exponent, op in POWER_FAST_PATHS.items()}


def _scalar_math(node: Node, args: tuple[np.ndarray, ...]) -> object:
    """The scalar operator NumPy runs for `node` on NumPy scalars, or None."""
    if node.shape or any(a.ndim for a in args) or not is_collecting():
        return None
    exponent = _POWER_TWINS.get(node.op)
    if exponent is not None and len(args) == 1 and not _array_leaf(node):
        return lambda x, e=node.dtype.type(exponent): x ** e
    if len(args) != 2:
        return None
    if getattr(node.op.reference, "__code__", None) is not UFUNC_REFERENCE_CODE and not (
            node.op is _POWER and node.dtype.kind in "fc"):
        return None  # (not the plain ufunc call: its own rule; a float power's is np.power)
    if _array_leaf(node) or all(_python_number(i) for i in node.inputs):
        return None
    return _SCALAR_MATH.get(node.op.ufunc)


def _python_number(node: Node) -> bool:
    """A Python number's scalar argument, also through the cast to the loop's dtype: only a
    ufunc call takes two (`np.divide(1, 0)`: NumPy makes them 0-d arrays, and its report says
    'divide', not 'scalar divide'; Python's own operator computes `1 / 0`)."""
    while node.op is _CAST and len(node.inputs) == 1:
        node = node.inputs[0]
    return node.op is _SCALAR


def _array_leaf(node: Node) -> bool:
    """An input is a 0-d array's data (`la.asarray(np.array(0.0))`), also through the cast to
    the loop's dtype (`x[0] ** np.array(2)` of a float x): NumPy's ufunc loop."""
    for i in node.inputs:
        while i.op is _CAST and len(i.inputs) == 1:
            i = i.inputs[0]
        if i.is_leaf and i.op is _INPUT and i.attrs is not _UNKEYED[0]:
            return True
    return False


def _apply(node: Node, args: tuple[np.ndarray, ...]) -> np.ndarray:
    args = tuple(forward(a) for a in args)
    try:
        if "fp_unchecked" in node.op.properties:  # NumPy's dot loops (graph/ops_unchecked.py)
            with np.errstate(all="ignore"):
                out = np.asarray(node.op.reference(args, node.attrs, node.dtype))
        elif (scalar_op := _scalar_math(node, args)) is not None:
            out = np.asarray(scalar_op(*(a[()] for a in args)))
        else:
            out = np.asarray(node.op.reference(args, node.attrs, node.dtype))
    except DATA_ERRORS as exc:
        raise at_site(exc, node.op.name, format_site(node.site)) from None
    except Exception as exc:
        raise EvaluationError(
            f"{node.op.name} built at {format_site(node.site)} failed: {exc}"
        ) from exc
    if out.dtype != node.dtype:
        out = out.astype(node.dtype)
    if out.shape != node.shape:
        raise EvaluationError(f"{node.op.name}: reference returned shape {out.shape}, "
                              f"expected {node.shape}")
    return out
