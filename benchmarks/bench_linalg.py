"""la.linalg / la.fft / la.random against NumPy, timed in one process.

1. Library calls on 1024-sized problems: solve (1024 x 1024, 1 right-hand side), svd (1024 x 1024,
   singular values and vectors), inv, eigh, and fft/rfft (1024 x 1024 rows) where lazyarray has
   complex dtypes. The library is the same (NumPy's LAPACK / pocketfft), so the ratio shows the
   overhead of the lazy path (graph, plan lookup, buffer copy): ~1 is the goal.
2. Fused dropout `x * (uniform(key, x.shape) > p)` on 2^22 float32 against NumPy's
   generate-then-multiply (`rng.random(x.shape, float32) > p`, then multiply), and a normal draw.
   Each lazyarray call uses a fresh key (a kernel argument: no recompile).

Run: python benchmarks/bench_linalg.py [--backend c|numpy] [--repeat 5]
Figures are medians of `--repeat` runs after a warm-up; the machine is shared, so trust ratios.
"""

from __future__ import annotations

import argparse

import numpy as np
from timing import median_seconds

import lazyarray as la


def library_rows(repeat: int) -> list[tuple[str, float, float]]:
    rng = np.random.default_rng(0)
    n = 1024
    a = rng.standard_normal((n, n)) + n**0.5 * np.eye(n)
    spd = a @ a.T
    b = rng.standard_normal(n)
    la_a, la_b, la_spd = la.array(a), la.array(b), la.array(spd)
    rows = [
        ("solve 1024x1024", lambda: np.linalg.solve(a, b),
         lambda: np.asarray(la.linalg.solve(la_a, la_b))),
        ("inv 1024x1024", lambda: np.linalg.inv(a), lambda: np.asarray(la.linalg.inv(la_a))),
        ("svd 1024x1024", lambda: np.linalg.svd(a),
         lambda: la.eval(*la.linalg.svd(la_a))),
        ("svdvals 1024x1024", lambda: np.linalg.svd(a, compute_uv=False),
         lambda: np.asarray(la.linalg.svdvals(la_a))),
        ("eigh 1024x1024", lambda: np.linalg.eigh(spd), lambda: la.eval(*la.linalg.eigh(la_spd))),
        ("solve + fused epilogue", lambda: np.tanh(np.linalg.solve(a, b) * 2.0 + 1.0),
         lambda: np.asarray(la.tanh(la.linalg.solve(la_a, la_b) * 2.0 + 1.0))),
    ]
    if np.dtype(np.complex128) in la.graph.SUPPORTED:
        x = rng.standard_normal((n, n))
        la_x = la.array(x)
        rows += [("fft rows 1024x1024", lambda: np.fft.fft(x), lambda: np.asarray(la.fft.fft(la_x))),
                 ("rfft rows 1024x1024", lambda: np.fft.rfft(x),
                  lambda: np.asarray(la.fft.rfft(la_x)))]
    return [(name, median_seconds(ref, repeat), median_seconds(lazy, repeat))
            for name, ref, lazy in rows]


def random_rows(repeat: int) -> list[tuple[str, float, float]]:
    shape, p = (2048, 2048), 0.1
    xn = np.random.default_rng(1).standard_normal(shape).astype(np.float32)
    x = la.array(xn)
    gen = np.random.default_rng(2)
    keys = iter(np.asarray(la.random.split(la.random.key(0), 1000)))

    def numpy_dropout():
        return xn * (gen.random(shape, dtype=np.float32) > p)

    def lazy_dropout():
        return np.asarray(x * (la.random.uniform(next(keys), shape, la.float32) > p))

    def numpy_normal():
        return gen.standard_normal(shape, dtype=np.float32)

    def lazy_normal():
        return np.asarray(la.random.normal(next(keys), shape, la.float32))

    return [("dropout 2^22 float32", median_seconds(numpy_dropout, repeat),
             median_seconds(lazy_dropout, repeat)),
            ("normal 2^22 float32", median_seconds(numpy_normal, repeat),
             median_seconds(lazy_normal, repeat))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", default="c")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    with la.config(backend=args.backend):
        rows = library_rows(args.repeat) + random_rows(args.repeat)
    print(f"backend {args.backend}; median of {args.repeat} runs; NumPy {np.__version__}")
    print(f"{'case':28s} {'numpy ms':>10s} {'lazyarray ms':>13s} {'ratio':>7s}")
    for name, ref, lazy in rows:
        print(f"{name:28s} {ref * 1e3:10.2f} {lazy * 1e3:13.2f} {ref / lazy:7.2f}x")
    print("ratio = numpy time / lazyarray time (above 1: lazyarray faster)")


if __name__ == "__main__":
    main()
