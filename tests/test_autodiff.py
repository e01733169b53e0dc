"""la.grad / value_and_grad / vjp / jvp / stop_gradient: hand-written models against NumPy
backprop, composition with la.jit and with itself, errors at the user's line, and the structural
facts (fused backward kernels, one cached plan per training step)."""

from __future__ import annotations

import inspect

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import mutually_broadcastable_shapes

import lazyarray as la
from sites import assert_site


def _line() -> str:
    """'test_autodiff.py:N' of the line two below the caller's (inside its `with` block)."""
    return f"test_autodiff.py:{inspect.currentframe().f_back.f_lineno + 2}"


def _mlp_data(seed=0, dtype=np.float64):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((16, 5)).astype(dtype)
    labels = rng.integers(0, 3, 16)
    params = {"w1": rng.standard_normal((5, 8)).astype(dtype) * 0.5,
              "b1": rng.standard_normal(8).astype(dtype) * 0.1,
              "w2": rng.standard_normal((8, 3)).astype(dtype) * 0.5,
              "b2": np.zeros(3, dtype)}
    return x, labels, params


def _mlp_loss(params, x, labels):
    h = la.tanh(x @ params["w1"] + params["b1"])
    return la.nn.cross_entropy(h @ params["w2"] + params["b2"], labels)


def _mlp_numpy_grads(p, x, labels):
    """Hand-written backprop: the oracle."""
    h = np.tanh(x @ p["w1"] + p["b1"])
    z = h @ p["w2"] + p["b2"]
    e = np.exp(z - z.max(axis=1, keepdims=True))
    soft = e / e.sum(axis=1, keepdims=True)
    dz = (soft - np.eye(3)[labels]) / len(labels)
    dh = dz @ p["w2"].T * (1 - h * h)
    loss = -np.mean(np.log(soft[np.arange(len(labels)), labels]))
    return loss, {"w1": x.T @ dh, "b1": dh.sum(0), "w2": h.T @ dz, "b2": dz.sum(0)}


def test_mlp_gradients_match_numpy_backprop(backend):
    x, labels, params = _mlp_data()
    want_loss, want = _mlp_numpy_grads(params, x, labels)
    loss, grads = la.value_and_grad(_mlp_loss)({k: la.array(v) for k, v in params.items()},
                                               la.array(x), la.array(labels))
    la.eval(loss, grads)
    np.testing.assert_allclose(float(loss), want_loss, rtol=1e-12)
    assert sorted(grads) == sorted(want)
    for k in want:
        np.testing.assert_allclose(np.asarray(grads[k]), want[k], rtol=1e-10, atol=1e-14)


def _lstm_cell(params, x, h, c):
    z = x @ params["wx"] + h @ params["wh"] + params["b"]
    n = h.shape[-1]
    i, f, g, o = (z[:, k * n:(k + 1) * n] for k in range(4))
    c2 = la.nn.sigmoid(f) * c + la.nn.sigmoid(i) * la.tanh(g)
    return la.nn.sigmoid(o) * la.tanh(c2), c2


def test_lstm_cell_gradient_matches_finite_differences(backend):
    rng = np.random.default_rng(1)
    params = {"wx": rng.standard_normal((3, 16)) * 0.5, "wh": rng.standard_normal((4, 16)) * 0.5,
              "b": rng.standard_normal(16) * 0.1}
    x, h0, c0 = rng.standard_normal((2, 3)), rng.standard_normal((2, 4)), rng.standard_normal((2, 4))

    def loss(p, h, c):
        h1, c1 = _lstm_cell(p, la.array(x), h, c)
        h2, c2 = _lstm_cell(p, la.array(x), h1, c1)  # two steps: gradients through the state
        return la.sum(h2 * h2) + la.sum(c2)

    args = ({k: la.array(v) for k, v in params.items()}, la.array(h0), la.array(c0))
    grads = la.grad(loss, argnums=(0, 1, 2))(*args)
    la.eval(grads)
    direction = [{k: rng.uniform(-1, 1, v.shape) for k, v in params.items()},
                 rng.uniform(-1, 1, h0.shape), rng.uniform(-1, 1, c0.shape)]
    flat_g = [*(grads[0][k] for k in params), grads[1], grads[2]]
    flat_v = [*(direction[0][k] for k in params), direction[1], direction[2]]
    got = sum(float(np.sum(np.asarray(g) * v)) for g, v in zip(flat_g, flat_v))
    eps = 1e-6

    def at(sign):
        p = {k: la.array(params[k] + sign * eps * direction[0][k]) for k in params}
        return float(loss(p, la.array(h0 + sign * eps * direction[1]),
                          la.array(c0 + sign * eps * direction[2])))

    want = (at(1) - at(-1)) / (2 * eps)
    assert abs(got - want) <= 1e-6 * max(1.0, abs(want))


