"""Kernel-IR Programs of the benchmark workloads, built by hand (the fusion planner's output shape:
one kernel per fused group, matmuls as library calls) until the planner is on main."""

from __future__ import annotations

import numpy as np
from lazyarray.graph import get_op
from lazyarray.graph.kernel_ir import (
    AccRef,
    Apply,
    BufferSpec,
    Const,
    Kernel,
    LibraryCall,
    Load,
    Program,
    Reduce,
    Stage,
    Store,
)

F32 = np.dtype("float32")


class Exprs:
    """An SSA expression list for one stage, built with method calls; positions are returned."""

    def __init__(self, dtype=F32) -> None:
        self.exprs: list = []
        self.dtype = np.dtype(dtype)
        self.fused: list[str] = []

    def _add(self, e) -> int:
        self.exprs.append(e)
        return len(self.exprs) - 1

    def load(self, slot, strides, offset=0) -> int:
        return self._add(Load(slot, tuple(strides), offset, self.dtype))

    def const(self, v) -> int:
        return self._add(Const(float(v), self.dtype))

    def acc(self, stage, k=0) -> int:
        return self._add(AccRef(stage, k, self.dtype))

    def __call__(self, name, *args) -> int:
        self.fused.append(name)
        return self._add(Apply(get_op(name), tuple(args), self.dtype))

    def sigmoid(self, x) -> int:
        return self("reciprocal", self("add", self.const(1.0), self("exp", self("negative", x))))


def _row_major(shape):
    out, acc = [], 1
    for n in reversed(shape):
        out.append(acc)
        acc *= n
    return tuple(reversed(out))


def _bufs(*shapes_storage):
    return tuple(BufferSpec(tuple(s), F32, k if st is None else st)
                 for k, (s, st) in enumerate(shapes_storage))


def elementwise(name, n, build, n_inputs=1) -> Program:
    """out = build(E, x0, x1, ...) on contiguous 1-D arrays."""
    e = Exprs()
    xs = [e.load(k, (1,)) for k in range(n_inputs)]
    out = build(e, *xs)
    k = Kernel(name, (n,), 1, (Stage(False, tuple(e.exprs), (), (Store(n_inputs, (1,), 0, out),)),),
               fused=tuple(e.fused))
    return Program(_bufs(*[((n,), None)] * (n_inputs + 1)), tuple(range(n_inputs)), (),
                   (n_inputs,), (k,))


def gelu(e: Exprs, x):
    x3 = e("multiply", e("multiply", x, x), x)
    inner = e("multiply", e.const(np.sqrt(2 / np.pi)), e("add", x, e("multiply", e.const(0.044715), x3)))
    return e("multiply", e("multiply", e.const(0.5), x), e("add", e.const(1.0), e("tanh", inner)))


def ten_ops(e: Exprs, a, b):
    t = e("add", a, b)
    t = e("multiply", t, a)
    t = e("subtract", t, b)
    t = e("exp", e("negative", t))
    t = e("add", t, e.const(1.0))
    t = e("divide", a, t)
    t = e("maximum", t, b)
    t = e("tanh", t)
    return e("multiply", t, e.const(2.0))


def lstm_kernel(B, H, gate_slots, c_slot, out_c, out_h) -> Kernel:
    """new_c = sigmoid(f)*c + sigmoid(i)*tanh(g); new_h = sigmoid(o)*tanh(new_c), from the (B, 4H)
    gate buffers in gate_slots (summed: x@Wx, h@Wh and the bias, or one precomputed buffer)."""
    e = Exprs()

    def gate(q):
        total = None
        for slot, broadcast in gate_slots:
            v = e.load(slot, (0 if broadcast else 4 * H, 1), q * H)
            total = v if total is None else e("add", total, v)
        return total

    i, f = e.sigmoid(gate(0)), e.sigmoid(gate(1))
    g, o = e("tanh", gate(2)), e.sigmoid(gate(3))
    c = e.load(c_slot, (H, 1))
    new_c = e("add", e("multiply", f, c), e("multiply", i, g))
    new_h = e("multiply", o, e("tanh", new_c))
    return Kernel("lstm_cell", (B, H), 2, (Stage(False, tuple(e.exprs), (), (
        Store(out_c, (H, 1), 0, new_c), Store(out_h, (H, 1), 0, new_h))),), fused=tuple(e.fused))


