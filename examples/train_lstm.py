"""An LSTM training step with lazyarray's autodiff: predict the next value of noisy sine waves.

The cell computes its four gates with one matmul pair and slices them; the sequence loop is plain
Python (unrolled into the graph), and backpropagation through time is `la.value_and_grad` of the
loss. Each step is one `la.eval` of the loss and the updated parameters: one cached plan.

Run: python examples/train_lstm.py [--steps 200] [--hidden 32] [--length 16]
"""

from __future__ import annotations

import argparse
import sys

import numpy as np

import lazyarray as la


def waves(batch: int, length: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """(batch, length, 1) windows of sines with random phase and frequency, and each next value."""
    rng = np.random.default_rng(seed)
    phase = rng.uniform(0, 2 * np.pi, (batch, 1))
    freq = rng.uniform(0.2, 0.6, (batch, 1))
    t = np.arange(length + 1)[None, :]
    series = np.sin(freq * t + phase) + rng.normal(0, 0.02, (batch, length + 1))
    return series[:, :-1, None].astype(np.float32), series[:, -1:].astype(np.float32)


def init(inputs: int, hidden: int, seed: int = 0) -> dict[str, la.Array]:
    rng = np.random.default_rng(seed)
    scale = 1.0 / np.sqrt(hidden)
    bias = np.zeros(4 * hidden, np.float32)
    bias[hidden:2 * hidden] = 1.0  # forget gate open at the start
    return {
        "wx": la.array(rng.uniform(-scale, scale, (inputs, 4 * hidden)).astype(np.float32)),
        "wh": la.array(rng.uniform(-scale, scale, (hidden, 4 * hidden)).astype(np.float32)),
        "b": la.array(bias),
        "wo": la.array(rng.uniform(-scale, scale, (hidden, 1)).astype(np.float32)),
    }


def lstm_cell(params: dict[str, la.Array], x: la.Array, h: la.Array, c: la.Array
              ) -> tuple[la.Array, la.Array]:
    z = x @ params["wx"] + h @ params["wh"] + params["b"]
    n = h.shape[-1]
    i, f, g, o = (z[:, k * n:(k + 1) * n] for k in range(4))
    c = la.nn.sigmoid(f) * c + la.nn.sigmoid(i) * la.tanh(g)
    return la.nn.sigmoid(o) * la.tanh(c), c


def loss_fn(params: dict[str, la.Array], xs: la.Array, target: la.Array) -> la.Array:
    batch, length, _ = xs.shape
    hidden = params["wh"].shape[0]
    h = c = la.zeros((batch, hidden), dtype=la.float32)
    for t in range(length):
        h, c = lstm_cell(params, xs[:, t, :], h, c)
    return la.mean((h @ params["wo"] - target) ** 2)


def train(steps: int, hidden: int, length: int, lr: float = 0.3, quiet: bool = False
          ) -> list[float]:
    params = init(1, hidden)
    step_fn = la.value_and_grad(loss_fn)
    losses = []
    for step in range(1, steps + 1):
        xn, yn = waves(64, length, seed=step)  # a fresh batch every step: same plan
        loss, grads = step_fn(params, la.array(xn), la.array(yn))
        params = {k: params[k] - lr * grads[k] for k in params}
        la.eval(loss, params)
        losses.append(float(loss))
        if not quiet and (step % 10 == 0 or step == steps):
            done = 30 * step // steps
            sys.stdout.write(f"\r[{'#' * done}{'.' * (30 - done)}] step {step:4d}/{steps}  "
                             f"loss {np.mean(losses[-10:]):.5f}")
            sys.stdout.flush()
    if not quiet:
        info = la.cache_info()
        print(f"\nmean loss of the first 10 steps {np.mean(losses[:10]):.5f}, of the last 10 "
              f"{np.mean(losses[-10:]):.5f}; plans built {info.plans_built}, hits {info.plan_hits}")
    return losses


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--hidden", type=int, default=32)
    parser.add_argument("--length", type=int, default=16)
    args = parser.parse_args()
    train(args.steps, args.hidden, args.length)


if __name__ == "__main__":
    main()
