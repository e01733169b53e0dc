"""Hand-built kernel-IR Programs for the C backend tests (until the fusion planner produces them).

Each builder returns (program, inputs, scalars, expected outputs computed with NumPy).
"""

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
    ScalarArg,
    Stage,
    Store,
)

F32, F64, I64 = np.dtype("float32"), np.dtype("float64"), np.dtype("int64")


def op(name: str):
    return get_op(name)


def row_major(shape) -> tuple[int, ...]:
    strides, acc = [], 1
    for n in reversed(shape):
        strides.append(acc)
        acc *= n
    return tuple(reversed(strides))


def buffers(*specs) -> tuple[BufferSpec, ...]:
    """BufferSpecs, each in its own storage unless a storage number is given."""
    out = []
    for k, spec in enumerate(specs):
        shape, dtype, *storage = spec
        out.append(BufferSpec(tuple(shape), np.dtype(dtype), storage[0] if storage else k))
    return tuple(out)


def elementwise_program(op_name: str, in_dtypes, out_dtype, n: int) -> Program:
    """out = op(in0, in1, ...) on 1-D contiguous buffers of length n."""
    loads = tuple(Load(k, (1,), 0, np.dtype(dt)) for k, dt in enumerate(in_dtypes))
    exprs = loads + (Apply(op(op_name), tuple(range(len(loads))), np.dtype(out_dtype)),)
    out = len(loads)
    k = Kernel(op_name, (n,), 1, (Stage(False, exprs, (), (Store(out, (1,), 0, len(loads)),)),),
               fused=(op_name,))
    bufs = buffers(*[((n,), dt) for dt in in_dtypes], ((n,), out_dtype))
    return Program(bufs, tuple(range(len(loads))), (), (out,), (k,))


def merge_programs(programs: list[Program]) -> Program:
    """The kernels of several Programs in one (to compile them as one translation unit; library
    calls are dropped, so only compile it)."""
    bufs, inputs, outputs, steps, scalars = [], [], [], [], []
    for p in programs:
        base = len(bufs)
        bufs.extend(BufferSpec(b.shape, b.dtype, b.storage + base) for b in p.buffers)
        inputs.extend(s + base for s in p.inputs)
        outputs.extend(s + base for s in p.outputs)
        steps.extend(_shift_kernel(k, base, len(scalars)) for k in p.kernels)
        scalars.extend(p.scalars)
    return Program(tuple(bufs), tuple(inputs), tuple(scalars), tuple(outputs), tuple(steps))


def _shift_kernel(k: Kernel, base: int, scalar_base: int) -> Kernel:
    stages = []
    for st in k.stages:
        exprs = tuple(Load(e.slot + base, e.strides, e.offset, e.dtype) if isinstance(e, Load)
                      else ScalarArg(e.index + scalar_base, e.dtype) if isinstance(e, ScalarArg)
                      else e for e in st.exprs)
        stores = tuple(Store(s.slot + base, s.strides, s.offset, s.value) for s in st.stores)
        stages.append(Stage(st.inner, exprs, st.reduces, stores))
    return Kernel(k.name, k.space, k.n_outer, tuple(stages), k.fused, k.sites)


def sigmoid(n: int):
    exprs = (Load(0, (1,), 0, F32), Apply(op("negative"), (0,), F32),
             Apply(op("exp"), (1,), F32), Const(1.0, F32), Apply(op("add"), (3, 2), F32),
             Apply(op("reciprocal"), (4,), F32))
    k = Kernel("sigmoid", (n,), 1, (Stage(False, exprs, (), (Store(1, (1,), 0, 5),)),),
               fused=("negative", "exp", "add", "reciprocal"), sites=("model.py:3",))
    prog = Program(buffers(((n,), F32), ((n,), F32)), (0,), (), (1,), (k,))
    x = np.random.default_rng(0).standard_normal(n).astype(F32)
    return prog, [x], [], [1 / (1 + np.exp(-x))]


