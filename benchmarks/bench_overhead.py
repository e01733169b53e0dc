"""Host overhead per call, where the plan cache matters most: tiny arrays, so the work is all Python.

1. A 10-op elementwise expression on 16-element float32 arrays, per call:
   lazyarray implicit (trace + signature + lookup + run), la.jit, NumPy eager, JAX jit (if installed).
2. 100 iterations of `relu(X @ w + b)` with a fresh X each time (the issue's loop), end to end.
3. Evaluations a loop forces inside (issue 25: `float(x)`, `if err < tol`, `A[j, j]` read as a
   Python number), 16 float64 elements: per iteration, and the forced evaluation alone (timed
   around the conversion), with how many of them graph/_node.c's hit path served.

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


def _forced_loops():
    """(name, loop) pairs: `loop(xp, data, steps, clock)` runs `steps` iterations that each
    force one evaluation, timing the conversion alone with `clock` (adds seconds to clock[0])."""
    def state_float(xp, a, steps, clock):  # the loop's own 0-d state read as a float
        t = xp.sum(a) * 0.0
        for _ in range(steps):
            t = t * 0.5 + 1.0
            start = TIMER()
            float(t)
            clock[0] += TIMER() - start
        return t

    def loss_float(xp, a, steps, clock):  # float(loss) of a held, updated state (a sibling)
        w = a
        for _ in range(steps):
            w = w * 0.99 + a * 0.01
            loss = xp.sum(w * w)
            start = TIMER()
            float(loss)
            clock[0] += TIMER() - start
        return w

    def newton(xp, a, steps, clock):  # `if err < tol` in a fixed-point iteration
        x = a
        for _ in range(steps):
            x_new = 0.5 * (x + a / x)
            err = xp.max(xp.abs(x_new - x))
            start = TIMER()
            stop = bool(err < -1.0)  # what `if err < tol:` does; never true: every step runs
            clock[0] += TIMER() - start
            if stop:
                break
            x = x_new
        return x

    def element_read(xp, a, steps, clock):  # A[j, j] read as a Python number (a computed A)
        m = xp.reshape(a, (4, 4))
        total = 0.0
        for i in range(steps):
            j = i % 4
            start = TIMER()
            total += float(m[j, j])
            clock[0] += TIMER() - start
        return total

    return [("float(t), t = t * 0.5 + 1.0 (0-d state)", state_float),
            ("float(sum(w * w)), w updated (held)", loss_float),
            ("if max(abs(x_new - x)) < tol (Newton)", newton),
            ("float(A[j, j]), A computed (4x4)", element_read)]


def bench_forced(repeat: int, steps: int = 200) -> list[tuple[str, float, float, float, float,
                                                              float]]:
    """Per loop: lazyarray us/iteration, us per forced evaluation, NumPy us/iteration and us per
    conversion, and the share of evaluations graph/_node.c's hit path served."""
    from lazyarray import cache

    an = np.linspace(1.0, 2.0, 16)
    rows = []
    for name, loop in _forced_loops():
        def run(xp, data):
            clock = [0.0]
            start = TIMER()
            loop(xp, data, steps, clock)
            return TIMER() - start, clock[0]

        run(la, la.array(an))
        la.wait_for_compiles()
        best_la = best_np = (float("inf"), float("inf"))
        fast = cache.plan_cache.fast_hits[0]
        before = la.cache_info()
        for _ in range(repeat):
            best_la = min(best_la, run(la, la.array(an)))
            best_np = min(best_np, run(np, an))
        after = la.cache_info()
        evaluations = (after.plan_hits + after.plans_built - before.plan_hits
                       - before.plans_built)
        served = (cache.plan_cache.fast_hits[0] - fast) / max(evaluations, 1)
        rows.append((name, best_la[0] / steps, best_la[1] / steps, best_np[0] / steps,
                     best_np[1] / steps, served))
    return rows


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
        print("Evaluations forced inside a loop, 16 float64 elements, 200 iterations "
              "(us; min of --repeat)")
        print(f"  {'':42}{'la/iter':>9}{'la eval':>9}{'np/iter':>9}{'np conv':>9}{'hit path':>10}")
        for name, la_it, la_ev, np_it, np_ev, served in bench_forced(args.repeat):
            print(f"  {name:42}{la_it * 1e6:9.2f}{la_ev * 1e6:9.2f}{np_it * 1e6:9.2f}"
                  f"{np_ev * 1e6:9.2f}{served:9.0%}")
        print(la.cache_info())


if __name__ == "__main__":
    main()
