"""Host overhead per call, where the plan cache matters most: tiny arrays, so the work is all Python.

1. A 10-op elementwise expression on 16-element float32 arrays, per call:
   lazyarray implicit (trace + signature + lookup + run), la.jit, NumPy eager, JAX jit (if installed).
2. 100 iterations of `relu(X @ w + b)` with a fresh X each time (the issue's loop), end to end.

Run: python benchmarks/bench_overhead.py [--backend auto|numpy|c] [--repeat 7] [--timer wall|cpu]
Prints a table with each time and its ratio to NumPy; the figures are medians of `--repeat` runs.
`--timer cpu` times the process's CPU (time.process_time, every thread of it) instead of the wall
clock: on a shared, busy machine the wall clock also counts the time other processes ran.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

import lazyarray as la


def expr(np_like, a, b, s):
    """10 elementwise ops; `s` is a Python float (a run-time argument for lazyarray)."""
    x = a * s + b
    x = np_like.tanh(x) * b - a
    x = np_like.exp(x) / (b + 2.0)
    return np_like.maximum(x, a) - 0.5


TIMER = time.perf_counter


def per_call(fn, calls: int, repeat: int) -> float:
    """Median seconds per call over `repeat` timed batches of `calls` calls (after a warm-up;
    kernels compiling in the background are waited for: this measures the steady state)."""
    fn()
    wait = getattr(la, "wait_for_compiles", None)
    if wait is not None:
        wait()
        fn()
    times = []
    for _ in range(repeat):
        start = TIMER()
        for _ in range(calls):
            fn()
        times.append((TIMER() - start) / calls)
    return statistics.median(times)


def bench_expression(repeat: int) -> dict[str, float]:
    rng = np.random.default_rng(0)
    an, bn = (rng.random(16, dtype=np.float32) for _ in range(2))
    a, b = la.array(an), la.array(bn)
    results = {"numpy eager": per_call(lambda: expr(np, an, bn, 0.3), 20000, repeat)}
    results["lazyarray implicit"] = per_call(lambda: np.asarray(expr(la, a, b, 0.3)), 5000, repeat)
    jitted = la.jit(lambda a, b, s: expr(la, a, b, s))
    results["lazyarray la.jit"] = per_call(lambda: np.asarray(jitted(a, b, 0.3)), 20000, repeat)
    jax_fn = _jax_jit(expr)
    if jax_fn is not None:
        import jax.numpy as jnp

        aj, bj = jnp.asarray(an), jnp.asarray(bn)
        results["jax jit"] = per_call(lambda: jax_fn(aj, bj, 0.3).block_until_ready(), 20000,
                                      repeat)
    want = expr(np, an, bn, 0.3)
    np.testing.assert_allclose(np.asarray(expr(la, a, b, 0.3)), want, rtol=1e-5)
    np.testing.assert_allclose(np.asarray(jitted(a, b, 0.3)), want, rtol=1e-5)
    return results


def _jax_jit(fn):
    try:
        import jax
        import jax.numpy as jnp
    except ImportError:
        return None
    return jax.jit(lambda a, b, s: fn(jnp, a, b, s))


def bench_mlp_loop(repeat: int) -> dict[str, float]:
    rng = np.random.default_rng(1)
    wn = rng.standard_normal((64, 32)).astype(np.float32)
    bn = rng.standard_normal(32).astype(np.float32)
    batches = [rng.standard_normal((16, 64)).astype(np.float32) for _ in range(100)]
    w, b = la.array(wn), la.array(bn)

    def lazy():
        return [float(la.nn.relu(la.array(X) @ w + b).sum()) for X in batches]

    def numpy():
        return [float(np.maximum(X @ wn + bn, 0).sum()) for X in batches]

    results = {"numpy eager": per_call(numpy, 3, repeat), "lazyarray implicit": per_call(lazy, 3,
                                                                                          repeat)}
    try:
        import jax
        import jax.numpy as jnp

        step = jax.jit(lambda X, w, b: jnp.maximum(X @ w + b, 0).sum())
        wj, bj = jnp.asarray(wn), jnp.asarray(bn)
        results["jax jit"] = per_call(lambda: [float(step(X, wj, bj)) for X in batches], 3, repeat)
    except ImportError:
        pass
    np.testing.assert_allclose(lazy(), numpy(), rtol=1e-4)
    return results


def table(title: str, results: dict[str, float], unit: float, unit_name: str) -> str:
    base = results["numpy eager"]
    lines = [title, f"  {'':22}{unit_name:>12}{'vs numpy':>12}"]
    for name, t in results.items():
        lines.append(f"  {name:22}{t / unit:12.2f}{t / base:11.2f}x")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", default="auto")
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--timer", choices=("wall", "cpu"), default="wall")
    args = parser.parse_args()
    global TIMER
    TIMER = time.process_time if args.timer == "cpu" else time.perf_counter
    with la.config(backend=args.backend):
        from lazyarray.evaluation import options

        print(f"backend: {options().backend}, timer: {args.timer}")
        la.clear_caches()
        print(table("10-op elementwise expression, 16 float32 elements, per call",
                    bench_expression(args.repeat), 1e-6, "us/call"))
        print(table("100 iterations of relu(X @ w + b), X 16x64, w 64x32, end to end",
                    bench_mlp_loop(args.repeat), 1e-3, "ms/loop"))
        print(la.cache_info())


if __name__ == "__main__":
    main()