def test_softmax_family_gradients_are_stable():
    """Logits of +-1000 would overflow exp: the gradients stay exact and finite."""
    z = np.array([[1000.0, 0.0, -1000.0], [1.0, 2.0, 3.0], [-1000.0, -1000.0, -999.0]])
    labels = np.array([0, 2, 1])
    e = np.exp(z - z.max(1, keepdims=True))
    soft = e / e.sum(1, keepdims=True)
    zl = la.array(z)
    g_ce = la.grad(lambda t: la.nn.cross_entropy(t, la.array(labels)))(zl)
    g_lse = la.grad(lambda t: la.sum(la.nn.logsumexp(t, axis=1)))(zl)
    w = np.arange(9.0).reshape(3, 3)
    g_ls = la.grad(lambda t: la.sum(la.nn.log_softmax(t) * w))(zl)
    g_s = la.grad(lambda t: la.sum(la.nn.softmax(t) * w))(zl)
    la.eval(g_ce, g_lse, g_ls, g_s)
    np.testing.assert_allclose(np.asarray(g_ce), (soft - np.eye(3)[labels]) / 3, atol=1e-15)
    np.testing.assert_allclose(np.asarray(g_lse), soft, atol=1e-15)
    np.testing.assert_allclose(np.asarray(g_ls), w - soft * w.sum(1, keepdims=True), atol=1e-12)
    want_s = soft * (w - (soft * w).sum(1, keepdims=True))
    np.testing.assert_allclose(np.asarray(g_s), want_s, atol=1e-12)


def test_cross_entropy_gradient_is_one_fused_kernel():
    z = la.array(np.random.default_rng(0).standard_normal((64, 10)).astype(np.float32))
    g = la.grad(lambda t: la.nn.cross_entropy(t, la.array(np.arange(64) % 10)))(z)
    assert la.explain(g).num_kernels == 1


def test_backward_of_elementwise_chain_is_one_kernel():
    x = la.array(np.linspace(-1, 1, 1000, dtype=np.float32))
    g = la.grad(lambda t: la.sum(la.tanh(la.exp(t) * la.sin(t) + 1.0) * t))(x)
    e = la.explain(g)
    assert (e.num_kernels, e.num_library_calls) == (1, 0)


def test_relu_dense_backward_is_matmuls_plus_fused_epilogues():
    rng = np.random.default_rng(0)
    x = la.array(rng.standard_normal((32, 16)).astype(np.float32))
    w = la.array(rng.standard_normal((16, 8)).astype(np.float32))
    b = la.array(rng.standard_normal(8).astype(np.float32))
    gx, gw, gb = la.grad(lambda x, w, b: la.sum(la.nn.relu(x @ w + b)), argnums=(0, 1, 2))(x, w, b)
    e = la.explain(gx, gw, gb)
    # forward matmul, then dx = g @ w.T and dw = x.T @ g; every elementwise op fused around them
    assert e.num_library_calls == 3
    assert e.num_kernels <= 5


