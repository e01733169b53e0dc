"""Issue 24's NumPy names on large inputs against NumPy: histogram, gradient, interp, mgrid,
sliding_window_view. Correctness is tests/test_numpy_names.py's business; this shows where the
lazy compositions stand (gathers and scatters are library calls here: see la.explain).

Run: python benchmarks/bench_numpy_names.py [--backend c|numpy] [--repeat 5]
Prints each time (the minimum of --repeat runs, wall clock) and the ratio lazyarray / NumPy.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import lazyarray as la


def cases(r: np.random.Generator) -> dict:
    x = r.standard_normal(1 << 22)
    f = r.standard_normal((2000, 2000))
    xp = np.sort(r.standard_normal(1000))
    fp = np.cos(xp)
    xa, fa = la.asarray(x), la.asarray(f)
    swv = np.lib.stride_tricks.sliding_window_view
    return {
        "histogram 2^22, 100 bins, range": (lambda: np.histogram(x, 100, range=(-3, 3)),
                                            lambda: la.eval(la.histogram(xa, 100, (-3, 3))[0])),
        "histogram 2^22, 100 bins": (lambda: np.histogram(x, 100),
                                     lambda: la.eval(la.histogram(xa, 100)[0])),
        "gradient 2000x2000": (lambda: np.gradient(f), lambda: la.eval(*la.gradient(fa))),
        "interp 2^22 at 1000 points": (lambda: np.interp(x, xp, fp),
                                       lambda: la.eval(la.interp(xa, xp, fp))),
        "mgrid[0:2000, 0:2000].sum()": (lambda: np.mgrid[0:2000, 0:2000].sum(),
                                        lambda: la.eval(la.mgrid[0:2000, 0:2000].sum())),
        "sliding_window_view(2^22, 5).sum(-1)": (
            lambda: swv(x, 5).sum(-1),
            lambda: la.eval(la.lib.stride_tricks.sliding_window_view(xa, 5).sum(-1))),
    }


def best(fn, repeat: int) -> float:
    fn()
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--backend", default="c")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    with la.config(backend=args.backend):
        for name, (ours_np, ours_la) in cases(np.random.default_rng(0)).items():
            t_np, t_la = best(ours_np, args.repeat), best(ours_la, args.repeat)
            print(f"{name:40s} numpy {t_np * 1e3:8.1f} ms  lazyarray {t_la * 1e3:8.1f} ms  "
                  f"ratio {t_la / t_np:5.2f}")


if __name__ == "__main__":
    main()
