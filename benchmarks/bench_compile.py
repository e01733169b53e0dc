"""Compile time of the C backend per plan: compiler CPU for chains of heavy math and small kernels.

Run: python benchmarks/bench_compile.py [--budget N]

One evaluation per case on 4,096 elements, in one fresh kernel-cache directory, after a warm-up
compile (which probes the toolchain); the figure is the compiler's CPU time
(`getrusage(RUSAGE_CHILDREN)` around the evaluation). `--budget N` overrides the inlining budget
(runtime/c_inline_budget.py; 0: every heavy call out of line). docs/caching.md has the results.
"""

from __future__ import annotations

import os
import resource
import shutil
import sys
import tempfile

import numpy as np

ROOT = tempfile.mkdtemp(prefix="lazyarray-bench-compile-")
os.environ["LAZYARRAY_CACHE_DIR"] = ROOT

from lazyarray.runtime import c_inline_budget

import lazyarray as la


def compiler_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def chain(fn, n: int):
    def build(x):
        y = x
        for _ in range(n):
            y = fn(y) * 0.5 + 0.25
        return y
    return build


def gelu(x):
    return la.nn.gelu(x)


def lstm(x):
    n = x.shape[0] // 4
    i, f, g, o = x[:n], x[n:2 * n], x[2 * n:3 * n], x[3 * n:]
    sig = la.nn.sigmoid
    c = sig(f) * 0.3 + sig(i) * la.tanh(g)
    return sig(o) * la.tanh(c)


def softmax(x):
    return la.nn.softmax(x.reshape(64, 64), axis=-1)


def main() -> None:
    if "--budget" in sys.argv:
        c_inline_budget.INLINE_BUDGET = int(sys.argv[sys.argv.index("--budget") + 1])
    la.config(backend="c")
    la.eval(la.asarray(np.ones(8, np.float32)) + 1)  # toolchain probe
    print(f"inlining budget {c_inline_budget.INLINE_BUDGET}; compiler CPU per plan")
    for dt in ("float32", "float64"):
        cases = [(f"{n} chained {fn.__name__}", chain(fn, n)) for fn in (la.tanh, la.exp)
                 for n in (20, 60)] + [("gelu", gelu), ("LSTM nonlinearity", lstm),
                                       ("softmax (64,64)", softmax)]
        for label, build in cases:
            x = la.asarray(np.random.default_rng(0).standard_normal(4096).astype(dt))
            before = compiler_cpu()
            la.eval(build(x))
            print(f"  {label:22s} {dt:8s} {1000 * (compiler_cpu() - before):7.0f} ms")
    shutil.rmtree(ROOT, ignore_errors=True)


if __name__ == "__main__":
    main()
