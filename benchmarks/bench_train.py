"""One training step (forward + backward + SGD update) of an MLP and of an unrolled LSTM.

Peers, in the same process: NumPy with hand-written backprop, JAX `jax.jit(value_and_grad)` and
PyTorch eager autograd (each when installed). lazyarray's step is a plain Python loop body (no
decorator): `la.value_and_grad`, the update, one `la.eval`; after the first step it runs one cached
plan, but still builds the step's graph in Python each time. `la.jit(step)` skips that too, which
is what `jax.jit` does. Before timing, each peer's gradients are checked against NumPy's hand-written ones.

Run: python benchmarks/bench_train.py [--repeat 7] [--steps 20]
Prints per-step medians and ratios to NumPy, and the kernel count of lazyarray's steps.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

import lazyarray as la

MLP = {"batch": 256, "inputs": 128, "hidden": 256, "classes": 10}
LSTM = {"batch": 32, "inputs": 16, "hidden": 64, "length": 16}
LR = 0.1


# --- data and parameters (NumPy, float32) --------------------------------------------------------
def mlp_setup(seed=0):
    rng = np.random.default_rng(seed)
    b, n, h, k = MLP["batch"], MLP["inputs"], MLP["hidden"], MLP["classes"]
    params = {"w1": rng.normal(0, 0.1, (n, h)), "b1": np.zeros(h), "w2": rng.normal(0, 0.1, (h, k)),
              "b2": np.zeros(k)}
    params = {name: v.astype(np.float32) for name, v in params.items()}
    return params, rng.normal(0, 1, (b, n)).astype(np.float32), rng.integers(0, k, b)


def lstm_setup(seed=0):
    rng = np.random.default_rng(seed)
    b, n, h, t = LSTM["batch"], LSTM["inputs"], LSTM["hidden"], LSTM["length"]
    params = {"wx": rng.normal(0, 0.2, (n, 4 * h)), "wh": rng.normal(0, 0.2, (h, 4 * h)),
              "b": np.zeros(4 * h), "wo": rng.normal(0, 0.2, (h, 1))}
    params = {name: v.astype(np.float32) for name, v in params.items()}
    return params, rng.normal(0, 1, (t, b, n)).astype(np.float32), rng.normal(0, 1, (b, 1)).astype(
        np.float32)


# --- the models, written once for lazyarray, JAX and PyTorch (same operators) ----------------------
def mlp_loss_logits(xp, p, x):
    return xp.tanh(x @ p["w1"] + p["b1"]) @ p["w2"] + p["b2"]


def lstm_loss(xp, p, xs, target, sigmoid):
    n = p["wh"].shape[0]
    h = c = xp.zeros((xs.shape[1], n), dtype=xs.dtype)
    for t in range(xs.shape[0]):
        z = xs[t] @ p["wx"] + h @ p["wh"] + p["b"]
        i, f, g, o = (z[:, k * n:(k + 1) * n] for k in range(4))
        c = sigmoid(f) * c + sigmoid(i) * xp.tanh(g)
        h = sigmoid(o) * xp.tanh(c)
    return xp.mean((h @ p["wo"] - target) ** 2)


# --- NumPy: hand-written backprop ----------------------------------------------------------------
def numpy_mlp_grads(p, x, labels):
    h = np.tanh(x @ p["w1"] + p["b1"])
    z = h @ p["w2"] + p["b2"]
    e = np.exp(z - z.max(1, keepdims=True))
    soft = e / e.sum(1, keepdims=True)
    loss = -np.mean(np.log(soft[np.arange(len(labels)), labels]))
    dz = soft
    dz[np.arange(len(labels)), labels] -= 1
    dz /= len(labels)
    dh = (dz @ p["w2"].T) * (1 - h * h)
    return loss, {"w1": x.T @ dh, "b1": dh.sum(0), "w2": h.T @ dz, "b2": dz.sum(0)}


def _sig(v):
    return 1 / (1 + np.exp(-v))


def numpy_lstm_grads(p, xs, target):
    n = p["wh"].shape[0]
    h = c = np.zeros((xs.shape[1], n), np.float32)
    tape = []
    for x in xs:
        z = x @ p["wx"] + h @ p["wh"] + p["b"]
        i, f, g, o = _sig(z[:, :n]), _sig(z[:, n:2 * n]), np.tanh(z[:, 2 * n:3 * n]), _sig(z[:, 3 * n:])
        c_prev, h_prev = c, h
        c = f * c + i * g
        tc = np.tanh(c)
        h = o * tc
        tape.append((x, h_prev, c_prev, i, f, g, o, tc))
    err = h @ p["wo"] - target
    loss = np.mean(err**2)
    dpred = 2 * err / err.size
    grads = {"wo": h.T @ dpred, "wx": np.zeros_like(p["wx"]), "wh": np.zeros_like(p["wh"]),
             "b": np.zeros_like(p["b"])}
    dh, dc = dpred @ p["wo"].T, np.zeros_like(c)
    for x, h_prev, c_prev, i, f, g, o, tc in reversed(tape):
        dc = dc + dh * o * (1 - tc * tc)
        dz = np.concatenate([dc * g * i * (1 - i), dc * c_prev * f * (1 - f), dc * i * (1 - g * g),
                             dh * tc * o * (1 - o)], axis=1)
        grads["wx"] += x.T @ dz
        grads["wh"] += h_prev.T @ dz
        grads["b"] += dz.sum(0)
        dh, dc = dz @ p["wh"].T, dc * f
    return loss, grads


def numpy_step(grads_fn):
    def step(p, *data):
        loss, g = grads_fn(p, *data)
        return {k: p[k] - LR * g[k] for k in p}, loss
    return step


# --- lazyarray ------------------------------------------------------------------------------------
def la_mlp(p, x, labels):
    return la.nn.cross_entropy(mlp_loss_logits(la, p, x), labels)


def la_lstm(p, xs, target):
    return lstm_loss(la, p, xs, target, la.nn.sigmoid)


def la_step(loss_fn):
    vg = la.value_and_grad(loss_fn)

    def step(p, *data):
        loss, g = vg(p, *data)
        new = {k: p[k] - LR * g[k] for k in p}
        la.eval(loss, new)
        return new, loss
    return step


def la_jit_step(loss_fn):
    """The same step under la.jit: later calls skip Python and graph building entirely."""
    vg = la.value_and_grad(loss_fn)

    @la.jit
    def step(p, *data):
        loss, g = vg(p, *data)
        return {k: p[k] - LR * g[k] for k in p}, loss
    return step


# --- JAX and PyTorch (optional) -------------------------------------------------------------------
def jax_steps():
    try:
        import jax
        import jax.numpy as jnp
    except ImportError:
        return None

    def mlp(p, x, labels):
        logits = mlp_loss_logits(jnp, p, x)
        return -jnp.mean(jax.nn.log_softmax(logits)[jnp.arange(labels.shape[0]), labels])

    def lstm(p, xs, target):
        return lstm_loss(jnp, p, xs, target, jax.nn.sigmoid)

    def make(loss_fn):
        @jax.jit
        def step(p, *data):
            loss, g = jax.value_and_grad(loss_fn)(p, *data)
            return {k: p[k] - LR * g[k] for k in p}, loss

        def run(p, *data):
            out = step(p, *data)
            jax.block_until_ready(out)
            return out
        return run

    return make(mlp), make(lstm), lambda tree: jax.tree_util.tree_map(jnp.asarray, tree), jax


def torch_steps():
    try:
        import torch
    except ImportError:
        return None
    torch.set_num_threads(2)

    def mlp(p, x, labels):
        logits = mlp_loss_logits(torch, p, x)
        return torch.nn.functional.cross_entropy(logits, labels)

    def lstm(p, xs, target):
        return lstm_loss(torch, p, xs, target, torch.sigmoid)

    def make(loss_fn):
        def step(p, *data):
            loss = loss_fn(p, *data)
            grads = torch.autograd.grad(loss, list(p.values()))
            with torch.no_grad():
                new = {k: (v - LR * g).requires_grad_() for (k, v), g in zip(p.items(), grads)}
            return new, loss.detach()
        return step

    def convert(tree):
        return {k: torch.tensor(v, requires_grad=True) for k, v in tree.items()}

    return make(mlp), make(lstm), convert, torch


# --- timing ---------------------------------------------------------------------------------------
def per_step(step, params, data, steps: int, repeat: int) -> tuple[float, dict]:
    """Median seconds per step over `repeat` runs of `steps` chained steps, after 2 warm-ups."""
    p = params
    for _ in range(2):
        p, _ = step(p, *data)
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(steps):
            p, _ = step(p, *data)
        times.append((time.perf_counter() - start) / steps)
    return statistics.median(times), p


def check(name, got, want):
    for k in want:
        np.testing.assert_allclose(np.asarray(got[k], dtype=np.float64), want[k], rtol=2e-3,
                                   atol=2e-5, err_msg=f"{name}: {k}")


def bench(model: str, repeat: int, steps: int) -> dict[str, float]:
    setup, np_grads, la_loss = ((mlp_setup, numpy_mlp_grads, la_mlp) if model == "mlp"
                                else (lstm_setup, numpy_lstm_grads, la_lstm))
    params, *data = setup()
    _, want = np_grads(params, *data)
    results = {"numpy hand-written backprop": per_step(numpy_step(np_grads), params, data, steps,
                                                       repeat)[0]}
    la_params = {k: la.array(v) for k, v in params.items()}
    la_data = [la.array(d) for d in data]
    _, g = la.value_and_grad(la_loss)(la_params, *la_data)
    check("lazyarray", la.eval(g), want)
    results["lazyarray (plain loop)"] = per_step(la_step(la_loss), la_params, la_data, steps,
                                                 repeat)[0]
    results["lazyarray la.jit(step)"] = per_step(la_jit_step(la_loss), la_params, la_data, steps,
                                                 repeat)[0]
    vg = la.value_and_grad(la_loss)(la_params, *la_data)
    e = la.explain(vg[0], *[la_params[k] - LR * vg[1][k] for k in la_params])
    results["_kernels"] = (e.num_kernels, e.num_library_calls)
    jx = jax_steps()
    if jx is not None:
        mlp_step, lstm_step, convert, jax = jx
        step = mlp_step if model == "mlp" else lstm_step
        jdata = [jax.numpy.asarray(d) for d in data]
        results["jax jit"] = per_step(step, convert(params), jdata, steps, repeat)[0]
    th = torch_steps()
    if th is not None:
        mlp_step, lstm_step, convert, torch = th
        step = mlp_step if model == "mlp" else lstm_step
        tdata = [torch.tensor(d) for d in data]
        results["pytorch eager"] = per_step(step, convert(params), tdata, steps, repeat)[0]
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--steps", type=int, default=20)
    args = parser.parse_args()
    print(f"backend {la.get_settings().backend}; MLP {MLP}; LSTM {LSTM}; float32; per-step medians")
    for model in ("mlp", "lstm"):
        results = bench(model, args.repeat, args.steps)
        kernels, calls = results.pop("_kernels")
        base = results["numpy hand-written backprop"]
        print(f"\n{model.upper()} training step: lazyarray plan = {kernels} kernels + {calls} "
              "library calls")
        print(f"  {'implementation':32s} {'ms/step':>9s} {'vs numpy':>9s}")
        for name, t in results.items():
            print(f"  {name:32s} {t * 1e3:9.3f} {base / t:8.2f}x")


if __name__ == "__main__":
    main()
