"""Warm corpus programs (tests/programs/) in process CPU time: NumPy beside lazyarray.

bench_programs.py's wall clock moved 2-4x with the load of the shared machine; the CPU time of
this process (all its threads, so a C kernel's OpenMP workers count, other processes' not) moves
far less. Per program: `--repeat` calls of each after one lazyarray call that builds the plans
and compiles (background compiles off: the kernels run), the minimum of each; lazyarray's call
includes the `la.array` copies of the arguments and the evaluation of the results and
arguments, as in bench_programs.py. Values are not checked here (bench_programs.py and
tests/test_programs.py do).

Run: OPENBLAS_NUM_THREADS=1 python benchmarks/program_cpu.py --only ising,dijkstra [--repeat 7]
"""

from __future__ import annotations

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests"))
os.environ.setdefault("LAZYARRAY_BACKGROUND_COMPILES", "0")

import numpy  # noqa: E402

import lazyarray as la  # noqa: E402
import programs  # noqa: E402
from bench_programs import evaluate_call  # noqa: E402
from test_programs import to_lazy  # noqa: E402


def cpu_ms(call, repeat: int) -> float:
    """The minimum process CPU time of `repeat` calls, in ms."""
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time_ns()
        call()
        best = min(best, time.process_time_ns() - start)
    return best / 1e6


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--only", required=True, help="comma-separated program names")
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--backend", default="c")
    args = parser.parse_args()
    print("| program | NumPy ms | lazyarray ms | ratio |\n|---|---|---|---|")
    for name in args.only.split(","):
        module, inputs = programs.load(name), programs.make_inputs(name, "bench")

        def with_numpy():
            module.kernel(numpy, *[a.copy() if hasattr(a, "copy") else a for a in inputs])

        def with_lazyarray():
            lazy = [to_lazy(a) for a in inputs]
            evaluate_call(la, module.kernel(la, *lazy), lazy)

        with la.config(backend=args.backend):
            with_lazyarray()  # plans and kernels
            ours, theirs = cpu_ms(with_lazyarray, args.repeat), cpu_ms(with_numpy, args.repeat)
        print(f"| {name} | {theirs:.2f} | {ours:.2f} | {ours / theirs:.2f} |", flush=True)


if __name__ == "__main__":
    main()
