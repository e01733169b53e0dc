"""The program corpus (tests/programs/) at its benchmark sizes: NumPy vs lazyarray cold vs warm
(and JAX jit where jax.numpy runs the program as written), issue 25's speed table.

Each program runs in a subprocess of its own (a hung or very slow program costs only its
`--timeout`), with LAZYARRAY_CACHE_DIR pointing at a fresh, empty kernel cache directory:

- NumPy: min of `--repeat` calls, each on fresh copies of the inputs (copies not timed).
- cold: the first lazyarray call in that process, from empty plan caches and an empty kernel cache
  (with background compiles, the C backend's default, it ends when the results are ready; kernels
  may still be compiling: "then compiling" is how long they took after, waited for before warm).
- warm: min of `--repeat` later calls (one where the cold call took over SLOW_S), plans and
  kernels ready. A call = `la.array` copies of the
  arguments (not timed) and the program, its results and every argument evaluated.
- plans: plans built in the cold call / in the last warm call (la.cache_info()); kernels compiled.
- JAX jit (when jax is installed): the program jitted with its array arguments traced, only for
  programs that leave their arguments unchanged in NumPy (jax arrays are immutable) and that
  jax.numpy runs as written; its values are checked against NumPy (x64 enabled).

Every lazyarray result is checked against NumPy's (values and arguments afterwards); a mismatch
prints "WRONG" in the row. Programs waiting for unmerged branches (NEEDS) are skipped.
These machines set OPENBLAS_CORETYPE/OPENBLAS_L2_SIZE, which slow NumPy's OpenBLAS down: they are
unset in the workers' environment (GUIDE "Measured at the second landing").

Run: python benchmarks/bench_programs.py [--only a,b] [--backend c] [--repeat 3] [--timeout 120]
"""

from __future__ import annotations

import argparse
import copy
import json
import math
import os
import subprocess
import sys
import tempfile
import time
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
SLOW_S = 5.0  # a cold call slower than this gets one warm call, not `--repeat` (the sweep's time)
sys.path.insert(0, os.path.join(HERE, "..", "tests"))


def _time_numpy(module, inputs: tuple, repeat: int) -> tuple[float, Any, list]:
    import numpy as np

    best, want, after = math.inf, None, []
    for _ in range(repeat):
        args = copy.deepcopy(inputs)
        start = time.perf_counter()
        with np.errstate(all="ignore"):
            want = module.kernel(np, *args)
        best = min(best, time.perf_counter() - start)
        after = list(args)
    return best, want, after


def _lazy_call(la, module, inputs: tuple) -> tuple[float, Any, list]:
    from test_programs import to_lazy, to_numpy

    args = [to_lazy(a) for a in inputs]
    start = time.perf_counter()
    result = module.kernel(la, *args)
    evaluate_call(la, result, args)
    seconds = time.perf_counter() - start
    return seconds, to_numpy(result), to_numpy(args)


def evaluate_call(la, result: Any, args: list) -> None:
    """What a caller of the program would read: the pending Arrays among its results and its
    arguments, evaluated together (elements of returned lists are Python objects already; NumPy's
    side has no conversion to time either)."""
    pending = [v for v in (list(result) if isinstance(result, (tuple, list)) else [result]) + args
               if isinstance(v, la.Array)]
    if pending:
        la.block_until_ready(la.eval(*pending))


def _matches(module, got, want, after, want_after) -> bool:
    from test_programs import assert_same

    try:
        assert_same(got, want, "result", module)
        for a, w in zip(after, want_after):
            assert_same(a, w, "argument", module)
    except AssertionError:
        return False
    return True


def _time_jax(module, inputs: tuple, want, repeat: int) -> str:
    """JAX jit's warm time in ms, or why there is none."""
    try:
        import jax
    except ImportError:
        return "no jax"
    import numpy as np

    jax.config.update("jax_enable_x64", True)
    import jax.numpy as jnp

    arrays = [k for k, a in enumerate(inputs) if isinstance(a, np.ndarray)]

    def call(*traced):
        args = list(inputs)
        for k, a in zip(arrays, traced):
            args[k] = a
        return module.kernel(jnp, *args)

    try:
        fn = jax.jit(call)
        dev = [jnp.asarray(inputs[k]) for k in arrays]
        got = jax.block_until_ready(fn(*dev))
        if not _matches(module, jax.tree_util.tree_map(np.asarray, got), want, [], []):
            return "wrong values"
        best = math.inf
        for _ in range(repeat):
            start = time.perf_counter()
            jax.block_until_ready(fn(*dev))
            best = min(best, time.perf_counter() - start)
        return f"{best * 1e3:.2f}"
    except Exception as exc:  # jax.numpy does not run it as written: say why, briefly
        return f"n/a ({type(exc).__name__})"


