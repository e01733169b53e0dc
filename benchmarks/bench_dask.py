"""lazyarray on Dask vs dask.array alone vs NumPy in memory, on chunks (docs/dask.md).

Workloads over 2**N float32 elements (N=27 by default; --log2 28 for the issue's size, which
needs ~8 GB with NumPy's temporaries):
- two fused elementwise expressions (arithmetic only: memory-bound; with exp and tanh:
  compute-bound), stored chunk by chunk into a preallocated array (`da.store`);
- `mean((a - b) ** 2)` over the chunks.
Both Dask peers run on the same threaded scheduler with 2 workers (this machine's 2 cores) over the
same chunks; the table gives the best of --repeat runs, the ratio to dask.array, and the tasks each
graph has after Dask's optimization (what the scheduler runs).

    python benchmarks/bench_dask.py [--log2 27] [--chunk-log2 22] [--repeat 3]
"""

from __future__ import annotations

import argparse
import time

import dask
import dask.array as da
import numpy as np

import lazyarray as la
import lazyarray.dask


def expression(xp, a, b):
    """Eight elementwise ops, two of them transcendental (compute-bound per element)."""
    return (a - b) * xp.exp(-a * a) + xp.tanh(b) * 0.5 + 1.0


def arithmetic(xp, a, b):
    """Nine arithmetic ops (memory-bound): NumPy and dask.array write a temporary for each."""
    return (a * b + a * a * 0.5 - b * 3.0 + 1.0) * (a - b) + b


def mse(xp, a, b):
    return xp.mean((a - b) ** 2)


def tasks(x) -> str:
    """Tasks in the graph as built / after Dask's optimization (blockwise fusion merges the
    per-op layers of dask.array into one task per chunk, so 'after' counts are close)."""
    (opt,) = dask.optimize(x)
    built = len(dict(x.__dask_graph__()))
    return f"{built}/{len(dict(opt.__dask_graph__()))}"


def best(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--log2", type=int, default=27)
    p.add_argument("--chunk-log2", type=int, default=22)
    p.add_argument("--repeat", type=int, default=3)
    args = p.parse_args()
    n, chunk = 1 << args.log2, 1 << args.chunk_log2
    rng = np.random.default_rng(0)
    a_np = rng.standard_normal(n, dtype=np.float32)
    b_np = rng.standard_normal(n, dtype=np.float32)
    out = np.empty(n, np.float32)
    dask.config.set(scheduler="threads", num_workers=2)
    a_d, b_d = da.from_array(a_np, chunks=chunk), da.from_array(b_np, chunks=chunk)
    a_la, b_la = la.from_dask(a_d), la.from_dask(b_d)

    # warm up: compile the kernels, check the results agree
    for fn in (arithmetic, expression):
        da.store(fn(la, a_la, b_la).to_dask(), out, lock=False)
        ref = fn(np, a_np[:chunk], b_np[:chunk])
        np.testing.assert_allclose(out[:chunk], ref, rtol=1e-5, atol=1e-5)
    got_mse = float(mse(la, a_la, b_la).to_dask().compute())
    np.testing.assert_allclose(got_mse, float(mse(np, a_np, b_np)), rtol=1e-4)

    rows = []
    for name, fn in (("arithmetic chain", arithmetic), ("exp/tanh expression", expression)):
        t_np = best(lambda fn=fn: fn(np, a_np, b_np), args.repeat)
        t_da = best(lambda fn=fn: da.store(fn(da, a_d, b_d), out, lock=False), args.repeat)
        t_la = best(lambda fn=fn: da.store(fn(la, a_la, b_la).to_dask(), out, lock=False),
                    args.repeat)
        rows.append((name, t_np, t_da, t_la, tasks(fn(da, a_d, b_d)),
                     tasks(fn(la, a_la, b_la).to_dask())))
    t_np = best(lambda: mse(np, a_np, b_np), args.repeat)
    t_da = best(lambda: mse(da, a_d, b_d).compute(), args.repeat)
    t_la = best(lambda: mse(la, a_la, b_la).to_dask().compute(), args.repeat)
    rows.append(("mean((a-b)**2)", t_np, t_da, t_la, tasks(mse(da, a_d, b_d)),
                 tasks(mse(la, a_la, b_la).to_dask())))

    print(f"2**{args.log2} float32 elements, chunks of 2**{args.chunk_log2} "
          f"({n // chunk} chunks), threaded scheduler with 2 workers, best of {args.repeat}")
    print(f"{'workload':20s} {'numpy (s)':>10s} {'dask.array (s)':>15s} {'lazyarray+dask (s)':>19s} "
          f"{'la/dask':>8s} {'dask tasks':>11s} {'la tasks':>9s}")
    print("(tasks: as built / after Dask's graph optimization)")
    for name, tn, td, tl, nd, nl in rows:
        print(f"{name:20s} {tn:10.3f} {td:15.3f} {tl:19.3f} {tl / td:8.2f} {nd:>11s} {nl:>9s}")


if __name__ == "__main__":
    main()
