"""The kernel-IR Programs of the differential test corpus, gathered without running anything.

The graphs mirror what the differential tests evaluate: every elementwise registry op over every
dtype combination NumPy accepts, casts between all dtypes, the reductions (sum/prod/max/min/any/all/
mean/var/argmax/argmin, softmax, logsumexp) on several axes, views (transposes, flips, strided
slices, broadcasts), Python scalars as kernel arguments, matmul epilogues, the LSTM cell (several
outputs), sizes that pick the two-stage and 64-bit-index CUDA frames, and hypothesis-drawn random
graphs (tests/graph_strategies.py). Each is run through the passes to its Program.
"""

from __future__ import annotations

import warnings

import numpy as np
from graph_strategies import draw_expressions
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lazyarray.graph import Graph, OpKind, all_ops
from lazyarray.graph.complex_ops import supports_complex
from lazyarray.graph.kernel_ir import Program
from lazyarray.passes import optimize
from numpy_oracle import DEVICE_DTYPES as SUPPORTED, accepted_dtypes

import lazyarray as la


def program_of(*arrays: la.Array) -> Program:
    return optimize(Graph([a._node for a in arrays]))


def _arr(dtype, shape) -> la.Array:
    return la.array(np.zeros(shape, dtype))


def elementwise_programs() -> list[Program]:
    """One program per registry op: all its accepted dtype combinations, on broadcasting shapes."""
    out = []
    for op in all_ops():
        rule = op.ufunc if op.ufunc is not None else op.loop_rule  # erf: np.sin's loops
        if op.kind is not OpKind.ELEMENTWISE or rule is None:
            continue
        fn = getattr(la, op.name)
        shapes = [(2, 1, 5), (3, 1)] if op.arity == 2 else [(2, 3, 5)]
        results = [fn(*(_arr(dt, s) for dt, s in zip(dts, shapes)))
                   for dts in accepted_dtypes(rule, half=False)
                   if supports_complex(op) or all(np.dtype(d).kind != "c" for d in dts)]
        out.append(program_of(*results))
    return out


def cast_and_where_programs() -> list[Program]:
    x = {dt: _arr(dt, (4, 3)) for dt in SUPPORTED}
    with warnings.catch_warnings():  # complex -> real: NumPy's ComplexWarning
        warnings.simplefilter("ignore", np.exceptions.ComplexWarning)
        casts = [x[a].astype(b) for a in SUPPORTED for b in SUPPORTED if a != b]
    cond = _arr(bool, (4, 3))
    wheres = [la.where(cond, x[dt], x[dt][::-1]) for dt in SUPPORTED]
    ldexps = [la.ldexp(x[np.dtype(t)], x[np.dtype("int32")]) for t in ("float32", "float64")]
    return [program_of(*casts), program_of(*wheres), program_of(*ldexps)]


REDUCTIONS = (la.sum, la.prod, la.max, la.min, la.any, la.all, la.mean, la.var)
AXES = (None, 0, 1, -1, (0, 2))


def reduction_programs() -> list[Program]:
    out = []
    for dt in ("float32", "float64", "int8", "int64", "uint16", "bool"):
        x = _arr(dt, (3, 4, 5))
        outs = []
        for fn in REDUCTIONS:
            if fn is la.var and dt == "bool":
                continue
            outs += [fn(x, axis=axis, keepdims=keep) for axis in AXES for keep in (False, True)]
        for fn in (la.argmax, la.argmin):
            outs += [fn(x, axis=axis) for axis in (None, 0, 1, -1)]
        out.append(program_of(*outs))
    for dt in ("float32", "float64"):
        x = _arr(dt, (3, 4, 5))
        out.append(program_of(*(f(x, axis=a) for f in (la.nn.softmax, la.nn.logsumexp,
                                                       la.nn.log_softmax) for a in (0, 1, -1))))
    # an empty inner space (a 0-d operand, or only size-one axes reduced): the elementwise frame
    # folds the single element (a GPU run found its accumulator undeclared: NVRTC had not seen it)
    for dt in ("float64", "int32", "bool"):
        s, col = _arr(dt, ()), _arr(dt, (5, 1))
        outs = [fn(s) for fn in REDUCTIONS if not (fn is la.var and dt == "bool")]
        outs += [la.sum(s * 2 + 1 if dt != "bool" else s), la.argmax(s), la.argmin(col, axis=1)]
        outs += [fn(col, axis=1) for fn in (la.sum, la.max, la.prod)]
        out.append(program_of(*outs))
    return out


def view_programs() -> list[Program]:
    x = _arr("float32", (4, 6, 5))
    y = _arr("float64", (6, 5))
    outs = [la.exp(x.T), la.transpose(x, (1, 0, 2)) + 1, la.flip(x, axis=1) * x,
            x[::2, 1:, ::-1] - 1, la.broadcast_to(y, (4, 6, 5)) + x, la.sum(x.T, axis=0),
            la.tanh(la.moveaxis(x, 0, -1)), la.argmax(la.flip(x, axis=2), axis=2),
            x.reshape(24, 5)[3:9] * 2, la.expand_dims(y, 0) * y.T.T]
    return [program_of(*outs)]


