"""GPU benchmarks (issue 6): lazyarray's cupy backend against CuPy eager and JAX jit on one GPU.

    python benchmarks/bench_gpu.py [--repeat 20] [--markdown out.md]

Each workload is timed on the host clock from a synchronized device to a synchronized device (every
stream: lazyarray runs on its own) around `repeat` back-to-back calls after two warm-up calls
(compiles and plan builds excluded), median of 5 such batches, in microseconds per call. The
device-to-device copy of the workload's input and output bytes is the bandwidth ceiling: "copy×" is a
workload's time over that copy's. Targets: LSTM nonlinearity ≥ 2.3× CuPy eager and one kernel; fused
elementwise within 1.25× of the copy; nothing slower than JAX jit by more than 10%.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable

import numpy as np


def _workloads(cp, rng):
    """name -> (inputs as float32 host arrays, function of an array namespace `m` and inputs)."""
    f32 = np.float32

    def r(*shape):
        return rng.standard_normal(shape).astype(f32)

    def sigmoid(m, x):
        return 1 / (1 + m.exp(-x))

    def gelu(m, x):
        return 0.5 * x * (1 + m.tanh(0.7978845608 * (x + 0.044715 * x * x * x)))

    def lstm_nonlin(m, gates, c):
        h = gates.shape[1] // 4
        i, f = sigmoid(m, gates[:, :h]), sigmoid(m, gates[:, h:2 * h])
        g, o = m.tanh(gates[:, 2 * h:3 * h]), sigmoid(m, gates[:, 3 * h:])
        c2 = f * c + i * g
        return o * m.tanh(c2), c2

    def lstm_cell(m, x, hprev, c, w, u, b):
        return lstm_nonlin(m, x @ w + hprev @ u + b, c)

    def softmax(m, x):
        e = m.exp(x - m.max(x, axis=-1, keepdims=True))
        return e / m.sum(e, axis=-1, keepdims=True)

    def mse(m, a, b):
        return m.mean((a - b) ** 2)

    def dense(m, x, w, b):
        return m.maximum(x @ w + b, 0)

    def small(m, x, y):
        return m.tanh(x * y + 1) * m.exp(-x) - m.sqrt(m.abs(y)) / (1 + x * x) + m.maximum(x, y)

    n = 1 << 26
    out = {"sigmoid 2^26": ((r(n),), sigmoid), "gelu 2^26": ((r(n),), gelu)}
    for batch in (256, 512, 1024):
        H = 1024
        out[f"lstm nonlin B={batch}"] = ((r(batch, 4 * H), r(batch, H)), lstm_nonlin)
        out[f"lstm cell B={batch}"] = ((r(batch, H), r(batch, H), r(batch, H), r(H, 4 * H) * .03,
                                        r(H, 4 * H) * .03, r(4 * H)), lstm_cell)
    out["softmax 8192x4096"] = ((r(8192, 4096),), softmax)
    out["mse 2^26"] = ((r(n), r(n)), mse)
    out["relu(x@w+b) 4096"] = ((r(4096, 4096), r(4096, 4096) * .02, r(4096)), dense)
    out["10-op small 1000"] = ((r(1000), r(1000)), small)
    return out


def _time(cp, fn: Callable[[], object], repeat: int) -> float:
    """Median µs per call over 5 runs of `repeat` calls, from a synchronized device to a
    synchronized device, on the host's clock. (CUDA events recorded on the current stream missed
    lazyarray's work, which runs on its backend's own stream: the first GPU run timed only the
    enqueueing, 65 µs for a 2^26 sigmoid that must move 512 MiB.)"""
    fn(), fn()
    device = cp.cuda.Device()
    device.synchronize()
    times = []
    for _ in range(5):
        start = time.perf_counter()
        for _ in range(repeat):
            fn()
        device.synchronize()  # every stream: lazyarray's, CuPy's null stream, JAX's
        times.append((time.perf_counter() - start) * 1e6 / repeat)
    return statistics.median(times)


def _runners(cp, fn, host_inputs):
    import lazyarray as la

    dev = [cp.asarray(x) for x in host_inputs]
    la_in = [la.asarray(x) for x in dev]

    def run_la():
        outs = fn(la, *la_in)
        return la.eval(outs)  # enqueued: asynchronous, the timer synchronizes the device

    runners = {"lazyarray": run_la, "cupy eager": lambda: fn(cp, *dev)}
    try:
        import jax
        import jax.numpy as jnp

        jin = [jax.device_put(x) for x in host_inputs]
        jfn = jax.jit(lambda *a: fn(jnp, *a))
        runners["jax jit"] = lambda: jax.block_until_ready(jfn(*jin))
    except ImportError:
        pass
    return runners, dev


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--markdown", default=None)
    args = parser.parse_args()
    import cupy as cp

    import lazyarray as la

    la.config(backend="cupy")
    rng = np.random.default_rng(0)
    rows = []
    for name, (inputs, fn) in _workloads(cp, rng).items():
        runners, dev = _runners(cp, fn, inputs)
        nbytes = sum(x.nbytes for x in dev) + max(x.nbytes for x in dev)  # read all, write ~one
        # a copy of n bytes reads n and writes n: n = half the workload's traffic (the first valid
        # run, stop 37, copied all of it, twice the workload's bytes: its copy× were half)
        src = cp.empty(nbytes // 8, cp.float32)
        dst = cp.empty_like(src)
        t = {k: _time(cp, f, args.repeat) for k, f in runners.items()}
        t["d2d copy"] = _time(cp, lambda d=dst, s=src: d.__setitem__(Ellipsis, s), args.repeat)
        rows.append((name, t))
        print(name, {k: round(v, 1) for k, v in t.items()}, flush=True)
    table = _table(rows)
    print(table)
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(table + "\n")
    return 0


def _table(rows) -> str:
    head = ("| workload | lazyarray µs | CuPy eager µs | JAX jit µs | copy µs | vs CuPy | vs JAX "
            "| copy× |\n|---|---|---|---|---|---|---|---|")
    lines = [head]
    for name, t in rows:
        la_t, cp_t, jx = t["lazyarray"], t["cupy eager"], t.get("jax jit", float("nan"))
        lines.append(f"| {name} | {la_t:.1f} | {cp_t:.1f} | {jx:.1f} | {t['d2d copy']:.1f} | "
                     f"{cp_t / la_t:.2f}× | {jx / la_t:.2f}× | {la_t / t['d2d copy']:.2f} |")
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
