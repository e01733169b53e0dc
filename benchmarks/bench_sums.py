"""Sums in NumPy's order against NumPy, timed in one process (docs/semantics.md "Reduction order").

Rows: float32 and complex64 sums (whole array, row sums, a fused sum of products), now NumPy's
pairwise trees in their own dtype (runtime/c/printer.py `emit_pairwise`); an NCHW batch mean
over (0, 2, 3), a tree per H x W block; a float32 mean in float64 (NumPy's buffered sum: a tree
per 8192 values); the sum over axis 0 of a transposed product (NumPy's memory order); a softmax
whose row sums are float32 trees. Each lazyarray row gives NumPy's bits (tests/test_sum_order.py).

Run: python benchmarks/bench_sums.py [--backend c|numpy] [--repeat 7]
Figures are medians of `--repeat` runs after a warm-up; the machine is shared, so trust ratios.
"""

from __future__ import annotations

import argparse

import numpy as np
from timing import median_seconds

import lazyarray as la


def rows() -> list[tuple[str, object, object]]:
    rng = np.random.default_rng(0)
    x32 = rng.standard_normal(2**22).astype(np.float32)
    m32 = rng.standard_normal((2048, 1024)).astype(np.float32)
    c64 = (rng.standard_normal(2**21) + 1j * rng.standard_normal(2**21)).astype(np.complex64)
    nchw = rng.standard_normal((32, 64, 28, 28)).astype(np.float32)
    t64 = rng.standard_normal((1024, 2048))
    lx, lm, lc, ln, lt = (la.asarray(v) for v in (x32, m32, c64, nchw, t64))

    def softmax(m, v):
        e = m.exp(v - v.max(axis=1, keepdims=True))
        return e / e.sum(axis=1, keepdims=True)

    return [
        ("float32 sum of 2^22", lambda: np.sum(x32), lambda: float(la.sum(lx))),
        ("float32 sum(x * x) of 2^22", lambda: np.sum(x32 * x32), lambda: float(la.sum(lx * lx))),
        ("float32 row sums (2048, 1024)", lambda: m32.sum(axis=1),
         lambda: np.asarray(la.sum(lm, axis=1))),
        ("complex64 sum of 2^21", lambda: np.sum(c64), lambda: complex(la.sum(lc))),
        ("NCHW mean over (0, 2, 3)", lambda: nchw.mean(axis=(0, 2, 3)),
         lambda: np.asarray(la.mean(ln, axis=(0, 2, 3)))),
        ("float32 mean(dtype=float64)", lambda: x32.mean(dtype=np.float64),
         lambda: float(la.mean(lx, dtype=np.float64))),
        ("(x.T * 2).sum(axis=0) float64", lambda: (t64.T * 2).sum(axis=0),
         lambda: np.asarray((lt.T * 2).sum(axis=0))),
        ("softmax (2048, 1024) float32", lambda: softmax(np, m32),
         lambda: np.asarray(softmax(la, lm))),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", default="c")
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    print(f"backend={args.backend} (median of {args.repeat}; shared machine)")
    print(f"{'workload':32} {'numpy ms':>10} {'lazyarray ms':>13} {'np/la':>7}")
    with la.config(backend=args.backend, background_compiles=False):  # (compiled, then timed)
        for name, numpy_fn, la_fn in rows():
            t_np = median_seconds(numpy_fn, args.repeat)
            t_la = median_seconds(la_fn, args.repeat)
            print(f"{name:32} {t_np * 1e3:10.2f} {t_la * 1e3:13.2f} {t_np / t_la:6.2f}x")


if __name__ == "__main__":
    main()