def broadcast_transpose_flip(rows: int, cols: int):
    """out[i, j] = a.T[i, j] * s + b[j] - c[i, ::-1][j]: a is (cols, rows), b broadcast, c flipped."""
    space = (rows, cols)
    exprs = (Load(0, (1, rows), 0, F32), ScalarArg(0, F32), Apply(op("multiply"), (0, 1), F32),
             Load(1, (0, 1), 0, F32), Apply(op("add"), (2, 3), F32),
             Load(2, (cols, -1), cols - 1, F32), Apply(op("subtract"), (4, 5), F32))
    k = Kernel("multiply_add_subtract", space, 2,
               (Stage(False, exprs, (), (Store(3, row_major(space), 0, 6),)),))
    prog = Program(buffers(((cols, rows), F32), ((cols,), F32), (space, F32), (space, F32)),
                   (0, 1, 2), (F32,), (3,), (k,))
    rng = np.random.default_rng(1)
    a = rng.standard_normal((cols, rows)).astype(F32)
    b = rng.standard_normal(cols).astype(F32)
    c = rng.standard_normal(space).astype(F32)
    s = 1.5
    return prog, [a, b, c], [s], [a.T * np.float32(s) + b - c[:, ::-1]]


def scattered_scalars(n: int):
    """t = x * s1; out = s2 + t * s0: the second kernel reads scalars 0 and 2, not 1 (the plan
    hands it a copy of them: each kernel reads its own scalars from 0, runtime/c/canonical.py)."""
    first = Kernel("k0_multiply", (n,), 1, (Stage(False, (
        Load(0, (1,), 0, F64), ScalarArg(1, F64), Apply(op("multiply"), (0, 1), F64)), (),
        (Store(1, (1,), 0, 2),)),))
    second = Kernel("k1_multiply_add", (n,), 1, (Stage(False, (
        ScalarArg(2, F64), Load(1, (1,), 0, F64), ScalarArg(0, F64),
        Apply(op("multiply"), (1, 2), F64), Apply(op("add"), (0, 3), F64)), (),
        (Store(2, (1,), 0, 4),)),))
    prog = Program(buffers(((n,), F64), ((n,), F64), ((n,), F64)), (0,), (F64, F64, F64), (2,),
                   (first, second))
    x = np.random.default_rng(5).standard_normal(n)
    return prog, [x], [0.5, 3.0, -2.0], [-2.0 + x * 3.0 * 0.5]


def mean_rows(rows: int, cols: int):
    """out[i] = sum_j x[i, j] / cols: a reduce stage then an outer-only store stage."""
    space = (rows, cols)
    st0 = Stage(True, (Load(0, (cols, 1), 0, F32),), (Reduce(op("sum"), 0, F32),))
    st1 = Stage(False, (AccRef(0, 0, F32), Const(float(cols), F32),
                        Apply(op("divide"), (0, 1), F32)), (), (Store(1, (1, 0), 0, 2),))
    k = Kernel("sum_divide", space, 1, (st0, st1), fused=("sum", "divide"))
    prog = Program(buffers((space, F32), ((rows,), F32)), (0,), (), (1,), (k,))
    x = np.random.default_rng(2).standard_normal(space).astype(F32)
    return prog, [x], [], [x.mean(axis=1, dtype=F64).astype(F32)]


def softmax(rows: int, cols: int):
    space, st = (rows, cols), (cols, 1)
    x = Load(0, st, 0, F32)
    s0 = Stage(True, (x,), (Reduce(op("max"), 0, F32),))
    s1 = Stage(True, (x, AccRef(0, 0, F32), Apply(op("subtract"), (0, 1), F32),
                      Apply(op("exp"), (2,), F32)), (Reduce(op("sum"), 3, F32),))
    s2 = Stage(True, (x, AccRef(0, 0, F32), Apply(op("subtract"), (0, 1), F32),
                      Apply(op("exp"), (2,), F32), AccRef(1, 0, F32),
                      Apply(op("divide"), (3, 4), F32)), (), (Store(1, st, 0, 5),))
    k = Kernel("max_subtract_exp_sum_divide", space, 1, (s0, s1, s2),
               fused=("max", "subtract", "exp", "sum", "divide"))
    prog = Program(buffers((space, F32), (space, F32)), (0,), (), (1,), (k,))
    a = np.random.default_rng(3).standard_normal(space).astype(F32) * 4
    e = np.exp(a - a.max(axis=1, keepdims=True))
    return prog, [a], [], [e / e.sum(axis=1, keepdims=True)]


