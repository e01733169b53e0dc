"""Loops as people write them, never evaluated inside the loop: total time including compiles.

Rows: momentum SGD (2 state arrays), Fibonacci `a, b = b, a + b`, an Adam-style 4-state update, a
10,000-step accumulator, k-means (reductions, a comprehension per step), and a loop whose batch
size changes every step (1..500). Peers in the same
process: NumPy eager, and JAX jit with the loop body jitted (if jax is installed). lazyarray starts
from empty plan caches (`la.clear_caches()`), so its column includes every plan build; kernels may
come from the on-disk kernel cache (`--cold` points it at a fresh directory first).

With background compiles (the C backend's default, docs/caching.md) a row's time ends when its
results are ready; kernels may still be compiling then. "then compiling" is how much longer they
took (waited for before the next row starts, so rows do not overlap), and "interpreted" counts
the evaluations the NumPy executor ran meanwhile. `--blocking` turns background compiles off.
"2nd call" runs the loop again from fresh starts (a training function called per epoch), with
the plans of the first call cached.

`--repeat N` (for a shared, loaded machine): the NumPy, lazyarray and 2nd-call times are the
minimum of N runs, each lazyarray run from empty plan caches again; the counts and "then
compiling" are the first run's (later runs find the kernels compiled). JAX runs once.

A last table calls two loops with every step count in 200..239 (issue 25, "cuts that amortize"):
the tail after the last cut has another length each call; plans built over the 40 calls, ms per
call for that first sweep and for a second one (plans cached), beside NumPy. 100,000 float32
elements, so that no operation is small enough to run at once.

Run: python benchmarks/bench_loops.py [--backend auto|numpy|c] [--cold] [--blocking] [--repeat N]
         [--only-sweep]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests"))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--backend", default="auto")
    parser.add_argument("--cold", action="store_true", help="fresh kernel cache directory")
    parser.add_argument("--blocking", action="store_true", help="background_compiles=False")
    parser.add_argument("--repeat", type=int, default=1, help="min of N runs per time")
    parser.add_argument("--only-sweep", action="store_true", help="only the 200..239-step table")
    args = parser.parse_args()
    if args.cold:
        os.environ["LAZYARRAY_CACHE_DIR"] = tempfile.mkdtemp(prefix="la_bench_loops_")
    import lazyarray as la
    from test_loops import accumulate, adam, fibonacci, momentum

    try:
        import jax
        import jax.numpy as jnp
    except ImportError:
        jax = None

    rows = [("momentum SGD, 8 f32, 200 steps", momentum, 2, 8, 200),
            ("Fibonacci a, b = b, a + b, 8 f32, 300 steps", fibonacci, 2, 8, 300),
            ("Adam-style 4-state, 8 f32, 1,000 steps", adam, 4, 8, 1000),
            ("acc = acc + v*0.5, 100 f32, 10,000 steps", accumulate, 2, 100, 10_000),
            ("k-means, 4 centres, 512 f32 points, 20 steps", kmeans, 2, 512, 20)]
    if args.only_sweep:
        with la.config(backend=args.backend, background_compiles=not args.blocking):
            _step_sweep(la, max(args.repeat, 1))
        return
    print(f"backend={args.backend}, background_compiles={not args.blocking}; totals include every "
          "plan build (lazyarray starts with empty plan caches)\n")
    print("| loop | NumPy eager | lazyarray | ratio | plans built | cuts | kernels compiled "
          "| then compiling | interpreted | 2nd call (plans built) | JAX jit (body) |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    with la.config(backend=args.backend, background_compiles=not args.blocking), \
            np.errstate(over="ignore"):
        for label, fn, k, size, steps in rows:
            start = [np.linspace(0.5, 1.0, size, dtype=np.float32) + i for i in range(k)]
            t_np = t_la = t_again = float("inf")
            for rep in range(max(args.repeat, 1)):
                t = time.perf_counter()
                want = fn(np, *start, steps)
                t_np = min(t_np, time.perf_counter() - t)
                la.clear_caches()
                t = time.perf_counter()
                got = [np.asarray(g)
                       for g in la.eval(*fn(la, *[la.array(x) for x in start], steps))]
                t_la = min(t_la, time.perf_counter() - t)
                if rep == 0:
                    info = la.cache_info()
                    t_wait = _finish_compiles(la)
                for g, w in zip(got, want):
                    np.testing.assert_allclose(g, w, rtol=1e-4)
                # the same function called again (an epoch): its cuts line up with the first's
                built = la.cache_info().plans_built
                t = time.perf_counter()
                la.eval(*fn(la, *[la.array(x) for x in start], steps))
                t_again = min(t_again, time.perf_counter() - t)
                if rep == 0:
                    built_again = la.cache_info().plans_built - built
            again = f"{t_again * 1e3:.1f} ms ({built_again})"
            t_jax = _jax_total(jax, fn, start, steps) if jax else None
            jax_cell = f"{t_jax * 1e3:.1f} ms" if t_jax is not None else "not installed"
            print(f"| {label} | {t_np * 1e3:.1f} ms | {t_la * 1e3:.1f} ms | {t_la / t_np:.0f}x | "
                  f"{info.plans_built} | {info.graph_cuts} | {info.kernels_compiled} | "
                  f"{t_wait * 1e3:.0f} ms | {info.interpreted_runs} | {again} | {jax_cell} |")
        _varying_batch(la, jax, max(args.repeat, 1))
        _step_sweep(la, max(args.repeat, 1))


def _step_sweep(la, repeat: int) -> None:
    """Every step count in 200..239, one call each: the tail after the last cut differs per call.
    Evaluated whole, each tail length was a plan; run in chunks of whole iterations
    (lazyarray/tails.py), every length shares a few."""
    from test_loops import accumulate, momentum

    print("\n| loop, 100,000 f32, steps 200..239 (40 calls) | NumPy eager | lazyarray 1st sweep "
          "| plans built | lazyarray 2nd sweep (plans built) | cuts per sweep |")
    print("|---|---|---|---|---|---|")
    for label, fn, k in (("acc = acc + v*0.5", accumulate, 2), ("momentum SGD", momentum, 2)):
        start = [np.linspace(0.5, 1.0, 100_000, dtype=np.float32) + i for i in range(k)]
        steps = range(200, 240)
        t_np = t_first = t_again = float("inf")
        for rep in range(repeat):
            t = time.perf_counter()
            for n in steps:
                want = fn(np, *start, n)
            t_np = min(t_np, time.perf_counter() - t)
            la.clear_caches()
            before = la.cache_info()
            t = time.perf_counter()
            for n in steps:
                got = la.eval(*fn(la, *[la.array(x) for x in start], n))
            t_first = min(t_first, time.perf_counter() - t)
            middle = la.cache_info()
            t = time.perf_counter()
            for n in steps:
                la.eval(*fn(la, *[la.array(x) for x in start], n))
            t_again = min(t_again, time.perf_counter() - t)
            after = la.cache_info()
            if rep == 0:
                built = middle.plans_built - before.plans_built
                built_again = after.plans_built - middle.plans_built
                cuts = middle.graph_cuts - before.graph_cuts
            for g, w in zip(got, want):
                np.testing.assert_allclose(np.asarray(g), w, rtol=1e-4)
        n = len(steps)
        print(f"| {label} | {t_np / n * 1e3:.2f} ms | {t_first / n * 1e3:.2f} ms | {built} | "
              f"{t_again / n * 1e3:.2f} ms ({built_again}) | {cuts} |", flush=True)


def kmeans(xp, points, centres, steps):
    """Lloyd's iterations in one dimension, as a NumPy user writes them: argmin over distances,
    then each centre the mean of its points (a comprehension of masked sums)."""
    c = centres[:4]
    for _ in range(steps):
        label = xp.argmin((points[:, None] - c[None, :]) ** 2, axis=1)
        c = xp.stack([xp.sum(points * (label == k)) / xp.maximum(xp.sum(label == k), 1)
                      for k in range(4)])
    return points, c


def _finish_compiles(la) -> float:
    """Seconds until the row's background compiles are done (not part of its time)."""
    t = time.perf_counter()
    la.wait_for_compiles(600)
    return time.perf_counter() - t


