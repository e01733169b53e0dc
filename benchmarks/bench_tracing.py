"""Tracing cost: one user-level op, and the loops of benchmarks/bench_loops.py in their steady state.

1. Per op, on 16-element float32 Arrays, nothing evaluated: `a + b`, `a * 0.5`, `0.5 * a`,
   `la.exp(a)`, `la.maximum(a, b)`, and `relu(x @ w + b)`'s broadcasting add; basic indexing:
   an LSTM gate slice `g[:, h:2h]` of a (256, 4096) matrix, `x[3]`, `x[1:-1]`, `x[..., 0]` and
   `x[None]` of an (8, 16) one.
   The ops index loops are made of, (60, 60) float64 (issue 25): `A[i, :j]`, `A[i, j]`,
   `A[i, j] / A[j, j]`, `la.dot(A[i, :j], A[j, :j])`, `A[i, j] = 1.0` in a loop, beside NumPy.
2. The loops never evaluated inside (momentum, Fibonacci, Adam-style, accumulator), each run
   `--rounds` times in one process so that plans and kernels are warm: µs per step against NumPy
   eager, the min over the rounds after the first.

Which tracing path runs is `la.cache_info().tracing`; `LAZYARRAY_PURE_PYTHON=1` forces the Python
one, so before/after is two runs of this script (alternate them: the machine is shared).

Run: python benchmarks/bench_tracing.py [--backend c] [--rounds 6] [--timer cpu]
(`--timer cpu`: the per-op rows in this thread's CPU time, `time.thread_time`, which the other
processes on a shared machine do not inflate; the loops stay in wall time.)
"""

from __future__ import annotations

import argparse
import os
import sys
import time
import timeit

import numpy as np

import lazyarray as la

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests"))


def per_op(timer=time.perf_counter) -> dict[str, float]:
    a, b = la.ones(16, dtype=la.float32), la.ones(16, dtype=la.float32)
    x, w, bias = la.ones((4, 8), dtype=la.float32), la.ones((8, 16), dtype=la.float32), b
    xw = x @ w
    g, m, h = la.ones((256, 4096), dtype=la.float32), la.ones((8, 16), dtype=la.float32), 1024
    cases = {"a + b": lambda: a + b, "a * 0.5": lambda: a * 0.5, "0.5 * a": lambda: 0.5 * a,
             "la.exp(a)": lambda: la.exp(a), "la.maximum(a, b)": lambda: la.maximum(a, b),
             "xw + bias (broadcast)": lambda: xw + bias,
             "g[:, h:2h] (LSTM gate)": lambda: g[:, h:2 * h], "x[3]": lambda: m[3],
             "x[1:-1]": lambda: m[1:-1], "x[..., 0]": lambda: m[..., 0], "x[None]": lambda: m[None]}
    empty = min(timeit.repeat(lambda: None, number=20000, repeat=7, timer=timer)) / 20000
    return {name: min(timeit.repeat(fn, number=20000, repeat=7, timer=timer)) / 20000 - empty
            for name, fn in cases.items()}


def index_loop_ops(timer=time.perf_counter) -> list[tuple[str, float, float]]:
    """The ops index loops are made of (issue 25), per call on a (60, 60) float64 matrix, warm,
    beside NumPy's: reads, `la.dot` of two row slices, and `A[i, j] = 1.0` in a loop of 60
    writes, traced only (a fresh A each round, its creation subtracted) and in the steady state
    (the same A written on: node-budget cuts evaluate it every so often)."""
    rng = np.random.default_rng(0)
    a_np = rng.random((60, 60))
    a_la = la.asarray(a_np)
    i, j = 40, 30

    def best(fn, number=20000) -> float:
        return min(timeit.repeat(fn, number=number, repeat=7, timer=timer)) / number

    def writes(make, xp_a=None):
        def run():
            a = make() if xp_a is None else xp_a
            for k in range(60):
                a[k, k] = 1.0
        return run

    empty = best(lambda: None)
    rows = []
    for name, fn_la, fn_np in (
            ("A[i, :j]", lambda: a_la[i, :j], lambda: a_np[i, :j]),
            ("A[i, j]", lambda: a_la[i, j], lambda: a_np[i, j]),
            ("A[i, j] / A[j, j]", lambda: a_la[i, j] / a_la[j, j], lambda: a_np[i, j] / a_np[j, j]),
            ("la.dot(A[i, :j], A[j, :j])", lambda: la.dot(a_la[i, :j], a_la[j, :j]),
             lambda: np.dot(a_np[i, :j], a_np[j, :j]))):
        rows.append((name, best(fn_la) - empty, best(fn_np) - empty))
    fresh = best(lambda: la.asarray(a_np), 300)
    traced = (best(writes(lambda: la.asarray(a_np)), 300) - fresh) / 60
    steady_a = la.asarray(a_np.copy())
    steady = best(writes(None, steady_a), 300) / 60
    numpy_w = best(writes(None, a_np.copy()), 300) / 60
    rows.append(("A[i, j] = 1.0 in a loop, traced only", traced, numpy_w))
    rows.append(("A[i, j] = 1.0 in a loop, with its cuts' evaluations", steady, numpy_w))
    return rows


def warm_loops(rounds: int) -> list[tuple[str, float, float]]:
    from test_loops import accumulate, adam, fibonacci, momentum

    rows = [("momentum, 8 f32", momentum, 2, 8, 200), ("Fibonacci, 8 f32", fibonacci, 2, 8, 300),
            ("Adam-style, 8 f32", adam, 4, 8, 1000), ("accumulator, 100 f32", accumulate, 2, 100,
                                                      2000)]
    out = []
    with np.errstate(over="ignore"):
        for label, fn, k, size, steps in rows:
            start = [np.linspace(0.5, 1.0, size, dtype=np.float32) + i for i in range(k)]
            t_np = min(_time(lambda: fn(np, *start, steps)) for _ in range(rounds)) / steps
            times = []
            for _ in range(rounds):
                args = [la.array(x) for x in start]
                times.append(_time(lambda: la.eval(*fn(la, *args, steps))))
                la.wait_for_compiles()
            out.append((label, min(times[1:]) / steps, t_np))
    return out


def _time(fn) -> float:
    t = time.perf_counter()
    fn()
    return time.perf_counter() - t


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", default="c")
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--timer", choices=("wall", "cpu"), default="wall")
    args = parser.parse_args()
    timer = time.thread_time if args.timer == "cpu" else time.perf_counter
    with la.config(backend=args.backend):
        print(f"tracing: {la.cache_info().tracing}, backend: {args.backend}")
        print(f"| op (16 f32, unevaluated; {args.timer} time) | µs |\n|---|---|")
        for name, t in per_op(timer).items():
            print(f"| `{name}` | {t * 1e6:.2f} |")
        print(f"\n| index-loop op ((60, 60) f64, warm; {args.timer} time) | lazyarray µs | "
              "NumPy µs |\n|---|---|---|")
        for name, t_la, t_np in index_loop_ops(timer):
            print(f"| `{name}` | {t_la * 1e6:.2f} | {t_np * 1e6:.2f} |")
        print("\n| loop, warm (plans built) | lazyarray µs/step | NumPy µs/step | ratio |")
        print("|---|---|---|---|")
        for label, t_la, t_np in warm_loops(args.rounds):
            print(f"| {label} | {t_la * 1e6:.1f} | {t_np * 1e6:.1f} | {t_la / t_np:.1f}x |")


if __name__ == "__main__":
    main()