def argmax_cols(rows: int, cols: int, dtype=F32, data=None):
    """argmax over axis 0 of a (rows, cols) array: the reduced dim is the *first* (strided) one."""
    space = (cols, rows)
    s0 = Stage(True, (Load(0, (1, cols), 0, np.dtype(dtype)),), (Reduce(op("argmax"), 0, I64),))
    s1 = Stage(False, (AccRef(0, 0, I64),), (), (Store(1, (1, 0), 0, 0),))
    k = Kernel("argmax", space, 1, (s0, s1), fused=("argmax",))
    prog = Program(buffers(((rows, cols), dtype), ((cols,), I64)), (0,), (), (1,), (k,))
    if data is None:
        data = np.random.default_rng(4).integers(0, 5, (rows, cols)).astype(dtype)
    return prog, [data], [], [np.argmax(data, axis=0)]


def multi_output(n: int):
    """One kernel writing exp(x) and exp(x) * y: two outputs, shared subexpression."""
    exprs = (Load(0, (1,), 0, F64), Apply(op("exp"), (0,), F64), Load(1, (1,), 0, F64),
             Apply(op("multiply"), (1, 2), F64))
    k = Kernel("exp_multiply", (n,), 1,
               (Stage(False, exprs, (), (Store(2, (1,), 0, 1), Store(3, (1,), 0, 3))),))
    prog = Program(buffers(((n,), F64), ((n,), F64), ((n,), F64), ((n,), F64)), (0, 1), (),
                   (2, 3), (k,))
    rng = np.random.default_rng(5)
    x, y = rng.standard_normal(n), rng.standard_normal(n)
    return prog, [x, y], [], [np.exp(x), np.exp(x) * y]


def matmul_relu(m: int, k_: int, n: int, transposed: bool = False):
    """relu(x @ w + b): a LibraryCall into an intermediate, then the epilogue kernel; then a
    second kernel (tanh) whose input storage is reused for its output (an in-place update).
    `transposed`: w is stored (n, k) and read through the call's transpose flag (x @ w.T)."""
    space = (m, n)
    epi = Kernel("add_maximum", space, 2, (Stage(False, (
        Load(2, row_major(space), 0, F32), Load(1, (0, 1), 0, F32), Apply(op("add"), (0, 1), F32),
        Const(0.0, F32), Apply(op("maximum"), (2, 3), F32)), (),
        (Store(4, row_major(space), 0, 4),)),))
    th = Kernel("tanh", space, 2, (Stage(False, (Load(4, row_major(space), 0, F32),
                                                Apply(op("tanh"), (0,), F32)), (),
                                         (Store(5, row_major(space), 0, 1),)),))
    w_shape = (n, k_) if transposed else (k_, n)
    bufs = buffers(((m, k_), F32), ((n,), F32), (space, F32, 2), (w_shape, F32),
                   (space, F32, 2), (space, F32, 5))
    prog = Program(bufs, (0, 1, 3), (), (5,),
                   (LibraryCall(op("matmul"), (0, 3), 2, transposed=(1,) if transposed else ()),
                    epi, th))
    rng = np.random.default_rng(6)
    x = rng.standard_normal((m, k_)).astype(F32)
    b = rng.standard_normal(n).astype(F32)
    w = rng.standard_normal(w_shape).astype(F32)
    product = x @ w.T if transposed else x @ w
    return prog, [x, b, w], [], [np.tanh(np.maximum(product + b, 0))]