def _jax_total(jax, fn, start, steps):
    import jax.numpy as jnp

    body = jax.jit(lambda *s: fn(jnp, *s, 1))
    t = time.perf_counter()
    state = tuple(jnp.asarray(x) for x in start)
    for _ in range(steps):
        state = body(*state)
    jax.block_until_ready(state)
    return time.perf_counter() - t


def _varying_batch(la, jax, repeat: int) -> None:
    """Plans are size-generic (docs/caching.md): one plan for every batch size but 1 (a
    broadcast) and 16/8 (sizes tied to w's dims). JAX jit compiles once per new shape."""
    rng = np.random.default_rng(0)
    w = rng.random((16, 8), dtype=np.float32)
    batches = [rng.random((int(n), 16), dtype=np.float32) for n in rng.integers(1, 501, 200)]
    t_np = t_la = float("inf")
    for rep in range(repeat):
        t = time.perf_counter()
        want = [float(np.maximum(x @ w + 0.5, 0).sum()) for x in batches]
        t_np = min(t_np, time.perf_counter() - t)
        la.clear_caches()
        wl = la.array(w)
        t = time.perf_counter()
        got = [float(la.maximum(la.array(x) @ wl + 0.5, 0).sum()) for x in batches]
        t_la = min(t_la, time.perf_counter() - t)
        if rep == 0:
            info = la.cache_info()
            t_wait = _finish_compiles(la)
        np.testing.assert_allclose(got, want, rtol=1e-4)
    jax_cell = "not installed"
    if jax is not None:
        import jax.numpy as jnp

        body = jax.jit(lambda x, w: jnp.maximum(x @ w + 0.5, 0).sum())
        wj = jnp.asarray(w)
        t = time.perf_counter()
        for x in batches:
            float(body(x, wj))
        jax_cell = f"{(time.perf_counter() - t) * 1e3:.1f} ms"
    print(f"| varying batch 1..500, relu(x @ w + 0.5).sum(), 200 steps | {t_np * 1e3:.1f} ms | "
          f"{t_la * 1e3:.1f} ms | {t_la / t_np:.0f}x | {info.plans_built} | {info.graph_cuts} | "
          f"{info.kernels_compiled} | {t_wait * 1e3:.0f} ms | {info.interpreted_runs} | — | "
          f"{jax_cell} |")


if __name__ == "__main__":
    main()
