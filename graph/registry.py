"""The op registry: one `OpDef` per primitive holds every fact about it.

An entry carries the op's kind (what the fusion planner may do with it), its dtype rule, its NumPy
reference (the oracle every backend is tested against), its C-family expression template, algebraic
properties and the input domain its generated tests draw from. Nothing outside `graph/` branches on an
op's name: passes and backends read these fields.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np


class OpKind(str, enum.Enum):
    LEAF = "leaf"  # data bound at run time: an input buffer or a Python scalar
    SOURCE = "source"  # values computed from the index alone (iota): fusable, reads no memory
    ELEMENTWISE = "elementwise"
    VIEW = "view"  # index arithmetic only: broadcast, reshape, permute, slice
    REDUCTION = "reduction"
    MATMUL = "matmul"  # a library call (BLAS/cuBLAS): inputs materialized and contiguous
    OPAQUE = "opaque"  # a library call run through the op's NumPy reference (concat, take, scatter, scan)


# Reference signature: (input arrays, attrs, output dtype) -> ndarray.
Reference = Callable[[tuple[np.ndarray, ...], tuple, np.dtype], np.ndarray]
# Derivative rule: (cotangent g, forward output node, input nodes, attrs) -> one cotangent Node per
# input, or None where it is zero. Rules build nodes with graph/derivatives.py and are linear in g
# (lazyarray/autodiff.py gets JVPs by transposing them, and higher orders by differentiating them).
VJPRule = Callable[[Any, Any, tuple, tuple], Sequence[Any]]
# Write-back rule of a view op: (parent's value, the view's new value, attrs, *the view's other
# inputs: a slice's run-time starts) -> the parent's new value, built with graph/derivatives.py.
# NumPy code writes through views (`row = A[1]; row[:] = 0`); the view ops that NumPy would give
# as writable views carry it (lazyarray/writes.py).
WriteBack = Callable[[Any, Any, tuple], Any]
# In-place form of an opaque op: (out, input arrays, attrs) -> None (see OpDef.in_place).
InPlace = Callable[[np.ndarray, tuple[np.ndarray, ...], tuple], None]


# The property of an opaque op whose NumPy result is laid out in its operands' memory order
# (order='K': `np.cumsum(F, 0)`, `np.sort(F)`, `np.fft.fft(F)`, `np.concatenate([F, F])` are
# Fortran-ordered), as an elementwise result is (passes/numpy_layout.py replays it).
OPERAND_ORDER = "result_in_operand_order"


@dataclass(frozen=True, eq=False)
class OpDef:
    name: str
    kind: OpKind
    reference: Reference
    arity: int = 1  # -1: variadic
    attr_names: tuple[str, ...] = ()
    ufunc: np.ufunc | None = None  # elementwise dtype rule: NumPy's loop resolution for this ufunc
    # elementwise ops NumPy has no ufunc for (erf): the ufunc whose loop resolution they take
    loop_rule: np.ufunc | None = None
    c: str | Mapping[str, str] | None = None  # C template; a mapping is keyed by dtype kind 'f','i','u','b'
    cuda: str | Mapping[str, str] | None = None  # CUDA override of `c`, where the math differs
    # Test input domain (tests/numpy_oracle.py draws from it): any, positive, unit ([-1, 1]), ge1,
    # nonzero; shift (2nd operand: shift amounts around the bit width, negatives included); power
    # (2nd operand: non-negative integer exponents; integer x ** negative is tested by hand).
    domain: str = "any"
    properties: frozenset[str] = field(default_factory=frozenset)  # commutative, associative, ...
    reduce_identity: Any = None  # reductions: the identity of the combine (per dtype via callable)
    # Reductions whose C combine is exactly this NumPy ufunc on floats (sum: np.add): the tiered
    # executor replays the C kernel's fold order with it (runtime/c/fold.py).
    fold: np.ufunc | None = None
    cupy: Reference | None = None  # opaque ops: the same on CuPy arrays (None: host round trip)
    vjp: VJPRule | None = None  # the derivative rule (reverse mode); see VJPRule
    # False for ops whose results carry no derivative (comparisons, bit ops, argmax): they have no
    # rule, and gradients stop there. Every other non-leaf op must have a `vjp` (a test enforces it).
    differentiable: bool = True
    write_back: WriteBack | None = None  # views NumPy writes through; None: no write reaches the input
    # Opaque ops that update their first input (scatter): the same result written into `out`,
    # which already holds xs[0]'s value (it may be xs[0]'s own buffer: the memory planner gives
    # the result a dying base's storage, passes/plan_memory.py). Raises before writing anything.
    in_place: InPlace | None = None
    doc: str = ""

    @property
    def is_leaf(self) -> bool:
        return self.kind is OpKind.LEAF

    def template(self, dtype_kind: str, dialect: str = "c") -> str | None:
        """The expression template for inputs of this dtype kind ('f', 'i', 'u', 'b')."""
        src = self.cuda if dialect == "cuda" and self.cuda is not None else self.c
        if src is None or isinstance(src, str):
            return src
        return src.get(dtype_kind, src.get("*"))

    def __repr__(self) -> str:
        return f"OpDef({self.name})"


_REGISTRY: dict[str, OpDef] = {}


def register(op: OpDef) -> OpDef:
    if op.name in _REGISTRY:
        raise ValueError(f"op {op.name!r} registered twice")
    _REGISTRY[op.name] = op
    return op


def get_op(name: str) -> OpDef:
    try:
        return _REGISTRY[name]
    except KeyError:
        raise KeyError(f"no op named {name!r}") from None


def all_ops() -> tuple[OpDef, ...]:
    return tuple(_REGISTRY.values())


def ops_of_kind(kind: OpKind) -> tuple[OpDef, ...]:
    return tuple(op for op in _REGISTRY.values() if op.kind is kind)
