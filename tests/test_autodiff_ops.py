"""Every op's derivative rule against central finite differences, generated from the registry.

Each differentiable op gets a case: elementwise ops with a NumPy ufunc are generated from their
entry (arity, test domain); the others (views, reductions, matmul, library ops, where, cast) have a
hand-written case below, and an op with neither fails `test_every_differentiable_op_has_a_case`.
For F(x) = sum(op(x) * r) and a random direction v, the VJP's <grad F, v> and the JVP of F along v
must both equal (F(x + eps v) - F(x - eps v)) / 2 eps, in float64. The finite differences run on
the reference backend; the derivatives on every backend, all ops in one evaluation (one compile).
"""

from __future__ import annotations

import numpy as np
import pytest
from lazyarray.graph import Node, OpKind, all_ops, get_op

import lazyarray as la

SHAPE = (3, 4)
EPS = 1e-6


def _smooth(rng, domain: str, position: int, shape) -> np.ndarray:
    """Values where the op is smooth and finite (the oracle's domains include inf and NaN)."""
    if domain == "positive" or (domain == "power" and position == 0):
        return rng.uniform(0.5, 3.0, shape)
    if domain == "power":
        return rng.uniform(-2.0, 3.0, shape)
    if domain == "unit":
        return rng.uniform(-0.9, 0.9, shape)
    if domain == "ge1":
        return rng.uniform(1.2, 3.0, shape)
    if domain == "nonzero":
        return rng.choice([-1.0, 1.0], shape) * rng.uniform(0.5, 2.0, shape)
    return rng.uniform(-0.9, 2.0, shape)  # "any": above -1, where log1p is smooth too


def _primitive(name: str):
    op = get_op(name)

    def f(*xs):
        nodes = tuple(x._node for x in xs)
        return la.Array(Node(op, nodes, (), nodes[0].shape, nodes[0].dtype))

    return f


# name -> (function of the float inputs, the float inputs): the hand-written cases.
def _structural_cases(rng) -> dict:
    def r(*s):
        return rng.uniform(-2.0, 2.0, s)

    def well(batch, n):
        return r(batch, n, n) * 0.3 + 2.0 * np.eye(n)

    def spd(batch, n):  # distinct eigenvalues, well apart (eigh's derivative divides by gaps)
        q = np.linalg.qr(r(batch, n, n))[0]
        return q @ ((np.arange(1.0, n + 1) * 1.5)[:, None] * np.swapaxes(q, -1, -2))

    def eigh_mix(a, uplo="L"):  # both results, the eigenvalues squared (a non-linear use)
        w, v = la.linalg.eigh(a, UPLO=uplo)  # v squared: an eigenvector's sign is the library's
        return v * v * la.expand_dims(w * w, axis=-2)  # (cuSOLVER's and LAPACK's differ)

    idx = np.array([2, 0, 2, 1])
    return {
        "broadcast_to": (lambda x: la.broadcast_to(x, (2, 3, 4)), [r(3, 1)]),
        "reshape": (lambda x: la.reshape(x, (4, 3)), [r(3, 4)]),
        "permute": (lambda x: la.permute_dims(x, (2, 0, 1)), [r(3, 4, 2)]),
        "slice": (lambda x: x[1::2, ::-1], [r(5, 4)]),
        "sum": (lambda x: la.sum(x, axis=1), [r(3, 4)]),
        "masked_sum": (lambda x: la.sum(x, axis=1, where=x > -0.5), [r(3, 4)]),
        "prod": (lambda x: la.prod(x, axis=0), [_smooth(rng, "nonzero", 0, (3, 4))]),
        "max": (lambda x: la.max(x, axis=1), [r(3, 4)]),
        "min": (lambda x: la.min(x, axis=0, keepdims=True), [r(3, 4)]),
        "matmul": (lambda a, b: a @ b, [r(2, 3, 4), r(2, 4, 5)]),
        "concat": (lambda a, b: la.concat([a, b], axis=1), [r(3, 2), r(3, 4)]),
        "cumsum": (lambda x: la.cumsum(x, axis=1), [r(3, 4)]),
        "cumprod": (lambda x: la.cumulative_prod(x, axis=1), [r(3, 4)]),
        "take": (lambda x: la.take(x, la.array(idx), axis=1), [r(2, 3)]),
        "scatter": (lambda x, v: x.at[la.array(np.array([0, 2, 0]))].add(v)
                    + x.at[1:3].set(v[:2] * 2.0), [r(4, 3), r(3, 3)]),
        "where": (lambda a, b: la.where(a > 0, a, b), [r(3, 4), r(3, 4)]),
        "cast": (lambda x: la.astype(x, la.float32) * np.float32(3.0), [r(3, 4)]),
        # NumPy's C-ordered copy of a transposed value (lazyarray/result_layout.py)
        "contiguous": (lambda x: la.ascontiguousarray(la.permute_dims(x, (1, 0))) * 2.0,
                       [r(3, 4)]),
        # linalg library calls (graph/ops_linalg.py), on well-conditioned batches
        "solve": (lambda a, b: la.linalg.solve(a, b), [well(2, 3), r(2, 3, 2)]),
        "inv": (lambda a: la.linalg.inv(a), [well(2, 3)]),
        "det": (lambda a: la.linalg.det(a), [well(2, 3)]),
        "slogdet": (lambda a: la.linalg.slogdet(a).logabsdet, [well(2, 3)]),
        "cholesky": (lambda a: la.linalg.cholesky(a) + la.linalg.cholesky(a, upper=True),
                     [spd(2, 3)]),
        # UPLO='U' reads the upper triangle: its cotangent lies there (the FD directions are not
        # symmetric, so a lower-triangle rule for 'U' fails)
        "eigh": (lambda a: eigh_mix(a) + 0.5 * eigh_mix(a, "U"), [spd(2, 3)]),
        "eigvalsh": (lambda a: la.linalg.eigvalsh(a) + 2.0 * la.linalg.eigvalsh(a, "U"),
                     [spd(2, 3)]),
        "svdvals": (lambda a: la.linalg.svdvals(a), [r(2, 4, 3) + np.eye(4, 3) * 3.0]),
        # complex parts, on the real inputs autodiff takes: real(x) is x, imag(x) zeros
        "real": (lambda x: la.real(x) * 2.0, [r(3, 4)]),
        "imag": (lambda x: la.imag(x) * 2.0 + x, [r(3, 4)]),
    }


