"""Compile time of one evaluation of many same-shape results (`la.eval(*outs)`, N of them).

Run: python benchmarks/bench_many_outputs.py [--cases logaddexp,at128,expsin,arith]
         [--sizes 10,30,100] [--caps 8,16,1000] [--timeout S]

Each (case, N) runs in a child process with a fresh kernel cache directory, the C backend and
background compiles off (the first call waits for its compile, as a test does), after a warm-up
compile that probes the toolchain. Printed per run: kernels in the plan, the most outputs one
kernel stores, the largest kernel's C source (bytes), translation units and kernels compiled,
the compiler's CPU time (`getrusage(RUSAGE_CHILDREN)`: cc1, as, ld), the first call's wall
time, and the wall time until every kernel it queued is compiled (`--background`: background
compiles on, as users run; the first call then runs on NumPy or -O0 stand-ins). `--caps`: each
run once per value of passes/fuse.py's MAX_BUFFERS_PER_KERNEL (1000: no cap). A run past `--timeout` seconds is killed (its process group: the child and its compiler).

Cases (what made stop 51's test units take minutes, passes/fuse.py MAX_BUFFERS_PER_KERNEL):
- logaddexp: `la.logaddexp(a, b)` over the dtype pairs NumPy accepts (tests/test_dask.py's
  sweep), 2053 elements against one; N results cycle through the pairs.
- at128: complex128 `.at[index].add/multiply/set(value)` updates of a 3-vector
  (tests/test_at_values.py's sweep).
- expsin: `la.sin(la.exp(x_k) * 0.5 + 0.25)` over N distinct float32 inputs of 4,096 values.
- arith: `(x_k * 3 + y_k) / 7`, x_k of six dtypes, y_k float64, 4,096 values: cheap ops only.
- shared: `(x * (k + 3) + y) / 7`: arith's ops, every result reading the same two inputs.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import signal
import subprocess
import sys
import tempfile
import time

import numpy as np


def _logaddexp(n: int):
    import lazyarray as la
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests"))
    from numpy_oracle import accepted_dtypes, draw

    pairs = accepted_dtypes(np.logaddexp, half=False)
    outs = []
    for k in range(n):
        dts = pairs[k % len(pairs)]
        rng = np.random.default_rng(k)
        args = [la.array(draw(rng, dt, shape, "any", j))
                for j, (dt, shape) in enumerate(zip(dts, [(2053,), (1,)]))]
        outs.append(la.logaddexp(*args))
    return outs


def _at128(n: int):
    """tests/test_at_values.py's complex128 updates (set/add/multiply of 10 value kinds at 3
    index kinds), cycled to n results (each over its own 3-vector)."""
    import lazyarray as la

    values = (True, 2, 2.5, np.array(True), np.array(4, np.int8), np.array(2, np.uint8),
              np.array(2, np.int64), np.array(2.5, np.float32), np.array(0.5, np.float64),
              np.array(1 + 1j, np.complex64))
    indices = (1, [0, 0, 2], np.array([True, False, True]))
    combos = [(m, v, i) for m in ("set", "add", "multiply") for v in values for i in indices]
    outs = []
    for k in range(n):
        mode, value, index = combos[k % len(combos)]
        x = np.array([3, 1, 2], np.complex128) + k
        arg = la.asarray(value) if isinstance(value, np.ndarray) else value
        outs.append(getattr(la.asarray(x).at[index], mode)(arg))
    return outs


def _expsin(n: int):
    import lazyarray as la

    rng = np.random.default_rng(0)
    return [la.sin(la.exp(la.array(rng.random(4096, np.float32))) * 0.5 + 0.25)
            for _ in range(n)]


def _arith(n: int):
    import lazyarray as la

    rng = np.random.default_rng(0)
    dts = (np.float32, np.float64, np.int32, np.int64, np.uint8, np.int16)
    return [(la.array(rng.random(4096).astype(dts[k % 6])) * 3 + la.array(rng.random(4096)))
            / 7 for k in range(n)]


def _shared(n: int):
    """As arith, but every result reads the same two inputs (k a distinct Python scalar): the
    stores grow with n, the loads do not."""
    import lazyarray as la

    rng = np.random.default_rng(0)
    x, y = la.array(rng.random(4096)), la.array(rng.random(4096).astype(np.float32))
    return [(x * (k + 3) + y) / 7 for k in range(n)]


CASES = {"logaddexp": _logaddexp, "at128": _at128, "expsin": _expsin, "arith": _arith,
         "shared": _shared}


def _child(case: str, n: int, cap: int | None, background: bool) -> dict:
    import lazyarray as la
    from lazyarray.passes import fuse
    from lazyarray.runtime import compile_stats
    from lazyarray.runtime.c import background as c_background

    if cap is not None:
        fuse.MAX_BUFFERS_PER_KERNEL = cap

    la.config(backend="c", background_compiles=background).__enter__()
    la.eval(la.array(np.ones(3)) + 1)  # probes the toolchain, loads the team library
    c_background.wait_for_compiles()
    outs = CASES[case](n)
    report = la.explain(*outs)
    kernel_dir = None
    from lazyarray.runtime.c import compiler as c_compiler
    kernel_dir = c_compiler.kernel_dir()
    before_files = set(os.listdir(kernel_dir))
    before = compile_stats.stats.snapshot()
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    la.eval(*outs)
    wall = time.perf_counter() - t0
    c_background.wait_for_compiles()  # background: the -O3 build the next call will run
    done = time.perf_counter() - t0
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    after = compile_stats.stats.snapshot()
    units = [f for f in set(os.listdir(kernel_dir)) - before_files
             if f.startswith("lib-") and f.endswith(".c")]
    return {
        "case": case, "n": n, "cap": fuse.MAX_BUFFERS_PER_KERNEL, "kernels": report.num_kernels,
        "max_outputs": max(len(k.outputs) for k in report.kernels),
        "max_kernel_bytes": max(len(k.source or "") for k in report.kernels),
        "units": after.get("translation_units", 0) - before.get("translation_units", 0),
        "compiled": after.get("kernels_compiled", 0) - before.get("kernels_compiled", 0),
        "unit_bytes": sorted((os.path.getsize(os.path.join(kernel_dir, u)) for u in units),
                             reverse=True),
        "compiler_cpu_s": round(r1.ru_utime + r1.ru_stime - r0.ru_utime - r0.ru_stime, 2),
        "compiler_peak_mb": round(r1.ru_maxrss / 1024),
        "wall_s": round(wall, 2), "compiled_by_s": round(done, 2),
    }


def _run(case: str, n: int, timeout: float, cap: int | None, background: bool) -> dict:
    env = dict(os.environ, LAZYARRAY_CACHE_DIR=tempfile.mkdtemp(prefix="la-many-"))
    extra = ["--cap", str(cap)] if cap is not None else []
    extra += ["--background"] if background else []
    proc = subprocess.Popen([sys.executable, __file__, "--child", case, str(n), *extra], env=env,
                            stdout=subprocess.PIPE, text=True, start_new_session=True)
    try:
        out, _ = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)  # the child and the compiler it started
        proc.communicate()
        return {"case": case, "n": n, "cap": cap, "timed_out_s": timeout}
    return json.loads(out.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--cases", default=",".join(CASES))
    parser.add_argument("--sizes", default="10,30,100")
    parser.add_argument("--timeout", type=float, default=300.0)
    parser.add_argument("--caps", default="",
                        help="MAX_BUFFERS_PER_KERNEL values to run each case with (default: as is)")
    parser.add_argument("--cap", type=int)
    parser.add_argument("--background", action="store_true",
                        help="background compiles on (the default for users; off in tests)")
    parser.add_argument("--child", nargs=2)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(_child(args.child[0], int(args.child[1]), args.cap, args.background)))
        return
    caps = [int(c) for c in args.caps.split(",")] if args.caps else [None]
    for case in args.cases.split(","):
        for n in map(int, args.sizes.split(",")):
            for cap in caps:
                print(json.dumps(_run(case, n, args.timeout, cap, args.background)), flush=True)


if __name__ == "__main__":
    main()
