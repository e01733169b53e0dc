"""Every elementwise math function x dtype: the C backend against NumPy (and JAX jit if installed).

Run: python benchmarks/bench_math.py [--n-log2 21] [--repeat 7] [--only tanh,sin]

One process, one table (issue 29): each function on 2^21 elements of float32 and float64, inputs
spread over the function's domain, the three peers interleaved round by round; the time is the min
over the rounds (the machine is shared: the min is the least disturbed run), the ratios la/NumPy and
la/JAX are from the same run. The lazyarray column is the public API as a loop uses it: the input
Array made once; each call builds `la.<fn>(a)`, finds the cached plan, runs the kernel and hands
back a NumPy array. Then the 3-function chain `tanh(x) * sigmoid(x) + log1p(|x|)` on 2^22 float32.
The host's SIMD extensions (from /proc/cpuinfo) and NumPy's dispatch targets head the output.
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np

try:
    os.environ.setdefault("JAX_PLATFORMS", "cpu")
    import jax
    import jax.numpy as jnp

    jax.config.update("jax_enable_x64", True)  # float64 rows in float64
except ImportError:
    jax = None

# name, domain of the input (uniform in [lo, hi]; "wide" spreads log-uniform over +-[1e-3, 1e3])
UNARY = [
    ("exp", (-80.0, 80.0)), ("exp2", (-120.0, 120.0)), ("expm1", (-10.0, 10.0)),
    ("log", (1e-3, 1e3)), ("log2", (1e-3, 1e3)), ("log10", (1e-3, 1e3)), ("log1p", (-0.9, 1e3)),
    ("sin", (-100.0, 100.0)), ("cos", (-100.0, 100.0)), ("tan", (-100.0, 100.0)),
    ("arcsin", (-1.0, 1.0)), ("arccos", (-1.0, 1.0)), ("arctan", (-100.0, 100.0)),
    ("sinh", (-80.0, 80.0)), ("cosh", (-80.0, 80.0)), ("tanh", (-10.0, 10.0)),
    ("arcsinh", (-1e3, 1e3)), ("arccosh", (1.0, 1e3)), ("arctanh", (-0.999, 0.999)),
    ("cbrt", (-1e3, 1e3)), ("sqrt", (0.0, 1e3)), ("erf", (-5.0, 5.0)), ("erfc", (-5.0, 20.0)),
]
BINARY = [("arctan2", (-10.0, 10.0)), ("hypot", (-1e3, 1e3)), ("power", (0.0, 10.0)),
          ("logaddexp", (-50.0, 50.0))]


def simd_flags() -> str:
    try:
        with open("/proc/cpuinfo") as f:
            flags = next((ln.split(":", 1)[1].split() for ln in f if ln.startswith("flags")), [])
    except OSError:
        return "unknown"
    keep = sorted({f for f in flags if f.startswith(("avx", "sse4", "fma", "f16c"))})
    return " ".join(keep) or "none"


def numpy_targets() -> str:
    try:
        from numpy._core._multiarray_umath import __cpu_dispatch__ as dispatch
        from numpy._core._multiarray_umath import __cpu_baseline__ as baseline
    except ImportError:
        return "unknown"
    return f"baseline {' '.join(baseline)}; dispatch {' '.join(dispatch)}"


def _numpy_fn(name):
    if hasattr(np, name):
        return getattr(np, name)
    try:
        import scipy.special as sp
    except ImportError:
        return None
    return getattr(sp, name, None)


def _jax_fn(name):
    if jax is None:
        return None
    if hasattr(jnp, name):
        return getattr(jnp, name)
    return getattr(jax.scipy.special, name, None)


def timed_min(fns: dict, rounds: int) -> dict:
    """Min seconds per peer over `rounds`, peers interleaved round by round (first call warms).
    The warm-up waits for lazyarray's background compiles: an op whose C kernel gives NumPy's bits
    (sqrt) runs through the tiered NumPy executor plus a copy until its kernel arrives
    (runtime/c/tiered.py), which a few fast rounds may never see on a loaded machine; a loop's
    steady state is the compiled kernel."""
    best = {}
    for k, f in fns.items():
        f()
        best[k] = float("inf")
    if "la" in fns:
        import lazyarray as la

        la.wait_for_compiles()
    for _ in range(rounds):
        for k, f in fns.items():
            t = time.perf_counter()
            f()
            best[k] = min(best[k], time.perf_counter() - t)
    return best


def row_fns(name, arity, lo, hi, dtype, n, rng):
    import lazyarray as la

    xs = [rng.uniform(lo, hi, n).astype(dtype) for _ in range(arity)]
    if name == "power":
        xs[1] = rng.uniform(-4, 4, n).astype(dtype)
    fns = {}
    la_fn = getattr(la, name, None)
    if la_fn is not None:
        arrays = [la.array(x) for x in xs]
        fns["la"] = lambda: np.asarray(la_fn(*arrays))
    np_fn = _numpy_fn(name)
    if np_fn is not None:
        fns["np"] = lambda: np_fn(*xs)
    jx_fn = _jax_fn(name)
    if jx_fn is not None:
        compiled = jax.jit(jx_fn)
        dev = [jax.device_put(x) for x in xs]
        fns["jax"] = lambda: jax.block_until_ready(compiled(*dev))
    return fns


def chain_fns(n, rng):
    import lazyarray as la

    x = rng.standard_normal(n).astype(np.float32) * np.float32(3)
    a = la.array(x)
    fns = {"la": lambda: np.asarray(la.tanh(a) * la.nn.sigmoid(a) + la.log1p(la.abs(a))),
           "np": lambda: np.tanh(x) * (1 / (1 + np.exp(-x))) + np.log1p(np.abs(x))}
    if jax is not None:
        f = jax.jit(lambda v: jnp.tanh(v) * jax.nn.sigmoid(v) + jnp.log1p(jnp.abs(v)))
        dx = jax.device_put(x)
        fns["jax"] = lambda: jax.block_until_ready(f(dx))
    return fns


def _ms(v):
    return f"{v * 1e3:.2f}" if v is not None else "-"


def _ratio(a, b):
    return f"{a / b:.2f}" if a is not None and b is not None else "-"


def main() -> None:
    import lazyarray as la

    p = argparse.ArgumentParser()
    p.add_argument("--n-log2", type=int, default=21)
    p.add_argument("--repeat", type=int, default=7)
    p.add_argument("--only", default="", help="comma-separated function names")
    args = p.parse_args()
    only = set(filter(None, args.only.split(",")))
    n = 2 ** args.n_log2
    rng = np.random.default_rng(0)
    print(f"host SIMD: {simd_flags()}")
    print(f"NumPy {np.__version__}: {numpy_targets()}")
    print(f"JAX: {jax.__version__ if jax else 'not installed'}; load average "
          f"{' '.join(f'{v:.1f}' for v in os.getloadavg())}")
    print(f"\n2^{args.n_log2} elements, min of {args.repeat} (ms)\n")
    print("| function | dtype | numpy | lazyarray | jax jit | la/np | la/jax |")
    print("|---|---|---|---|---|---|---|")
    with la.config(backend="c"):
        for rows, arity in ((UNARY, 1), (BINARY, 2)):
            for name, (lo, hi) in rows:
                if only and name not in only:
                    continue
                for dtype in (np.float32, np.float64):
                    t = timed_min(row_fns(name, arity, lo, hi, dtype, n, rng), args.repeat)
                    la_t, np_t, jx_t = t.get("la"), t.get("np"), t.get("jax")
                    print(f"| {name} | {np.dtype(dtype).name} | {_ms(np_t)} | {_ms(la_t)} | "
                          f"{_ms(jx_t)} | {_ratio(la_t, np_t)} | {_ratio(la_t, jx_t)} |",
                          flush=True)
        if not only or "chain" in only:
            t = timed_min(chain_fns(2 ** 22, rng), args.repeat)
            print(f"| tanh(x)*sigmoid(x)+log1p(abs(x)) 2^22 | float32 | {_ms(t.get('np'))} | "
                  f"{_ms(t.get('la'))} | {_ms(t.get('jax'))} | {_ratio(t.get('la'), t.get('np'))}"
                  f" | {_ratio(t.get('la'), t.get('jax'))} |")
    print(f"\nload average after: {' '.join(f'{v:.1f}' for v in os.getloadavg())}")


if __name__ == "__main__":
    main()
