"""Size-free graph signatures and probe graphs: one plan for every batch size.

The exact signature (`graph.signature`) holds every size, so a loop whose batch size changes each
step would build a plan per size. For graphs whose ops never hold a size in their attributes
(elementwise, reductions, matmul, broadcasts to the output shape, permutes, library calls whose
result's dims are their inputs' dims: `take`, the gather of boolean-mask indexing), sizes only flow
in from the leaves. There the *generic* signature replaces every size by its class: 1 stays 1 (the
broadcast pattern), and each other distinct size value is numbered in order of first appearance.
So `relu(x @ w + b)` for x of shape (37, 16) and (412, 16) has one generic signature, (c0, c1) @
(c1, c2), while x of shape (16, 16) ties two classes and gets another.

The plan for a generic signature is built once from a *probe graph*: the same graph, data-free, with
class k's size replaced by the k-th prime above 1000. Every number the planner derives from sizes
(extents, strides, buffer shapes) is then a product of distinct primes, so `substitute` maps it to
the same product of any other sizes exactly. Every class must appear as a dim of some input leaf,
so a run can read the sizes off its arguments (`size_sources`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from .graph import Graph
from .kernel_ir import BufferSpec, Kernel, Load, Program
from .node import Node
from .registry import OpKind, get_op

_INPUT, _SCALAR = get_op("input"), get_op("scalar")
_SIZE_FREE_KINDS = frozenset({OpKind.ELEMENTWISE, OpKind.REDUCTION, OpKind.MATMUL})
MAX_CLASSES = 64


def _primes(count: int, above: int = 1000) -> tuple[int, ...]:
    out: list[int] = []
    n = above
    while len(out) < count:
        n += 1
        if all(n % p for p in range(2, int(n**0.5) + 1)):
            out.append(n)
    return tuple(out)


PRIMES = _primes(MAX_CLASSES)


@dataclass(frozen=True)
class GenericGraph:
    """What a size-free plan needs: its key, the sizes of this instance (class order), and where
    each class's size is read from the array arguments: (array position, axis)."""

    signature: tuple
    sizes: tuple[int, ...]
    size_sources: tuple[tuple[int, int], ...]


def _attrs_code(node: Node) -> object:
    """The node's attributes with any size taken out, or None when they hold sizes we cannot
    substitute (reshape targets, slice bounds, opaque specs)."""
    op = node.op
    kind = op.kind
    if kind in _SIZE_FREE_KINDS:
        return node.attrs
    if kind is OpKind.VIEW:
        if "output_shape_attr" in op.properties and node.attrs == (node.shape,):
            return "shape"
        if op.attr_names == ("axes",):  # a permutation: positions, not sizes
            return node.attrs
        return None
    if kind is OpKind.LEAF and (op is _INPUT or op is _SCALAR):
        return node.attrs
    if kind is OpKind.OPAQUE and "dims_from_inputs" in op.properties:
        return node.attrs  # a library call whose sizes come from its arrays at run time (take)
    return None


def generic_signature(graph: Graph) -> GenericGraph | None:
    """The size-free signature of `graph`, or None when its plan cannot be size-generic (an op with
    sizes in its attributes, an empty dim, two input leaves sharing a buffer, a class no input
    leaf shows)."""
    classes: dict[int, int] = {}
    sources: dict[int, tuple[int, int]] = {}
    index: dict[int, int] = {}
    buffers: set[int] = set()
    sig: list = []
    n_arrays = 0
    for k, node in enumerate(graph.nodes):
        attrs = _attrs_code(node)
        if attrs is None:
            return None
        codes = []
        for axis, s in enumerate(node.shape):
            if s == 1:
                codes.append(-1)
                continue
            if s == 0:
                return None
            c = classes.get(s)
            if c is None:
                c = classes[s] = len(classes)
                if c >= MAX_CLASSES:
                    return None
            codes.append(c)
            if node.op is _INPUT and c not in sources:
                sources[c] = (n_arrays, axis)
        if node.op is _INPUT:
            if node.data is not None:
                if id(node.data) in buffers:
                    return None
                buffers.add(id(node.data))
            n_arrays += 1
        index[id(node)] = k
        sig.append((node.op, attrs, node.dtype, tuple(codes),
                    tuple([index[id(i)] for i in node.inputs])))
    if len(sources) != len(classes):
        return None
    sig.append(tuple(index[id(o)] for o in graph.outputs))
    return GenericGraph(tuple(sig), tuple(classes), tuple(sources[c] for c in range(len(classes))))


def probe_graph(graph: Graph, generic: GenericGraph) -> Graph:
    """A data-free copy of `graph` with class k's size replaced by PRIMES[k] (attributes that are
    the output shape follow)."""
    prime_of = {s: PRIMES[c] for c, s in enumerate(generic.sizes)}
    copies: dict[int, Node] = {}
    nodes: list[Node] = []
    for n in graph.nodes:
        shape = tuple([prime_of.get(s, s) for s in n.shape])
        attrs = (shape,) if "output_shape_attr" in n.op.properties else n.attrs
        data = n.data if n.op is _SCALAR else None  # scalars keep their value (never in plans)
        copy = Node(n.op, tuple([copies[id(i)] for i in n.inputs]), attrs, shape, n.dtype,
                    data=data, site=n.site)
        copies[id(n)] = copy
        nodes.append(copy)
    return Graph([copies[id(o)] for o in graph.outputs], nodes)


def substitute(value: int, sizes: tuple[int, ...]) -> int:
    """A probe-derived number (a product of PRIMES[k], times a cofactor such as an item size)
    with PRIMES[k] replaced by sizes[k]."""
    if value == 0:
        return 0
    sign = -1 if value < 0 else 1
    rest = abs(value)
    out = 1
    for p, s in zip(PRIMES, sizes):
        while rest % p == 0:
            rest //= p
            out *= s
    return sign * out * rest


def substitute_program(program: Program, sizes: tuple[int, ...]) -> Program:
    """The probe's Program with every size-derived number (buffer shapes, index spaces, strides,
    offsets) for these sizes. Memory planning is left to the caller: it depends on the sizes."""
    memo: dict[int, int] = {}

    def sub(v: int) -> int:
        out = memo.get(v)
        if out is None:
            out = memo[v] = substitute(v, sizes)
        return out

    def subs(values: tuple[int, ...]) -> tuple[int, ...]:
        return tuple([sub(v) for v in values])

    def expr(e: Any) -> Any:
        if not isinstance(e, Load):
            return e
        dynamic = tuple([(k, sub(c)) for k, c in e.dynamic])  # run-time starts' strides
        return replace(e, strides=subs(e.strides), offset=sub(e.offset), dynamic=dynamic)

    steps: list = []
    for step in program.steps:
        if isinstance(step, Kernel):
            stages = tuple(replace(st, exprs=tuple([expr(e) for e in st.exprs]),
                                   stores=tuple([replace(t, strides=subs(t.strides),
                                                         offset=sub(t.offset))
                                                 for t in st.stores]))
                           for st in step.stages)
            step = replace(step, space=subs(step.space), stages=stages)
        steps.append(step)
    buffers = tuple(BufferSpec(subs(b.shape), b.dtype, b.storage) for b in program.buffers)
    return replace(program, buffers=buffers, steps=tuple(steps))
