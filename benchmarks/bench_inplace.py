"""Functional but in place (issue 25): writes and elementwise updates on big arrays, beside NumPy.

Rows (float64, warm: one untimed call first, so plans are built and kernels compiled):
- `row writes`: a 2000x2000 array, `A[i] = A[i] * 0.5 + i` for 100 rows, then `np.asarray(A)`.
  Each write is a scatter; the node budget cuts the chain every few dozen writes. Before: every
  scatter copied the whole array twice. Now each cut's chain runs in one buffer: the array's old
  buffer when nothing else reads it (donation), else one copy.
- `element writes`: the same array, 200 single-element writes `A[i, i] = A[i, i] + 1.0`.
- `x = x * 2 + 1`: 2^22 float64, 20 steps, each evaluated (`la.eval(x)`): with donation each
  step writes its result over the dead x, allocating nothing.
Columns: NumPy, lazyarray, their ratio, and `la.cache_info()`'s copy/donation counters of one
timed run (bases copied and their MB, updates in place, inputs donated).

Run: python benchmarks/bench_inplace.py [--backend c|numpy] [--repeat N] (minimum of N runs).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import lazyarray as la

N = 2000
ROWS = 100
ELEMENTS = 200
VECTOR = 2**22
STEPS = 20


def row_writes(xp, A):
    for i in range(ROWS):
        A[i] = A[i] * 0.5 + i
    return np.asarray(A)


def element_writes(xp, A):
    for i in range(ELEMENTS):
        A[i, i] = A[i, i] + 1.0
    return np.asarray(A)


def update_loop(xp, x):
    for _ in range(STEPS):
        x = x * 2 + 1
        if xp is la:
            la.eval(x)
    return np.asarray(x)


ROWS_OF_TABLE = [("row writes (2000x2000, 100 rows)", row_writes, (N, N)),
                 ("element writes (2000x2000, 200)", element_writes, (N, N)),
                 ("x = x * 2 + 1 (2^22, 20 evaluated steps)", update_loop, (VECTOR,))]


def _time(xp, fn, start: np.ndarray) -> tuple[float, np.ndarray]:
    arg = la.array(start) if xp is la else start.copy()
    t = time.perf_counter()
    out = fn(xp, arg)
    return time.perf_counter() - t, out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", default="c")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    la.config(backend=args.backend)
    rng = np.random.default_rng(0)
    print(f"backend {args.backend}, min of {args.repeat}")
    print(f"{'row':44s} {'NumPy ms':>9s} {'lazyarray ms':>13s} {'ratio':>6s}  counters")
    for name, fn, shape in ROWS_OF_TABLE:
        start = rng.random(shape)
        want = fn(np, start.copy())
        got = fn(la, la.array(start))  # warm-up: plans, kernels
        la.wait_for_compiles()
        np.testing.assert_allclose(got, want, rtol=1e-12)
        numpy_s = min(_time(np, fn, start)[0] for _ in range(args.repeat))
        times = []
        for _ in range(args.repeat):
            before = la.cache_info()
            times.append(_time(la, fn, start)[0])
            after = la.cache_info()
        def moved(name: str) -> int:  # (0 on a tree before these counters: before/after runs)
            return getattr(after, name, 0) - getattr(before, name, 0)

        counters = (f"copies {moved('base_copies')} ({moved('base_copy_bytes') / 2**20:.0f} MB), "
                    f"in place {moved('in_place_updates')}, donated {moved('inputs_donated')}, "
                    f"cuts {moved('graph_cuts')}")
        lazy_s = min(times)
        print(f"{name:44s} {numpy_s * 1e3:9.2f} {lazy_s * 1e3:13.2f} {lazy_s / numpy_s:6.1f}  "
              f"{counters}")


if __name__ == "__main__":
    main()