def test_gate_slices_backward_is_one_concat():
    """The four gates sliced from one matmul: their cotangents join in one concat (not one
    scatter into zeros and one add per gate), and the result stays exact."""
    rng = np.random.default_rng(0)
    zn = rng.standard_normal((4, 12))
    z = la.array(zn)

    def f(t):
        i, f_, g = t[:, 0:4], t[:, 4:8], t[:, 10:12]
        return la.sum(la.tanh(i) * f_) + la.sum(g * g)

    g = la.grad(f)(z)
    e = la.explain(g)
    assert e.num_library_calls == 1 and "concat" in e.library_calls[0]
    want = np.zeros_like(zn)
    want[:, 0:4] = (1 - np.tanh(zn[:, 0:4]) ** 2) * zn[:, 4:8]
    want[:, 4:8] = np.tanh(zn[:, 0:4])
    want[:, 10:12] = 2 * zn[:, 10:12]
    np.testing.assert_allclose(np.asarray(g), want, rtol=1e-14)


def test_training_loop_is_one_cached_plan(fresh_caches):
    """A plain Python loop (no decorator): forward + backward + update hits one plan."""
    x, labels, params = _mlp_data(dtype=np.float32)
    p = {k: la.array(v) for k, v in params.items()}
    xs, ys = la.array(x), la.array(labels)
    losses, built = [], []
    for _ in range(6):
        loss, grads = la.value_and_grad(_mlp_loss)(p, xs, ys)
        p = {k: p[k] - 0.5 * grads[k] for k in p}
        la.eval(loss, p)
        losses.append(float(loss))
        built.append(la.cache_info().plans_built)
    assert built[1:] == [built[0]] * 5
    assert losses[-1] < losses[0]


def test_jitted_training_step_matches_the_plain_loop(fresh_caches):
    """la.jit(step) traces forward + backward + update once and then runs the plan alone."""
    x, labels, params = _mlp_data(dtype=np.float32)
    xs, ys = la.array(x), la.array(labels)
    vg = la.value_and_grad(_mlp_loss)

    def step(p, x, y):
        loss, g = vg(p, x, y)
        return {k: p[k] - 0.5 * g[k] for k in p}, loss

    jitted = la.jit(step)
    plain = fast = {k: la.array(v) for k, v in params.items()}
    for _ in range(4):
        plain, loss_plain = la.eval(*step(plain, xs, ys))  # one graph, as the jit's plan
        fast, loss_fast = jitted(fast, xs, ys)
        assert float(loss_plain) == float(loss_fast)
    for k in plain:
        np.testing.assert_array_equal(np.asarray(plain[k]), np.asarray(fast[k]))
    assert la.cache_info().jit_traces == 1


def test_higher_order_and_jit_composition(backend):
    def f(x):
        return la.sum(la.sin(x) * x ** 3)

    xn = np.array([0.3, -1.2, 2.0])
    x = la.array(xn)
    d2 = la.grad(lambda t: la.sum(la.grad(f)(t)))(x)  # sum of the Hessian's rows = its diagonal
    want = -np.sin(xn) * xn**3 + 6 * np.cos(xn) * xn**2 + 6 * np.sin(xn) * xn
    np.testing.assert_allclose(np.asarray(d2), want, rtol=1e-12)
    s = la.array(0.7)
    d3 = la.grad(la.grad(la.grad(lambda t: t * t * t * t)))(s)
    assert float(d3) == pytest.approx(24 * 0.7)
    jitted_grad = la.jit(la.grad(f))
    np.testing.assert_allclose(np.asarray(jitted_grad(x)), np.asarray(la.grad(f)(x)), rtol=1e-14)
    np.testing.assert_allclose(np.asarray(la.grad(la.jit(f))(x)), np.asarray(la.grad(f)(x)),
                               rtol=1e-14)


