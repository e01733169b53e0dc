"""What NumPy's protocols cost when tracing: `np.f(a)` on a lazy Array against `la.f(a)`.

Both build the same lazy node (nothing is evaluated); the difference is NumPy's dispatch plus
lazyarray/_protocols.py translating NumPy's arguments. Run: python benchmarks/bench_protocols.py
"""

from __future__ import annotations

import timeit

import numpy as np

import lazyarray as la


def _per_call_us(fn, number: int = 5000) -> float:
    return min(timeit.repeat(fn, number=number, repeat=5)) / number * 1e6


def main() -> None:
    a, b, h = la.ones((4, 8)), la.ones((4, 8)), np.ones((4, 8))
    rows = [
        ("exp", lambda: np.exp(a), lambda: la.exp(a)),
        ("ndarray + Array", lambda: h + a, lambda: la.add(h, a)),
        ("sum", lambda: np.sum(a), lambda: la.sum(a)),
        ("mean(axis=0)", lambda: np.mean(a, axis=0), lambda: la.mean(a, axis=0)),
        ("concatenate", lambda: np.concatenate([a, b]), lambda: la.concat([a, b])),
        ("where", lambda: np.where(a > 0, a, b), lambda: la.where(a > 0, a, b)),
        ("add.reduce(axis=1)", lambda: np.add.reduce(a, axis=1), lambda: la.sum(a, axis=1)),
    ]
    print(f"{'call':<22}{'np.f(Array) us':>16}{'la.f(Array) us':>16}{'ratio':>8}")
    for name, via_numpy, direct in rows:
        t_np, t_la = _per_call_us(via_numpy), _per_call_us(direct)
        print(f"{name:<22}{t_np:>16.1f}{t_la:>16.1f}{t_np / t_la:>8.2f}")


if __name__ == "__main__":
    main()
