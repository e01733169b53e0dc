"""complex64/complex128 workloads against NumPy, timed in one process.

Rows: a fused elementwise chain `abs(exp(z) * w + 1j)` (NumPy: four passes over memory and three
temporaries; lazyarray: one kernel), a chain with a reduction `sum(conj(z) * w)` (NumPy's `vdot`
as the BLAS peer too), the transcendental `sqrt(log(z))` alone, and complex matmul (both BLAS).

Run: python benchmarks/bench_complex.py [--backend c|numpy] [--n 1048576] [--repeat 5]
Figures are medians of `--repeat` runs after a warm-up; the machine is shared, so trust ratios.
"""

from __future__ import annotations

import argparse

import numpy as np
from timing import median_seconds

import lazyarray as la


def rows(n: int, dtype) -> list[tuple[str, object, object]]:
    rng = np.random.default_rng(0)
    z = (rng.standard_normal(n) + 1j * rng.standard_normal(n)).astype(dtype)
    w = (rng.standard_normal(n) + 1j * rng.standard_normal(n)).astype(dtype)
    m = int(round(n ** 0.5 / 2))
    a = (rng.standard_normal((m, m)) + 1j * rng.standard_normal((m, m))).astype(dtype)
    lz, lw, la_a = la.asarray(z), la.asarray(w), la.asarray(a)
    return [
        ("abs(exp(z) * w + 1j)", lambda: np.abs(np.exp(z) * w + 1j),
         lambda: np.asarray(la.abs(la.exp(lz) * lw + 1j))),
        ("sum(conj(z) * w)", lambda: np.sum(np.conj(z) * w),
         lambda: complex(la.sum(la.conj(lz) * lw))),
        ("  (NumPy vdot, BLAS)", lambda: np.vdot(z, w),
         lambda: complex(la.sum(la.conj(lz) * lw))),
        ("sqrt(log(z))", lambda: np.sqrt(np.log(z)), lambda: np.asarray(la.sqrt(la.log(lz)))),
        (f"matmul {m}x{m}", lambda: a @ a, lambda: np.asarray(la_a @ la_a)),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", default="c")
    parser.add_argument("--n", type=int, default=1 << 20)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    print(f"backend={args.backend} n={args.n} (median of {args.repeat}; shared machine)")
    print(f"{'workload':30} {'dtype':>10} {'numpy ms':>10} {'lazyarray ms':>13} {'ratio':>7}")
    with la.config(backend=args.backend):
        for dtype in (np.complex64, np.complex128):
            for name, numpy_fn, la_fn in rows(args.n, dtype):
                t_np = median_seconds(numpy_fn, args.repeat)
                t_la = median_seconds(la_fn, args.repeat)
                print(f"{name:30} {np.dtype(dtype).name:>10} {t_np * 1e3:10.2f} "
                      f"{t_la * 1e3:13.2f} {t_np / t_la:6.2f}x")


if __name__ == "__main__":
    main()