def worker(name: str, backend: str, repeat: int) -> dict[str, Any]:
    """One program, in this (fresh) process: the row's figures."""
    import numpy as np
    import programs

    module = programs.load(name)
    inputs = programs.make_inputs(name, "bench")
    t_np, want, want_after = _time_numpy(module, inputs, repeat)
    import lazyarray as la

    row: dict[str, Any] = {"numpy_s": t_np}
    with la.config(backend=backend), np.errstate(all="ignore"):
        la.clear_caches()
        info0 = la.cache_info()
        t_cold, got, after = _lazy_call(la, module, inputs)
        info1 = la.cache_info()
        start = time.perf_counter()
        la.wait_for_compiles()
        row.update(cold_s=t_cold, compiling_s=time.perf_counter() - start,
                   plans_cold=info1.plans_built - info0.plans_built,
                   ok=_matches(module, got, want, after, want_after))
        t_warm = math.inf
        for _ in range(repeat if t_cold < SLOW_S else 1):
            info0 = la.cache_info()
            t, got, after = _lazy_call(la, module, inputs)
            info1 = la.cache_info()
            t_warm = min(t_warm, t)
            row["ok"] = row["ok"] and _matches(module, got, want, after, want_after)
        row.update(warm_s=t_warm, plans_warm=info1.plans_built - info0.plans_built,
                   kernels=la.cache_info().kernels_compiled)
    mutates = any(isinstance(a, np.ndarray) and not np.array_equal(a, b, equal_nan=True)
                  for a, b in zip(want_after, inputs))
    if mutates:
        row["jax"] = "mutates args"
        return row
    row["jax"] = "over the timeout"  # this row stands if JAX's trace does not end in time
    print(json.dumps(row), flush=True)  # (go_fast's 3000-step Python loop, unrolled by jit)
    row["jax"] = _time_jax(module, inputs, want, repeat)
    return row


def _run_worker(name: str, args: argparse.Namespace) -> dict[str, Any] | str:
    env = dict(os.environ, LAZYARRAY_CACHE_DIR=tempfile.mkdtemp(prefix="la_bench_programs_"))
    for var in ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE"):
        env.pop(var, None)
    cmd = [sys.executable, os.path.abspath(__file__), "--worker", name, "--backend", args.backend,
           "--repeat", str(args.repeat)]
    try:
        done = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=args.timeout)
    except subprocess.TimeoutExpired as exc:  # lazyarray's row may be out already (JAX's is not)
        out = exc.stdout.decode() if isinstance(exc.stdout, bytes) else (exc.stdout or "")
        rows = [line for line in out.strip().splitlines() if line.startswith("{")]
        return json.loads(rows[-1]) if rows else f"over {args.timeout} s"
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["?"])[-1]
        return f"error: {last[:120]}"
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--only", default="", help="comma-separated program names")
    parser.add_argument("--backend", default="c")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds per program")
    parser.add_argument("--worker", default="", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        print(json.dumps(worker(args.worker, args.backend, args.repeat)))
        return
    import programs

    names = [n for n in programs.NAMES if not args.only or n in args.only.split(",")]
    print(f"backend={args.backend}, min of {args.repeat}; times in ms; ratios are lazyarray / "
          f"NumPy (< 1: faster); load {os.getloadavg()[0]:.1f}\n")
    print("| program | NumPy | lazyarray cold | then compiling | lazyarray warm | cold/NumPy "
          "| warm/NumPy | plans cold / warm | kernels | JAX jit |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    warm_ratios, cold_ratios, missing = [], [], []
    for name in names:
        waits = programs.needs(name)
        if waits:
            print(f"| {name} | skipped: needs {', '.join(waits)} |" + " |" * 8, flush=True)
            continue
        row = _run_worker(name, args)
        if isinstance(row, str):
            missing.append(name)
            print(f"| {name} | {row} |" + " |" * 8, flush=True)
            continue
        cold, warm = row["cold_s"] / row["numpy_s"], row["warm_s"] / row["numpy_s"]
        cold_ratios.append(cold)
        warm_ratios.append(warm)
        flag = "" if row["ok"] else " WRONG"
        print(f"| {name}{flag} | {row['numpy_s'] * 1e3:.2f} | {row['cold_s'] * 1e3:.1f} "
              f"| {row['compiling_s'] * 1e3:.0f} | {row['warm_s'] * 1e3:.2f} | {cold:.2f} "
              f"| {warm:.2f} | {row['plans_cold']} / {row['plans_warm']} | {row['kernels']} "
              f"| {row['jax']} |", flush=True)
    if warm_ratios:
        gm = lambda xs: math.exp(sum(map(math.log, xs)) / len(xs))  # noqa: E731
        print(f"\ngeometric mean over {len(warm_ratios)} programs: "
              f"warm/NumPy {gm(warm_ratios):.2f}, "
              f"cold/NumPy {gm(cold_ratios):.2f}; programs above 3x NumPy warm: "
              f"{sum(r > 3 for r in warm_ratios)}; load {os.getloadavg()[0]:.1f}")
    if missing:  # over the timeout (or failed): the means above would only grow with them
        print(f"not in the means: {', '.join(missing)}")


if __name__ == "__main__":
    main()