def test_trees_aux_vjp_jvp_and_stop_gradient():
    a, b = la.array(np.array([1.0, 2.0])), la.array(np.array([3.0, -1.0]))

    def f(tree, scale):
        out = la.sum(tree["a"] * tree["pair"][0] + la.stop_gradient(tree["pair"][1]) * tree["a"])
        return out * scale, {"note": out}

    tree = {"a": a, "pair": [b, a]}
    (value, aux), (g, gs) = la.value_and_grad(f, argnums=(0, 1), has_aux=True)(tree, 2.0)
    np.testing.assert_allclose(np.asarray(g["a"]), 2 * (np.asarray(b) + np.asarray(a)))
    np.testing.assert_allclose(np.asarray(g["pair"][0]), 2 * np.asarray(a))
    np.testing.assert_allclose(np.asarray(g["pair"][1]), 0.0)  # stopped
    flags = la.array(np.array([True, False]))
    for v in (a, flags, la.array(np.arange(3, dtype=np.int8))):  # the identity on any dtype
        np.testing.assert_array_equal(np.asarray(la.stop_gradient(v) * 1), np.asarray(v) * 1)
    assert float(gs) == float(aux["note"]) and float(value) == 2 * float(aux["note"])
    _, pull = la.vjp(lambda t: la.exp(t) * 2.0, a)
    (ct,) = pull(la.array(np.array([1.0, 0.5])))
    np.testing.assert_allclose(np.asarray(ct), 2 * np.exp([1.0, 2.0]) * [1.0, 0.5])
    _, t = la.jvp(lambda u, v: u * v, (a, b), (la.ones_like(a), la.zeros_like(b)))
    np.testing.assert_allclose(np.asarray(t), np.asarray(b))
    unused = la.grad(lambda u, v: la.sum(u), argnums=1)(a, b)
    np.testing.assert_allclose(np.asarray(unused), 0.0)


def test_prod_gradient_is_exact_at_zeros(backend):
    x = np.array([[2.0, 0.0, 3.0], [0.0, 0.0, 5.0], [1.5, 2.0, 4.0]])
    g = la.grad(lambda t: la.sum(la.prod(t, axis=1) * la.array(np.array([1.0, 2.0, 3.0]))))(
        la.array(x))
    want = [[0, 6, 0], [0, 0, 0], [24, 18, 9]]  # one zero: the others' product; two: nothing
    np.testing.assert_array_equal(np.asarray(g), want)


@settings(max_examples=15, deadline=None)
@given(shapes=mutually_broadcastable_shapes(num_shapes=2, min_dims=0, max_dims=3, max_side=3),
       seed=st.integers(0, 2**16))
def test_broadcasting_gradients_match_finite_differences(shapes, seed):
    """Binary ops on broadcast operands: each cotangent sums back to its operand's shape."""
    (sa, sb), _ = shapes
    rng = np.random.default_rng(seed)
    a, b = rng.uniform(0.5, 2.0, sa), rng.uniform(0.5, 2.0, sb)
    va, vb = rng.uniform(-1, 1, sa), rng.uniform(-1, 1, sb)

    def f(x, y):
        return la.sum(la.sin(x * y) + x / y - la.maximum(x, y) ** 2)

    with la.config(backend="numpy"):
        ga, gb = la.grad(f, argnums=(0, 1))(la.array(a), la.array(b))
        assert ga.shape == sa and gb.shape == sb
        got = float(np.sum(np.asarray(ga) * va) + np.sum(np.asarray(gb) * vb))
        eps = 1e-6
        want = (float(f(la.array(a + eps * va), la.array(b + eps * vb)))
                - float(f(la.array(a - eps * va), la.array(b - eps * vb)))) / (2 * eps)
    assert abs(got - want) <= 1e-6 * max(1.0, abs(want))


def test_errors_name_the_users_line():
    x = la.array(np.array([1.0, 2.0]))
    where = _line()
    with pytest.raises(TypeError, match="scalar.*shape \\(2,\\)") as info:
        la.grad(lambda t: t * 2.0)(x)
    assert_site(info, where)
    where = _line()
    with pytest.raises(TypeError, match="int64") as info:
        la.grad(lambda t: la.sum(t))(la.array(np.array([1, 2])))
    assert_site(info, where)
    where = _line()
    with pytest.raises(NotImplementedError, match="scatter.*multiply") as info:
        la.grad(lambda t: la.sum(t.at[0].multiply(3.0)))(x)
    assert_site(info, where)
