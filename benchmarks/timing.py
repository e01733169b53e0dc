"""Timing shared by the benchmark scripts (run as `python benchmarks/bench_*.py`, so this directory
is on sys.path)."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable


def median_seconds(fn: Callable[[], object], repeat: int) -> float:
    """Median wall time of `fn()` over `repeat` runs after one warm-up (compiles, caches)."""
    fn()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)