def lstm_nonlinearity(B, H) -> Program:
    k = lstm_kernel(B, H, [(0, False)], 1, 2, 3)
    return Program(_bufs(((B, 4 * H), None), ((B, H), None), ((B, H), None), ((B, H), None)),
                   (0, 1), (), (2, 3), (k,))


def lstm_cell(B, D, H) -> Program:
    """gates = x@Wx + h@Wh + b: two library calls, then one kernel for the rest."""
    k = lstm_kernel(B, H, [(5, False), (6, False), (4, True)], 7, 8, 9)
    bufs = _bufs(((B, D), None), ((D, 4 * H), None), ((B, H), None), ((H, 4 * H), None),
                 ((4 * H,), None), ((B, 4 * H), None), ((B, 4 * H), None), ((B, H), None),
                 ((B, H), None), ((B, H), None))
    matmul = get_op("matmul")
    return Program(bufs, (0, 1, 2, 3, 4, 7), (), (8, 9),
                   (LibraryCall(matmul, (0, 1), 5), LibraryCall(matmul, (2, 3), 6), k))


def relu_matmul(M, K, N) -> Program:
    e = Exprs()
    y = e("maximum", e("add", e.load(3, (N, 1)), e.load(2, (0, 1))), e.const(0.0))
    k = Kernel("add_maximum", (M, N), 2, (Stage(False, tuple(e.exprs), (), (Store(4, (N, 1), 0, y),)),),
               fused=tuple(e.fused))
    bufs = _bufs(((M, K), None), ((K, N), None), ((N,), None), ((M, N), None), ((M, N), None))
    return Program(bufs, (0, 1, 2), (), (4,), (LibraryCall(get_op("matmul"), (0, 1), 3), k))


def mse(n) -> Program:
    e = Exprs()
    d = e("subtract", e.load(0, (1,)), e.load(1, (1,)))
    sq = e("multiply", d, d)
    s0 = Stage(True, tuple(e.exprs), (Reduce(get_op("sum"), sq, F32),))
    e2 = Exprs()
    out = e2("divide", e2.acc(0), e2.const(n))
    s1 = Stage(False, tuple(e2.exprs), (), (Store(2, (0,), 0, out),))
    k = Kernel("subtract_square_sum_divide", (n,), 0, (s0, s1), fused=("subtract", "square", "sum"))
    return Program(_bufs(((n,), None), ((n,), None), ((), None)), (0, 1), (), (2,), (k,))


def softmax(R, C) -> Program:
    st = (C, 1)
    s0 = Stage(True, (Load(0, st, 0, F32),), (Reduce(get_op("max"), 0, F32),))
    e = Exprs()
    ex = e("exp", e("subtract", e.load(0, st), e.acc(0)))
    s1 = Stage(True, tuple(e.exprs), (Reduce(get_op("sum"), ex, F32),))
    e2 = Exprs()
    ex2 = e2("exp", e2("subtract", e2.load(0, st), e2.acc(0)))
    y = e2("divide", ex2, e2.acc(1))
    s2 = Stage(True, tuple(e2.exprs), (), (Store(1, st, 0, y),))
    k = Kernel("softmax", (R, C), 1, (s0, s1, s2), fused=("max", "subtract", "exp", "sum", "divide"))
    return Program(_bufs(((R, C), None), ((R, C), None)), (0,), (), (1,), (k,))


def transpose_add(n) -> Program:
    """out = a.T + b on (n, n): the transposed-read case."""
    e = Exprs()
    y = e("add", e.load(0, (1, n)), e.load(1, (n, 1)))
    k = Kernel("add", (n, n), 2, (Stage(False, tuple(e.exprs), (), (Store(2, (n, 1), 0, y),)),))
    return Program(_bufs(((n, n), None), ((n, n), None), ((n, n), None)), (0, 1), (), (2,), (k,))
