"""Train a small MLP on a synthetic 3-class spiral with lazyarray's autodiff.

The training step is a plain Python loop body: forward, `la.value_and_grad`, an SGD update, and one
`la.eval` of the loss and the new parameters. Its graph has the same structure every iteration, so
after the first step every step runs one cached plan (no passes, no compiles).

Run: python examples/train_mlp.py [--steps 300] [--hidden 64]
"""

from __future__ import annotations

import argparse
import itertools
import sys

import numpy as np

import lazyarray as la


def spiral(n_per_class: int, classes: int = 3, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Points on `classes` interleaved noisy spiral arms: not linearly separable."""
    rng = np.random.default_rng(seed)
    xs, ys = [], []
    for k in range(classes):
        r = np.linspace(0.05, 1.0, n_per_class)
        t = np.linspace(k * 4.0, (k + 1) * 4.0, n_per_class) + rng.normal(0, 0.2, n_per_class)
        xs.append(np.stack([r * np.sin(t), r * np.cos(t)], axis=1))
        ys.append(np.full(n_per_class, k))
    return np.concatenate(xs).astype(np.float32), np.concatenate(ys)


def init(sizes: list[int], seed: int = 0) -> dict[str, la.Array]:
    rng = np.random.default_rng(seed)
    params = {}
    for i, (m, n) in enumerate(itertools.pairwise(sizes)):
        params[f"w{i}"] = la.array(rng.normal(0, np.sqrt(2.0 / m), (m, n)).astype(np.float32))
        params[f"b{i}"] = la.zeros(n, dtype=la.float32)
    return params


def mlp(params: dict[str, la.Array], x: la.Array) -> la.Array:
    layers = len(params) // 2
    for i in range(layers):
        x = x @ params[f"w{i}"] + params[f"b{i}"]
        if i < layers - 1:
            x = la.nn.relu(x)
    return x


def loss_fn(params: dict[str, la.Array], x: la.Array, labels: la.Array) -> la.Array:
    return la.nn.cross_entropy(mlp(params, x), labels)


def progress(step: int, total: int, loss: float, width: int = 30) -> str:
    done = width * step // total
    return f"\r[{'#' * done}{'.' * (width - done)}] step {step:4d}/{total}  loss {loss:.4f}"


def train(steps: int, hidden: int, lr: float = 0.5, quiet: bool = False) -> list[float]:
    xn, yn = spiral(200)
    x, labels = la.array(xn), la.array(yn)
    params = init([2, hidden, hidden, 3])
    step_fn = la.value_and_grad(loss_fn)
    losses = []
    for step in range(1, steps + 1):
        loss, grads = step_fn(params, x, labels)
        params = {k: params[k] - lr * grads[k] for k in params}
        la.eval(loss, params)  # one graph, one cached plan: forward + backward + update
        losses.append(float(loss))
        if not quiet and (step % 10 == 0 or step == steps):
            sys.stdout.write(progress(step, steps, losses[-1]))
            sys.stdout.flush()
    if not quiet:
        accuracy = float(la.mean(la.argmax(mlp(params, x), axis=1) == labels))
        info = la.cache_info()
        print(f"\nfinal loss {losses[-1]:.4f} (first {losses[0]:.4f}), training accuracy "
              f"{accuracy:.1%}; plans built {info.plans_built}, plan hits {info.plan_hits}")
    return losses


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--hidden", type=int, default=64)
    args = parser.parse_args()
    train(args.steps, args.hidden)


if __name__ == "__main__":
    main()