# Cases that go through float32: linear there, so a wide step is exact up to float32 rounding.
_WIDE = {"cast": (0.05, 1e-4)}  # name -> (eps, relative tolerance)

# Ops whose rule is not the derivative of their reference, on purpose.
_NOT_FD = {"stop_gradient": "its derivative is zero by definition"}


def _cases(rng) -> dict:
    cases = {}
    structural = _structural_cases(rng)
    for op in all_ops():
        if op.kind is OpKind.LEAF or not op.differentiable or op.name in _NOT_FD:
            continue
        if op.name in structural:
            cases[op.name] = structural[op.name]
        elif op.kind is OpKind.ELEMENTWISE and (op.ufunc or op.loop_rule) is not None:
            xs = [_smooth(rng, op.domain, i, SHAPE) for i in range(op.arity)]
            cases[op.name] = (_primitive(op.name), xs)
    return cases


def test_every_differentiable_op_has_a_rule():
    """One op, one place: an op either carries its derivative rule or says it has none."""
    for op in all_ops():
        if op.kind is OpKind.LEAF:
            continue
        if op.differentiable:
            assert op.vjp is not None, f"{op.name}: differentiable but no `vjp` in its entry"
        else:
            assert op.vjp is None, f"{op.name}: marked non-differentiable but has a rule"


def test_every_differentiable_op_has_a_case():
    cases = _cases(np.random.default_rng(0))
    for op in all_ops():
        if op.kind is not OpKind.LEAF and op.differentiable and op.name not in _NOT_FD:
            assert op.name in cases, f"{op.name}: add a finite-difference case to this file"


def _scalarized(fn, weights):
    def F(*xs):
        return la.sum(fn(*xs) * weights)

    return F


def _finite_difference(F, xs, vs, eps: float = EPS) -> float:
    with la.config(backend="numpy", optimize=False):
        plus = float(F(*[la.array(x + eps * v) for x, v in zip(xs, vs)]))
        minus = float(F(*[la.array(x - eps * v) for x, v in zip(xs, vs)]))
    return (plus - minus) / (2 * eps)


def _prepare(seed: int = 0):
    """(name, F, inputs, directions, finite difference) per op case."""
    rng = np.random.default_rng(seed)
    out = []
    for name, (fn, xs) in sorted(_cases(rng).items()):
        with la.config(backend="numpy", optimize=False):
            shape = fn(*[la.array(x) for x in xs]).shape
        weights = la.array(rng.uniform(0.5, 1.5, shape))
        F = _scalarized(fn, weights)
        vs = [rng.uniform(-1.0, 1.0, x.shape) for x in xs]
        eps = _WIDE.get(name, (EPS,))[0]
        out.append((name, F, xs, vs, _finite_difference(F, xs, vs, eps)))
    return out


def test_vjp_and_jvp_match_finite_differences(backend):
    prepared = _prepare()
    results = []
    for name, F, xs, vs, fd in prepared:
        arrays = [la.array(x) for x in xs]
        grads = la.grad(F, argnums=tuple(range(len(xs))))(*arrays)
        _, tangent = la.jvp(F, arrays, [la.array(v) for v in vs])
        results.append((name, grads, tangent, vs, fd))
    la.eval(*[(g, t) for _, g, t, _, _ in results])  # one graph: one compile for every op
    for name, grads, tangent, vs, fd in results:
        directional = sum(float(np.sum(np.asarray(g) * v)) for g, v in zip(grads, vs))
        tol = _WIDE.get(name, (EPS, 1e-5))[1] * max(1.0, abs(fd))
        assert abs(directional - fd) <= tol, (name, "vjp", directional, fd)
        assert abs(float(tangent) - fd) <= tol, (name, "jvp", float(tangent), fd)


@pytest.mark.exhaustive
def test_second_derivatives_match_finite_differences(backend):
    """grad of grad: the rules' own graphs differentiate (Hessian-vector products by FD)."""
    for name, F, xs, vs, _ in _prepare(seed=1):
        if name in ("take", "scatter", "max", "min"):
            continue  # piecewise linear in x: second derivative zero, nothing to see
        if name == "svdvals":
            continue  # its rule reads svd's vectors, and svd has no rule yet (a clear error)
        arrays = [la.array(x) for x in xs]
        nums = tuple(range(len(xs)))

        def directional(*ys, F=F, nums=nums, vs=vs):
            g = la.grad(F, argnums=nums)(*ys)
            return sum(la.sum(gi * la.array(v)) for gi, v in zip(g, vs))

        hv = la.grad(directional, argnums=nums)(*arrays)
        got = sum(float(np.sum(np.asarray(h) * v)) for h, v in zip(hv, vs))
        want = _finite_difference(directional, xs, vs)
        assert abs(got - want) <= 1e-4 * max(1.0, abs(want)), (name, got, want)
