"""Compile time of the C backend per plan: compiler CPU for chains of heavy math, small kernels,
and random graphs mixing many math functions.

Run: python benchmarks/bench_compile.py [--budget N] [--no-helper-library] [--seeds N]

Each case evaluates once on 4,096 elements, in one fresh kernel-cache directory, after a warm-up
compile (which probes the toolchain) and, unless `--no-helper-library`, after building the shared
helper library (runtime/c/helper_library.py; its build time is printed). A case may compile
several translation units (the node budget cuts long graphs); the figures are the compiler's CPU
time (`getrusage(RUSAGE_CHILDREN)`) of the case and of its slowest unit, with that unit's wall
time. `--budget N` overrides the inlining budget (runtime/c/inline_budget.py; 0: every heavy call
out of line). Random graphs: `--seeds` graphs of 300 math ops per float type (25 functions: our own
exp/tanh/log/sin/..., libm's tan/arcsin/cbrt/pow/hypot/...) at the default node budget, and one of
60 ops in one unit (`max_graph_nodes` raised); 64 row sums and 40 reductions read by one root, in one
graph (many reduction loop nests). docs/caching.md has the results.
"""

from __future__ import annotations

import os
import resource
import shutil
import sys
import tempfile
import time

import numpy as np

ROOT = tempfile.mkdtemp(prefix="lazyarray-bench-compile-")
os.environ["LAZYARRAY_CACHE_DIR"] = ROOT

from lazyarray.runtime.c import inline_budget as c_inline_budget

import lazyarray as la
from lazyarray.settings import get_settings


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


HEAVY = ("exp", "expm1", "tanh", "log", "log1p", "sin", "cos")
UNARY = ("sin", "cos", "tan", "arcsin", "arctan", "sinh", "cosh", "tanh", "arcsinh", "arctanh",
         "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sqrt", "cbrt")
BINARY = ("power", "arctan2", "hypot", "logaddexp", "add", "multiply")


def row_sums(x):
    """Loops as NumPy users write them: 64 row sums one by one (64 reduction loop nests)."""
    rows = x.reshape(64, 64)
    return la.stack([rows[i].sum() for i in range(64)])


def summed_reductions(x):
    """One root reading 40 reductions (`s = s + la.sum(x * k)` in a loop)."""
    s = la.asarray(np.zeros((), x.dtype))
    for k in range(40):
        s = s + la.sum(x * k)
    return s


def all_heavy(x):
    return sum(getattr(la, f)(x * 0.5) for f in HEAVY)


def random_graph(seed: int, n_ops: int):
    """n_ops random math ops over recent values, arguments kept in range."""
    def build(x):
        rng = np.random.default_rng(seed)
        values = [x]
        for _ in range(n_ops):
            pick = lambda: values[rng.integers(max(0, len(values) - 4), len(values))]  # noqa: E731
            if rng.random() < 0.6:
                f = getattr(la, UNARY[rng.integers(len(UNARY))])
                values.append(f(la.abs(pick()) * 0.5 + 0.1))
            else:
                f = getattr(la, BINARY[rng.integers(len(BINARY))])
                values.append(f(la.abs(pick()) * 0.5 + 0.1, la.abs(pick()) * 0.25 + 0.1) * 0.5)
        return values[-1]
    return build


class Units:
    """Compiler CPU and wall time of each translation unit compiled (c_compiler._compile)."""

    def __init__(self) -> None:
        from lazyarray.runtime.c import compiler as c_compiler

        self.seen: list[tuple[float, float]] = []
        compile_unit = c_compiler._compile

        def timed(*args):
            cpu, wall = compiler_cpu(), time.perf_counter()
            compile_unit(*args)
            self.seen.append((compiler_cpu() - cpu, time.perf_counter() - wall))
        c_compiler._compile = timed


def build_helper_library() -> None:
    from lazyarray.runtime.c import compiler as c_compiler, helper_library as c_helper_library

    tc = c_compiler.toolchain()
    directory = c_compiler.kernel_dir(tc)
    cpu, wall = compiler_cpu(), time.perf_counter()
    built = c_helper_library.build(directory, tc)
    print(f"shared helper library: {'built' if built else 'FAILED'} in "
          f"{1000 * (compiler_cpu() - cpu):.0f} ms compiler CPU, "
          f"{1000 * (time.perf_counter() - wall):.0f} ms wall")


def main() -> None:
    if "--budget" in sys.argv:
        c_inline_budget.INLINE_BUDGET = int(sys.argv[sys.argv.index("--budget") + 1])
    seeds = int(sys.argv[sys.argv.index("--seeds") + 1]) if "--seeds" in sys.argv else 3
    la.config(backend="c", background_compiles=False)
    la.eval(la.asarray(np.ones(8, np.float32)) + 1)  # toolchain probe
    if "--no-helper-library" in sys.argv:  # as before it existed: none is built, not even later
        from lazyarray.runtime.c import helper_library as c_helper_library

        c_helper_library.start_build = lambda *args: None
    else:
        build_helper_library()
    units = Units()
    print(f"inlining budget {c_inline_budget.INLINE_BUDGET} "
          f"({c_inline_budget.LIBRARY_BUDGET} with the helper library); compiler CPU per case "
          "(units), slowest unit CPU / wall")
    worst = (0.0, 0.0, "")
    for dt in ("float32", "float64"):
        cases = [(f"{n} chained {fn.__name__}", chain(fn, n), 500) for fn in (la.tanh, la.exp)
                 for n in (20, 60)] + [("gelu", gelu, None), ("LSTM nonlinearity", lstm, None),
                                       ("softmax (64,64)", softmax, None),
                                       ("7 functions, one unit", all_heavy, None),
                                       ("64 row sums", row_sums, 10**6),
                                       ("40 sums into one root", summed_reductions, 10**6)]
        cases += [(f"random 300 ops #{k}", random_graph(k, 300), None) for k in range(seeds)]
        cases += [("random 60 ops, one unit", random_graph(99, 60), 10**6)]
        for label, build, budget in cases:
            x = la.asarray(np.random.default_rng(0).standard_normal(4096).astype(dt))
            before, units.seen = compiler_cpu(), []
            with la.config(max_graph_nodes=budget or get_settings().max_graph_nodes):
                la.eval(build(x))
            slow = max(units.seen, default=(0.0, 0.0))
            worst = max(worst, (*slow, f"{label} {dt}"))
            print(f"  {label:26s} {dt:8s} {1000 * (compiler_cpu() - before):7.0f} ms "
                  f"({len(units.seen):2d}), slowest {1000 * slow[0]:4.0f} / {1000 * slow[1]:4.0f} ms")
    print(f"slowest unit: {1000 * worst[0]:.0f} ms compiler CPU, {1000 * worst[1]:.0f} ms wall "
          f"({worst[2]})")
    shutil.rmtree(ROOT, ignore_errors=True)


if __name__ == "__main__":
    main()
