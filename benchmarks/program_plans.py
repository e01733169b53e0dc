"""Plans each corpus program (tests/programs/) builds per call: issue 24's closing note and
issue 25's "≤ 10 plans per call, 0 on a second call with the same sizes" target, measured.

For each program and backend: empty plan caches (`la.clear_caches()`), a first call, then a second
call on fresh copies of the same inputs; `la.cache_info()` before and after each gives plans built,
plan hits and graph cuts per call (results and every argument evaluated inside the call's count).
Programs the corpus marks with NEEDS (features on unmerged branches) are listed as skipped.

Run: python benchmarks/program_plans.py [--size small|bench] [--backend numpy,c] [--only a,b]
"""

from __future__ import annotations

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests"))
# count the compiled plans, not the interim NumPy-executor runs of background compiles
os.environ.setdefault("LAZYARRAY_BACKGROUND_COMPILES", "0")

import lazyarray as la  # noqa: E402
import programs  # noqa: E402
from test_programs import to_lazy, to_numpy  # noqa: E402


def one_call(module, args: tuple) -> dict[str, float]:
    """Run the program once on lazyarray copies of `args`; the cache counters it moved."""
    before = la.cache_info()
    start = time.perf_counter()
    lazy_args = [to_lazy(a) for a in args]
    to_numpy(module.kernel(la, *lazy_args))
    to_numpy(lazy_args)
    seconds = time.perf_counter() - start
    after = la.cache_info()
    return {"built": after.plans_built - before.plans_built,
            "hits": after.plan_hits - before.plan_hits,
            "cuts": after.graph_cuts - before.graph_cuts, "s": seconds}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--size", default="small", choices=("small", "bench"))
    parser.add_argument("--backend", default="numpy,c")
    parser.add_argument("--only", default="", help="comma-separated program names")
    args = parser.parse_args()
    names = [n for n in programs.NAMES if not args.only or n in args.only.split(",")]
    backends = args.backend.split(",")
    print(f"size={args.size}; per call: plans built / plan hits / graph cuts "
          "(first call from empty plan caches, second call with the same sizes)\n")
    print("| program | " + " | ".join(f"{b}: 1st call | {b}: 2nd call" for b in backends) + " |")
    print("|---|" + "---|---|" * len(backends))
    for name in names:
        waits = programs.needs(name)
        if waits:
            print(f"| {name} | " + " | ".join(["skipped (needs " + ", ".join(waits) + ")"] * 2
                                               * len(backends)) + " |")
            continue
        module = programs.load(name)
        inputs = programs.make_inputs(name, args.size)
        cells = []
        for backend in backends:
            with la.config(backend=backend):
                la.clear_caches()
                for _ in range(2):
                    c = one_call(module, inputs)
                    cells.append(f"{c['built']} / {c['hits']} / {c['cuts']}")
        print(f"| {name} | " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main()
