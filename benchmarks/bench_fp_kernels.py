"""Kernels whose special cases raise floating-point flags (docs/semantics.md, "Floating-point
errors"): log, exp (sigmoid), float->int casts, integer floor division, and a plain multiply-add,
on 2^22 elements, one OpenMP thread, thread CPU time, min of --repeat runs. Run it with
PYTHONPATH at two trees, alternated, to compare them.

    python benchmarks/bench_fp_kernels.py --repeat 11
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import lazyarray as la


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=11)
    args = parser.parse_args()
    la.config(backend="c", background_compiles=False, num_threads=1)
    n = 1 << 22
    r = np.random.default_rng(0)
    x = la.asarray(r.uniform(0.5, 3.0, n).astype(np.float32))
    xd = la.asarray(r.uniform(0.5, 3.0, n))
    i = la.asarray(r.integers(1, 100, n))
    cases = {"log f32": lambda: la.log(x) * 2, "sigmoid f32": lambda: 1 / (1 + la.exp(-x)),
             "exp f64": lambda: la.exp(xd) * 2, "log f64": lambda: la.log(xd) + 1,
             "cast f32->i32": lambda: (x * 3).astype(la.int32), "int //": lambda: i // (i + 1),
             "plain mul-add": lambda: x * 2 + 1}
    for name, f in cases.items():
        np.asarray(f())
        best = float("inf")
        for _ in range(args.repeat):
            y = f()
            t = time.thread_time()
            np.asarray(y)
            best = min(best, time.thread_time() - t)
        print(f"{name:16s} {best * 1e3:8.2f} ms")


if __name__ == "__main__":
    main()