def workload_programs() -> list[Program]:
    """Scalars, matmul epilogues, the LSTM cell, and the GPU benchmark shapes' frames."""
    x, w, b = _arr("float32", (8, 16)), _arr("float32", (16, 32)), _arr("float32", (32,))
    scalars = program_of(x * 2.5 + 1, la.maximum(x, 0.5) ** 2, (x > 0.25) & (x < 3))
    k = _arr("int32", (8, 16))
    # (divmod's remainder reads its quotient as an input its template ignores)
    divmods = program_of(*la.divmod(x, 3.5), la.divmod(x, x + 1)[1], la.divmod(k, 7)[1])
    dense = program_of(la.nn.relu(x @ w + b), la.tanh(x @ w + b) * la.nn.sigmoid(x @ w))
    h = 32
    gates = _arr("float32", (8, 4 * h)) + _arr("float32", (8, 16)) @ _arr("float32", (16, 4 * h))
    c = _arr("float32", (8, h))
    i, f = la.nn.sigmoid(gates[:, :h]), la.nn.sigmoid(gates[:, h:2 * h])
    g, o = la.tanh(gates[:, 2 * h:3 * h]), la.nn.sigmoid(gates[:, 3 * h:])
    c2 = f * c + i * g
    lstm = program_of(o * la.tanh(c2), c2)
    small = _arr("float32", (1,))
    big = la.broadcast_to(small, (1 << 16, 1 << 16))  # 2**32 elements: 64-bit indices, no memory
    frames = program_of(la.sum(la.broadcast_to(small, (1 << 20,)) ** 2),  # two-stage
                        la.mean(big), la.sum(big, axis=1), la.exp(big) * 2,
                        la.nn.gelu(la.broadcast_to(small, (1 << 26,))))
    return [scalars, divmods, dense, lstm, frames]


def random_graph_programs(n: int) -> list[Program]:
    found: list[Program] = []

    @settings(max_examples=n, deadline=None, derandomize=True, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
    @given(st.data())
    def collect(data):
        found.append(program_of(*draw_expressions(data)))

    collect()
    return found


def gradient_programs() -> list[Program]:
    """Backward graphs: a softmax cross-entropy MLP step and an LSTM cell's gradients."""
    rng = np.random.default_rng(0)

    def f32(*shape):
        return la.array(rng.standard_normal(shape).astype(np.float32))

    x, w, b, labels = f32(8, 6), f32(6, 4), f32(4), la.array(np.arange(8) % 4)
    mlp = la.value_and_grad(lambda w, b: la.nn.cross_entropy(la.tanh(x @ w + b), labels),
                            argnums=(0, 1))(w, b)

    def cell(z, c):
        i, f, g, o = (z[:, k * 3:(k + 1) * 3] for k in range(4))
        c2 = la.nn.sigmoid(f) * c + la.nn.sigmoid(i) * la.tanh(g)
        return la.sum(la.nn.sigmoid(o) * la.tanh(c2)) + la.sum(c2 * c2)

    lstm = la.grad(cell, argnums=(0, 1))(f32(5, 12), f32(5, 3))
    return [program_of(mlp[0], *mlp[1]), program_of(*lstm)]


_COMPLEX_TRANSCENDENTAL = ("exp", "log", "sqrt", "sin", "cos", "tan", "arcsin", "arccos", "arctan",
                           "sinh", "cosh", "tanh", "arcsinh", "arccosh", "arctanh")


def complex_programs() -> list[Program]:
    """complex64/complex128: every op that takes complex (tests/test_complex.py's lists), with
    broadcasting and weak Python scalars, casts to and from every dtype, sum/prod/mean/var."""
    from test_complex import BINARY, UNARY

    out = []
    for dt in (np.complex64, np.complex128):
        x, y = _arr(dt, (2, 3, 5)), _arr(dt, (3, 1))
        ops = [getattr(la, n)(x) for n in UNARY] + [getattr(la, n)(x, y) for n in BINARY]
        ops += [x * 2.5 + 1j, la.where(_arr(bool, (2, 3, 5)), x, y), la.round(x, 2)]
        out.append(program_of(*ops))
        with warnings.catch_warnings():  # complex -> real: NumPy's ComplexWarning
            warnings.simplefilter("ignore", np.exceptions.ComplexWarning)
            casts = [x.astype(d) for d in SUPPORTED + (np.dtype(np.complex64),)]
        casts += [_arr(d, (4, 3)).astype(dt) for d in SUPPORTED + (np.dtype(np.complex64),)]
        out.append(program_of(*casts))
        out.append(program_of(la.sum(x, axis=1), la.prod(x, axis=(0, 2)), la.mean(x),
                              la.var(x, axis=-1), la.sum(la.exp(x) * y, axis=0)))
        # one kernel per transcendental function and power: optimized, so the spill and register
        # checks see the Annex G helpers (runtime/c/complex_cuda.py) on their own
        out += [program_of(getattr(la, n)(x)) for n in _COMPLEX_TRANSCENDENTAL]
        out.append(program_of(la.power(x, y)))
    return out


def corpus(n_random: int = 150) -> list[Program]:
    # Whole graphs: a node-budget cut would evaluate every live pending Array, programs included.
    with la.config(max_graph_nodes=1_000_000):
        return (elementwise_programs() + cast_and_where_programs() + reduction_programs()
                + complex_programs()
                + view_programs() + workload_programs() + gradient_programs()
                + random_graph_programs(n_random))
