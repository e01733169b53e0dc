"""Per-statement cost of common NumPy idioms on small arrays, lazyarray beside NumPy.

What an index loop pays per statement (20-element vectors, a (20, 20) matrix): thread CPU time,
min of 7 x 300 calls, every kernel compiled first (background compiles off), sorted by the ratio.
docs/caching.md "Per-statement costs of common idioms" has the figures it found.

Run: LAZYARRAY_NUM_THREADS=1 python benchmarks/bench_statements.py
"""

from __future__ import annotations

import os
import time

os.environ.setdefault("LAZYARRAY_BACKGROUND_COMPILES", "0")

import numpy  # noqa: E402

import lazyarray as la  # noqa: E402


def bench(fn, n: int = 300) -> float:
    best = 1e9
    for _ in range(7):
        t = time.thread_time_ns()
        for _ in range(n):
            fn()
        best = min(best, (time.thread_time_ns() - t) / n)
    return best / 1000

def cases(np, mk) -> dict:
    A = mk(numpy.random.default_rng(0).random((20, 20)))
    v = mk(numpy.random.default_rng(1).random(20))
    iv = mk(numpy.arange(20))
    m = mk(numpy.random.default_rng(2).random(20) > 0.5)
    idx = numpy.array([1, 3, 5])
    out = {
        "A[i, :] = v": lambda: A.__setitem__((3, slice(None)), v),
        "A[:, j] = v": lambda: A.__setitem__((slice(None), 3), v),
        "v[idx] = 0": lambda: v.__setitem__(idx, 0.0),
        "v[m] = 0": lambda: v.__setitem__(m, 0.0),
        "v[idx] += 1": lambda: v.__setitem__(idx, v[idx] + 1),
        "v.sum()": lambda: float(v.sum()),
        "np.sum(A, axis=0)": lambda: np.sum(A, axis=0),
        "A.T @ v": lambda: A.T @ v,
        "np.dot(v, v)": lambda: float(np.dot(v, v)),
        "np.argmax(v)": lambda: int(np.argmax(v)),
        "np.where(m, v, 0)": lambda: np.where(m, v, 0.0),
        "np.concatenate": lambda: np.concatenate([v, v]),
        "np.stack": lambda: np.stack([v, v]),
        "np.linalg.norm(v)": lambda: float(np.linalg.norm(v)),
        "np.abs(v).max()": lambda: float(np.abs(v).max()),
        "np.sqrt(v) + 1": lambda: np.sqrt(v) + 1,
        "v.copy()": lambda: v.copy(),
        "v.reshape(4, 5)": lambda: v.reshape(4, 5),
        "np.zeros(20)": lambda: np.zeros(20),
        "np.arange(20)": lambda: np.arange(20),
        "np.ones_like(v)": lambda: np.ones_like(v),
        "np.clip(v, .2, .8)": lambda: np.clip(v, 0.2, 0.8),
        "np.cumsum(v)": lambda: np.cumsum(v),
        "np.sort(v)": lambda: np.sort(v),
        "np.argsort(v)": lambda: np.argsort(v),
        "np.mean(A, axis=1)": lambda: np.mean(A, axis=1),
        "np.outer(v, v)": lambda: np.outer(v, v),
        "A[idx]": lambda: A[idx],
        "A[m]": lambda: A[m],
        "v[m].sum()": lambda: float(v[m].sum()),
        "np.maximum(v, 0.5)": lambda: np.maximum(v, 0.5),
        "(v > .5).any()": lambda: bool((v > 0.5).any()),
        "np.allclose(v, v)": lambda: np.allclose(v, v),
        "np.exp(-v) * v": lambda: np.exp(-v) * v,
        "iv % 3 == 0": lambda: iv % 3 == 0,
        "np.round(v, 2)": lambda: np.round(v, 2),
        "np.diff(v)": lambda: np.diff(v),
        "np.roll(v, 1)": lambda: np.roll(v, 1),
        "np.linalg.solve": lambda: np.linalg.solve(A, v),
        "np.eye(20)": lambda: np.eye(20),
        "v.tolist()": lambda: v.tolist(),
        "A.astype(np.float32)": lambda: A.astype(numpy.float32),
        "np.unique(iv % 5)": lambda: np.unique(iv % 5),
        "np.histogram": lambda: np.histogram(v, bins=5),
        "np.percentile": lambda: np.percentile(v, 50),
        "np.bincount": lambda: np.bincount(iv % 5),
        "np.vstack": lambda: np.vstack([v, v]),
        "np.tile": lambda: np.tile(v, 2),
        "np.linspace": lambda: np.linspace(0, 1, 20),
        "np.isnan(v).sum()": lambda: int(np.isnan(v).sum()),
        "np.mean(v)": lambda: float(np.mean(v)),
        "np.std(v)": lambda: float(np.std(v)),
        "np.interp": lambda: np.interp(v, v, v),
        "A[1:-1, 1:-1] += 1": lambda: A.__setitem__((slice(1, -1), slice(1, -1)), A[1:-1, 1:-1] + 1),
        "v[::-1]": lambda: v[::-1],
        "np.append(v, 1)": lambda: np.append(v, 1.0),
        "np.fill_diagonal": lambda: np.fill_diagonal(A, 0.0),
        "np.triu(A)": lambda: np.triu(A),
        "np.einsum('ij,j', A, v)": lambda: np.einsum("ij,j->i", A, v),
        "np.trace(A)": lambda: float(np.trace(A)),
        # index loops' idioms (stop 48, helper stmt48)
        "np.linalg.norm(A[i] - A[j])": lambda: float(np.linalg.norm(A[3] - A[5])),
        "A[i][j]": lambda: float(A[3][5]),
        "A[i, j]": lambda: float(A[3, 5]),
        "np.dot(A[i], v)": lambda: float(np.dot(A[3], v)),
        "v.max() - v.min()": lambda: float(v.max() - v.min()),
        "np.any(v > 0.5)": lambda: bool(np.any(v > 0.5)),
        "np.argwhere(v > .5)": lambda: np.argwhere(v > 0.5),
        "np.flatnonzero(v > .5)": lambda: np.flatnonzero(v > 0.5),
        "np.nonzero(v > .5)": lambda: np.nonzero(v > 0.5),
        "np.count_nonzero(v > .5)": lambda: int(np.count_nonzero(v > 0.5)),
        "np.searchsorted": lambda: np.searchsorted(iv, 7),
        "np.cumprod(v)": lambda: np.cumprod(v),
        "np.abs(v - w) < tol": lambda: np.abs(v - A[3]) < 1e-3,
        "v.astype(int)": lambda: v.astype(int),
        "np.array([a, b, c])": lambda: np.array([0.5, 1.5, 2.5]),
        "list(v)": lambda: list(v),
        "v.tolist() of A[i]": lambda: A[3].tolist(),
        "np.zeros((20, 20))": lambda: np.zeros((20, 20)),
        "np.full(20, 2.0)": lambda: np.full(20, 2.0),
        "np.empty(20)": lambda: np.empty(20),
        "np.zeros_like(v)": lambda: np.zeros_like(v),
        "v.reshape(-1, 1)": lambda: v.reshape(-1, 1),
        "v[:, None]": lambda: v[:, None],
        "A.ravel()": lambda: A.ravel(),
    }
    return out


def main() -> None:
    nps = cases(numpy, lambda a: a)
    las = cases(la, la.asarray)
    rows = []
    for k in nps:
        tn, tl = bench(nps[k]), bench(las[k])
        rows.append((tl / tn, k, tn, tl))
    print("| statement | NumPy us | lazyarray us | lazyarray / NumPy |\n|---|---|---|---|")
    for r, k, tn, tl in sorted(rows, reverse=True):
        print(f"| `{k}` | {tn:.2f} | {tl:.2f} | {r:.1f} |")


if __name__ == "__main__":
    main()
