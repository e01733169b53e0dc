"""Per-statement cost of the index loops' building blocks (issue 25), lazyarray beside NumPy.

Each row is one statement of a corpus program (tests/programs/), run warm `n` times in a loop;
the time is this thread's CPU time (`time.thread_time`, which other processes on a shared
machine do not inflate), the min of 7 rounds, in us per execution. Before/after a change: run
this script under each build, alternating (docs/caching.md, "The at-once path in C, third
round").

Run: python benchmarks/bench_index_ops.py
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np

import lazyarray as la

_RNG = np.random.default_rng(0)


def _matrices(xp) -> dict:
    return dict(C=xp.asarray(_RNG.random((60, 60))), A=xp.asarray(_RNG.random((60, 80))),
                B=xp.asarray(_RNG.random((60, 80))), alpha=1.5, i=30, k=7, j=9)


def _rows(xp) -> dict:
    return dict(A=xp.asarray(_RNG.random((1500, 300))), w=xp.asarray(_RNG.random(300)), i=30)


def _table(xp) -> dict:
    return dict(t=xp.asarray(_RNG.integers(0, 9, (45, 45)).astype(np.int32)), i=5, j=30, k=12)


def _solve(xp) -> dict:
    return dict(L=xp.asarray(_RNG.random((60, 60))), x=xp.asarray(_RNG.random(60)),
                b=xp.asarray(_RNG.random(60)), i=30)


def _bytes(xp) -> dict:
    return dict(d=xp.asarray(_RNG.integers(0, 255, 64).astype(np.uint8)))


# (setup, statements separated by ';', executions per round)
ROWS: list[tuple[Callable, str, int]] = [
    (_matrices, "A[i, k]", 3000),
    (_matrices, "A[:i + 1, k]", 3000),
    (_matrices, "alpha * A[i, k]", 3000),
    (_matrices, "A[i, k] * A[j, k]", 3000),
    (_matrices, "C[i, :i + 1] += alpha * A[i, k] * A[:i + 1, k]", 3000),
    (_matrices, "B[i, j] += np.dot(A[i + 1:, i], B[i + 1:, j])", 3000),
    (_matrices, "C[i][j] = 0.5 * (C[i][j] + C[j][i]);C[j][i] = C[i][j]", 3000),
    (_matrices, "C[i, j] += C[i, j - 1];C[i, j] /= 9.0", 3000),
    (_solve, "x[i] = (b[i] - L[i, :i] @ x[:i]) / L[i, i]", 3000),
    (_rows, "row = A[i];prev = A[i - 1];row[:] = 0.5 * row + 0.25 * prev;row += w * 0.01", 3000),
    (_table, "t[i, j] = np.maximum(t[i, j], t[i, k] + t[k + 1, j])", 3000),
    (_bytes, "for b in d: int(b)", 300),
]


def per_statement(setup: Callable, statement: str, n: int, xp) -> float:
    """us per execution of `statement` (its names from `setup(xp)`), min of 7 rounds."""
    env = setup(xp)
    source = f"def _f({', '.join(env)}):\n" + "\n".join(f"    {s}" for s in statement.split(";"))
    scope: dict = {}
    exec(compile(source, "<statement>", "exec"), {"np": xp}, scope)
    fn, args = scope["_f"], list(env.values())
    for _ in range(300):
        fn(*args)
    best = float("inf")
    for _ in range(7):
        start = time.thread_time()
        for _ in range(n):
            fn(*args)
        best = min(best, (time.thread_time() - start) / n * 1e6)
    return best


def main() -> None:
    print("| statement | lazyarray us | NumPy us | lazyarray / NumPy |\n|---|---|---|---|")
    for setup, statement, n in ROWS:
        ours = per_statement(setup, statement, n, la)
        numpy = per_statement(setup, statement, n, np)
        print(f"| `{statement}` | {ours:.2f} | {numpy:.2f} | {ours / numpy:.1f}x |")
    print(f"tracing={la.cache_info().tracing}")


if __name__ == "__main__":
    main()
