"""Loop time against the node budget: where cuts stop paying for the plans they save.

Each loop runs from empty plan caches (kernels from the on-disk cache after the first run), so a
row's time is tracing + up to 3 plan builds (the passes, ~linear in the segment's nodes) + one
evaluation per cut. The first run of each (loop, budget) is reported apart: it may compile.

Run: python benchmarks/bench_budget.py [--budgets 500,200,100] [--backend c] [--repeat 4]
"""

from __future__ import annotations

import argparse
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests"))


def power_iteration(la, steps=200):
    """Issue 11's reproducer: `v` is used three times a step."""
    a = la.array(np.random.default_rng(0).standard_normal((64, 64)).astype(np.float32))
    v = la.ones(64, dtype=la.float32)
    for _ in range(steps):
        v = a @ v
        v = v / la.linalg.norm(v)
    return (v,)


def gradient_descent(la, steps=100):
    a = la.array(np.random.default_rng(1).standard_normal((16, 16)).astype(np.float32) / 4)
    b = la.array(np.ones(16, np.float32))
    grad = la.grad(lambda x: la.sum((a @ x - b) ** 2))
    x = la.zeros(16, dtype=la.float32)
    for _ in range(steps):
        x = x - 0.01 * grad(x)
    return (x,)


def state_loop(fn, k, size, steps):
    def run(la):
        start = [np.linspace(0.5, 1.0, size, dtype=np.float32) + i for i in range(k)]
        return fn(la, *[la.array(x) for x in start], steps)
    return run


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--budgets", default="500,250,200,150,100,60")
    parser.add_argument("--backend", default="c")
    parser.add_argument("--repeat", type=int, default=4)
    args = parser.parse_args()
    import lazyarray as la
    from test_loops import accumulate, adam, momentum

    rows = [("power iteration 64x64, 200 steps", power_iteration),
            ("gradient descent (la.grad), 100 steps", gradient_descent),
            ("Adam-style 4-state, 1,000 steps", state_loop(adam, 4, 8, 1000)),
            ("momentum SGD, 200 steps", state_loop(momentum, 2, 8, 200)),
            ("acc = acc + v*0.5, 100 f32, 10,000 steps", state_loop(accumulate, 2, 100, 10_000))]
    budgets = [int(b) for b in args.budgets.split(",")]
    print(f"backend={args.backend}; ms, min of {args.repeat - 1} runs after the first (first in "
          "parentheses); cuts / plans built\n")
    print("| loop | " + " | ".join(f"budget {b}" for b in budgets) + " |")
    print("|---|" + "---|" * len(budgets))
    with la.config(backend=args.backend):
        for label, run in rows:
            cells = []
            for budget in budgets:
                times = []
                with la.config(max_graph_nodes=budget):
                    for _ in range(args.repeat):
                        la.clear_caches()
                        t = time.perf_counter()
                        la.eval(*run(la))
                        times.append(time.perf_counter() - t)
                        info = la.cache_info()
                best = min(times[1:]) if len(times) > 1 else times[0]
                cells.append(f"{best * 1e3:.0f} ({times[0] * 1e3:.0f}) {info.graph_cuts}/"
                             f"{info.plans_built}")
            print(f"| {label} | " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main()
