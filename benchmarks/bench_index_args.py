"""Loops whose slice starts change (issue 25): one plan for every position, or one per position.

A sliding window over a 10^6-element float64 array, `x[k:k+m] * 2.0 + 1.0` evaluated each step
(`np.asarray`), and a row sweep `A[i, :] * A[:, i]` over a (1000, 1000) matrix: per step, warm
(the second pass over the same positions), against NumPy in the same process; with the plans
built and kernels looked up during the first pass (`la.cache_info()`).

Before issue 25's run-time starts every position was a new structural key: a plan per position
(and an LRU of plans that a long loop evicts, so warm = cold). Now the start is an int64 scalar
argument: one plan, one kernel.

Run: python benchmarks/bench_index_args.py [--backend c] [--steps 200] [--window 1000]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import lazyarray as la


def window_loop(xp, x, steps: int, window: int, stride: int) -> float:
    total = 0.0
    for k in range(steps):
        y = x[k * stride:k * stride + window] * 2.0 + 1.0
        total += float(np.asarray(y)[-1])
    return total


def row_sweep(xp, a, steps: int) -> float:
    total = 0.0
    for i in range(steps):
        total += float(np.asarray(a[i, :] * a[:, i])[i])
    return total


def measure(label: str, run_la, run_np, steps: int) -> None:
    before = la.cache_info()
    t0 = time.perf_counter()
    got = run_la()
    cold = time.perf_counter() - t0
    la.wait_for_compiles()
    first = la.cache_info()
    warm = min(_time(run_la) for _ in range(3))
    t_np = min(_time(run_np) for _ in range(3))
    assert np.isclose(got, run_np()), (got, run_np())
    print(f"{label:44s} cold {cold / steps * 1e6:9.1f} us/step  warm {warm / steps * 1e6:8.1f} "
          f"us/step  NumPy {t_np / steps * 1e6:7.1f} us/step  ({warm / t_np:5.1f}x)  plans built "
          f"{first.plans_built - before.plans_built}, kernels compiled or loaded "
          f"{_lookups(first) - _lookups(before)}")


def _lookups(info) -> int:
    return info.kernels_compiled + info.kernel_disk_hits + info.kernel_memory_hits


def _time(fn) -> float:
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--backend", default="c")
    p.add_argument("--steps", type=int, default=200)
    p.add_argument("--window", type=int, default=1000)
    args = p.parse_args()
    rng = np.random.default_rng(0)
    x_np = rng.random(10**6)
    a_np = rng.random((1000, 1000))
    with la.config(backend=args.backend):
        x, a = la.array(x_np), la.array(a_np)
        stride = (10**6 - args.window) // args.steps
        print(f"backend {args.backend}, tracing {la.cache_info().tracing}, steps {args.steps}")
        measure(f"window x[k:k+{args.window}] * 2 + 1 (10^6 f64)",
                lambda: window_loop(la, x, args.steps, args.window, stride),
                lambda: window_loop(np, x_np, args.steps, args.window, stride), args.steps)
        measure("row sweep A[i, :] * A[:, i] (1000x1000 f64)",
                lambda: row_sweep(la, a, args.steps), lambda: row_sweep(np, a_np, args.steps),
                args.steps)


if __name__ == "__main__":
    main()
