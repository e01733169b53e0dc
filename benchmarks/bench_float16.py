"""float16 workloads against NumPy, timed in one process.

Rows: halves loaded into float32 work (`exp(x) * 2 + sin(x) * x` summed: C converts the bits in
the fused kernel), a float32 result stored as halves, float64 work stored as halves (both
conversions vectorized on the bits), and the two that compute on halves, which run through NumPy's
own half loops (op by op, no fusion: NumPy's speed plus the executor's overhead): an image's
`sqrt(img) * 16` cast back to uint8 and `x * 2.5 + 1` in float16.

Run: python benchmarks/bench_float16.py [--backend c|numpy] [--n 2000000] [--repeat 5]
Figures are medians of `--repeat` runs after a warm-up; the machine is shared, so trust ratios.
"""

from __future__ import annotations

import argparse

import numpy as np
from timing import median_seconds

import lazyarray as la


def rows(n: int) -> list[tuple[str, object, object]]:
    rng = np.random.default_rng(0)
    x = rng.standard_normal(n).astype(np.float16)
    y = rng.standard_normal(n).astype(np.float32)
    side = int(n ** 0.5)
    img = rng.integers(0, 256, (side, side)).astype(np.uint8)
    lx, ly, limg = la.asarray(x), la.asarray(y), la.asarray(img)

    def work(m, v):
        w = v.astype(m.float32)
        return m.sum(m.exp(w) * 2 + m.sin(w) * w)

    return [
        ("sum(exp(f32(h))*2 + sin*h)", lambda: work(np, x), lambda: float(work(la, lx))),
        ("(y32 * 3).astype(float16)", lambda: (y * 3).astype(np.float16),
         lambda: np.asarray((ly * 3).astype(la.float16))),
        ("(f64(h) * 1.0001) -> f16", lambda: (x.astype(np.float64) * 1.0001).astype(np.float16),
         lambda: np.asarray((lx.astype(la.float64) * 1.0001).astype(la.float16))),
        ("(sqrt(img)*16).astype(u8)", lambda: (np.sqrt(img) * 16).astype(np.uint8),
         lambda: np.asarray((la.sqrt(limg) * 16).astype(la.uint8))),
        ("h * 2.5 + 1 (half loops)", lambda: x * 2.5 + 1, lambda: np.asarray(lx * 2.5 + 1)),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", default="c")
    parser.add_argument("--n", type=int, default=2_000_000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    print(f"backend={args.backend} n={args.n} (median of {args.repeat}; shared machine)")
    print(f"{'workload':30} {'numpy ms':>10} {'lazyarray ms':>13} {'ratio':>7}")
    with (la.config(backend=args.backend, background_compiles=False),  # (compiled, then timed)
          np.errstate(all="ignore"), la.errstate(all="ignore")):
        for name, numpy_fn, la_fn in rows(args.n):
            t_np = median_seconds(numpy_fn, args.repeat)
            t_la = median_seconds(la_fn, args.repeat)
            print(f"{name:30} {t_np * 1e3:10.2f} {t_la * 1e3:13.2f} {t_np / t_la:6.2f}x")


if __name__ == "__main__":
    main()
