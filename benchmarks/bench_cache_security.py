"""What issue 30's load checks cost on a disk-cache hit: a fresh process loading kernels from a
filled cache, with the checks (each library's sha256 against its index entry, once per library
per process) and with the hash comparison stubbed out, alternated; min of the repeats.

    python benchmarks/bench_cache_security.py [--repeat 5]

Also times `cache_security.verified` alone on each library of the cache (min of 200).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

TESTS = Path(__file__).resolve().parent.parent / "tests"
OPS = ("exp", "log", "sin", "cos", "tanh", "sqrt", "negative", "abs", "square", "floor",
       "ceil", "reciprocal")

# Mode "fill" compiles one library per op; "load" times loading them all from disk (what a disk
# hit does once the kernel's symbol is known) in this fresh process, "stub" the same with the
# sha256 comparison replaced by True.
CHILD = """
import json, sys, time
sys.path.insert(0, {tests!r})
import c_programs as P
from lazyarray.runtime.c import compiler as c_compiler
from lazyarray.runtime import cache_security, compile_stats
from lazyarray.runtime.c.backend import CBackend
mode = sys.argv[1]
if mode == "stub":
    cache_security.verified = lambda path, digest: True
programs = [P.elementwise_program(op, ["float32"], "float32", 64) for op in {ops!r}]
if mode == "fill":
    for prog in programs:
        CBackend().compile(prog)
    print(json.dumps({{"s": 0, "n": len(programs), **compile_stats.stats.snapshot()}}))
    sys.exit()
directory = c_compiler.kernel_dir()  # the probe file and the directory checks: before timing
symbols = sorted(p.name[2:-4] for p in directory.glob("k-*.idx"))
times = []
for symbol in symbols:  # a disk hit's own step: index entry, sha256, dlopen (the team first), bind
    start = time.perf_counter()
    assert c_compiler._load_from_disk(directory, symbol)
    times.append(time.perf_counter() - start)
rest = sorted(times[1:])  # the first also loads libgomp and the thread team
print(json.dumps({{"s": rest[len(rest) // 2], "first": times[0], "n": len(symbols),
                  "kernels_compiled": 0, "kernel_disk_hits": len(symbols)}}))
"""


def child(cache: str, mode: str) -> dict:
    env = dict(os.environ, LAZYARRAY_CACHE_DIR=cache, LAZYARRAY_BACKGROUND_COMPILES="0")
    out = subprocess.run([sys.executable, "-c", CHILD.format(tests=str(TESTS), ops=OPS), mode],
                         capture_output=True, text=True, env=env, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    repeat = int(sys.argv[sys.argv.index("--repeat") + 1]) if "--repeat" in sys.argv else 5
    with tempfile.TemporaryDirectory() as cache:
        child(cache, "fill")
        best = {"load": float("inf"), "stub": float("inf")}
        first = {"load": float("inf"), "stub": float("inf")}
        for _ in range(repeat):
            for mode in ("load", "stub"):
                r = child(cache, mode)
                assert r["kernels_compiled"] == 0 and r["kernel_disk_hits"] == r["n"], r
                best[mode] = min(best[mode], r["s"])
                first[mode] = min(first[mode], r["first"])
        n = len(OPS)
        print(f"disk hit per kernel library (fresh process, median of {n - 1} one-kernel "
              f"libraries, min of {repeat} processes): checked {best['load'] * 1e6:.0f} us, "
              f"sha256 comparison stubbed {best['stub'] * 1e6:.0f} us; the first library "
              f"(libgomp and the team library too): {first['load'] * 1e3:.2f} / "
              f"{first['stub'] * 1e3:.2f} ms")
        from lazyarray.runtime import cache_security

        recorded = dict(entry.read_text().split() for entry in Path(cache).glob("c-v2/*/k-*.idx"))
        for lib in sorted(Path(cache).glob("c-v2/*/lib-*.so"))[:3]:
            digest = recorded[lib.name]
            times = []
            for _ in range(200):
                t = time.perf_counter()
                assert cache_security.verified(lib, digest)
                times.append(time.perf_counter() - t)
            print(f"verified({lib.name}, {lib.stat().st_size / 1024:.1f} KiB): "
                  f"{min(times) * 1e6:.1f} us (min of 200)")


if __name__ == "__main__":
    main()
